//! A conversation audited, as the trace player plays it: its model turns and tool calls as
//! lanes in order, each call with its arguments, the verdict, the result text as the model
//! saw it and its findings (each with what it means and the lesson that teaches it). A
//! recording has no virtual time: steps go by order, or by the record's own timestamps when
//! every turn and result has one.

use serde_json::Value;

use crate::replay::warn::WarnKind;
use crate::replay::{
    CallSpec, Category, Clock, ReplayError, ResultSpec, Run, RunBuilder, RunSource, TurnSpec,
    Validation,
};
use crate::sanitize::clean;
use crate::text::plural;
use crate::validate::json::cut;

use super::Verdict;
use super::convo::{Conversation, Seen};
use super::report::problems;
use super::steps::Speaker;
use super::{Finding, Kind};

/// The longest call id a lane shows whole; a longer one keeps its start and end.
const ID_CHARS: usize = 16;

/// A conversation to play (kept whole: read with `Options::keep`).
#[derive(Debug, Clone)]
pub struct ConversationSource {
    conv: Conversation,
    /// The file it came from, as the title names it.
    file: String,
    /// Its place among the file's conversations: (number from 1, how many).
    of: Option<(usize, usize)>,
}

impl ConversationSource {
    pub fn new(conv: Conversation, file: &str) -> ConversationSource {
        ConversationSource {
            conv,
            file: file.to_owned(),
            of: None,
        }
    }

    /// Say which conversation of how many this is.
    pub fn numbered(mut self, n: usize, of: usize) -> ConversationSource {
        self.of = Some((n, of));
        self
    }

    pub fn conversation(&self) -> &Conversation {
        &self.conv
    }
}

/// The name a finding is shown by, marked when it is a heuristic.
fn word(kind: Kind) -> WarnKind {
    match kind {
        Kind::Repaired => WarnKind::Repaired,
        Kind::ErrorNotFlagged => WarnKind::Finding("error_not_flagged (heuristic)"),
        Kind::InstructionInResult => WarnKind::Finding("instruction_in_result (heuristic)"),
        other => WarnKind::Finding(other.name()),
    }
}

/// A finding's text for the player: what exactly, what it means, where it is taught.
pub fn explained(f: &Finding) -> String {
    let lesson = f.kind.lesson();
    format!(
        "{}. {} Lesson {} teaches it (\"{}\").",
        f.detail.trim_end_matches('.'),
        f.kind.explanation(),
        lesson.number,
        lesson.page
    )
}

/// The id a lane shows: the record's, shortened in the middle when long, numbered when the
/// record used it before, `#N` when it had none. The cut is marked `..`: the id is made
/// before the player knows its glyphs, and `--ascii` draws ASCII only.
fn lane_id(id: Option<&str>, index: usize, used: &mut Vec<String>) -> String {
    let base = match id {
        None => format!("#{}", index + 1),
        Some(id) if id.chars().count() > ID_CHARS => {
            let chars: Vec<char> = id.chars().collect();
            let head: String = chars[..6].iter().collect();
            let tail: String = chars[chars.len() - 6..].iter().collect();
            format!("{head}..{tail}")
        }
        Some(id) => id.to_owned(),
    };
    let base = clean(&base, false);
    let n = used.iter().filter(|u| **u == base).count();
    used.push(base.clone());
    if n == 0 {
        base
    } else {
        format!("{base} ({})", n + 1)
    }
}

/// When each kept step happens, on the run's clock.
struct Times {
    clock: Clock,
    /// Per step of `seen`.
    at: Vec<u64>,
}

