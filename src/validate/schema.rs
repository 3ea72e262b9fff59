//! The three schema forms of the contract compiled into one internal `Schema`.
//!
//! 1. flat form (the validator exercise): `{"city": "str", "days": "int"}` plus a separate required list;
//! 2. a JSON Schema object: `{"type": "object", "properties": {...}, "required": [...]}`;
//! 3. a tool declaration: `{"name": ..., "input_schema": <form 2>}` (`parameters` is accepted
//!    as another spelling of `input_schema`).
//!
//! The form may be named; otherwise it is read from the shape, and a shape that two forms
//! read validly and differently (`{}`, `{"title": "int"}`) is an error asking for the name.
//! Schemas are compiled from the strict reader's [`Json`], so a bound or an `enum` member
//! keeps every digit as written.
//!
//! A schema we cannot honour is an error, never silently weakened: an unknown Python type
//! name, a keyword we do not implement (`items`, `format`, ...), a pattern the regex crate
//! cannot give its ECMA-262 meaning, a bound that is not a number. Annotation keywords
//! (`description`, `title`, `default`, `examples`) are read and ignored, as JSON Schema says.

use std::borrow::Cow;

use super::json::{self, Json, show_f64};

/// Which contract form a schema was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    Flat,
    JsonSchema,
    Tool,
}

