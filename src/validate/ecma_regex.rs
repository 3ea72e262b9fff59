//! `pattern` with the meaning ECMA-262 gives it, as JSON Schema requires, compiled with the
//! `regex` crate.
//!
//! The two dialects agree on most syntax but not on the shorthand classes: in Rust `\d`,
//! `\w`, `\s` and `\b` are Unicode-aware (`\d` takes `١` and `４`, `\w` takes `é`), in
//! ECMA-262 `\d` is `[0-9]`, `\w` is `[A-Za-z0-9_]`, `\b` is the boundary of those, and `\s`
//! is a fixed list that has U+FEFF but not U+0085. `.` stops at four line terminators, not
//! one. So the source is read as ECMA-262 (Unicode mode: code points, `\p{..}` properties)
//! and written out again for the regex crate with every such construct spelled out.
//!
//! What the regex crate cannot do exactly is refused, never weakened: backreferences,
//! lookahead and lookbehind, inline flags, escapes ECMA-262 does not define, a lone
//! surrogate. Brace quantifiers must be complete (`{2}`, `{2,}`, `{2,5}`).

use regex::Regex;

/// ECMA-262 `\s`: WhiteSpace and LineTerminator, as class members for the regex crate.
const SPACE: &str = r"\t\n\x0B\x0C\r\x20\xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
/// ECMA-262 `\d` and `\w`.
const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";
/// Every code point (for `[^]`) and what `.` matches (anything but a line terminator).
const ANY: &str = r"\x{0}-\x{10FFFF}";
const DOT: &str = r"[^\n\r\x{2028}\x{2029}]";

/// A compiled pattern: what [`compile`] returns. Code outside this file names it only by
/// this alias and calls only `is_match(&str) -> bool` on it.
pub(crate) type Compiled = Regex;

/// Compile an ECMA-262 pattern. The error says what cannot be honoured.
pub(crate) fn compile(src: &str) -> Result<Compiled, String> {
    let rust = translate(src)?;
    Regex::new(&rust).map_err(|e| {
        let text = e.to_string();
        text.lines().last().unwrap_or("").trim().to_owned()
    })
}

/// The regex-crate spelling of an ECMA-262 pattern.
pub(crate) fn translate(src: &str) -> Result<String, String> {
    let mut r = Reader {
        chars: src.chars().collect(),
        pos: 0,
    };
    let mut out = String::with_capacity(src.len() + 16);
    while let Some(c) = r.next() {
        match c {
            '\\' => out.push_str(&r.escape_outside()?),
            '[' => out.push_str(&r.class()?),
            '(' => out.push_str(&r.group_open()?),
            '.' => out.push_str(DOT),
            '{' => out.push_str(&r.brace_quantifier()?),
            ']' | '}' => out.push_str(&regex::escape(&c.to_string())),
            other => out.push(other),
        }
    }
    Ok(out)
}

/// One member of a character class.
enum Member {
    Char(char),
    /// A class escape (`\d`, `\S`, `\p{..}`), already spelled for the regex crate.
    Set(String),
}

struct Reader {
    chars: Vec<char>,
    pos: usize,
}

