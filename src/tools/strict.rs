//! Strict-mode readiness: would OpenAI's strict function calling and Anthropic's strict tool
//! use accept a declaration's schema as written, and if not, why. Each [`StrictRule`] is
//! one sentence of the providers' own documents (the README's "Your own tools" section cites
//! them): OpenAI's Structured Outputs "Supported schemas", and Anthropic's Structured
//! Outputs "JSON Schema limitations", which its strict tool use shares.
//!
//! This reads the schema only; what the provider would do with it is the provider's. A
//! keyword neither document lists is reported as outside the supported subset, since both
//! refuse a schema they cannot enforce.

use serde_json::{Map, Value};

use super::schema::{local_pointer, pointer_key, resolve};
use crate::sanitize::quote;

/// OpenAI's string formats (Supported properties).
const OPENAI_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
/// Anthropic's string formats (Supported features).
const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Keywords that only annotate: every provider takes them.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "$schema",
    "$id",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];
/// What OpenAI's subset has besides annotations.
const OPENAI_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "definitions",
    "pattern",
    "format",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "maxItems",
];
/// What Anthropic's subset has besides annotations.
const ANTHROPIC_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "allOf",
    "$ref",
    "$defs",
    "definitions",
    "pattern",
    "format",
    "minItems",
];
/// Every other keyword JSON Schema defines (one outside a subset is a reason; a word that
/// is no keyword at all is the hygiene report's).
const OTHER_KEYWORDS: &[&str] = &[
    "allOf",
    "not",
    "oneOf",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "prefixItems",
    "additionalItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
    "minLength",
    "maxLength",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxItems",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// Whose strict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    Openai,
    Anthropic,
}

impl Provider {
    pub fn label(self) -> &'static str {
        match self {
            Provider::Openai => "OpenAI",
            Provider::Anthropic => "Anthropic",
        }
    }
}

/// One rule of a strict mode (stable names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StrictRule {
    /// The root is an object schema (`"type": "object"`). Both.
    RootNotObject,
    /// OpenAI: the root does not use `anyOf`.
    RootAnyOf,
    /// `additionalProperties: false` on every object. Both.
    OpenObject,
    /// OpenAI: every property is required (an optional one is a union with null).
    NotAllRequired,
    /// OpenAI: each schema has one of the supported types.
    Untyped,
    /// A keyword outside the provider's subset. Both.
    UnsupportedKeyword,
    /// A `format` the provider does not list. Both.
    UnsupportedFormat,
    /// A `$ref` outside the schema. Both.
    ExternalRef,
    /// OpenAI: at most 10 levels of nesting.
    TooDeep,
    /// OpenAI: at most 5,000 object properties in all.
    TooManyProperties,
    /// OpenAI: at most 1,000 enum values in all.
    TooManyEnumValues,
    /// OpenAI: a string enum of more than 250 values holds at most 15,000 characters.
    EnumTooLong,
    /// OpenAI: names, enum and const values hold at most 120,000 characters in all.
    TooMuchText,
    /// Anthropic: enum values are strings, numbers, booleans or null.
    ComplexEnum,
    /// Anthropic: `minItems` is 0 or 1.
    MinItemsOverOne,
    /// Anthropic: `allOf` does not hold a `$ref`.
    AllOfWithRef,
    /// Anthropic: no recursive schema.
    Recursive,
    /// Anthropic: a pattern without backreferences, lookaround or word boundaries.
    PatternFeature,
    /// Not judged: the validator refuses the declaration and no schema is where its shape
    /// keeps one, so there is nothing to judge.
    NotRead,
}

/// One reason a strict mode would refuse the schema.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Reason {
    pub rule: StrictRule,
    /// Where (a JSON pointer into the schema; empty for its root).
    pub at: String,
    pub message: String,
}

/// One provider's verdict.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Verdict {
    pub ok: bool,
    /// Every reason, in the order the schema is written (`--json` prints the messages).
    #[serde(serialize_with = "messages")]
    pub reasons: Vec<Reason>,
}

fn messages<S: serde::Serializer>(r: &[Reason], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(r.len()))?;
    for x in r {
        seq.serialize_element(&x.message)?;
    }
    seq.end()
}

/// Both providers' verdicts.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Readiness {
    pub openai: Verdict,
    pub anthropic: Verdict,
}

