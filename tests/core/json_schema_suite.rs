//! The validator against the official JSON Schema Test Suite (draft 2020-12, `optional/`
//! included, and draft-07) and our own cases in its format (`tests/data/schema_cases/`).
//!
//! ```text
//! cargo test --test core json_schema_suite -- --nocapture     # prints the tally
//! ```
//!
//! The suite comes from the shared test data (`tests/shared/mod.rs`); its `remotes/` folder
//! is loaded into a `Registry` under `http://localhost:1234/`, as the suite intends, so no
//! reference ever reaches the network. Each case's schema is compiled as a plain JSON Schema
//! (any value, not only a tool call's arguments), with formats checked, except `format.json`,
//! whose cases expect the standard's default (a format is a note only). A case is
//! - right: the verdict is the suite's;
//! - wrong: it is not (allowed only for the deliberate deviations listed below);
//! - refused: the schema does not compile (a refusal names what cannot be honoured: a
//!   metaschema the validator does not carry, a remote reference).

use std::path::{Path, PathBuf};

use super::shared;
use tooldojo::validate::{self, Draft, Formats, Json, Registry, Validator, ValidatorRules};

/// Verdicts given on purpose that differ from the suite's: (folder, file, group, case, why).
/// The README lists the same.
const DEVIATIONS: &[(&str, &str, &str, &str, &str)] = &[
    (
        "draft2020-12",
        "type.json",
        "integer type matches integers",
        "a float with zero fractional part is an integer",
        INTEGER,
    ),
    (
        "draft2020-12",
        "optional/float-overflow.json",
        "all integers are multiples of 0.5, if overflow is handled",
        "valid if optional overflow handling is implemented",
        INTEGER,
    ),
    (
        "draft7",
        "type.json",
        "integer type matches integers",
        "a float with zero fractional part is an integer",
        INTEGER,
    ),
    (
        "draft7",
        "optional/float-overflow.json",
        "all integers are multiples of 0.5, if overflow is handled",
        "valid if optional overflow handling is implemented",
        INTEGER,
    ),
    (
        "draft7",
        "optional/content.json",
        "validation of string-encoded content based on media type",
        "an invalid JSON document",
        CONTENT,
    ),
    (
        "draft7",
        "optional/content.json",
        "validation of binary string-encoding",
        "an invalid base64 string (% is not a valid character)",
        CONTENT,
    ),
    (
        "draft7",
        "optional/content.json",
        "validation of binary-encoded media type documents",
        "a validly-encoded invalid JSON document",
        CONTENT,
    ),
    (
        "draft7",
        "optional/content.json",
        "validation of binary-encoded media type documents",
        "an invalid base64 string that is valid JSON",
        CONTENT,
    ),
];

const CONTENT: &str = "`contentEncoding` and `contentMediaType` are annotations in every dialect, \
                       as 2020-12 says (draft-07 lets a validator assert them, and its optional \
                       tests do)";

const INTEGER: &str = "`integer` is read as strictly as Python's json.loads: a literal with a \
                       fraction or an exponent (1.0, 1e308) is a float, never an int";

#[derive(Debug, Default, Clone)]
struct Tally {
    right: usize,
    wrong: Vec<String>,
    deviations: Vec<String>,
    refused: usize,
    /// One line per refused group: which, and why.
    refusals: Vec<String>,
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn member<'a, 'b>(v: &'b Json<'a>, key: &str) -> &'b Json<'a> {
    v.get(key)
        .unwrap_or_else(|| panic!("a case file lacks {key:?}"))
}

fn text<'b>(v: &'b Json<'_>) -> &'b str {
    match v {
        Json::Str(s) => s,
        other => panic!("expected a string, got {other:?}"),
    }
}

/// Every `.json` file under `dir`, sorted, as paths relative to it.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

/// The suite's `remotes/`, each file under `http://localhost:1234/` and its path.
fn remotes(suite: &Path) -> Registry {
    let dir = suite.join("remotes");
    let mut reg = Registry::new();
    for rel in files_under(&dir) {
        let uri = format!("http://localhost:1234/{rel}");
        reg.add(&uri, &read(&dir.join(&rel)))
            .unwrap_or_else(|e| panic!("remote {rel}: {e}"));
    }
    reg
}

struct Run<'r> {
    folder: &'static str,
    draft: Draft,
    registry: Option<&'r Registry>,
}

impl Run<'_> {
    /// Run every group of one file in the suite's format.
    fn file(&self, path: &Path, label: &str, tally: &mut Tally) {
        let source = read(path);
        let groups =
            validate::json::parse(&source).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let Json::Array(groups) = groups else {
            panic!("{}: expected a list of groups", path.display());
        };
        let formats = if label == "format.json" {
            Formats::Annotate
        } else {
            Formats::Assert
        };
        for group in &groups {
            let gname = text(member(group, "description"));
            let mut opts = Validator::options()
                .any_value(true)
                .formats(formats)
                .draft(self.draft);
            if let Some(r) = self.registry {
                opts = opts.registry(r);
            }
            let compiled = opts.compile(member(group, "schema"));
            let Json::Array(tests) = member(group, "tests") else {
                panic!("{label}: {gname}: tests must be a list");
            };
            let v = match compiled {
                Ok(v) => v,
                Err(e) => {
                    let msg = e.to_string();
                    tally.refused += tests.len();
                    tally.refusals.push(format!("{label}: {gname}: {msg}"));
                    continue;
                }
            };
            for test in tests {
                self.case(&v, label, gname, test, tally);
            }
        }
    }

    fn case(&self, v: &Validator, label: &str, gname: &str, test: &Json<'_>, tally: &mut Tally) {
        let cname = text(member(test, "description"));
        let want = matches!(member(test, "valid"), Json::Bool(true));
        let data = member(test, "data");
        let rules = ValidatorRules::ALL_ON;
        let got = v.check(data, &rules);
        // The explaining pass always finds what the quick pass refused.
        let all = v.check_all(data, &rules);
        assert_eq!(
            all.first().cloned(),
            got.clone().err(),
            "{label}: {gname}: {cname}"
        );
        if got.is_ok() == want {
            tally.right += 1;
            return;
        }
        let line = format!(
            "{label}: {gname}: {cname}: expected {}, got {}",
            if want { "valid" } else { "invalid" },
            match &got {
                Ok(()) => "valid".to_owned(),
                Err(v) => format!("invalid ({})", v.message),
            }
        );
        let listed = DEVIATIONS
            .iter()
            .any(|(d, f, g, c, _)| *d == self.folder && *f == label && *g == gname && *c == cname);
        if listed {
            tally.deviations.push(line);
        } else {
            tally.wrong.push(line);
        }
    }
}

