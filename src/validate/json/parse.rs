//! The strict reader: JSON text to [`Json`], with positions in every error, repeated keys
//! refused and nesting capped at [`MAX_DEPTH`]; also a cursor the JSON-lines readers use to
//! pick a case apart member by member.

use std::borrow::Cow;

use super::{Json, MAX_DEPTH};

pub(crate) mod flat;
mod scan;
mod stacks;
mod step;

pub(crate) use scan::{plain_run, skip_ws};

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
    pub(crate) fn message(&self) -> String {
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

/// Internal error before the position is turned into line and column; boxed, so a result
/// is no bigger than its value (results are returned on every value read).
type Fail = Box<Failure>;

enum Failure {
    At(usize, Cow<'static, str>),
    /// Path segments, innermost first.
    Dup(Vec<String>),
}

/// Parse one complete JSON text (surrounding whitespace allowed).
pub fn parse(text: &str) -> Result<Json<'_>, ParseError> {
    let mut p = Parser::new(text);
    let result = p.document();
    result.map_err(|f| p.error(*f))
}

/// Parse like [`parse`], but let repeated keys through (the first value is kept). Only for
/// reading the envelope around model-written args that already failed with a repeat.
pub fn parse_allowing_duplicates(text: &str) -> Result<Json<'_>, ParseError> {
    let mut p = Parser::new(text);
    p.allow_duplicates = true;
    let result = p.document();
    result.map_err(|f| p.error(*f))
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
    /// Room the next object read fills (then empty again): a JSON-lines run hands back the
    /// members of one line's args for the next line's, instead of allocating anew.
    pub(crate) spare: Vec<Field<'a>>,
    /// The members and items of the objects and arrays being read, innermost last: each
    /// is moved out into a vector of its exact size once it closes, so reading allocates
    /// once per object or array instead of growing a vector for each.
    fields: Vec<Field<'a>>,
    items: Vec<Json<'a>>,
    /// The stacks came from the thread's last reader and go back to it (see [`STACKS`]).
    shared: bool,
}

/// A member of an object: its key and value.
pub(crate) type Field<'a> = (Cow<'a, str>, Json<'a>);

/// The same (empty) vector with its room kept, for values of another lifetime (`T` and `U`
/// are one type but for it): the empty vector's allocation is reused in place, as the
/// standard library does when collecting a vector's own iterator into items of the same
/// size.
pub(crate) fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter()
        .map(|_| -> U { unreachable!("the vector was just cleared") })
        .collect()
}

/// Room a string with escapes starts with, at most (it grows past it as it needs).
const STRING_ROOM: usize = 256;

type PResult<T> = Result<T, Fail>;

impl<'a> Parser<'a> {
    fn with_stacks(src: &'a str, fields: Vec<Field<'a>>, items: Vec<Json<'a>>) -> Self {
        Parser {
            src,
            bytes: src.as_bytes(),
            pos: 0,
            depth: 0,
            allow_duplicates: false,
            spare: Vec::new(),
            fields,
            items,
            shared: false,
        }
    }

    /// A cursor at byte `pos` of `src`, inside the top-level object (one level deep), as
    /// [`Parser::open_object`] and the members before `pos` would have left it. It reads
    /// what is left of one JSON line (mostly a call's flat args, with room handed in), so it
    /// starts with empty stacks rather than take the thread's: a line that needs none then
    /// costs nothing to begin or end.
    pub(crate) fn inside_object(src: &'a str, pos: usize) -> Self {
        let mut p = Parser::with_stacks(src, Vec::new(), Vec::new());
        p.pos = pos;
        p.depth = 1;
        p
    }

    /// The byte offset of the cursor.
    pub(crate) fn offset(&self) -> usize {
        self.pos
    }

