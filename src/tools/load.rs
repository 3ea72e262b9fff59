//! Loading a tools file: the container around the entries, the provider shape they are
//! written in, the entries that are not function tools, duplicate names; each declaration
//! compiled by the validator in that shape, a refused one kept with its reason.
//!
//! The shape is recognised, never guessed: entries that read as two different shapes are an
//! error asking for `--tools-format`, and a named format compiles every entry in it (an entry
//! that does not fit is refused with the validator's reason, never dropped).

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use crate::validate::{CompileError, Form, Options, Validator};

/// The largest tools file read (a recorded request body with its history can be large; the
/// biggest public tools array is a few megabytes).
pub const MAX_TOOLS_BYTES: u64 = 32 << 20;

/// Keys only an API request body has beside its `tools`.
const REQUEST_KEYS: &[&str] = &[
    "model",
    "messages",
    "input",
    "max_tokens",
    "max_output_tokens",
    "max_completion_tokens",
    "tool_choice",
    "system",
    "instructions",
    "temperature",
    "stream",
];

/// Which provider's declaration shape a tools file is written in (`--tools-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ToolsFormat {
    /// MCP Tool objects: `{"name", "description", "inputSchema"}`.
    Mcp,
    /// OpenAI Chat Completions: `{"type": "function", "function": {"name", "parameters"}}`.
    OpenaiChat,
    /// OpenAI Responses: `{"type": "function", "name", "parameters", "strict"}`.
    OpenaiResponses,
    /// Anthropic Messages: `{"name", "description", "input_schema"}` (a `parameters`
    /// beside a name reads the same way, as the validator reads it).
    Anthropic,
}

impl ToolsFormat {
    pub const ALL: [ToolsFormat; 4] = [
        ToolsFormat::Mcp,
        ToolsFormat::OpenaiChat,
        ToolsFormat::OpenaiResponses,
        ToolsFormat::Anthropic,
    ];

    /// The name `--tools-format` takes and `--json` prints as a declaration's `shape`.
    pub fn name(self) -> &'static str {
        match self {
            ToolsFormat::Mcp => "mcp",
            ToolsFormat::OpenaiChat => "openai-chat",
            ToolsFormat::OpenaiResponses => "openai-responses",
            ToolsFormat::Anthropic => "anthropic",
        }
    }

    /// Words for people (`MCP`, `OpenAI Chat`).
    pub fn label(self) -> &'static str {
        match self {
            ToolsFormat::Mcp => "MCP",
            ToolsFormat::OpenaiChat => "OpenAI Chat",
            ToolsFormat::OpenaiResponses => "OpenAI Responses",
            ToolsFormat::Anthropic => "Anthropic",
        }
    }

    /// The validator's form for one declaration of this shape.
    pub fn form(self) -> Form {
        match self {
            ToolsFormat::Mcp => Form::Mcp,
            ToolsFormat::OpenaiChat => Form::OpenaiChat,
            ToolsFormat::OpenaiResponses => Form::OpenaiResponses,
            ToolsFormat::Anthropic => Form::Tool,
        }
    }

    /// The shape of a declaration the validator read as `form` (`None` for a bare schema
    /// or the flat form: no declaration at all).
    pub fn of_form(form: Form) -> Option<ToolsFormat> {
        match form {
            Form::Mcp => Some(ToolsFormat::Mcp),
            Form::OpenaiChat => Some(ToolsFormat::OpenaiChat),
            Form::OpenaiResponses => Some(ToolsFormat::OpenaiResponses),
            Form::Tool => Some(ToolsFormat::Anthropic),
            Form::Flat | Form::JsonSchema => None,
        }
    }
}

impl std::str::FromStr for ToolsFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ToolsFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = ToolsFormat::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown tools format {} (use {})",
                    crate::sanitize::quote(s),
                    names.join(", ")
                )
            })
    }
}

/// What holds the entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Container {
    /// `{"tools": [...]}`: an MCP `tools/list` result (or any object holding only that).
    ToolsList,
    /// A JSON-RPC response whose `result` is a `tools/list` result.
    RpcResponse,
    /// An API request body holding `tools` beside its model and messages.
    Request,
    /// A recorded exchange `{"request": {..., "tools"}, "response": ...}`.
    Exchange,
    /// A bare `tools` array.
    Array,
    /// One declaration.
    Single,
}

