//! Hostile input at the command line: endless files, control characters meant for the
//! terminal, and an environment that asks for backtraces. Every case ends in a clean result or
//! a one-line exit 2, fast, and nothing raw reaches stdout or stderr.

use crate::support::exec_with_records;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn tooldojo(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tooldojo"));
    cmd.args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("run tooldojo")
}

/// Characters that steer a terminal: C0 controls other than newline and tab, C1 controls,
/// bidi controls.
fn raw_controls(bytes: &[u8]) -> Vec<char> {
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\t')
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        })
        .collect()
}

fn assert_clean(out: &Output, what: &str) {
    let found: Vec<char> = raw_controls(&out.stdout)
        .into_iter()
        .chain(raw_controls(&out.stderr))
        .collect();
    assert!(
        found.is_empty(),
        "{what}: raw controls {found:?} in\nstdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn endless_input_is_refused_quickly_with_exit_2() {
    let cases: [&[&str]; 5] = [
        &["validate", "--jsonl", "/dev/zero"],
        &["exec", "--jsonl", "/dev/zero"],
        &["validate", "--schema", "weather", "--args", "@/dev/zero"],
        &["trace", "/dev/zero"],
        &exec_with_records("alpha", "@/dev/zero"),
    ];
    for args in cases {
        let start = Instant::now();
        let out = tooldojo(args, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("the most tooldojo reads"),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{args:?} was slow"
        );
    }
}

#[test]
fn user_errors_never_carry_a_backtrace() {
    let out = tooldojo(
        &["validate", "--schema", "{", "--args", "{}"],
        &[("RUST_BACKTRACE", "1"), ("RUST_LIB_BACKTRACE", "1")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!stderr.contains("backtrace"), "{stderr}");
}

#[test]
fn terminal_controls_never_reach_the_terminal() {
    let key = r"a\u001b]52;c;aGk=\u0007\u009b31m\u202e";
    let flat = format!(r#"{{"{key}": "intx"}}"#);
    let schema =
        format!(r#"{{"type": "object", "properties": {{"{key}": {{"type": "integer"}}}}}}"#);
    let args = format!(r#"{{"{key}": "x"}}"#);
    let tool = "x\u{1b}]0;title\u{7}\u{9b}1m";
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "flat schema error on stderr",
            vec!["validate", "--schema", &flat, "--args", "{}"],
        ),
        (
            "validate verdict",
            vec!["validate", "--schema", &schema, "--args", &args],
        ),
        (
            "exec envelope",
            vec!["exec", "--tool", tool, "--args", "{}", "--tenant", "alpha"],
        ),
    ];
    for (what, args) in cases {
        let out = tooldojo(&args, &[]);
        assert_clean(&out, what);
    }
}

#[test]
fn a_hostile_scenario_is_clean_in_every_trace_output() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("evil.json");
    let title = "\u{1b}]52;c;aGVsbG8=\u{7} evil \u{1b}]0;pwn\u{7} \u{9b}2J \u{202e}txt";
    let scenario = serde_json::json!({
        "title": title,
        "context": {"tenant": "alpha", "can_read_tickets": true},
        "turns": [
            {"calls": [{"id": "c\u{1b}[2J", "tool": "get_ticket", "args": {"ticket_id": "TKT-104"}}]},
            {"final": "done \u{1b}]0;x\u{7}"}
        ]
    });
    std::fs::write(&path, scenario.to_string()).unwrap();
    let path = path.to_str().unwrap();
    let chrome = dir.path().join("chrome.json");
    for args in [
        vec!["trace", path],
        vec!["trace", path, "--json"],
        vec!["trace", path, "--chrome", chrome.to_str().unwrap()],
    ] {
        let out = tooldojo(&args, &[]);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_clean(&out, &format!("{args:?}"));
    }
    let written = std::fs::read(&chrome).unwrap();
    assert!(
        raw_controls(&written).is_empty(),
        "chrome file has raw controls"
    );
}

#[test]
fn a_long_unbroken_title_prints_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.json");
    let scenario = serde_json::json!({
        "title": "x".repeat(2_000_000),
        "context": {"tenant": "alpha", "can_read_tickets": true},
        "turns": [{"final": "y".repeat(2_000_000)}]
    });
    std::fs::write(&path, scenario.to_string()).unwrap();
    let start = Instant::now();
    let out = tooldojo(&["trace", path.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(0));
    // Quadratic wrapping took tens of seconds at this size; linear takes well under one.
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "{:?}",
        start.elapsed()
    );
}

/// A lesson written to attack the terminal: OSC 52, CSI, C1 and bidi controls in its title,
/// a heading, a page title, fence options and block bodies, and in a second file's name.
fn hostile_lessons() -> tempfile::TempDir {
    let evil =
        "\u{1b}]52;c;aGVsbG8=\u{7}\u{1b}[2J\u{1b}[31m\u{9b}1;1H\u{9d}0;t\u{9c}\u{202e}\u{2066}";
    let text = format!(
        "# Evil title {evil}end\n*About 3 minutes*\n\nBody text {evil} here.\n\n\
         ## A heading {evil}\n\n\
         ```quiz\nWhich one {evil}?\n- [x] yes {evil} :: right {evil}\n- [ ] no :: wrong\n```\n\n\
         ```trace scenario=no-such-{evil}\n```\n\n```checklist\n- an item {evil}\n```\n\n\
         ---\n\n## Second page {evil}\n\n```playground mode=validator schema=nope{evil}\n```\n"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("01-evil.md"), text).unwrap();
    std::fs::write(
        dir.path().join("02-name\u{1b}[31m\u{202e}.md"),
        format!("# Second {evil}\n\n```quiz opt{evil}=1\nQ\n- [x] a :: b\n```\n"),
    )
    .unwrap();
    dir
}

#[test]
fn a_hostile_lesson_reaches_no_terminal_through_render_or_check() {
    let dir = hostile_lessons();
    let lessons = dir.path().to_str().unwrap();
    for page in ["lesson:01-evil#1", "lesson:01-evil#2", "lesson:02-name"] {
        let out = tooldojo(
            &["render", "--lessons", lessons, page, "--size", "120x40"],
            &[],
        );
        assert_clean(&out, page);
    }
    // The first lesson alone parses and fails its lint rows; with the second the lint names
    // the file that does not parse.
    let check = tooldojo(&["check", "--lessons", lessons], &[]);
    assert_clean(&check, "check");
    assert!(!check.status.success());
    std::fs::remove_file(dir.path().join("02-name\u{1b}[31m\u{202e}.md")).unwrap();
    let check = tooldojo(&["check", "--lessons", lessons], &[]);
    assert_clean(&check, "check, one lesson");
    let table = String::from_utf8_lossy(&check.stdout);
    assert!(table.contains("FAIL lessons/"), "{table}");
    assert!(table.contains("the scenario exists"), "{table}");
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    use std::io::Read;
    use std::process::Stdio;
    // 300x1000 cells is far more than a pipe holds, so the writer meets the closed pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .args(["render", "home", "--size", "300x1000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tooldojo");
    let mut first = [0u8; 16];
    let mut stdout = child.stdout.take().unwrap();
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
