//! The finding kinds, each with its stable name (the contract's), whether it is a heuristic,
//! what it means in a line, and the lesson page that teaches it.

use serde::Serialize;

/// What an audit can find. The names are stable: scripts read them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The arguments break the declared schema (the validator's first failure and its path).
    InvalidArguments,
    /// The arguments text (OpenAI's `arguments` string, a streamed input) is not JSON.
    ArgsNotJson,
    /// A tool the model was never given.
    UnknownTool,
    /// No declarations at all: the call could not be judged.
    Undeclared,
    /// A call with no result although the conversation went on.
    Unanswered,
    /// A result whose id answers no call.
    OrphanResult,
    /// A call id used twice.
    DuplicateId,
    /// The same tool with the same arguments again, after it had already worked.
    RepeatedCall,
    /// The same failing call three or more times in a row.
    RetryStorm,
    /// A result that reads as an error, sent as if it were data.
    ErrorNotFlagged,
    /// Tool output that reads like orders to the model.
    InstructionInResult,
    /// An invalid call answered with an error, then a corrected call: the repair loop working.
    Repaired,
    /// A conversation over a `--limits` budget.
    OverLimit,
}

/// A lesson page: the lesson's number and id, and the page's title.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lesson {
    pub number: u32,
    pub id: &'static str,
    pub page: &'static str,
}

impl Kind {
    /// Every kind, in the order reports list them.
    pub const ALL: [Kind; 13] = [
        Kind::InvalidArguments,
        Kind::Repaired,
        Kind::ArgsNotJson,
        Kind::UnknownTool,
        Kind::Undeclared,
        Kind::Unanswered,
        Kind::OrphanResult,
        Kind::DuplicateId,
        Kind::RepeatedCall,
        Kind::RetryStorm,
        Kind::ErrorNotFlagged,
        Kind::InstructionInResult,
        Kind::OverLimit,
    ];