    fn document(&mut self) -> PResult<Json<'a>> {
        self.ws();
        let v = self.value()?;
        self.ws();
        if self.pos < self.bytes.len() {
            return Err(self.fail(super::TRAILING));
        }
        Ok(v)
    }

    #[cold]
    fn fail(&self, what: &'static str) -> Fail {
        Box::new(Failure::At(self.pos, Cow::Borrowed(what)))
    }

    #[cold]
    fn error(&self, f: Failure) -> ParseError {
        match f {
            Failure::At(pos, what) => {
                let (line, column) = line_col(self.src, pos);
                ParseError::Syntax {
                    what: what.into_owned(),
                    line,
                    column,
                }
            }
            Failure::Dup(mut segs) => {
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
        self.pos = skip_ws(self.bytes, self.pos);
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
            return Err(Box::new(Failure::At(
                self.pos,
                Cow::Owned(format!("nesting deeper than {MAX_DEPTH} levels")),
            )));
        }
        Ok(())
    }

    fn object(&mut self) -> PResult<Json<'a>> {
        self.enter()?;
        self.pos += 1; // '{'
        let spare = std::mem::take(&mut self.spare);
        // Room handed over is filled in place (the args of a JSON-lines case: the first
        // object read); any other object is read onto the shared stack and moved out when
        // it closes.
        if spare.capacity() > 0 && self.fields.is_empty() {
            let stack = std::mem::replace(&mut self.fields, spare);
            let read = self.members(0);
            let fields = std::mem::replace(&mut self.fields, stack);
            return read.map(|()| Json::Object(fields));
        }
        let below = self.fields.len();
        let read = self.members(below);
        match read {
            Ok(()) => Ok(Json::Object(self.take_fields(below))),
            Err(e) => {
                self.fields.truncate(below);
                Err(e)
            }
        }
    }

    /// The members of an object after its `{`, onto [`Parser::fields`] above `below`,
    /// through the closing `}`.
    fn members(&mut self, below: usize) -> PResult<()> {
        let mut seen: Option<foldhash::HashSet<Cow<'a, str>>> = None;
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(());
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
            let fields = &self.fields[below..];
            let dup = match &mut seen {
                Some(set) => !set.insert(key.clone()),
                None => {
                    let d = fields.iter().any(|(k, _)| super::same_text(k, &key));
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
                return Err(Box::new(Failure::Dup(vec![key.into_owned()])));
            }
            self.ws();
            if self.peek() != Some(b':') {
                return Err(self.fail("expected ':' after the key"));
            }
            self.pos += 1;
            self.ws();
            // Strings and small integers (most members) are written straight into their
            // place; anything else, or a repeat let through, goes by `value`.
            if dup {
                self.value().map_err(|e| inside(e, key))?;
            } else if self.peek() == Some(b'"') {
                let s = self.string()?;
                self.fields.push((key, Json::Str(s)));
            } else if let Some(i) = self.small_int() {
                self.fields.push((key, Json::Int(i)));
            } else {
                match self.value() {
                    Ok(v) => self.fields.push((key, v)),
                    Err(e) => return Err(inside(e, key)),
                }
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                None => return Err(self.fail("unterminated object, expected ',' or '}'")),
                Some(_) => return Err(self.fail("expected ',' or '}' after an object member")),
            }
        }
    }

    fn array(&mut self) -> PResult<Json<'a>> {
        self.enter()?;
        self.pos += 1; // '['
        let below = self.items.len();
        match self.items(below) {
            Ok(()) => Ok(Json::Array(self.take_items(below))),
            Err(e) => {
                self.items.truncate(below);
                Err(e)
            }
        }
    }

    /// The items of an array after its `[`, onto [`Parser::items`] above `below`, through
    /// the closing `]`.
    fn items(&mut self, below: usize) -> PResult<()> {
        self.ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(());
        }
        loop {
            self.ws();
            let v = match self.value() {
                Ok(v) => v,
                Err(mut e) => {
                    if let Failure::Dup(segs) = &mut *e {
                        segs.push(format!("[{}]", self.items.len() - below));
                    }
                    return Err(e);
                }
            };
            self.items.push(v);
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    self.depth -= 1;
                    return Ok(());
                }
                None => return Err(self.fail("unterminated array, expected ',' or ']'")),
                Some(_) => return Err(self.fail("expected ',' or ']' after an array item")),
            }
        }
    }

    /// An integer of at most 18 digits (so it surely fits) at the cursor, read as
    /// [`Parser::number`] would read it; `None`, and the cursor left alone, for any other
    /// text (a fraction, an exponent, more digits, not a number).
    #[inline(always)]
    fn small_int(&mut self) -> Option<i64> {
        let b = self.bytes;
        let mut i = self.pos;
        let negative = b.get(i) == Some(&b'-');
        if negative {
            i += 1;
        }
        let first = i;
        let mut value: i64 = 0;
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while let Some(&d @ b'0'..=b'9') = b.get(i) {
                    if i - first == 18 {
                        return None;
                    }
                    value = value * 10 + i64::from(d - b'0');
                    i += 1;
                }
            }
            _ => return None,
        }
        if matches!(b.get(i), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        self.pos = i;
        Some(if negative { -value } else { value })
    }

    /// A string starting at the opening quote; borrowed when it has no escapes.
    #[inline(always)]
    fn string(&mut self) -> PResult<Cow<'a, str>> {
        self.pos += 1; // opening quote
        let start = self.pos;
        let end = plain_run(self.bytes, start);
        if self.bytes.get(end) == Some(&b'"') {
            self.pos = end + 1;
            return Ok(Cow::Borrowed(&self.src[start..end]));
        }
        let stop = (end < self.bytes.len()).then_some(end - start);
        self.string_slow(start, stop)
    }

    /// [`Parser::string`] past its first run of plain text: escapes, or an error.
    #[inline(never)]
    fn string_slow(&mut self, start: usize, stop: Option<usize>) -> PResult<Cow<'a, str>> {
        match stop {
            None => return Err(unterminated(start - 1)),
            Some(i) => {
                self.pos = start + i;
                if self.bytes[self.pos] != b'\\' {
                    return Err(self.fail("control character inside a string"));
                }
            }
        }
        // There are escapes: room for what the text has left, up to a few hundred bytes
        // (what most strings with escapes hold, such as a call's arguments as a string),
        // so that one allocation is mostly enough.
        let left = self.bytes.len() - start;
        let mut out = String::with_capacity(left.min(STRING_ROOM.max(self.pos - start + 16)));
        out.push_str(&self.src[start..self.pos]);
        loop {
            let run = self.pos;
            self.pos = plain_run(self.bytes, run);
            out.push_str(&self.src[run..self.pos]);
            match self.peek() {
                None => return Err(unterminated(start - 1)),
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
                        None => return Err(unterminated(start - 1)),
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

    #[inline]
    fn number(&mut self) -> PResult<Json<'a>> {
        let start = self.pos;
        let (k, end) = match super::number::literal(self.bytes, start) {
            Ok(found) => found,
            Err((at, what)) => {
                self.pos = at;
                return Err(self.fail(what));
            }
        };
        self.pos = end;
        let text = &self.src[start..end];
        if k == super::kind::FLOAT {
            // Overflow gives infinity, as Python's float() does.
            return Ok(Json::Float(text.parse::<f64>().unwrap_or(f64::INFINITY)));
        }
        let digits = text.strip_prefix('-').unwrap_or(text);
        if digits.len() <= 18 {
            // Surely fits: the value digit by digit.
            let value = digits
                .bytes()
                .fold(0i64, |v, d| v * 10 + i64::from(d - b'0'));
            Ok(Json::Int(if digits.len() < text.len() {
                -value
            } else {
                value
            }))
        } else {
            match text.parse::<i64>() {
                Ok(i) => Ok(Json::Int(i)),
                Err(_) => Ok(Json::BigInt(Cow::Borrowed(text))),
            }
        }
    }
}