impl Readiness {
    pub fn get(&self, p: Provider) -> &Verdict {
        match p {
            Provider::Openai => &self.openai,
            Provider::Anthropic => &self.anthropic,
        }
    }
}

/// Both verdicts on a declaration's schema (`None`: it declares none, as an OpenAI function
/// without `parameters` may).
pub fn readiness(schema: Option<&Value>) -> Readiness {
    let empty = Value::Object(Map::new());
    let schema = schema.unwrap_or(&empty);
    Readiness {
        openai: check(schema, Provider::Openai),
        anthropic: check(schema, Provider::Anthropic),
    }
}

/// One provider's verdict on a schema.
pub fn check(schema: &Value, provider: Provider) -> Verdict {
    let mut w = Walk {
        root: schema,
        provider,
        reasons: Vec::new(),
        properties: 0,
        enum_values: 0,
        text: 0,
        deepest: 0,
    };
    let root_type = schema.get("type").and_then(Value::as_str);
    if root_type != Some("object") {
        w.say(
            StrictRule::RootNotObject,
            "",
            "the root must be an object schema (\"type\": \"object\")".into(),
        );
    }
    if provider == Provider::Openai && schema.get("anyOf").is_some() {
        w.say(
            StrictRule::RootAnyOf,
            "",
            "the root must not use anyOf".into(),
        );
    }
    w.node(schema, "", 1);
    if provider == Provider::Openai {
        w.limits();
    } else if let Some(at) = recursion(schema) {
        w.say(
            StrictRule::Recursive,
            &at,
            format!(
                "the schema is recursive ({} refers back to itself)",
                place(&at)
            ),
        );
    }
    Verdict {
        ok: w.reasons.is_empty(),
        reasons: w.reasons,
    }
}

fn place(at: &str) -> String {
    if at.is_empty() {
        "the root".into()
    } else {
        at.to_owned()
    }
}

struct Walk<'a> {
    root: &'a Value,
    provider: Provider,
    reasons: Vec<Reason>,
    properties: usize,
    enum_values: usize,
    text: usize,
    deepest: usize,
}

