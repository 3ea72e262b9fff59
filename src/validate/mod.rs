//! The seed validator: three schema forms become one `Schema`; four ordered checks
//! (missing, unknown, type, value), first failure wins; messages exactly as the README documents them.
//! No I/O here.
//!
//! - [`json`]: the strict argument reader (order kept, repeated keys refused, huge integers
//!   stay integers, nesting capped);
//! - [`schema`]: the three forms compiled into [`Schema`];
//! - [`number`]: exact comparison of numbers, as Python compares them;
//! - [`ecma_regex`]: `pattern` given its ECMA-262 meaning for the regex crate;
//! - [`tools`]: the declarations of the tools the orchestrator registers;
//! - this file: the switchable [`Rule`]s and the checks.
//!
//! Args that are JSON but not an object (a list, `null`, a number) are refused before the
//! four checks with `invalid args: expected a JSON object (dict), got T` (kind `Parse`): the
//! seed's function takes a dict, and its checks have no meaning for anything else.

pub mod cases;
pub(crate) mod ecma_regex;
pub mod format;
pub mod json;
pub mod jsonl;
pub mod number;
pub mod schema;
pub mod tools;

use serde_json::Value;

use crate::switches::{Switch, Switches};

pub use json::{Json, MAX_DEPTH, ParseError};
pub use schema::{Bound, Constraints, Form, JsType, Property, PyType, Schema, TypeSpec};

/// Which of the ordered checks fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    /// The args text was not JSON, repeated a key, or was not an object.
    Parse,
    Missing,
    Unknown,
    Type,
    Value,
}

/// One failed check.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Violation {
    pub kind: CheckKind,
    /// The argument the message is about (empty for parse errors).
    pub(crate) arg: String,
    /// The full message, e.g. `type error: days expected int, got str`.
    pub message: String,
}

impl Violation {
    fn new(kind: CheckKind, arg: &str, message: String) -> Self {
        Violation {
            kind,
            arg: arg.to_owned(),
            message,
        }
    }

    fn parse(e: &ParseError) -> Self {
        let arg = match e {
            ParseError::Duplicate { path } => path.clone(),
            ParseError::Syntax { .. } => String::new(),
        };
        Violation {
            kind: CheckKind::Parse,
            arg,
            message: e.message(),
        }
    }
}

/// A check a learner may switch off, one at a time, to watch fixture rows flip. The
/// `--off` value spells it as the command line always has; progress files store the
/// serde name.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
pub enum Rule {
    /// Check 1: every required name is present.
    #[value(name = "required")]
    #[serde(rename = "required")]
    Required,
    /// Check 2: no key outside the schema (for JSON Schema, only with `additionalProperties: false`).
    #[value(name = "unknown")]
    #[serde(rename = "unknown")]
    Unknown,
    /// Check 3: each known value has its declared type.
    #[value(name = "types")]
    #[serde(rename = "type")]
    Types,
    /// Inside check 3: a boolean never passes as an int or a number (Python's
    /// `isinstance(True, int)` is true, so without this guard `true` slips into an int field).
    #[value(name = "bool_guard")]
    #[serde(rename = "bool_guard")]
    BoolGuard,
    /// Check 4: bounds, enum, pattern, lengths.
    #[value(name = "values")]
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
}

/// Which validator checks are on; all are on by default. Every switch changes what the
/// real checks below do.
pub type ValidatorRules = Switches<Rule>;

impl Schema {
    /// Accept any of the three contract forms. `required` is only used for the flat form
    /// (`{"city": "str"}`); the other forms carry their own `required` list (passing a
    /// non-empty list with them is an error). The error says what is wrong with the schema.
    /// The form is read from the schema's shape; a shape two forms read differently
    /// (`{"title": "int"}`, `{}`) is an error that asks for the form to be named.
    pub fn from_json(schema: &Value, required: &[String]) -> Result<Schema, String> {
        schema::compile(&Json::from_value(schema), required, None)
    }

