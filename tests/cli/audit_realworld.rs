//! `tooldojo audit` on every real recording under `../shared/realworld/conversations/` and
//! `calls/` (read through `tests/shared/mod.rs`), checked three ways against this test's own
//! walk of the JSON, a plainer one than the audit's readers:
//! - the calls of each record, in order, are the ones the walk counts (name for name);
//! - every call is answered, reported `unanswered`, or waits in the record's last turn, and
//!   every result answers a call or is reported `orphan_result`;
//! - each verdict is what `tooldojo validate --jsonl` says of the same arguments against the
//!   same declaration.
//!
//! ```text
//! cargo test --test cli audit_realworld -- --nocapture     # prints the counts by file
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::shared;
use super::support::tooldojo;

/// A call as this test's walk finds it.
#[derive(Debug, Clone)]
struct Seen {
    tool: String,
    /// `Some(text)` for arguments written as text, else the value's JSON text.
    args_text: Option<String>,
    /// The declaration, when the record (or the tools file) declares the tool.
    decl: Option<Value>,
    /// The record (or tools file) declares tools at all.
    has_tools: bool,
    /// The record declares the tool as a provider-defined one, by its `type` alone
    /// (Anthropic's `memory`): there is no schema to judge it by.
    provided: bool,
}

/// What a record holds, by the walk.
#[derive(Debug, Default)]
struct Walked {
    calls: Vec<Seen>,
    results: usize,
    /// Results that answer something the record does not show as a function call (a
    /// provider's built-in call, a call kept at the server).
    excused: usize,
}

fn s<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

fn arr<'a>(v: &'a Value, k: &str) -> &'a [Value] {
    v.get(k)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Declarations by name, for a tools list of any provider (namespaces opened).
fn decls(tools: &[Value], into: &mut Vec<(String, Value)>) {
    for t in tools {
        if s(t, "type") == Some("namespace") {
            decls(arr(t, "tools"), into);
            continue;
        }
        let name = match t.get("function") {
            Some(f) => s(f, "name"),
            None => match s(t, "type") {
                None | Some("function" | "custom") => s(t, "name"),
                Some(_) if t.get("input_schema").is_some() => s(t, "name"),
                Some(_) => None,
            },
        };
        if let Some(n) = name
            && !into.iter().any(|(m, _)| m == n)
        {
            into.push((n.to_owned(), t.clone()));
        }
    }
}

fn text_of(args: Option<&Value>) -> Option<String> {
    match args {
        None | Some(Value::Null) => None,
        Some(Value::String(t)) => Some(t.clone()),
        Some(v) => Some(v.to_string()),
    }
}

/// Anthropic: `tool_use` blocks of the request's messages, then of the response (or of its
/// stream, put together from its deltas); results are `tool_result` blocks.
fn anthropic(rec: &Value, w: &mut Walked) -> Vec<(String, Option<String>)> {
    let req = rec.get("request").unwrap_or(rec);
    let mut out = Vec::new();
    for m in arr(req, "messages") {
        for b in arr(m, "content") {
            match s(b, "type") {
                Some("tool_use") => out.push((
                    s(b, "name").unwrap_or("").to_owned(),
                    text_of(b.get("input")),
                )),
                Some("tool_result") => w.results += 1,
                _ => {}
            }
        }
    }
    if let Some(resp) = rec.get("response").filter(|r| r.is_object()) {
        for b in arr(resp, "content") {
            if s(b, "type") == Some("tool_use") {
                out.push((
                    s(b, "name").unwrap_or("").to_owned(),
                    text_of(b.get("input")),
                ));
            }
        }
    } else {
        let mut open: BTreeMap<i64, (String, String, Option<String>)> = BTreeMap::new();
        let mut order = Vec::new();
        for e in arr(rec, "response_stream") {
            let d = &e["data"];
            let i = d["index"].as_i64().unwrap_or(-1);
            match s(d, "type") {
                Some("content_block_start")
                    if s(&d["content_block"], "type") == Some("tool_use") =>
                {
                    let cb = &d["content_block"];
                    open.insert(
                        i,
                        (
                            s(cb, "name").unwrap_or("").to_owned(),
                            String::new(),
                            text_of(cb.get("input")),
                        ),
                    );
                    order.push(i);
                }
                Some("content_block_delta") => {
                    if let Some(o) = open.get_mut(&i) {
                        o.1.push_str(s(&d["delta"], "partial_json").unwrap_or(""));
                    }
                }
                _ => {}
            }
        }
        for i in order {
            let (name, partial, start) = open.remove(&i).unwrap();
            out.push((
                name,
                if partial.is_empty() {
                    start
                } else {
                    Some(partial)
                },
            ));
        }
    }
    out
}