impl Walk<'_> {
    fn say(&mut self, rule: StrictRule, at: &str, message: String) {
        self.reasons.push(Reason {
            rule,
            at: at.to_owned(),
            message,
        });
    }

    /// Check one schema node at `at`, `depth` levels down, and everything under it.
    fn node(&mut self, node: &Value, at: &str, depth: usize) {
        let Value::Object(map) = node else {
            return;
        };
        self.deepest = self.deepest.max(depth);
        for k in map.keys() {
            self.keyword(map, k, at);
        }
        let object = map.get("type").is_some_and(|t| has_type(t, "object"))
            || map.contains_key("properties");
        if object {
            self.object(map, at);
        }
        if self.provider == Provider::Openai && is_untyped(map) && !at.is_empty() {
            self.say(StrictRule::Untyped, at, format!("{} has no type (strict needs one of string, number, integer, boolean, object, array, null)", place(at)));
        }
        self.values(map, at);
        self.children(map, at, depth);
    }

    fn keyword(&mut self, map: &Map<String, Value>, k: &str, at: &str) {
        let own = match self.provider {
            Provider::Openai => OPENAI_KEYWORDS,
            Provider::Anthropic => ANTHROPIC_KEYWORDS,
        };
        if ANNOTATIONS.contains(&k) || own.contains(&k) || !OTHER_KEYWORDS.contains(&k) {
            if self.provider == Provider::Anthropic
                && k == "minItems"
                && map[k].as_f64().is_some_and(|n| n > 1.0)
            {
                self.say(
                    StrictRule::MinItemsOverOne,
                    at,
                    format!(
                        "minItems {} at {} (only 0 and 1 are supported)",
                        map[k],
                        place(at)
                    ),
                );
            }
            return;
        }
        let why = match (self.provider, k) {
            (
                Provider::Openai,
                "allOf" | "not" | "dependentRequired" | "dependentSchemas" | "if" | "then" | "else",
            ) => "is not supported",
            (
                Provider::Anthropic,
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf",
            ) => "is not supported (no numerical constraints)",
            (_, "minLength" | "maxLength") => "is not supported (no string length constraints)",
            (
                Provider::Anthropic,
                "maxItems" | "uniqueItems" | "contains" | "minContains" | "maxContains"
                | "prefixItems",
            ) => "is not supported (no array constraints beyond minItems 0 or 1)",
            _ => "is not in the supported subset",
        };
        self.say(
            StrictRule::UnsupportedKeyword,
            at,
            format!("{} {why} (at {})", quote(k), place(at)),
        );
    }

    fn object(&mut self, map: &Map<String, Value>, at: &str) {
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            self.say(
                StrictRule::OpenObject,
                at,
                format!("additionalProperties must be false at {}", place(at)),
            );
        }
        let props: Vec<&String> = map
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().collect())
            .unwrap_or_default();
        self.properties += props.len();
        self.text += props.iter().map(|p| p.chars().count()).sum::<usize>();
        if self.provider == Provider::Openai {
            let required: Vec<&str> = map
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let optional: Vec<String> = props
                .iter()
                .filter(|p| !required.contains(&p.as_str()))
                .map(|p| crate::sanitize::quote(p))
                .collect();
            if !optional.is_empty() {
                let (list, verb) = if optional.len() == 1 {
                    (optional[0].clone(), "is")
                } else {
                    (optional.join(", "), "are")
                };
                self.say(StrictRule::NotAllRequired, at, format!("{list} {verb} not in required at {} (strict needs every property required; make an optional one a union with null, e.g. \"type\": [\"string\", \"null\"])", place(at)));
            }
        }
    }

    /// enum, const, format, pattern and $ref values.
    fn values(&mut self, map: &Map<String, Value>, at: &str) {
        if let Some(Value::Array(values)) = map.get("enum") {
            self.enum_values += values.len();
            let chars: usize = values
                .iter()
                .filter_map(Value::as_str)
                .map(|s| s.chars().count())
                .sum();
            self.text += chars;
            if self.provider == Provider::Openai
                && values.len() > 250
                && values.iter().all(Value::is_string)
                && chars > 15_000
            {
                self.say(StrictRule::EnumTooLong, at, format!("an enum of {} strings holds {chars} characters at {} (more than 250 values may hold at most 15,000)", values.len(), place(at)));
            }
            if self.provider == Provider::Anthropic
                && values.iter().any(|v| v.is_object() || v.is_array())
            {
                self.say(StrictRule::ComplexEnum, at, format!("an enum holds an object or array at {} (only strings, numbers, booleans and null)", place(at)));
            }
        }
        if let Some(Value::String(c)) = map.get("const") {
            self.text += c.chars().count();
        }
        if let Some(Value::String(f)) = map.get("format") {
            let listed = match self.provider {
                Provider::Openai => OPENAI_FORMATS,
                Provider::Anthropic => ANTHROPIC_FORMATS,
            };
            if !listed.contains(&f.as_str()) {
                self.say(
                    StrictRule::UnsupportedFormat,
                    at,
                    format!("format {} is not supported (at {})", quote(f), place(at)),
                );
            }
        }
        if let Some(Value::String(r)) = map.get("$ref")
            && resolve(self.root, r).is_none()
        {
            self.say(
                StrictRule::ExternalRef,
                at,
                format!("$ref {} leaves the schema (at {})", quote(r), place(at)),
            );
        }
        if self.provider == Provider::Anthropic {
            if let Some(Value::String(p)) = map.get("pattern")
                && let Some(what) = pattern_feature(p)
            {
                self.say(
                    StrictRule::PatternFeature,
                    at,
                    format!(
                        "the pattern at {} uses {what}, which is not supported",
                        place(at)
                    ),
                );
            }
            if let Some(Value::Array(all)) = map.get("allOf")
                && all.iter().any(|m| m.get("$ref").is_some())
            {
                self.say(
                    StrictRule::AllOfWithRef,
                    at,
                    format!("allOf holds a $ref at {} (not supported)", place(at)),
                );
            }
        }
    }

    fn children(&mut self, map: &Map<String, Value>, at: &str, depth: usize) {
        for (k, v) in map {
            let here = format!("{at}/{}", pointer_key(k));
            match (k.as_str(), v) {
                (
                    "properties" | "$defs" | "definitions" | "patternProperties"
                    | "dependentSchemas",
                    Value::Object(subs),
                ) => {
                    let deeper = if k == "properties" { depth + 1 } else { depth };
                    for (name, sub) in subs {
                        self.node(sub, &format!("{here}/{}", pointer_key(name)), deeper);
                    }
                }
                ("items" | "prefixItems" | "anyOf" | "oneOf" | "allOf", Value::Array(subs)) => {
                    for (i, sub) in subs.iter().enumerate() {
                        self.node(sub, &format!("{here}/{i}"), depth);
                    }
                }
                (
                    "items"
                    | "additionalProperties"
                    | "not"
                    | "if"
                    | "then"
                    | "else"
                    | "contains"
                    | "propertyNames"
                    | "unevaluatedProperties"
                    | "unevaluatedItems",
                    Value::Object(_),
                ) => {
                    let deeper = if k == "items" { depth + 1 } else { depth };
                    self.node(v, &here, deeper);
                }
                _ => {}
            }
        }
    }

    fn limits(&mut self) {
        if self.deepest > 10 {
            self.say(
                StrictRule::TooDeep,
                "",
                format!("the schema nests {} levels deep (at most 10)", self.deepest),
            );
        }
        if self.properties > 5000 {
            self.say(
                StrictRule::TooManyProperties,
                "",
                format!(
                    "the schema has {} object properties (at most 5,000)",
                    self.properties
                ),
            );
        }
        if self.enum_values > 1000 {
            self.say(
                StrictRule::TooManyEnumValues,
                "",
                format!(
                    "the schema has {} enum values (at most 1,000)",
                    self.enum_values
                ),
            );
        }
        if self.text > 120_000 {
            self.say(
                StrictRule::TooMuchText,
                "",
                format!(
                    "property names, enum and const values hold {} characters (at most 120,000)",
                    self.text
                ),
            );
        }
    }
}