    /// The stable name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::InvalidArguments => "invalid_arguments",
            Kind::ArgsNotJson => "args_not_json",
            Kind::UnknownTool => "unknown_tool",
            Kind::Undeclared => "undeclared",
            Kind::Unanswered => "unanswered",
            Kind::OrphanResult => "orphan_result",
            Kind::DuplicateId => "duplicate_id",
            Kind::RepeatedCall => "repeated_call",
            Kind::RetryStorm => "retry_storm",
            Kind::ErrorNotFlagged => "error_not_flagged",
            Kind::InstructionInResult => "instruction_in_result",
            Kind::Repaired => "repaired",
            Kind::OverLimit => "over_limit",
        }
    }

    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Found by reading text for signs, so it may be wrong either way.
    pub fn heuristic(self) -> bool {
        matches!(self, Kind::ErrorNotFlagged | Kind::InstructionInResult)
    }

    /// Good news rather than a problem: the repair loop did its job.
    pub fn is_good(self) -> bool {
        self == Kind::Repaired
    }

    /// What it means, in a few words (the report's table).
    pub fn meaning(self) -> &'static str {
        match self {
            Kind::InvalidArguments => "the model broke the schema; the tool saw bad input",
            Kind::Repaired => "an error went back and the next call was right",
            Kind::ArgsNotJson => "the arguments text did not parse",
            Kind::UnknownTool => "a tool that was never declared",
            Kind::Undeclared => "no schema to judge the call by (--tools FILE)",
            Kind::Unanswered => "a call with no result, and the conversation went on",
            Kind::OrphanResult => "a result whose id matches no call",
            Kind::DuplicateId => "two calls with one id (while one waits: results mix)",
            Kind::RepeatedCall => "the same tool, the same arguments, after it had worked",
            Kind::RetryStorm => "the same failing call 3+ times in a row",
            Kind::ErrorNotFlagged => "an error sent back as if it were data",
            Kind::InstructionInResult => "tool output that gives the model orders",
            Kind::OverLimit => "a conversation over a --limits budget",
        }
    }

    /// What it is and what to do about it, for the detail pane.
    pub fn explanation(self) -> &'static str {
        match self {
            Kind::InvalidArguments => {
                "The model sent arguments the declaration does not allow. A validator in front \
                 of the tool answers with the message above, under the same call id, and the \
                 model usually corrects the next call."
            }
            Kind::Repaired => {
                "A call was refused with an error and the model's next call to the same tool \
                 passed: the repair loop working as it should. Count repairs and bound them."
            }
            Kind::ArgsNotJson => {
                "The arguments are text that does not parse as JSON (OpenAI sends them as a \
                 string; a cut stream leaves half an object). Parse strictly and answer with \
                 the parse error instead of guessing."
            }
            Kind::UnknownTool => {
                "The model asked for a tool it was not given. Only names on the allowlist may \
                 run; anything else is answered with unknown_tool, never dispatched."
            }
            Kind::Undeclared => {
                "Nothing can judge the call. Either the record carries no tool declarations \
                 (pass the ones the model was given with --tools FILE), or it declares the \
                 tool as a provider-defined one, such as Anthropic's memory tool, whose input \
                 the provider defines and which comes with no schema: check such calls in \
                 the tool's own handler."
            }
            Kind::Unanswered => {
                "The call got no result, yet the conversation went on. Every call id needs \
                 exactly one result, even when it failed or was cancelled."
            }
            Kind::OrphanResult => {
                "A result names a call id no call had (or one already answered). Results are \
                 attached by call id; one that answers nothing points at a bookkeeping bug."
            }
            Kind::DuplicateId => {
                "Two calls share one id. Reused while the earlier call still waits, the two \
                 results cannot be told apart; reused after it was answered, results pair in \
                 order, but any log, trace or cache keyed by id mixes the two. Ids must be \
                 unique within a conversation."
            }
            Kind::RepeatedCall => {
                "The model asked again for what it already had: the same tool with the same \
                 arguments after a successful result. It costs a call and a turn; a write \
                 repeated this way may apply twice. A call to another tool whose name says it \
                 changes something (create, update, delete, run...) in between makes it a \
                 check of that change, not a repeat."
            }
            Kind::RetryStorm => {
                "The same call failed again and again, unchanged. Retrying a definite failure \
                 gives the same answer; bound retries and change something first."
            }
            Kind::ErrorNotFlagged => {
                "The result reads as an error (an exception, a status code, the word error) but \
                 went back as ordinary data. Mark failures in typed fields (is_error, isError, \
                 ok: false) so the model and your code can tell them apart. A heuristic: the \
                 text was read for signs."
            }
            Kind::InstructionInResult => {
                "The tool's output reads like orders to the model (ignore your instructions, \
                 call this tool now). Tool output is data, never instructions. A heuristic: \
                 the text was read for signs."
            }
            Kind::OverLimit => {
                "The conversation went past a budget given with --limits. A bounded loop \
                 stops at its budget instead."
            }
        }
    }

    /// The lesson page that teaches it.
    pub fn lesson(self) -> Lesson {
        let (number, id, page) = match self {
            Kind::InvalidArguments => (2, "02-validate-tool-args", "Errors teach the model"),
            Kind::Repaired | Kind::RetryStorm | Kind::ErrorNotFlagged => (
                16,
                "16-your-tools-and-logs",
                "Repairs, storms and silent errors",
            ),
            Kind::ArgsNotJson => (3, "03-json-traps", "The parser decided first"),
            Kind::UnknownTool => (5, "05-executor-boundary", "An allowlist of tools"),
            Kind::Undeclared => (5, "05-executor-boundary", "Whose tools go through it"),
            Kind::Unanswered | Kind::OrphanResult => (15, "15-the-wire", "Keep the id whole"),
            Kind::DuplicateId => (15, "15-the-wire", "Pairing results with calls"),
            Kind::RepeatedCall => (9, "09-bounded-loop", "What the loop remembers"),
            Kind::InstructionInResult => {
                (13, "13-output-boundaries-and-traces", "Ticket text is data")
            }
            Kind::OverLimit => (9, "09-bounded-loop", "Two budgets, not one"),
        };
        Lesson { number, id, page }
    }

    /// The name as a report shows it (`error_not_flagged (heuristic)`).
    pub fn label(self) -> String {
        if self.heuristic() {
            format!("{} (heuristic)", self.name())
        } else {
            self.name().to_owned()
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_parse_back() {
        let mut names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Kind::ALL.len());
        for k in Kind::ALL {
            assert_eq!(Kind::parse(k.name()), Some(k));
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        }
    }
}
