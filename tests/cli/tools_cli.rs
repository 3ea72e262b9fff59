//! `tooldojo tools FILE` and `tooldojo validate --tools FILE --tool NAME` as a user runs them,
//! on the shipped example tools file and on broken files.

use serde_json::Value;

use crate::support::tooldojo;

const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/tools/issue-tracker.json"
);

fn lines(out: &std::process::Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn json_has_a_line_a_declaration_with_the_contract_fields() {
    let out = tooldojo(&["tools", EXAMPLE, "--json"], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = lines(&out);
    let names: Vec<&str> = lines.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search_issues", "get_issue", "create_issue"]);
    for l in &lines {
        assert_eq!(l["shape"], "mcp");
        assert_eq!(l["honoured"], true);
        assert!(l["refused"].is_null());
        for p in ["openai", "anthropic"] {
            assert!(l["strict"][p]["ok"].is_boolean(), "{l}");
            assert!(l["strict"][p]["reasons"].is_array(), "{l}");
        }
        for t in l["traps"].as_array().unwrap() {
            for k in ["trap", "path", "args", "ok", "error", "fix"] {
                assert!(t.get(k).is_some(), "{k} missing in {t}");
            }
            assert_eq!(t["ok"] == true, t["error"] == "", "{t}");
        }
    }
    let get_issue = &lines[1];
    assert_eq!(get_issue["strict"]["openai"]["ok"], true, "{get_issue}");
    assert_eq!(get_issue["strict"]["anthropic"]["ok"], false);
    let search = &lines[0];
    let extra = search["traps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["kind"] == "extra_key")
        .unwrap();
    assert_eq!(extra["ok"], true);
    assert_eq!(extra["fix"], "add \"additionalProperties\": false");
}

#[test]
fn the_human_report_names_shape_verdicts_and_fixes() {
    let out = tooldojo(&["tools", EXAMPLE], None);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("MCP tools/list result, 3 declarations, 3 honoured"),
        "{text}"
    );
    assert!(
        text.contains("LET THROUGH  per_page: far past any sensible bound"),
        "{text}"
    );
    assert!(
        text.contains("fix: add \"maximum\": 100 on per_page"),
        "{text}"
    );
    assert!(
        text.contains("rejected     required field missing: repo: missing required arg: repo"),
        "{text}"
    );
    assert!(
        text.contains("write the largest value your tool really takes.\n\nsummary of "),
        "a report whose fixes carry a number says once, before its summary, that the number \
         is a stand-in: {text}"
    );
    assert_eq!(text.matches("is a stand-in").count(), 1);
}

#[test]
fn a_report_without_numbers_in_its_fixes_says_nothing_of_stand_ins() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.json");
    let decl = r#"[{"name": "b", "input_schema": {"type": "object",
        "properties": {"on": {"type": "boolean"}}}}]"#;
    std::fs::write(&f, decl).unwrap();
    let text = String::from_utf8_lossy(&tooldojo(&["tools", f.to_str().unwrap()], None).stdout)
        .to_string();
    assert!(
        text.contains("fix: add \"additionalProperties\": false"),
        "{text}"
    );
    assert!(!text.contains("stand-in"), "{text}");
}

