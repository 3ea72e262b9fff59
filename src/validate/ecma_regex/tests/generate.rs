//! Random patterns from a grammar of ECMA-262 syntax with mistakes mixed in (a few percent
//! of the pieces are ones Unicode mode refuses), and random strings to match them against.
//! Seeded, so a run can be repeated.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub(super) struct Gen {
    rng: ChaCha8Rng,
    /// Group names handed out so far in the current pattern.
    names: Vec<String>,
    depth: usize,
}

/// Characters for literals and test strings: ASCII letters and digits, `_` and `-`, space
/// and line terminators, letters and digits outside ASCII, ECMA's odd whitespace (U+FEFF,
/// U+00A0; U+0085 is not one), and a character above the BMP.
const ALPHABET: &[char] = &[
    'a', 'b', 'c', 'x', 'A', 'Z', '0', '1', '9', '_', '-', ' ', '.', '\n', '\r', '\u{2028}', 'é',
    'α', 'Ω', '١', '５', '\u{A0}', '\u{FEFF}', '\u{85}', '😀', '\t', '/', '[',
];

/// Property escapes, most valid in Unicode mode, some not (loose or unknown names).
const PROPERTIES: &[&str] = &[
    "L",
    "Lu",
    "Ll",
    "N",
    "Nd",
    "P",
    "S",
    "Z",
    "Zs",
    "Letter",
    "Number",
    "ASCII",
    "Any",
    "Alphabetic",
    "White_Space",
    "Emoji",
    "sc=Greek",
    "Script=Latin",
    "scx=Arab",
    "sc=Cyrl",
    "gc=Lu",
    "General_Category=Nd",
    "ID_Start",
    "Hex",
    "space",
    "Greek",
    "letter",
    "sc=greek",
    "L&",
    "Script",
    "IsGreek",
    "Lowercase_Letter",
    "Cs",
    "sc=Zzzz",
    "CWKCF",
];

impl Gen {
    pub(super) fn new(seed: u64) -> Self {
        Gen {
            rng: ChaCha8Rng::seed_from_u64(seed),
            names: Vec::new(),
            depth: 0,
        }
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.rng.random_range(0..xs.len())]
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    /// One pattern.
    pub(super) fn pattern(&mut self) -> String {
        self.names.clear();
        self.depth = 0;
        let body = self.disjunction();
        match self.rng.random_range(0..10) {
            // The shapes where lookaround is honoured: leading lookaheads, trailing
            // lookbehinds.
            0 => {
                let (ahead, not_ahead) = (self.alternative(), self.alternative());
                format!("^(?={ahead})(?!{not_ahead}){body}")
            }
            1 => format!("{body}(?<={})$", self.alternative()),
            2 => format!("^{body}$"),
            _ => body,
        }
    }

    fn disjunction(&mut self) -> String {
        let n = self.rng.random_range(1..=3);
        let alts: Vec<String> = (0..n).map(|_| self.alternative()).collect();
        alts.join("|")
    }

    fn alternative(&mut self) -> String {
        let n = self.rng.random_range(0..=4);
        (0..n).map(|_| self.term()).collect()
    }

    fn term(&mut self) -> String {
        if self.chance(0.12) {
            let assertion = self.assertion();
            // Unicode mode never quantifies an assertion.
            return if self.chance(0.05) {
                assertion + &self.quantifier()
            } else {
                assertion
            };
        }
        let mut t = self.atom();
        if self.chance(0.35) {
            t += &self.quantifier();
            if self.chance(0.03) {
                t += &self.quantifier();
            }
        }
        t
    }

    fn assertion(&mut self) -> String {
        match self.rng.random_range(0..6) {
            0 => "^".into(),
            1 => "$".into(),
            2 => r"\b".into(),
            3 => r"\B".into(),
            _ if self.depth < 3 => {
                let kind = *self.pick(&["?=", "?!", "?<=", "?<!"]);
                self.depth += 1;
                let body = self.disjunction();
                self.depth -= 1;
                format!("({kind}{body})")
            }
            _ => "$".into(),
        }
    }

    fn quantifier(&mut self) -> String {
        let n = self.rng.random_range(0..4);
        let m = self.rng.random_range(0..4);
        let mut q = match self.rng.random_range(0..9) {
            0 | 1 => "*".to_owned(),
            2 => "+".to_owned(),
            3 => "?".to_owned(),
            4 => format!("{{{n}}}"),
            5 => format!("{{{n},}}"),
            6 if self.chance(0.1) => format!("{{{n},{m}}}"),
            6 => format!("{{{n},{}}}", n + m),
            7 if self.chance(0.2) => format!("{{,{m}}}"),
            _ => "+".to_owned(),
        };
        if self.chance(0.2) {
            q.push('?');
        }
        q
    }

    fn atom(&mut self) -> String {
        match self.rng.random_range(0..20) {
            0..=6 => literal(*self.pick(ALPHABET)),
            7 => ".".into(),
            8..=10 => self.class(),
            11..=13 => self.escape(false),
            14..=16 if self.depth < 3 => self.group(),
            17 if self.chance(0.5) => self.backreference(),
            // Characters Unicode mode refuses alone.
            18 if self.chance(0.15) => (*self.pick(&["]", "}", "{", ")", "(", "*", "\\"])).into(),
            _ => literal(*self.pick(ALPHABET)),
        }
    }

