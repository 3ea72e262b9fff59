//! The seed validator: three schema forms become one `Schema`; four ordered checks
//! (missing, unknown, type, value), first failure wins; messages exactly as CONTRACT.md says.
//! No I/O here.
//!
//! OWNER: foundation helper. The items below are the interface other modules use;
//! add freely, do not rename.

use serde_json::Value;

/// Which of the ordered checks fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    /// The args text was not JSON, repeated a key, or was not an object.
    Parse,
    Missing,
    Unknown,
    Type,
    Value,
}

/// One failed check.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Violation {
    pub kind: CheckKind,
    /// The argument the message is about (empty for parse errors).
    pub arg: String,
    /// The full message, e.g. `type error: days expected int, got str`.
    pub message: String,
}

/// A validator schema in one internal form, whatever form it was written in.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    _todo: (),
}

impl Schema {
    /// Accept any of the three contract forms. `required` is only used for the flat form
    /// (`{"city": "str"}`); the other forms carry their own `required` list.
    pub fn from_json(schema: &Value, required: &[String]) -> Result<Schema, String> {
        let _ = (schema, required);
        unimplemented!("foundation helper")
    }
}

/// Parse model-written argument text: preserves key order, rejects repeated keys
/// (`duplicate arg: NAME`), reports `invalid JSON: ... line L column C`.
pub fn parse_args(text: &str) -> Result<Value, Violation> {
    let _ = text;
    unimplemented!("foundation helper")
}

/// Run the ordered checks; the first failure wins.
pub fn validate(schema: &Schema, args: &Value) -> Result<(), Violation> {
    let _ = (schema, args);
    unimplemented!("foundation helper")
}

/// Every failure, in check order (the `--all` flag).
pub fn validate_all(schema: &Schema, args: &Value) -> Vec<Violation> {
    let _ = (schema, args);
    unimplemented!("foundation helper")
}
