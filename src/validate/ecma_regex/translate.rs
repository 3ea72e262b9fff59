//! A parsed ECMA-262 pattern written out for the regex crate, with every construct whose
//! meaning differs spelled out: `\d` `\w` `\s` as ECMA's sets, `\b` as the ASCII word
//! boundary, `.` as anything but the four line terminators, `[^]` as any code point.
//! Lone surrogates, which no string here can hold, match nothing.
//!
//! Lookaround has no regex-crate form, so it is honoured only where it splits into separate
//! whole-input matches: lookaheads right after a leading `^` (`^(?=.*\d)(?!.*\s).{8,}$`)
//! and lookbehinds right before a final `$`, in any top-level alternative. Each is then one
//! more linear-time match, at the start or the end of the value.

use super::parse::{Class, Item, Look, Node};
use super::props::Set;

/// ECMA-262 `\s`: WhiteSpace and LineTerminator, as class members for the regex crate.
const SPACE: &str = r"\t\n\x0B\x0C\r\x20\xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";
/// Every code point, and what `.` matches (anything but a line terminator).
const ANY: &str = r"[\x{0}-\x{10FFFF}]";
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";
const DOT: &str = r"[^\n\r\x{2028}\x{2029}]";
/// ASCII word boundaries are exactly ECMA-262's, which knows only [A-Za-z0-9_].
const WORD_BOUNDARY: &str = r"(?-u:\b)";
pub(super) const NOT_WORD_BOUNDARY: &str = r"(?-u:\B)";

/// One way for the pattern to match: every regex must match as `want` says.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Conjunction {
    pub(super) parts: Vec<(String, bool)>,
}

/// The pattern as regex-crate sources: it matches when any conjunction holds. A pattern
/// without lookaround is one conjunction of one source.
pub(super) fn plan(node: &Node) -> Result<Vec<Conjunction>, String> {
    let alts: Vec<&Node> = match node {
        Node::Alt(alts) => alts.iter().collect(),
        other => vec![other],
    };
    if !alts.iter().any(|a| has_look(a)) {
        return Ok(vec![Conjunction {
            parts: vec![(write(node), true)],
        }]);
    }
    let (plain, looking): (Vec<&Node>, Vec<&Node>) = alts.into_iter().partition(|a| !has_look(a));
    let mut out = Vec::new();
    if !plain.is_empty() {
        let sources: Vec<String> = plain.iter().map(|a| write(a)).collect();
        out.push(Conjunction {
            parts: vec![(format!("(?:{})", sources.join("|")), true)],
        });
    }
    for alt in looking {
        out.push(split(alt)?);
    }
    Ok(out)
}

fn has_look(node: &Node) -> bool {
    match node {
        Node::Look(_) => true,
        Node::Group(n) => has_look(n),
        Node::Repeat(r) => has_look(&r.body),
        Node::Concat(ns) | Node::Alt(ns) => ns.iter().any(has_look),
        _ => false,
    }
}

/// The terms of one alternative, with plain groups opened up (`(?:^(?=a)b)` is `^(?=a)b`).
fn terms(node: &Node) -> Vec<&Node> {
    match node {
        Node::Concat(ns) => ns.iter().flat_map(terms).collect(),
        Node::Group(n) if !matches!(**n, Node::Alt(_)) => terms(n),
        other => vec![other],
    }
}

/// One alternative with lookaround, as its conjunction.
fn split(alt: &Node) -> Result<Conjunction, String> {
    let t = terms(alt);
    let mut lo = 0;
    let mut hi = t.len();
    let mut parts = Vec::new();
    if t.first() == Some(&&Node::Start) {
        lo = 1;
        while let Some(Node::Look(look)) = t.get(lo) {
            if look.behind {
                break;
            }
            parts.push((format!("^(?:{})", look_body(look)?), !look.negated));
            lo += 1;
        }
    }
    if hi > lo && t.last() == Some(&&Node::End) {
        hi -= 1;
        while hi > lo {
            let Node::Look(look) = t[hi - 1] else { break };
            if !look.behind {
                break;
            }
            parts.push((format!("(?:{})$", look_body(look)?), !look.negated));
            hi -= 1;
        }
    }
    let middle = &t[lo..hi];
    if middle.iter().any(|n| has_look(n)) {
        return Err("lookahead is honoured only right after a leading ^ (as in \
                    ^(?=.*\\d).{8,}$) and lookbehind only right before a final $: \
                    anywhere else it needs a backtracking engine, which a crafted value \
                    could stall"
            .into());
    }
    let mut rest = String::new();
    if lo > 0 {
        rest.push('^');
    }
    rest.extend(middle.iter().map(|n| write(n)));
    if hi < t.len() {
        rest.push('$');
    }
    parts.insert(0, (rest, true));
    Ok(Conjunction { parts })
}