fn times(seen: &[Seen]) -> Times {
    let stamp = |s: &Seen| match s {
        Seen::Turn { at_ms } | Seen::Result { at_ms, .. } => Some(*at_ms),
        _ => None,
    };
    let stamped: Vec<Option<u64>> = seen.iter().filter_map(stamp).collect();
    let recorded = !stamped.is_empty() && stamped.iter().all(Option::is_some);
    if recorded {
        let base = stamped.iter().flatten().min().copied().unwrap_or(0);
        let mut last = 0;
        let at = seen
            .iter()
            .map(|s| {
                if let Some(Some(t)) = stamp(s) {
                    // Times only go forward: a clock that steps back keeps the order.
                    last = last.max(t - base);
                }
                last
            })
            .collect();
        return Times {
            clock: Clock::Recorded,
            at,
        };
    }
    let mut step = 0u64;
    let at = seen
        .iter()
        .map(|s| {
            match s {
                Seen::Turn { .. } | Seen::Result { .. } => step += 1,
                Seen::Call(_) | Seen::Say { .. } => {}
            }
            step * Clock::STEP_MS
        })
        .collect();
    Times {
        clock: Clock::Order,
        at,
    }
}

impl RunSource for ConversationSource {
    fn name(&self) -> String {
        format!("{}#{}", file_name(&self.file), self.conv.place.line)
    }

    fn build(&self) -> Result<Run, ReplayError> {
        let conv = &self.conv;
        if conv.seen.is_empty() && !conv.calls.is_empty() {
            return Err(ReplayError::Unreadable {
                source_name: self.name(),
                message: "the conversation was read without its steps (read it to replay it)"
                    .into(),
            });
        }
        let t = times(&conv.seen);
        let mut b = RunBuilder::new(&self.name(), &self.title(), t.clock);
        b.note(&self.note());
        let mut lanes: Vec<Option<usize>> = vec![None; conv.calls.len()];
        let mut used = Vec::new();
        let mut result_at: Vec<Option<u64>> = vec![None; conv.calls.len()];
        for (k, s) in conv.seen.iter().enumerate() {
            if let Seen::Result { call: Some(c), .. } = s {
                result_at[*c].get_or_insert(t.at[k]);
            }
        }
        let mut k = 0;
        while k < conv.seen.len() {
            let Seen::Turn { .. } = conv.seen[k] else {
                k += 1;
                continue;
            };
            let start = t.at[k];
            let mut end = k + 1;
            while end < conv.seen.len() && !matches!(conv.seen[end], Seen::Turn { .. }) {
                end += 1;
            }
            let calls: Vec<usize> = conv.seen[k + 1..end]
                .iter()
                .filter_map(|s| match s {
                    Seen::Call(c) => Some(*c),
                    _ => None,
                })
                .collect();
            let said = conv.seen[k + 1..end].iter().rev().find_map(|s| match s {
                Seen::Say {
                    who: Speaker::Model,
                    text,
                } => Some(clean(&text.replace("\r\n", "\n"), true)),
                _ => None,
            });
            let ids: Vec<String> = calls
                .iter()
                .map(|&c| lane_id(conv.calls[c].id.as_deref(), c, &mut used))
                .collect();
            // A turn takes a step to think; its calls are proposed as it ends.
            let proposed = match t.clock {
                Clock::Order => start + Clock::STEP_MS / 2,
                _ => start,
            };
            b.turn(TurnSpec {
                start_ms: start,
                end_ms: proposed,
                calls: ids.clone(),
                // A turn that said nothing has an empty answer, never words of ours.
                final_answer: calls.is_empty().then(|| said.unwrap_or_default()),
            });
            for (&c, id) in calls.iter().zip(ids) {
                lanes[c] = Some(b.call(self.call_spec(c, id, proposed, result_at[c])));
            }
            k = end;
        }
        for f in &conv.findings {
            let lane = f.call.and_then(|c| lanes.get(c).copied().flatten());
            b.finding(lane, word(f.kind), &explained(f));
        }
        Ok(b.build())
    }
}

impl ConversationSource {
    fn title(&self) -> String {
        let c = &self.conv;
        let which = match self.of {
            Some((n, of)) => format!("conversation {n} of {of}"),
            None => format!("conversation at line {}", c.place.line),
        };
        // The problems, as the report's worst conversations count them (the note names a
        // repair).
        format!(
            "{which}: {}, {}, {}",
            plural(c.turns as usize, "turn", "turns"),
            plural(c.calls.len(), "call", "calls"),
            problems(c.problems())
        )
    }

