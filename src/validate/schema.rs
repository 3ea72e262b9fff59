//! The three schema forms of the contract compiled into one internal `Schema`.
//!
//! 1. flat form (the validator exercise): `{"city": "str", "days": "int"}` plus a separate required list;
//! 2. a JSON Schema object: `{"type": "object", "properties": {...}, "required": [...]}`;
//! 3. a tool declaration: `{"name": ..., "input_schema": <form 2>}` (`parameters` is accepted
//!    as another spelling of `input_schema`).
//!
//! A schema we cannot honour is an error, never silently weakened: an unknown Python type
//! name, a keyword we do not implement (`items`, `format`, ...), a bad regex, a bound that is
//! not a number. Annotation keywords (`description`, `title`, `default`, `examples`) are read
//! and ignored, as JSON Schema says.

use regex::Regex;
use serde_json::{Map, Value};

use super::json::{Json, show_f64};

/// Which contract form a schema was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    Flat,
    JsonSchema,
    Tool,
}

/// A Python type name of the flat form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PyType {
    Str,
    Int,
    Float,
    Bool,
    List,
    Dict,
}

impl PyType {
    pub fn parse(name: &str) -> Option<PyType> {
        Some(match name {
            "str" => PyType::Str,
            "int" => PyType::Int,
            "float" => PyType::Float,
            "bool" => PyType::Bool,
            "list" => PyType::List,
            "dict" => PyType::Dict,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            PyType::Str => "str",
            PyType::Int => "int",
            PyType::Float => "float",
            PyType::Bool => "bool",
            PyType::List => "list",
            PyType::Dict => "dict",
        }
    }
}

/// A JSON Schema `type` name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsType {
    String,
    Integer,
    Number,
    Boolean,
    Array,
    Object,
    Null,
}

impl JsType {
    pub fn parse(name: &str) -> Option<JsType> {
        Some(match name {
            "string" => JsType::String,
            "integer" => JsType::Integer,
            "number" => JsType::Number,
            "boolean" => JsType::Boolean,
            "array" => JsType::Array,
            "object" => JsType::Object,
            "null" => JsType::Null,
            _ => return None,
        })
    }

    /// Python's name(s) for the values this type accepts (used after "expected").
    pub fn py_name(self) -> &'static str {
        match self {
            JsType::String => "str",
            JsType::Integer => "int",
            JsType::Number => "int or float",
            JsType::Boolean => "bool",
            JsType::Array => "list",
            JsType::Object => "dict",
            JsType::Null => "NoneType",
        }
    }
}

/// What type a property declares.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeSpec {
    /// No `type` keyword: any JSON value.
    Any,
    /// Flat form.
    Py(PyType),
    /// JSON Schema form: one type or a list of them.
    Js(Vec<JsType>),
}

impl TypeSpec {
    /// The "expected T" text of a type error.
    pub fn expected_name(&self) -> std::borrow::Cow<'static, str> {
        match self {
            TypeSpec::Any => "any".into(),
            TypeSpec::Py(t) => t.name().into(),
            TypeSpec::Js(ts) if ts.len() == 1 => ts[0].py_name().into(),
            TypeSpec::Js(ts) => ts
                .iter()
                .map(|t| t.py_name())
                .collect::<Vec<_>>()
                .join(" or ")
                .into(),
        }
    }
}

/// A numeric bound, with its text as written for messages.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    pub value: f64,
    /// Set when the bound is an integer, so integer values compare exactly.
    pub int: Option<i64>,
    pub text: String,
}

impl Bound {
    fn from_value(v: &Value) -> Option<Bound> {
        let n = v.as_number()?;
        Some(Bound {
            value: n.as_f64()?,
            int: n.as_i64(),
            text: match n.as_i64() {
                Some(i) => i.to_string(),
                None => match n.as_u64() {
                    Some(u) => u.to_string(),
                    None => show_f64(n.as_f64()?),
                },
            },
        })
    }