impl Container {
    /// Where the entries sit in the file, as a path prefix (`tools`, `result.tools`).
    fn prefix(self) -> &'static str {
        match self {
            Container::ToolsList | Container::Request => "tools",
            Container::RpcResponse => "result.tools",
            Container::Exchange => "request.tools",
            Container::Array | Container::Single => "",
        }
    }
}

/// The file's shape: its container and the declarations' provider shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Shape {
    pub container: Container,
    /// `None` only when no entry is a function declaration and nothing says the shape.
    pub format: Option<ToolsFormat>,
    /// The format was named (`--tools-format`), not read from the entries.
    pub named: bool,
}

impl Shape {
    /// Words for a title: `MCP tools/list result`, `OpenAI Chat tools array`.
    pub fn describe(&self) -> String {
        let label = self.format.map_or("tools", ToolsFormat::label);
        match (self.container, self.format) {
            (Container::ToolsList, Some(ToolsFormat::Mcp)) => "MCP tools/list result".into(),
            (Container::RpcResponse, _) => "MCP tools/list JSON-RPC response".into(),
            (Container::ToolsList, None) => "{\"tools\"} object (no function tools)".into(),
            (Container::ToolsList, _) => format!("{label} tools in a {{\"tools\"}} object"),
            (Container::Request, None) => "request body (no function tools)".into(),
            (Container::Request, _) => format!("{label} request body"),
            (Container::Exchange, None) => "recorded exchange (no function tools)".into(),
            (Container::Exchange, _) => format!("{label} recorded exchange"),
            (Container::Array, None) => "tools array (no function tools)".into(),
            (Container::Array, Some(_)) => format!("{label} tools array"),
            (Container::Single, None) => "one entry (not a function tool)".into(),
            (Container::Single, _) => format!("one {label} declaration"),
        }
    }
}

/// An entry that is not a function tool (a provider's server tool such as web search).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    /// Its position among the file's entries.
    pub entry: usize,
    /// Where it sits in the file (`tools[3]`).
    pub at: String,
    /// Its `type` (`web_search_20250305`, `tool_search`).
    pub kind: String,
    pub name: Option<String>,
}

/// Two declarations with one name (a provider refuses such an array).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Duplicate {
    pub name: String,
    /// Indexes into [`ToolSet::tools`]: the first declaration with the name, and a later one.
    pub first: usize,
    pub again: usize,
}

/// One function declaration of the file.
#[derive(Debug, Clone)]
pub struct Tool {
    /// Its position among the file's entries (skipped ones count).
    pub entry: usize,
    /// Where it sits in the file (`tools[3]`, `[0]`; empty when the file is the declaration).
    pub at: String,
    /// Its name (empty when the entry has none).
    pub name: String,
    pub description: Option<String>,
    pub format: ToolsFormat,
    /// The declaration exactly as written.
    pub declaration: Value,
    /// The validator compiled from it, or why it could not be.
    pub compiled: Result<Validator, CompileError>,
}

impl Tool {
    pub fn validator(&self) -> Option<&Validator> {
        self.compiled.as_ref().ok()
    }

    /// Does the validator honour the declaration (it compiled)?
    pub fn honoured(&self) -> bool {
        self.compiled.is_ok()
    }

    /// Why the validator refuses the declaration, without the tool's name in front.
    pub fn refusal(&self) -> Option<String> {
        let e = self.compiled.as_ref().err()?;
        Some(match e {
            CompileError::InTool { inner, .. } => inner.to_string(),
            other => other.to_string(),
        })
    }

    /// The JSON Schema of its arguments, as written (`None`: it declares none).
    pub fn schema(&self) -> Option<&Value> {
        self.format.form().schema_in(&self.declaration)
    }

    /// Strict mode is asked for in the declaration itself (`"strict": true`).
    pub fn strict_declared(&self) -> bool {
        let yes = Some(&Value::Bool(true));
        self.declaration.get("strict") == yes || self.declaration.pointer("/function/strict") == yes
    }

    /// The entry's place for messages: `tools[3]`, or `the declaration`.
    pub fn place(&self) -> String {
        if self.at.is_empty() {
            "the declaration".into()
        } else {
            self.at.clone()
        }
    }
}

/// A loaded tools file.
#[derive(Debug, Clone)]
pub struct ToolSet {
    pub shape: Shape,
    /// The function declarations in file order, refused ones too.
    pub tools: Vec<Tool>,
    pub skipped: Vec<Skipped>,
    pub duplicates: Vec<Duplicate>,
    /// How many entries the file holds (declarations and skipped ones).
    pub entries: usize,
    /// The SHA-256 of the text it was read from (hex), which progress on it is kept by;
    /// `None` when loaded from a value.
    pub hash: Option<String>,
}

