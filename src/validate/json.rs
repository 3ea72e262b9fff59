//! A small, strict JSON reader for model-written argument text.
//!
//! Why not plain `serde_json::from_str`? Three things the validator needs that a `Value`
//! cannot carry:
//! - a repeated key is an error (`duplicate arg: NAME`), never "last one wins";
//! - an integer literal too big for `i64`/`u64` is still an *integer* (Python's `json.loads`
//!   gives an `int`), so we keep its text instead of turning it into a float;
//! - nesting is capped at [`MAX_DEPTH`] levels with the same clear `invalid JSON` error,
//!   so hostile input can never blow the stack.
//!
//! Strings without escapes are borrowed from the input, so parsing allocates little.
//! Deviations from Python's `json.loads`, on purpose: `NaN`/`Infinity` are rejected (they are
//! not JSON), and a lone UTF-16 surrogate escape (`"\ud800"`) becomes U+FFFD, because a Rust
//! string cannot hold it (the value is still a `str`, as in Python).

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::Value;

/// Deepest nesting of arrays and objects accepted (the same limit serde_json uses).
pub const MAX_DEPTH: usize = 128;

/// A parsed JSON value that remembers what Python would call it.
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    /// An integer literal that fits `i64`.
    Int(i64),
    /// An integer literal outside `i64` (kept as its text): Python still says `int`.
    BigInt(Cow<'a, str>),
    /// A literal with a fraction or an exponent (`3.0`, `1e2`): Python says `float`.
    Float(f64),
    Str(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    /// Keys in the order written; never two equal keys.
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

impl<'a> Json<'a> {
    /// Python's name for the type `json.loads` gives this value.
    pub fn py_type(&self) -> &'static str {
        match self {
            Json::Null => "NoneType",
            Json::Bool(_) => "bool",
            Json::Int(_) | Json::BigInt(_) => "int",
            Json::Float(_) => "float",
            Json::Str(_) => "str",
            Json::Array(_) => "list",
            Json::Object(_) => "dict",
        }
    }

    /// The numeric value, for bounds (booleans are not numbers here).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Int(i) => Some(*i as f64),
            Json::BigInt(t) => t.parse::<f64>().ok(),
            Json::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// Look a key up in an object (linear: argument objects are small).
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Equality as JSON Schema's `enum` means it: numbers compare by exact value (`1 == 1.0`),
    /// booleans are never numbers, object key order does not matter.
    pub fn same_as(&self, other: &Json<'_>) -> bool {
        match (self, other) {
            (Json::Null, Json::Null) => true,
            (Json::Bool(a), Json::Bool(b)) => a == b,
            (Json::Int(_) | Json::BigInt(_) | Json::Float(_), _) => {
                super::number::equal(self, other)
            }
            (Json::Str(a), Json::Str(b)) => a == b,
            (Json::Array(a), Json::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_as(y))
            }
            (Json::Object(a), Json::Object(b)) => {
                a.len() == b.len()
                    && a.iter().all(|(k, v)| {
                        b.iter()
                            .find(|(k2, _)| k2 == k)
                            .is_some_and(|(_, v2)| v.same_as(v2))
                    })
            }
            _ => false,
        }
    }

    /// Convert to a `serde_json::Value`. Lossy only at the edges a `Value` cannot hold:
    /// an integer beyond `u64` becomes a float, an infinite float (`1e400`) becomes null.
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Int(i) => Value::from(*i),
            Json::BigInt(t) => match t.parse::<u64>() {
                Ok(u) => Value::from(u),
                Err(_) => t
                    .parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map(Value::Number)
                    .unwrap_or(Value::Null),
            },
            Json::Float(f) => serde_json::Number::from_f64(*f)
                .map(Value::Number)
                .unwrap_or(Value::Null),
            Json::Str(s) => Value::String(s.to_string()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(fields) => Value::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_value()))
                    .collect(),
            ),
        }
    }

    /// Borrow a `serde_json::Value` as a `Json`. A `Value` has already lost repeated keys
    /// and the text of huge integers; a `u64` above `i64::MAX` is still an integer.
    pub fn from_value(value: &'a Value) -> Json<'a> {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Json::Int(i)
                } else if let Some(u) = n.as_u64() {
                    Json::BigInt(Cow::Owned(u.to_string()))
                } else {
                    Json::Float(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            Value::String(s) => Json::Str(Cow::Borrowed(s)),
            Value::Array(items) => Json::Array(items.iter().map(Json::from_value).collect()),
            Value::Object(map) => Json::Object(
                map.iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Json::from_value(v)))
                    .collect(),
            ),
        }
    }

    /// Short display for messages: JSON text, cut after about 60 characters.
    pub fn show(&self) -> String {
        let full = match self {
            Json::Int(i) => i.to_string(),
            Json::BigInt(t) => t.to_string(),
            Json::Float(f) => show_f64(*f),
            Json::Str(s) => serde_json::to_string(s.as_ref()).unwrap_or_default(),
            other => serde_json::to_string(&other.to_value()).unwrap_or_default(),
        };
        cut(&full, 60)
    }
}

