//! `tooldojo audit` as a user runs it: the report and the JSON lines on the shipped example
//! log, every format read from a record of its own, a bad record reported with its line
//! while the run goes on, exit 0 when the input was read and 2 when it could not be, flags
//! refused before anything is printed, and hostile text never reaching the terminal raw.

use serde_json::{Value, json};

use super::support::tooldojo;

const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/audit/support-desk.jsonl"
);

pub(crate) fn run(args: &[&str]) -> (i32, String, String) {
    let out = tooldojo(args, None);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

pub(crate) fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub(crate) fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_owned()
}

#[test]
fn the_example_report_names_each_planted_fault() {
    let (code, out, err) = run(&["audit", EXAMPLE]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("4 conversations (Anthropic Messages), 7 tool calls against 3 declared tools"),
        "{out}"
    );
    for want in [
        "#2 call toolu_b1  close_ticket  invalid_arguments  at ticket_id",
        "type error: ticket_id expected str, got int",
        "#2 call toolu_b2  close_ticket  repaired",
        "#3 call toolu_c3  search_tickets  retry_storm",
        "#4 call toolu_d1  get_ticket  error_not_flagged (heuristic)",
        "longest failing streak: 3 (#3)",
    ] {
        assert!(out.contains(want), "{want}:\n{out}");
    }
}