/// OpenAI Chat: `tool_calls` of assistant messages (the request's, then the response's
/// choices, or its stream's deltas by index); results are `role: "tool"` messages.
fn chat(rec: &Value, w: &mut Walked) -> Vec<(String, Option<String>)> {
    let req = rec.get("request").unwrap_or(rec);
    let mut out = Vec::new();
    let message = |m: &Value, out: &mut Vec<(String, Option<String>)>| {
        for tc in arr(m, "tool_calls") {
            if matches!(s(tc, "type"), None | Some("function")) {
                out.push((
                    s(&tc["function"], "name").unwrap_or("").to_owned(),
                    text_of(tc["function"].get("arguments")),
                ));
            }
        }
        if let Some(f) = m
            .get("function_call")
            .filter(|f| s(f, "name").is_some_and(|n| !n.is_empty()))
        {
            out.push((
                s(f, "name").unwrap_or("").to_owned(),
                text_of(f.get("arguments")),
            ));
        }
    };
    for m in arr(req, "messages") {
        match s(m, "role") {
            Some("assistant") => message(m, &mut out),
            Some("tool" | "function") => w.results += 1,
            _ => {}
        }
    }
    if let Some(resp) = rec.get("response").filter(|r| r.is_object()) {
        for c in arr(resp, "choices") {
            message(&c["message"], &mut out);
        }
    } else if rec.get("request").is_some() {
        let mut calls: BTreeMap<(i64, i64), (String, String)> = BTreeMap::new();
        for e in arr(rec, "response_stream") {
            for c in arr(&e["data"], "choices") {
                for tc in arr(&c["delta"], "tool_calls") {
                    let key = (
                        c["index"].as_i64().unwrap_or(0),
                        tc["index"].as_i64().unwrap_or(0),
                    );
                    let o = calls.entry(key).or_default();
                    if o.0.is_empty() {
                        o.0 = s(&tc["function"], "name").unwrap_or("").to_owned();
                    }
                    o.1.push_str(s(&tc["function"], "arguments").unwrap_or(""));
                }
            }
        }
        out.extend(calls.into_values().map(|(n, a)| (n, Some(a))));
    }
    out
}

/// OpenAI Responses: `function_call` items of the input, then of the response's output;
/// results are `function_call_output` items.
fn responses(
    rec: &Value,
    w: &mut Walked,
    tools: &mut Vec<(String, Value)>,
) -> Vec<(String, Option<String>)> {
    let req = rec.get("request").unwrap_or(rec);
    let continued = !req["previous_response_id"].is_null() || !req["conversation"].is_null();
    let mut out = Vec::new();
    let mut function_ids = Vec::new();
    let mut items: Vec<&Value> = arr(req, "input").iter().collect();
    if let Some(resp) = rec.get("response").filter(|r| r.is_object()) {
        items.extend(arr(resp, "output"));
    }
    for it in &items {
        match s(it, "type") {
            Some("function_call") => {
                out.push((
                    s(it, "name").unwrap_or("").to_owned(),
                    text_of(it.get("arguments")),
                ));
                function_ids.extend(s(it, "call_id"));
            }
            Some("additional_tools" | "tool_search_output") => decls(arr(it, "tools"), tools),
            _ => {}
        }
    }
    for it in &items {
        if s(it, "type") == Some("function_call_output") {
            w.results += 1;
            let answers_a_call = s(it, "call_id").is_some_and(|id| function_ids.contains(&id));
            if !answers_a_call
                && (continued || builtin_ids(&items).contains(&s(it, "call_id").unwrap_or("")))
            {
                w.excused += 1;
            }
        }
    }
    out
}

fn builtin_ids<'a>(items: &[&'a Value]) -> Vec<&'a str> {
    items
        .iter()
        .filter(|it| s(it, "type").is_some_and(|t| t.ends_with("_call") && t != "function_call"))
        .filter_map(|it| s(it, "call_id"))
        .collect()
}

