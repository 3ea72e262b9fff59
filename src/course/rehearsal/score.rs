//! What the learner did with each question, and the scorecard worked out from it.

/// How one question ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// A prediction: the outcome word picked.
    Pick(String),
    /// An explanation: the learner's words and the rubric points scored.
    Words { text: String, ticked: Vec<bool> },
    /// The write-it round: rows passed of rows graded, the grader's report in lines, and
    /// the rows that did not pass, with the trap each wrong answer fell into.
    Written {
        passed: usize,
        total: usize,
        report: Vec<String>,
        failing: Vec<Failing>,
    },
    /// Passed over with `s` (or an explanation left empty and gone on from): what was
    /// written by then (empty when nothing was), kept for the transcript though it earns
    /// no points.
    Skipped { text: String },
    /// The clock ran out while the question was open: what was written by then (empty
    /// when nothing was), kept for the transcript though it earns no points.
    OutOfTime { text: String },
    /// The clock ran out before the question was shown.
    NotReached,
}

/// A grading row the write-it round did not pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failing {
    pub id: String,
    /// The trap the row's wrong answer fell into (`not anchored`), when one is named.
    pub trap: Option<&'static str>,
    /// How the function failed when it gave no answer to judge (`raised an error`).
    pub no_answer: Option<&'static str>,
}

impl Failing {
    /// `held-unanchored-suffix (not anchored)`, `held-bool-id (raised an error)`.
    pub fn line(&self) -> String {
        match self.trap.or(self.no_answer) {
            Some(t) => format!("{} ({t})", self.id),
            None => self.id.clone(),
        }
    }
}

/// A list of failing rows as it is shown: the heading over it, starting with `lead`
/// (`Failing rows`) and saying what the brackets hold, then each row's line. When every
/// row failed the same way with no answer (the function raised on each), the heading says
/// so once and the rows are bare ids.
pub fn failing_list(lead: &str, failing: &[Failing]) -> (String, Vec<String>) {
    let first = failing.first().and_then(|f| f.no_answer);
    if let Some(how) = first
        && failing
            .iter()
            .all(|f| f.no_answer == first && f.trap.is_none())
    {
        let heading = format!("{lead}: the function {how} on each, so no answer shows a trap:");
        return (heading, failing.iter().map(|f| f.id.clone()).collect());
    }
    let heading = if failing.iter().all(|f| f.trap.is_some()) {
        format!("{lead}, each with the trap its answer fell into:")
    } else if failing
        .iter()
        .all(|f| f.trap.is_none() && f.no_answer.is_none())
    {
        format!("{lead} (wrong answers, none in a trap the grader names):")
    } else {
        format!("{lead}, with the trap a wrong answer fell into or how the function failed:")
    };
    (heading, failing.iter().map(Failing::line).collect())
}

/// One answered (or unanswered) question.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// Index of the question in the drill.
    pub index: usize,
    pub given: Given,
    /// Score in hundredths of a question (0..=100).
    pub points: u32,
    /// Time spent on the question, in milliseconds.
    pub ms: u64,
}

impl Answer {
    /// Full marks on a prediction, at least half the rubric on an explanation, every row
    /// on the write-it round (a round with a failing row is not passed, whatever its share
    /// of the points).
    pub fn right(&self) -> bool {
        match &self.given {
            Given::Written { passed, total, .. } => *total > 0 && passed == total,
            Given::Skipped { .. } | Given::OutOfTime { .. } | Given::NotReached => false,
            Given::Pick(_) | Given::Words { .. } => self.points >= 50,
        }
    }

    /// How the question ended, in a word or two: right, missed, passed, not passed,
    /// skipped, time's up, not reached.
    pub fn status(&self) -> &'static str {
        match (&self.given, self.right()) {
            (Given::Skipped { .. }, _) => "skipped",
            (Given::OutOfTime { .. }, _) => "time's up",
            (Given::NotReached, _) => "not reached",
            (Given::Written { .. }, true) => "passed",
            (Given::Written { .. }, false) => "not passed",
            (_, true) => "right",
            (_, false) => "missed",
        }
    }

    /// Was it answered (not skipped, not cut off by the clock)?
    pub fn answered(&self) -> bool {
        !matches!(
            self.given,
            Given::Skipped { .. } | Given::OutOfTime { .. } | Given::NotReached
        )
    }

    /// Was it shown at all (the clock did not run out before it)?
    pub fn shown(&self) -> bool {
        self.given != Given::NotReached
    }

    /// A miss: shown and not right. A skip, or the question open when the clock ran out,
    /// is one (it was seen and not answered); a question never shown is not.
    pub fn missed(&self) -> bool {
        self.shown() && !self.right()
    }
}

