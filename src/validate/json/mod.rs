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
//!
//! `parse.rs` holds the reader; `owned.rs` the owned copies compiled schemas keep and the
//! exact text messages show; `file.rs` reads a whole file the user wrote into a type.

use std::borrow::Cow;

use serde_json::Value;

mod file;
pub mod number;
mod owned;
mod parse;

pub(crate) use file::{JsonFile, parse_json_file};
pub use parse::ParseError;
pub(crate) use parse::flat::{
    FLAT_MAX, FlatMember, flat_object, flat_value, plain_string, value_kind,
};
pub(crate) use parse::{Field, Parser, plain_run, recycle, skip_ws};
pub use parse::{parse, parse_allowing_duplicates};

/// Deepest nesting of arrays and objects accepted (the same limit serde_json uses).
pub const MAX_DEPTH: usize = 128;

/// The parse error for text after a whole value.
pub(crate) const TRAILING: &str = "trailing characters after the JSON value";

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

/// Bits of a `type` keyword's mask, one per kind of JSON value as the reader tells them apart.
pub(crate) mod kind {
    pub(crate) const NULL: u8 = 1;
    pub(crate) const BOOL: u8 = 2;
    /// An integer literal (any size).
    pub(crate) const INT: u8 = 4;
    /// A literal with a fraction or an exponent.
    pub(crate) const FLOAT: u8 = 8;
    pub(crate) const STR: u8 = 16;
    pub(crate) const ARRAY: u8 = 32;
    pub(crate) const OBJECT: u8 = 64;
}

/// The kind bit of a value.
#[inline]
pub(crate) fn kind_of(v: &Json<'_>) -> u8 {
    match v {
        Json::Null => kind::NULL,
        Json::Bool(_) => kind::BOOL,
        Json::Int(_) | Json::BigInt(_) => kind::INT,
        Json::Float(_) => kind::FLOAT,
        Json::Str(_) => kind::STR,
        Json::Array(_) => kind::ARRAY,
        Json::Object(_) => kind::OBJECT,
    }
}

/// The kind bit of a serde value (a whole number is an integer literal, as serde read it).
pub(crate) fn kind_of_value(v: &Value) -> u8 {
    match v {
        Value::Null => kind::NULL,
        Value::Bool(_) => kind::BOOL,
        Value::Number(n) if n.is_i64() || n.is_u64() => kind::INT,
        Value::Number(_) => kind::FLOAT,
        Value::String(_) => kind::STR,
        Value::Array(_) => kind::ARRAY,
        Value::Object(_) => kind::OBJECT,
    }
}

/// A value of kind bit `k` in words, as a message names what it found (`an array`,
/// `a boolean`).
pub(crate) fn kind_words(k: u8) -> &'static str {
    match k {
        kind::NULL => "null",
        kind::BOOL => "a boolean",
        kind::INT | kind::FLOAT => "a number",
        kind::STR => "a string",
        kind::ARRAY => "an array",
        _ => "an object",
    }
}

/// Python's name for the type of a value of kind bit `k` (as [`Json::py_type`] names a value).
pub(crate) fn py_type_of(k: u8) -> &'static str {
    match k {
        kind::NULL => "NoneType",
        kind::BOOL => "bool",
        kind::INT => "int",
        kind::FLOAT => "float",
        kind::STR => "str",
        kind::ARRAY => "list",
        _ => "dict",
    }
}