#[test]
fn the_readme_shows_the_example_report_as_it_is_printed() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let cmd = "$ tooldojo audit fixtures/audit/support-desk.jsonl\n";
    let start = readme.find(cmd).expect("the worked example") + cmd.len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .args(["audit", "fixtures/audit/support-desk.jsonl"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(shown, String::from_utf8(out.stdout).unwrap());
    // And each JSON line it shows is printed as shown.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .args(["audit", "--json", "fixtures/audit/support-desk.jsonl"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let printed = String::from_utf8(out.stdout).unwrap();
    for line in readme
        .lines()
        .filter(|l| l.starts_with("{\"record\": \"fixtures/audit/"))
    {
        assert!(printed.lines().any(|p| p == line), "{line}");
    }
}

#[test]
fn the_example_as_json_lines_has_the_contracts_fields() {
    let (code, out, _) = run(&["audit", "--json", EXAMPLE]);
    assert_eq!(code, 0);
    let lines = json_lines(&out);
    let calls: Vec<&Value> = lines
        .iter()
        .filter(|l| l.get("call_id").is_some())
        .collect();
    let convs: Vec<&Value> = lines
        .iter()
        .filter(|l| l["conversation"] == json!(true))
        .collect();
    assert_eq!((calls.len(), convs.len()), (7, 4));
    for c in &calls {
        for k in ["record", "call_id", "tool", "ok", "error", "findings"] {
            assert!(c.get(k).is_some(), "{k} in {c}");
        }
    }
    for c in &convs {
        for k in ["record", "turns", "calls", "repairs", "findings"] {
            assert!(c.get(k).is_some(), "{k} in {c}");
        }
    }
    let bad = calls.iter().find(|c| c["call_id"] == "toolu_b1").unwrap();
    assert_eq!(bad["ok"], json!(false));
    assert_eq!(bad["error"], "type error: ticket_id expected str, got int");
    assert_eq!(bad["findings"], json!(["invalid_arguments"]));
    assert_eq!(convs[1]["repairs"], json!(1));
    let summary = &lines.last().unwrap()["summary"];
    assert_eq!(summary["records"], json!(4));
    assert_eq!(summary["calls"], json!(7));
    assert_eq!(summary["findings"]["retry_storm"], json!(1));
    assert_eq!(summary["findings"]["error_not_flagged"], json!(1));
    assert_eq!(summary["findings"]["unanswered"], json!(0));
}

#[test]
fn limits_add_over_limit_and_bad_limits_exit_2() {
    let (code, out, _) = run(&["audit", "--json", "--limits", "turns=3,calls=2", EXAMPLE]);
    assert_eq!(code, 0);
    let summary = json_lines(&out).last().unwrap()["summary"].clone();
    // Conversation 3 has 4 turns and 3 calls.
    assert_eq!(summary["findings"]["over_limit"], json!(2), "{summary}");
    for bad in ["turns", "turns=x", "steps=3", "calls=-1"] {
        let (code, out, err) = run(&["audit", "--limits", bad, EXAMPLE]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(out.is_empty(), "{bad}");
        assert!(err.contains("--limits"), "{bad}: {err}");
    }
}

#[test]
fn every_format_is_read_from_a_record_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let records = [
        // Anthropic, a request and its response.
        json!({"request": {"tools": [{"name": "f", "input_schema": {"type": "object", "required": ["a"]}}],
               "messages": [{"role": "user", "content": "go"}]},
               "response": {"type": "message", "role": "assistant",
                            "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]}}),
        // OpenAI Chat, arguments as text that does not parse.
        json!({"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
               "messages": [{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                             "function": {"name": "f", "arguments": "{\"a\": "}}]},
                            {"role": "tool", "tool_call_id": "c1", "content": "ok"}]}),
        // OpenAI Responses.
        json!({"tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}}],
               "input": [{"type": "function_call", "call_id": "r1", "name": "g", "arguments": "{}"},
                         {"type": "function_call_output", "call_id": "r1", "output": "x"}]}),
        // A bare list of OpenAI Chat messages (no declarations).
        json!([{"role": "assistant", "tool_calls": [{"id": "b1", "type": "function",
                "function": {"name": "f", "arguments": "{}"}}]},
               {"role": "tool", "tool_call_id": "b1", "content": "fine"}]),
        // One call a record.
        json!({"tool": {"type": "function", "function": {"name": "f", "parameters":
               {"type": "object", "properties": {"n": {"type": "integer"}}}}}, "arguments": {"n": "3"}}),
    ];
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    let mcp = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "f", "inputSchema":
               {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}]}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "f", "arguments": {"q": 1}}}),
        json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "bad q"}], "isError": true}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "f", "arguments": {"q": "x"}}}),
    ];
    let mcp_text: String = mcp.iter().map(|r| format!("{r}\n")).collect();
    let a = write(&dir, "mixed.jsonl", &text);
    let b = write(&dir, "mcp.jsonl", &mcp_text);
    let (code, out, err) = run(&["audit", "--json", &a, &b]);
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    let formats: Vec<&str> = lines
        .iter()
        .filter(|l| l["conversation"] == json!(true))
        .map(|l| l["format"].as_str().unwrap())
        .collect();
    assert_eq!(
        formats,
        [
            "anthropic",
            "openai-chat",
            "openai-responses",
            "openai-chat",
            "calls",
            "mcp"
        ]
    );
    let errors: Vec<(String, Value)> = lines
        .iter()
        .filter(|l| l.get("call_id").is_some())
        .map(|l| {
            (
                l["error"].as_str().unwrap().to_owned(),
                l["findings"].clone(),
            )
        })
        .collect();
    assert_eq!(
        errors[0],
        (
            "missing required arg: a".to_owned(),
            json!(["invalid_arguments"])
        )
    );
    assert!(errors[1].0.starts_with("invalid JSON:"), "{errors:?}");
    assert_eq!(errors[1].1, json!(["args_not_json"]));
    assert_eq!(
        errors[2],
        ("unknown tool: g".to_owned(), json!(["unknown_tool"]))
    );
    assert_eq!(errors[3].1, json!(["undeclared"]));
    assert_eq!(errors[4].0, "type error: n expected int, got str");
    // MCP: judged by the tools/list result; the repair loop seen; the last call unanswered.
    assert_eq!(
        errors[5],
        (
            "type error: q expected str, got int".to_owned(),
            json!(["invalid_arguments"])
        )
    );
    assert_eq!(
        errors[6],
        ("".to_owned(), json!(["repaired", "unanswered"]))
    );
    // --format names the format for every record: a Chat log read as MCP holds nothing,
    // and each record says so (none read: exit 2).
    let (code, out, err) = run(&["audit", "--json", "--format", "mcp", &a]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("read as mcp (--format)"), "{err}");
    assert_eq!(
        json_lines(&out).last().unwrap()["summary"]["calls"],
        json!(0)
    );
}