impl Form {
    /// The names a user writes: `flat`, `json-schema`, `tool`.
    pub(crate) const NAMES: [&'static str; 3] = ["flat", "json-schema", "tool"];

    pub fn parse(name: &str) -> Option<Form> {
        Some(match name {
            "flat" => Form::Flat,
            "json-schema" => Form::JsonSchema,
            "tool" => Form::Tool,
            _ => return None,
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Form::Flat => "flat",
            Form::JsonSchema => "json-schema",
            Form::Tool => "tool",
        }
    }
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

    pub(crate) fn name(self) -> &'static str {
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
    pub(crate) fn py_name(self) -> &'static str {
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
    pub(crate) fn expected_name(&self) -> std::borrow::Cow<'static, str> {
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

/// A numeric bound: its exact value and its text for messages.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound {
    /// An `Int`, `BigInt` or `Float`.
    pub(crate) value: Json<'static>,
    pub(crate) text: String,
}

impl Bound {
    fn from_json(v: &Json<'_>) -> Option<Bound> {
        let text = match v {
            Json::Int(i) => i.to_string(),
            Json::BigInt(t) => t.to_string(),
            Json::Float(f) => show_f64(*f),
            _ => return None,
        };
        Some(Bound {
            value: v.clone().into_owned(),
            text,
        })
    }

    /// Compare a numeric JSON value with this bound, exactly (`None` if `v` is not a number).
    pub(crate) fn compare(&self, v: &Json<'_>) -> Option<std::cmp::Ordering> {
        super::number::compare(v, &self.value)
    }
}

/// A compiled `pattern`: the source as written (for messages and equality) and the
/// regex that gives it its ECMA-262 meaning.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    pub(crate) source: String,
    pub(crate) regex: super::ecma_regex::Compiled,
}

impl Pattern {
    pub(crate) fn is_match(&self, s: &str) -> bool {
        self.regex.is_match(s)
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

/// The value constraints of one property (the fourth check).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Constraints {
    pub(crate) minimum: Option<Bound>,
    pub(crate) maximum: Option<Bound>,
    pub(crate) exclusive_minimum: Option<Bound>,
    pub(crate) exclusive_maximum: Option<Bound>,
    /// `enum` (and `const`, stored as a one-item enum); an empty list accepts nothing.
    pub(crate) one_of: Option<Vec<Json<'static>>>,
    pub(crate) pattern: Option<Pattern>,
    pub(crate) min_length: Option<u64>,
    pub(crate) max_length: Option<u64>,
}

impl Constraints {
    pub(crate) fn is_empty(&self) -> bool {
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
    pub(crate) name: String,
    pub(crate) ty: TypeSpec,
    pub(crate) constraints: Constraints,
    pub(crate) description: String,
}

/// A validator schema in one internal form, whatever form it was written in.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    pub(crate) form: Form,
    /// The tool's name (form 3).
    pub(crate) tool: Option<String>,
    pub(crate) properties: Vec<Property>,
    /// Required names in the order declared.
    pub(crate) required: Vec<String>,
    /// May args carry keys that are not declared? Never in the flat form; in JSON Schema
    /// only when `additionalProperties` is not `false` (JSON Schema's default is to allow).
    pub(crate) additional_allowed: bool,
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

/// Keywords a JSON Schema object may carry at its top besides the annotations.
const OBJECT_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "$schema",
    "$id",
];

/// Keywords a JSON Schema may give a string value: an object made only of these, each
/// naming a Python type (`{"title": "int"}`), reads validly as either form.
const STRING_KEYWORDS: &[&str] = &[
    "title",
    "description",
    "default",
    "$comment",
    "$id",
    "$schema",
];

/// An object's members, in the order written.
type Members<'a> = [(Cow<'a, str>, Json<'a>)];

fn member<'m, 'a>(map: &'m Members<'a>, key: &str) -> Option<&'m Json<'a>> {
    map.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Compile any contract form. `form` names the form; `None` reads it from the shape and
/// refuses a shape that two forms read differently.
pub fn compile(
    schema: &Json<'_>,
    required: &[String],
    form: Option<Form>,
) -> Result<Schema, String> {
    let Json::Object(map) = schema else {
        return Err(format!(
            "a schema must be a JSON object, got {}",
            schema.py_type()
        ));
    };
    let form = match form {
        Some(f) => f,
        None => detect(map, required)?,
    };
    match form {
        Form::Tool => compile_tool(map, required),
        Form::JsonSchema => {
            no_flat_required(required)?;
            compile_object(map)
        }
        Form::Flat => compile_flat(map, required),
    }
}

/// Which form an unnamed schema is written in.
///
/// Every value a type name of Python: the flat form, unless every key is also a JSON Schema
/// keyword that takes a string (`title`, `description`, ...) and no separate required list
/// says "flat": then both readings are valid and disagree (the JSON Schema one accepts any
/// object), so the form must be named. `{}` is the smallest such case.
fn detect(map: &Members<'_>, required: &[String]) -> Result<Form, String> {
    let flat_shaped = map
        .iter()
        .all(|(_, v)| matches!(v, Json::Str(t) if PyType::parse(t).is_some()));
    if flat_shaped {
        let keywords_only = map
            .iter()
            .all(|(k, _)| STRING_KEYWORDS.contains(&k.as_ref()));
        if keywords_only && required.is_empty() {
            return Err(ambiguous(map));
        }
        return Ok(Form::Flat);
    }
    let declaration = member(map, "input_schema").is_some()
        || (matches!(member(map, "name"), Some(Json::Str(_)))
            && member(map, "parameters").is_some());
    if declaration {
        return Ok(Form::Tool);
    }
    let typed = matches!(member(map, "type"), Some(Json::Str(t)) if t == "object")
        || matches!(member(map, "properties"), Some(Json::Object(_)));
    let keywords_only = map
        .iter()
        .all(|(k, _)| OBJECT_KEYWORDS.contains(&k.as_ref()) || ANNOTATIONS.contains(&k.as_ref()));
    Ok(if typed || keywords_only {
        Form::JsonSchema
    } else {
        Form::Flat
    })
}

fn ambiguous(map: &Members<'_>) -> String {
    let both = "name its form (flat or json-schema)";
    if map.is_empty() {
        return format!(
            "the schema {{}} is ambiguous: in the flat form it takes no arguments, as a JSON \
             Schema it accepts any object; {both}"
        );
    }
    let args: Vec<String> = map
        .iter()
        .map(|(k, v)| match v {
            Json::Str(t) => format!("{k} ({t})"),
            other => format!("{k} ({})", other.to_text()),
        })
        .collect();
    format!(
        "the schema {} is ambiguous: in the flat form it declares the arguments {}, as a JSON \
         Schema it carries only annotations and accepts any object; {both}",
        json::cut(&Json::Object(map.to_vec()).to_text(), 80),
        args.join(", ")
    )
}

fn compile_tool(map: &Members<'_>, required: &[String]) -> Result<Schema, String> {
    let name = match member(map, "name") {
        Some(Json::Str(s)) => s.to_string(),
        Some(_) => return Err("a tool declaration's \"name\" must be a string".into()),
        None => return Err("a tool declaration needs a \"name\"".into()),
    };
    for (key, _) in map {
        if !matches!(
            key.as_ref(),
            "name" | "description" | "input_schema" | "parameters" | "strict" | "type"
        ) {
            return Err(format!(
                "unsupported key {key:?} in tool declaration {name:?}"
            ));
        }
    }
    let Some(inner) = member(map, "input_schema").or_else(|| member(map, "parameters")) else {
        return Err(format!(
            "tool {name:?}: the declaration needs an \"input_schema\""
        ));
    };
    let Json::Object(inner) = inner else {
        return Err(format!(
            "tool {name:?}: input_schema must be a JSON object, got {}",
            inner.py_type()
        ));
    };
    no_flat_required(required)?;
    let mut c = compile_object(inner).map_err(|e| format!("tool {name:?}: {e}"))?;
    c.form = Form::Tool;
    c.tool = Some(name);
    Ok(c)
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

fn compile_flat(map: &Members<'_>, required: &[String]) -> Result<Schema, String> {
    let mut properties = Vec::with_capacity(map.len());
    for (name, ty) in map {
        let Json::Str(ty) = ty else {
            return Err(format!(
                "flat schema: the type of {name:?} must be a Python type name \
                 (str, int, float, bool, list, dict), got {}",
                ty.to_text()
            ));
        };
        let Some(py) = PyType::parse(ty) else {
            return Err(format!(
                "flat schema: unknown type {ty:?} for {name:?} (use str, int, float, bool, list or dict)"
            ));
        };
        properties.push(Property {
            name: name.to_string(),
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

fn compile_object(map: &Members<'_>) -> Result<Schema, String> {
    let mut properties = Vec::new();
    let mut required = Vec::new();
    let mut additional_allowed = true;
    for (key, v) in map {
        match key.as_ref() {
            "type" => {
                if !matches!(v, Json::Str(t) if t == "object") {
                    return Err(format!(
                        "the top-level \"type\" must be \"object\", got {}",
                        v.to_text()
                    ));
                }
            }
            "properties" => {
                let Json::Object(props) = v else {
                    return Err("\"properties\" must be an object".into());
                };
                for (name, p) in props {
                    properties.push(compile_property(name, p)?);
                }
            }
            "required" => {
                let Json::Array(items) = v else {
                    return Err("\"required\" must be a list of names".into());
                };
                for item in items {
                    let Json::Str(s) = item else {
                        return Err(format!(
                            "\"required\" must list names (strings), found {}",
                            item.to_text()
                        ));
                    };
                    if !required.iter().any(|r| r == s) {
                        required.push(s.to_string());
                    }
                }
            }
            "additionalProperties" => match v {
                Json::Bool(b) => additional_allowed = *b,
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

fn bound(name: &str, key: &str, v: &Json<'_>) -> Result<Bound, String> {
    Bound::from_json(v).ok_or_else(|| {
        format!(
            "property {name:?}: \"{key}\" must be a number, got {}",
            v.to_text()
        )
    })
}

/// A length bound: a whole number >= 0, written as an integer or as a float with no
/// fraction (`2.0`), as JSON Schema allows. Beyond `u64` it saturates (no string is that long).
fn length(name: &str, key: &str, v: &Json<'_>) -> Result<u64, String> {
    let n = match v {
        Json::Int(i) => u64::try_from(*i).ok(),
        Json::BigInt(t) if !t.starts_with('-') => Some(u64::MAX),
        Json::Float(f) if *f >= 0.0 && f.fract() == 0.0 => Some(*f as u64),
        _ => None,
    };
    n.ok_or_else(|| {
        format!(
            "property {name:?}: \"{key}\" must be a whole number >= 0, got {}",
            v.to_text()
        )
    })
}

/// `"type"`: one JSON Schema type name or a non-empty list of them (repeats dropped).
fn js_types(name: &str, v: &Json<'_>) -> Result<TypeSpec, String> {
    let names: Vec<&Json<'_>> = match v {
        Json::Str(_) => vec![v],
        Json::Array(items) if !items.is_empty() => items.iter().collect(),
        _ => {
            return Err(format!(
                "property {name:?}: \"type\" must be a type name or a non-empty list of them"
            ));
        }
    };
    let mut ts = Vec::new();
    for n in names {
        let t = match n {
            Json::Str(s) => JsType::parse(s),
            _ => None,
        }
        .ok_or_else(|| {
            format!(
                "property {name:?}: unknown type {} (use string, integer, number, boolean, array, object or null)",
                n.to_text()
            )
        })?;
        if !ts.contains(&t) {
            ts.push(t);
        }
    }
    Ok(TypeSpec::Js(ts))
}

/// `"pattern"`: compiled once here, with its ECMA-262 meaning.
fn pattern(name: &str, v: &Json<'_>) -> Result<Pattern, String> {
    let Json::Str(src) = v else {
        return Err(format!("property {name:?}: \"pattern\" must be a string"));
    };
    let regex = super::ecma_regex::compile(src)
        .map_err(|e| format!("property {name:?}: bad pattern {:?}: {e}", src.as_ref()))?;
    Ok(Pattern {
        source: src.to_string(),
        regex,
    })
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

fn compile_property(name: &str, p: &Json<'_>) -> Result<Property, String> {
    let Json::Object(p) = p else {
        return Err(format!(
            "property {name:?} must be described by an object, got {}",
            p.to_text()
        ));
    };
    let mut ty = TypeSpec::Any;
    let mut c = Constraints::default();
    let mut description = String::new();
    let mut excl_min_flag = false;
    let mut excl_max_flag = false;
    for (key, v) in p {
        match key.as_ref() {
            "type" => ty = js_types(name, v)?,
            "minimum" => c.minimum = Some(bound(name, key, v)?),
            "maximum" => c.maximum = Some(bound(name, key, v)?),
            "exclusiveMinimum" => match v {
                Json::Bool(b) => excl_min_flag = *b,
                _ => c.exclusive_minimum = Some(bound(name, key, v)?),
            },
            "exclusiveMaximum" => match v {
                Json::Bool(b) => excl_max_flag = *b,
                _ => c.exclusive_maximum = Some(bound(name, key, v)?),
            },
            "enum" => match v {
                Json::Array(items) => {
                    c.one_of = Some(items.iter().map(|i| i.clone().into_owned()).collect());
                }
                _ => return Err(format!("property {name:?}: \"enum\" must be a list")),
            },
            "const" => c.one_of = Some(vec![v.clone().into_owned()]),
            "pattern" => c.pattern = Some(pattern(name, v)?),
            "minLength" => c.min_length = Some(length(name, key, v)?),
            "maxLength" => c.max_length = Some(length(name, key, v)?),
            "description" => {
                if let Json::Str(s) = v {
                    description = s.to_string();
                }
            }
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
