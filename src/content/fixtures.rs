//! Typed fixture tables: validator cases, get_ticket cases, named schemas, ticket records.
//! The lessons' `predict` blocks, the playgrounds and `tooldojo check` all read these.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::content::{Content, parse_json};
use crate::error::UserResult;
use crate::executor::{Context, Record};

pub const VALIDATOR_CASES: &str = "validator_cases.json";
pub const GET_TICKET_CASES: &str = "get_ticket_cases.json";
pub const SCHEMAS: &str = "schemas.json";
pub const TICKETS: &str = "tickets.json";

/// `"args": null` is `Some(Value::Null)`; a missing `args` is `None`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// Expected validator verdict: the contract's output line.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
pub struct Verdict {
    pub ok: bool,
    #[serde(default)]
    pub error: String,
}

/// One row of `fixtures/validator_cases.json`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidatorCase {
    /// Unique, stable id (lessons name rows by it).
    pub id: String,
    /// A tag lessons can select rows by: `seed`, `trap`, `value`, `parse`, ...
    pub group: String,
    /// The name of a schema in `schemas.json`, or an inline schema in any contract form.
    pub schema: Value,
    /// Required names, for flat-form schemas.
    #[serde(default)]
    pub required: Vec<String>,
    #[serde(default, deserialize_with = "present")]
    pub args: Option<Value>,
    /// Raw args text (for invalid JSON, repeated keys); stands instead of `args`.
    #[serde(default)]
    pub args_text: Option<String>,
    pub expected: Verdict,
    /// One line, in our words, shown when the learner reveals the row.
    pub reason: String,
}

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

/// One entry of `fixtures/schemas.json` (an object of name -> entry, in file order).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedSchema {
    /// Any of the three contract forms.
    pub schema: Value,
    /// Required names for the flat form.
    #[serde(default)]
    pub required: Vec<String>,
    #[serde(default)]
    pub description: String,
}

pub fn validator_cases(content: &Content) -> UserResult<Vec<ValidatorCase>> {
    parse_json(&content.fixtures.read(VALIDATOR_CASES)?)
}

pub fn get_ticket_cases(content: &Content) -> UserResult<Vec<ExecCase>> {
    parse_json(&content.fixtures.read(GET_TICKET_CASES)?)
}

/// Named schemas in file order (serde_json's map keeps insertion order).
pub fn schemas(content: &Content) -> UserResult<Vec<(String, NamedSchema)>> {
    let map: serde_json::Map<String, Value> = parse_json(&content.fixtures.read(SCHEMAS)?)?;
    let file = content.fixtures.read(SCHEMAS)?;
    let mut out = Vec::with_capacity(map.len());
    for (name, v) in map {
        let entry: NamedSchema = serde_json::from_value(v).map_err(|e| {
            crate::error::UserError::new(format!("{}: schema {name:?}: {e}", file.display))
        })?;
        out.push((name, entry));
    }
    Ok(out)
}

/// The default ticket store records.
pub fn tickets(content: &Content) -> UserResult<Vec<Record>> {
    parse_json(&content.fixtures.read(TICKETS)?)
}

/// Records from a `--records @FILE` flag value (the `tickets.json` format).
pub fn records_from_flag(value: &str) -> UserResult<Vec<Record>> {
    let path = value.strip_prefix('@').unwrap_or(value);
    let text = std::fs::read_to_string(path)
        .map_err(|e| crate::error::UserError::new(format!("{path}: {e}")))?;
    serde_json::from_str(&text).map_err(|e| crate::error::UserError::json(path, &e))
}

/// Index of rows by id, for lessons that name rows.
pub fn ids<T>(rows: &[T], id: impl Fn(&T) -> &str) -> BTreeMap<String, usize> {
    rows.iter()
        .enumerate()
        .map(|(i, r)| (id(r).to_owned(), i))
        .collect()
}
