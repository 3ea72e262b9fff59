//! `tooldojo trace` as a user runs it: the built binary over the shipped scenarios.

use std::process::Command;

use serde_json::Value;

fn tooldojo(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .args(args)
        .output()
        .expect("run tooldojo")
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn json_lines_have_t_ms_and_event_and_end_with_stopped() {
    let out = tooldojo(&["trace", "partial-success", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() > 5);
    for l in &lines {
        assert!(l["t_ms"].is_u64() && l["event"].is_string(), "{l}");
    }
    let last = lines.last().unwrap();
    assert_eq!(last["event"], "stopped");
    assert_eq!(last["stop_reason"], "final_answer");
    assert_eq!(last["results"]["c1"], "ok");
    assert_eq!(last["results"]["c2"], "timeout");
}

#[test]
fn same_scenario_and_seed_print_the_same_bytes() {
    for args in [
        &["trace", "retry-read", "--json", "--seed", "7"][..],
        &["trace", "race-vs-cancel"][..],
    ] {
        let a = stdout(&tooldojo(args));
        let b = stdout(&tooldojo(args));
        assert_eq!(a, b);
    }
    let a = stdout(&tooldojo(&["trace", "retry-read", "--json", "--seed", "1"]));
    let b = stdout(&tooldojo(&["trace", "retry-read", "--json", "--seed", "2"]));
    assert_ne!(a, b, "the jitter follows the seed");
}

#[test]
fn default_output_is_a_readable_timeline() {
    let out = tooldojo(&["trace", "happy-path"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.lines().next().unwrap().contains("0 ms  start"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    assert!(text.lines().last().unwrap().contains("final_answer"));
    assert!(!text.contains('{'), "no JSON in the human output");
}

#[test]
fn the_stop_line_counts_retries_and_repairs_when_a_run_used_some() {
    let stop = |name: &str| {
        let text = stdout(&tooldojo(&["trace", name]));
        let at = text.find(" stop ").expect("a stop line");
        text[at..].split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert!(stop("retry-read").contains("2 tool calls, 4 retries; c1=ok"));
    assert!(stop("repair").contains("1 tool call, 1 repair; c1=invalid_arguments"));
    let plain = stop("happy-path");
    assert!(
        !plain.contains("retr") && !plain.contains("repair"),
        "{plain}"
    );
}

#[test]
fn chrome_export_has_complete_events_one_track_per_call() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.json");
    let out = tooldojo(&[
        "trace",
        "parallel-out-of-order",
        "--chrome",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let events = doc["traceEvents"].as_array().unwrap();
    let slices: Vec<&Value> = events.iter().filter(|e| e["ph"] == "X").collect();
    assert!(!slices.is_empty());
    for s in &slices {
        assert!(
            s["ts"].is_u64() && s["dur"].is_u64() && s["tid"].is_u64(),
            "{s}"
        );
    }
    let call_tracks: std::collections::BTreeSet<u64> = slices
        .iter()
        .filter(|s| s["cat"] == "call")
        .map(|s| s["tid"].as_u64().unwrap())
        .collect();
    assert_eq!(call_tracks.len(), 3);
    // c1 took 300 ms of virtual time: 300,000 microseconds.
    assert!(
        slices.iter().any(
            |s| s["name"].as_str().unwrap().starts_with("c1 get_ticket") && s["dur"] == 300_000
        )
    );
}

#[test]
fn a_broken_scenario_exits_2_with_file_line_col() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.json");
    std::fs::write(&file, "{\n  \"title\": \"x\",\n  \"turns\": [,]\n}\n").unwrap();
    let out = tooldojo(&["trace", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{}:3:", file.display())), "{err}");
    assert!(!err.contains("panicked"));

    // A field with a typo is caught too, with its position.
    std::fs::write(
        &file,
        "{\"title\": \"x\", \"context\": {\"tenant\": \"a\", \"can_read_tickets\": true},\n \"turnz\": []}",
    )
    .unwrap();
    let out = tooldojo(&["trace", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(":2:"));

    let out = tooldojo(&["trace", "no-such-scenario"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("happy-path"));
}

#[test]
fn a_file_that_is_not_a_scenario_object_says_what_a_scenario_is() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.json");
    let name = file.to_str().unwrap();
    std::fs::write(&file, "[1,2]\n").unwrap();
    for cmd in ["trace", "play"] {
        let out = tooldojo(&[cmd, name]);
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.trim_end(),
            format!(
                "tooldojo: {name}:1:1: a scenario file is one JSON object \
                 ({{\"title\", \"context\", \"turns\", ...}}), not an array"
            ),
            "{cmd}"
        );
    }
}

#[test]
fn a_scenario_cut_short_is_not_json_before_it_is_the_wrong_shape() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cut.json");
    let name = file.to_str().unwrap();
    // Cut inside an array's first object: read field by field, it would be "a map, expected
    // a string" at 1:1.
    std::fs::write(&file, "[{\"tenant\": \"alpha\",\n").unwrap();
    let out = tooldojo(&["trace", name]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        format!("tooldojo: {name}:2:1: not JSON: unterminated object, expected a key")
    );
    // The tools loader says the same of the same text.
    let tools = tooldojo(&["tools", name]);
    assert_eq!(String::from_utf8_lossy(&tools.stderr), err);
    // An object cut short, too: not serde's "EOF while parsing a value".
    std::fs::write(&file, "{\"title\": \"x\",").unwrap();
    let out = tooldojo(&["trace", name]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        format!("tooldojo: {name}:1:15: not JSON: unterminated object, expected a key")
    );
}

#[test]
fn a_scenario_file_on_disk_runs_like_a_shipped_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.json");
    std::fs::write(
        &file,
        r#"{"title": "mine", "context": {"tenant": "alpha", "can_read_tickets": true},
            "records": [{"tenant": "alpha", "id": "TKT-555", "title": "t", "status": "open"}],
            "turns": [{"calls": [{"id": "a", "tool": "get_ticket", "args": {"ticket_id": "TKT-555"}}]},
                      {"final": "ok"}]}"#,
    )
    .unwrap();
    let out = tooldojo(&["trace", file.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last: Value = serde_json::from_str(stdout(&out).lines().last().unwrap()).unwrap();
    assert_eq!(last["results"]["a"], "ok");
}

#[test]
fn a_scenario_over_the_call_cap_is_refused_and_one_at_the_cap_streams() {
    use tooldojo::orchestrator::{MAX_CALLS, load_scenario_generated};
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, calls: usize| {
        let path = dir.path().join(name);
        let text = serde_json::to_string(&load_scenario_generated(calls, 8)).unwrap();
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let chrome = dir.path().join("trace.json");
    let over = write("over.json", MAX_CALLS + 1);
    let out = tooldojo(&["trace", &over, "--chrome", chrome.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("at most {MAX_CALLS}")), "{err}");
    assert!(
        !chrome.exists(),
        "nothing is written for a refused scenario"
    );
    let at = write("at.json", MAX_CALLS);
    let out = tooldojo(&["trace", &at, "--json", "--chrome", chrome.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&chrome).unwrap()).unwrap();
    assert!(doc["traceEvents"].as_array().unwrap().len() > MAX_CALLS);
    let lines = stdout(&out).lines().count();
    assert!(lines > MAX_CALLS, "{lines} lines");
}
