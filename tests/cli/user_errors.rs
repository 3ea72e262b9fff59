//! Every subcommand's bad inputs, and the app's, run with backtraces asked for: each is a
//! clean refusal (exit 2), never a report with a `Location:`, a backtrace or colour codes
//! in a pipe. Our own errors are one line; clap's usage errors keep clap's short form.

use crate::support::exec_with_records;
use std::process::{Command, Stdio};

/// `tooldojo ARGS` with every backtrace switch on, no terminal anywhere, its progress in a
/// folder of the tests' own, and its output piped.
fn tooldojo(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tooldojo"));
    cmd.args(args)
        .env("RUST_BACKTRACE", "1")
        .env("RUST_LIB_BACKTRACE", "1")
        .env(
            "TOOLDOJO_STATE_DIR",
            std::env::temp_dir().join("tooldojo-user-errors"),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Run `tooldojo ARGS` (see [`tooldojo`]): its exit code, stdout and stderr.
fn refused(args: &[&str]) -> (Option<i32>, String, String) {
    let out = tooldojo(args).output().expect("run tooldojo");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_clean(args: &[&str], (code, stdout, stderr): &(Option<i32>, String, String)) {
    assert_eq!(*code, Some(2), "{args:?} exits 2:\n{stderr}");
    assert!(
        stdout.is_empty(),
        "{args:?} prints nothing on stdout: {stdout}"
    );
    for bad in ["Location:", "BACKTRACE", "backtrace", "panicked", "\u{1b}["] {
        assert!(!stderr.contains(bad), "{args:?}: {bad:?} in\n{stderr}");
    }
}

#[test]
fn no_user_error_of_any_subcommand_carries_a_location_or_backtrace() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    std::fs::write(path("bad.json"), "{\n").unwrap();
    std::fs::write(path("none.py"), "def f():\n    pass\n").unwrap();
    std::fs::write(path("notes.txt"), "hello\n").unwrap();
    let missing = path("missing.json");
    let records = format!("@{missing}");
    let transcript = path("no/such/dir/t.md");
    let chrome = path("no/such/dir/c.json");
    let bad_json = path("bad.json");
    let none_py = path("none.py");
    let notes = path("notes.txt");
    let no_lessons = path("no-lessons");
    std::fs::create_dir(&no_lessons).unwrap();
    // Our own refusals: one line each, starting with the program's name.
    let ours: Vec<Vec<&str>> = vec![
        vec!["--lesson", "no-such-lesson"],
        vec!["--records", &records],
        vec!["--lessons", &missing],
        // No terminal at all (stdin and stdout are not one).
        vec![],
        vec!["validate", "--schema", "{", "--args", "{}"],
        vec!["validate", "--schema", "no-such-schema", "--args", "{}"],
        vec!["validate", "--jsonl", &missing],
        vec!["validate", "--schema", &records, "--args", "{}"],
        vec!["exec", "--jsonl", &missing],
        exec_with_records("alpha", &records).to_vec(),
        vec!["check", "--fixtures", &missing],
        vec!["check", "--lessons", &missing],
        vec!["check", "--lessons", &no_lessons],
        vec!["trace", "no-such-scenario"],
        vec!["trace", &bad_json],
        vec!["trace", "happy-path", "--chrome", &chrome],
        vec!["render", "no-such-screen"],
        vec!["render", "home", "--size", "0x0"],
        vec!["render", "home", "--size", "big"],
        vec!["render", "home", "--size", "99999x99999"],
        vec!["render", "lesson:no-such-lesson"],
        vec!["render", "lesson:01-untrusted-input#99"],
        vec!["play", "no-such-scenario"],
        vec!["play", &bad_json],
        vec!["play", "happy-path", "--speed", "99"],
        vec!["practice", &missing],
        vec!["practice", &none_py],
        vec!["practice", &notes],
        vec!["rehearse", "--transcript", &transcript],
        vec![
            "--theme", "mono", "validate", "--schema", "weather", "--args", "{}",
        ],
    ];
    for args in &ours {
        let out = refused(args);
        assert_clean(args, &out);
        let stderr = &out.2;
        assert_eq!(stderr.lines().count(), 1, "{args:?}: one line:\n{stderr}");
        assert!(stderr.starts_with("tooldojo: "), "{args:?}: {stderr}");
    }
    // Flags clap refuses: its own short usage error, clean as well.
    let clap: Vec<Vec<&str>> = vec![
        vec!["--theme", "nope"],
        vec!["--no-such-flag"],
        vec![
            "validate", "--schema", "weather", "--args", "{}", "--off", "nope",
        ],
        vec!["exec", "--tool", "get_ticket", "--off", "nope"],
        vec!["trace"],
        vec!["practice", "--lang", "cobol"],
        vec!["rehearse", "--minutes", "0"],
        vec!["rehearse", "--lang", "cobol"],
        vec!["no-such-command"],
    ];
    for args in &clap {
        let out = refused(args);
        assert_clean(args, &out);
        assert!(out.2.starts_with("error: "), "{args:?}: {}", out.2);
    }
}

#[test]
fn a_bad_lesson_id_names_the_known_ids_in_one_line() {
    let (code, _, stderr) = refused(&["--lesson", "99-nope"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("tooldojo: no lesson \"99-nope\"; lessons: 01-untrusted-input, "),
        "{stderr}"
    );
    assert!(
        stderr.trim_end().ends_with("17-checklist-and-interview"),
        "{stderr}"
    );
}

#[test]
fn a_records_file_says_what_it_must_hold_and_where_it_stops_being_json() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "obj.json",
            "{\"tenant\": \"alpha\"}\n",
            ":1:1: a records file is one JSON array of tickets ([{\"tenant\", \"id\", \"title\", \"status\"}, ...]), not an object",
        ),
        (
            "cut.json",
            "[{\"tenant\": \"alpha\",",
            ":1:21: not JSON: unterminated object, expected a key",
        ),
    ];
    for (name, text, want) in cases {
        let path = dir.path().join(name).display().to_string();
        std::fs::write(&path, text).unwrap();
        let records = format!("@{path}");
        let args = exec_with_records("alpha", &records);
        let (code, _, stderr) = refused(&args);
        assert_eq!(code, Some(2), "{name}");
        assert_eq!(stderr.trim_end(), format!("tooldojo: {path}{want}"));
    }
}

/// Run `tooldojo ARGS` with its stdout and stderr pipes already closed by their reader (as
/// in `2>&1 | true`): its exit code.
fn with_readers_gone(args: &[&str]) -> Option<i32> {
    let mut child = tooldojo(args).spawn().expect("run tooldojo");
    // Close the reading ends before the child can write a byte.
    drop(child.stdout.take());
    drop(child.stderr.take());
    child.wait().expect("wait for tooldojo").code()
}

#[test]
fn an_error_with_no_one_reading_stderr_still_exits_2_without_a_crash() {
    for args in [
        &["audit", "no-such-log.jsonl"][..],
        &["validate", "--schema", "no-such-schema", "--args", "{}"],
        &["practice", "no-such-file.py"],
    ] {
        assert_eq!(with_readers_gone(args), Some(2), "{args:?}");
    }
}

#[test]
fn a_verdict_with_no_one_reading_stdout_is_not_a_crash() {
    let args = [
        "validate",
        "--schema",
        "weather",
        "--args",
        r#"{"city": "Oslo"}"#,
    ];
    assert_eq!(with_readers_gone(&args), Some(0), "{args:?}");
}