impl<'a> Json<'a> {
    /// Python's name for the type `json.loads` gives this value.
    pub(crate) fn py_type(&self) -> &'static str {
        py_type_of(kind_of(self))
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
    pub(crate) fn same_as(&self, other: &Json<'_>) -> bool {
        match (self, other) {
            (Json::Null, Json::Null) => true,
            (Json::Bool(a), Json::Bool(b)) => a == b,
            (Json::Int(_) | Json::BigInt(_) | Json::Float(_), _) => number::equal(self, other),
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

/// `a == b`, quick for the short names of args: a call to compare memory costs more than
/// comparing a few bytes, and names of one length mostly differ in their first byte.
#[inline]
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    if a.len() <= 16 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    a == b
}

/// A float the way a reader expects it: `3.0`, `0.5`, `1e20`, `inf`.
pub(crate) fn show_f64(f: f64) -> String {
    if f.is_infinite() {
        if f > 0.0 { "inf".into() } else { "-inf".into() }
    } else {
        format!("{f:?}")
    }
}

/// Cut `s` to at most `max` characters, marking the cut.
pub(crate) fn cut(s: &str, max: usize) -> String {
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
pub(crate) fn dump_into(v: &Value, out: &mut String) {
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
pub(crate) fn push_str_json(s: &str, out: &mut String) {
    out.push('"');
    push_json_escaped(s, out);
    out.push('"');
}

/// Bytes [`push_json_escaped`] must look at: `"`, `\\`, controls, DEL, and the lead bytes of
/// the multi-byte characters a terminal may act on (C1, bidi, zero-width, BOM: 0xc2, 0xd8,
/// 0xe2, 0xef). Everything else is copied as it is, a whole run at a time.
const NOTICE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0x7f] = true;
    t[0xc2] = true;
    t[0xd8] = true;
    t[0xe2] = true;
    t[0xef] = true;
    t
};

/// Whether eight bytes are all printable ASCII other than `"` and `\\` (nothing to escape),
/// tested on the whole word at once.
#[inline(always)]
fn plain_ascii(word: &[u8]) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(LO) & !v & HI;
    let mut w = [0u8; 8];
    w.copy_from_slice(word);
    let w = u64::from_le_bytes(w);
    let below_space = w.wrapping_sub(LO * 0x20) & !w & HI;
    let special = has_zero(w ^ (LO * u64::from(b'"')))
        | has_zero(w ^ (LO * u64::from(b'\\')))
        | has_zero(w ^ (LO * 0x7f));
    (below_space | special | (w & HI)) == 0
}

/// Append the body of `s` as a JSON string literal would hold it (no quotes): `"`, `\\` and
/// controls escaped, and every character that steers a terminal as `\uXXXX`.
pub(crate) fn push_json_escaped(s: &str, out: &mut String) {
    use std::fmt::Write as _;
    let bytes = s.as_bytes();
    let mut run = 0;
    let mut i = 0;
    loop {
        while i < bytes.len() {
            if let Some(word) = bytes.get(i..i + 8) {
                if plain_ascii(word) {
                    i += 8;
                    continue;
                }
            }
            if NOTICE[usize::from(bytes[i])] {
                break;
            }
            i += 1;
        }
        let Some(&b) = bytes.get(i) else { break };
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f | 0x7f => "",
            _ => {
                // A lead byte: look at the whole character.
                match s[i..].chars().next() {
                    Some(ch) if crate::sanitize::steers_terminal(ch) => {
                        out.push_str(&s[run..i]);
                        crate::sanitize::push_json_escape(ch, out);
                        i += ch.len_utf8();
                        run = i;
                    }
                    _ => i += 1,
                }
                continue;
            }
        };
        out.push_str(&s[run..i]);
        if esc.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(esc);
        }
        i += 1;
        run = i;
    }
    out.push_str(&s[run..]);
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
    fn members_read_in_line_read_as_any_value() {
        // Object members that are strings or small integers take a shorter path; the same
        // text as an array item takes the general one. Both must agree, errors included.
        let texts = [
            "0",
            "-0",
            "7",
            "-12",
            "01",
            "-",
            "-a",
            "1.5",
            "1e2",
            "2E-1",
            "-0.0",
            "123456789012345678",
            "-123456789012345678",
            "1234567890123456789",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775809",
            "12345678901234567890123",
            "\"x\"",
            "\"a\\nb\"",
            "\"\\u00e9\"",
            "\"open",
            "\"ctl\u{1}\"",
            "true",
            "null",
            "[1]",
            "{\"b\": 2}",
            "1 ",
            "2,",
            "3}",
        ];
        for t in texts {
            let member = parse(&format!("{{\"a\": {t}}}"))
                .map(|v| v.get("a").map(|a| a.clone().into_owned()));
            let item = parse(&format!("[{t}]")).map(|v| match v {
                Json::Array(mut items) => items.pop().map(Json::into_owned),
                _ => None,
            });
            match (member, item) {
                (Ok(m), Ok(i)) => assert_eq!(m, i, "{t}"),
                (Err(_), Err(_)) => {}
                (m, i) => panic!("{t}: {m:?} / {i:?}"),
            }
        }
        // Repeats let through keep the first value, whatever it is.
        let v =
            parse_allowing_duplicates(r#"{"a": 1, "a": 2, "b": "x", "b": 3, "c": [1], "c": 4}"#);
        assert_eq!(
            v.unwrap().to_value(),
            serde_json::json!({"a": 1, "b": "x", "c": [1]})
        );
    }

    #[test]
    fn escaping_word_by_word_agrees_with_byte_by_byte() {
        // Every byte value in every position of a word, among plain text.
        let slow = |s: &str| {
            let mut out = String::new();
            for ch in s.chars() {
                match ch {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if (c as u32) < 0x20
                        || c == '\u{7f}'
                        || crate::sanitize::steers_terminal(c) =>
                    {
                        out.push_str(&format!("\\u{:04x}", c as u32))
                    }
                    c => out.push(c),
                }
            }
            out
        };
        let specials = [
            '"', '\\', '\n', '\u{1}', '\u{7f}', '\u{85}', 'é', '\u{202e}', '\u{feff}', '~', ' ',
        ];
        for at in 0..20 {
            for c in specials {
                let mut s: String = "abcdefghijklmnopqrstuvwxyz".chars().take(at).collect();
                s.push(c);
                s.push_str("0123456789");
                let mut fast = String::new();
                push_json_escaped(&s, &mut fast);
                assert_eq!(fast, slow(&s), "{s:?}");
            }
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
