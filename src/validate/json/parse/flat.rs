//! A flat object read for what a shallow schema looks at: each member's key, the kind of
//! its value and the value's text, straight from the text, nothing built. Most tool calls
//! are such an object (`{"city": "Paris", "days": 3}`), and their verdict needs no more of
//! them; a value a schema checks more closely is built from its text alone ([`flat_value`]).
//!
//! Only the plainest objects are read this way: keys and strings without escapes, values
//! that are strings, numbers, `true`, `false` or `null`, at most [`FLAT_MAX`] members, no
//! key twice. Anything else, and any text that is not JSON, gives `None`, and the caller
//! reads the object with [`super::Parser`] as always, which also words every error.

use std::borrow::Cow;

use crate::validate::json::Json;
use crate::validate::json::kind;

use super::{parse, plain_run, skip_ws as ws};

/// The most members an object read this way may have.
pub(crate) const FLAT_MAX: usize = 16;

/// A member of a flat object: its key, the kind of its value ([`kind`] bits), and the
/// value's text (a string's without its quotes).
pub(crate) type FlatMember<'a> = (&'a str, u8, &'a str);

/// The members of a flat object.
type FlatMembers<'a> = [FlatMember<'a>; FLAT_MAX];

/// Read the object that starts at byte `at` of `text` into `out`. Gives how many members it
/// has and where it ends (just past its `}`), or `None` when it is not a flat object (see
/// the module's note).
pub(crate) fn flat_object<'a>(
    text: &'a str,
    at: usize,
    out: &mut FlatMembers<'a>,
) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    if b.get(at) != Some(&b'{') {
        return None;
    }
    let mut i = ws(b, at + 1);
    if b.get(i) == Some(&b'}') {
        return Some((0, i + 1));
    }
    let mut n = 0;
    loop {
        if n == FLAT_MAX || b.get(i) != Some(&b'"') {
            return None;
        }
        let (key, after) = plain_string(text, i)?;
        if out[..n]
            .iter()
            .any(|(k, _, _)| super::super::same_text(k, key))
        {
            return None;
        }
        i = ws(b, after);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = ws(b, i + 1);
        let (kind, value, after) = value_kind(text, i)?;
        out[n] = (key, kind, value);
        n += 1;
        i = ws(b, after);
        match b.get(i) {
            Some(b',') => i = ws(b, i + 1),
            Some(b'}') => return Some((n, i + 1)),
            _ => return None,
        }
    }
}

/// The value a flat member's kind and text stand for, as the reader would build it.
pub(crate) fn flat_value(kind: u8, text: &str) -> Option<Json<'_>> {
    match kind {
        kind::STR => Some(Json::Str(Cow::Borrowed(text))),
        kind::NULL => Some(Json::Null),
        kind::BOOL => Some(Json::Bool(text == "true")),
        _ => parse(text).ok(),
    }
}

/// The string whose opening quote is at `i`, when it has no escapes, and where it ends.
#[inline(always)]
pub(crate) fn plain_string(text: &str, i: usize) -> Option<(&str, usize)> {
    let end = plain_run(text.as_bytes(), i + 1);
    (text.as_bytes().get(end) == Some(&b'"')).then(|| (&text[i + 1..end], end + 1))
}

/// The kind of the value at `i`, its text (a string's without its quotes) and where it
/// ends, for a plain string, a number or a literal.
#[inline(always)]
pub(crate) fn value_kind(text: &str, i: usize) -> Option<(u8, &str, usize)> {
    let b = text.as_bytes();
    if b.get(i) == Some(&b'"') {
        return plain_string(text, i).map(|(s, end)| (kind::STR, s, end));
    }
    let (kind, end) = match *b.get(i)? {
        b'-' | b'0'..=b'9' => crate::validate::json::number::literal(b, i).ok(),
        b't' => literal(b, i, b"true", kind::BOOL),
        b'f' => literal(b, i, b"false", kind::BOOL),
        b'n' => literal(b, i, b"null", kind::NULL),
        _ => None,
    }?;
    Some((kind, &text[i..end], end))
}

