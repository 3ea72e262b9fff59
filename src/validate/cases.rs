//! The validator's fixture tables: the rows of `fixtures/validator_cases.json` (their types,
//! loaded from the content trees, and run through the real validator) and the named schemas
//! of `fixtures/schemas.json` compiled into `Validator`s.

use serde::Deserialize;
use serde_json::Value;

use super::{Args, Form, Formats, Json, Validator, ValidatorRules};
use crate::content::{Content, parse_json, present};
use crate::error::{UserError, UserResult};
use crate::sanitize::quote;

/// The file of validator rows, relative to the fixtures tree.
pub(crate) const VALIDATOR_CASES: &str = "validator_cases.json";
/// The file of named schemas, relative to the fixtures tree.
pub(crate) const SCHEMAS: &str = "schemas.json";

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

/// The validator rows of `content`, in file order.
pub fn validator_cases(content: &Content) -> UserResult<Vec<ValidatorCase>> {
    parse_json(&content.fixtures.read(VALIDATOR_CASES)?)
}

/// Named schemas in file order (serde_json's map keeps insertion order).
pub fn schemas(content: &Content) -> UserResult<Vec<(String, NamedSchema)>> {
    let file = content.fixtures.read(SCHEMAS)?;
    let map: serde_json::Map<String, Value> = parse_json(&file)?;
    let mut out = Vec::with_capacity(map.len());
    for (name, v) in map {
        let entry: NamedSchema = serde_json::from_value(v).map_err(|e| {
            UserError::new(format!("{}: schema {}: {e}", file.display, quote(&name)))
        })?;
        out.push((name, entry));
    }
    Ok(out)
}

/// A schema as a case writes it: the name of an entry of `schemas.json`, or an inline
/// schema in any shape. For a named flat schema, the case's own `required` list (when not
/// empty) replaces the entry's.
pub fn resolve_schema(
    schema: &serde_json::Value,
    required: &[String],
    named: &[(String, NamedSchema)],
) -> Result<Validator, String> {
    resolve_schema_as(
        &Json::from_value(schema),
        required,
        named,
        None,
        Formats::Assert,
    )
}

/// [`resolve_schema`] on text read with its numbers exact; `form` names the form of an
/// inline schema (`None`: read it from the shape).
pub(crate) fn resolve_schema_as(
    schema: &Json<'_>,
    required: &[String],
    named: &[(String, NamedSchema)],
    form: Option<Form>,
    formats: Formats,
) -> Result<Validator, String> {
    let opts = |req: &[String]| {
        Validator::options()
            .form(form)
            .required(req)
            .formats(formats)
    };
    match schema {
        Json::Str(name) => {
            let Some((_, entry)) = named.iter().find(|(n, _)| n == name.as_ref()) else {
                let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
                return Err(format!(
                    "no schema named {} (known: {})",
                    quote(name),
                    names.join(", ")
                ));
            };
            let req = if required.is_empty() {
                &entry.required
            } else {
                required
            };
            opts(req)
                .compile_value(&entry.schema)
                .map_err(|e| format!("schema {}: {e}", quote(name)))
        }
        other => opts(required).compile(other).map_err(|e| e.to_string()),
    }
}

/// The verdict the real validator gives a case. `Err` means the case itself is broken
/// (an unknown schema name, a malformed schema, neither or both of args/args_text).
pub fn run_case(
    case: &ValidatorCase,
    named: &[(String, NamedSchema)],
    rules: &ValidatorRules,
) -> Result<Verdict, String> {
    let validator = resolve_schema(&case.schema, &case.required, named)?;
    let args = match (&case.args, &case.args_text) {
        (Some(args), None) => Args::Value(args),
        (None, Some(text)) => Args::Text(text),
        (Some(_), Some(_)) => return Err("a case has both args and args_text".into()),
        (None, None) => return Err("a case needs args or args_text".into()),
    };
    Ok(match validator.check(args, rules) {
        Ok(()) => Verdict {
            ok: true,
            error: String::new(),
        },
        Err(v) => Verdict {
            ok: false,
            error: v.message,
        },
    })
}