fn report(name: &str, t: &Tally) {
    let total = t.right + t.wrong.len() + t.deviations.len() + t.refused;
    println!(
        "{name}: {total} cases: {} right ({:.1}%), {} wrong ({} of them listed deviations), {} refused",
        t.right,
        100.0 * t.right as f64 / total.max(1) as f64,
        t.wrong.len() + t.deviations.len(),
        t.deviations.len(),
        t.refused,
    );
    for d in &t.deviations {
        println!("  deviation: {d}");
    }
    for r in &t.refusals {
        println!("  refused: {r}");
    }
    for w in &t.wrong {
        println!("  WRONG: {w}");
    }
}

/// Run one folder of the suite; per file tallies are printed too.
fn run_folder(folder: &'static str, draft: Draft) -> Option<Tally> {
    let suite = shared::shared("json-schema-test-suite")?;
    let registry = remotes(&suite);
    let dir = suite.join("tests").join(folder);
    let run = Run {
        folder,
        draft,
        registry: Some(&registry),
    };
    let mut tally = Tally::default();
    let mut by_part: Vec<(String, Tally)> = Vec::new();
    for rel in files_under(&dir) {
        let part = match rel.rsplit_once('/') {
            Some((d, _)) => format!("{folder}/{d}"),
            None => folder.to_owned(),
        };
        let mut one = Tally::default();
        run.file(&dir.join(&rel), &rel, &mut one);
        match by_part.iter_mut().find(|(p, _)| *p == part) {
            Some((_, t)) => merge(t, &one),
            None => by_part.push((part, one.clone())),
        }
        merge(&mut tally, &one);
    }
    for (part, t) in &by_part {
        let total = t.right + t.wrong.len() + t.deviations.len() + t.refused;
        println!(
            "  {part}: {total} cases, {} right, {} wrong, {} refused",
            t.right,
            t.wrong.len() + t.deviations.len(),
            t.refused
        );
    }
    report(folder, &tally);
    Some(tally)
}

fn merge(into: &mut Tally, from: &Tally) {
    into.right += from.right;
    into.wrong.extend(from.wrong.iter().cloned());
    into.deviations.extend(from.deviations.iter().cloned());
    into.refused += from.refused;
    into.refusals.extend(from.refusals.iter().cloned());
}

/// No wrong verdict but the listed deviations, and every listed one occurs.
fn assert_exact(folder: &str, t: &Tally) {
    assert!(
        t.wrong.is_empty(),
        "wrong verdicts:\n{}",
        t.wrong.join("\n")
    );
    for (d, f, g, c, why) in DEVIATIONS.iter().filter(|x| x.0 == folder) {
        let hit = t
            .deviations
            .iter()
            .any(|x| x.starts_with(&format!("{f}: {g}: {c}:")));
        assert!(
            hit,
            "listed deviation did not occur: {d}/{f}: {g}: {c} ({why})"
        );
    }
}

#[test]
fn draft2020_12_whole_suite() {
    let Some(t) = run_folder("draft2020-12", Draft::D2020) else {
        return;
    };
    assert_exact("draft2020-12", &t);
    // At least 98% right, of every case (every standard format has a checker).
    let total = t.right + t.wrong.len() + t.deviations.len() + t.refused;
    assert!(
        t.right as f64 >= 0.98 * total as f64,
        "{} of {total} right, under 98%",
        t.right
    );
}

#[test]
fn draft7_whole_suite() {
    let Some(t) = run_folder("draft7", Draft::D7) else {
        return;
    };
    assert_exact("draft7", &t);
}

fn own_case_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/schema_cases");
    files_under(&dir).into_iter().map(|f| dir.join(f)).collect()
}

#[test]
fn our_own_cases_are_all_judged_right() {
    let files = own_case_files();
    assert!(
        !files.is_empty(),
        "no case files in tests/data/schema_cases"
    );
    let mut tally = Tally::default();
    let run = Run {
        folder: "own",
        draft: Draft::D2020,
        registry: None,
    };
    for f in &files {
        let label = f.file_name().unwrap().to_string_lossy().into_owned();
        run.file(f, &label, &mut tally);
    }
    report("own cases", &tally);
    assert!(tally.right > 100, "too few cases ran: {tally:?}");
    assert!(
        tally.wrong.is_empty(),
        "wrong verdicts:\n{}",
        tally.wrong.join("\n")
    );
    assert!(tally.deviations.is_empty(), "{:?}", tally.deviations);
    assert_eq!(tally.refused, 0, "{:?}", tally.refusals);
}
