//! get_ticket rows: predict what the real executor returns for one proposed call.

use std::sync::Arc;

use crate::executor::Record;
use crate::executor::cases::ExecCase;
use crate::sanitize::clean;
use crate::tui::blocks::common;
use crate::tui::blocks::playground::{ArgsInput, executor_run};

use super::rows::{Actual, Fixture, FixtureKind, PredictRow, PromptField, RowFacts};

pub(super) const FIXTURE: Fixture = Fixture {
    kind: FixtureKind::GetTicket,
    name: "get_ticket",
    headers: ["Call", "Context"],
    widths: [14, 17, 19],
    shrink_context: false,
    who: "the real executor returned",
    shown: "envelope",
};

const CHOICES: [&str; 5] = [
    "ok",
    "unknown_tool",
    "invalid_arguments",
    "forbidden",
    "not_found",
];

/// The question of a row that edits the result it got back: did the store change?
const STORE_CHOICES: [&str; 2] = ["store changed", "store unchanged"];

/// One get_ticket case and the ticket store it runs against.
#[derive(Clone)]
pub(super) struct ExecRow {
    case: ExecCase,
    records: Arc<Vec<Record>>,
}

impl ExecRow {
    pub(super) fn new(case: ExecCase, records: Arc<Vec<Record>>) -> ExecRow {
        ExecRow { case, records }
    }
}

impl PredictRow for ExecRow {
    fn facts(&self) -> RowFacts<'_> {
        let c = &self.case;
        RowFacts::new(&c.id, &c.group, &c.reason)
    }

    fn choices(&self) -> Vec<String> {
        if self.case.mutate_result {
            return STORE_CHOICES.iter().map(|s| (*s).to_owned()).collect();
        }
        CHOICES.iter().map(|s| (*s).to_owned()).collect()
    }

    fn cells(&self) -> [String; 2] {
        let c = &self.case;
        // The tool name is only news when it is not get_ticket.
        let label = match c.label.strip_prefix("get_ticket, ") {
            Some(rest) if c.tool == "get_ticket" => rest,
            _ => c.label.as_str(),
        };
        [clean(label, false), executor_run::context_short(&c.context)]
    }

    /// The call in words: its tool and arguments, as the table's first cell says.
    fn topic(&self) -> Option<String> {
        Some(self.heading())
    }

    fn heading(&self) -> String {
        clean(&self.case.label, false)
    }

    fn prompt(&self) -> Vec<PromptField> {
        let c = &self.case;
        let args = ArgsInput::from_case(&c.args, &c.args_text).display();
        let context = executor_run::context_words(&c.context);
        let mut fields = vec![
            PromptField::Json("call", format!("{} {args}", clean(&c.tool, false))),
            PromptField::Text("context", format!("{context} (trusted: from the session)")),
        ];
        if c.mutate_result {
            fields.push(PromptField::Text(
                "then",
                "the caller rewrites the title and status of the ticket it got back. \
                 Does the stored ticket change?"
                    .to_owned(),
            ));
        }
        fields
    }

    fn run(&self) -> Actual {
        let case = &self.case;
        let run = match executor_run::run_exec_case(case, &self.records, None) {
            Ok(run) => run,
            Err(e) => return Actual::broken(e, &case.expected),
        };
        let extra = run.store_changed.map(|changed| {
            if changed {
                "changing the returned ticket changed the store".to_owned()
            } else {
                "changing the returned ticket left the store as it was".to_owned()
            }
        });
        let outcome = match (case.mutate_result, run.store_changed) {
            (true, Some(true)) => STORE_CHOICES[0].to_owned(),
            // A failed call hands back nothing to edit: the store stays as it was.
            (true, _) => STORE_CHOICES[1].to_owned(),
            (false, _) => run.outcome(),
        };
        Actual {
            outcome,
            agrees: run.agrees,
            expected: common::json_compact(&case.expected),
            shown: run.envelope,
            extra,
        }
    }
}
