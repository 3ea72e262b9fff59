//! The validator: one compiled, recursive [`Validator`] for every shape a schema arrives in,
//! exact to JSON Schema 2020-12 at any depth (draft-07 when `$schema` says so). No I/O here.
//!
//! ```
//! use tooldojo::validate::{Validator, Form, Formats, ValidatorRules, CheckKind};
//! // Compile once, from a value or from text, in any shape (the form read from it, or named).
//! let v = Validator::options()
//!     .formats(Formats::Assert)
//!     .compile_text(r#"{"type": "function", "function": {"name": "find", "parameters":
//!         {"type": "object", "properties": {"filter": {"type": "object",
//!          "properties": {"since": {"type": "string"}}, "required": ["since"]}},
//!          "required": ["filter"]}}}"#)
//!     .unwrap();
//! assert_eq!(v.form(), Form::OpenaiChat);
//! assert_eq!(v.name(), Some("find"));
//! // Validate many: a Value, raw text, or the reader's Json.
//! let rules = ValidatorRules::ALL_ON;
//! let e = v.check(r#"{"filter": {}}"#, &rules).unwrap_err();
//! assert_eq!(e.kind, CheckKind::Missing);
//! assert_eq!(e.path, "filter.since");
//! assert_eq!(e.message, "missing required arg: filter.since");
//! assert_eq!(v.check_all(r#"{"filter": {}}"#, &rules).len(), 1);
//! ```
//!
//! - [`Validator::options`]: how to compile: the [`Form`] (`None`: read from the shape), the
//!   flat form's required list, [`Formats`] (`assert`, the default, or `annotate`), a
//!   [`Registry`] of documents `$ref` may reach (never the network), and whether the value
//!   may be anything (`any_value`, for JSON Schema's own tests) or must be a tool call's
//!   arguments, an object (the default).
//! - A compiled validator tells its [`Form`], the declaration's [`name`](Validator::name) and
//!   [`description`](Validator::description), the
//!   [`unknown_keywords`](Validator::unknown_keywords) it ignored and the
//!   [`unknown_formats`](Validator::unknown_formats) it only notes.
//! - [`Validator::check`] gives the first failure, [`Validator::check_all`] every failure
//!   (the first one first), [`Validator::is_valid`] only the verdict. A failure
//!   ([`Violation`]) has its phase ([`CheckKind`]), the path of the value and the message.
//!   The learner's [`Rule`] switches apply at every depth.
//! - A schema that does not compile is a [`CompileError`]; one that asks for what cannot be
//!   honoured is a [`Refusal`] naming the keyword and the reason.
//!
//! Inside: [`json`] (the strict reader: order kept, repeated keys refused, huge integers stay
//! integers, nesting capped), `form.rs` (the shapes), `flat.rs`, `compile/` (JSON Schema into
//! a `program.rs` arena), `eval/` (the quick pass and the explaining pass), [`number`] and
//! `decimal.rs` (exact numbers), [`format`] and `ecma_regex.rs`, [`tools`] (the orchestrator's
//! declarations), [`cases`] (the fixture rows), [`jsonl`] (`validate --jsonl`).

mod ahead;
pub mod cases;
mod compile;
mod decimal;
pub(crate) mod ecma_regex;
mod error;
mod eval;
mod flat;
mod form;
pub mod format;
pub mod json;
pub mod jsonl;
mod program;
pub mod tools;

use serde_json::Value;

use crate::switches::{Switch, Switches};
use eval::found::{Found, What};
use eval::{Flags, Quick};
use program::Program;

pub use compile::refs::Registry;
pub use compile::{Draft, Formats, UnknownFormat, UnknownKeyword};
pub use error::{CheckKind, CompileError, Refusal};
pub use flat::{FlatSignature, PyType};
pub use form::Form;
pub use json::{Json, MAX_DEPTH, ParseError, number};

/// The largest schema text compiled (a declaration is a few kilobytes).
pub const MAX_SCHEMA_BYTES: usize = 4 << 20;

/// One failed check.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Violation {
    pub kind: CheckKind,
    /// The path of the value it is about (`city`, `filter.since`, `items[2].qty`; empty for
    /// the whole value and for a syntax error).
    pub path: String,
    /// The full message, e.g. `type error: days expected int, got str`.
    pub message: String,
}

