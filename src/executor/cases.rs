//! The executor's fixture tables: the rows of `fixtures/get_ticket_cases.json` (their types,
//! loaded from the content trees, and run through the real executor) and the ticket records
//! of `fixtures/tickets.json` they run on.

use serde::Deserialize;
use serde_json::Value;

use super::{Context, Envelope, ExecRules, Record, Store, execute_text, execute_with};
use crate::content::{Content, parse_json, present};
use crate::error::UserResult;

/// The file of get_ticket rows, relative to the fixtures tree.
pub(crate) const GET_TICKET_CASES: &str = "get_ticket_cases.json";
/// The file of the default ticket store, relative to the fixtures tree.
pub(crate) const TICKETS: &str = "tickets.json";

/// One row of `fixtures/get_ticket_cases.json`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExecCase {
    pub id: String,
    /// `row` for the seed's eight fixture rows, `edge` for the edge cases, more tags allowed.
    pub group: String,
    /// Short human label for the table ("get_ticket, TKT-104").
    pub label: String,
    pub tool: String,
    #[serde(default, deserialize_with = "present")]
    pub args: Option<Value>,
    #[serde(default)]
    pub args_text: Option<String>,
    pub context: Context,
    /// The whole expected envelope, e.g. `{"ok": false, "code": "not_found"}`.
    pub expected: Value,
    pub reason: String,
    /// Edge case: after the call, mutate the returned ticket and check the store is unchanged.
    #[serde(default)]
    pub mutate_result: bool,
}

/// The get_ticket rows of `content`, in file order.
pub fn get_ticket_cases(content: &Content) -> UserResult<Vec<ExecCase>> {
    parse_json(&content.fixtures.read(GET_TICKET_CASES)?)
}

/// The default ticket store records.
pub fn tickets(content: &Content) -> UserResult<Vec<Record>> {
    parse_json(&content.fixtures.read(TICKETS)?)
}

/// Records from a `--records @FILE` flag value (the `tickets.json` format).
pub(crate) fn records_from_flag(value: &str) -> UserResult<Vec<Record>> {
    let path = value.strip_prefix('@').unwrap_or(value);
    let text = crate::input::read_text(
        std::path::Path::new(path),
        crate::input::MAX_FILE_BYTES,
        path,
    )?;
    let shape = crate::validate::json::JsonFile {
        object: false,
        is: "a records file is one JSON array of tickets \
             ([{\"tenant\", \"id\", \"title\", \"status\"}, ...])",
    };
    crate::validate::json::parse_json_file(&text, path, &shape)
}

/// The title a `mutate_result` row writes through the returned handle.
pub(crate) const MUTATED_TITLE: &str = "changed by the caller";

/// What one row did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseRun {
    pub(crate) envelope: Envelope,
    /// For `mutate_result` rows: did changing the returned ticket change the store?
    pub(crate) store_changed: Option<bool>,
}

impl CaseRun {
    /// The envelope as JSON, plus `"store_after_mutation": "unchanged" | "changed"` for
    /// mutation rows.
    pub(crate) fn actual(&self) -> Value {
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
