//! Wire rows: a recorded result and the calls of the turn it belongs to, in one protocol's
//! own shape; predict which call it answers (`pairing` rows) or how it says it failed
//! (`flag` rows). The reveal runs the protocol's pairing rules (`course::lab::wire`).

use serde_json::{Value, json};

use crate::course::lab::wire::{self, FLAG_GROUP, Flag, NO_CALL, WireCase};
use crate::sanitize::clean;
use crate::tui::blocks::common;

use super::rows::{Actual, Fixture, FixtureKind, PredictRow, PromptField, RowFacts};

pub(super) const FIXTURE: Fixture = Fixture {
    kind: FixtureKind::Wire,
    name: "wire",
    headers: ["Result", "Protocol"],
    widths: [16, 16, 20],
    shrink_context: true,
    who: "the protocol's rule gives",
    shown: "paired",
};

/// One recorded exchange.
#[derive(Clone)]
pub(super) struct WireRow {
    case: WireCase,
}

impl WireRow {
    pub(super) fn new(case: WireCase) -> WireRow {
        WireRow { case }
    }

    fn asks_flag(&self) -> bool {
        self.case.group == FLAG_GROUP
    }

    /// The calls' ids as written, in order, or nothing when the row is broken.
    fn call_labels(&self) -> Vec<String> {
        wire::run(&self.case)
            .map(|r| r.calls.iter().map(|c| clean(&c.label(), false)).collect())
            .unwrap_or_default()
    }
}

impl PredictRow for WireRow {
    fn facts(&self) -> RowFacts<'_> {
        let c = &self.case;
        RowFacts::new(&c.id, &c.group, &c.reason)
    }

    /// Flag rows offer the four ways a result can say it failed; pairing rows every call of
    /// the turn, in order, then "no call" (the menu follows the calls, never the answer).
    fn choices(&self) -> Vec<String> {
        if self.asks_flag() {
            return Flag::ALL.iter().map(|f| f.word().to_owned()).collect();
        }
        let mut labels = self.call_labels();
        labels.push(NO_CALL.to_owned());
        labels
    }

    fn cells(&self) -> [String; 2] {
        [
            clean(&common::json_compact(&self.case.result), false),
            self.case.protocol.title().to_owned(),
        ]
    }

    fn topic(&self) -> Option<String> {
        Some(self.case.protocol.title().to_owned())
    }

    fn heading(&self) -> String {
        let c = &self.case;
        format!(
            "{} ({}, {})",
            clean(&c.id, false),
            c.protocol.title(),
            clean(&c.group, false)
        )
    }

    fn prompt(&self) -> Vec<PromptField> {
        let c = &self.case;
        let question = if self.asks_flag() {
            "How does this result tell the model the call failed, if it does?"
        } else {
            "Which call does this result answer?"
        };
        vec![
            PromptField::Json("calls", clean(&common::json_compact(&c.calls), false)),
            PromptField::Json("result", clean(&common::json_compact(&c.result), false)),
            PromptField::Text("asks", question.to_owned()),
        ]
    }

    fn run(&self) -> Actual {
        let c = &self.case;
        let expected = serde_json::to_value(&c.expected).unwrap_or(Value::Null);
        let run = match wire::run(c) {
            Ok(run) => run,
            Err(e) => return Actual::broken(e, &expected),
        };
        let outcome = if self.asks_flag() {
            run.flag.word().to_owned()
        } else {
            run.answer_word()
        };
        let call = run.answers.map_or_else(
            || {
                format!(
                    "it names {}, and no call of the turn has that id",
                    run.names
                )
            },
            |i| {
                let call = &run.calls[i];
                format!(
                    "it names {}: the call {} {}",
                    run.names,
                    call.tool,
                    common::json_compact(&call.args)
                )
            },
        );
        let shown = format!("{call}; {}; the model reads: {}", run.flag.word(), run.text);
        Actual {
            outcome,
            agrees: run.expected_form() == c.expected,
            shown: json!(clean(&shown, false)),
            expected: common::json_compact(&expected),
            extra: None,
        }
    }
}