#[test]
fn a_file_that_cannot_be_read_exits_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "[\n  {\"name\": \"a\",\n").unwrap();
    let mixed = dir.path().join("mixed.json");
    std::fs::write(
        &mixed,
        r#"[{"type": "function", "name": "a"}, {"name": "b", "input_schema": {}}]"#,
    )
    .unwrap();
    let missing = dir.path().join("none.json");
    for (file, want) in [
        (&bad, ":3:1: not JSON"),
        (&mixed, "--tools-format"),
        (&missing, "none.json"),
    ] {
        let out = tooldojo(&["tools", file.to_str().unwrap()], None);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{err}");
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{err}"
        );
    }
    let out = tooldojo(
        &[
            "tools",
            mixed.to_str().unwrap(),
            "--tools-format",
            "anthropic",
            "--json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    let l = lines(&out);
    assert_eq!(l[0]["honoured"], false);
    assert!(
        l[0]["refused"].as_str().unwrap().contains("input_schema"),
        "{}",
        l[0]
    );
    assert_eq!(l[1]["honoured"], true);
}

#[test]
fn skipped_entries_have_a_line_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.json");
    std::fs::write(&f, r#"[{"type": "web_search_20250305", "name": "web_search"}, {"name": "b", "input_schema": {"type": "object"}}]"#).unwrap();
    let out = tooldojo(&["tools", f.to_str().unwrap(), "--json"], None);
    let l = lines(&out);
    assert_eq!(l.len(), 2);
    assert_eq!(l[0]["skipped"], "web_search_20250305");
    assert_eq!(l[0]["honoured"], false);
    // A provider tool may well take arguments (Anthropic's memory tool does): it has no
    // schema to check them against.
    let why = l[0]["refused"].as_str().unwrap();
    assert!(why.contains("no schema to check its arguments"), "{why}");
    assert_eq!(l[1]["name"], "b");
    let text = String::from_utf8_lossy(&tooldojo(&["tools", f.to_str().unwrap()], None).stdout)
        .to_string();
    assert!(
        text.contains("skipped [0] \"web_search\": a \"web_search_20250305\" tool"),
        "{text}"
    );
}

#[test]
fn a_file_with_no_function_tool_names_its_container_and_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    let server = r#"{"type": "web_search"}"#;
    for (text, says) in [
        (
            format!(r#"{{"tools": [{server}]}}"#),
            "{\"tools\"} object (no function tools), 0 declarations",
        ),
        (
            format!(
                r#"{{"request": {{"model": "m", "input": "x", "tools": [{server}]}}, "response": {{}}}}"#
            ),
            "recorded exchange (no function tools), 0 declarations",
        ),
        (
            server.to_owned(),
            "one entry (not a function tool), 0 declarations",
        ),
        (
            r#"{"tools": []}"#.to_owned(),
            "MCP tools/list result, 0 declarations",
        ),
        // An entry that reads as no declaration is an MCP one refused, beside a server
        // tool or alone.
        (
            format!(r#"{{"tools": [{server}, {{"name": "x", "description": "d"}}]}}"#),
            "MCP tools/list result, 1 declaration, 0 honoured",
        ),
    ] {
        let f = dir.path().join("t.json");
        std::fs::write(&f, &text).unwrap();
        let out = tooldojo(&["tools", f.to_str().unwrap()], None);
        let shown = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            shown.contains(&format!("t.json: {says}")),
            "{text}: {shown}"
        );
        assert!(!shown.contains("skipped :"), "{shown}");
    }
}

#[test]
fn every_count_of_a_large_file_marks_its_thousands() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("many.json");
    let many: Vec<String> = (0..1000)
        .map(|i| format!(r#"{{"name": "t{i}", "input_schema": {{"type": "object"}}}}"#))
        .collect();
    std::fs::write(&f, format!("[{}]", many.join(", "))).unwrap();
    let out = tooldojo(&["tools", f.to_str().unwrap()], None);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.contains("1,000 declarations, 1,000 honoured"),
        "{text}"
    );
    assert!(
        text.contains("1,000 declarations: 1,000 honoured, 0 refused"),
        "{text}"
    );
    assert!(text.contains("by 1,000 of the 1,000"), "{text}");
    assert!(
        text.contains("OpenAI 0 of 1,000, Anthropic 0 of 1,000"),
        "{text}"
    );
    assert!(
        text.contains("traps: 1,000 tried, 1,000 let through"),
        "{text}"
    );
}

#[test]
fn validate_judges_one_call_against_a_declaration_of_the_file() {
    let run = |args: &str| {
        let out = tooldojo(
            &[
                "validate",
                "--tools",
                EXAMPLE,
                "--tool",
                "get_issue",
                "--args",
                args,
            ],
            None,
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    assert_eq!(run(r#"{"repo": "acme/web", "number": 7}"#)["ok"], true);
    let v = run(r#"{"repo": "acme/web", "number": 7, "org": "x"}"#);
    assert_eq!(v["error"], "unknown arg: org");
    let v = run(r#"{"repo": "acme/web"}"#);
    assert_eq!(v["error"], "missing required arg: number");
    let out = tooldojo(
        &[
            "validate", "--tools", EXAMPLE, "--tool", "nope", "--args", "{}",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("search_issues, get_issue, create_issue")
    );
    let out = tooldojo(&["validate", "--tools", EXAMPLE, "--args", "{}"], None);
    assert_eq!(out.status.code(), Some(2), "--tools needs --tool");
}

#[test]
fn a_trap_that_gets_through_shows_its_member_however_long_the_rest() {
    // Long required members come first; the traps are deep in a list of objects.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("book.json");
    let decl = r#"[{"name": "book", "input_schema": {"type": "object", "additionalProperties": false,
        "required": ["user_identifier", "origin_airport", "destination_airport", "cabin_class", "flights"],
        "properties": {
          "user_identifier": {"type": "string", "maxLength": 40},
          "origin_airport": {"type": "string", "maxLength": 40},
          "destination_airport": {"type": "string", "maxLength": 40},
          "cabin_class": {"type": "string", "maxLength": 40},
          "flights": {"type": "array", "maxItems": 4, "items": {"type": "object",
            "required": ["flight_number", "seats"],
            "properties": {"flight_number": {"type": "string"}, "seats": {"type": "integer", "minimum": 1}}}}}}}]"#;
    std::fs::write(&f, decl).unwrap();
    let path = f.to_str().unwrap();
    let text = String::from_utf8_lossy(&tooldojo(&["tools", path], None).stdout).to_string();
    let line = |title: &str| -> String {
        text.lines()
            .find(|l| l.contains(&format!("LET THROUGH  {title}: ")))
            .unwrap_or_else(|| panic!("no LET THROUGH line for {title}: {text}"))
            .to_owned()
    };
    assert!(
        line("nested extra key: flights[0].note")
            .ends_with(r#"{…, "flights": [{…, "note": "added by the model"}]}"#),
        "{text}"
    );
    assert!(
        line("flights[0].seats: far past any sensible bound")
            .ends_with(r#"{…, "flights": [{…, "seats": 1000000000}]}"#),
        "{text}"
    );
    let long = line("flights[0].flight_number: over-long string (1000 chars)");
    assert!(
        long.contains(r#"{…, "flights": [{…, "flight_number": "example"#),
        "{long}"
    );
    assert!(long.ends_with("…}]}"), "{long}");
    // --json keeps the whole arguments.
    let out = tooldojo(&["tools", path, "--json"], None);
    let json = lines(&out);
    let note = json[0]["traps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["path"] == "flights[0].note")
        .unwrap();
    assert_eq!(note["args"]["user_identifier"], "example");
    assert_eq!(note["args"]["flights"][0]["note"], "added by the model");
}

/// What a terminal would act on: a control (a line break aside) or a character that
/// steers or hides text.
fn steering(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| (c.is_control() && c != '\n') || tooldojo::sanitize::steers_terminal(c))
        .collect()
}

#[test]
fn text_from_a_hostile_file_is_printed_cleaned() {
    // Escapes, a C1 control and bidi overrides in a tool's name, a property's name, an enum
    // value, a keyword, a skipped entry's name and a repeated name.
    let hostile = r#"{"tools": [
      {"name": "evil\u001b[31mred\u202e", "description": "d",
       "inputSchema": {"type": "object", "required": ["a\u001b[2Jb"],
         "properties": {"a\u001b[2Jb": {"type": "string", "description": "x"},
                        "mode": {"type": "string", "description": "m", "enum": ["on\u202e", "off"]},
                        "n": {"type": "integer", "description": "n", "maximum\u009b": 3}}}},
      {"type": "web_search_20250305", "name": "web\u001b[2J"},
      {"name": "evil\u001b[31mred\u202e", "inputSchema": {"type": "object"}}
    ]}"#;
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("hostile.json");
    std::fs::write(&f, hostile).unwrap();
    let path = f.to_str().unwrap();
    let out = tooldojo(&["tools", path], None);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(steering(&text).is_empty(), "{text}");
    // Shown as the visible stand-ins, never in a programming language's escapes.
    for shown in [
        "evil\u{241b}[31mred\u{fffd}  (tools[0], MCP)",
        "fix: add \"maxLength\": 256 on a\u{241b}[2Jb",
        "skipped tools[1] \"web\u{241b}[2J\"",
        "duplicate name \"evil\u{241b}[31mred\u{fffd}\"",
        "the name \"evil\u{241b}[31mred\u{fffd}\" is one OpenAI",
        "enum near-miss: \"on\u{fffd}\" with a trailing space",
    ] {
        assert!(text.contains(shown), "{shown}:\n{text}");
    }
    assert!(!text.contains("\\u{"), "{text}");
    // --json escapes them as JSON does, and reads back to the file's own text.
    let out = tooldojo(&["tools", path, "--json"], None);
    let json = String::from_utf8(out.stdout).unwrap();
    assert!(steering(&json).is_empty(), "{json}");
    assert_eq!(lines_of(&json)[0]["name"], "evil\u{1b}[31mred\u{202e}");
    // A repeated key is named on stderr as the report names everything.
    let dup = dir.path().join("dup.json");
    std::fs::write(
        &dup,
        r#"{"tools": [{"name": "x", "inputSchema": {"properties": {"\u001b[31mA": {}, "\u001b[31mA": {}}}}]}"#,
    )
    .unwrap();
    let out = tooldojo(&["tools", dup.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(steering(&err).is_empty(), "{err}");
    assert!(
        err.contains("the key \"tools[0].inputSchema.properties.\u{241b}[31mA\" is repeated"),
        "{err}"
    );
}

fn lines_of(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// An OpenAI Responses declaration that asks for strict mode and is ready for it.
pub(crate) const STRICT: &str = r#"[{"type": "function", "name": "final_result", "strict": true,
  "description": "The final response.",
  "parameters": {"type": "object", "additionalProperties": false, "required": ["city"],
    "properties": {"city": {"type": "string", "description": "A city."}}}}]"#;

#[test]
fn a_fix_that_costs_strict_mode_says_so_and_what_to_do_instead() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("strict.json");
    std::fs::write(&f, STRICT).unwrap();
    let path = f.to_str().unwrap();
    let text = String::from_utf8(tooldojo(&["tools", path], None).stdout).unwrap();
    let fix = text
        .lines()
        .position(|l| l.contains("fix: add \"maxLength\": 256 on city"))
        .unwrap_or_else(|| panic!("{text}"));
    let cost = text.lines().nth(fix + 1).unwrap();
    assert!(
        cost.contains(
            "costs strict mode: \"maxLength\" is outside OpenAI's and Anthropic's strict \
             subset; to keep strict, send the provider a copy without it and keep it in the \
             schema your validator checks, or check the string's length in the tool's handler"
        ),
        "{text}"
    );
    let out = tooldojo(&["tools", path, "--json"], None);
    let traps = lines(&out)[0]["traps"].as_array().unwrap().clone();
    let over = traps.iter().find(|t| t["kind"] == "over_long").unwrap();
    assert_eq!(
        over["fix_cost"]["strict"],
        serde_json::json!(["openai", "anthropic"])
    );
    assert!(
        over["fix_cost"]["instead"]
            .as_str()
            .unwrap()
            .contains("handler")
    );
    assert!(
        traps
            .iter()
            .all(|t| t["ok"] == true || t["fix_cost"].is_null())
    );
    // A fix strict mode takes costs nothing, and says so as null.
    let out = tooldojo(&["tools", EXAMPLE, "--json"], None);
    let search = &lines(&out)[0];
    let extra = search["traps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["kind"] == "extra_key")
        .unwrap();
    assert_eq!(extra["fix"], "add \"additionalProperties\": false");
    assert!(extra["fix_cost"].is_null(), "{extra}");
}

#[test]
fn a_declaration_that_was_not_read_is_not_judged_for_strict_mode() {
    // The MCP example read as Anthropic declarations: none has an "input_schema".
    let out = tooldojo(&["tools", EXAMPLE, "--tools-format", "anthropic"], None);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "  strict mode not judged: the validator could not read the declaration (it has no \
             schema where an Anthropic declaration keeps one)"
        ),
        "{text}"
    );
    assert!(
        !text.contains("the root must be an object schema"),
        "{text}"
    );
    // Read as OpenAI Chat declarations, each keeps the name the file gives it.
    let out = tooldojo(
        &["tools", EXAMPLE, "--tools-format", "openai-chat", "--json"],
        None,
    );
    let l = lines(&out);
    let names: Vec<&str> = l.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search_issues", "get_issue", "create_issue"]);
    for line in &l {
        assert_eq!(line["honoured"], false);
        for p in ["openai", "anthropic"] {
            let why = line["strict"][p]["reasons"][0].as_str().unwrap();
            assert!(why.starts_with("not judged: "), "{why}");
        }
    }
    // A declaration with no name at all says so: null in --json, "(no name)" in words.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("nameless.json");
    std::fs::write(
        &f,
        r#"[{"type": "function", "function": {"parameters": {"type": "object"}}}]"#,
    )
    .unwrap();
    let path = f.to_str().unwrap();
    let l = lines(&tooldojo(&["tools", path, "--json"], None));
    assert!(l[0]["name"].is_null(), "{}", l[0]);
    let text = String::from_utf8(tooldojo(&["tools", path], None).stdout).unwrap();
    assert!(text.contains("(no name)  ([0], OpenAI Chat)"), "{text}");
}

#[test]
fn a_file_that_is_no_declaration_gets_advice_the_command_can_follow() {
    let dir = tempfile::tempdir().unwrap();
    for (text, said) in [
        ("{}", "the file is an empty object, not a declaration"),
        (
            r#"[{"title": "int"}]"#,
            "[0] is not a declaration (no tool name with a schema beside it)",
        ),
    ] {
        let f = dir.path().join("t.json");
        std::fs::write(&f, text).unwrap();
        let out = tooldojo(&["tools", f.to_str().unwrap()], None);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(said), "{err}");
        // `tools` takes no form of the validator's; it takes --tools-format's shapes.
        assert!(!err.contains("flat or json-schema"), "{err}");
        assert!(
            err.contains("--tools-format mcp|openai-chat|openai-responses|anthropic"),
            "{err}"
        );
    }
}

/// What a run that exited 0 wrote (its stderr in the failure, if it did not).
fn stdout_of_success(out: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn example_reads_the_shipped_file_from_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tooldojo"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let text = stdout_of_success(&run(&["tools", "--example"]));
    let from_file = tooldojo(&["tools", EXAMPLE], None);
    let from_file = String::from_utf8_lossy(&from_file.stdout);
    // The same report, named as the lesson names the file.
    assert!(
        text.starts_with(
            "fixtures/tools/issue-tracker.json: MCP tools/list result, 3 declarations"
        ),
        "{text}"
    );
    // The same lines, but for the two that name the file.
    let named = |l: &&str| !l.starts_with("summary of ");
    assert_eq!(
        text.lines().skip(1).filter(named).collect::<Vec<_>>(),
        from_file.lines().skip(1).filter(named).collect::<Vec<_>>()
    );
    let json = run(&["tools", "--example", "--json"]);
    assert_eq!(lines(&json).len(), 3);
    // Audit's example too.
    let text = stdout_of_success(&run(&["audit", "--example"]));
    assert!(
        text.starts_with("fixtures/audit/support-desk.jsonl: 4 conversations"),
        "{text}"
    );
    // A file and --example, or neither, is a usage error.
    for args in [
        &["tools"][..],
        &["tools", "--example", "x.json"],
        &["audit"],
        &["audit", "--example", "x.jsonl"],
    ] {
        assert_eq!(run(args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn the_report_ends_with_a_summary_and_fail_on_traps_gates_on_it() {
    let out = tooldojo(&["tools", EXAMPLE], None);
    let text = String::from_utf8_lossy(&out.stdout);
    let tail: Vec<&str> = text.lines().rev().take(4).collect();
    assert!(tail[3].starts_with("summary of "), "{text}");
    assert_eq!(tail[2], "  3 declarations: 3 honoured, 0 refused");
    assert!(
        tail[1].starts_with("  traps: ")
            && tail[1].contains(" let through, by 3 of the 3 (the most: "),
        "{}",
        tail[1]
    );
    assert!(
        tail[0].starts_with("  strict mode ready: OpenAI "),
        "{}",
        tail[0]
    );
    // Traps get through the example: the gate fails it, in words and in JSON; without the
    // flag the exit is 0.
    assert_eq!(out.status.code(), Some(0));
    for extra in [&[][..], &["--json"]] {
        let args = [&["tools", EXAMPLE, "--fail-on-traps"][..], extra].concat();
        assert_eq!(tooldojo(&args, None).status.code(), Some(1), "{args:?}");
    }
    // A declaration that lets nothing through passes the gate.
    let dir = tempfile::tempdir().unwrap();
    let tight = dir.path().join("tight.json");
    let decl = r#"{"name": "t", "description": "d", "inputSchema": {"type": "object",
        "properties": {"x": {"type": "string", "enum": ["a", "b"], "description": "x"}},
        "required": ["x"], "additionalProperties": false}}"#;
    std::fs::write(&tight, decl).unwrap();
    let out = tooldojo(&["tools", tight.to_str().unwrap(), "--fail-on-traps"], None);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("  traps: 8 tried, 0 let through\n"));
}
