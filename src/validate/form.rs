//! The shapes a schema arrives in, and the envelope around it.
//!
//! 1. the flat form of the seed exercise: `{"city": "str", "days": "int"}` plus a separate
//!    required list;
//! 2. a JSON Schema (an object, or `true` / `false`);
//! 3. a tool declaration `{"name", "description", "input_schema"}` (Anthropic's shape; today's
//!    `parameters` spelling beside a `name` too);
//! 4. an MCP tool `{"name", "title", "description", "inputSchema", "outputSchema", ...}`;
//! 5. an OpenAI Chat tool `{"type": "function", "function": {"name", "description", "parameters"}}`;
//! 6. an OpenAI Responses tool `{"type": "function", "name", "description", "parameters"}`.
//!
//! The form may be named; otherwise it is read from the shape, and a shape that two forms
//! read validly and differently (`{}`, `{"title": "int"}`) is an error asking for the name.
//! Envelope fields beside the schema (`strict`, `cache_control`, `defer_loading`, `title`,
//! `annotations`, `outputSchema`, `_meta`, BFCL's `response`, ...) never refuse a
//! declaration: the known ones are read or ignored, any other is named as an unknown keyword.

use std::borrow::Cow;

use super::compile::UnknownKeyword;
use super::error::CompileError;
use super::flat::PyType;
use super::json::{self, Json};
use crate::sanitize::quote;

/// Which form (shape) a schema was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    Flat,
    JsonSchema,
    /// `{"name", "input_schema"}`: the contract's form 3 and Anthropic's tool.
    Tool,
    Mcp,
    OpenaiChat,
    OpenaiResponses,
}

impl Form {
    /// Every form, in the order its names are listed.
    pub const ALL: [Form; 6] = [
        Form::Flat,
        Form::JsonSchema,
        Form::Tool,
        Form::Mcp,
        Form::OpenaiChat,
        Form::OpenaiResponses,
    ];

    /// The names a user writes: `flat`, `json-schema`, `tool`, `mcp`, `openai-chat`,
    /// `openai-responses` (`anthropic` is another name for `tool`).
    pub const NAMES: [&'static str; 6] = [
        "flat",
        "json-schema",
        "tool",
        "mcp",
        "openai-chat",
        "openai-responses",
    ];

    pub fn parse(name: &str) -> Option<Form> {
        if name == "anthropic" {
            return Some(Form::Tool);
        }
        Form::ALL.into_iter().find(|f| f.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Form::Flat => "flat",
            Form::JsonSchema => "json-schema",
            Form::Tool => "tool",
            Form::Mcp => "mcp",
            Form::OpenaiChat => "openai-chat",
            Form::OpenaiResponses => "openai-responses",
        }
    }
}

impl Form {
    /// The form a value reads as when none is named: what compiling it would take it for
    /// (a shape two forms read alike is the same error compiling gives).
    pub fn of_value(value: &serde_json::Value) -> Result<Form, CompileError> {
        detect(&Json::from_value(value), &[])
    }

    /// The JSON Schema a declaration of this form carries, as written (a bare JSON Schema is
    /// its own; `None` for the flat form and for a declaration without one).
    pub fn schema_in(self, decl: &serde_json::Value) -> Option<&serde_json::Value> {
        match self {
            Form::Flat => None,
            Form::JsonSchema => Some(decl),
            Form::Mcp => decl.get("inputSchema"),
            Form::OpenaiChat => decl.get("function")?.get("parameters"),
            Form::OpenaiResponses => decl.get("parameters"),
            Form::Tool => decl.get("input_schema").or_else(|| decl.get("parameters")),
        }
    }
}

impl std::str::FromStr for Form {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Form::parse(s).ok_or_else(|| {
            format!(
                "unknown form {s:?} (use {}, or anthropic)",
                Form::NAMES.join(", ")
            )
        })
    }
}