fn has_type(t: &Value, name: &str) -> bool {
    match t {
        Value::String(s) => s == name,
        Value::Array(ts) => ts.iter().any(|x| x == name),
        _ => false,
    }
}

/// A schema that says nothing of its value's type.
fn is_untyped(map: &Map<String, Value>) -> bool {
    !["type", "enum", "const", "anyOf", "$ref", "allOf", "oneOf"]
        .iter()
        .any(|k| map.contains_key(*k))
}

/// What Anthropic's pattern support leaves out, if the pattern uses it.
fn pattern_feature(p: &str) -> Option<&'static str> {
    let mut chars = p.chars().peekable();
    let mut prev_group = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('1'..='9') | Some('k') => return Some("a backreference"),
                Some('b' | 'B') => return Some("a word boundary"),
                _ => {}
            },
            '(' => prev_group = true,
            '?' if prev_group => {
                if matches!(chars.peek(), Some('=' | '!' | '<')) {
                    let mut ahead = chars.clone();
                    ahead.next();
                    if matches!(chars.peek(), Some('=' | '!'))
                        || matches!(ahead.peek(), Some('=' | '!'))
                    {
                        return Some("lookaround");
                    }
                }
                prev_group = false;
            }
            _ => prev_group = false,
        }
    }
    None
}

/// The first `$ref` that leads back to a node it sits in (directly or through other
/// definitions), as the pointer of the node that holds it.
fn recursion(root: &Value) -> Option<String> {
    let mut refs: Vec<(String, String)> = Vec::new();
    collect_refs(root, "", &mut refs);
    // A ref inside the subtree at `target` reaches every ref target inside it.
    let reaches = |target: &str| -> Vec<&(String, String)> {
        refs.iter()
            .filter(|(from, _)| from.starts_with(target))
            .collect()
    };
    for (from, to) in &refs {
        let mut seen: Vec<&str> = Vec::new();
        let mut stack: Vec<&str> = vec![to.as_str()];
        while let Some(t) = stack.pop() {
            if from.starts_with(t) {
                return Some(from.clone());
            }
            if seen.contains(&t) || seen.len() > 64 {
                continue;
            }
            seen.push(t);
            stack.extend(reaches(t).into_iter().map(|(_, next)| next.as_str()));
        }
    }
    None
}

fn collect_refs(v: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref")
                && let Some(ptr) = local_pointer(r)
            {
                out.push((at.to_owned(), ptr));
            }
            for (k, sub) in map {
                if !matches!(k.as_str(), "enum" | "const" | "default" | "examples") {
                    collect_refs(sub, &format!("{at}/{}", pointer_key(k)), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, sub) in items.iter().enumerate() {
                collect_refs(sub, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
