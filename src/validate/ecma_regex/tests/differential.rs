//! The pattern compiler against node's `new RegExp(p, "u")`, over generated patterns.
//!
//! Every pattern must be accepted or refused as node accepts or refuses it. An accepted
//! pattern that we compile must match the generated strings exactly as node's `test` does.
//! An accepted pattern we refuse to run (a backreference, lookaround outside the two places
//! where it is honoured) is counted by reason, never a disagreement. One node process reads
//! all the cases from a file.
//!
//! node is required in CI (`CI` or `TOOLDOJO_REQUIRE_SHARED=1` set); elsewhere a missing
//! node skips the test with a note. A longer run:
//!
//! ```text
//! TOOLDOJO_REGEX_CASES=100000 cargo test --lib ecma_regex::tests::differential -- --nocapture
//! ```

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::{Value, json};

use super::generate::Gen;
use crate::validate::ecma_regex::{compile, is_valid};

const DEFAULT_CASES: usize = 6000;
const SEED: u64 = 0x5eed_0019;

/// Patterns issue 19 named, and a few more edge cases, always tried.
const FIXED: &[&str] = &[
    "a**",
    "a*+",
    "a{1}{2}",
    r"\b+",
    "}",
    "]",
    "a}",
    "a]",
    r"\_",
    r"\p{Greek}",
    "(?<n>a)(?<n>b)",
    "^a*+a$",
    r"\p{Script=Greek}",
    r"[\-]",
    r"\-",
    "[]",
    "[^]",
    r"\cA",
    r"(?<=a+)b",
    r"(?<n>a)\k<n>",
    r"\k<n>(?<n>a)",
    r"(a)\1",
    r"\1(a)",
    "a{2,1}",
    "a{,2}",
    r"[\d-z]",
    r"[a-\d]",
    r"\u{10FFFF}",
    r"\u{110000}",
    r"\ud83d\ude00",
    r"[\ud83d\ude00]",
    "(?:)",
    "()",
    "|",
    "a||b",
    r"[\b]",
    r"\0",
    r"\00",
    "a{0}",
    "(?=a)",
    "^(?=a)",
    r"\p{Lu}",
    r"\p{L&}",
    r"[^\W]",
    r"\P{Any}",
    r"^\s$",
    "^.$",
    r"x\by",
    "(?i)a",
    "(?P<n>x)",
    "a{99999}",
];

fn node_available() -> bool {
    Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn in_ci() -> bool {
    std::env::var_os("CI").is_some()
        || std::env::var("TOOLDOJO_REQUIRE_SHARED").as_deref() == Ok("1")
}

/// Reads `{"cases": [{"p": .., "s": [..]}]}`; writes, per case, `null` for a refused pattern
/// or the list of match results, and whether duplicate group names in separate alternatives
/// are accepted (ES2025; older node refuses them).
///
/// A match result is `test`'s, except where V8 leaves the standard: with the `u` flag,
/// ECMA-262 tries a match only at code point boundaries (RegExpBuiltinExec advances by
/// AdvanceStringIndex), but V8 also tries between the two halves of a surrogate pair, so
/// `/\B/u.test("c😀Z")` is true there. Where `test` says true, the match is checked again
/// the standard's way, start by start with a sticky copy, and a difference is reported as
/// 2 (the standard's answer, false) instead of `true`.
const SCRIPT: &str = r#"
const fs = require("fs");
const input = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const compile = (p, f) => { try { return new RegExp(p, f); } catch (e) { return null; } };
const standard = (sticky, s) => {
  for (let i = 0; i <= s.length; i += (s.codePointAt(i) > 0xffff ? 2 : 1)) {
    sticky.lastIndex = i;
    if (sticky.test(s)) return true;
  }
  return false;
};
const results = input.cases.map(({ p, s }) => {
  const re = compile(p, "u");
  if (re === null) return null;
  const sticky = compile(p, "uy");
  return s.map((x) => (re.test(x) ? (standard(sticky, x) ? 1 : 2) : 0));
});
const duplicates = compile("(?<a>x)|(?<a>y)", "u") !== null;
process.stdout.write(JSON.stringify({ results, duplicates }));
"#;

/// node's answer for one string: what the standard says, and whether V8's `test` said
/// otherwise.
#[derive(Clone, Copy)]
struct Answer {
    matches: bool,
    v8_differs: bool,
}

fn run_node(cases: &[(String, Vec<String>)]) -> (Vec<Option<Vec<Answer>>>, bool) {
    let input = json!({
        "cases": cases.iter().map(|(p, s)| json!({"p": p, "s": s})).collect::<Vec<_>>(),
    });
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::io::Write::write_all(&mut file, input.to_string().as_bytes()).expect("write the cases");
    let out = Command::new("node")
        .arg("-e")
        .arg(SCRIPT)
        .arg(file.path())
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("node's answer is JSON");
    let results = v["results"]
        .as_array()
        .expect("a list of results")
        .iter()
        .map(|r| {
            r.as_array().map(|xs| {
                xs.iter()
                    .map(|x| Answer {
                        matches: x.as_u64() == Some(1),
                        v8_differs: x.as_u64() == Some(2),
                    })
                    .collect()
            })
        })
        .collect();
    (results, v["duplicates"].as_bool() == Some(true))
}

/// Why we refuse a pattern node runs, in a word, for the tally.
fn reason(e: &str) -> &'static str {
    if e.contains("backreference") {
        "backreference"
    } else if e.contains("lookahead") || e.contains("lookbehind") || e.contains("lookaround") {
        "lookaround"
    } else {
        "other"
    }
}