/// A declaration opened: its form, its name and description, the JSON Schema inside and
/// where that schema sits in the declaration (a JSON pointer prefix).
pub(crate) struct Opened<'s, 'a> {
    pub(crate) name: Option<String>,
    pub(crate) description: Option<String>,
    /// `None` for an absent schema: an OpenAI function without `parameters`, which takes
    /// no arguments.
    pub(crate) schema: Option<&'s Json<'a>>,
    pub(crate) at: &'static str,
    pub(crate) unknown: Vec<UnknownKeyword>,
}

/// An object's members, in the order written.
pub(crate) type Members<'a> = [(Cow<'a, str>, Json<'a>)];

pub(crate) fn member<'m, 'a>(map: &'m Members<'a>, key: &str) -> Option<&'m Json<'a>> {
    map.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

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

/// Which form an unnamed schema is written in (see the module's list).
///
/// Every value a type name of Python: the flat form, unless every key is also a JSON Schema
/// keyword that takes a string and no separate required list says "flat": then both readings
/// are valid and disagree, so the form must be named. `{}` is the smallest such case.
pub(crate) fn detect(schema: &Json<'_>, required: &[String]) -> Result<Form, CompileError> {
    let map = match schema {
        Json::Object(map) => map,
        Json::Bool(_) => return Ok(Form::JsonSchema),
        other => {
            return Err(CompileError::Shape(format!(
                "a schema must be a JSON object, got {}",
                other.py_type()
            )));
        }
    };
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
    let function = matches!(member(map, "type"), Some(Json::Str(t)) if t == "function");
    let named = matches!(member(map, "name"), Some(Json::Str(_)));
    if member(map, "inputSchema").is_some() && named {
        return Ok(Form::Mcp);
    }
    if function && matches!(member(map, "function"), Some(Json::Object(_))) {
        return Ok(Form::OpenaiChat);
    }
    if function && named {
        return Ok(Form::OpenaiResponses);
    }
    if member(map, "input_schema").is_some() || (named && member(map, "parameters").is_some()) {
        return Ok(Form::Tool);
    }
    let typed = matches!(member(map, "type"), Some(Json::Str(t)) if t == "object")
        || matches!(member(map, "properties"), Some(Json::Object(_)));
    let keywords_only = map
        .iter()
        .all(|(k, _)| super::compile::is_keyword(k) || k.starts_with('$'));
    Ok(if typed || keywords_only {
        Form::JsonSchema
    } else {
        Form::Flat
    })
}

fn ambiguous(map: &Members<'_>) -> CompileError {
    let both = "name its form (flat or json-schema)";
    if map.is_empty() {
        return CompileError::Shape(format!(
            "the schema {{}} is ambiguous: in the flat form it takes no arguments, as a JSON \
             Schema it accepts any object; {both}"
        ));
    }
    let args: Vec<String> = map
        .iter()
        .map(|(k, v)| match v {
            Json::Str(t) => format!("{k} ({t})"),
            other => format!("{k} ({})", other.to_text()),
        })
        .collect();
    CompileError::Shape(format!(
        "the schema {} is ambiguous: in the flat form it declares the arguments {}, as a JSON \
         Schema it carries only annotations and accepts any object; {both}",
        json::cut(&Json::Object(map.to_vec()).to_text(), 80),
        args.join(", ")
    ))
}

/// Envelope fields each declaration shape may carry beside its schema: read (name,
/// description) or ignored, never refused.
const MCP_FIELDS: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "_meta",
    "icons",
    "execution",
];
const CHAT_FIELDS: &[&str] = &["type", "function", "cache_control"];
const CHAT_FUNCTION_FIELDS: &[&str] = &["name", "description", "parameters", "strict", "response"];
const RESPONSES_FIELDS: &[&str] = &[
    "type",
    "name",
    "description",
    "parameters",
    "strict",
    "defer_loading",
    "cache_control",
];
const TOOL_FIELDS: &[&str] = &[
    "name",
    "description",
    "input_schema",
    "parameters",
    "type",
    "strict",
    "cache_control",
    "defer_loading",
];

