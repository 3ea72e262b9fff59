//! `pattern` with the meaning ECMA-262 gives it (Unicode mode, the `u` flag), as JSON Schema
//! requires, run by the `regex` crate in linear time.
//!
//! - [`parse`]: the ECMA-262 grammar and its early errors. What it refuses is refused, with
//!   the reason: `a**`, `\b+`, a lone `}` or `]`, `\_`, `\p{Greek}`, a group name used
//!   twice. It alone decides the `regex` format ([`is_valid`]), a question of syntax: a
//!   pattern with lookbehind or a backreference is a valid `regex`.
//! - [`props`]: the exact `\p{..}` names Unicode mode accepts.
//! - [`translate`]: the tree written out for the regex crate. The dialects differ on the
//!   shorthand classes: in Rust `\d`, `\w`, `\s` and `\b` are Unicode-aware (`\d` takes `١`
//!   and `４`, `\w` takes `é`), in ECMA-262 `\d` is `[0-9]`, `\w` is `[A-Za-z0-9_]`, `\b` is
//!   the boundary of those, and `\s` is a fixed list that has U+FEFF but not U+0085. `.`
//!   stops at four line terminators, not one, and `$` only at the very end. All of these are
//!   spelled out.
//!
//! What the regex crate cannot run is refused, never weakened. Backreferences are refused
//! everywhere, and lookaround everywhere but at the two places where it splits into separate
//! whole-value matches. Those are lookaheads right after a leading `^`, as password rules
//! write them (`^(?=.*[A-Z])(?=.*\d).{8,}$`), and lookbehinds right before a final `$`.
//! A backtracking engine such as `regress` (a native ES2018 engine) would run the rest, but
//! its time on a bad pattern grows exponentially with the length of the value, and it has
//! no step limit. The schema's author writes the pattern, but a model writes the value, and
//! one crafted string must not stall the validator. So every pattern here runs in time
//! linear in the value, or is refused when the schema is compiled.

mod parse;
mod props;
mod translate;

use regex::Regex;

/// A compiled pattern: what [`compile`] returns. Code outside this module calls only
/// [`Compiled::is_match`] on it.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    /// Matches when any conjunction holds; a conjunction holds when each regex matches or
    /// fails to match as its flag says. Most patterns are one conjunction of one regex.
    any: Vec<Vec<Part>>,
}

#[derive(Debug, Clone)]
struct Part {
    regex: Regex,
    want: bool,
    /// The regex holds ECMA's `\B`, an ASCII non-boundary, which also holds between the
    /// bytes of one non-ASCII character. The regex crate drops such empty matches, but its
    /// `is_match` then misses a real match later on the same line (`５|\B` on `"b５B"`);
    /// `find` does not, so such a regex is asked through `find` when the value is not ASCII.
    splits: bool,
}

impl Part {
    fn holds(&self, s: &str) -> bool {
        let hit = if self.splits && !s.is_ascii() {
            self.regex.find(s).is_some()
        } else {
            self.regex.is_match(s)
        };
        hit == self.want
    }
}

impl Compiled {
    /// Does the pattern match somewhere in `s` (unanchored, as `pattern` is)?
    pub(crate) fn is_match(&self, s: &str) -> bool {
        self.any.iter().any(|all| all.iter().all(|p| p.holds(s)))
    }
}

/// Compile an ECMA-262 pattern. The error says what ECMA-262 refuses or what cannot be
/// honoured.
pub(crate) fn compile(src: &str) -> Result<Compiled, String> {
    let parsed = parse::parse(src)?;
    if parsed.has_backrefs {
        return Err(
            "a backreference (\\1, \\k<name>) is not supported: no linear-time \
                    engine can run one"
                .into(),
        );
    }
    let plan = translate::plan(&parsed.node)?;
    let mut any = Vec::with_capacity(plan.len());
    for conjunction in plan {
        let mut all = Vec::with_capacity(conjunction.parts.len());
        for (source, want) in conjunction.parts {
            let re = Regex::new(&source).map_err(|e| {
                let text = e.to_string();
                text.lines().last().unwrap_or("").trim().to_owned()
            })?;
            let splits = source.contains(translate::NOT_WORD_BOUNDARY);
            all.push(Part {
                regex: re,
                want,
                splits,
            });
        }
        any.push(all);
    }
    Ok(Compiled { any })
}

/// Is `src` a valid ECMA-262 regular expression with the `u` flag? (The `regex` format.)
pub(crate) fn is_valid(src: &str) -> bool {
    parse::parse(src).is_ok()
}

#[cfg(test)]
mod tests;