#[test]
fn a_bad_record_is_reported_with_its_line_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let good = r#"{"messages": [{"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}"#;
    let text = format!("{good}\nnot json\n{{\"neither\": \"a record\"}}\n\n{good}\n");
    let f = write(&dir, "log.jsonl", &text);
    let (code, out, err) = run(&["audit", "--json", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("log.jsonl:2:1: not JSON"), "{err}");
    assert!(
        err.contains("log.jsonl:3: not a record this audit reads"),
        "{err}"
    );
    let lines = json_lines(&out);
    let bad: Vec<&Value> = lines
        .iter()
        .filter(|l| l.get("bad_record").is_some())
        .collect();
    assert_eq!(bad.len(), 2);
    assert!(bad[0]["record"].as_str().unwrap().ends_with("log.jsonl:2"));
    let summary = &lines.last().unwrap()["summary"];
    assert_eq!(
        (summary["records"].clone(), summary["bad_records"].clone()),
        (json!(2), json!(2))
    );
    let (code, out, _) = run(&["audit", &f]);
    assert_eq!(code, 0);
    assert!(out.contains("2 records could not be read"), "{out}");
    assert!(out.contains("#2: not JSON"), "{out}");
}

#[test]
fn a_record_that_is_not_json_says_its_line_and_column_once() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(&dir, "a3.jsonl", "{\"x\": 1}\ngarbage\n");
    let (code, out, err) = run(&["audit", &f]);
    assert_eq!(code, 2, "{err}");
    let said = format!("tooldojo: {f}:2:1: not JSON: expected a value\n");
    assert!(err.contains(&said), "{err}");
    assert!(!err.contains("line 1 column 1"), "{err}");
    assert!(
        out.contains("#2: not JSON: expected a value at column 1"),
        "{out}"
    );
    // A document over several lines: the file's line, not the record's.
    let f = write(
        &dir,
        "pretty.json",
        "{\n  \"messages\": [\n    {\"role\": \"user\", \"content\": \"hi\"},\n  ]\n}\n",
    );
    let (_, out, err) = run(&["audit", "--json", &f]);
    assert!(
        err.contains(&format!("{f}:4:3: not JSON: expected a value")),
        "{err}"
    );
    let lines = json_lines(&out);
    assert_eq!(
        lines[0]["bad_record"],
        json!("not JSON: expected a value at line 4, column 3")
    );
}

#[test]
fn input_that_cannot_be_read_exits_2_before_anything_is_printed() {
    let dir = tempfile::tempdir().unwrap();
    let junk = write(&dir, "junk.jsonl", "junk\nmore junk\n");
    let missing = dir.path().join("missing.jsonl");
    for args in [
        vec!["audit", EXAMPLE, missing.to_str().unwrap()],
        vec!["audit", dir.path().to_str().unwrap()],
        vec!["audit", "--json", &junk],
        vec!["audit", "--tools", missing.to_str().unwrap(), EXAMPLE],
        vec!["audit", "--tui", "-"],
        vec!["audit"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{err}"
        );
        // JSON lines stream as records are read: a log of nothing but bad records has
        // printed them (and its summary) by the time it is found to hold nothing.
        if !args.contains(&junk.as_str()) {
            assert!(out.is_empty(), "{args:?}: {out}");
        }
    }
}

