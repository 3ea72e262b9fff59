//! The validator against a second, independent oracle: Python's `jsonschema`
//! (`Draft202012Validator` with its format checker, through `benches/py_jsonschema.py`),
//! run once over a file of generated cases:
//! - calls against real declarations (every shape, from `../shared/realworld/tools`), their
//!   arguments generated from each declaration's own schema;
//! - schemas put together from the keywords real declarations use, in a random declaration
//!   shape, with random arguments, formats checked or noted.
//!
//! Every disagreement must have one of the causes listed in [`CAUSES`], each a deliberate
//! difference of tooldojo or a known difference of Python's; the counts are printed
//! (`cargo test --test core validate_differential -- --nocapture`). Needs `python3`; the script
//! installs `jsonschema[format]` when it is missing (CI installs it in `.ci/run`).

use std::process::Command;

use serde_json::{Value, json};

use super::gen_calls::{Rng, instance, schema};
use super::realworld_validator::real_declarations;
use tooldojo::validate::jsonl;

/// Tells from the two error texts (tooldojo's, jsonschema's) whether a cause applies.
type Sign = fn(&str, &str) -> bool;

/// Why tooldojo and Python's `jsonschema` may judge a case differently, and how to tell.
const CAUSES: &[(&str, Sign)] = &[
    (
        "integer: tooldojo refuses 3.0 (a float, as Python's json.loads reads it); jsonschema \
         calls every whole number an integer",
        |ours, _| {
            ours.contains("expected int, got float")
                || ours.contains("expected int or NoneType, got float")
        },
    ),
    (
        "multipleOf: tooldojo divides exact decimals (0.3 is a multiple of 0.1); jsonschema \
         divides floats",
        |ours, theirs| {
            ours.contains("must be a multiple of") || theirs.contains("is not a multiple of")
        },
    ),
    (
        "pattern: tooldojo gives a pattern its ECMA-262 meaning (\\d is ASCII, $ is the very end); \
         jsonschema uses Python's re",
        |ours, theirs| ours.contains("must match the pattern") || theirs.contains("does not match"),
    ),
    (
        "format: the two sets of format checkers differ at the edges",
        |ours, theirs| {
            ours.contains("must be a")
                || ours.contains("must be an")
                || theirs.contains("is not a '")
        },
    ),
    (
        "refused: tooldojo refuses a format it has no checker for yet rather than pass it unchecked",
        |ours, _| ours.contains("has no checker yet"),
    ),
];

/// A declaration's JSON Schema, by its shape.
fn inner(decl: &Value) -> Value {
    let s = decl
        .get("inputSchema")
        .or_else(|| decl.get("input_schema"))
        .or_else(|| decl.get("function").and_then(|f| f.get("parameters")))
        .or_else(|| decl.get("parameters"));
    s.cloned().unwrap_or(json!({}))
}

/// A schema in a random declaration shape.
fn dressed(rng: &mut Rng, s: Value, i: usize) -> Value {
    let name = format!("tool_{i}");
    match rng.below(5) {
        0 => s,
        1 => {
            json!({"name": name, "description": "d", "inputSchema": s, "annotations": {"readOnlyHint": true}})
        }
        2 => {
            json!({"type": "function", "function": {"name": name, "parameters": s, "strict": false}})
        }
        3 => json!({"type": "function", "name": name, "parameters": s, "strict": true}),
        _ => json!({"name": name, "input_schema": s, "cache_control": {"type": "ephemeral"}}),
    }
}

fn python_ok() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn verdicts_agree_with_python_jsonschema() {
    let Some(decls) = real_declarations() else {
        return;
    };
    if !python_ok() {
        assert!(
            std::env::var("TOOLDOJO_REQUIRE_SHARED").as_deref() != Ok("1"),
            "python3 is needed for the differential test"
        );
        eprintln!("note: python3 not found; skipping the differential test");
        return;
    }
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut lines = String::new();
    for _ in 0..6000 {
        let d = rng.pick(&decls).clone();
        let s = inner(&d);
        let args = instance(&mut rng, &s, &s, 0);
        lines.push_str(&json!({"schema": d, "args": args}).to_string());
        lines.push('\n');
    }
    for i in 0..4000 {
        let s = schema(&mut rng, 0);
        let args = instance(&mut rng, &s, &s, 0);
        let formats = if rng.chance(30) { "annotate" } else { "assert" };
        let d = dressed(&mut rng, s, i);
        lines.push_str(&json!({"schema": d, "args": args, "formats": formats}).to_string());
        lines.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cases.jsonl");
    std::fs::write(&path, &lines).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/py_jsonschema.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&path)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut ours = Vec::new();
    jsonl::run(lines.as_bytes(), &mut ours, &jsonl::Options::default()).unwrap();
    let ours: Vec<Value> = String::from_utf8(ours)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let cases: Vec<&str> = lines.lines().collect();
    assert_eq!((ours.len(), theirs.len()), (cases.len(), cases.len()));
    let mut agree = 0;
    let mut by_cause = vec![0usize; CAUSES.len()];
    let mut unexplained = Vec::new();
    let mut rejected = 0;
    for ((o, t), case) in ours.iter().zip(&theirs).zip(&cases) {
        rejected += usize::from(o["ok"] == false);
        if o["ok"] == t["ok"] {
            agree += 1;
            continue;
        }
        let (oe, te) = (
            o["error"].as_str().unwrap_or(""),
            t["error"].as_str().unwrap_or(""),
        );
        match CAUSES.iter().position(|(_, hit)| hit(oe, te)) {
            Some(i) => by_cause[i] += 1,
            None => unexplained.push(format!("{case}\n  tooldojo: {o}\n  jsonschema: {t}")),
        }
    }
    println!(
        "differential: {} cases ({rejected} rejected by tooldojo), {agree} agree, {} differ",
        cases.len(),
        cases.len() - agree
    );
    for ((why, _), n) in CAUSES.iter().zip(&by_cause) {
        println!("  {n:>5}  {why}");
    }
    for u in unexplained.iter().take(20) {
        println!("  UNEXPLAINED: {u}");
    }
    assert!(
        unexplained.is_empty(),
        "{} disagreements without a listed cause",
        unexplained.len()
    );
    assert!(
        rejected > 1000 && rejected < 9000,
        "the cases should mix passes and failures"
    );
}
