//! The validator on real tool declarations and real calls (`../shared/realworld`, read
//! through `tests/shared/mod.rs`):
//! - every declaration under `tools/`, each file read in its own shape (an MCP `tools/list`
//!   result, OpenAI Chat and Responses `tools` arrays, Anthropic `tools` arrays; built-in and
//!   server tools, which declare no parameters, are left out as the data's README says):
//!   at least 99.5% compile, and every one that does not is a refusal naming its keyword;
//! - every real call under `calls/` judged against its declaration.
//!
//! ```text
//! cargo test --test core realworld_validator -- --nocapture     # prints the counts and refusals
//! ```

use std::collections::HashMap;
use std::path::PathBuf;

use super::shared;
use tooldojo::validate::{self, Form, Json, Validator, ValidatorRules};

/// One declaration: where it came from and its text's value.
struct Decl<'a> {
    file: String,
    value: &'a Json<'a>,
}

/// The declarations a file holds, in its own shape.
fn declarations<'a>(rel: &str, doc: &'a Json<'a>) -> Vec<&'a Json<'a>> {
    let list = match doc {
        Json::Object(_) => match doc.get("tools") {
            Some(Json::Array(items)) => items,
            _ => panic!("{rel}: an MCP file holds {{\"tools\": [...]}}"),
        },
        Json::Array(items) => items,
        _ => panic!("{rel}: not a tools file"),
    };
    list.iter()
        .filter(|t| {
            if rel.starts_with("openai-responses/") {
                matches!(t.get("type"), Some(Json::Str(s)) if s == "function")
            } else if rel.starts_with("anthropic/") {
                t.get("input_schema").is_some()
            } else {
                true
            }
        })
        .collect()
}

/// Every real declaration as a `Value`, each in its own shape (`None`: no shared data).
pub(super) fn real_declarations() -> Option<Vec<serde_json::Value>> {
    let dir = shared::shared("realworld/tools")?;
    let mut out = Vec::new();
    for p in shared::json_files(&dir) {
        let rel = p
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&p).unwrap();
        let doc = validate::json::parse(&text).unwrap();
        out.extend(declarations(&rel, &doc).into_iter().map(|d| d.to_value()));
    }
    Some(out)
}

fn no_checker(e: &validate::CompileError) -> bool {
    e.refusal()
        .is_some_and(|r| r.keyword == "format" && r.reason.contains("no checker yet"))
}

