//! The validator against cases in the JSON Schema Test Suite's format (draft 2020-12).
//!
//! Our own cases in `tests/data/schema_cases/*.json` always run, and every one must be
//! judged right. The official suite is not part of this repository; point
//! `JSON_SCHEMA_TEST_SUITE` at its `tests/draft2020-12` directory to run, for each keyword
//! the validator implements, every case of the suite too:
//!
//! ```text
//! JSON_SCHEMA_TEST_SUITE=/path/to/JSON-Schema-Test-Suite/tests/draft2020-12 \
//!     cargo test --test core json_schema_suite -- --nocapture
//! ```
//!
//! How a case is run: the validator judges the argument object of a tool call, so a schema
//! about one value (`{"maximum": 3}`) becomes the schema of a required property `v`, and the
//! value becomes `{"v": value}`; a schema about an object (`properties`, `required`,
//! `additionalProperties`) is used as it is. Each case is then
//! - right: the verdict is the suite's;
//! - wrong: it is not (allowed only for the deliberate deviations listed below);
//! - refused: the schema uses something the validator does not implement, and compiling it
//!   is an error, as it must be (never a weaker check);
//! - not applicable: an object schema given a value that is not an object (tool arguments
//!   are always an object; anything else is refused before any check).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use tooldojo::validate::{self, Form, Json, ValidatorRules, schema};

/// The suite's files for the keywords the validator implements.
const SUITE_FILES: &[&str] = &[
    "type.json",
    "minimum.json",
    "maximum.json",
    "exclusiveMinimum.json",
    "exclusiveMaximum.json",
    "enum.json",
    "const.json",
    "pattern.json",
    "minLength.json",
    "maxLength.json",
    "required.json",
    "properties.json",
    "additionalProperties.json",
    "optional/bignum.json",
    "optional/ecmascript-regex.json",
    "optional/non-bmp-regex.json",
    "optional/float-overflow.json",
];

/// Wrong verdicts we give on purpose: (file, group, case, why). See the README.
const DEVIATIONS: &[(&str, &str, &str, &str)] = &[(
    "type.json",
    "integer type matches integers",
    "a float with zero fractional part is an integer",
    "`integer` is read as strictly as Python's json.loads: 1.0 is a float, never an int",
)];

#[derive(Debug, Default)]
struct Tally {
    right: usize,
    wrong: Vec<String>,
    deviations: Vec<String>,
    refused: usize,
    /// One line per refused group: which, and why.
    refusals: Vec<String>,
    not_applicable: usize,
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

fn obj<'a>(members: Vec<(&str, Json<'a>)>) -> Json<'a> {
    Json::Object(
        members
            .into_iter()
            .map(|(k, v)| (Cow::Owned(k.to_owned()), v))
            .collect(),
    )
}

/// The schema to compile and whether it is about the object itself (not one value).
fn as_tool_schema<'a>(s: &Json<'a>) -> (Json<'a>, bool) {
    let Json::Object(members) = s else {
        // A boolean schema: compile it as it is, which is refused.
        return (s.clone(), true);
    };
    let about_object = members.iter().any(|(k, _)| {
        matches!(
            k.as_ref(),
            "properties" | "required" | "additionalProperties"
        )
    });
    if about_object {
        return (s.clone(), true);
    }
    let own: Vec<_> = members
        .iter()
        .filter(|(k, _)| k != "$schema")
        .cloned()
        .collect();
    let wrapped = obj(vec![
        ("type", Json::Str("object".into())),
        ("properties", obj(vec![("v", Json::Object(own))])),
        ("required", Json::Array(vec![Json::Str("v".into())])),
    ]);
    (wrapped, false)
}

/// Run every group of one file in the suite's format.
fn run_file(path: &Path, label: &str, tally: &mut Tally) {
    let source = read(path);
    let groups =
        validate::json::parse(&source).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let Json::Array(groups) = groups else {
        panic!("{}: expected a list of groups", path.display());
    };
    for group in &groups {
        let gname = text(member(group, "description"));
        let (tool_schema, about_object) = as_tool_schema(member(group, "schema"));
        let compiled = schema::compile(&tool_schema, &[], Some(Form::JsonSchema));
        let Json::Array(tests) = member(group, "tests") else {
            panic!("{label}: {gname}: tests must be a list");
        };
        if let Err(e) = &compiled {
            tally.refusals.push(format!("{label}: {gname}: {e}"));
        }
        for test in tests {
            let cname = text(member(test, "description"));
            let want = matches!(member(test, "valid"), Json::Bool(true));
            let Ok(s) = &compiled else {
                tally.refused += 1;
                continue;
            };
            let data = member(test, "data");
            let args = if about_object {
                if !matches!(data, Json::Object(_)) {
                    tally.not_applicable += 1;
                    continue;
                }
                data.clone()
            } else {
                obj(vec![("v", data.clone())])
            };
            let got = validate::validate_json(s, &args, &ValidatorRules::ALL_ON);
            if got.is_ok() == want {
                tally.right += 1;
                continue;
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
                .any(|(f, g, c, _)| *f == label && *g == gname && *c == cname);
            if listed {
                tally.deviations.push(line);
            } else {
                tally.wrong.push(line);
            }
        }
    }
}

fn own_case_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/schema_cases");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn our_own_cases_are_all_judged_right() {
    let files = own_case_files();
    assert!(
        !files.is_empty(),
        "no case files in tests/data/schema_cases"
    );
    let mut tally = Tally::default();
    for f in &files {
        let label = f.file_name().unwrap().to_string_lossy().into_owned();
        run_file(f, &label, &mut tally);
    }
    println!(
        "own cases: {} right, {} wrong, {} refused, {} not applicable",
        tally.right,
        tally.wrong.len() + tally.deviations.len(),
        tally.refused,
        tally.not_applicable
    );
    assert!(tally.right > 100, "too few cases ran: {tally:?}");
    assert!(
        tally.wrong.is_empty(),
        "wrong verdicts:\n{}",
        tally.wrong.join("\n")
    );
    assert!(tally.deviations.is_empty(), "{:?}", tally.deviations);
    assert_eq!(
        (tally.refused, tally.not_applicable),
        (0, 0),
        "our own cases should all be about what the validator implements"
    );
}

#[test]
fn the_official_suite_where_it_is_installed() {
    let Some(dir) = std::env::var_os("JSON_SCHEMA_TEST_SUITE") else {
        println!("JSON_SCHEMA_TEST_SUITE is not set: skipped the official suite");
        return;
    };
    let dir = PathBuf::from(dir);
    let mut tally = Tally::default();
    for name in SUITE_FILES {
        run_file(&dir.join(name), name, &mut tally);
    }
    println!(
        "JSON Schema Test Suite (draft 2020-12, {} files): {} right, {} wrong ({} of them \
         deliberate deviations), {} refused, {} not applicable",
        SUITE_FILES.len(),
        tally.right,
        tally.wrong.len() + tally.deviations.len(),
        tally.deviations.len(),
        tally.refused,
        tally.not_applicable
    );
    for d in &tally.deviations {
        println!("  deviation: {d}");
    }
    for r in &tally.refusals {
        println!("  refused: {r}");
    }
    assert!(
        tally.wrong.is_empty(),
        "wrong verdicts:\n{}",
        tally.wrong.join("\n")
    );
    // A listed deviation that no longer happens is a stale list.
    for (f, g, c, why) in DEVIATIONS {
        let hit = tally
            .deviations
            .iter()
            .any(|d| d.starts_with(&format!("{f}: {g}: {c}:")));
        assert!(hit, "listed deviation did not occur: {f}: {g}: {c} ({why})");
    }
}
