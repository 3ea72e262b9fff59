//! Where the JSON Schema of a case is: the flat form, a bare JSON Schema, or a tool
//! declaration in its own shape. The same rules as `benches/py_jsonschema.py` (`extract`),
//! so the two peers read every case alike; the order below is the order they are tried.
//!
//! 1. `form` names it: `flat`, `json-schema` (the value itself), `tool` (a declaration).
//! 2. A string: the schema of that name in `fixtures/schemas.json`.
//! 3. `true` / `false`: a boolean JSON Schema.
//! 4. A tool declaration:
//!    - OpenAI Chat `{"type": "function", "function": {..., "parameters"}}`: `function.parameters`;
//!    - MCP `{"name", "inputSchema", ...}`: `inputSchema`;
//!    - Anthropic, and tooldojo's own form, `{"name", "input_schema", ...}`: `input_schema`;
//!    - OpenAI Responses `{"type": "function", "name", "parameters"}`, or any `{"name": "...",
//!      "parameters"}`: `parameters`.
//!
//!    An OpenAI function without `parameters` takes no arguments. Two of `function`,
//!    `inputSchema`, `input_schema`, `parameters` in one declaration are ambiguous.
//! 5. Every value a Python type name: the flat form (ambiguous, and refused, when every key is
//!    also a JSON Schema keyword taking a string and no `required` list is given).
//! 6. Any other object: a bare JSON Schema.

use serde_json::{Map, Value, json};

/// The form a case names with `"form"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Form {
    Flat,
    JsonSchema,
    Tool,
}

impl Form {
    pub fn parse(name: &str) -> Option<Form> {
        Some(match name {
            "flat" => Form::Flat,
            "json-schema" => Form::JsonSchema,
            "tool" => Form::Tool,
            _ => return None,
        })
    }
}

/// The JSON Schema found, and whether it came from the flat form.
pub struct Found {
    pub schema: Value,
    pub flat: bool,
}

const PY_TYPES: [(&str, &str); 6] = [
    ("str", "string"),
    ("int", "integer"),
    ("float", "number"),
    ("bool", "boolean"),
    ("list", "array"),
    ("dict", "object"),
];
const STRING_KEYWORDS: [&str; 6] = [
    "title",
    "description",
    "default",
    "$comment",
    "$id",
    "$schema",
];
const DECLARATION_KEYS: [&str; 4] = ["function", "inputSchema", "input_schema", "parameters"];

fn json_type(py: &str) -> Option<&'static str> {
    PY_TYPES.iter().find(|(p, _)| *p == py).map(|(_, j)| *j)
}

fn py_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

fn no_parameters() -> Value {
    json!({"type": "object", "properties": {}, "additionalProperties": false})
}

/// A named schema: its schema value and required list.
pub type Named<'a> = &'a dyn Fn(&str) -> Result<(Value, Vec<String>), String>;

/// The JSON Schema of a case's `schema`, in whichever shape it is written.
pub fn extract(
    s: &Value,
    required: &[String],
    form: Option<Form>,
    named: Named<'_>,
) -> Result<Found, String> {
    if let (Value::String(name), None) = (s, form) {
        let (schema, own) = named(name)?;
        let req = if required.is_empty() { &own } else { required };
        return extract(&schema, req, None, named);
    }
    match (form, s) {
        (Some(Form::Flat), Value::Object(fields)) => return flat(fields, required),
        (Some(Form::Flat), other) => {
            return Err(format!(
                "schema: a flat schema must be a JSON object, got {}",
                py_type(other)
            ));
        }
        (Some(Form::JsonSchema), Value::Object(_) | Value::Bool(_)) | (None, Value::Bool(_)) => {
            no_required(required)?;
            return Ok(Found {
                schema: s.clone(),
                flat: false,
            });
        }
        (Some(Form::JsonSchema), other) => {
            return Err(format!(
                "schema: a JSON Schema must be an object or a boolean, got {}",
                py_type(other)
            ));
        }
        _ => {}
    }
    let Value::Object(map) = s else {
        return Err(format!(
            "schema: a schema must be a JSON object, got {}",
            py_type(s)
        ));
    };
    if let Some(inner) = declaration(map)? {
        no_required(required)?;
        return Ok(Found {
            schema: inner,
            flat: false,
        });
    }
    if form == Some(Form::Tool) {
        return Err(
            "schema: not a tool declaration (no function, inputSchema, input_schema or \
                    parameters)"
                .into(),
        );
    }
    let flat_shaped = map
        .values()
        .all(|v| v.as_str().and_then(json_type).is_some());
    if flat_shaped {
        if required.is_empty() && map.keys().all(|k| STRING_KEYWORDS.contains(&k.as_str())) {
            return Err(format!(
                "schema: the schema {s} is ambiguous: name its form (flat or json-schema)"
            ));
        }
        return flat(map, required);
    }
    no_required(required)?;
    Ok(Found {
        schema: s.clone(),
        flat: false,
    })
}