    /// Like [`Schema::from_json`] from text, with numbers exactly as written; a schema that
    /// repeats a key is refused too. `form` names the form (`None`: read it from the shape).
    pub fn from_text(
        text: &str,
        required: &[String],
        form: Option<Form>,
    ) -> Result<Schema, String> {
        let v = json::parse(text).map_err(|e| match e {
            ParseError::Duplicate { path } => format!("the schema repeats the key {path:?}"),
            other => other
                .message()
                .replacen("invalid JSON", "the schema is not JSON", 1),
        })?;
        schema::compile(&v, required, form)
    }

    /// The declared property called `name`.
    pub(crate) fn property(&self, name: &str) -> Option<&Property> {
        self.properties
            .iter()
            .find(|p| json::same_text(&p.name, name))
    }
}

/// Parse model-written argument text: preserves key order, rejects repeated keys
/// (`duplicate arg: NAME`), reports `invalid JSON: ... line L column C`.
pub(crate) fn parse_args(text: &str) -> Result<Value, Violation> {
    json::parse(text)
        .map(|j| j.to_value())
        .map_err(|e| Violation::parse(&e))
}

/// Run the ordered checks; the first failure wins.
pub fn validate(schema: &Schema, args: &Value) -> Result<(), Violation> {
    validate_with(schema, args, &ValidatorRules::ALL_ON)
}

/// Every failure, in check order (the `--all` flag).
pub fn validate_all(schema: &Schema, args: &Value) -> Vec<Violation> {
    validate_all_with(schema, args, &ValidatorRules::ALL_ON)
}

/// [`validate`] with some checks switched off.
pub fn validate_with(
    schema: &Schema,
    args: &Value,
    rules: &ValidatorRules,
) -> Result<(), Violation> {
    validate_json(schema, &Json::from_value(args), rules)
}

/// [`validate_all`] with some checks switched off.
pub(crate) fn validate_all_with(
    schema: &Schema,
    args: &Value,
    rules: &ValidatorRules,
) -> Vec<Violation> {
    validate_json_all(schema, &Json::from_value(args), rules)
}

/// Parse and validate model-written text (what `--args`, the playground and the JSON-lines
/// path use): keeps the exact Python type of every literal, huge integers included.
pub fn validate_text(schema: &Schema, text: &str, rules: &ValidatorRules) -> Result<(), Violation> {
    match json::parse(text) {
        Ok(args) => validate_json(schema, &args, rules),
        Err(e) => Err(Violation::parse(&e)),
    }
}

/// [`validate_text`], then the arguments as a value for the caller (the text is read once).
pub(crate) fn validate_text_to_value(
    schema: &Schema,
    text: &str,
    rules: &ValidatorRules,
) -> Result<Value, Violation> {
    let args = json::parse(text).map_err(|e| Violation::parse(&e))?;
    validate_json(schema, &args, rules)?;
    Ok(args.to_value())
}

/// Every failure of model-written text (a parse failure is the only one, if any).
pub fn validate_text_all(schema: &Schema, text: &str, rules: &ValidatorRules) -> Vec<Violation> {
    match json::parse(text) {
        Ok(args) => validate_json_all(schema, &args, rules),
        Err(e) => vec![Violation::parse(&e)],
    }
}

/// First failure on already-parsed arguments.
pub fn validate_json(
    schema: &Schema,
    args: &Json<'_>,
    rules: &ValidatorRules,
) -> Result<(), Violation> {
    let mut first = None;
    check(schema, args, rules, &mut |f| {
        first = Some(f.into_violation());
        false
    });
    match first {
        Some(v) => Err(v),
        None => Ok(()),
    }
}

/// Every failure on already-parsed arguments.
pub(crate) fn validate_json_all(
    schema: &Schema,
    args: &Json<'_>,
    rules: &ValidatorRules,
) -> Vec<Violation> {
    let mut all = Vec::new();
    check(schema, args, rules, &mut |f| {
        all.push(f.into_violation());
        true
    });
    all
}

