//! The declarations of the three tools the orchestrator registers, in the contract's
//! form 3 (`{"name", "description", "input_schema"}`), and a helper to validate the args of
//! any declaration. `fixtures/schemas.json` carries the same three `input_schema`s
//! (a test keeps them equal).
//!
//! `pattern`s are unanchored, as JSON Schema says; these are written with `^...$`, and the
//! regex crate's `$` matches only at the very end (no "before a trailing newline" like
//! Python's), while `[0-9]` matches ASCII digits only (unlike `\d`).

use std::sync::OnceLock;

use serde_json::{Value, json};

use super::Validator;
#[cfg(test)]
use super::{ValidatorRules, Violation};

/// The ticket id format: `TKT-` and exactly three ASCII digits.
pub(crate) const TICKET_ID_PATTERN: &str = "^TKT-[0-9]{3}$";

/// The registered tools, in a stable order: get_ticket, search_tickets, close_ticket.
pub fn declarations() -> Vec<Value> {
    vec![
        json!({
            "name": "get_ticket",
            "description": "Read one ticket of the current tenant by its id.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "ticket_id": {"type": "string", "pattern": TICKET_ID_PATTERN,
                                  "description": "TKT- and three digits, e.g. TKT-104"}
                },
                "required": ["ticket_id"],
                "additionalProperties": false
            }
        }),
        json!({
            "name": "search_tickets",
            "description": "Find tickets of the current tenant whose title contains the query; returns ids.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "minLength": 1, "maxLength": 200},
                    "page_size": {"type": "integer", "minimum": 1, "maximum": 100}
                },
                "required": ["query"],
                "additionalProperties": false
            }
        }),
        json!({
            "name": "close_ticket",
            "description": "Close one ticket of the current tenant (a write; needs write permission).",
            "input_schema": {
                "type": "object",
                "properties": {
                    "ticket_id": {"type": "string", "pattern": TICKET_ID_PATTERN}
                },
                "required": ["ticket_id"],
                "additionalProperties": false
            }
        }),
    ]
}

/// One declaration by tool name.
pub fn declaration(name: &str) -> Option<Value> {
    declarations()
        .into_iter()
        .find(|d| d["name"].as_str() == Some(name))
}

/// The compiled validator of a registered tool (compiled once).
pub(crate) fn validator(name: &str) -> Option<&'static Validator> {
    static COMPILED: OnceLock<Vec<(String, Validator)>> = OnceLock::new();
    COMPILED
        .get_or_init(|| {
            declarations()
                .into_iter()
                .map(|d| {
                    let name = d["name"].as_str().unwrap_or_default().to_owned();
                    let s = Validator::from_value(&d)
                        .unwrap_or_else(|e| panic!("built-in declaration {name}: {e}"));
                    (name, s)
                })
                .collect()
        })
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, s)| s)
}

/// Validate `args` against any tool declaration (or any other contract form).
/// The outer error is a malformed declaration; the inner result is the verdict.
#[cfg(test)]
pub(crate) fn validate_call(
    declaration: &Value,
    args: &Value,
    rules: &ValidatorRules,
) -> Result<Result<(), Violation>, String> {
    let v = Validator::from_value(declaration).map_err(|e| e.to_string())?;
    Ok(v.check(args, rules))
}