/// One record of a file, walked.
fn walk(file: &str, rec: &Value, tools_file: Option<&[Value]>) -> Walked {
    let mut w = Walked::default();
    let mut tools = Vec::new();
    let req = rec.get("request").unwrap_or(rec);
    let own = req.get("tools").and_then(Value::as_array);
    if let Some(t) = own {
        decls(t, &mut tools);
    }
    let found = if file.starts_with("anthropic") {
        anthropic(rec, &mut w)
    } else if file.starts_with("openai-chat") || file.starts_with("tau-bench") {
        chat(rec, &mut w)
    } else if file.starts_with("openai-responses") {
        responses(rec, &mut w, &mut tools)
    } else if file == "bfcl-ground-truth.jsonl" {
        decls(std::slice::from_ref(&rec["tool"]), &mut tools);
        vec![(
            s(&rec["tool"]["function"], "name").unwrap().to_owned(),
            text_of(rec.get("arguments")),
        )]
    } else {
        if rec.get("response").is_some() {
            w.results += 1;
        }
        let p = &rec["params"];
        let args = text_of(p.get("arguments")).or_else(|| Some("{}".to_owned()));
        vec![(s(p, "name").unwrap_or("").to_owned(), args)]
    };
    let has_own = own.is_some() || file == "bfcl-ground-truth.jsonl";
    if !has_own && let Some(t) = tools_file {
        decls(t, &mut tools);
    }
    let has_tools = has_own || tools_file.is_some() || !tools.is_empty();
    let provided = |tool: &str| {
        own.into_iter().flatten().any(|t| {
            s(t, "name") == Some(tool)
                && t.get("input_schema").is_none()
                && !matches!(s(t, "type"), None | Some("function" | "custom"))
        })
    };
    w.calls = found
        .into_iter()
        .map(|(tool, args_text)| Seen {
            provided: provided(&tool),
            decl: tools
                .iter()
                .find(|(n, _)| *n == tool)
                .map(|(_, d)| d.clone()),
            tool,
            args_text,
            has_tools,
        })
        .collect();
    w
}

/// The audit's JSON lines of one run, grouped: call lines and conversation lines by record.
#[derive(Default)]
struct Audited {
    calls: BTreeMap<String, Vec<Value>>,
    convs: BTreeMap<String, Value>,
    summary: Value,
}

fn audit(args: &[&str]) -> Audited {
    let out = tooldojo(args, None);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut a = Audited::default();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v.get("summary").is_some() {
            a.summary = v;
        } else if v["conversation"] == json!(true) {
            a.convs.insert(v["record"].as_str().unwrap().to_owned(), v);
        } else {
            a.calls
                .entry(v["record"].as_str().unwrap().to_owned())
                .or_default()
                .push(v);
        }
    }
    a
}

/// `tooldojo validate --jsonl` on one case a call: `(ok, error)` each, or `None` for a case
/// whose declaration it refuses.
fn validate(cases: &[Value]) -> Vec<Option<(bool, String)>> {
    let input: String = cases.iter().map(|c| format!("{c}\n")).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cases.jsonl");
    std::fs::write(&path, input).unwrap();
    let out = tooldojo(&["validate", "--jsonl", path.to_str().unwrap()], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let error = v["error"].as_str().unwrap().to_owned();
            (!error.starts_with("bad case: schema")).then(|| (v["ok"] == json!(true), error))
        })
        .collect()
}

/// Tally of one file, for the printout.
#[derive(Default, Debug)]
struct Tally {
    records: usize,
    calls: usize,
    judged: usize,
    findings: BTreeMap<String, u64>,
}

/// Check one file's audit (lines of `records`, each `(line, value)`) against the walk.
fn check_file(
    file: &str,
    lines: &[(usize, Value)],
    path: &str,
    a: &Audited,
    tools_file: Option<&[Value]>,
) -> Tally {
    let mut tally = Tally::default();
    let mut cases = Vec::new();
    let mut expect = Vec::new();
    for (n, rec) in lines {
        let key = format!("{path}:{n}");
        let w = walk(file, rec, tools_file);
        let got = a.calls.get(&key).map_or(&[][..], Vec::as_slice);
        let names: Vec<&str> = got.iter().map(|c| c["tool"].as_str().unwrap()).collect();
        let want: Vec<&str> = w.calls.iter().map(|c| c.tool.as_str()).collect();
        assert_eq!(names, want, "{key}: the calls, in order");
        tally.records += 1;
        tally.calls += got.len();
        let conv = a
            .convs
            .get(&key)
            .unwrap_or_else(|| panic!("{key}: no conversation line"));
        pairing(&key, file, got, conv, &w);
        for (c, seen) in got.iter().zip(&w.calls) {
            expected_verdict(&key, c, seen, &mut cases, &mut expect);
        }
    }
    let verdicts = validate(&cases);
    for ((key, c), v) in expect.iter().zip(verdicts) {
        match v {
            None => assert_eq!(
                c["ok"],
                Value::Null,
                "{key}: a refused declaration is not judged: {c}"
            ),
            Some((ok, error)) => {
                tally.judged += 1;
                assert_eq!(c["ok"], json!(ok), "{key}: {c}");
                assert_eq!(
                    c["error"].as_str().unwrap(),
                    if ok { "" } else { error.as_str() },
                    "{key}: {c}"
                );
            }
        }
    }
    if let Some(f) = a.summary["summary"]["findings"].as_object() {
        tally.findings = f
            .iter()
            .filter(|(_, n)| n.as_u64() != Some(0))
            .map(|(k, n)| (k.clone(), n.as_u64().unwrap()))
            .collect();
    }
    tally
}