/// The hex SHA-256 of a tools file's text.
pub fn content_hash(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Why a tools file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read (missing, too large, not UTF-8); the text names it.
    #[error("{0}")]
    Read(String),
    #[error("not JSON: {what} at line {line} column {column}")]
    NotJson {
        what: String,
        line: usize,
        column: usize,
    },
    #[error("the key {} is repeated (which value is meant cannot be known)", crate::sanitize::quote(.path))]
    RepeatedKey { path: String },
    /// Not a shape a tools file comes in; the text says what was found and what is read.
    #[error("{0}")]
    NotTools(String),
    /// Entries in two different shapes, the first of each.
    #[error("{0}")]
    Mixed(Box<MixedShapes>),
    /// A JSON-RPC response that carries an error instead of a result.
    #[error("the JSON-RPC response is an error: {0}")]
    RpcError(String),
    /// Any of the above, in a named file.
    #[error("{}", in_file(.file, .inner))]
    InFile { file: String, inner: Box<LoadError> },
}

/// The first entries of two different shapes in one file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the entries are in different shapes: {first_at} ({first_name}) reads as {first}, \
     {other_at} ({other_name}) as {other}; name the shape with --tools-format"
)]
pub struct MixedShapes {
    pub first_at: String,
    pub first_name: String,
    pub first: &'static str,
    pub other_at: String,
    pub other_name: String,
    pub other: &'static str,
}

fn in_file(file: &str, inner: &LoadError) -> String {
    match inner {
        LoadError::Read(msg) => msg.clone(),
        LoadError::NotJson { what, line, column } => {
            crate::input::not_json(file, *line, *column, what)
        }
        other => format!("{file}: {other}"),
    }
}

impl LoadError {
    fn in_file(self, file: &str) -> LoadError {
        LoadError::InFile {
            file: file.to_owned(),
            inner: Box::new(self),
        }
    }
}

/// A parse error's words, with a hint when a second value starts on a line of its own after
/// the first (a file of JSON Lines, one declaration a line): a tools file is one value.
fn second_value_hint(text: &str, what: String, line: usize) -> String {
    let starts_line = text
        .lines()
        .nth(line.wrapping_sub(1))
        .is_some_and(|l| l.trim_start().starts_with(['{', '[']));
    if line < 2 || what != crate::validate::json::TRAILING || !starts_line {
        return what;
    }
    format!(
        "{what} (line {line} starts a second value, as in JSON Lines; a tools file is one \
         JSON value: put the declarations in one array)"
    )
}

/// What to read in the words of an error.
const EXPECTED: &str = "a tools file is an MCP tools/list result (or its JSON-RPC response), \
     a tools array (MCP, OpenAI Chat or Responses, Anthropic), an API request body holding \
     \"tools\", or one declaration";

impl ToolSet {
    /// Read a tools file (at most [`MAX_TOOLS_BYTES`]), strictly: a repeated key anywhere is
    /// an error, never resolved. Errors name the file (and the line and column of bad JSON).
    pub fn read(path: &Path, format: Option<ToolsFormat>) -> Result<ToolSet, LoadError> {
        let display = path.display().to_string();
        let text = crate::input::read_text(path, MAX_TOOLS_BYTES, &display)
            .map_err(|e| LoadError::Read(e.message))?;
        ToolSet::from_text(&text, format).map_err(|e| e.in_file(&display))
    }

    /// Read a tools file's text (strictly, as [`ToolSet::read`] does).
    pub fn from_text(text: &str, format: Option<ToolsFormat>) -> Result<ToolSet, LoadError> {
        let value = crate::validate::json::parse(text)
            .map_err(|e| match e {
                crate::validate::ParseError::Syntax { what, line, column } => LoadError::NotJson {
                    what: second_value_hint(text, what, line),
                    line,
                    column,
                },
                crate::validate::ParseError::Duplicate { path } => LoadError::RepeatedKey { path },
            })?
            .to_value();
        let mut set = ToolSet::from_value(&value, format)?;
        set.hash = Some(content_hash(text));
        Ok(set)
    }