/// Does `v` have the type `ty` declares?
pub(crate) fn type_ok(ty: &TypeSpec, v: &Json<'_>, rules: &ValidatorRules) -> bool {
    let loose_bool = !rules.is_on(Rule::BoolGuard) && matches!(v, Json::Bool(_));
    match ty {
        TypeSpec::Any => true,
        TypeSpec::Py(t) => match t {
            PyType::Str => matches!(v, Json::Str(_)),
            // Python: isinstance(True, int) is True; only the guard keeps bools out.
            PyType::Int => matches!(v, Json::Int(_) | Json::BigInt(_)) || loose_bool,
            // isinstance(3, float) and isinstance(True, float) are both False.
            PyType::Float => matches!(v, Json::Float(_)),
            PyType::Bool => matches!(v, Json::Bool(_)),
            PyType::List => matches!(v, Json::Array(_)),
            PyType::Dict => matches!(v, Json::Object(_)),
        },
        TypeSpec::Js(ts) => ts.iter().any(|t| match t {
            JsType::String => matches!(v, Json::Str(_)),
            // Strict like the flat form: 3.0 is a float, not an integer.
            JsType::Integer => matches!(v, Json::Int(_) | Json::BigInt(_)) || loose_bool,
            JsType::Number => {
                matches!(v, Json::Int(_) | Json::BigInt(_) | Json::Float(_)) || loose_bool
            }
            JsType::Boolean => matches!(v, Json::Bool(_)),
            JsType::Array => matches!(v, Json::Array(_)),
            JsType::Object => matches!(v, Json::Object(_)),
            JsType::Null => matches!(v, Json::Null),
        }),
    }
}

/// A failed check as the checks find it: its message still in pieces, so a caller that only
/// writes it out (the JSON-lines verdicts) never builds an owned [`Violation`].
pub(crate) struct Found<'x> {
    kind: CheckKind,
    arg: &'x str,
    message: Message<'x>,
}

enum Message<'x> {
    /// The message is these pieces, joined.
    Pieces(&'x [&'x str]),
    Text(String),
}

/// A failure whose message is `parts`, joined.
fn found<'x>(kind: CheckKind, arg: &'x str, parts: &'x [&'x str]) -> Found<'x> {
    Found {
        kind,
        arg,
        message: Message::Pieces(parts),
    }
}

impl Found<'_> {
    fn into_violation(self) -> Violation {
        let message = match self.message {
            Message::Pieces(parts) => concat(parts),
            Message::Text(text) => text,
        };
        Violation::new(self.kind, self.arg, message)
    }

    /// Append the message as a JSON string literal (what [`json::push_str_json`] writes for
    /// the joined message: the pieces are whole characters, so each escapes alone).
    pub(crate) fn push_message_json(&self, out: &mut String) {
        out.push('"');
        match &self.message {
            Message::Pieces(parts) => {
                for part in *parts {
                    json::push_json_escaped(part, out);
                }
            }
            Message::Text(text) => json::push_json_escaped(text, out),
        }
        out.push('"');
    }
}

