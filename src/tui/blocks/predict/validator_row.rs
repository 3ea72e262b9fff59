//! Validator rows: predict what the real validator says about one set of arguments
//! against one schema.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::sanitize::clean;
use crate::tui::blocks::common;
use crate::tui::blocks::playground::{ArgsInput, validator_run};
use crate::validate::cases::{NamedSchema, ValidatorCase};

use super::rows::{Actual, Fixture, FixtureKind, PredictRow, PromptField, RowFacts};

pub(super) const FIXTURE: Fixture = Fixture {
    kind: FixtureKind::Validator,
    name: "validator",
    headers: ["Arguments", "Schema"],
    widths: [12, 9, 11],
    shrink_context: true,
    who: "the real validator said",
    shown: "verdict",
};

/// Every validator row offers all six outcomes, whatever its arguments look like (a menu
/// that changed with the row would give the answer away).
const CHOICES: [&str; 6] = ["ok", "missing", "unknown", "type", "value", "parse"];

/// Rows of this group break several checks at once: the question is which failure the
/// validator reports, so the menu lists every failure (`missing city`, `unknown unit`).
const ORDER_GROUP: &str = "order";

/// What an accepted verdict says, instead of its empty error field.
pub(crate) const ACCEPTED: &str = "accepted: every check passed";

/// The schemas rows may name, shared by every row of a table.
pub(super) type Named = Arc<Vec<(String, NamedSchema)>>;

/// One validator case and the named schemas it may refer to.
#[derive(Clone)]
pub(super) struct ValidatorRow {
    case: ValidatorCase,
    named: Named,
}

impl ValidatorRow {
    pub(super) fn new(case: ValidatorCase, named: Named) -> ValidatorRow {
        ValidatorRow { case, named }
    }

    fn args_text(&self) -> String {
        let c = &self.case;
        clean(
            &ArgsInput::from_case(&c.args, &c.args_text).display(),
            false,
        )
    }

    /// A violation as a menu word: the check and the argument it names.
    fn named(v: &crate::validate::Violation) -> String {
        let word = validator_run::check_word(v.kind);
        if v.path.is_empty() {
            word.to_owned()
        } else {
            format!("{word} {}", clean(&v.path, false))
        }
    }

    /// An ordering row's menu: every failure the row has, sorted by name so the order
    /// gives nothing away. `None` for other rows, or when fewer than two checks fail.
    fn failures(&self) -> Option<Vec<String>> {
        if self.case.group != ORDER_GROUP {
            return None;
        }
        let run = validator_run::run_validator_case(&self.case, &self.named, None).ok()?;
        let mut words: Vec<String> = run.all.iter().map(ValidatorRow::named).collect();
        words.sort();
        words.dedup();
        (words.len() >= 2).then_some(words)
    }

    /// The schema as the learner reads it: a named one by its name with its whole text,
    /// an inline one spelled out; required names after.
    fn schema_field(&self) -> PromptField {
        let with_required = |schema: &Value, required: &[String]| {
            let mut s = common::json_compact(schema);
            if !required.is_empty() {
                s.push_str(&format!(" required {}", required.join(",")));
            }
            clean(&s, false)
        };
        match &self.case.schema {
            Value::String(name) => match self.named.iter().find(|(n, _)| n == name) {
                Some((_, e)) => {
                    PromptField::Schema(clean(name, false), with_required(&e.schema, &e.required))
                }
                None => PromptField::Json(
                    "schema",
                    clean(&format!("{name} (not in schemas.json)"), false),
                ),
            },
            other => PromptField::Json("schema", with_required(other, &self.case.required)),
        }
    }
}

impl PredictRow for ValidatorRow {
    fn facts(&self) -> RowFacts<'_> {
        let c = &self.case;
        RowFacts::new(&c.id, &c.group, &c.reason)
    }

    fn choices(&self) -> Vec<String> {
        self.failures()
            .unwrap_or_else(|| CHOICES.iter().map(|c| (*c).to_owned()).collect())
    }

    fn cells(&self) -> [String; 2] {
        let schema = match &self.case.schema {
            Value::String(n) => clean(n, false),
            _ => "inline".to_owned(),
        };
        [self.args_text(), schema]
    }

    fn topic(&self) -> Option<String> {
        None
    }

    fn heading(&self) -> String {
        let c = &self.case;
        format!("{} ({})", clean(&c.id, false), clean(&c.group, false))
    }

    fn prompt(&self) -> Vec<PromptField> {
        vec![
            self.schema_field(),
            PromptField::Json("args", self.args_text()),
        ]
    }

    fn run(&self) -> Actual {
        let case = &self.case;
        let expected = serde_json::to_value(&case.expected).unwrap_or(Value::Null);
        let run = match validator_run::run_validator_case(case, &self.named, None) {
            Ok(run) => run,
            Err(e) => return Actual::broken(e, &expected),
        };
        let verdict = run.verdict();
        let outcome = match (&run.first, self.failures()) {
            (Some(first), Some(_)) => ValidatorRow::named(first),
            _ => run.outcome().to_owned(),
        };
        Actual {
            outcome,
            agrees: verdict == case.expected,
            shown: if verdict.ok {
                json!(ACCEPTED)
            } else {
                json!({"ok": verdict.ok, "error": verdict.error})
            },
            expected: common::json_compact(&expected),
            extra: None,
        }
    }
}
