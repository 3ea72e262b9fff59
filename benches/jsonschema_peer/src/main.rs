//! The Rust peer of `tooldojo validate --jsonl`: jsonschema-rs, with one compiled validator
//! kept per distinct schema, and serde_json parsing each line into a `Value`.
//!
//! Usage: `jsonschema-peer [FILE]` (stdin without one). Reads the cases of
//! `benches/compare.py` (`{"schema": {...}, "required": [...], "args": {...}}`) and prints
//! `{"ok": true}` or `{"ok": false, "error": "..."}` for each line, in order.
//!
//! A flat schema (`{"city": "str", "days": "int"}`) becomes the JSON Schema a user would
//! write for it: an object with those properties, the required names, no other keys. Any
//! other schema object is used as JSON Schema as it is. With `--features exact` the Python
//! types `int` and `float` also get a custom keyword, `pyType`, that tells an integer
//! literal from a float literal (JSON Schema itself calls `3.0` an integer).

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

use jsonschema::Validator;
use serde_json::{Map, Value, json};

fn main() -> io::Result<()> {
    let input: Box<dyn Read> = match std::env::args().nth(1) {
        Some(path) => Box::new(std::fs::File::open(&path)?),
        None => Box::new(io::stdin()),
    };
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut cache: Vec<(Value, Value, Result<Validator, String>)> = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            break;
        }
        let verdict = judge(&line, &mut cache);
        match verdict {
            Ok(()) => out.write_all(b"{\"ok\": true}\n")?,
            Err(e) => writeln!(out, "{{\"ok\": false, \"error\": {}}}", Value::String(e))?,
        }
    }
    out.flush()
}

fn judge(
    line: &str,
    cache: &mut Vec<(Value, Value, Result<Validator, String>)>,
) -> Result<(), String> {
    let case: Value = serde_json::from_str(line).map_err(|e| format!("bad case: {e}"))?;
    let schema = case.get("schema").ok_or("bad case: no schema")?;
    let required = case.get("required").unwrap_or(&Value::Null);
    let at = match cache
        .iter()
        .position(|(s, r, _)| s == schema && r == required)
    {
        Some(i) => i,
        None => {
            let validator = compile(schema, required);
            cache.push((schema.clone(), required.clone(), validator));
            cache.len() - 1
        }
    };
    let validator = cache[at].2.as_ref().map_err(Clone::clone)?;
    let args = case.get("args").ok_or("bad case: no args")?;
    validator.validate(args).map_err(|e| e.to_string())
}

/// The JSON Schema for a case's schema, compiled.
fn compile(schema: &Value, required: &Value) -> Result<Validator, String> {
    let as_json_schema = match schema.as_object() {
        Some(fields) if fields.values().all(Value::is_string) => {
            flat_to_json_schema(fields, required)?
        }
        Some(_) => schema.clone(),
        None => return Err(format!("bad case: schema {schema} is not an object")),
    };
    options()
        .build(&as_json_schema)
        .map_err(|e| format!("bad case: schema: {e}"))
}

fn flat_to_json_schema(fields: &Map<String, Value>, required: &Value) -> Result<Value, String> {
    let mut properties = Map::new();
    for (name, ty) in fields {
        let py = ty.as_str().unwrap_or_default();
        let json_type = match py {
            "str" => "string",
            "int" => "integer",
            "float" => "number",
            "bool" => "boolean",
            "list" => "array",
            "dict" => "object",
            other => return Err(format!("bad case: unknown type {other:?}")),
        };
        let mut property = json!({ "type": json_type });
        if cfg!(feature = "exact") && matches!(py, "int" | "float") {
            property["pyType"] = Value::String(py.to_owned());
        }
        properties.insert(name.clone(), property);
    }
    Ok(json!({
        "type": "object",
        "properties": properties,
        "required": if required.is_null() { json!([]) } else { required.clone() },
        "additionalProperties": false,
    }))
}

#[cfg(not(feature = "exact"))]
fn options() -> jsonschema::ValidationOptions<'static> {
    jsonschema::options()
}

#[cfg(feature = "exact")]
fn options() -> jsonschema::ValidationOptions<'static> {
    jsonschema::options().with_keyword("pyType", |_, value, _| {
        let float = value.as_str() == Some("float");
        Ok(Box::new(PyNumber { float }))
    })
}

/// `pyType`: a number must be written as Python reads that type (`int`: no fraction or
/// exponent in the literal; `float`: one of them). Other values are left to `type`.
#[cfg(feature = "exact")]
struct PyNumber {
    float: bool,
}

#[cfg(feature = "exact")]
impl<'i> jsonschema::Keyword<'i> for PyNumber {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else if self.float {
            Err(jsonschema::ValidationError::custom(
                "an integer literal is not a float",
            ))
        } else {
            Err(jsonschema::ValidationError::custom(
                "a float literal is not an integer",
            ))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        match instance {
            Value::Number(n) => n.is_f64() == self.float,
            _ => true,
        }
    }
}