impl Violation {
    fn parse(e: &ParseError) -> Self {
        let path = match e {
            ParseError::Duplicate { path } => path.clone(),
            ParseError::Syntax { .. } => String::new(),
        };
        Violation {
            kind: CheckKind::Parse,
            path,
            message: e.message(),
        }
    }
}

/// A check a learner may switch off, one at a time, to watch fixture rows flip. The
/// command line spells it as [`Rule::flag`] says; progress files store the serde name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Rule {
    /// Every required name is present (`required`, `dependentRequired`), at any depth.
    #[serde(rename = "required")]
    Required,
    /// No member outside the schema (`additionalProperties: false`, a `false` property,
    /// `unevaluatedProperties: false`).
    #[serde(rename = "unknown")]
    Unknown,
    /// Each value has its declared type.
    #[serde(rename = "type")]
    Types,
    /// Inside the type check: a boolean never passes as an int or a number (Python's
    /// `isinstance(True, int)` is true, so without this guard `true` slips into an int field).
    #[serde(rename = "bool_guard")]
    BoolGuard,
    /// Every other assertion: bounds, enum, const, pattern, lengths, formats, counts.
    #[serde(rename = "value")]
    Values,
}

impl Switch for Rule {
    const ALL: &'static [Rule] = &[
        Rule::Required,
        Rule::Unknown,
        Rule::Types,
        Rule::BoolGuard,
        Rule::Values,
    ];
}

impl Rule {
    /// Words for the check in a list of switches.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Rule::Required => "required check",
            Rule::Unknown => "unknown-key check",
            Rule::Types => "type check",
            Rule::BoolGuard => "bool guard",
            Rule::Values => "value constraints",
        }
    }

    /// The name `--off` takes.
    pub fn flag(self) -> &'static str {
        match self {
            Rule::Required => "required",
            Rule::Unknown => "unknown",
            Rule::Types => "types",
            Rule::BoolGuard => "bool_guard",
            Rule::Values => "values",
        }
    }
}

impl std::str::FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rule::ALL
            .iter()
            .copied()
            .find(|r| r.flag() == s)
            .ok_or_else(|| format!("unknown rule {}", crate::sanitize::quote(s)))
    }
}

/// Which validator checks are on; all are on by default.
pub type ValidatorRules = Switches<Rule>;

/// What to validate: a parsed `Value`, model-written text (read by the strict reader, so a
/// repeated key or a huge integer keeps its meaning), or the reader's [`Json`].
#[derive(Debug, Clone, Copy)]
pub enum Args<'a> {
    Value(&'a Value),
    Text(&'a str),
    Json(&'a Json<'a>),
}

impl<'a> From<&'a Value> for Args<'a> {
    fn from(v: &'a Value) -> Self {
        Args::Value(v)
    }
}

impl<'a> From<&'a str> for Args<'a> {
    fn from(t: &'a str) -> Self {
        Args::Text(t)
    }
}

impl<'a> From<&'a String> for Args<'a> {
    fn from(t: &'a String) -> Self {
        Args::Text(t)
    }
}

impl<'a> From<&'a Json<'a>> for Args<'a> {
    fn from(j: &'a Json<'a>) -> Self {
        Args::Json(j)
    }
}

/// How to compile a schema (see the module's overview).
#[derive(Debug, Clone, Default)]
pub struct Options<'r> {
    form: Option<Form>,
    required: Vec<String>,
    formats: Formats,
    registry: Option<&'r Registry>,
    any_value: bool,
    /// The dialect of a schema whose `$schema` does not say (2020-12 unless set).
    draft: Option<Draft>,
}

/// A compiled schema, ready to validate any number of values.
#[derive(Debug, Clone)]
pub struct Validator {
    program: Program,
    form: Form,
    name: Option<String>,
    description: Option<String>,
    unknown: Vec<UnknownKeyword>,
    unknown_formats: Vec<UnknownFormat>,
    formats: Formats,
    any_value: bool,
    flat: Option<FlatSignature>,
}

mod api;

pub use api::parse_args;

#[cfg(test)]
mod tests;