    fn group(&mut self) -> String {
        let open = match self.rng.random_range(0..12) {
            0..=3 => "(".to_owned(),
            4..=7 => "(?:".to_owned(),
            8..=10 => {
                let name = if !self.names.is_empty() && self.chance(0.15) {
                    self.pick(&self.names.clone()).clone()
                } else {
                    let name = format!("n{}", self.names.len());
                    self.names.push(name.clone());
                    name
                };
                format!("(?<{name}>")
            }
            _ => (*self.pick(&["(?i)", "(?P<p>", "(?<1>", "(?#"])).to_owned(),
        };
        self.depth += 1;
        let body = self.disjunction();
        self.depth -= 1;
        format!("{open}{body})")
    }

    fn backreference(&mut self) -> String {
        match self.rng.random_range(0..3) {
            0 => format!("\\{}", self.rng.random_range(1..4)),
            1 if !self.names.is_empty() => format!("\\k<{}>", self.pick(&self.names.clone())),
            _ => r"\k<zz>".into(),
        }
    }

    /// An escape; `in_class` adds the ones only a class knows.
    fn escape(&mut self, in_class: bool) -> String {
        let simple = [
            r"\d",
            r"\D",
            r"\w",
            r"\W",
            r"\s",
            r"\S",
            r"\t",
            r"\n",
            r"\r",
            r"\v",
            r"\f",
            r"\0",
            r"\x41",
            r"\x2d",
            r"\u0062",
            r"\u00e9",
            r"\u{1F600}",
            r"\u{61}",
            r"\ud83d\ude00",
            r"\ud800",
            r"\cA",
            r"\cj",
            r"\.",
            r"\*",
            r"\/",
            r"\\",
            r"\[",
            r"\]",
            r"\{",
            r"\}",
            r"\|",
            r"\(",
            r"\$",
            r"\^",
        ];
        let wrong = [
            r"\_",
            r"\-",
            r"\a",
            r"\A",
            r"\z",
            r"\@",
            r"\c1",
            r"\x4",
            r"\u12",
            r"\01",
            r"\u{110000}",
            r"\e",
            r"\'",
            r"\k",
            r"\pL",
        ];
        if in_class && self.chance(0.1) {
            return (*self.pick(&[r"\b", r"\-", r"\B"])).into();
        }
        if self.chance(0.15) {
            let name = *self.pick(PROPERTIES);
            let p = if self.chance(0.3) { 'P' } else { 'p' };
            return format!("\\{p}{{{name}}}");
        }
        if self.chance(0.04) {
            return (*self.pick(&wrong)).into();
        }
        (*self.pick(&simple)).into()
    }

    fn class(&mut self) -> String {
        let mut s = String::from("[");
        if self.chance(0.3) {
            s.push('^');
        }
        for _ in 0..self.rng.random_range(0..4) {
            if self.chance(0.25) {
                s += &self.range();
            } else {
                s += &self.class_atom();
            }
        }
        if self.chance(0.1) {
            s.push('-');
        }
        s.push(']');
        s
    }

    /// `a-z`: mostly two characters in order, now and then reversed or with an escape.
    fn range(&mut self) -> String {
        if self.chance(0.1) {
            return format!("{}-{}", self.class_atom(), self.class_atom());
        }
        let (a, b) = (*self.pick(ALPHABET), *self.pick(ALPHABET));
        let (lo, hi) = if a <= b || self.chance(0.05) {
            (a, b)
        } else {
            (b, a)
        };
        let end = |c: char| match c {
            '[' | '/' => c.to_string(),
            '-' => r"\-".to_owned(),
            c => literal(c),
        };
        format!("{}-{}", end(lo), end(hi))
    }

    fn class_atom(&mut self) -> String {
        if self.chance(0.2) {
            return self.escape(true);
        }
        let c = *self.pick(ALPHABET);
        if c == '[' || c == '/' {
            return c.to_string();
        }
        literal(c)
    }

    /// Strings to match a pattern against: random ones, and ones made of its own letters.
    pub(super) fn strings(&mut self, pattern: &str) -> Vec<String> {
        let own: Vec<char> = pattern
            .chars()
            .filter(|c| c.is_alphanumeric() || ALPHABET.contains(c))
            .collect();
        (0..8)
            .map(|i| {
                let len = self.rng.random_range(0..=7);
                (0..len)
                    .map(|_| {
                        if i % 2 == 0 && !own.is_empty() {
                            *self.pick(&own)
                        } else {
                            *self.pick(ALPHABET)
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// A character as a pattern writes it: syntax characters and line terminators escaped.
fn literal(c: char) -> String {
    match c {
        '\n' => r"\n".into(),
        '\r' => r"\r".into(),
        '.' | '[' | '/' => format!("\\{c}"),
        c => c.to_string(),
    }
}
