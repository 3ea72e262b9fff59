//! ECMA-262 pattern syntax with the `u` flag (ES2024, no Annex B), read into a tree.
//!
//! Everything the grammar and its early errors refuse is an error here: a quantifier on
//! nothing or on an assertion (`a**`, `\b+`, `(?=a)*`), a lone `{`, `}` or `]`, `{2,1}`, an
//! identity escape of anything but a syntax character or `/` (`\_`, `\-` outside a class),
//! `\c` without a letter, `\0` before a digit, a class escape at either end of a range, an
//! unknown or loosely spelled `\p{..}`, a backreference past the last group, `\k<name>` with
//! no such group, and a group name used twice.

use icu_properties::CodePointSetData;
use icu_properties::props::{IdContinue, IdStart};

use super::props::{self, Set};

/// Groups may nest this deep, as JSON may (`validate::json`); deeper is refused rather than
/// risk the stack. ECMA-262 sets no limit, so this is the one place where a valid `regex`
/// is refused.
const MAX_NESTING: usize = 128;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    Empty,
    /// One code point; a lone surrogate (`\uD800`) is kept as its number.
    Char(u32),
    Dot,
    Class(Class),
    /// `^` and `$` (no `m` flag: the start and end of the input).
    Start,
    End,
    WordBoundary {
        negated: bool,
    },
    Look(Box<Look>),
    /// A backreference (`\1`, `\k<name>`), checked to name a group.
    BackRef,
    /// `(...)`, `(?<name>...)` or `(?:...)`: grouping only, for matching.
    Group(Box<Node>),
    Repeat(Box<Repeat>),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Look {
    pub(super) behind: bool,
    pub(super) negated: bool,
    pub(super) body: Node,
}

/// `body{min,max}`; counts past `u32::MAX` are held at it, `max: None` is unbounded.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Repeat {
    pub(super) body: Node,
    pub(super) min: u32,
    pub(super) max: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Class {
    pub(super) negated: bool,
    pub(super) items: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Item {
    Range(u32, u32),
    Set { set: Set, negated: bool },
}

/// The parsed pattern and what it holds, for deciding how to run it.
#[derive(Debug)]
pub(super) struct Parsed {
    pub(super) node: Node,
    pub(super) has_backrefs: bool,
}

/// Parse `src`; the error says what ECMA-262 refuses, and where.
pub(super) fn parse(src: &str) -> Result<Parsed, String> {
    let chars: Vec<char> = src.chars().collect();
    let mut p = Parser {
        groups: count_groups(&chars),
        chars,
        pos: 0,
        depth: 0,
        names: Vec::new(),
        named_refs: Vec::new(),
        has_backrefs: false,
    };
    let node = p.disjunction()?;
    if p.pos < p.chars.len() {
        // Only an unmatched `)` stops a disjunction early.
        return Err(p.at("an unmatched ')'"));
    }
    for name in &p.named_refs {
        if !p.names.contains(name) {
            return Err(format!("\\k<{name}> names no group"));
        }
    }
    Ok(Parsed {
        node,
        has_backrefs: p.has_backrefs,
    })
}

/// The number of capturing groups, which a backreference may name before they appear.
fn count_groups(chars: &[char]) -> usize {
    let (mut n, mut i, mut in_class) = (0, 0, false);
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' => in_class = true,
            ']' => in_class = false,
            '(' if !in_class => {
                let named = chars.get(i + 1) == Some(&'?')
                    && chars.get(i + 2) == Some(&'<')
                    && !matches!(chars.get(i + 3), Some('=' | '!'));
                n += usize::from(chars.get(i + 1) != Some(&'?') || named);
            }
            _ => {}
        }
        i += 1;
    }
    n
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
    groups: usize,
    names: Vec<String>,
    named_refs: Vec<String>,
    has_backrefs: bool,
}

fn is_syntax_char(c: char) -> bool {
    matches!(
        c,
        '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
    )
}

fn one(c: u32) -> Node {
    Node::Char(c)
}