    /// Load from a parsed value: a whole tools file, or a bare `tools` array taken from a
    /// recorded request. `format` names the shape (`--tools-format`); without it the shape is
    /// read from the entries.
    pub fn from_value(value: &Value, format: Option<ToolsFormat>) -> Result<ToolSet, LoadError> {
        let (container, entries) = open(value)?;
        let prefix = container.prefix();
        let at = |i: usize| match container {
            Container::Single => String::new(),
            _ => format!("{prefix}[{i}]"),
        };
        let kinds: Vec<Option<String>> = entries.iter().map(|e| server_tool(e)).collect();
        let (format, named) = match format {
            Some(f) => (Some(f), true),
            None => (read_format(container, &entries, &kinds, &at)?, false),
        };
        let mut set = ToolSet {
            shape: Shape {
                container,
                format,
                named,
            },
            tools: Vec::new(),
            skipped: Vec::new(),
            duplicates: Vec::new(),
            entries: entries.len(),
            hash: None,
        };
        for (i, (entry, kind)) in entries.iter().zip(kinds).enumerate() {
            match (kind, format) {
                (Some(kind), _) => set.skipped.push(Skipped {
                    entry: i,
                    at: at(i),
                    kind,
                    name: entry.get("name").and_then(Value::as_str).map(str::to_owned),
                }),
                (None, Some(f)) => set.tools.push(compile(i, at(i), entry, f)),
                // No format means every entry is a server tool (see `read_format`).
                (None, None) => {}
            }
        }
        set.duplicates = duplicates(&set.tools);
        Ok(set)
    }

    /// The first declaration with this name.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// Every declaration with this name, in file order.
    pub fn get_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Tool> + 'a {
        self.tools.iter().filter(move |t| t.name == name)
    }

    /// How many declarations the validator honours.
    pub fn honoured(&self) -> usize {
        self.tools.iter().filter(|t| t.honoured()).count()
    }
}

/// The container and its entries.
fn open(value: &Value) -> Result<(Container, Vec<&Value>), LoadError> {
    let map = match value {
        Value::Array(items) => return Ok((Container::Array, items.iter().collect())),
        Value::Object(map) => map,
        other => {
            return Err(LoadError::NotTools(format!(
                "the file holds {}, not tools: {EXPECTED}",
                json_kind(other)
            )));
        }
    };
    if map.contains_key("jsonrpc") || (map.contains_key("id") && map.contains_key("result")) {
        if let Some(err) = map.get("error") {
            return Err(LoadError::RpcError(crate::validate::json::dumps(err)));
        }
        let tools = map.get("result").and_then(|r| r.get("tools"));
        return Ok((Container::RpcResponse, tools_array(tools, "result.tools")?));
    }
    if let Some(request) = map.get("request").filter(|r| r.get("tools").is_some()) {
        return Ok((
            Container::Exchange,
            tools_array(request.get("tools"), "request.tools")?,
        ));
    }
    let request_like = REQUEST_KEYS.iter().any(|k| map.contains_key(*k));
    if map.contains_key("tools") {
        let container = if request_like {
            Container::Request
        } else {
            Container::ToolsList
        };
        return Ok((container, tools_array(map.get("tools"), "tools")?));
    }
    if request_like {
        return Err(LoadError::NotTools(
            "the file is an API request body without a \"tools\" array".into(),
        ));
    }
    Ok((Container::Single, vec![value]))
}

fn tools_array<'v>(tools: Option<&'v Value>, at: &str) -> Result<Vec<&'v Value>, LoadError> {
    match tools {
        Some(Value::Array(items)) => Ok(items.iter().collect()),
        Some(other) => Err(LoadError::NotTools(format!(
            "{at} must be an array of declarations, got {}",
            json_kind(other)
        ))),
        None => Err(LoadError::NotTools(format!(
            "the file has no {at} array: {EXPECTED}"
        ))),
    }
}

fn json_kind(v: &Value) -> &'static str {
    use crate::validate::json::{kind_of_value, kind_words};
    kind_words(kind_of_value(v))
}

/// The `type` of an entry that is not a function tool: a provider's built-in or server tool
/// (`web_search`, `tool_search_tool_bm25_20251119`), or a custom free-text tool. An
/// Anthropic declaration may say `"type": "custom"` beside its `input_schema` and is a
/// function tool; a JSON Schema's own `type` is never taken for a tool's.
fn server_tool(entry: &Value) -> Option<String> {
    let kind = entry.get("type")?.as_str()?;
    let schema_type = matches!(
        kind,
        "object" | "array" | "string" | "number" | "integer" | "boolean" | "null"
    );
    if kind == "function"
        || schema_type
        || entry.get("input_schema").is_some()
        || entry.get("inputSchema").is_some()
    {
        return None;
    }
    Some(kind.to_owned())
}

