//! The pieces a JSON-lines reader steps through a case with: the top-level object's keys
//! and values one by one, and values skipped whole when their text is known.

use std::borrow::Cow;

use super::super::Json;
use super::{ParseError, Parser, plain_run};

impl<'a> Parser<'a> {
    /// Read `{` and report whether the object is empty (the `}` is then consumed too).
    pub(crate) fn open_object(&mut self) -> Result<bool, ParseError> {
        self.ws();
        if self.peek() != Some(b'{') {
            return Err(self.error(*self.fail("expected a JSON object")));
        }
        self.pos += 1;
        // The case object is a level of nesting, as it is for a reader of the whole line.
        self.depth += 1;
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
            return Err(self.error(*self.fail("expected a key in double quotes")));
        }
        let k = self.string().map_err(|f| self.error(*f))?;
        self.ws();
        if self.peek() != Some(b':') {
            return Err(self.error(*self.fail("expected ':' after the key")));
        }
        self.pos += 1;
        self.ws();
        Ok(k)
    }

    /// Read one value.
    pub(crate) fn next_value(&mut self) -> Result<Json<'a>, ParseError> {
        self.ws();
        self.value().map_err(|f| self.error(*f))
    }

    /// Read one value, returning it with its raw text.
    pub(crate) fn value_with_text(&mut self) -> Result<(Json<'a>, &'a str), ParseError> {
        self.ws();
        let start = self.pos;
        let v = self.value().map_err(|f| self.error(*f))?;
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

    /// The raw text of the object or array at the cursor, found by matching its brackets
    /// (strings skipped whole) without reading it: the cursor moves past it. `None`, and the
    /// cursor left alone, when there is no complete object or array there. The text is not
    /// checked to be JSON: only a text already read strictly may be taken on its word.
    pub(crate) fn skip_raw(&mut self) -> Option<&'a str> {
        self.ws();
        let (b, start) = (self.bytes, self.pos);
        if !matches!(b.get(start), Some(b'{' | b'[')) {
            return None;
        }
        let mut depth = 0usize;
        let mut i = start;
        while let Some(&c) = b.get(i) {
            match c {
                b'"' => {
                    i += 1;
                    loop {
                        // Plain text eight bytes at a time (short strings are the rule,
                        // too short for a call to pay).
                        i = plain_run(b, i);
                        match b.get(i)? {
                            b'\\' => i += 2,
                            b'"' => break,
                            _ => i += 1,
                        }
                    }
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = i + 1;
                        return Some(&self.src[start..i + 1]);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// The next `n` bytes (fewer at the end of the text) of the value at the cursor, which
    /// is moved past whitespace.
    pub(crate) fn ahead(&mut self, n: usize) -> &'a [u8] {
        self.ws();
        let b = self.bytes;
        &b[self.pos..b.len().min(self.pos + n)]
    }

    /// Put the cursor back at byte `pos` (an offset [`Parser::offset`] gave).
    pub(crate) fn rewind(&mut self, pos: usize) {
        self.pos = pos;
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
                    return Err(self.error(*self.fail(crate::validate::json::TRAILING)));
                }
                Ok(false)
            }
            None => Err(self.error(*self.fail("unterminated object, expected ',' or '}'"))),
            Some(_) => Err(self.error(*self.fail("expected ',' or '}' after an object member"))),
        }
    }
}