/// Every call answered, reported, or waiting in the last turn; every result answering a call
/// or reported as an orphan.
fn pairing(key: &str, file: &str, got: &[Value], conv: &Value, w: &Walked) {
    let turns = conv["turns"].as_u64().unwrap();
    let mcp = !file.ends_with("bfcl-ground-truth.jsonl") && file.contains("mcp");
    for c in got {
        let reported = c["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "unanswered");
        let waiting = !mcp && c["turn"].as_u64().unwrap() == turns;
        assert!(
            c["answered"] == json!(true) || reported || waiting,
            "{key}: a call neither answered nor reported: {c}"
        );
        assert!(!(reported && c["answered"] == json!(true)), "{key}: {c}");
    }
    let answered = got.iter().filter(|c| c["answered"] == json!(true)).count();
    let orphans = conv["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| *f == "orphan_result")
        .count();
    if !mcp {
        assert_eq!(
            answered + orphans + w.excused,
            w.results,
            "{key}: results = answered + orphans + excused ({conv})"
        );
    }
}

/// The verdict `validate` should give a call, as a case (or what the audit must say without one).
fn expected_verdict(
    key: &str,
    c: &Value,
    seen: &Seen,
    cases: &mut Vec<Value>,
    expect: &mut Vec<(String, Value)>,
) {
    let Some(text) = &seen.args_text else {
        assert_eq!(c["ok"], json!(false), "{key}: no arguments: {c}");
        assert!(
            c["findings"]
                .as_array()
                .unwrap()
                .contains(&json!("args_not_json")),
            "{key}: {c}"
        );
        return;
    };
    match &seen.decl {
        Some(decl) => {
            cases.push(json!({"schema": decl, "args_text": text}));
            expect.push((key.to_owned(), c.clone()));
        }
        None if seen.has_tools && !seen.provided => {
            let parses = serde_json::from_str::<Value>(text).is_ok();
            if parses {
                assert_eq!(c["ok"], json!(false), "{key}: {c}");
                assert_eq!(
                    c["error"],
                    json!(format!("unknown tool: {}", seen.tool)),
                    "{key}: {c}"
                );
            } else {
                assert!(
                    c["findings"]
                        .as_array()
                        .unwrap()
                        .contains(&json!("args_not_json")),
                    "{key}: {c}"
                );
            }
        }
        None => {
            // No declarations, or a provider-defined tool with no schema: only what any
            // arguments must be is judged.
            cases.push(json!({"schema": {}, "form": "json-schema", "args_text": text}));
            let mut c = c.clone();
            if c["ok"].is_null() {
                c["ok"] = json!(true);
                c["error"] = json!("");
            }
            expect.push((key.to_owned(), c));
        }
    }
}

fn read_lines(path: &Path) -> Vec<(usize, Value)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, serde_json::from_str(l).unwrap()))
        .collect()
}

fn print(file: &str, t: &Tally) {
    eprintln!(
        "{file}: {} records, {} calls ({} judged against validate), findings {:?}",
        t.records, t.calls, t.judged, t.findings
    );
}

#[test]
fn every_recorded_conversation_is_counted_paired_and_judged_as_validate_judges() {
    let Some(dir) = shared::shared("realworld/conversations") else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 4, "{files:?}");
    let mut total = 0;
    for path in files {
        let file = path.file_name().unwrap().to_str().unwrap().to_owned();
        let p = path.to_str().unwrap();
        let a = audit(&["audit", "--json", p]);
        let t = check_file(&file, &read_lines(&path), p, &a, None);
        assert_eq!(
            a.summary["summary"]["calls"].as_u64().unwrap() as usize,
            t.calls,
            "{file}"
        );
        assert_eq!(a.summary["summary"]["bad_records"], json!(0), "{file}");
        print(&file, &t);
        total += t.calls;
    }
    // The walk's counts, summed: the tau-bench conversations alone hold 1,164 calls.
    assert!(total > 1164, "{total}");
}

