//! Trap rows: predict whether your own schema rejects a trap or lets it through. The rows
//! come from a declaration's trap report (generated, not a fixture); the reveal runs the
//! real validator compiled from your declaration on the row's arguments.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::sanitize::clean;
use crate::tools::traps::Trap;
use crate::tui::blocks::common;
use crate::validate::{Validator, ValidatorRules};

use super::rows::{Actual, Fixture, FixtureKind, PredictRow, PromptField, RowFacts};

pub(super) const FIXTURE: Fixture = Fixture {
    kind: FixtureKind::Traps,
    name: "your schema",
    headers: ["Trap", "Arguments (the rest valid)"],
    widths: [26, 11, 11],
    shrink_context: true,
    who: "your schema, in the real validator,",
    shown: "verdict",
};

/// The two answers: will the schema catch it?
pub const REJECTED: &str = "rejected";
pub const LET_THROUGH: &str = "let through";

/// One trap of a declaration, to predict.
#[derive(Clone)]
pub(super) struct TrapRow {
    id: String,
    group: String,
    /// Shown on reveal: the fix, or why the schema catches it.
    reason: String,
    label: String,
    args: Value,
    short: String,
    /// The field the trap is about, in words.
    field: String,
    validator: Arc<Validator>,
}

impl TrapRow {
    pub(super) fn new(trap: &Trap, validator: Arc<Validator>) -> TrapRow {
        let reason = match (&trap.fix, &trap.why) {
            (Some(f), _) => format!("Fix: {}.", f.text()),
            (None, Some(w)) => format!("No one keyword closes it: {w}."),
            (None, None) => "Your schema catches this one.".to_owned(),
        };
        TrapRow {
            id: trap_id(trap),
            group: trap.kind.name().to_owned(),
            reason,
            label: clean(&trap.label, false),
            args: trap.args.clone(),
            short: clean(&trap.short_args(48), false),
            field: if trap.path.is_empty() {
                "the whole arguments object".to_owned()
            } else {
                clean(&trap.path, false)
            },
            validator,
        }
    }
}

/// A trap's id among its declaration's rows (stable while the declaration is unchanged).
pub fn trap_id(trap: &Trap) -> String {
    if trap.path.is_empty() {
        trap.label.clone()
    } else {
        format!("{}: {}", trap.path, trap.label)
    }
}

impl PredictRow for TrapRow {
    fn facts(&self) -> RowFacts<'_> {
        RowFacts::new(&self.id, &self.group, &self.reason)
    }

    fn choices(&self) -> Vec<String> {
        vec![REJECTED.to_owned(), LET_THROUGH.to_owned()]
    }

    fn cells(&self) -> [String; 2] {
        [self.label.clone(), self.short.clone()]
    }

    /// The trap, as the table's first cell says (whether it is caught is the question).
    fn topic(&self) -> Option<String> {
        Some(self.heading())
    }

    fn heading(&self) -> String {
        self.label.clone()
    }

    fn prompt(&self) -> Vec<PromptField> {
        vec![
            PromptField::Json("args", clean(&common::json_compact(&self.args), false)),
            PromptField::Text("field", self.field.clone()),
        ]
    }

    fn run(&self) -> Actual {
        let verdict = self.validator.check(&self.args, &ValidatorRules::ALL_ON);
        let (outcome, shown) = match &verdict {
            Ok(()) => (
                LET_THROUGH,
                json!("accepted: the call would reach your tool"),
            ),
            Err(v) => (REJECTED, json!({"ok": false, "error": v.message})),
        };
        Actual {
            outcome: outcome.to_owned(),
            shown,
            agrees: true,
            expected: String::new(),
            extra: None,
        }
    }
}
