//! Numbers a lesson states about the real declarations under `../shared/realworld/` hold for
//! that data (read through `tests/shared/mod.rs`; skipped when it is absent). A lesson that
//! says how many MCP declarations leave their objects open is checked against a count made
//! here, so the sentence cannot drift from the data.
//!
//! Lesson 16 quotes what `tooldojo tools` and `tooldojo audit` print on the shipped example
//! files, and predicts validator rows made from them: the quotes are checked against the real
//! binary's output, the rows against the real trap report and the recorded log.

use std::path::Path;

use regex::Regex;

use super::shared;
use tooldojo::tools::ToolSet;

fn lesson(id: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("lessons/{id}.md"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_open_object_count_of_real_mcp_declarations_is_the_lessons() {
    let Some(dir) = shared::shared("realworld/tools/mcp") else {
        return;
    };
    let (mut all, mut open) = (0, 0);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for path in files {
        let set = ToolSet::read(&path, None).unwrap_or_else(|e| panic!("{e}"));
        for tool in &set.tools {
            all += 1;
            let closed = tool
                .schema()
                .and_then(|s| s.get("additionalProperties"))
                .is_some_and(|v| v == &serde_json::Value::Bool(false));
            if !closed {
                open += 1;
            }
        }
    }
    let text = lesson("14-real-declarations")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let said = Regex::new(r"of the ([0-9,]+) MCP tool declarations in tooldojo's test data, ([0-9,]+) leave their top-level object open")
        .unwrap();
    let c = said
        .captures(&text)
        .expect("lesson 14 states the count of open MCP declarations");
    let number = |i: usize| c[i].replace(',', "").parse::<usize>().unwrap();
    assert_eq!(
        (number(1), number(2)),
        (all, open),
        "MCP declarations, and the open ones"
    );
}

fn fixture(path: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs of whitespace as one space, so a quote wrapped in the lesson still matches.
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What the binary prints for `args`, run from `dir`.
fn run(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "tooldojo {args:?}: {out:?}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Every quote is in the lesson and in the output.
fn quoted(lesson_text: &str, output: &str, quotes: &[&str]) {
    let (text, output) = (squeeze(lesson_text), squeeze(output));
    for q in quotes {
        let q = squeeze(q);
        assert!(text.contains(&q), "lesson 16 quotes {q:?}");
        assert!(output.contains(&q), "the binary prints {q:?}:\n{output}");
    }
}

/// `search_issues` as the shipped tools file declares it, and with every fix of its trap
/// report applied, as the Your tools screen writes it (`f`, `w`).
fn search_issues() -> (tooldojo::tools::load::Tool, serde_json::Value) {
    use tooldojo::tools::traps;
    let set = ToolSet::from_text(&fixture("fixtures/tools/issue-tracker.json"), None).unwrap();
    let tool = set.get("search_issues").expect("search_issues").clone();
    let report = traps::report(&tool);
    let mut fixes: Vec<&traps::Fix> = Vec::new();
    for f in report.traps.iter().filter_map(|t| t.fix.as_ref()) {
        if !fixes.iter().any(|o| o.at == f.at && o.key == f.key) {
            fixes.push(f);
        }
    }
    let fixed = traps::apply_fixes(&tool.declaration, tool.format.form(), &fixes);
    (tool, fixed)
}

#[test]
fn lesson_16_quotes_what_tools_prints_on_the_shipped_file_and_its_fixed_copy() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = lesson("16-your-tools-and-logs");
    let out = run(root, &["tools", "fixtures/tools/issue-tracker.json"]);
    quoted(
        &text,
        &out,
        &[
            "fixtures/tools/issue-tracker.json: MCP tools/list result, 3 declarations, 3 honoured",
            "traps: 36 tried, 32 rejected, 4 let through",
            "extra key: note",
            r#"add "additionalProperties": false"#,
            "repo: over-long string (1000 chars)",
            r#"add "maxLength": 256 on repo"#,
            "labels[0]: over-long string (1000 chars)",
            r#"add "maxLength": 256 on labels[0]"#,
            "per_page: far past any sensible bound",
            r#"add "maximum": 100 on per_page"#,
            "per_page reads as a size or a count but has no maximum",
            "additionalProperties must be false at the root",
        ],
    );
    // Exactly four get through, and they are the four the lesson lists.
    assert_eq!(out.matches("LET THROUGH").count(), 4 + 1 + 6, "{out}");

    let (_, fixed) = search_issues();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("search_issues.fixed.json"),
        serde_json::to_string_pretty(&fixed).unwrap() + "\n",
    )
    .unwrap();
    let out = run(dir.path(), &["tools", "search_issues.fixed.json"]);
    quoted(
        &text,
        &out,
        &[
            "search_issues.fixed.json: one MCP declaration, 1 declaration, 1 honoured",
            "traps: 36 tried, 36 rejected, 0 let through",
            "unknown arg: note",
            // A fixed bound is tried just past it, no longer far past it.
            "value error: per_page must be <= 100, got 101",
        ],
    );
    assert!(
        !out.contains("1000000000") && out.contains("got 257"),
        "the fixed report tries per_page at 101 and the strings at 257 characters, as lesson \
         16 says:\n{out}"
    );
}

#[test]
fn lesson_16_rows_run_on_the_shipped_declarations_and_the_recorded_calls() {
    use serde_json::Value;
    use tooldojo::tools::traps;
    let schemas: Value = serde_json::from_str(&fixture("fixtures/schemas.json")).unwrap();
    let (tool, fixed) = search_issues();
    assert_eq!(schemas["search_issues"]["schema"], tool.declaration);
    assert_eq!(schemas["search_issues_fixed"]["schema"], fixed);

    let rows: Vec<Value> = serde_json::from_str(&fixture("fixtures/validator_cases.json")).unwrap();
    let group = |g: &str| -> Vec<&Value> { rows.iter().filter(|r| r["group"] == g).collect() };
    // Each row on search_issues is a trap of its real report, with the report's verdict.
    let report = traps::report(&tool);
    let yours = group("yours");
    assert_eq!(yours.len(), 8);
    for r in &yours {
        let trap = report
            .traps
            .iter()
            .find(|t| t.args == r["args"])
            .unwrap_or_else(|| panic!("{} is a trap of the report", r["id"]));
        assert_eq!(Value::Bool(trap.ok), r["expected"]["ok"], "{}", r["id"]);
    }
    // The fixed rows: every trap that got through before, now rejected, and a bound's edge
    // still valid.
    let set = ToolSet::from_value(&fixed, None).unwrap();
    let fixed_report = traps::report(&set.tools[0]);
    assert_eq!(fixed_report.through(), 0);
    let through: Vec<&Value> = report
        .traps
        .iter()
        .filter(|t| t.ok)
        .map(|t| &t.args)
        .collect();
    let flipped = group("fixed")
        .into_iter()
        .filter(|r| through.contains(&&r["args"]))
        .inspect(|r| assert_eq!(r["expected"]["ok"], false, "{}", r["id"]))
        .count();
    assert!(flipped >= 2, "the fixed rows show traps that flipped");

    // Each log row is a call of the shipped log, to the tool its schema names.
    let mut calls: Vec<(String, Value)> = Vec::new();
    for line in fixture("fixtures/audit/support-desk.jsonl").lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        for m in record["messages"].as_array().unwrap() {
            for b in m["content"].as_array().into_iter().flatten() {
                if b["type"] == "tool_use" {
                    calls.push((b["name"].as_str().unwrap().to_owned(), b["input"].clone()));
                }
            }
        }
    }
    assert_eq!(calls.len(), 7);
    let log = group("log");
    assert_eq!(log.len(), 4);
    for r in log {
        let call = (r["schema"].as_str().unwrap().to_owned(), r["args"].clone());
        assert!(calls.contains(&call), "{} is a call of the log", r["id"]);
    }
}

#[test]
fn lesson_16_quotes_what_audit_prints_on_the_shipped_log() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = lesson("16-your-tools-and-logs");
    let log = "fixtures/audit/support-desk.jsonl";
    quoted(
        &text,
        &run(root, &["audit", log]),
        &[
            "4 conversations (Anthropic Messages), 7 tool calls against 3 declared tools",
            "type error: ticket_id expected str, got int",
            "the arguments pass after 1 repair",
            "upstream 503: the search index is unavailable",
            "Error: the ticket store timed out after 5000 ms",
            "error_not_flagged (heuristic)",
        ],
    );
    quoted(
        &text,
        &run(root, &["audit", log, "--json"]),
        &[
            r#""call_id": "toolu_c3", "tool": "search_tickets", "ok": true,"#,
            r#""findings": ["retry_storm"]"#,
        ],
    );
    assert!(fixture(log).contains("Yes, TKT-310 is still open."));
    assert!(text.contains("Yes, TKT-310 is still open."));
}