impl Reader {
    fn next(&mut self) -> Option<char> {
        let c = self.chars.get(self.pos).copied();
        self.pos += usize::from(c.is_some());
        c
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// After `(`: a plain group, `(?:`, or a named group; lookaround and flags are refused.
    fn group_open(&mut self) -> Result<String, String> {
        if !self.eat('?') {
            return Ok("(".into());
        }
        match self.next() {
            Some(':') => Ok("(?:".into()),
            Some('=' | '!') => Err("lookahead (?= or (?! is not supported".into()),
            Some('<') if matches!(self.peek(), Some('=' | '!')) => {
                Err("lookbehind (?<= or (?<! is not supported".into())
            }
            Some('<') => {
                // A named group; the name matters only to backreferences, which are refused.
                while let Some(c) = self.next() {
                    if c == '>' {
                        return Ok("(".into());
                    }
                    if !(c.is_alphanumeric() || c == '_' || c == '$') {
                        return Err(format!("bad character {c:?} in a group name"));
                    }
                }
                Err("unterminated group name".into())
            }
            _ => Err(
                "\"(?\" must start (?: or a named group (?<name>; inline flags are not ECMA-262"
                    .into(),
            ),
        }
    }

    /// After `{` outside a class: the rest of `{n}`, `{n,}` or `{n,m}`, copied.
    fn brace_quantifier(&mut self) -> Result<String, String> {
        let start = self.pos;
        let mut out = String::from("{");
        let digits = |r: &mut Reader, out: &mut String| {
            let before = out.len();
            while let Some(d) = r.peek().filter(char::is_ascii_digit) {
                out.push(d);
                r.pos += 1;
            }
            out.len() > before
        };
        let mut ok = digits(self, &mut out);
        if ok && self.eat(',') {
            out.push(',');
            digits(self, &mut out);
        }
        ok = ok && self.eat('}');
        if !ok {
            self.pos = start;
            return Err(
                "a '{' must start a quantifier {n}, {n,} or {n,m} (write \\{ for the character)"
                    .into(),
            );
        }
        out.push('}');
        Ok(out)
    }

    /// After `\` outside a class.
    fn escape_outside(&mut self) -> Result<String, String> {
        let Some(c) = self.next() else {
            return Err("the pattern ends with a lone backslash".into());
        };
        Ok(match c {
            'd' => format!("[{DIGIT}]"),
            'D' => format!("[^{DIGIT}]"),
            'w' => format!("[{WORD}]"),
            'W' => format!("[^{WORD}]"),
            's' => format!("[{SPACE}]"),
            'S' => format!("[^{SPACE}]"),
            // ASCII word boundaries are exactly ECMA-262's, which knows only [A-Za-z0-9_].
            'b' => r"(?-u:\b)".into(),
            'B' => r"(?-u:\B)".into(),
            '1'..='9' => return Err(format!("backreference \\{c} is not supported")),
            'k' => return Err("named backreference \\k is not supported".into()),
            _ => match self.escape_common(c)? {
                Member::Char(ch) => literal(ch),
                Member::Set(s) => s,
            },
        })
    }

    /// Escapes that mean the same inside and outside a class.
    fn escape_common(&mut self, c: char) -> Result<Member, String> {
        Ok(Member::Char(match c {
            't' => '\t',
            'n' => '\n',
            'r' => '\r',
            'f' => '\x0C',
            'v' => '\x0B',
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => '\0',
            'c' => match self.next() {
                Some(l) if l.is_ascii_alphabetic() => char::from(l as u8 % 32),
                _ => return Err("\\c must be followed by a letter".into()),
            },
            'x' => self.hex_char(2)?,
            'u' => self.unicode_escape()?,
            'p' | 'P' => return self.property(c).map(Member::Set),
            c if c.is_ascii_punctuation() => c,
            other => return Err(format!("the escape \\{other} has no meaning in ECMA-262")),
        }))
    }

    /// `\p{..}` / `\P{..}`, passed through (the regex crate knows the Unicode properties).
    fn property(&mut self, p: char) -> Result<String, String> {
        if !self.eat('{') {
            return Err(format!("\\{p} must be followed by {{name}}"));
        }
        let mut name = String::new();
        loop {
            match self.next() {
                Some('}') if !name.is_empty() => return Ok(format!("\\{p}{{{name}}}")),
                Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '=' => name.push(c),
                _ => return Err(format!("bad Unicode property \\{p}{{{name}")),
            }
        }
    }

    fn hex_char(&mut self, n: usize) -> Result<char, String> {
        let mut v = 0u32;
        for _ in 0..n {
            let d = self
                .next()
                .and_then(|c| c.to_digit(16))
                .ok_or_else(|| format!("a hex escape needs {n} hex digits"))?;
            v = v * 16 + d;
        }
        char::from_u32(v).ok_or_else(|| surrogate(v))
    }

    /// `\uXXXX` (a surrogate pair joins into one code point) or `\u{X...}`.
    fn unicode_escape(&mut self) -> Result<char, String> {
        if self.eat('{') {
            let mut v = 0u32;
            let mut any = false;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                self.pos += 1;
                any = true;
                v = v.saturating_mul(16).saturating_add(d);
            }
            if !any || !self.eat('}') || v > 0x10FFFF {
                return Err("\\u{...} needs a hex code point up to 10FFFF".into());
            }
            return char::from_u32(v).ok_or_else(|| surrogate(v));
        }
        let hi = self.hex4()?;
        if (0xD800..0xDC00).contains(&hi) && self.chars[self.pos..].starts_with(&['\\', 'u']) {
            let save = self.pos;
            self.pos += 2;
            let lo = self.hex4()?;
            if (0xDC00..0xE000).contains(&lo) {
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return char::from_u32(c).ok_or_else(|| surrogate(c));
            }
            self.pos = save;
        }
        char::from_u32(hi).ok_or_else(|| surrogate(hi))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = self
                .next()
                .and_then(|c| c.to_digit(16))
                .ok_or("\\u needs four hex digits")?;
            v = v * 16 + d;
        }
        Ok(v)
    }

    /// After `[`: the whole class, up to its `]`.
    fn class(&mut self) -> Result<String, String> {
        let negated = self.eat('^');
        let mut members: Vec<String> = Vec::new();
        loop {
            let first = match self.next() {
                None => return Err("unterminated character class".into()),
                Some(']') => break,
                Some(c) => self.class_member(c)?,
            };
            // A range `a-z`, unless the `-` is last (`[a-]`).
            let dash_range =
                self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|&c| c != ']');
            if !dash_range {
                members.push(member_text(first));
                continue;
            }
            self.pos += 1;
            let c = self.next().unwrap_or(']');
            let last = self.class_member(c)?;
            match (first, last) {
                (Member::Char(a), Member::Char(b)) if a <= b => {
                    members.push(format!("{}-{}", literal(a), literal(b)));
                }
                (Member::Char(_), Member::Char(_)) => {
                    return Err("a class range is out of order".into());
                }
                _ => return Err("a class range cannot start or end with a class escape".into()),
            }
        }
        Ok(match (negated, members.is_empty()) {
            // `[]` matches nothing and `[^]` matches any character.
            (false, true) => format!("[^{ANY}]"),
            (true, true) => format!("[{ANY}]"),
            (false, false) => format!("[{}]", members.concat()),
            (true, false) => format!("[^{}]", members.concat()),
        })
    }

    /// One class member starting with `c` (after it was read).
    fn class_member(&mut self, c: char) -> Result<Member, String> {
        if c != '\\' {
            return Ok(Member::Char(c));
        }
        let Some(e) = self.next() else {
            return Err("the pattern ends with a lone backslash".into());
        };
        Ok(match e {
            'd' => Member::Set(DIGIT.into()),
            'D' => Member::Set(format!("[^{DIGIT}]")),
            'w' => Member::Set(WORD.into()),
            'W' => Member::Set(format!("[^{WORD}]")),
            's' => Member::Set(SPACE.into()),
            'S' => Member::Set(format!("[^{SPACE}]")),
            'b' => Member::Char('\x08'),
            '-' => Member::Char('-'),
            _ => self.escape_common(e)?,
        })
    }
}

