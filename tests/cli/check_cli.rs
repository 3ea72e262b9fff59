//! `tooldojo check` over the shipped fixtures and over broken copies of them.

use std::path::Path;
use std::process::{Command, Output};

fn tooldojo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .args(args)
        .output()
        .expect("run tooldojo")
}

fn copy_fixtures(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    copy_dir(&from, to);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn shipped_fixtures_all_pass() {
    let o = tooldojo(&["check"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("seed-ok") && text.contains("row-8") && text.contains("edge-mutation"));
    assert!(text.contains(" 0 failed"));
}

#[test]
fn json_rows_have_the_contract_fields() {
    let o = tooldojo(&["check", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    let mut ids = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for k in ["suite", "name", "expected", "actual", "pass"] {
            assert!(v.get(k).is_some(), "{line}");
        }
        ids.push(v["name"].as_str().unwrap().to_owned());
    }
    for id in [
        "seed-ok",
        "seed-missing",
        "seed-unknown",
        "seed-type",
        "row-1",
        "row-8",
        "edge-array",
        "edge-empty-object",
        "edge-extra-field",
        "edge-four-digit",
        "edge-unknown-tenant",
        "edge-permission-denied",
        "edge-mutation",
    ] {
        assert!(ids.iter().any(|i| i == id), "{id}");
    }
}

#[test]
fn a_wrong_expectation_is_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    copy_fixtures(dir.path());
    let file = dir.path().join("get_ticket_cases.json");
    let text = std::fs::read_to_string(&file).unwrap();
    // Claim that row-3 (TKT-999) is found.
    let broken = text.replacen(
        r#""expected": {"ok": false, "code": "not_found"}"#,
        r#""expected": {"ok": false, "code": "forbidden"}"#,
        1,
    );
    assert_ne!(broken, text);
    std::fs::write(&file, broken).unwrap();
    let o = tooldojo(&["check", "--fixtures", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("FAIL get_ticket/row-3"), "{out}");
}

#[test]
fn a_malformed_file_is_exit_2_with_its_name_and_line() {
    let dir = tempfile::tempdir().unwrap();
    copy_fixtures(dir.path());
    let file = dir.path().join("validator_cases.json");
    std::fs::write(&file, "[\n  {\"id\": \"x\",\n  oops\n]").unwrap();
    let o = tooldojo(&["check", "--fixtures", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("validator_cases.json:3:"), "{err}");
    // A case naming a schema that does not exist is a broken file too.
    std::fs::write(&file, r#"[{"id": "x", "group": "seed", "schema": "nope", "args": {}, "expected": {"ok": true}, "reason": "r"}]"#).unwrap();
    let o = tooldojo(&["check", "--fixtures", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no schema named \"nope\""));
}