/// The schema inside a tool declaration, or `None` when `map` is not one.
fn declaration(map: &Map<String, Value>) -> Result<Option<Value>, String> {
    let held: Vec<&str> = DECLARATION_KEYS
        .iter()
        .copied()
        .filter(|k| map.contains_key(*k))
        .collect();
    let is_function = map.get("type").and_then(Value::as_str) == Some("function");
    let named = map.get("name").is_some_and(Value::is_string);
    let (params, at) = match map.get("function") {
        Some(Value::Object(f)) if is_function => {
            if held.len() > 1 {
                return Err(format!(
                    "schema: an OpenAI Chat tool with {} beside \"function\"",
                    held[1..].join(", ")
                ));
            }
            (
                f.get("parameters").cloned().unwrap_or_else(no_parameters),
                "function.parameters",
            )
        }
        _ if held.len() > 1 => {
            return Err(format!(
                "schema: the declaration is ambiguous: it holds {}",
                held.join(" and ")
            ));
        }
        _ => match held.first().copied() {
            Some(key @ ("inputSchema" | "input_schema")) => (map[key].clone(), key),
            Some("parameters") if named => (map["parameters"].clone(), "parameters"),
            None if is_function && named => (no_parameters(), "parameters"),
            _ => return Ok(None),
        },
    };
    if !matches!(params, Value::Object(_) | Value::Bool(_)) {
        return Err(format!(
            "schema: the declaration's {at} must be a JSON object, got {}",
            py_type(&params)
        ));
    }
    Ok(Some(params))
}

fn no_required(required: &[String]) -> Result<(), String> {
    if required.is_empty() {
        Ok(())
    } else {
        Err(
            "a separate required list applies only to the flat form; a JSON Schema carries \
             its own \"required\""
                .into(),
        )
    }
}

/// The flat form as the JSON Schema a user would write for it; `int` and `float` also get
/// `pyType`, which the exact build turns into a check of the number's literal.
fn flat(fields: &Map<String, Value>, required: &[String]) -> Result<Found, String> {
    let mut properties = Map::new();
    for (name, ty) in fields {
        let Some(json) = ty.as_str().and_then(json_type) else {
            return Err(format!(
                "schema: flat schema: unknown type {ty} for {}",
                Value::String(name.clone())
            ));
        };
        let mut property = json!({ "type": json });
        if let Some(py @ ("int" | "float")) = ty.as_str() {
            property["pyType"] = Value::String(py.to_owned());
        }
        properties.insert(name.clone(), property);
    }
    if required.iter().any(String::is_empty) {
        return Err("schema: flat schema: an empty name in the required list".into());
    }
    let mut names: Vec<&String> = Vec::new();
    for r in required {
        if !names.contains(&r) {
            names.push(r);
        }
    }
    Ok(Found {
        schema: json!({
            "type": "object",
            "properties": properties,
            "required": names,
            "additionalProperties": false,
        }),
        flat: true,
    })
}

/// The declarations of one file under `realworld/tools/`, each in its own shape: an MCP
/// `tools/list` result's tools, or a tools array's entries that declare a schema (built-in
/// and server tools without one are left out).
pub fn file_declarations(doc: &Value) -> Vec<&Value> {
    match doc {
        Value::Object(m) => m
            .get("tools")
            .and_then(Value::as_array)
            .map(|t| t.iter().collect())
            .unwrap_or_default(),
        Value::Array(entries) => entries
            .iter()
            .filter(|t| {
                let function = t.get("type").and_then(Value::as_str) == Some("function");
                (function && (t.get("function").is_some() || t.get("parameters").is_some()))
                    || t.get("input_schema").is_some()
            })
            .collect(),
        _ => Vec::new(),
    }
}