    /// Compare a numeric JSON value with this bound (`None` if `v` is not a number).
    pub fn compare(&self, v: &Json<'_>) -> Option<std::cmp::Ordering> {
        match (v, self.int) {
            (Json::Int(i), Some(b)) => Some(i.cmp(&b)),
            _ => v.as_f64()?.partial_cmp(&self.value),
        }
    }
}

/// A compiled `pattern` (compared by its source text).
#[derive(Debug, Clone)]
pub struct Pattern(pub Regex);

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

/// The value constraints of one property (the fourth check).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Constraints {
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
    pub exclusive_minimum: Option<Bound>,
    pub exclusive_maximum: Option<Bound>,
    /// `enum` (and `const`, stored as a one-item enum).
    pub one_of: Option<Vec<Value>>,
    pub pattern: Option<Pattern>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
}

impl Constraints {
    pub fn is_empty(&self) -> bool {
        self.minimum.is_none()
            && self.maximum.is_none()
            && self.exclusive_minimum.is_none()
            && self.exclusive_maximum.is_none()
            && self.one_of.is_none()
            && self.pattern.is_none()
            && self.min_length.is_none()
            && self.max_length.is_none()
    }
}

/// One declared argument.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub name: String,
    pub ty: TypeSpec,
    pub constraints: Constraints,
    pub description: String,
}

/// A validator schema in one internal form, whatever form it was written in.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    pub form: Form,
    /// The tool's name (form 3).
    pub tool: Option<String>,
    pub properties: Vec<Property>,
    /// Required names in the order declared.
    pub required: Vec<String>,
    /// May args carry keys that are not declared? Never in the flat form; in JSON Schema
    /// only when `additionalProperties` is not `false` (JSON Schema's default is to allow).
    pub additional_allowed: bool,
}

const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

fn kind_of(v: &Value) -> &'static str {
    Json::from_value(v).py_type()
}

/// Compile any contract form.
pub fn compile(schema: &Value, required: &[String]) -> Result<Schema, String> {
    let Value::Object(map) = schema else {
        return Err(format!(
            "a schema must be a JSON object, got {}",
            kind_of(schema)
        ));
    };
    let decl = map.get("input_schema").or_else(|| {
        // OpenAI's spelling, only when the object also looks like a declaration.
        map.get("name")
            .filter(|n| n.is_string())
            .and(map.get("parameters"))
    });
    if let Some(inner) = decl {
        let name = match map.get("name") {
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err("a tool declaration's \"name\" must be a string".into()),
            None => return Err("a tool declaration needs a \"name\"".into()),
        };
        for key in map.keys() {
            if !matches!(
                key.as_str(),
                "name" | "description" | "input_schema" | "parameters" | "strict" | "type"
            ) {
                return Err(format!(
                    "unsupported key {key:?} in tool declaration {name:?}"
                ));
            }
        }
        let Value::Object(inner) = inner else {
            return Err(format!(
                "tool {name:?}: input_schema must be a JSON object, got {}",
                kind_of(inner)
            ));
        };
        no_flat_required(required)?;
        let mut c = compile_object(inner).map_err(|e| format!("tool {name:?}: {e}"))?;
        c.form = Form::Tool;
        c.tool = Some(name);
        return Ok(c);
    }
    let looks_like_json_schema = map.get("type").and_then(Value::as_str) == Some("object")
        || map.get("properties").is_some_and(Value::is_object);
    if looks_like_json_schema {
        no_flat_required(required)?;
        return compile_object(map);
    }
    compile_flat(map, required)
}

fn no_flat_required(required: &[String]) -> Result<(), String> {
    if required.is_empty() {
        Ok(())
    } else {
        Err("a separate required list applies only to the flat form; \
             a JSON Schema carries its own \"required\""
            .into())
    }
}

