//! Fixture rows of `fixtures/validator_cases.json` run through the real validator, and
//! named schemas (`fixtures/schemas.json`) resolved into `Schema`s.

use serde_json::Value;

use super::{Schema, ValidatorRules};
use crate::content::fixtures::{NamedSchema, ValidatorCase, Verdict};

/// A schema as a case writes it: the name of an entry of `schemas.json`, or an inline
/// schema in any contract form. For a named flat schema, the case's own `required` list
/// (when not empty) replaces the entry's.
pub fn resolve_schema(
    schema: &Value,
    required: &[String],
    named: &[(String, NamedSchema)],
) -> Result<Schema, String> {
    match schema {
        Value::String(name) => {
            let Some((_, entry)) = named.iter().find(|(n, _)| n == name) else {
                let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
                return Err(format!(
                    "no schema named {name:?} (known: {})",
                    names.join(", ")
                ));
            };
            let req = if required.is_empty() {
                &entry.required
            } else {
                required
            };
            Schema::from_json(&entry.schema, req).map_err(|e| format!("schema {name:?}: {e}"))
        }
        other => Schema::from_json(other, required),
    }
}

/// The verdict the real validator gives a case. `Err` means the case itself is broken
/// (an unknown schema name, a malformed schema, neither or both of args/args_text).
pub fn run_case(
    case: &ValidatorCase,
    named: &[(String, NamedSchema)],
    rules: &ValidatorRules,
) -> Result<Verdict, String> {
    let schema = resolve_schema(&case.schema, &case.required, named)?;
    let result = match (&case.args, &case.args_text) {
        (Some(args), None) => super::validate_with(&schema, args, rules),
        (None, Some(text)) => super::validate_text(&schema, text, rules),
        (Some(_), Some(_)) => return Err("a case has both args and args_text".into()),
        (None, None) => return Err("a case needs args or args_text".into()),
    };
    Ok(match result {
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