    fn note(&self) -> String {
        let c = &self.conv;
        let mut kinds: Vec<(Kind, usize)> = Kind::ALL
            .iter()
            .map(|&k| (k, c.count(k)))
            .filter(|(_, n)| *n > 0)
            .collect();
        kinds.sort_by_key(|(k, _)| Kind::ALL.iter().position(|x| x == k));
        let found = if c.calls.is_empty() && kinds.is_empty() {
            "no tool call to check".to_owned()
        } else if kinds.is_empty() {
            "nothing found".to_owned()
        } else {
            let parts: Vec<String> = kinds
                .iter()
                .map(|(k, n)| format!("{n} {}", k.name()))
                .collect();
            parts.join(", ")
        };
        let tab = if c.calls.is_empty() {
            ""
        } else {
            " Tab to a call for its arguments, verdict, result and findings."
        };
        format!(
            "Recorded ({}), line {} of {}: {found}.{tab}",
            c.format.title(),
            c.place.line,
            file_name(&self.file)
        )
    }

    fn call_spec(&self, c: usize, id: String, at: u64, result_at: Option<u64>) -> CallSpec {
        let call = &self.conv.calls[c];
        let args = match (&call.args, &call.args_text) {
            (Some(v), _) => cleaned(v),
            (None, Some(t)) => Value::String(clean(t, false)),
            (None, None) => Value::Null,
        };
        // Messages quote what the model wrote (argument names, the tool's name): cleaned.
        let validation = match &call.verdict {
            Verdict::Passed => Validation::Passed,
            Verdict::Failed(v) => Validation::Failed(clean(&v.message, false)),
            Verdict::NotJson(m) => Validation::Failed(clean(m, false)),
            Verdict::UnknownTool => Validation::Failed(clean(
                &format!("unknown tool: {} is not declared", cut(&call.tool, 60)),
                false,
            )),
            Verdict::Undeclared => Validation::NotJudged("no declarations".into()),
            Verdict::Provided(kind) => Validation::NotJudged(clean(
                &format!(
                    "a provider-defined tool ({}) with no input schema",
                    cut(kind, 60)
                ),
                false,
            )),
            Verdict::Refused(why) => Validation::NotJudged(clean(
                &format!("the declaration cannot be honoured: {why}"),
                false,
            )),
        };
        let result = call.result.as_ref().map(|a| {
            let category = match &call.verdict {
                Verdict::UnknownTool => Category::UnknownTool,
                v if v.invalid() => Category::InvalidArguments,
                _ if a.is_error() => Category::Error,
                _ => Category::Ok,
            };
            ResultSpec {
                at_ms: result_at.unwrap_or(at).max(at),
                category,
                text: a.text.clone().unwrap_or_else(|| a.excerpt.clone()),
            }
        });
        CallSpec {
            id,
            tool: clean(&call.tool, false),
            at_ms: at,
            args,
            validation,
            result,
        }
    }
}

/// A value with every key and string cleaned of what steers a terminal: the player shows
/// arguments as JSON text, and a model may write anything in them.
fn cleaned(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(clean(s, false)),
        Value::Array(items) => Value::Array(items.iter().map(cleaned).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (clean(k, false), cleaned(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The last part of a path.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod lane_tests {
    use super::lane_id;

    #[test]
    fn a_long_id_is_cut_in_the_middle_in_ascii_and_a_repeat_is_numbered() {
        let mut used = Vec::new();
        let long = "call_YbQ2x7Lr0pZc4kVq9cX69SC";
        let first = lane_id(Some(long), 0, &mut used);
        assert_eq!(first, "call_Y..cX69SC");
        assert!(first.is_ascii());
        assert_eq!(lane_id(Some(long), 1, &mut used), "call_Y..cX69SC (2)");
        assert_eq!(lane_id(Some("short"), 2, &mut used), "short");
        assert_eq!(lane_id(None, 3, &mut used), "#4");
    }
}
