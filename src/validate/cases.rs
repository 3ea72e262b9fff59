//! Fixture rows of `fixtures/validator_cases.json` run through the real validator, and
//! named schemas (`fixtures/schemas.json`) resolved into `Schema`s.

use super::{Form, Json, Schema, ValidatorRules};
use crate::content::fixtures::{NamedSchema, ValidatorCase, Verdict};

/// A schema as a case writes it: the name of an entry of `schemas.json`, or an inline
/// schema in any contract form. For a named flat schema, the case's own `required` list
/// (when not empty) replaces the entry's.
pub fn resolve_schema(
    schema: &serde_json::Value,
    required: &[String],
    named: &[(String, NamedSchema)],
) -> Result<Schema, String> {
    resolve_schema_as(&Json::from_value(schema), required, named, None)
}

/// [`resolve_schema`] on text read with its numbers exact; `form` names the form of an
/// inline schema (`None`: read it from the shape).
pub fn resolve_schema_as(
    schema: &Json<'_>,
    required: &[String],
    named: &[(String, NamedSchema)],
    form: Option<Form>,
) -> Result<Schema, String> {
    match schema {
        Json::Str(name) => {
            let Some((_, entry)) = named.iter().find(|(n, _)| n == name.as_ref()) else {
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
            super::schema::compile(&Json::from_value(&entry.schema), req, form)
                .map_err(|e| format!("schema {name:?}: {e}"))
        }
        other => super::schema::compile(other, required, form),
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