fn look_body(look: &Look) -> Result<String, String> {
    if has_look(&look.body) {
        return Err("lookaround inside lookaround is not supported".into());
    }
    Ok(write(&look.body))
}

/// The regex-crate source of a tree without lookaround.
pub(super) fn write(node: &Node) -> String {
    let mut out = String::new();
    emit(node, &mut out);
    out
}

fn emit(node: &Node, out: &mut String) {
    match node {
        Node::Empty | Node::Look(_) | Node::BackRef => {}
        Node::Char(c) => match char::from_u32(*c) {
            Some(c) => literal(c, out),
            None => out.push_str(NOTHING),
        },
        Node::Dot => out.push_str(DOT),
        Node::Class(class) => emit_class(class, out),
        Node::Start => out.push('^'),
        Node::End => out.push('$'),
        Node::WordBoundary { negated: false } => out.push_str(WORD_BOUNDARY),
        Node::WordBoundary { negated: true } => out.push_str(NOT_WORD_BOUNDARY),
        Node::Group(n) => {
            out.push_str("(?:");
            emit(n, out);
            out.push(')');
        }
        Node::Repeat(r) => {
            out.push_str("(?:");
            emit(&r.body, out);
            out.push(')');
            match (r.min, r.max) {
                (0, None) => out.push('*'),
                (1, None) => out.push('+'),
                (0, Some(1)) => out.push('?'),
                (n, None) => out.push_str(&format!("{{{n},}}")),
                (n, Some(m)) if n == m => out.push_str(&format!("{{{n}}}")),
                (n, Some(m)) => out.push_str(&format!("{{{n},{m}}}")),
            }
        }
        Node::Concat(ns) => ns.iter().for_each(|n| emit(n, out)),
        Node::Alt(ns) => {
            out.push_str("(?:");
            for (i, n) in ns.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                emit(n, out);
            }
            out.push(')');
        }
    }
}

fn emit_class(class: &Class, out: &mut String) {
    let mut members = String::new();
    for item in &class.items {
        match item {
            Item::Range(a, b) => range(*a, *b, &mut members),
            Item::Set { set, negated } => {
                let mut inner = String::new();
                match set {
                    Set::Digit => inner.push_str(DIGIT),
                    Set::Word => inner.push_str(WORD),
                    Set::Space => inner.push_str(SPACE),
                    Set::Property(name) => inner.push_str(&format!("\\p{{{name}}}")),
                    Set::Ranges(ranges) => {
                        ranges.iter().for_each(|&(a, b)| range(a, b, &mut inner))
                    }
                }
                match (inner.is_empty(), negated) {
                    (true, false) => members.push_str(NOTHING),
                    (true, true) => members.push_str(ANY),
                    (false, false) => members.push_str(&format!("[{inner}]")),
                    (false, true) => members.push_str(&format!("[^{inner}]")),
                }
            }
        }
    }
    match (members.is_empty(), class.negated) {
        // `[]` matches nothing and `[^]` any code point.
        (true, false) => out.push_str(NOTHING),
        (true, true) => out.push_str(ANY),
        (false, false) => out.push_str(&format!("[{members}]")),
        (false, true) => out.push_str(&format!("[^{members}]")),
    }
}

/// The code points `a..=b` outside the surrogates, as class members.
fn range(a: u32, b: u32, out: &mut String) {
    let mut piece = |lo: u32, hi: u32| {
        if let (Some(lo), Some(hi)) = (char::from_u32(lo), char::from_u32(hi)) {
            literal(lo, out);
            if hi != lo {
                out.push('-');
                literal(hi, out);
            }
        }
    };
    if a < 0xD800 {
        piece(a, b.min(0xD7FF));
    }
    if b > 0xDFFF {
        piece(a.max(0xE000), b);
    }
}

/// A character for the regex crate: ASCII letters and digits as they are, everything else
/// as a hex escape, which means the same inside a class and out.
fn literal(c: char, out: &mut String) {
    if c.is_ascii_alphanumeric() {
        out.push(c);
    } else {
        out.push_str(&format!("\\x{{{:X}}}", u32::from(c)));
    }
}
