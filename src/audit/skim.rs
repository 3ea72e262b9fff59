//! Where a record keeps its declarations, found without reading the record: a log of one
//! agent sends the same `tools` with every request, often half of each line. The text is
//! skimmed for the byte range of the top-level `tools` and `tool` members and of
//! `request.tools`; when one holds exactly the text of declarations compiled before, it is
//! put aside (the record is parsed with `null`, or the tool's name, in its place) and the
//! compiled declarations are used. The skim only locates; the record is still read by the
//! strict reader, so anything malformed is still found there.

use std::ops::Range;
use std::sync::Arc;

use super::declared::Catalog;
use crate::validate::json::{plain_run, push_str_json, skip_ws as ws};

/// Which member a range is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Member {
    /// `tools` at the top or in `request`: a list of declarations.
    Tools,
    /// `tool` at the top: one declaration (a record of one call).
    Tool,
}

/// The declaration members of `text`, an object (at the top, and inside `request`). A value
/// that starts with the text of declarations compiled before (`known`) is that value: it is
/// passed over by its length, not scanned (a log of one agent repeats its declarations).
pub fn declarations(text: &str, known: &Known) -> Vec<(Member, Range<usize>)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let Some(top) = members(b, ws(b, 0), known) else {
        return out;
    };
    for (key, value) in top {
        match &b[key.clone()] {
            b"tools" => out.push((Member::Tools, value)),
            b"tool" if b.get(value.start) == Some(&b'{') => out.push((Member::Tool, value)),
            b"request" => {
                for (k, v) in members(b, value.start, known).unwrap_or_default() {
                    if &b[k] == b"tools" {
                        out.push((Member::Tools, v));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The bytes that shape a container: quotes and brackets.
const STRUCTURE: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'{' as usize] = true;
    t[b'[' as usize] = true;
    t[b'}' as usize] = true;
    t[b']' as usize] = true;
    t
};

/// The end of the string starting with the quote at `i` (just past its closing quote). The
/// runs between escapes are found eight bytes at a time (`plain_run`, which also stops at a
/// control character: not JSON, but the skim only locates, so it steps over it).
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        j = plain_run(b, j);
        match b.get(j)? {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
}

/// The end of the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                // Only quotes and brackets matter: the bytes between are passed over.
                j += b
                    .get(j..)?
                    .iter()
                    .position(|c| STRUCTURE[usize::from(*c)])?;
                match b[j] {
                    b'"' => {
                        j = string_end(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    _ => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while b
                .get(j)
                .is_some_and(|c| !matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
            {
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// The members of the object at `i`: each key's range (inside its quotes) and its value's.
fn members(b: &[u8], i: usize, known: &Known) -> Option<Vec<(Range<usize>, Range<usize>)>> {
    let mut walk = Walk::open(b, i, known)?;
    let mut out = Vec::new();
    while let Some(member) = walk.step()? {
        out.push(member);
    }
    Some(out)
}

/// The members of one object, skimmed one at a time.
struct Walk<'a> {
    b: &'a [u8],
    known: &'a Known,
    /// Where the next member's key starts (`None` past the last).
    at: Option<usize>,
    /// The known text the last value is (its index in `known`), if it is one.
    known_at: Option<usize>,
}

impl<'a> Walk<'a> {
    /// The object at `i`, if there is one.
    fn open(b: &'a [u8], i: usize, known: &'a Known) -> Option<Walk<'a>> {
        if b.get(i) != Some(&b'{') {
            return None;
        }
        let j = ws(b, i + 1);
        let at = (b.get(j) != Some(&b'}')).then_some(j);
        Some(Walk {
            b,
            known,
            at,
            known_at: None,
        })
    }

    /// The next member, its key's range (inside its quotes) and its value's: `Some(None)`
    /// past the last, `None` when the text is not an object the skim can follow.
    fn step(&mut self) -> Option<Option<(Range<usize>, Range<usize>)>> {
        let Some(mut j) = self.at else {
            return Some(None);
        };
        let b = self.b;
        if b.get(j) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(b, j)?;
        let key = j + 1..key_end - 1;
        j = ws(b, key_end);
        if b.get(j) != Some(&b':') {
            return None;
        }
        j = ws(b, j + 1);
        self.known_at = self.known.at(&b[j..]);
        let end = match self.known_at {
            Some(k) => j + self.known.kept[k].0.len(),
            None => value_end(b, j)?,
        };
        let after = ws(b, end);
        self.at = match b.get(after)? {
            b',' => Some(ws(b, after + 1)),
            b'}' => None,
            _ => return None,
        };
        Some(Some((key, j..end)))
    }
}

/// A declaration member whose value is the text of declarations compiled before.
#[derive(Debug)]
pub struct Found<'k> {
    pub member: Member,
    /// Where its value is.
    pub range: Range<usize>,
    pub catalog: &'k Arc<Catalog>,
    /// The name of a single declaration, as a JSON string.
    pub name: Option<&'k str>,
}

/// The first declaration member at the top of `text`, when its value is the text of
/// declarations compiled before. The members after it are left unskimmed, so whether it is
/// the record's only declaration member is for the caller to tell from the record once
/// read. `None` when the first is not known, or is in `request`.
pub fn first_known<'k>(text: &str, known: &'k Known) -> Option<Found<'k>> {
    let b = text.as_bytes();
    let mut walk = Walk::open(b, ws(b, 0), known)?;
    loop {
        let (key, value) = walk.step()??;
        let member = match &b[key] {
            b"tools" => Member::Tools,
            b"tool" if b.get(value.start) == Some(&b'{') => Member::Tool,
            b"request" => return None,
            _ => continue,
        };
        let (_, catalog, name) = &known.kept[walk.known_at?];
        return Some(Found {
            member,
            range: value,
            catalog,
            name: name.as_deref(),
        });
    }
}

/// The keys at the top of a record that may hold declarations (`request` may hold `tools`).
pub const DECLARING_KEYS: [&str; 3] = ["tools", "tool", "request"];

/// Declarations compiled before, by their exact text.
#[derive(Debug, Default)]
pub struct Known {
    /// Newest last: the text, its declarations, and (for one declaration) its tool's name
    /// as a JSON string.
    kept: Vec<(String, Arc<Catalog>, Option<String>)>,
}

/// How many texts to remember.
const KEPT: usize = 8;

impl Known {
    /// The declarations compiled from exactly `raw`, and the name of a single one as a JSON
    /// string.
    pub fn find(&self, raw: &str) -> Option<(&Arc<Catalog>, Option<&str>)> {
        self.kept
            .iter()
            .rev()
            .find(|(t, ..)| t == raw)
            .map(|(_, c, name)| (c, name.as_deref()))
    }

    /// The known text `rest` starts with, if one does (its index). Known texts are whole
    /// objects or arrays read strictly before, and such a text ends itself: a value that
    /// starts with one is exactly that one. A word from the middle of each is compared
    /// first: the declarations of one agent often share their first bytes.
    fn at(&self, rest: &[u8]) -> Option<usize> {
        if !matches!(rest.first(), Some(b'{' | b'[')) {
            return None;
        }
        self.kept.iter().rposition(|(t, ..)| {
            let t = t.as_bytes();
            let mid = t.len() / 2;
            t.first() == rest.first()
                && t.get(mid..mid + 8)
                    .is_none_or(|w| rest.get(mid..mid + 8) == Some(w))
                && rest.starts_with(t)
        })
    }

    pub fn keep(&mut self, raw: &str, catalog: Arc<Catalog>, name: Option<String>) {
        if self.find(raw).is_some() {
            return;
        }
        if self.kept.len() == KEPT {
            self.kept.remove(0);
        }
        let name = name.map(|n| {
            let mut json = String::with_capacity(n.len() + 2);
            push_str_json(&n, &mut json);
            json
        });
        self.kept.push((raw.to_owned(), catalog, name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ranges_of_the_declarations_at_the_top_and_in_the_request() {
        let text = r#" {"messages": [{"content": "\"tools\": [1]"}], "tools": [{"name": "a"}] ,
            "request": {"x": {"tools": 1}, "tools" : [ ]}, "tool": {"name": "b"}, "n": -1.5e3}"#;
        let found: Vec<(Member, &str)> = declarations(text, &Known::default())
            .into_iter()
            .map(|(m, r)| (m, &text[r]))
            .collect();
        assert_eq!(
            found,
            [
                (Member::Tools, r#"[{"name": "a"}]"#),
                (Member::Tools, "[ ]"),
                (Member::Tool, r#"{"name": "b"}"#)
            ]
        );
    }

    #[test]
    fn a_known_text_is_passed_over_by_its_length_and_a_near_one_is_scanned() {
        let mut known = Known::default();
        let decl = r#"[{"name": "a", "x": "]"}]"#;
        let catalog = Arc::new(Catalog::from_entries(&[]));
        known.keep(decl, catalog, None);
        // Known: a value that starts with it is exactly it (what follows is the next member).
        let text = format!(r#"{{"tools": {decl}, "messages": [{{"tools": 1}}]}}"#);
        let got = declarations(&text, &known);
        assert_eq!(got.len(), 1);
        assert_eq!(&text[got[0].1.clone()], decl);
        // Alike in its first bytes only, or a text it starts: read as always.
        for other in [
            r#"[{"name": "a", "x": "]"}, {"name": "b"}]"#,
            r#"[{"name": "ab"}]"#,
        ] {
            let text = format!(r#"{{"tools": {other}}}"#);
            let got = declarations(&text, &known);
            assert_eq!(&text[got[0].1.clone()], other);
            assert_eq!(got, declarations(&text, &Known::default()));
        }
    }

    #[test]
    fn the_first_declaration_member_is_found_alone_when_it_is_known() {
        let mut known = Known::default();
        let decl = r#"{"name": "get", "parameters": {"type": "object"}}"#;
        known.keep(
            decl,
            Arc::new(Catalog::from_entries(&[])),
            Some("g\"et".into()),
        );
        let name = Some(r#""g\"et""#);
        // Found at the first declaration member, after others, whatever follows it.
        for text in [
            format!(r#"{{"tool": {decl}, "arguments": "{{\"a\": 1}}"}}"#),
            format!(r#" {{"id": "x", "tool" : {decl} , "tools": [1], "oops"#),
        ] {
            let found = first_known(&text, &known).unwrap();
            assert_eq!(found.member, Member::Tool);
            assert_eq!((&text[found.range], found.name), (decl, name));
        }
        // Not when the first is unknown, is a name, or is in `request`.
        for text in [
            r#"{"tools": [], "tool": DECL}"#,
            r#"{"tool": "get", "x": DECL}"#,
            r#"{"request": {"tools": DECL}, "tool": DECL}"#,
            r#"{"a" 1, "tool": DECL}"#,
        ] {
            let text = text.replace("DECL", decl);
            assert!(first_known(&text, &known).is_none(), "{text}");
        }
        // A known text at a `tools` member: no name goes in its place.
        let text = format!(r#"{{"tools": {decl}}}"#);
        assert_eq!(first_known(&text, &known).unwrap().member, Member::Tools);
    }

    #[test]
    fn text_that_is_not_an_object_has_none() {
        for text in [
            "[1, 2]",
            r#"{"tools": ["#,
            r#"{"a" 1}"#,
            "",
            r#"{"tools": "x\"] {"#,
        ] {
            assert!(declarations(text, &Known::default()).is_empty(), "{text}");
        }
        assert!(declarations(r#"[{"tools": []}]"#, &Known::default()).is_empty());
    }
}