/// A float the way a reader expects it: `3.0`, `0.5`, `1e20`, `inf`.
pub fn show_f64(f: f64) -> String {
    if f.is_infinite() {
        if f > 0.0 { "inf".into() } else { "-inf".into() }
    } else {
        format!("{f:?}")
    }
}

/// Cut `s` to at most `max` characters, marking the cut.
pub fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_owned(),
        Some((i, _)) => format!("{}...", &s[..i]),
    }
}

/// One line of JSON spaced like Python's `json.dumps` (`", "` and `": "`), which is how
/// the contract writes its output lines: `{"ok": true, "error": ""}`. Keys keep their order.
pub fn dumps(v: &Value) -> String {
    let mut out = String::new();
    dump_into(v, &mut out);
    out
}

/// Append `v` to `out` (see [`dumps`]).
pub fn dump_into(v: &Value, out: &mut String) {
    match v {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                dump_into(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_str_json(k, out);
                out.push_str(": ");
                dump_into(item, out);
            }
            out.push('}');
        }
        Value::String(s) => push_str_json(s, out),
        other => out.push_str(&other.to_string()),
    }
}

/// Append `s` as a JSON string literal.
pub fn push_str_json(s: &str, out: &mut String) {
    out.push('"');
    let mut run = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f | 0x7f => "",
            _ => continue,
        };
        out.push_str(&s[run..i]);
        if esc.is_empty() {
            out.push_str(&format!("\\u{b:04x}"));
        } else {
            out.push_str(esc);
        }
        run = i + 1;
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// Why the text could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Not JSON: what went wrong, with 1-based line and column (columns count characters).
    Syntax {
        what: String,
        line: usize,
        column: usize,
    },
    /// An object repeated a key; the path to it (`city`, `filter.city`, `items[2].id`).
    Duplicate { path: String },
}

impl ParseError {
    /// The contract's message: `invalid JSON: ... line L column C` or `duplicate arg: NAME`.
    pub fn message(&self) -> String {
        match self {
            ParseError::Syntax { what, line, column } => {
                format!("invalid JSON: {what} at line {line} column {column}")
            }
            ParseError::Duplicate { path } => format!("duplicate arg: {path}"),
        }
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

/// Internal error before the position is turned into line and column.
enum Fail {
    At(usize, Cow<'static, str>),
    /// Path segments, innermost first.
    Dup(Vec<String>),
}

/// Parse one complete JSON text (surrounding whitespace allowed).
pub fn parse(text: &str) -> Result<Json<'_>, ParseError> {
    let mut p = Parser::new(text);
    let result = p.document();
    result.map_err(|f| p.error(f))
}

/// Parse like [`parse`], but let repeated keys through (the first value is kept). Only for
/// reading the envelope around model-written args that already failed with a repeat.
pub fn parse_allowing_duplicates(text: &str) -> Result<Json<'_>, ParseError> {
    let mut p = Parser::new(text);
    p.allow_duplicates = true;
    let result = p.document();
    result.map_err(|f| p.error(f))
}

/// A cursor over JSON text. `pub(crate)` so the JSON-lines readers can pick a case apart
/// key by key and keep the raw text of a value (to reuse a compiled schema).
pub(crate) struct Parser<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
    /// Accept repeated keys (keeping the first); only for re-reading a JSON-lines case
    /// whose `args` already failed with a duplicate, to find where the args end.
    pub(crate) allow_duplicates: bool,
}

