//! Small limits said plainly: an out-of-range number in a schema, a records error's column,
//! a screen size too large, page 0, and one nesting limit for both JSON-lines readers.

use crate::support::tooldojo;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Numbers beyond the float range read as infinity in schemas and arguments alike, as
/// Python's `json` reads them; messages say `inf`, never `null`.
#[test]
fn a_schema_number_beyond_the_float_range_is_infinity_and_said_so() {
    let cases = [
        (
            r#""minimum": 1e400"#,
            r#"{"a": 5}"#,
            "a must be >= inf, got 5",
        ),
        (
            r#""maximum": 1e300"#,
            r#"{"a": 1e400}"#,
            "a must be <= 1e300, got inf",
        ),
        (
            r#""exclusiveMaximum": 1e400"#,
            r#"{"a": 2e999}"#,
            "a must be < inf, got inf",
        ),
        (r#""enum": [1e400]"#, r#"{"a": "x"}"#, "a must be inf, got"),
        (r#""maximum": 1e400"#, r#"{"a": 1e308}"#, ""),
        (r#""minimum": -1e400"#, r#"{"a": -1e999}"#, ""),
    ];
    for (keyword, args, said) in cases {
        let schema = format!(r#"{{"type": "object", "properties": {{"a": {{{keyword}}}}}}}"#);
        let out = tooldojo(&["validate", "--schema", &schema, "--args", args], None);
        let got = text(&out.stdout);
        assert!(out.status.code().is_some_and(|c| c < 2), "{keyword}: {got}");
        if said.is_empty() {
            assert!(got.contains("\"ok\": true"), "{keyword} {args}: {got}");
        } else {
            assert!(got.contains(said), "{keyword} {args}: {got}");
        }
        assert!(!got.contains("null"), "{keyword}: {got}");
    }
}

#[test]
fn a_records_error_names_a_real_column() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("records.json");
    let records = format!("@{}", file.display());
    for (body, at) in [
        ("{\"a\": 1}", ":1:1:"),
        ("[\n", ":2:1:"),
        ("[{\"id\": 5}]", ":1:9:"),
    ] {
        std::fs::write(&file, body).unwrap();
        let out = tooldojo(
            &[
                "exec",
                "--records",
                &records,
                "--tool",
                "get_ticket",
                "--tenant",
                "alpha",
                "--args",
                r#"{"ticket_id": "TKT-104"}"#,
            ],
            None,
        );
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(at), "{body:?}: {err}");
        assert!(!err.contains(":0:"), "{err}");
    }
}

#[test]
fn a_screen_too_large_says_so_and_gives_the_maximum() {
    let out = tooldojo(
        &["render", "--size", "1001x1000", "lesson:01-untrusted-input"],
        None,
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.contains("too large") && err.contains("1000000"),
        "{err}"
    );
    assert!(!err.contains("expected WIDTHxHEIGHT"), "{err}");
    let out = tooldojo(
        &["render", "--size", "80by24", "lesson:01-untrusted-input"],
        None,
    );
    assert!(text(&out.stderr).contains("expected WIDTHxHEIGHT"));
    let out = tooldojo(
        &["render", "--size", "1000x1000", "lesson:01-untrusted-input"],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn page_zero_is_refused_because_pages_count_from_one() {
    let out = tooldojo(&["render", "lesson:01-untrusted-input#0"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("from 1"),
        "{}",
        text(&out.stderr)
    );
    let out = tooldojo(&["render", "lesson:01-untrusted-input#1"], None);
    assert!(out.status.success());
}

/// One case line both readers accept (each ignores the other's members), nested `depth`
/// arrays deep inside its args.
fn deep_case(depth: usize) -> String {
    format!(
        r#"{{"schema": "weather", "tool": "get_ticket", "context": {{"tenant": "alpha", "can_read_tickets": true}}, "args": {{"city": {}{}}}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    ) + "\n"
}

#[test]
fn both_json_lines_readers_share_one_nesting_limit() {
    // The case object and the args object are two levels: 126 arrays make 128 in all.
    for (depth, allowed) in [(126, true), (127, false), (128, false)] {
        let line = deep_case(depth);
        let v = text(&tooldojo(&["validate", "--jsonl"], Some(&line)).stdout);
        let e = text(&tooldojo(&["exec", "--jsonl"], Some(&line)).stdout);
        for (who, out) in [("validate", &v), ("exec", &e)] {
            assert_eq!(
                !out.contains("nesting deeper than 128 levels"),
                allowed,
                "{who} at depth {depth}: {out}"
            );
        }
        if !allowed {
            assert_eq!(v, e, "the same message from both readers");
        }
    }
}