/// The provider shape of the entries, read by the validator's shape detector entry by
/// entry: one shape, or none when every entry is a server tool (or the container says MCP).
fn read_format(
    container: Container,
    entries: &[&Value],
    kinds: &[Option<String>],
    at: &dyn Fn(usize) -> String,
) -> Result<Option<ToolsFormat>, LoadError> {
    let mut seen: Vec<(ToolsFormat, usize)> = Vec::new();
    let mut first_candidate = None;
    for (i, entry) in entries.iter().enumerate() {
        if kinds[i].is_some() {
            continue;
        }
        first_candidate.get_or_insert(i);
        let read = Form::of_value(entry).ok().and_then(ToolsFormat::of_form);
        if let Some(f) = read
            && !seen.iter().any(|(s, _)| *s == f)
        {
            seen.push((f, i));
        }
    }
    match seen.as_slice() {
        [(f, _)] => Ok(Some(*f)),
        [(a, i), (b, j), ..] => Err(LoadError::Mixed(Box::new(MixedShapes {
            first_at: at(*i),
            first_name: name_of(entries[*i], *a),
            first: a.name(),
            other_at: at(*j),
            other_name: name_of(entries[*j], *b),
            other: b.name(),
        }))),
        [] => match (container, first_candidate) {
            // An empty tools/list is an MCP server's; one holding only a provider's own
            // tools (web search) is no MCP file.
            (Container::ToolsList, None) if !entries.is_empty() => Ok(None),
            (Container::ToolsList | Container::RpcResponse, _) => Ok(Some(ToolsFormat::Mcp)),
            (_, None) => Ok(None),
            (_, Some(i)) => Err(not_a_declaration(entries[i], &at(i))),
        },
    }
}

fn not_a_declaration(entry: &Value, at: &str) -> LoadError {
    let reads = match Form::of_value(entry) {
        Ok(Form::JsonSchema) => "reads as a bare JSON Schema, not a declaration".to_owned(),
        Ok(Form::Flat) => "reads as the flat form, not a declaration".to_owned(),
        Ok(_) => "is not a declaration".to_owned(),
        // The validator's own advice names its forms, which a tools file does not take.
        Err(_) if entry.as_object().is_some_and(serde_json::Map::is_empty) => {
            "is an empty object, not a declaration".to_owned()
        }
        Err(_) if entry.is_object() => {
            "is not a declaration (no tool name with a schema beside it)".to_owned()
        }
        Err(e) => format!("is not a declaration ({e})"),
    };
    let place = if at.is_empty() {
        "the file".to_owned()
    } else {
        at.to_owned()
    };
    let names: Vec<&str> = ToolsFormat::ALL.iter().map(|f| f.name()).collect();
    LoadError::NotTools(format!(
        "{place} {reads}; {EXPECTED} (--tools-format {} reads every entry in that shape)",
        names.join("|")
    ))
}

/// The name as written, for an entry the validator may refuse: where the shape keeps it,
/// else where the file has it (an entry in another shape than the one named), else none.
fn name_of(entry: &Value, format: ToolsFormat) -> String {
    let holder = match format {
        ToolsFormat::OpenaiChat => entry.get("function"),
        _ => Some(entry),
    };
    [holder, Some(entry), entry.get("function")]
        .into_iter()
        .flatten()
        .find_map(|h| h.get("name").and_then(Value::as_str))
        .unwrap_or_default()
        .to_owned()
}

fn compile(entry: usize, at: String, decl: &Value, format: ToolsFormat) -> Tool {
    let compiled = Options::new().form(Some(format.form())).compile_value(decl);
    let (name, description) = match &compiled {
        Ok(v) => (
            v.name()
                .map_or_else(|| name_of(decl, format), str::to_owned),
            v.description().map(str::to_owned),
        ),
        Err(_) => {
            let holder = match format {
                ToolsFormat::OpenaiChat => decl.get("function"),
                _ => Some(decl),
            };
            let description = holder
                .and_then(|h| h.get("description"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            (name_of(decl, format), description)
        }
    };
    Tool {
        entry,
        at,
        name,
        description,
        format,
        declaration: decl.clone(),
        compiled,
    }
}

/// Every later declaration whose name an earlier one has, paired with the first.
fn duplicates(tools: &[Tool]) -> Vec<Duplicate> {
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, t) in tools.iter().enumerate() {
        if t.name.is_empty() {
            continue;
        }
        match first.get(t.name.as_str()) {
            Some(&f) => out.push(Duplicate {
                name: t.name.clone(),
                first: f,
                again: i,
            }),
            None => {
                first.insert(&t.name, i);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