/// The strict-mode lines `tooldojo tools` prints for one of the shipped named declarations.
fn strict_lines(name: &str) -> (String, String) {
    let schemas: serde_json::Value =
        serde_json::from_str(&fixture("fixtures/schemas.json")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = format!("{name}.json");
    std::fs::write(
        dir.path().join(&file),
        schemas[name]["schema"].to_string() + "\n",
    )
    .unwrap();
    let out = run(dir.path(), &["tools", &file]);
    let start = out.find("    OpenAI ").expect("an OpenAI line");
    let anthropic = out.find("    Anthropic ").expect("an Anthropic line");
    let end = out[anthropic..]
        .find("\n  traps")
        .map_or(out.len(), |i| anthropic + i);
    (
        out[start..anthropic].to_owned(),
        out[anthropic..end].to_owned(),
    )
}

#[test]
fn lesson_14_says_what_the_strict_report_says_of_its_three_declarations() {
    let text = squeeze(&lesson("14-real-declarations"));
    for said in [
        "`find_tickets` was written for OpenAI's strict mode; under Anthropic's, its `page_size` bounds and `maxItems` fall outside the subset",
        "`send_replacement` fails OpenAI's rules as written, since `ship_by` is not in `required`",
        "`tag_ticket` fails both, being open",
        "but not `minLength` or `maxLength`: the subset has no string lengths",
    ] {
        assert!(text.contains(said), "lesson 14 says {said:?}");
    }
    let (openai, anthropic) = strict_lines("find_tickets");
    assert!(
        openai.contains("ready") && !openai.contains("not ready"),
        "{openai}"
    );
    for k in ["\"maxItems\"", "\"minimum\"", "\"maximum\""] {
        assert!(anthropic.contains(k), "{k}: {anthropic}");
    }
    let (openai, _) = strict_lines("send_replacement");
    assert!(
        openai.contains("\"ship_by\" is not in required"),
        "{openai}"
    );
    let (openai, anthropic) = strict_lines("tag_ticket");
    for side in [openai, anthropic] {
        assert!(
            side.contains("additionalProperties must be false at the root"),
            "{side}"
        );
    }
    // No string lengths in OpenAI's subset either: the fixed search_issues has them.
    let (openai, anthropic) = strict_lines("search_issues_fixed");
    for side in [openai, anthropic] {
        assert!(side.contains("\"maxLength\""), "{side}");
    }
}