fn compile_flat(map: &Map<String, Value>, required: &[String]) -> Result<Schema, String> {
    let mut properties = Vec::with_capacity(map.len());
    for (name, ty) in map {
        let Value::String(ty) = ty else {
            return Err(format!(
                "flat schema: the type of {name:?} must be a Python type name \
                 (str, int, float, bool, list, dict), got {}",
                serde_json::to_string(ty).unwrap_or_default()
            ));
        };
        let Some(py) = PyType::parse(ty) else {
            return Err(format!(
                "flat schema: unknown type {ty:?} for {name:?} (use str, int, float, bool, list or dict)"
            ));
        };
        properties.push(Property {
            name: name.clone(),
            ty: TypeSpec::Py(py),
            constraints: Constraints::default(),
            description: String::new(),
        });
    }
    let mut req: Vec<String> = Vec::with_capacity(required.len());
    for r in required {
        if r.is_empty() {
            return Err("flat schema: an empty name in the required list".into());
        }
        if !req.contains(r) {
            req.push(r.clone());
        }
    }
    Ok(Schema {
        form: Form::Flat,
        tool: None,
        properties,
        required: req,
        additional_allowed: false,
    })
}

fn compile_object(map: &Map<String, Value>) -> Result<Schema, String> {
    let mut properties = Vec::new();
    let mut required = Vec::new();
    let mut additional_allowed = true;
    for (key, v) in map {
        match key.as_str() {
            "type" => {
                if v.as_str() != Some("object") {
                    return Err(format!(
                        "the top-level \"type\" must be \"object\", got {}",
                        serde_json::to_string(v).unwrap_or_default()
                    ));
                }
            }
            "properties" => {
                let Value::Object(props) = v else {
                    return Err("\"properties\" must be an object".into());
                };
                for (name, p) in props {
                    properties.push(compile_property(name, p)?);
                }
            }
            "required" => {
                let Value::Array(items) = v else {
                    return Err("\"required\" must be a list of names".into());
                };
                for item in items {
                    let Value::String(s) = item else {
                        return Err(format!(
                            "\"required\" must list names (strings), found {}",
                            serde_json::to_string(item).unwrap_or_default()
                        ));
                    };
                    if !required.contains(s) {
                        required.push(s.clone());
                    }
                }
            }
            "additionalProperties" => match v {
                Value::Bool(b) => additional_allowed = *b,
                _ => {
                    return Err(
                        "\"additionalProperties\" must be true or false (schemas for extra keys are not supported)"
                            .into(),
                    );
                }
            },
            "$schema" | "$id" => {}
            k if ANNOTATIONS.contains(&k) => {}
            other => {
                return Err(format!(
                    "unsupported keyword {other:?} at the top of the schema"
                ));
            }
        }
    }
    Ok(Schema {
        form: Form::JsonSchema,
        tool: None,
        properties,
        required,
        additional_allowed,
    })
}

fn bound(name: &str, key: &str, v: &Value) -> Result<Bound, String> {
    Bound::from_value(v).ok_or_else(|| {
        format!(
            "property {name:?}: \"{key}\" must be a number, got {}",
            serde_json::to_string(v).unwrap_or_default()
        )
    })
}

fn length(name: &str, key: &str, v: &Value) -> Result<u64, String> {
    v.as_u64().ok_or_else(|| {
        format!(
            "property {name:?}: \"{key}\" must be a whole number >= 0, got {}",
            serde_json::to_string(v).unwrap_or_default()
        )
    })
}