/// Open a declaration of `form` (not the flat form, not a bare JSON Schema).
pub(crate) fn open<'s, 'a>(form: Form, decl: &'s Json<'a>) -> Result<Opened<'s, 'a>, CompileError> {
    let Json::Object(map) = decl else {
        return Err(CompileError::Shape(format!(
            "a {} declaration must be a JSON object, got {}",
            form.name(),
            decl.py_type()
        )));
    };
    let mut unknown = Vec::new();
    let (fields, body, at, schema_key): (&[&str], &Members<'a>, &'static str, &[&str]) = match form
    {
        Form::Mcp => (MCP_FIELDS, map, "/inputSchema", &["inputSchema"]),
        Form::OpenaiChat => {
            note_unknown(map, CHAT_FIELDS, "", &mut unknown);
            function_type(map, form)?;
            let Some(Json::Object(f)) = member(map, "function") else {
                return Err(CompileError::Shape(
                    "an OpenAI Chat tool needs a \"function\" object".into(),
                ));
            };
            (
                CHAT_FUNCTION_FIELDS,
                f,
                "/function/parameters",
                &["parameters"],
            )
        }
        Form::OpenaiResponses => {
            function_type(map, form)?;
            (RESPONSES_FIELDS, map, "/parameters", &["parameters"])
        }
        _ => {
            let key = if member(map, "input_schema").is_some() {
                "/input_schema"
            } else {
                "/parameters"
            };
            (TOOL_FIELDS, map, key, &["input_schema", "parameters"])
        }
    };
    let prefix = if form == Form::OpenaiChat {
        "/function"
    } else {
        ""
    };
    note_unknown(body, fields, prefix, &mut unknown);
    let name = match member(body, "name") {
        Some(Json::Str(s)) => s.to_string(),
        Some(_) => {
            return Err(CompileError::Shape(
                "a tool declaration's \"name\" must be a string".into(),
            ));
        }
        None => {
            return Err(CompileError::Shape(
                "a tool declaration needs a \"name\"".into(),
            ));
        }
    };
    let description = match member(body, "description") {
        Some(Json::Str(s)) => Some(s.to_string()),
        _ => None,
    };
    let schema = schema_key.iter().find_map(|k| member(body, k));
    let absent_ok = matches!(form, Form::OpenaiChat | Form::OpenaiResponses);
    match schema {
        None if absent_ok => {}
        None => {
            let what = if form == Form::Mcp {
                "an \"inputSchema\""
            } else {
                "an \"input_schema\""
            };
            return Err(CompileError::Shape(format!(
                "tool {}: the declaration needs {what}",
                quote(&name)
            )));
        }
        Some(Json::Object(_)) => {}
        Some(other) => {
            return Err(CompileError::Shape(format!(
                "tool {}: {} must be a JSON object, got {}",
                quote(&name),
                &at[at.rfind('/').map_or(0, |i| i + 1)..],
                other.py_type()
            )));
        }
    }
    Ok(Opened {
        name: Some(name),
        description,
        schema,
        at,
        unknown,
    })
}

/// An OpenAI tool must be a function tool: a built-in one (`web_search`, `tool_search`)
/// takes no arguments a validator could check.
fn function_type(map: &Members<'_>, form: Form) -> Result<(), CompileError> {
    match member(map, "type") {
        Some(Json::Str(t)) if t == "function" => Ok(()),
        Some(Json::Str(t)) => Err(CompileError::Shape(format!(
            "an {} tool of type {} is a built-in tool with no parameters to check",
            form.name(),
            quote(t)
        ))),
        _ => Err(CompileError::Shape(format!(
            "an {} tool needs \"type\": \"function\"",
            form.name()
        ))),
    }
}

fn note_unknown(map: &Members<'_>, known: &[&str], at: &str, out: &mut Vec<UnknownKeyword>) {
    for (k, _) in map {
        if !known.contains(&k.as_ref()) {
            out.push(UnknownKeyword {
                keyword: k.to_string(),
                at: at.to_owned(),
            });
        }
    }
}