/// Points for a pick: all or nothing.
pub fn pick_points(pick: &str, answer: &str) -> u32 {
    if pick == answer { 100 } else { 0 }
}

/// Points for a share (rubric points ticked, rows passed), in hundredths, rounded down.
pub fn share_points(got: usize, of: usize) -> u32 {
    if of == 0 {
        return 0;
    }
    u32::try_from(got.min(of) * 100 / of).unwrap_or(0)
}

/// The numbers at the end of a drill.
#[derive(Debug, Clone, PartialEq)]
pub struct Scorecard {
    /// Questions in the drill.
    pub asked: usize,
    /// Questions answered right (see `Answer::right`).
    pub right: usize,
    /// Sum of points, in hundredths of a question.
    pub points: u32,
    /// Mean time on the questions that got an answer (skips and run-outs left out).
    pub mean_ms: u64,
    /// Indices of answers, slowest first (at most three, answered ones only).
    pub slowest: Vec<usize>,
    /// Indices of the misses (see `Answer::missed`), in drill order.
    pub missed: Vec<usize>,
    /// Indices of the questions the clock ran out before (not misses), in drill order.
    pub not_reached: Vec<usize>,
}

impl Scorecard {
    /// The questions not reached, as the drill numbers them: `Q2, Q3`.
    pub fn not_reached_list(&self) -> String {
        let names: Vec<String> = self
            .not_reached
            .iter()
            .map(|i| format!("Q{}", i + 1))
            .collect();
        names.join(", ")
    }

    pub fn of(answers: &[Answer]) -> Scorecard {
        let answered: Vec<&Answer> = answers.iter().filter(|a| a.answered()).collect();
        let total_ms: u64 = answered.iter().map(|a| a.ms).sum();
        let mean_ms = match answered.len() {
            0 => 0,
            n => total_ms / n as u64,
        };
        let mut by_time: Vec<&Answer> = answered.clone();
        by_time.sort_by(|a, b| b.ms.cmp(&a.ms).then(a.index.cmp(&b.index)));
        Scorecard {
            asked: answers.len(),
            right: answers.iter().filter(|a| a.right()).count(),
            points: answers.iter().map(|a| a.points).sum(),
            mean_ms,
            slowest: by_time.iter().take(3).map(|a| a.index).collect(),
            missed: answers
                .iter()
                .filter(|a| a.missed())
                .map(|a| a.index)
                .collect(),
            not_reached: answers
                .iter()
                .filter(|a| !a.shown())
                .map(|a| a.index)
                .collect(),
        }
    }

    /// Accuracy as a whole percentage of the questions asked.
    pub fn percent(&self) -> u32 {
        match u32::try_from(self.asked) {
            Ok(0) | Err(_) => 0,
            Ok(n) => self.points / n,
        }
    }

    /// The mean time per answered question, or that none was answered.
    pub fn mean_words(&self) -> String {
        if self.slowest.is_empty() {
            "none answered".to_owned()
        } else {
            seconds(self.mean_ms)
        }
    }

    /// What the score counts, said whole: `6 of 9 right, 60% of points`.
    pub fn headline(&self) -> String {
        format!(
            "{} of {} right, {}% of points",
            self.right,
            self.asked,
            self.percent()
        )
    }
}