fn member_text(m: Member) -> String {
    match m {
        Member::Char(c) => literal(c),
        Member::Set(s) => s,
    }
}

/// A character for the regex crate: ASCII letters and digits as they are, everything else
/// as a hex escape, which means the same inside a class and out.
fn literal(c: char) -> String {
    if c.is_ascii_alphanumeric() {
        c.to_string()
    } else {
        format!("\\x{{{:X}}}", u32::from(c))
    }
}

fn surrogate(v: u32) -> String {
    format!("\\u{v:04X} is a lone surrogate, which no string here can hold")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, s: &str) -> bool {
        compile(pattern)
            .unwrap_or_else(|e| panic!("{pattern}: {e}"))
            .is_match(s)
    }

    #[test]
    fn shorthand_classes_are_ascii() {
        assert!(matches(r"^TKT-\d{3}$", "TKT-104"));
        assert!(!matches(r"^TKT-\d{3}$", "TKT-١٠٤"));
        assert!(!matches(r"^TKT-\d{3}$", "TKT-１０４"));
        assert!(matches(r"^\D$", "٤"));
        assert!(matches(r"^\w+$", "hello_42"));
        assert!(!matches(r"^\w+$", "héllo"));
        assert!(matches(r"^\W$", "é"));
        assert!(matches(r"^[\w-]+$", "a-b_c"));
        assert!(!matches(r"^[\w]+$", "é"));
        assert!(matches(r"^[^\d]$", "x"));
        assert!(!matches(r"^[^\d]$", "5"));
        assert!(matches(r"^[^\D]$", "5"));
        assert!(!matches(r"^[^\D]$", "٥"));
    }

    #[test]
    fn whitespace_is_ecma_262s_list() {
        for ws in ['\u{FEFF}', '\u{A0}', '\u{2028}', '\u{3000}', '\t', '\u{B}'] {
            assert!(matches(r"^\s$", &ws.to_string()), "{ws:?}");
            assert!(matches(r"^[\s]$", &ws.to_string()), "{ws:?}");
            assert!(!matches(r"^\S$", &ws.to_string()), "{ws:?}");
        }
        // NEL is Unicode White_Space but not ECMA-262 whitespace.
        assert!(!matches(r"^\s$", "\u{85}"));
        assert!(matches(r"^\S$", "\u{85}"));
        assert!(matches(r"^[\S]$", "\u{85}"));
    }

    #[test]
    fn word_boundaries_know_only_ascii_words() {
        assert!(matches(r"\bcole\b", "a cole b"));
        // `é` is not a word character in ECMA-262, so there is a boundary before `cole`.
        assert!(matches(r"\bcole", "écoles"));
        assert!(!matches(r"\Bcole", "écoles"));
        assert!(matches(r"\Bcole", "xcole"));
        // Inside a class \b is a backspace.
        assert!(matches(r"^[\b]$", "\u{8}"));
    }

    #[test]
    fn dot_stops_at_every_line_terminator() {
        assert!(matches("^.$", "é"));
        assert!(matches("^.$", "🐲"));
        for lt in ["\n", "\r", "\u{2028}", "\u{2029}"] {
            assert!(!matches("^.$", lt), "{lt:?}");
        }
        assert!(matches("^.$", "\u{85}"));
        assert!(!matches("^abc$", "abc\n"));
    }

    #[test]
    fn escapes_and_classes_spelled_for_the_regex_crate() {
        assert!(matches(r"^\cC$", "\u{3}"));
        assert!(matches(r"^\cc$", "\u{3}"));
        assert!(matches(r"^\x41\u0042\u{43}$", "ABC"));
        assert!(matches(r"^\ud83d\udc32+$", "🐲🐲"));
        assert!(matches(r"^[a-c&&]+$", "a&&b"));
        assert!(matches(r"^[[a]+$", "[a"));
        assert!(matches(r"^[a~-]+$", "a~-"));
        assert!(!matches("^[]$", "a"));
        assert!(matches("^[^]$", "\n"));
        assert!(matches(r"^\p{Letter}cole$", "école"));
        assert!(matches(r"^\P{L}$", "1"));
        assert!(matches(r"^a{2,}\}\]$", "aaa}]"));
        assert!(matches(r"^\/\.\-$", "/.-"));
        assert!(matches(r"^(?:ab)+(?<x>c)$", "ababc"));
    }

    proptest::proptest! {
        /// No text makes the translator panic; whatever it accepts compiles.
        #[test]
        fn any_text_is_translated_or_refused(src in "[\\\\()\\[\\]{}?*+^$|.,:=!<>a-z0-9dDwWsSbBpPcuxk-]{0,24}|\\PC{0,12}") {
            if let Ok(rust) = translate(&src) {
                let _ = Regex::new(&rust);
            }
        }

        /// On ASCII text without a carriage return the two dialects agree, so a pattern
        /// means the same translated or not.
        #[test]
        fn ascii_text_matches_as_before(
            src in "(\\^)?([a-c.]|\\\\[dDwWsSbB]|\\[\\^?([a-c0-9 ]|\\\\[dws]){1,3}\\]|\\((a|b\\\\d)\\)[*+?]?)([a-c.]|\\\\[dDwWsSbB]|[*+?]){0,6}(\\$)?",
            text in "[a-c0-9 _\t\n.-]{0,8}",
        ) {
            let Ok(plain) = Regex::new(&src) else { return Ok(()) };
            let ours = compile(&src).unwrap();
            proptest::prop_assert_eq!(ours.is_match(&text), plain.is_match(&text), "{} on {:?}", src, text);
        }
    }

    #[test]
    fn what_cannot_be_honoured_is_refused() {
        for (p, why) in [
            (r"(a)\1", "backreference"),
            (r"(?<n>a)\k<n>", "named backreference"),
            ("a(?=b)", "lookahead"),
            ("(?<!a)b", "lookbehind"),
            ("(?i)a", "inline flags"),
            (r"\A", "no meaning"),
            (r"\z", "no meaning"),
            (r"\pL", "followed by {name}"),
            ("a{,3}", "quantifier"),
            ("a{", "quantifier"),
            (r"\ud800", "lone surrogate"),
            (r"[\d-z]", "class escape"),
            ("[z-a]", "out of order"),
            ("[a", "unterminated"),
            ("a\\", "lone backslash"),
            (r"\c1", "letter"),
            ("(", "unclosed"),
        ] {
            let e = compile(p).unwrap_err();
            assert!(e.contains(why), "{p}: {e}");
        }
    }
}