#[test]
fn every_real_declaration_compiles_or_is_refused_by_keyword() {
    let Some(dir) = shared::shared("realworld/tools") else {
        return;
    };
    let texts: Vec<(String, String)> = shared::json_files(&dir)
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    let docs: Vec<(String, Json<'_>)> = texts
        .iter()
        .map(|(rel, t)| {
            (
                rel.clone(),
                validate::json::parse(t).unwrap_or_else(|e| panic!("{rel}: {e}")),
            )
        })
        .collect();
    let mut all = Vec::new();
    for (rel, doc) in &docs {
        for d in declarations(rel, doc) {
            all.push(Decl {
                file: rel.clone(),
                value: d,
            });
        }
    }
    let mut honoured = 0;
    let mut waiting = 0;
    let mut refused: Vec<String> = Vec::new();
    let mut by_form: HashMap<Form, usize> = HashMap::new();
    let mut unknown: HashMap<String, usize> = HashMap::new();
    for d in &all {
        match Validator::options().compile(d.value) {
            Ok(v) => {
                honoured += 1;
                *by_form.entry(v.form()).or_default() += 1;
                for k in v.unknown_keywords() {
                    *unknown.entry(k.keyword.clone()).or_default() += 1;
                }
            }
            Err(e) => {
                let name = d
                    .value
                    .get("name")
                    .or_else(|| d.value.get("function").and_then(|f| f.get("name")));
                let name = name.map(|n| n.to_text()).unwrap_or_default();
                let r = e
                    .refusal()
                    .unwrap_or_else(|| panic!("{} {name}: not a refusal: {e}", d.file));
                assert!(!r.keyword.is_empty(), "{e}");
                if no_checker(&e) {
                    waiting += 1;
                }
                refused.push(format!("{} {name}: {e}", d.file));
            }
        }
    }
    let total = all.len();
    println!(
        "real declarations: {total}, honoured {honoured} ({:.2}%), refused {} ({waiting} for a format with no checker yet)",
        100.0 * honoured as f64 / total as f64,
        refused.len()
    );
    let mut forms: Vec<_> = by_form
        .into_iter()
        .map(|(f, n)| format!("{} {n}", f.name()))
        .collect();
    forms.sort();
    println!("  by shape: {}", forms.join(", "));
    let mut unknown: Vec<_> = unknown.into_iter().collect();
    unknown.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!("  unknown keywords (ignored, named): {unknown:?}");
    for r in &refused {
        println!("  refused: {r}");
    }
    assert_eq!(
        total, 4242,
        "the data set's README counts 4,242 function declarations"
    );
    // Refusals waiting for a format checker are left out until every format has one.
    let every_format = validate::format::KNOWN
        .iter()
        .all(|f| validate::format::checker(f).is_some());
    let counted = if every_format { total } else { total - waiting };
    assert!(
        honoured as f64 >= 0.995 * counted as f64,
        "{honoured} of {counted} honoured, under 99.5%"
    );
}

/// The declaration a call names, compiled once per (file, name).
struct Tools {
    dir: PathBuf,
    docs: HashMap<String, String>,
}

impl Tools {
    fn mcp(&mut self, list: &str, name: &str) -> Result<Validator, String> {
        let text = self
            .docs
            .entry(list.to_owned())
            .or_insert_with(|| std::fs::read_to_string(self.dir.join("mcp").join(list)).unwrap());
        let doc = validate::json::parse(text).unwrap();
        let tools = declarations(&format!("mcp/{list}"), &doc);
        let tool = tools
            .into_iter()
            .find(|t| matches!(t.get("name"), Some(Json::Str(n)) if n == name))
            .ok_or_else(|| format!("{list} declares no {name}"))?;
        Validator::options()
            .compile(tool)
            .map_err(|e| e.to_string())
    }
}

#[derive(Default, Debug)]
struct Judged {
    calls: usize,
    ok: usize,
    rejected: usize,
    /// Calls whose declaration was refused (named).
    unjudged: Vec<String>,
    first_messages: HashMap<String, usize>,
}

fn judge(j: &mut Judged, v: Result<Validator, String>, args: &Json<'_>, what: &str) {
    j.calls += 1;
    match v {
        Err(e) => j.unjudged.push(format!("{what}: {e}")),
        Ok(v) => match v.check(args, &ValidatorRules::ALL_ON) {
            Ok(()) => j.ok += 1,
            Err(e) => {
                j.rejected += 1;
                let head = e.message.split(':').next().unwrap_or_default().to_owned();
                *j.first_messages.entry(head).or_default() += 1;
                // --all's head is the first failure.
                let all = v.check_all(args, &ValidatorRules::ALL_ON);
                assert_eq!(all.first(), Some(&e), "{what}");
            }
        },
    }
}

#[test]
fn every_real_call_is_judged() {
    let (Some(calls), Some(tools)) = (
        shared::shared("realworld/calls"),
        shared::shared("realworld/tools"),
    ) else {
        return;
    };
    let mut tools = Tools {
        dir: tools,
        docs: HashMap::new(),
    };
    let mut report = Vec::new();
    for file in [
        "kubernetes-mcp-evals.jsonl",
        "deepwiki-mcp.jsonl",
        "bfcl-ground-truth.jsonl",
    ] {
        let text = std::fs::read_to_string(calls.join(file)).unwrap();
        let mut j = Judged::default();
        let mut cache: HashMap<String, Result<Validator, String>> = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let case =
                validate::json::parse(line).unwrap_or_else(|e| panic!("{file}:{}: {e}", i + 1));
            let what = format!("{file}:{}", i + 1);
            if file == "bfcl-ground-truth.jsonl" {
                let tool = case.get("tool").expect("a BFCL line carries its tool");
                let key = tool.to_text();
                let v = cache
                    .entry(key)
                    .or_insert_with(|| {
                        Validator::options()
                            .compile(tool)
                            .map_err(|e| e.to_string())
                    })
                    .clone();
                judge(&mut j, v, case.get("arguments").expect("arguments"), &what);
            } else {
                let params = case.get("params").expect("params");
                let name = params.get("name").map(|n| n.to_text()).unwrap_or_default();
                let name = name.trim_matches('"').to_owned();
                let list = match case.get("tools_list") {
                    Some(Json::Str(s)) => s.to_string(),
                    _ => panic!("{what}: no tools_list"),
                };
                let key = format!("{list}#{name}");
                let v = cache
                    .entry(key)
                    .or_insert_with(|| tools.mcp(&list, &name))
                    .clone();
                let empty = Json::Object(Vec::new());
                let args = params.get("arguments").unwrap_or(&empty);
                judge(&mut j, v, args, &what);
            }
        }
        let mut heads: Vec<_> = j.first_messages.iter().collect();
        heads.sort();
        println!(
            "{file}: {} calls judged: {} pass, {} rejected ({heads:?}), {} not judged (declaration refused)",
            j.calls - j.unjudged.len(),
            j.ok,
            j.rejected,
            j.unjudged.len()
        );
        for u in &j.unjudged {
            println!("  not judged: {u}");
        }
        report.push((file, j));
    }
    let calls: usize = report.iter().map(|(_, j)| j.calls).sum();
    assert_eq!(calls, 1087 + 2 + 3302, "every call of the data set");
    for (file, j) in &report {
        for u in &j.unjudged {
            assert!(u.contains("unsupported keyword"), "{file}: {u}");
        }
    }
}