/// The checks. `sink` gets each failure in order and says whether to go on.
pub(crate) fn check(
    schema: &Schema,
    args: &Json<'_>,
    rules: &ValidatorRules,
    sink: &mut dyn FnMut(Found<'_>) -> bool,
) {
    let Json::Object(fields) = args else {
        sink(Found {
            kind: CheckKind::Parse,
            arg: "",
            message: Message::Text(format!(
                "invalid args: expected a JSON object (dict), got {}",
                args.py_type()
            )),
        });
        return;
    };
    // The declared property of each arg, looked up once (past the first few args, again
    // where needed).
    let mut known: [Option<&Property>; 16] = [None; 16];
    for (slot, (k, _)) in known.iter_mut().zip(fields) {
        *slot = schema.property(k);
    }
    let property = |i: usize, k: &str| match known.get(i) {
        Some(p) => *p,
        None => schema.property(k),
    };
    // 1. missing required args, in declared order
    if rules.is_on(Rule::Required) {
        for name in &schema.required {
            if !fields.iter().any(|(k, _)| json::same_text(k, name))
                && !sink(found(
                    CheckKind::Missing,
                    name,
                    &["missing required arg: ", name],
                ))
            {
                return;
            }
        }
    }
    // 2. unknown args, in the order written
    if rules.is_on(Rule::Unknown) && !schema.additional_allowed {
        for (i, (k, _)) in fields.iter().enumerate() {
            if property(i, k).is_none()
                && !sink(found(CheckKind::Unknown, k, &["unknown arg: ", k]))
            {
                return;
            }
        }
    }
    // 3. types of the declared args, in the order written
    if rules.is_on(Rule::Types) {
        for (i, (k, v)) in fields.iter().enumerate() {
            let Some(p) = property(i, k) else {
                continue;
            };
            if !type_ok(&p.ty, v, rules)
                && !sink(found(
                    CheckKind::Type,
                    k,
                    &[
                        "type error: ",
                        k,
                        " expected ",
                        &p.ty.expected_name(),
                        ", got ",
                        v.py_type(),
                    ],
                ))
            {
                return;
            }
        }
    }
    // 4. value constraints of declared args whose type is right
    if rules.is_on(Rule::Values) {
        for (i, (k, v)) in fields.iter().enumerate() {
            let Some(p) = property(i, k) else {
                continue;
            };
            if p.constraints.is_empty() || (rules.is_on(Rule::Types) && !type_ok(&p.ty, v, rules)) {
                continue;
            }
            for message in value_problems(k, &p.constraints, v) {
                let f = Found {
                    kind: CheckKind::Value,
                    arg: k,
                    message: Message::Text(message),
                };
                if !sink(f) {
                    return;
                }
            }
        }
    }
}

/// The value-constraint failures of one value, each a full `value error: ...` message that
/// states the bound and the value. Numeric bounds apply to numbers, lengths and patterns
/// to strings (as in JSON Schema); `enum` to anything.
pub(crate) fn value_problems(name: &str, c: &Constraints, v: &Json<'_>) -> Vec<String> {
    use std::cmp::Ordering::{Greater, Less};
    let mut out = Vec::new();
    let is_number = matches!(v, Json::Int(_) | Json::BigInt(_) | Json::Float(_));
    if is_number {
        let shown = v.show();
        type Pass = fn(std::cmp::Ordering) -> bool;
        let checks: [(&Option<Bound>, &str, Pass); 4] = [
            (&c.minimum, ">=", |o| o != Less),
            (&c.maximum, "<=", |o| o != Greater),
            (&c.exclusive_minimum, ">", |o| o == Greater),
            (&c.exclusive_maximum, "<", |o| o == Less),
        ];
        for (b, op, pass) in checks {
            let Some(b) = b else { continue };
            if !b.compare(v).is_some_and(pass) {
                out.push(format!(
                    "value error: {name} must be {op} {}, got {shown}",
                    b.text
                ));
            }
        }
    }
    let allowed = |options: &Vec<Json<'static>>| options.iter().any(|o| o.same_as(v));
    if let Some(options) = c.one_of.as_ref().filter(|o| !allowed(o)) {
        let listed = options
            .iter()
            .map(Json::to_text)
            .collect::<Vec<_>>()
            .join(", ");
        let listed = json::cut(&listed, 80);
        if options.is_empty() {
            out.push(format!(
                "value error: {name} accepts no value (the enum is empty), got {}",
                v.show()
            ));
        } else if options.len() == 1 {
            out.push(format!(
                "value error: {name} must be {listed}, got {}",
                v.show()
            ));
        } else {
            out.push(format!(
                "value error: {name} must be one of {listed}, got {}",
                v.show()
            ));
        }
    }
    if let Json::Str(s) = v {
        if c.min_length.is_some() || c.max_length.is_some() {
            let n = s.chars().count() as u64;
            if let Some(min) = c.min_length.filter(|&m| n < m) {
                out.push(format!(
                    "value error: {name} must be at least {min} {} long, got {n} ({})",
                    chars(min),
                    v.show()
                ));
            }
            if let Some(max) = c.max_length.filter(|&m| n > m) {
                out.push(format!(
                    "value error: {name} must be at most {max} {} long, got {n} ({})",
                    chars(max),
                    v.show()
                ));
            }
        }
        if let Some(p) = c.pattern.as_ref().filter(|p| !p.is_match(s)) {
            out.push(format!(
                "value error: {name} must match the pattern {}, got {}",
                p.source,
                v.show()
            ));
        }
    }
    out
}

/// Join pieces into one exactly-sized string (cheaper than `format!` on the hot path).
fn concat(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        s.push_str(p);
    }
    s
}

fn chars(n: u64) -> &'static str {
    if n == 1 { "character" } else { "characters" }
}

#[cfg(test)]
mod tests;