#[test]
fn every_recorded_call_is_counted_and_judged_as_validate_judges() {
    let Some(dir) = shared::shared("realworld/calls") else {
        return;
    };
    let tools_dir = dir.join("../tools/mcp");
    // bfcl carries each declaration; the MCP calls name the tools/list they were made against.
    let bfcl = dir.join("bfcl-ground-truth.jsonl");
    let a = audit(&["audit", "--json", bfcl.to_str().unwrap()]);
    let t = check_file(
        "bfcl-ground-truth.jsonl",
        &read_lines(&bfcl),
        bfcl.to_str().unwrap(),
        &a,
        None,
    );
    assert_eq!(t.calls, 3302);
    assert_eq!(t.findings.get("invalid_arguments"), Some(&212), "{t:?}");
    print("bfcl-ground-truth.jsonl", &t);
    let tmp = tempfile::tempdir().unwrap();
    for file in ["kubernetes-mcp-evals.jsonl", "deepwiki-mcp.jsonl"] {
        let mut by_list: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for line in std::fs::read_to_string(dir.join(file)).unwrap().lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            by_list
                .entry(v["tools_list"].as_str().unwrap().to_owned())
                .or_default()
                .push(line.to_owned());
        }
        let mut calls = 0;
        for (list, lines) in by_list {
            let part = tmp.path().join(format!("{file}.{list}"));
            std::fs::write(&part, lines.join("\n") + "\n").unwrap();
            let tools_path = tools_dir.join(&list);
            let tools: Value =
                serde_json::from_str(&std::fs::read_to_string(&tools_path).unwrap()).unwrap();
            let a = audit(&[
                "audit",
                "--json",
                "--tools",
                tools_path.to_str().unwrap(),
                part.to_str().unwrap(),
            ]);
            // One conversation a run the lines name (their task and model), each line a
            // call of it, in order.
            let recs: Vec<(usize, Value)> = read_lines(&part);
            let session_key = format!("{}:1", part.to_str().unwrap());
            let mut convs: Vec<(usize, &Vec<Value>)> = a
                .calls
                .iter()
                .map(|(k, c)| (k.rsplit(':').next().unwrap().parse().unwrap(), c))
                .collect();
            convs.sort_by_key(|(line, _)| *line);
            let got: Vec<Value> = convs.iter().flat_map(|(_, c)| c.iter().cloned()).collect();
            assert_eq!(got.len(), recs.len(), "{file} {list}: one call a line");
            let run = |r: &Value| (r.get("task").cloned(), r.get("model").cloned());
            let runs = 1 + recs
                .windows(2)
                .filter(|w| run(&w[0].1) != run(&w[1].1))
                .count();
            assert_eq!(a.convs.len(), runs, "{file} {list}: one conversation a run");
            let mut cases = Vec::new();
            let mut expect = Vec::new();
            for ((_, rec), c) in recs.iter().zip(&got) {
                let w = walk(file, rec, tools["tools"].as_array().map(Vec::as_slice));
                assert_eq!(c["tool"], json!(w.calls[0].tool));
                expected_verdict(&session_key, c, &w.calls[0], &mut cases, &mut expect);
                let answered = rec.get("response").is_some()
                    || rec.get("result").is_some()
                    || rec.get("isError").is_some_and(Value::is_boolean);
                let reported = c["findings"]
                    .as_array()
                    .unwrap()
                    .contains(&json!("unanswered"));
                assert!(
                    answered == (c["answered"] == json!(true)) && answered != reported,
                    "{c}"
                );
            }
            for ((key, c), v) in expect.iter().zip(validate(&cases)) {
                let (ok, error) = v.expect("every MCP declaration is honoured");
                assert_eq!(c["ok"], json!(ok), "{key}: {c}");
                assert_eq!(
                    c["error"].as_str().unwrap(),
                    if ok { "" } else { error.as_str() },
                    "{key}"
                );
            }
            calls += got.len();
        }
        eprintln!("{file}: {calls} calls, each judged against validate");
        assert_eq!(calls, if file.starts_with("kube") { 1087 } else { 2 });
    }
}