type PResult<T> = Result<T, Fail>;

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        Parser {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            depth: 0,
            allow_duplicates: false,
        }
    }

    fn document(&mut self) -> PResult<Json<'a>> {
        self.ws();
        let v = self.value()?;
        self.ws();
        if self.pos < self.bytes.len() {
            return Err(self.fail("trailing characters after the JSON value"));
        }
        Ok(v)
    }

    fn fail(&self, what: &'static str) -> Fail {
        Fail::At(self.pos, Cow::Borrowed(what))
    }

    fn error(&self, f: Fail) -> ParseError {
        match f {
            Fail::At(pos, what) => {
                let (line, column) = line_col(self.src, pos);
                ParseError::Syntax {
                    what: what.into_owned(),
                    line,
                    column,
                }
            }
            Fail::Dup(mut segs) => {
                segs.reverse();
                let mut path = String::new();
                for s in segs {
                    if !path.is_empty() && !s.starts_with('[') {
                        path.push('.');
                    }
                    path.push_str(&s);
                }
                ParseError::Duplicate { path }
            }
        }
    }

    #[inline]
    fn ws(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if b == b' ' || b == b'\n' || b == b'\t' || b == b'\r' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn value(&mut self) -> PResult<Json<'a>> {
        match self.peek() {
            None => Err(self.fail("expected a value, found the end of the text")),
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'N' | b'I') => Err(self.fail("NaN and Infinity are not JSON")),
            Some(b'\'') => Err(self.fail("strings need double quotes, not single quotes")),
            Some(_) => Err(self.fail("expected a value")),
        }
    }

    fn literal(&mut self, word: &'static str, v: Json<'a>) -> PResult<Json<'a>> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(v)
        } else {
            Err(self.fail("expected a value"))
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Fail::At(
                self.pos,
                Cow::Owned(format!("nesting deeper than {MAX_DEPTH} levels")),
            ));
        }
        Ok(())
    }

    fn object(&mut self) -> PResult<Json<'a>> {
        self.enter()?;
        self.pos += 1; // '{'
        let mut fields: Vec<(Cow<'a, str>, Json<'a>)> = Vec::new();
        let mut seen: Option<HashSet<Cow<'a, str>>> = None;
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Json::Object(fields));
        }
        loop {
            self.ws();
            match self.peek() {
                Some(b'"') => {}
                None => return Err(self.fail("unterminated object, expected a key")),
                Some(_) => return Err(self.fail("expected a key in double quotes")),
            }
            let key = self.string()?;
            // Repeated keys: linear for small objects, a set once they grow.
            let dup = match &mut seen {
                Some(set) => !set.insert(key.clone()),
                None => {
                    let d = fields.iter().any(|(k, _)| *k == key);
                    if fields.len() >= 16 {
                        seen = Some(fields.iter().map(|(k, _)| k.clone()).collect());
                        if let Some(set) = &mut seen {
                            set.insert(key.clone());
                        }
                    }
                    d
                }
            };
            if dup && !self.allow_duplicates {
                return Err(Fail::Dup(vec![key.into_owned()]));
            }
            self.ws();
            if self.peek() != Some(b':') {
                return Err(self.fail("expected ':' after the key"));
            }
            self.pos += 1;
            self.ws();
            let v = match self.value() {
                Ok(v) => v,
                Err(Fail::Dup(mut segs)) => {
                    segs.push(key.into_owned());
                    return Err(Fail::Dup(segs));
                }
                Err(e) => return Err(e),
            };
            if !dup {
                fields.push((key, v));
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    self.depth -= 1;
                    return Ok(Json::Object(fields));
                }
                None => return Err(self.fail("unterminated object, expected ',' or '}'")),
                Some(_) => return Err(self.fail("expected ',' or '}' after an object member")),
            }
        }
    }

    fn array(&mut self) -> PResult<Json<'a>> {
        self.enter()?;
        self.pos += 1; // '['
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.ws();
            let v = match self.value() {
                Ok(v) => v,
                Err(Fail::Dup(mut segs)) => {
                    segs.push(format!("[{}]", items.len()));
                    return Err(Fail::Dup(segs));
                }
                Err(e) => return Err(e),
            };
            items.push(v);
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    self.depth -= 1;
                    return Ok(Json::Array(items));
                }
                None => return Err(self.fail("unterminated array, expected ',' or ']'")),
                Some(_) => return Err(self.fail("expected ',' or ']' after an array item")),
            }
        }
    }

    /// A string starting at the opening quote; borrowed when it has no escapes.
    fn string(&mut self) -> PResult<Cow<'a, str>> {
        self.pos += 1; // opening quote
        let start = self.pos;
        let stop = self.bytes[start..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20);
        match stop {
            None => return Err(Fail::At(start - 1, "unterminated string".into())),
            Some(i) => {
                self.pos = start + i;
                match self.bytes[self.pos] {
                    b'"' => {
                        let s = &self.src[start..self.pos];
                        self.pos += 1;
                        return Ok(Cow::Borrowed(s));
                    }
                    b'\\' => {}
                    _ => return Err(self.fail("control character inside a string")),
                }
            }
        }
        // Slow path: there are escapes.
        let mut out = String::with_capacity(self.pos - start + 16);
        out.push_str(&self.src[start..self.pos]);
        loop {
            let run = self.pos;
            while let Some(&b) = self.bytes.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.src[run..self.pos]);
            match self.peek() {
                None => return Err(Fail::At(start - 1, "unterminated string".into())),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let esc = self.peek();
                    self.pos += 1;
                    match esc {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let c = self.unicode_escape()?;
                            out.push(c);
                        }
                        None => return Err(Fail::At(start - 1, "unterminated string".into())),
                        Some(_) => {
                            self.pos -= 1;
                            return Err(self.fail("invalid escape in a string"));
                        }
                    }
                }
                Some(_) => return Err(self.fail("control character inside a string")),
            }
        }
    }

    fn hex4(&mut self) -> PResult<u32> {
        let Some(chunk) = self.bytes.get(self.pos..self.pos + 4) else {
            return Err(self.fail("\\u needs four hex digits"));
        };
        let mut v = 0u32;
        for &b in chunk {
            let d = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                b'A'..=b'F' => b - b'A' + 10,
                _ => return Err(self.fail("\\u needs four hex digits")),
            };
            v = v * 16 + u32::from(d);
        }
        self.pos += 4;
        Ok(v)
    }

    fn unicode_escape(&mut self) -> PResult<char> {
        let hi = self.hex4()?;
        if (0xD800..0xDC00).contains(&hi) {
            // A high surrogate: a low one must follow to make a pair.
            if self.bytes[self.pos..].starts_with(b"\\u") {
                let save = self.pos;
                self.pos += 2;
                let lo = self.hex4()?;
                if (0xDC00..0xE000).contains(&lo) {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return Ok(char::from_u32(c).unwrap_or('\u{fffd}'));
                }
                self.pos = save;
            }
            return Ok('\u{fffd}');
        }
        Ok(char::from_u32(hi).unwrap_or('\u{fffd}'))
    }

    fn number(&mut self) -> PResult<Json<'a>> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                while matches!(self.peek(), Some(b'0'..=b'9')) {
                    self.pos += 1;
                }
            }
            Some(b'I') => return Err(self.fail("NaN and Infinity are not JSON")),
            _ => return Err(self.fail("expected a digit")),
        }
        let mut float = false;
        if self.peek() == Some(b'.') {
            float = true;
            self.pos += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.fail("expected a digit after the decimal point"));
            }
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            float = true;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.fail("expected a digit in the exponent"));
            }
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
        }
        let text = &self.src[start..self.pos];
        if float {
            // Overflow gives infinity, as Python's float() does.
            Ok(Json::Float(text.parse::<f64>().unwrap_or(f64::INFINITY)))
        } else {
            match text.parse::<i64>() {
                Ok(i) => Ok(Json::Int(i)),
                Err(_) => Ok(Json::BigInt(Cow::Borrowed(text))),
            }
        }
    }

    // ---- pieces for the JSON-lines readers ----

    /// Read `{` and report whether the object is empty (the `}` is then consumed too).
    pub(crate) fn open_object(&mut self) -> Result<bool, ParseError> {
        self.ws();
        if self.peek() != Some(b'{') {
            return Err(self.error(self.fail("expected a JSON object")));
        }
        self.pos += 1;
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(true);
        }
        Ok(false)
    }

    /// Read one `"key":` of the top-level object.
    pub(crate) fn key(&mut self) -> Result<Cow<'a, str>, ParseError> {
        self.ws();
        if self.peek() != Some(b'"') {
            return Err(self.error(self.fail("expected a key in double quotes")));
        }
        let k = self.string().map_err(|f| self.error(f))?;
        self.ws();
        if self.peek() != Some(b':') {
            return Err(self.error(self.fail("expected ':' after the key")));
        }
        self.pos += 1;
        self.ws();
        Ok(k)
    }

    /// Read one value, returning it with its raw text.
    pub(crate) fn value_with_text(&mut self) -> Result<(Json<'a>, &'a str), ParseError> {
        self.ws();
        let start = self.pos;
        let v = self.value().map_err(|f| self.error(f))?;
        Ok((v, &self.src[start..self.pos]))
    }

    /// Skip `raw` if the text at the cursor starts with it. `raw` must be the text of a
    /// complete object, array or string read before: those end themselves, so the value here
    /// is then exactly that value, and parsing it again can be skipped.
    pub(crate) fn skip_known(&mut self, raw: &str) -> Option<&'a str> {
        self.ws();
        let start = self.pos;
        if !raw.is_empty() && self.bytes[start..].starts_with(raw.as_bytes()) {
            self.pos += raw.len();
            Some(&self.src[start..self.pos])
        } else {
            None
        }
    }

    /// After a member: `true` if another member follows (`,`), `false` at the closing `}`
    /// (then only whitespace may follow).
    pub(crate) fn next_member(&mut self) -> Result<bool, ParseError> {
        self.ws();
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(b'}') => {
                self.pos += 1;
                self.ws();
                if self.pos < self.bytes.len() {
                    return Err(self.error(self.fail("trailing characters after the JSON value")));
                }
                Ok(false)
            }
            None => Err(self.error(self.fail("unterminated object, expected ',' or '}'"))),
            Some(_) => Err(self.error(self.fail("expected ',' or '}' after an object member"))),
        }
    }
}

