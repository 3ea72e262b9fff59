//! `tooldojo validate` run as a user runs it: the built binary, real fixtures.

use std::process::Output;

use crate::support::tooldojo;

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
        "{\"ok\": false, \"error\": \"missing required arg: query\", \"errors\": [\"missing required arg: query\", \"unknown arg: x\", \"value error: page_size must be <= 100, got 99999999\"], \"form\": \"tool\"}\n"
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
        r#"{"ok": false, "error": "bad case: not JSON: expected a value at line 1 column 1"}"#,
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

#[test]
fn an_ambiguous_schema_needs_its_form_named() {
    let o = tooldojo(
        &[
            "validate",
            "--schema",
            r#"{"title": "int"}"#,
            "--args",
            r#"{"x": 1}"#,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ambiguous"), "{}", stderr(&o));
    let named = |form: &str| {
        let o = tooldojo(
            &[
                "validate",
                "--schema",
                r#"{"title": "int"}"#,
                "--form",
                form,
                "--args",
                r#"{"x": 1}"#,
                "--all",
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    assert_eq!(
        named("flat"),
        "{\"ok\": false, \"error\": \"unknown arg: x\", \"errors\": [\"unknown arg: x\"], \"form\": \"flat\"}\n"
    );
    assert_eq!(
        named("json-schema"),
        "{\"ok\": true, \"error\": \"\", \"errors\": [], \"form\": \"json-schema\"}\n"
    );
    let o = tooldojo(
        &[
            "validate", "--schema", "{}", "--form", "yaml", "--args", "{}",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    // In JSON lines each case may name its form; a bad name is a bad case, not a stop.
    let input = concat!(
        r#"{"schema": {}, "args": {"a": 1}}"#,
        "\n",
        r#"{"schema": {}, "form": "flat", "args": {"a": 1}}"#,
        "\n",
        r#"{"schema": {}, "form": "json-schema", "args": {"a": 1}}"#,
        "\n",
        r#"{"schema": {}, "form": 3, "args": {}}"#,
        "\n",
    );
    let o = tooldojo(&["validate", "--jsonl"], Some(input));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].contains("bad case: schema: the schema {} is ambiguous"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], r#"{"ok": false, "error": "unknown arg: a"}"#);
    assert_eq!(lines[2], r#"{"ok": true, "error": ""}"#);
    assert!(
        lines[3].contains(
            "must be one of flat, json-schema, tool, mcp, openai-chat, openai-responses, got 3"
        ),
        "{}",
        lines[3]
    );
    // --form applies to every case that does not name its own.
    let o = tooldojo(
        &["validate", "--jsonl", "--form", "json-schema"],
        Some(input),
    );
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], r#"{"ok": true, "error": ""}"#);
    assert_eq!(lines[1], r#"{"ok": false, "error": "unknown arg: a"}"#);
}

#[test]
fn exact_numbers_and_ecma_patterns_on_the_command_line() {
    let rows = [
        (
            r#"{"type": "object", "properties": {"n": {"maximum": 9223372036854775807}}}"#,
            r#"{"n": 9223372036854775808}"#,
            r#"{"ok": false, "error": "value error: n must be <= 9223372036854775807, got 9223372036854775808"}"#,
        ),
        (
            r#"{"type": "object", "properties": {"n": {"enum": [99999999999999999999999]}}}"#,
            r#"{"n": 100000000000000000000000}"#,
            r#"{"ok": false, "error": "value error: n must be 99999999999999999999999, got 100000000000000000000000"}"#,
        ),
        (
            r#"{"type": "object", "properties": {"id": {"pattern": "^TKT-\\d{3}$"}}}"#,
            r#"{"id": "TKT-١٠٤"}"#,
            r#"{"ok": false, "error": "value error: id must match the pattern ^TKT-\\d{3}$, got \"TKT-١٠٤\""}"#,
        ),
        (
            r#"{"type": "object", "properties": {"s": {"minLength": 2.0}, "e": {"enum": []}}}"#,
            r#"{"s": "ab"}"#,
            r#"{"ok": true, "error": ""}"#,
        ),
    ];
    for (schema, args, want) in rows {
        let o = tooldojo(&["validate", "--schema", schema, "--args", args], None);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o), format!("{want}\n"), "{schema}");
    }
    let o = tooldojo(
        &[
            "validate",
            "--schema",
            r#"{"type": "object", "properties": {"a": {"pattern": "(?=x)"}}}"#,
            "--args",
            "{}",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("lookahead"), "{}", stderr(&o));
}