fn compile_property(name: &str, p: &Value) -> Result<Property, String> {
    let Value::Object(p) = p else {
        return Err(format!(
            "property {name:?} must be described by an object, got {}",
            serde_json::to_string(p).unwrap_or_default()
        ));
    };
    let mut ty = TypeSpec::Any;
    let mut c = Constraints::default();
    let mut description = String::new();
    // Draft-4 style boolean exclusive bounds turn minimum/maximum exclusive.
    let mut excl_min_flag = false;
    let mut excl_max_flag = false;
    for (key, v) in p {
        match key.as_str() {
            "type" => ty = js_types(name, v)?,
            "minimum" => c.minimum = Some(bound(name, key, v)?),
            "maximum" => c.maximum = Some(bound(name, key, v)?),
            "exclusiveMinimum" => match v {
                Value::Bool(b) => excl_min_flag = *b,
                _ => c.exclusive_minimum = Some(bound(name, key, v)?),
            },
            "exclusiveMaximum" => match v {
                Value::Bool(b) => excl_max_flag = *b,
                _ => c.exclusive_maximum = Some(bound(name, key, v)?),
            },
            "enum" => match v {
                Value::Array(items) if !items.is_empty() => c.one_of = Some(items.clone()),
                _ => {
                    return Err(format!(
                        "property {name:?}: \"enum\" must be a non-empty list"
                    ));
                }
            },
            "const" => c.one_of = Some(vec![v.clone()]),
            "pattern" => c.pattern = Some(pattern(name, v)?),
            "minLength" => c.min_length = Some(length(name, key, v)?),
            "maxLength" => c.max_length = Some(length(name, key, v)?),
            "description" => description = v.as_str().unwrap_or_default().to_owned(),
            k if ANNOTATIONS.contains(&k) => {}
            other => {
                return Err(format!(
                    "property {name:?}: unsupported keyword {other:?} (supported: type, minimum, maximum, \
                     exclusiveMinimum, exclusiveMaximum, enum, const, pattern, minLength, maxLength)"
                ));
            }
        }
    }
    if excl_min_flag {
        c.exclusive_minimum = Some(exclusive(name, "minimum", c.minimum.take())?);
    }
    if excl_max_flag {
        c.exclusive_maximum = Some(exclusive(name, "maximum", c.maximum.take())?);
    }
    Ok(Property {
        name: name.to_owned(),
        ty,
        constraints: c,
        description,
    })
}

/// `"type"`: one JSON Schema type name or a non-empty list of them (repeats dropped).
fn js_types(name: &str, v: &Value) -> Result<TypeSpec, String> {
    let names: Vec<&Value> = match v {
        Value::String(_) => vec![v],
        Value::Array(items) if !items.is_empty() => items.iter().collect(),
        _ => {
            return Err(format!(
                "property {name:?}: \"type\" must be a type name or a non-empty list of them"
            ));
        }
    };
    let mut ts = Vec::new();
    for n in names {
        let t = n.as_str().and_then(JsType::parse).ok_or_else(|| {
            format!(
                "property {name:?}: unknown type {} (use string, integer, number, boolean, array, object or null)",
                serde_json::to_string(n).unwrap_or_default()
            )
        })?;
        if !ts.contains(&t) {
            ts.push(t);
        }
    }
    Ok(TypeSpec::Js(ts))
}

/// `"pattern"`: a regex, compiled once here.
fn pattern(name: &str, v: &Value) -> Result<Pattern, String> {
    let Value::String(src) = v else {
        return Err(format!("property {name:?}: \"pattern\" must be a string"));
    };
    let re = Regex::new(src).map_err(|e| {
        let first = e.to_string();
        let last = first.lines().last().unwrap_or("").trim().to_owned();
        format!("property {name:?}: bad pattern {src:?}: {last}")
    })?;
    Ok(Pattern(re))
}

/// Draft-4 `"exclusiveMinimum": true` (or Maximum) turns the plain bound (`key`) exclusive;
/// without that bound the flag has nothing to act on.
fn exclusive(name: &str, key: &str, plain: Option<Bound>) -> Result<Bound, String> {
    let flag = if key == "minimum" {
        "exclusiveMinimum"
    } else {
        "exclusiveMaximum"
    };
    plain.ok_or_else(|| format!("property {name:?}: \"{flag}\": true needs a \"{key}\""))
}
