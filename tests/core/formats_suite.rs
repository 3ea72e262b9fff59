//! Every string case of the official suite's `optional/format/*.json` (draft 2020-12), run
//! through the format checkers alone.
//!
//! Each file is a list of groups whose schema is `{"format": NAME}`; each string instance
//! is judged by `format::checker(NAME)`. A name the standard does not define has no checker
//! and is a note only, so every string is valid for it (`unknown.json`). Instances that are
//! not strings are the validator's concern (a format never fails them) and are counted
//! apart. 0 wrong is required; a deliberate deviation would be listed in [`DEVIATIONS`].
//!
//! ```text
//! cargo test --test core formats_suite -- --nocapture
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use tooldojo::validate::format;

use crate::shared;

/// Verdicts given differently on purpose: (file, case description, why). None today.
const DEVIATIONS: &[(&str, &str, &str)] = &[];

#[derive(Default)]
struct Tally {
    right: usize,
    wrong: Vec<String>,
    deviations: usize,
    not_strings: usize,
}

fn run_file(path: &Path, file: &str, tally: &mut Tally) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let groups: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    for group in groups.as_array().expect("a list of groups") {
        let name = group["schema"]["format"]
            .as_str()
            .unwrap_or_else(|| panic!("{file}: a group without a format"));
        let checker = format::checker(name);
        assert_eq!(
            checker.is_some(),
            format::is_known(name),
            "{file}: {name:?} is known exactly when it has a checker"
        );
        for case in group["tests"].as_array().expect("a list of tests") {
            let what = case["description"].as_str().unwrap_or("");
            let want = case["valid"].as_bool().expect("valid is a boolean");
            let Some(s) = case["data"].as_str() else {
                tally.not_strings += 1;
                continue;
            };
            let got = checker.is_none_or(|c| c.is_valid(s));
            if got == want {
                tally.right += 1;
            } else if DEVIATIONS.iter().any(|(f, d, _)| *f == file && *d == what) {
                tally.deviations += 1;
            } else {
                tally.wrong.push(format!(
                    "{file}: {what}: {s:?} should be {}",
                    if want { "valid" } else { "invalid" }
                ));
            }
        }
    }
}

#[test]
fn every_string_case_of_the_format_suite_is_judged_right() {
    let Some(suite) = shared::shared("json-schema-test-suite") else {
        return;
    };
    let dir = suite.join("tests/draft2020-12/optional/format");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "expected the suite's format files");
    let mut per_file = BTreeMap::new();
    let mut wrong = Vec::new();
    for path in &files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut tally = Tally::default();
        run_file(path, &file, &mut tally);
        println!(
            "{file:<28} {:>3} right, {} wrong, {} deviations, {} not strings",
            tally.right,
            tally.wrong.len(),
            tally.deviations,
            tally.not_strings
        );
        wrong.append(&mut tally.wrong);
        per_file.insert(file, tally.right);
    }
    println!(
        "total: {} right, {} wrong",
        per_file.values().sum::<usize>(),
        wrong.len()
    );
    assert!(wrong.is_empty(), "wrong verdicts:\n{}", wrong.join("\n"));
}

/// Every format the standard defines has a checker; other names have none and cost nothing.
#[test]
fn known_names_have_checkers_and_others_do_not() {
    for name in format::KNOWN {
        let c = format::checker(name).unwrap_or_else(|| panic!("{name} has no checker"));
        assert_eq!(c.name, *name);
        assert!(
            c.what.starts_with("a ") || c.what.starts_with("an "),
            "{name}"
        );
    }
    for name in ["float", "int32", "Date-Time", "date-time ", "", "binary"] {
        assert!(format::checker(name).is_none(), "{name:?}");
        assert!(!format::is_known(name), "{name:?}");
    }
}
