//! Rows of `fixtures/get_ticket_cases.json` run through the real executor.

use serde_json::Value;

use super::{Envelope, ExecRules, Record, Store, execute_text, execute_with};
use crate::content::fixtures::ExecCase;

/// The title a `mutate_result` row writes through the returned handle.
pub const MUTATED_TITLE: &str = "changed by the caller";

/// What one row did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseRun {
    pub envelope: Envelope,
    /// For `mutate_result` rows: did changing the returned ticket change the store?
    pub store_changed: Option<bool>,
}

impl CaseRun {
    /// The envelope as JSON, plus `"store_after_mutation": "unchanged" | "changed"` for
    /// mutation rows.
    pub fn actual(&self) -> Value {
        let mut v = self.envelope.to_value();
        if let (Some(changed), Value::Object(map)) = (self.store_changed, &mut v) {
            map.insert(
                "store_after_mutation".into(),
                Value::from(if changed { "changed" } else { "unchanged" }),
            );
        }
        v
    }

    /// Does the row get what the fixture expects? The envelope must agree on every field
    /// the fixture names, and a mutation row must leave the store as it was.
    pub fn passes(&self, expected: &Value) -> bool {
        let actual = self.actual();
        let agrees = match (expected, &actual) {
            (Value::Object(want), Value::Object(got)) => {
                want.iter().all(|(k, v)| got.get(k) == Some(v))
            }
            _ => false,
        };
        agrees && self.store_changed != Some(true)
    }
}

/// Run one row on a fresh store built from `records` (so rows cannot disturb each other).
/// `Err` when the row itself is broken (neither or both of args / args_text).
pub fn run_case(case: &ExecCase, records: &[Record], rules: &ExecRules) -> Result<CaseRun, String> {
    let store = Store::from_records(records.to_vec());
    let outcome = match (&case.args, &case.args_text) {
        (Some(args), None) => execute_with(&case.tool, args, &case.context, &store, rules),
        (None, Some(text)) => execute_text(&case.tool, text, &case.context, &store, rules),
        (Some(_), Some(_)) => return Err("a case has both args and args_text".into()),
        (None, None) => return Err("a case needs args or args_text".into()),
    };
    let store_changed = if case.mutate_result {
        let before = store.records();
        if let Some(mut handle) = outcome.handle.clone() {
            handle.set_title(MUTATED_TITLE);
            handle.set_status("deleted");
        }
        Some(store.records() != before)
    } else {
        None
    };
    Ok(CaseRun {
        envelope: outcome.envelope,
        store_changed,
    })
}