fn set(set: Set, negated: bool) -> Node {
    Node::Class(Class {
        negated: false,
        items: vec![Item::Set { set, negated }],
    })
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        self.pos += usize::from(c.is_some());
        c
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(c);
        self.pos += usize::from(hit);
        hit
    }

    fn looking_at(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(self.pos + i) == Some(&c))
    }

    fn at(&self, what: &str) -> String {
        format!("{what} at character {}", self.pos + 1)
    }

    fn disjunction(&mut self) -> Result<Node, String> {
        let mut alts = vec![self.alternative()?];
        while self.eat('|') {
            alts.push(self.alternative()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alt(alts)
        })
    }

    fn alternative(&mut self) -> Result<Node, String> {
        let mut terms = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            terms.push(self.term()?);
        }
        Ok(match terms.len() {
            0 => Node::Empty,
            1 => terms.pop().unwrap_or(Node::Empty),
            _ => Node::Concat(terms),
        })
    }

    fn term(&mut self) -> Result<Node, String> {
        let start = self.pos;
        let (atom, quantifiable) = self.atom()?;
        let Some((min, max)) = self.quantifier()? else {
            return Ok(atom);
        };
        if !quantifiable {
            self.pos = start;
            return Err(self.at("a quantifier after an assertion, which has nothing to repeat"));
        }
        self.eat('?');
        Ok(Node::Repeat(Box::new(Repeat {
            body: atom,
            min,
            max,
        })))
    }

    /// One atom or assertion, and whether a quantifier may follow it.
    fn atom(&mut self) -> Result<(Node, bool), String> {
        let Some(c) = self.next() else {
            return Err(self.at("the pattern ends"));
        };
        Ok(match c {
            '^' => (Node::Start, false),
            '$' => (Node::End, false),
            '.' => (Node::Dot, true),
            '(' => self.group()?,
            '[' => (Node::Class(self.class()?), true),
            '\\' => self.atom_escape()?,
            '*' | '+' | '?' | '{' => {
                self.pos -= 1;
                return Err(self.at(&format!("{c:?} has nothing to repeat")));
            }
            ']' | '}' => {
                self.pos -= 1;
                return Err(self.at(&format!("a lone {c:?} (write \\{c} for the character)")));
            }
            other => (one(u32::from(other)), true),
        })
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` as (min, max); `None` if none is here.
    fn quantifier(&mut self) -> Result<Option<(u32, Option<u32>)>, String> {
        let q = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => return self.braces().map(Some),
            _ => return Ok(None),
        };
        self.pos += 1;
        Ok(Some(q))
    }

    fn braces(&mut self) -> Result<(u32, Option<u32>), String> {
        let start = self.pos;
        self.pos += 1;
        let lo = self.decimal();
        let hi = if self.eat(',') {
            self.decimal()
        } else {
            lo.clone()
        };
        let (Some(lo), true) = (lo, self.eat('}')) else {
            self.pos = start;
            return Err(self.at("a '{' that starts no quantifier {n}, {n,} or {n,m}"));
        };
        if hi.as_deref().is_some_and(|hi| bigger(&lo, hi)) {
            self.pos = start;
            return Err(self.at("a quantifier {n,m} with n greater than m"));
        }
        Ok((saturate(&lo), hi.as_deref().map(saturate)))
    }

    /// The digits here, if any, without their leading zeros.
    fn decimal(&mut self) -> Option<String> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.pos == start {
            return None;
        }
        let digits: String = self.chars[start..self.pos].iter().collect();
        let trimmed = digits.trim_start_matches('0');
        Some(if trimmed.is_empty() { "0" } else { trimmed }.to_owned())
    }

    /// After `(`.
    fn group(&mut self) -> Result<(Node, bool), String> {
        if self.depth >= MAX_NESTING {
            return Err(self.at(&format!("groups nested more than {MAX_NESTING} deep")));
        }
        let look = if self.looking_at("?=") || self.looking_at("?!") {
            Some(false)
        } else if self.looking_at("?<=") || self.looking_at("?<!") {
            Some(true)
        } else {
            None
        };
        if let Some(behind) = look {
            self.pos += if behind { 2 } else { 1 };
            let negated = self.next() == Some('!');
            let body = self.group_body()?;
            let node = Node::Look(Box::new(Look {
                behind,
                negated,
                body,
            }));
            return Ok((node, false));
        }
        if self.looking_at("?:") {
            self.pos += 2;
        } else if self.looking_at("?<") {
            self.pos += 2;
            let name = self.group_name()?;
            if self.names.contains(&name) {
                return Err(self.at(&format!(
                    "the group name {} is used twice",
                    crate::sanitize::quote(&name)
                )));
            }
            self.names.push(name);
        } else if self.peek() == Some('?') {
            return Err(self.at(
                "\"(?\" that starts no (?:, (?=, (?!, (?<=, (?<! or (?<name> \
                 (inline flags are not ECMA-262)",
            ));
        }
        Ok((Node::Group(Box::new(self.group_body()?)), true))
    }

    fn group_body(&mut self) -> Result<Node, String> {
        self.depth += 1;
        let body = self.disjunction()?;
        self.depth -= 1;
        if !self.eat(')') {
            return Err(self.at("an unclosed '('"));
        }
        Ok(body)
    }

    /// After `<`: a name (ID_Start or `$` `_`, then ID_Continue, `$`, ZWNJ, ZWJ; `\u`
    /// escapes allowed), then `>`.
    fn group_name(&mut self) -> Result<String, String> {
        let mut name = String::new();
        loop {
            let c = match self.next() {
                Some('>') if !name.is_empty() => return Ok(name),
                Some('\\') if self.eat('u') => self.unicode_escape()?,
                Some(c) => u32::from(c),
                None => return Err(self.at("an unterminated group name")),
            };
            let ok = char::from_u32(c).is_some_and(|c| {
                if name.is_empty() {
                    c == '$' || c == '_' || CodePointSetData::new::<IdStart>().contains(c)
                } else {
                    matches!(c, '$' | '\u{200C}' | '\u{200D}')
                        || CodePointSetData::new::<IdContinue>().contains(c)
                }
            });
            if !ok {
                return Err(self.at("a group name that is not an identifier"));
            }
            name.extend(char::from_u32(c));
        }
    }

    /// After `\` outside a class.
    fn atom_escape(&mut self) -> Result<(Node, bool), String> {
        let Some(c) = self.peek() else {
            return Err(self.at("a lone '\\' at the end"));
        };
        Ok(match c {
            'b' | 'B' => {
                self.pos += 1;
                (Node::WordBoundary { negated: c == 'B' }, false)
            }
            '1'..='9' => {
                let n = self.decimal().map_or(u32::MAX, |d| saturate(&d));
                if n as usize > self.groups {
                    return Err(self.at(&format!("\\{n} refers past the last group")));
                }
                self.has_backrefs = true;
                (Node::BackRef, true)
            }
            'k' => {
                self.pos += 1;
                if !self.eat('<') {
                    return Err(self.at("\\k must be followed by <name>"));
                }
                let name = self.group_name()?;
                self.named_refs.push(name);
                self.has_backrefs = true;
                (Node::BackRef, true)
            }
            _ => match self.class_escape(false)? {
                Item::Range(c, _) => (one(c), true),
                Item::Set { set: s, negated } => (set(s, negated), true),
            },
        })
    }

    /// After `\`, the escapes that mean one character or one set, inside a class or out.
    fn class_escape(&mut self, in_class: bool) -> Result<Item, String> {
        let c = self
            .next()
            .ok_or_else(|| self.at("a lone '\\' at the end"))?;
        let negated = c.is_ascii_uppercase();
        let set = match c.to_ascii_lowercase() {
            'd' => Some(Set::Digit),
            'w' => Some(Set::Word),
            's' => Some(Set::Space),
            'p' => Some(self.property(c)?),
            _ => None,
        };
        if let Some(set) = set {
            return Ok(Item::Set { set, negated });
        }
        let ch = match c {
            't' => 0x09,
            'n' => 0x0A,
            'v' => 0x0B,
            'f' => 0x0C,
            'r' => 0x0D,
            'b' if in_class => 0x08,
            '-' if in_class => u32::from('-'),
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => 0,
            'c' => match self.next() {
                Some(l) if l.is_ascii_alphabetic() => u32::from(l) % 32,
                _ => return Err(self.at("\\c must be followed by a letter")),
            },
            'x' => self
                .hex(2)
                .ok_or_else(|| self.at("\\x needs two hex digits"))?,
            'u' => self.unicode_escape()?,
            c if is_syntax_char(c) || c == '/' => u32::from(c),
            other => {
                self.pos -= 1;
                return Err(self.at(&format!(
                    "the escape \\{other}, which Unicode mode does not allow \
                     (only syntax characters and / may be escaped)"
                )));
            }
        };
        Ok(Item::Range(ch, ch))
    }

    /// After `\p` or `\P`.
    fn property(&mut self, p: char) -> Result<Set, String> {
        if !self.eat('{') {
            return Err(self.at(&format!("\\{p} must be followed by {{name}}")));
        }
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '=')
        {
            self.pos += 1;
        }
        let body: String = self.chars[start..self.pos].iter().collect();
        if !self.eat('}') || body.is_empty() {
            return Err(self.at(&format!("an unterminated \\{p}{{..}}")));
        }
        props::property(&body)
    }

    fn hex(&mut self, n: usize) -> Option<u32> {
        let digits = self.chars.get(self.pos..self.pos + n)?;
        let v = digits
            .iter()
            .try_fold(0u32, |v, c| Some(v * 16 + c.to_digit(16)?))?;
        self.pos += n;
        Some(v)
    }

    /// After `\u`: `XXXX` (a surrogate pair written as two escapes is one code point) or
    /// `{X...}` up to 10FFFF.
    fn unicode_escape(&mut self) -> Result<u32, String> {
        if self.eat('{') {
            let start = self.pos;
            let mut v = 0u32;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                v = v.saturating_mul(16).saturating_add(d);
                self.pos += 1;
            }
            if self.pos == start || v > 0x10FFFF || !self.eat('}') {
                return Err(self.at("\\u{..} needs a hex code point up to 10FFFF"));
            }
            return Ok(v);
        }
        let hi = self
            .hex(4)
            .ok_or_else(|| self.at("\\u needs four hex digits"))?;
        if (0xD800..0xDC00).contains(&hi) && self.looking_at("\\u") {
            let save = self.pos;
            self.pos += 2;
            match self.hex(4) {
                Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                    return Ok(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
                }
                _ => self.pos = save,
            }
        }
        Ok(hi)
    }

    /// After `[`: the class, up to and with its `]`.
    fn class(&mut self) -> Result<Class, String> {
        let negated = self.eat('^');
        let mut items = Vec::new();
        loop {
            let first = match self.next() {
                None => return Err(self.at("an unterminated character class")),
                Some(']') => break,
                Some(c) => self.class_atom(c)?,
            };
            let range =
                self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|&c| c != ']');
            if !range {
                items.push(first);
                continue;
            }
            self.pos += 1;
            let c = self.next().unwrap_or(']');
            let last = self.class_atom(c)?;
            match (first, last) {
                (Item::Range(a, _), Item::Range(b, _)) if a <= b => items.push(Item::Range(a, b)),
                (Item::Range(..), Item::Range(..)) => {
                    return Err(self.at("a class range out of order"));
                }
                _ => return Err(self.at("a class range that starts or ends with a class escape")),
            }
        }
        Ok(Class { negated, items })
    }

    fn class_atom(&mut self, c: char) -> Result<Item, String> {
        if c == '\\' {
            return self.class_escape(true);
        }
        Ok(Item::Range(u32::from(c), u32::from(c)))
    }
}

/// Is the decimal `a` greater than `b` (both without leading zeros)?
fn bigger(a: &str, b: &str) -> bool {
    (a.len(), a) > (b.len(), b)
}

fn saturate(digits: &str) -> u32 {
    digits.parse().unwrap_or(u32::MAX)
}
