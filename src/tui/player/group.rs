//! The words of a group row (the lanes that have no row of their own, by state): how many
//! calls and how many turns it holds, counted apart, so its numbers agree with the run's
//! count of calls.

use crate::replay::run::LaneState;
use crate::text::plural;

/// What a group row holds: its calls and its turns, counted apart, and the state words.
pub struct GroupWords<'a> {
    pub calls: usize,
    pub turns: usize,
    /// The calls' state.
    pub word: &'a str,
    /// The turns' state.
    pub turn_word: &'static str,
}

/// The state word for turns: a finished turn is done, not `ok`.
pub fn turn_word(states: &[LaneState]) -> &'static str {
    match states {
        [LaneState::Ok] => "done",
        [s] => s.word(),
        _ => "other",
    }
}

impl GroupWords<'_> {
    /// The row's label in `width` cells: `+15 ok`, `+27 turns done`, `+15 ok +30 turns`.
    /// Calls and turns in a state both can be in (`not yet`) may be counted together
    /// when the two counts do not fit.
    pub fn label(&self, width: usize) -> String {
        let turns = plural(self.turns, "turn", "turns");
        let apart = match (self.calls, self.turns) {
            (c, 0) => format!("+{c} {}", self.word),
            (0, _) => format!("+{turns} {}", self.turn_word),
            (c, _) => format!("+{c} {} +{turns}", self.word),
        };
        if crate::text::width(&apart) > width && self.word == self.turn_word {
            return format!("+{} {}", self.calls + self.turns, self.word);
        }
        apart
    }

    /// What the row stands for, in words: `195 calls waiting for a slot; at most 22 of them
    /// ran at once`, in the longest wording that fits `width`.
    pub fn caption(&self, max: usize, width: usize) -> String {
        let mut long = Vec::new();
        let mut short = Vec::new();
        if self.calls > 0 {
            let c = plural(self.calls, "call", "calls");
            long.push(format!("{c} {}", self.word));
            short.push(c);
        }
        if self.turns > 0 {
            let t = plural(self.turns, "turn", "turns");
            long.push(format!("{t} {}", self.turn_word));
            short.push(t);
        }
        let (long, short) = (long.join(", "), short.join(", "));
        if self.calls + self.turns == 1 {
            return long;
        }
        let ran = if max == 0 {
            "none ran".to_owned()
        } else {
            format!("at most {max} of them ran at once")
        };
        [
            format!("{long}; {ran}"),
            format!("{short}; {ran}"),
            format!("{short}, {max} at most at once"),
            short.clone(),
        ]
        .into_iter()
        .find(|t| crate::text::width(t) <= width)
        .unwrap_or(short)
    }
}

#[cfg(test)]
mod tests {
    use super::GroupWords;

    fn calls(calls: usize, word: &str) -> GroupWords<'_> {
        GroupWords {
            calls,
            turns: 0,
            word,
            turn_word: "done",
        }
    }

    #[test]
    fn a_group_says_in_words_what_it_holds() {
        let waiting = calls(195, "waiting for a slot");
        assert_eq!(
            waiting.caption(22, 80),
            "195 calls waiting for a slot; at most 22 of them ran at once"
        );
        assert_eq!(waiting.label(30), "+195 waiting for a slot");
        assert_eq!(calls(1, "ok").caption(1, 80), "1 call ok");
        assert_eq!(waiting.caption(22, 30), "195 calls, 22 at most at once");
        assert_eq!(
            calls(7, "running").caption(0, 80),
            "7 calls running; none ran"
        );
    }

    /// Finished turns share the `ok` state with ok calls; the row counts them apart, so its
    /// numbers agree with the run's count of calls.
    #[test]
    fn a_group_counts_calls_apart_from_turns() {
        let mixed = GroupWords {
            calls: 15,
            turns: 30,
            word: "ok",
            turn_word: "done",
        };
        assert_eq!(mixed.label(20), "+15 ok +30 turns");
        assert_eq!(mixed.label(10), "+15 ok +30 turns", "cut, never summed");
        assert_eq!(
            mixed.caption(3, 80),
            "15 calls ok, 30 turns done; at most 3 of them ran at once"
        );
        assert_eq!(mixed.caption(3, 20), "15 calls, 30 turns");
        let turns = GroupWords { calls: 0, ..mixed };
        assert_eq!(turns.label(20), "+30 turns done");
        let later = GroupWords {
            calls: 3,
            turns: 1,
            word: "not yet",
            turn_word: "not yet",
        };
        assert_eq!(later.label(20), "+3 not yet +1 turn");
        assert_eq!(later.label(15), "+4 not yet", "not yet holds for both");
        assert_eq!(
            turns.caption(1, 80),
            "30 turns done; at most 1 of them ran at once"
        );
    }
}
