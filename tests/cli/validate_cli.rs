//! `tooldojo validate` run as a user runs it: the built binary, real fixtures.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn tooldojo(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tooldojo");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const WEATHER: &str = r#"{"city": "str", "days": "int"}"#;

#[test]
fn the_seed_examples_on_the_command_line() {
    let rows = [
        (
            r#"{"city": "Paris", "days": 3}"#,
            r#"{"ok": true, "error": ""}"#,
        ),
        (
            r#"{"days": 3}"#,
            r#"{"ok": false, "error": "missing required arg: city"}"#,
        ),
        (
            r#"{"city": "Paris", "unit": "C"}"#,
            r#"{"ok": false, "error": "unknown arg: unit"}"#,
        ),
        (
            r#"{"city": "Paris", "days": "3"}"#,
            r#"{"ok": false, "error": "type error: days expected int, got str"}"#,
        ),
    ];
    for (args, want) in rows {
        let o = tooldojo(
            &[
                "validate",
                "--schema",
                WEATHER,
                "--required",
                "city",
                "--args",
                args,
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o), format!("{want}\n"), "{args}");
    }
}

#[test]
fn all_named_schemas_and_files() {
    let o = tooldojo(
        &[
            "validate",
            "--schema",
            "search_tickets",
            "--args",
            r#"{"page_size": 99999999, "x": 1}"#,
            "--all",
        ],
        None,
    );
    assert_eq!(
        stdout(&o),
        "{\"ok\": false, \"error\": \"missing required arg: query\", \"errors\": [\"missing required arg: query\", \"unknown arg: x\", \"value error: page_size must be <= 100, got 99999999\"]}\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.json");
    std::fs::write(&path, WEATHER).unwrap();
    let at = format!("@{}", path.display());
    let o = tooldojo(
        &[
            "validate",
            "--schema",
            &at,
            "--required",
            "city",
            "--args",
            r#"{"city": true}"#,
        ],
        None,
    );
    assert_eq!(
        stdout(&o),
        "{\"ok\": false, \"error\": \"type error: city expected str, got bool\"}\n"
    );
}

#[test]
fn bad_args_text_is_a_verdict_not_a_failure() {
    let o = tooldojo(
        &[
            "validate",
            "--schema",
            "weather",
            "--args",
            "{\"city\": \"a\",\n \"city\": \"b\"}",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "{\"ok\": false, \"error\": \"duplicate arg: city\"}\n"
    );
    let o = tooldojo(
        &[
            "validate",
            "--schema",
            "weather",
            "--args",
            "{\n\"city\" \"a\"}",
        ],
        None,
    );
    assert_eq!(
        stdout(&o),
        "{\"ok\": false, \"error\": \"invalid JSON: expected ':' after the key at line 2 column 8\"}\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.json");
    std::fs::write(&path, "[".repeat(1_000_000)).unwrap();
    let at = format!("@{}", path.display());
    let o = tooldojo(&["validate", "--schema", "weather", "--args", &at], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("nesting deeper than 128 levels"));
}

#[test]
fn malformed_schemas_exit_2_and_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.json");
    std::fs::write(&path, "{\n  \"city\": \"str\",\n  \"days\": }\n").unwrap();
    let at = format!("@{}", path.display());
    let o = tooldojo(&["validate", "--schema", &at, "--args", "{}"], None);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("bad.json:3:11"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for schema in [
        r#"{"city": "string"}"#,
        r#"{"type": "object", "properties": {"a": {"pattern": "(("}}}"#,
        "[]",
        "nosuch",
    ] {
        let o = tooldojo(&["validate", "--schema", schema, "--args", "{}"], None);
        assert_eq!(o.status.code(), Some(2), "{schema}");
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    }
    let o = tooldojo(
        &[
            "validate", "--schema", "weather", "--args", "{}", "--off", "nope",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn jsonl_from_stdin_and_file() {
    let input = concat!(
        r#"{"schema": "weather", "args": {"city": "Paris", "days": 3}}"#,
        "\n",
        r#"{"schema": {"city": "str", "days": "int"}, "required": ["city"], "args": {"days": true}}"#,
        "\n",
        "oops\n",
        r#"{"schema": "weather", "args_text": "{\"city\": \"P\", \"days\": 1.0}"}"#,
        "\n",
    );
    let want = concat!(
        r#"{"ok": true, "error": ""}"#,
        "\n",
        r#"{"ok": false, "error": "missing required arg: city"}"#,
        "\n",
        r#"{"ok": false, "error": "bad case: a case must be a JSON object"}"#,
        "\n",
        r#"{"ok": false, "error": "type error: days expected int, got float"}"#,
        "\n",
    );
    let o = tooldojo(&["validate", "--jsonl"], Some(input));
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), want);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cases.jsonl");
    std::fs::write(&path, input).unwrap();
    let o = tooldojo(&["validate", "--jsonl", path.to_str().unwrap()], None);
    assert_eq!(stdout(&o), want);
    let o = tooldojo(&["validate", "--jsonl", "/nonexistent/cases.jsonl"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/cases.jsonl"));
}

#[test]
fn switching_a_check_off_from_the_command_line() {
    let o = tooldojo(
        &[
            "validate",
            "--schema",
            "weather",
            "--args",
            r#"{"city": "P", "days": true}"#,
            "--off",
            "bool_guard",
        ],
        None,
    );
    assert_eq!(stdout(&o), "{\"ok\": true, \"error\": \"\"}\n");
}