/// 1-based line and column (in characters) of byte offset `pos`.
fn line_col(src: &str, pos: usize) -> (usize, usize) {
    let pos = pos.min(src.len());
    let before = &src.as_bytes()[..pos];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = match src.get(line_start..pos) {
        Some(s) => s.chars().count() + 1,
        None => pos - line_start + 1,
    };
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syntax(text: &str) -> (String, usize, usize) {
        match parse(text) {
            Err(ParseError::Syntax { what, line, column }) => (what, line, column),
            other => panic!("expected a syntax error for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn python_type_names() {
        let cases = [
            ("null", "NoneType"),
            ("true", "bool"),
            ("false", "bool"),
            ("3", "int"),
            ("-0", "int"),
            ("3.0", "float"),
            ("1e2", "float"),
            ("1E-2", "float"),
            ("123456789012345678901234567890", "int"),
            ("18446744073709551616", "int"),
            ("-99999999999999999999", "int"),
            ("1e400", "float"),
            ("\"x\"", "str"),
            ("[]", "list"),
            ("{}", "dict"),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text).unwrap().py_type(), want, "{text}");
        }
    }

    #[test]
    fn keeps_order_and_borrows() {
        let v = parse(r#"{"b": 1, "a": "x", "c": [true]}"#).unwrap();
        let Json::Object(f) = &v else { panic!() };
        let keys: Vec<&str> = f.iter().map(|(k, _)| k.as_ref()).collect();
        assert_eq!(keys, ["b", "a", "c"]);
        assert!(matches!(&f[1].1, Json::Str(Cow::Borrowed("x"))));
    }

    #[test]
    fn duplicates_are_errors_at_any_depth() {
        let dup = |t: &str| match parse(t) {
            Err(ParseError::Duplicate { path }) => path,
            other => panic!("{other:?}"),
        };
        assert_eq!(dup(r#"{"city": "a", "city": "b"}"#), "city");
        assert_eq!(dup(r#"{"f": {"x": 1, "x": 2}}"#), "f.x");
        assert_eq!(dup(r#"{"items": [{}, {"id": 1, "id": 1}]}"#), "items[1].id");
        // Escapes are compared after decoding.
        assert_eq!(dup(r#"{"a": 1, "\u0061": 2}"#), "a");
        // Large objects switch to a set; still caught.
        let mut big: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        big.push("\"k7\": 0".into());
        assert_eq!(dup(&format!("{{{}}}", big.join(","))), "k7");
    }

    #[test]
    fn syntax_errors_have_positions() {
        assert_eq!(syntax(r#"{"city": }"#), ("expected a value".into(), 1, 10));
        assert_eq!(syntax("{\n  \"a\": 1,\n  oops\n}").1, 3);
        assert_eq!(syntax("{\n  \"a\": 1,\n  oops\n}").2, 3);
        assert_eq!(syntax("").0, "expected a value, found the end of the text");
        assert_eq!(syntax("{} x").0, "trailing characters after the JSON value");
        assert_eq!(syntax("01").0, "trailing characters after the JSON value");
        assert_eq!(syntax("NaN").0, "NaN and Infinity are not JSON");
        assert_eq!(syntax("-Infinity").0, "NaN and Infinity are not JSON");
        assert_eq!(syntax("{'a': 1}").0, "expected a key in double quotes");
        assert_eq!(syntax("\"a\u{1}\"").0, "control character inside a string");
        assert_eq!(syntax(r#""\x""#).0, "invalid escape in a string");
        assert_eq!(syntax("[1,]").0, "expected a value");
        assert_eq!(syntax("1.").0, "expected a digit after the decimal point");
        // Columns count characters, not bytes.
        assert_eq!(syntax(r#"{"é": x}"#).2, 7);
    }

    #[test]
    fn deep_nesting_is_a_clean_error() {
        let deep = "[".repeat(100_000);
        let (what, _, _) = syntax(&deep);
        assert_eq!(what, format!("nesting deeper than {MAX_DEPTH} levels"));
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        let obj = "{\"a\":".repeat(50_000);
        assert!(matches!(parse(&obj), Err(ParseError::Syntax { .. })));
    }

    #[test]
    fn escapes_and_surrogates() {
        let v = parse(r#""a\"b\\c\/\n\u00e9\ud83d\ude00""#).unwrap();
        assert_eq!(v, Json::Str("a\"b\\c/\né😀".into()));
        assert_eq!(
            parse(r#""\ud800x""#).unwrap(),
            Json::Str("\u{fffd}x".into())
        );
        assert_eq!(parse(r#""\udc00""#).unwrap(), Json::Str("\u{fffd}".into()));
    }

    #[test]
    fn value_round_trip_and_enum_equality() {
        let v =
            parse(r#"{"a": [1, 2.5, "x", null, true], "b": {"c": 18446744073709551615}}"#).unwrap();
        let value = v.to_value();
        assert_eq!(Json::from_value(&value), v);
        assert!(Json::Int(1).same_as(&Json::Float(1.0)));
        assert!(!Json::Int(1).same_as(&Json::Bool(true)));
        assert!(
            parse(r#"{"a":1,"b":2}"#)
                .unwrap()
                .same_as(&parse(r#"{"b":2,"a":1}"#).unwrap())
        );
    }
}
