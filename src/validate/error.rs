//! Why a schema does not compile: its text is not JSON, its shape is not one we read, it is
//! malformed, or it asks for something the validator cannot honour (a refusal, which names
//! the keyword and the reason). The `Display` text is what the command line prints.

/// Something a schema asks for that the validator cannot honour exactly, so it refuses the
/// schema rather than check less than it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The keyword (`$ref`, `format`, `pattern`, ...).
    pub keyword: String,
    /// Where in the schema, as a JSON pointer (`/properties/when/format`; empty at the root).
    pub at: String,
    pub reason: String,
}

/// A schema that does not compile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The schema text is not JSON.
    #[error("the schema is not JSON: {what} at line {line} column {column}")]
    NotJson {
        what: String,
        line: usize,
        column: usize,
    },
    /// The schema text repeats a key (the reader never picks one of two values).
    #[error("the schema repeats the key {}", crate::sanitize::quote(.path))]
    RepeatedKey { path: String },
    /// Not a shape the validator reads (a declaration without its schema, a form that does
    /// not fit, an ambiguous shape): the text says which and what to do.
    #[error("{0}")]
    Shape(String),
    /// A keyword's value is not what the standard allows (`"minimum": "1"`).
    #[error("{}", with_place(.at, .what))]
    Malformed { at: String, what: String },
    /// The schema asks for something the validator cannot honour.
    #[error("{}", refusal_text(.0))]
    Refused(Refusal),
    /// Compiling would not end or not fit: a `$ref` loop that never reaches a value, a
    /// schema over the size cap.
    #[error("{0}")]
    Unbounded(String),
    /// The tool declaration around the schema (its name) goes in front of the reason.
    #[error("tool {}: {inner}", crate::sanitize::quote(.tool))]
    InTool {
        tool: String,
        inner: Box<CompileError>,
    },
}

impl CompileError {
    /// The refusal, if this error is one (through a declaration's name too).
    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            CompileError::Refused(r) => Some(r),
            CompileError::InTool { inner, .. } => inner.refusal(),
            _ => None,
        }
    }

    pub(crate) fn malformed(at: &str, what: impl Into<String>) -> CompileError {
        CompileError::Malformed {
            at: at.to_owned(),
            what: what.into(),
        }
    }

    pub(crate) fn refused(keyword: &str, at: &str, reason: impl Into<String>) -> CompileError {
        CompileError::Refused(Refusal {
            keyword: keyword.to_owned(),
            at: at.to_owned(),
            reason: reason.into(),
        })
    }

    /// Put a tool's name in front of the error.
    pub(crate) fn in_tool(self, tool: &str) -> CompileError {
        CompileError::InTool {
            tool: tool.to_owned(),
            inner: Box::new(self),
        }
    }
}

/// A reader's error on schema text, as a compile error.
impl From<super::ParseError> for CompileError {
    fn from(e: super::ParseError) -> Self {
        match e {
            super::ParseError::Duplicate { path } => CompileError::RepeatedKey { path },
            super::ParseError::Syntax { what, line, column } => {
                CompileError::NotJson { what, line, column }
            }
        }
    }
}

/// A place in a schema, as messages name it: `at /properties/a: ` (nothing at the root).
fn with_place(at: &str, what: &str) -> String {
    if at.is_empty() {
        what.to_owned()
    } else {
        format!("at {at}: {what}")
    }
}

fn refusal_text(r: &Refusal) -> String {
    let what = format!(
        "unsupported keyword {}: {}",
        crate::sanitize::quote(&r.keyword),
        r.reason
    );
    with_place(&r.at, &what)
}

/// Which phase of the checks a failure belongs to, in the order the first failure is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    /// The args text was not JSON, repeated a key, or was not an object.
    Parse,
    Missing,
    Unknown,
    Type,
    Value,
}
