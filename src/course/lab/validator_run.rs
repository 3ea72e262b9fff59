//! What the validator playground runs: the real validator with one rule switched off,
//! fixture rows resolved as `tooldojo check` resolves them, and the schema editor's text
//! read into a schema.

use serde_json::json;

use super::ArgsInput;
use crate::content::Content;
use crate::json_text as common;
use crate::validate::cases::{NamedSchema, ValidatorCase, Verdict};
use crate::validate::{CheckKind, Json, Rule, Validator, ValidatorRules, Violation};

/// The ordered checks of the validator pipeline, as drawn.
pub const VAL_STAGES: [CheckKind; 5] = [
    CheckKind::Parse,
    CheckKind::Missing,
    CheckKind::Unknown,
    CheckKind::Type,
    CheckKind::Value,
];

pub fn check_word(kind: CheckKind) -> &'static str {
    match kind {
        CheckKind::Parse => "parse",
        CheckKind::Missing => "missing",
        CheckKind::Unknown => "unknown",
        CheckKind::Type => "type",
        CheckKind::Value => "value",
    }
}

/// The stage label in the pipeline ("required" for the missing check).
pub fn stage_label(kind: CheckKind) -> &'static str {
    match kind {
        CheckKind::Missing => "required",
        other => check_word(other),
    }
}

/// One validator run.
#[derive(Debug, Clone, PartialEq)]
pub struct ValRun {
    /// The first failure (what the contract's one-line verdict reports).
    pub first: Option<Violation>,
    /// Every failure, in check order (`--all`).
    pub all: Vec<Violation>,
}

impl ValRun {
    pub fn verdict(&self) -> Verdict {
        match &self.first {
            None => Verdict {
                ok: true,
                error: String::new(),
            },
            Some(v) => Verdict {
                ok: false,
                error: v.message.clone(),
            },
        }
    }

    /// `ok` or the check word that fired (`missing`, `unknown`, `type`, `value`, `parse`).
    pub fn outcome(&self) -> &'static str {
        self.first.as_ref().map_or("ok", |v| check_word(v.kind))
    }
}

/// Run the real validator with one rule (or none) switched off. Text goes through the
/// validator's own strict reader (key order kept, repeated keys refused).
pub fn run_validator(schema: &Validator, args: &ArgsInput, off: Option<Rule>) -> ValRun {
    let rules = ValidatorRules::without(off);
    let (first, all) = match args {
        ArgsInput::Value(v) => (schema.check(v, &rules).err(), schema.check_all(v, &rules)),
        ArgsInput::Text(t) => (schema.check(t, &rules).err(), schema.check_all(t, &rules)),
    };
    ValRun { first, all }
}

/// Run a validator fixture row, resolving its schema exactly as `tooldojo check` does.
/// `Err` when the row itself is broken.
pub fn run_validator_case(
    case: &ValidatorCase,
    named: &[(String, NamedSchema)],
    off: Option<Rule>,
) -> Result<ValRun, String> {
    let schema = crate::validate::cases::resolve_schema(&case.schema, &case.required, named)?;
    let args = match (&case.args, &case.args_text) {
        (Some(v), None) => ArgsInput::Value(v.clone()),
        (None, Some(t)) => ArgsInput::Text(t.clone()),
        (Some(_), Some(_)) => return Err("the row has both args and args_text".into()),
        (None, None) => return Err("the row has neither args nor args_text".into()),
    };
    Ok(run_validator(&schema, &args, off))
}

/// The named schemas of `fixtures/schemas.json`, with a message naming the file on error.
pub fn load_named_schemas(content: &Content) -> Result<Vec<(String, NamedSchema)>, String> {
    crate::validate::cases::schemas(content).map_err(|e| e.to_string())
}

// ---------------------------------------------------------------- schema text

/// Where a JSON error points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    pub in_schema: bool,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The editor text for a named schema: the schema itself, or `{"schema", "required"}`
/// for a flat schema with required names.
pub(crate) fn schema_text(entry: &NamedSchema) -> String {
    schema_text_at(entry, 34)
}

/// A fixture schema as editor text laid out for a box `width` cells wide: objects that fit
/// stay on one line.
pub(crate) fn schema_text_at(entry: &NamedSchema, width: usize) -> String {
    let v = if entry.required.is_empty() {
        entry.schema.clone()
    } else {
        json!({"schema": entry.schema, "required": entry.required})
    };
    common::json_semi_pretty(&v, width)
}

/// Read the schema editor's text into a schema. Accepts any contract form, or the
/// `{"schema": ..., "required": [...]}` wrapper for flat schemas.
pub fn parse_schema_text(text: &str) -> Result<Validator, JsonError> {
    // The validator's own strict reader: a schema that repeats a key is refused too, and
    // numbers keep every digit.
    let v = match crate::validate::json::parse(text) {
        Ok(j) => j,
        Err(e) => {
            let message = e.message();
            let (line, column) = common::line_col(&message).unwrap_or((0, 0));
            return Err(JsonError {
                in_schema: true,
                line,
                column,
                message: format!("schema: {message}"),
            });
        }
    };
    let (schema, required) = unwrap_schema(&v);
    Validator::options()
        .required(&required)
        .compile(schema)
        .map_err(|e| JsonError {
            in_schema: true,
            line: 0,
            column: 0,
            message: e.to_string(),
        })
}

/// Split the `{"schema": ..., "required": [...]}` wrapper; any other value is the schema.
fn unwrap_schema<'v, 'a>(v: &'v Json<'a>) -> (&'v Json<'a>, Vec<String>) {
    let wrapped = match v {
        Json::Object(members) => {
            matches!(v.get("schema"), Some(Json::Object(_)))
                && members
                    .iter()
                    .all(|(k, _)| matches!(k.as_ref(), "schema" | "required" | "description"))
        }
        _ => false,
    };
    let (true, Some(schema)) = (wrapped, v.get("schema")) else {
        return (v, Vec::new());
    };
    let req = match v.get("required") {
        Some(Json::Array(items)) => items
            .iter()
            .filter_map(|i| match i {
                Json::Str(s) => Some(s.to_string()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    (schema, req)
}