/// What one run found.
#[derive(Default)]
struct Run {
    duplicates_allowed: bool,
    tally: BTreeMap<&'static str, usize>,
    why_refused: BTreeMap<String, usize>,
    disagreements: Vec<String>,
}

impl Run {
    fn count(&mut self, what: &'static str) {
        *self.tally.entry(what).or_default() += 1;
    }

    /// Compares one pattern and its strings with node's answers.
    fn judge(&mut self, p: &str, strings: &[String], theirs: Option<&[Answer]>) {
        let ours = compile(p);
        if is_valid(p) != theirs.is_some() {
            let why = ours.as_ref().err().cloned().unwrap_or_default();
            if self.duplicates_allowed && why.contains("used twice") {
                return self.count("duplicate names (ES2025 in this node)");
            }
            let (node, we) = match theirs {
                Some(_) => ("accepts", "refuse:"),
                None => ("refuses", "accept"),
            };
            return self
                .disagreements
                .push(format!("{p:?}: node {node}, we {we} {why}"));
        }
        let Some(theirs) = theirs else {
            self.count("refused by both");
            if let Err(e) = &ours {
                let what = e.split(" at character").next().unwrap_or(e);
                *self.why_refused.entry(what.to_owned()).or_default() += 1;
            }
            return;
        };
        let ours = match ours {
            Ok(c) => c,
            Err(e) => {
                self.count(reason(&e));
                if reason(&e) == "other" {
                    self.disagreements
                        .push(format!("{p:?}: valid, but we cannot run it: {e}"));
                }
                return;
            }
        };
        self.count("run by both");
        if ["(?=", "(?!", "(?<=", "(?<!"].iter().any(|l| p.contains(l)) {
            self.count("run by both, with lookaround");
        }
        for (s, want) in strings.iter().zip(theirs) {
            self.count("strings matched");
            if want.v8_differs {
                self.count("V8 matched inside a surrogate pair");
            }
            if ours.is_match(s) != want.matches {
                self.disagreements
                    .push(format!("{p:?} on {s:?}: node says {}", want.matches));
            }
        }
    }
}

#[test]
fn patterns_agree_with_node() {
    if !node_available() {
        assert!(
            !in_ci(),
            "node is required in CI for the pattern differential"
        );
        eprintln!("note: node not found; skipping the pattern differential against node");
        return;
    }
    let n = std::env::var("TOOLDOJO_REGEX_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES);
    let mut generator = Gen::new(SEED);
    let mut cases: Vec<(String, Vec<String>)> = FIXED
        .iter()
        .map(|p| (p.to_string(), generator.strings(p)))
        .collect();
    while cases.len() < n {
        let p = generator.pattern();
        let s = generator.strings(&p);
        cases.push((p, s));
    }
    let (node, duplicates_allowed) = run_node(&cases);
    let mut run = Run {
        duplicates_allowed,
        ..Run::default()
    };
    for ((p, strings), theirs) in cases.iter().zip(&node) {
        run.judge(p, strings, theirs.as_deref());
    }
    println!("{} patterns against node: {:?}", cases.len(), run.tally);
    let mut reasons: Vec<_> = run.why_refused.iter().collect();
    reasons.sort_by_key(|r| std::cmp::Reverse(*r.1));
    for (why, n) in reasons.iter().take(12) {
        println!("  refused by both, {n:>5}: {why}");
    }
    let shown: Vec<&str> = run
        .disagreements
        .iter()
        .take(40)
        .map(String::as_str)
        .collect();
    assert!(
        run.disagreements.is_empty(),
        "{} disagreements with node:\n{}",
        run.disagreements.len(),
        shown.join("\n")
    );
    let both = run.tally.get("run by both").copied().unwrap_or(0);
    let refused = run.tally.get("refused by both").copied().unwrap_or(0);
    assert!(
        both * 4 > cases.len() && refused * 10 > cases.len(),
        "the grammar lost its mix: {:?}",
        run.tally
    );
}