/// A failure inside the value of member `key`: a repeated key's path gets the member's name.
#[cold]
fn inside(mut e: Fail, key: Cow<'_, str>) -> Fail {
    if let Failure::Dup(segs) = &mut *e {
        segs.push(key.into_owned());
    }
    e
}

#[cold]
fn unterminated(quote: usize) -> Fail {
    Box::new(Failure::At(quote, "unterminated string".into()))
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
    use super::Parser;

    #[test]
    fn skipping_by_brackets_ends_where_reading_does() {
        let texts = [
            r#"{"a": "x", "b": [1, {"c": "]}"}]}"#,
            r#"{"d": "a \"quoted\" }] word", "e": "\\"}"#,
            r#"[{"long": "abcdefghijklmnopqrstuvwxyz{[]}0123456789", "n": null}, "\u005d"]"#,
            r#"{"é": "ünïcødé text that runs on past a word or two", "t": true}"#,
            "{}",
            "[[[]]]",
        ];
        for t in texts {
            for tail in ["", ", \"args\": {}}", "}}]]"] {
                let line = format!("{t}{tail}");
                let read = Parser::new(&line).value_with_text().map(|(_, raw)| raw);
                let skipped = Parser::new(&line).skip_raw();
                assert_eq!(skipped, read.ok(), "{line}");
            }
        }
        // Text that never closes is no value.
        assert_eq!(Parser::new(r#"{"a": "}"#).skip_raw(), None);
        assert_eq!(Parser::new(r#"{"a": "\"#).skip_raw(), None);
    }
}
