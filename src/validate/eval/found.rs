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

/// A piece of a message: its own words (plain ASCII: written as they are), or a name or
/// value from a schema or a call (escaped where it is written as JSON).
#[derive(Clone, Copy)]
enum Piece<'s> {
    Lit(&'static str),
    Text(&'s str),
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

    /// The message, handed to `push` piece by piece.
    fn pieces<'s>(&'s self, root: &'s str, push: &mut dyn FnMut(Piece<'s>)) {
        use Piece::{Lit, Text};
        match &self.what {
            What::Missing => {
                push(Lit("missing required arg: "));
                push(Text(&self.path));
            }
            What::MissingWith(note) => {
                push(Lit("missing required arg: "));
                push(Text(&self.path));
                push(Lit(" ("));
                push(Text(note));
                push(Lit(")"));
            }
            What::Unknown => {
                push(Lit("unknown arg: "));
                push(Text(&self.path));
            }
            What::Type { expected, got } => {
                push(Lit("type error: "));
                push(Text(self.subject(root)));
                push(Lit(" expected "));
                push(Text(expected));
                push(Lit(", got "));
                push(Lit(got));
            }
            What::Value(value) => {
                push(Lit("value error: "));
                push(Text(self.subject(root)));
                push(Lit(" "));
                push(Text(value));
            }
            What::Whole(whole) => push(Text(whole)),
        }
    }

    pub(crate) fn message(&self, root: &str) -> String {
        let mut s = String::new();
        self.pieces(root, &mut |p| match p {
            Piece::Lit(t) | Piece::Text(t) => s.push_str(t),
        });
        s
    }

    /// Append the message as a JSON string literal (the pieces are whole characters, so
    /// each escapes alone).
    pub(crate) fn push_message_json(&self, root: &str, out: &mut String) {
        out.push('"');
        self.pieces(root, &mut |p| match p {
            // The message's own words need no escapes.
            Piece::Lit(t) => out.push_str(t),
            Piece::Text(t) => push_json_escaped(t, out),
        });
        out.push('"');
    }
}