fn literal(b: &[u8], i: usize, word: &[u8], k: u8) -> Option<(u8, usize)> {
    b[i..].starts_with(word).then_some((k, i + word.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::json::kind_of;
    use crate::validate::json::{Json, parse};

    fn read(text: &str) -> Option<Vec<(&str, u8)>> {
        read_values(text).map(|m| m.into_iter().map(|(k, kind, _)| (k, kind)).collect())
    }

    fn read_values(text: &str) -> Option<Vec<FlatMember<'_>>> {
        let mut out = [("", 0, ""); FLAT_MAX];
        let (n, end) = flat_object(text, 0, &mut out)?;
        assert_eq!(end, text.len(), "{text}");
        Some(out[..n].to_vec())
    }

    #[test]
    fn plain_objects_give_their_keys_and_kinds() {
        let got = read(
            r#"{ "a" : "x", "b":-0, "c": 1.5e3, "d": true, "e": null, "f": 12345678901234567890}"#,
        );
        assert_eq!(
            got,
            Some(vec![
                ("a", kind::STR),
                ("b", kind::INT),
                ("c", kind::FLOAT),
                ("d", kind::BOOL),
                ("e", kind::NULL),
                ("f", kind::INT),
            ])
        );
        let texts: Vec<&str> = read_values(r#"{"a": "x y", "b": -1.5e3, "c": false}"#)
            .unwrap()
            .into_iter()
            .map(|(_, _, t)| t)
            .collect();
        assert_eq!(texts, ["x y", "-1.5e3", "false"]);
        assert_eq!(read("{}"), Some(vec![]));
        assert_eq!(read("{ \n}"), Some(vec![]));
    }

    #[test]
    fn anything_else_is_left_to_the_reader() {
        for text in [
            r#"{"a": "x\n"}"#,
            r#"{"a\"": 1}"#,
            r#"{"a": [1]}"#,
            r#"{"a": {}}"#,
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": 01}"#,
            r#"{"a": 1.}"#,
            r#"{"a": 1e}"#,
            r#"{"a": -}"#,
            r#"{"a": tru}"#,
            r#"{"a": 1,}"#,
            r#"{"a" 1}"#,
            r#"{"a": 1"#,
            r#"{"a": "x	"}"#,
            "{'a': 1}",
            "[1]",
        ] {
            assert_eq!(read(text), None, "{text}");
        }
        let many: Vec<String> = (0..=FLAT_MAX).map(|i| format!("\"k{i}\": {i}")).collect();
        assert_eq!(read(&format!("{{{}}}", many.join(", "))), None);
    }

    proptest::proptest! {
        /// Whatever it reads, the reader reads alike: the same keys in the same order, each
        /// value of the same kind.
        #[test]
        fn it_agrees_with_the_reader(
            members in proptest::collection::vec(
                ("[a-c]{1,2}", proptest::prop_oneof![
                    proptest::strategy::Just("\"s\"".to_owned()),
                    "-?(0|[1-9][0-9]{0,20})(\\.[0-9]{1,3})?([eE][+-]?[0-9]{1,2})?",
                    proptest::strategy::Just("true".to_owned()),
                    proptest::strategy::Just("null".to_owned()),
                    proptest::strategy::Just("0x1".to_owned()),
                    proptest::strategy::Just("[]".to_owned()),
                ]),
                0..6,
            ),
            spaced in proptest::bool::ANY,
        ) {
            let sep = if spaced { " , " } else { "," };
            let body: Vec<String> = members.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
            let text = format!("{{{}}}", body.join(sep));
            let fast = read_values(&text);
            match parse(&text) {
                Ok(Json::Object(fields)) => {
                    let nested = fields.iter().any(|(_, v)| matches!(v, Json::Array(_) | Json::Object(_)));
                    if !nested {
                        let want: Vec<(&str, u8, Json<'_>)> =
                            fields.iter().map(|(k, v)| (k.as_ref(), kind_of(v), v.clone())).collect();
                        let got = fast.map(|m| {
                            m.into_iter().map(|(k, kind, t)| (k, kind, flat_value(kind, t).unwrap())).collect::<Vec<_>>()
                        });
                        proptest::prop_assert_eq!(got, Some(want));
                    } else {
                        proptest::prop_assert_eq!(fast, None);
                    }
                }
                _ => proptest::prop_assert_eq!(fast, None),
            }
        }
    }
}
