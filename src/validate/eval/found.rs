//! A failure as the explaining pass finds it: its phase, the path of the value it is about,
//! and its message still in pieces, so a caller that only writes it out (the JSON-lines
//! verdicts) never builds an owned message for a flat schema.
//!
//! Messages: `missing required arg: PATH`, `unknown arg: PATH`, `type error: PATH expected
//! T, got U`, `value error: PATH ...`. PATH is the member's name at the top (the seed's
//! messages, byte for byte), `a.b` and `a[2].b` deeper; a key that would read as path syntax
//! is quoted (`a["x.y"]`). A failure about the whole value names it `args` (a tool call's
//! arguments) or `value` (any other value).

use std::borrow::Cow;

use crate::validate::CheckKind;
use crate::validate::json::{push_json_escaped, push_str_json};

/// One step of a path into a value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Seg<'x> {
    Key(&'x str),
    Index(usize),
}

/// A path rendered for messages.
pub(crate) fn render(segs: &[Seg<'_>]) -> Cow<'static, str> {
    let mut out = String::new();
    for (i, s) in segs.iter().enumerate() {
        match s {
            Seg::Key(k) if i == 0 => out.push_str(k),
            Seg::Key(k) if plain_key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Seg::Key(k) => {
                out.push('[');
                push_str_json(k, &mut out);
                out.push(']');
            }
            Seg::Index(n) => {
                out.push('[');
                out.push_str(&n.to_string());
                out.push(']');
            }
        }
    }
    Cow::Owned(out)
}

/// A key that reads unambiguously after a `.`.
fn plain_key(k: &str) -> bool {
    !k.is_empty() && !k.contains(['.', '[', ']', ' ', '"'])
}

/// What failed, in the words of its message.
#[derive(Debug, Clone)]
pub(crate) enum What<'x> {
    /// `missing required arg: PATH` (PATH names the missing member).
    Missing,
    /// `missing required arg: PATH (NOTE)`.
    MissingWith(String),
    /// `unknown arg: PATH`.
    Unknown,
    /// `type error: SUBJECT expected T, got U`.
    Type {
        expected: Cow<'x, str>,
        got: &'static str,
    },
    /// `value error: SUBJECT TEXT`.
    Value(String),
    /// A whole message (a parse failure, args that are no object).
    Whole(String),
}

/// One failure, found.
#[derive(Debug, Clone)]
pub(crate) struct Found<'x> {
    pub(crate) kind: CheckKind,
    /// The path of the value it is about (empty: the whole value).
    pub(crate) path: Cow<'x, str>,
    /// How a type or value message names the value, when not by its path.
    pub(crate) subject: Option<String>,
    pub(crate) what: What<'x>,
}

impl Found<'_> {
    /// The word for the whole value in messages.
    fn subject<'s>(&'s self, root: &'s str) -> &'s str {
        match &self.subject {
            Some(s) => s,
            None if self.path.is_empty() => root,
            None => &self.path,
        }
    }

    /// The message, written into `out` by `push` (which escapes or not).
    fn pieces(&self, root: &str, push: &mut dyn FnMut(&str)) {
        match &self.what {
            What::Missing => {
                push("missing required arg: ");
                push(&self.path);
            }
            What::MissingWith(note) => {
                push("missing required arg: ");
                push(&self.path);
                push(" (");
                push(note);
                push(")");
            }
            What::Unknown => {
                push("unknown arg: ");
                push(&self.path);
            }
            What::Type { expected, got } => {
                push("type error: ");
                push(self.subject(root));
                push(" expected ");
                push(expected);
                push(", got ");
                push(got);
            }
            What::Value(text) => {
                push("value error: ");
                push(self.subject(root));
                push(" ");
                push(text);
            }
            What::Whole(text) => push(text),
        }
    }

    pub(crate) fn message(&self, root: &str) -> String {
        let mut s = String::new();
        self.pieces(root, &mut |p| s.push_str(p));
        s
    }

    /// Append the message as a JSON string literal (the pieces are whole characters, so
    /// each escapes alone).
    pub(crate) fn push_message_json(&self, root: &str, out: &mut String) {
        out.push('"');
        self.pieces(root, &mut |p| push_json_escaped(p, out));
        out.push('"');
    }
}