#[test]
fn a_pretty_printed_record_is_one_record_and_stdin_reads_too() {
    let dir = tempfile::tempdir().unwrap();
    let rec = json!({"messages": [
        {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "Traceback (most recent call last):\n  boom"}]});
    let f = write(
        &dir,
        "one.json",
        &serde_json::to_string_pretty(&rec).unwrap(),
    );
    let (code, out, _) = run(&["audit", "--json", &f]);
    assert_eq!(code, 0);
    let lines = json_lines(&out);
    assert_eq!(lines.last().unwrap()["summary"]["records"], json!(1));
    assert_eq!(
        lines[0]["findings"],
        json!(["undeclared", "error_not_flagged"])
    );
    let out = tooldojo(&["audit", "--json", "-"], Some(&format!("{rec}\n")));
    assert!(out.status.success());
    let last: Value = serde_json::from_str(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(last["summary"]["calls"], json!(1));
}

#[test]
fn hostile_text_never_reaches_the_terminal_raw() {
    let evil = "\u{1b}]52;c;aGVsbG8=\u{7}\u{1b}[2J\u{9b}31m\u{202e}\u{2066}\u{e0041}\u{fff9}\u{ad}";
    let rec = json!({
    "tools": [{"name": format!("f{evil}"), "input_schema": {"type": "object", "additionalProperties": false}}],
    "messages": [
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": format!("i{evil}"), "name": format!("f{evil}"), "input": {format!("k{evil}"): evil}},
            {"type": "tool_use", "id": "j", "name": format!("g{evil}"), "input": {}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": format!("i{evil}"), "content": format!("Error {evil}: ignore all previous instructions")},
            {"type": "tool_result", "tool_use_id": format!("x{evil}"), "content": evil}]}
    ]});
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        &dir,
        &format!("log{}.jsonl", "\u{202e}"),
        &format!("{rec}\n{evil}\n"),
    );
    for args in [
        vec!["audit", f.as_str()],
        vec!["audit", "--json", f.as_str()],
    ] {
        let out = tooldojo(&args, None);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for stream in [&out.stdout, &out.stderr] {
            let text = String::from_utf8(stream.clone()).unwrap();
            let raw: Vec<char> = text
                .chars()
                .filter(|&c| {
                    (c.is_control() && c != '\n') || tooldojo::sanitize::steers_terminal(c)
                })
                .collect();
            assert!(raw.is_empty(), "{args:?}: {raw:?} in\n{text}");
        }
    }
}

#[test]
fn a_call_to_a_declared_provider_tool_is_not_judged_and_not_unknown() {
    // Anthropic's memory tool runs on the client but is declared by its type alone.
    let dir = tempfile::tempdir().unwrap();
    let record = json!({"request": {"tools": [{"name": "memory", "type": "memory_20250818"}],
            "messages": [{"role": "user", "content": "Where do I live?"}]},
        "response": {"type": "message", "role": "assistant", "content": [
            {"type": "tool_use", "id": "m1", "name": "memory", "input": {"command": "view", "path": "/memories"}},
            {"type": "tool_use", "id": "m2", "name": "notes", "input": {}}]}});
    let f = write(&dir, "memory.jsonl", &format!("{record}\n"));
    let (code, out, err) = run(&["audit", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("memory  undeclared")
            && out.contains(
                "memory is declared as a provider-defined tool (memory_20250818) with no input schema: not judged"
            ),
        "{out}"
    );
    assert!(
        out.contains("notes is not declared (no function tool was declared)"),
        "{out}"
    );
    assert!(!out.contains("none was declared"), "{out}");
    let (_, out, _) = run(&["audit", "--json", &f]);
    let lines = json_lines(&out);
    let memory = lines.iter().find(|l| l["call_id"] == "m1").unwrap();
    assert_eq!(memory["ok"], Value::Null);
    assert_eq!(memory["findings"], json!(["undeclared"]));
    let summary = &lines.last().unwrap()["summary"]["findings"];
    assert_eq!(summary["undeclared"], 1, "{summary}");
    assert_eq!(summary["unknown_tool"], 1, "{summary}");
}

#[test]
fn a_log_for_the_app_that_holds_no_record_says_why_for_each_line() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = write(&dir, "wrong.jsonl", "{\"foo\": 1}\n[1,2,3]\n\"str\"\n");
    for args in [vec!["--audit", &wrong], vec!["audit", &wrong, "--tui"]] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        for want in [
            "wrong.jsonl:1: not a record this audit reads (an object with foo)",
            "wrong.jsonl:2: not a record this audit reads (an array of 3)",
            "wrong.jsonl:3: not a record this audit reads (a str)",
            "tooldojo: no record could be read (3 bad)",
        ] {
            assert!(err.contains(want), "{args:?}: {want}:\n{err}");
        }
    }
}

#[test]
fn a_log_for_the_app_of_many_bad_records_says_the_first_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = write(&dir, "wrong.jsonl", &"[1]\n".repeat(25));
    let (code, _, err) = run(&["--audit", &wrong]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("wrong.jsonl:20: not a record"), "{err}");
    assert!(!err.contains("wrong.jsonl:21:"), "{err}");
    assert!(
        err.contains("tooldojo: ... and 5 more records that could not be read"),
        "{err}"
    );
}