/// `1:05`, `0:09`: minutes and seconds.
pub fn clock(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

/// `4.2 s`: seconds with one decimal.
pub fn seconds(ms: u64) -> String {
    format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(index: usize, given: Given, points: u32, ms: u64) -> Answer {
        Answer {
            index,
            given,
            points,
            ms,
        }
    }

    #[test]
    fn a_failing_list_says_what_its_brackets_hold() {
        let row = |id: &str, trap, no_answer| Failing {
            id: id.to_owned(),
            trap,
            no_answer,
        };
        let raised = [
            row("a", None, Some("raised an error")),
            row("b", None, Some("raised an error")),
        ];
        let (heading, rows) = failing_list("Failing rows", &raised);
        assert_eq!(
            heading,
            "Failing rows: the function raised an error on each, so no answer shows a trap:"
        );
        assert_eq!(rows, ["a", "b"]);
        let trapped = [row("a", Some("not anchored"), None)];
        let (heading, rows) = failing_list("Failing rows", &trapped);
        assert_eq!(
            heading,
            "Failing rows, each with the trap its answer fell into:"
        );
        assert_eq!(rows, ["a (not anchored)"]);
        let mixed = [
            row("a", Some("not anchored"), None),
            row("b", None, Some("ran past its time limit")),
            row("c", None, None),
        ];
        let (heading, rows) = failing_list("Failing rows", &mixed);
        assert!(heading.contains("or how the function failed"), "{heading}");
        assert_eq!(
            rows,
            ["a (not anchored)", "b (ran past its time limit)", "c"]
        );
        let (heading, _) = failing_list("Failing rows", &[row("c", None, None)]);
        assert!(heading.contains("none in a trap"), "{heading}");
    }

    #[test]
    fn scorecard_math() {
        let answers = vec![
            answer(0, Given::Pick("ok".into()), pick_points("ok", "ok"), 4_000),
            answer(
                1,
                Given::Pick("type".into()),
                pick_points("type", "ok"),
                9_000,
            ),
            answer(
                2,
                Given::Words {
                    text: "because".into(),
                    ticked: vec![true, true, false, false],
                },
                share_points(2, 4),
                30_000,
            ),
            answer(
                3,
                Given::Written {
                    passed: 1,
                    total: 3,
                    report: vec![],
                    failing: vec![],
                },
                share_points(1, 3),
                60_000,
            ),
            answer(
                4,
                Given::Skipped {
                    text: "half".into(),
                },
                0,
                1_000,
            ),
            answer(
                5,
                Given::OutOfTime {
                    text: String::new(),
                },
                0,
                0,
            ),
            answer(6, Given::NotReached, 0, 0),
        ];
        let card = Scorecard::of(&answers);
        assert_eq!(card.asked, 7);
        // A right pick and half the rubric count as right; a third of the rows does not.
        assert_eq!(card.right, 2);
        assert_eq!(card.points, 100 + 50 + 33);
        assert_eq!(card.percent(), 183 / 7);
        // Skips and run-outs are left out of the mean.
        assert_eq!(card.mean_ms, (4_000 + 9_000 + 30_000 + 60_000) / 4);
        assert_eq!(card.slowest, vec![3, 2, 1]);
        // A skip and a run-out were seen: misses. A question never shown is not one.
        assert_eq!(card.missed, vec![1, 3, 4, 5]);
        assert_eq!(card.not_reached, vec![6]);
        assert_eq!(card.headline(), "2 of 7 right, 26% of points");
    }

    #[test]
    fn a_write_it_round_with_a_failing_row_is_not_passed() {
        let written = |passed| Given::Written {
            passed,
            total: 65,
            report: vec![],
            failing: vec![],
        };
        let almost = answer(0, written(64), share_points(64, 65), 1);
        assert!(!almost.right(), "98% of the rows is not a pass");
        assert_eq!(almost.status(), "not passed");
        assert_eq!(almost.points, 98, "its points still count");
        let all = answer(0, written(65), 100, 1);
        assert!(all.right());
        assert_eq!(all.status(), "passed");
        let nothing = Given::Written {
            passed: 0,
            total: 0,
            report: vec![],
            failing: vec![],
        };
        let none = answer(0, nothing, 0, 1);
        assert!(!none.right(), "nothing graded is not a pass");
        for (g, word) in [
            (
                Given::Skipped {
                    text: String::new(),
                },
                "skipped",
            ),
            (
                Given::OutOfTime {
                    text: "half".into(),
                },
                "time's up",
            ),
            (Given::NotReached, "not reached"),
        ] {
            assert_eq!(answer(0, g, 0, 0).status(), word);
        }
    }

    #[test]
    fn an_empty_drill_scores_nothing_without_dividing_by_zero() {
        let card = Scorecard::of(&[]);
        assert_eq!((card.asked, card.percent(), card.mean_ms), (0, 0, 0));
        assert_eq!(share_points(3, 0), 0);
    }

    #[test]
    fn times_read_as_a_clock() {
        assert_eq!(clock(65_400), "1:05");
        assert_eq!(clock(9_999), "0:09");
        assert_eq!(seconds(4_250), "4.2 s");
    }
}
