//! Properties of the validator on calls shaped like real ones (proptest over seeds of the
//! generator in `gen_calls.rs`; real declarations join when the shared data is there):
//! - `validate --jsonl` gives every line the verdict it gets alone, whatever came before
//!   (the cache of compiled schemas, the resumed prefix and the reused room change nothing);
//! - `--all`'s head is the first failure, for the first-failure path and the collecting path
//!   alike, with every rule switch.

use std::sync::OnceLock;

use proptest::prelude::*;
use serde_json::{Value, json};

use super::gen_calls::{Rng, instance, schema};
use super::realworld_validator::real_declarations;
use tooldojo::validate::{Validator, ValidatorRules, jsonl};

fn reals() -> &'static [Value] {
    static REALS: OnceLock<Vec<Value>> = OnceLock::new();
    REALS.get_or_init(|| real_declarations().unwrap_or_default())
}

/// A declaration's JSON Schema, by its shape.
fn inner(decl: &Value) -> Value {
    let s = decl
        .get("inputSchema")
        .or_else(|| decl.get("input_schema"))
        .or_else(|| decl.get("function").and_then(|f| f.get("parameters")))
        .or_else(|| decl.get("parameters"));
    s.cloned().unwrap_or_else(|| decl.clone())
}

/// `n` cases from `seed`: a few declarations called again and again, as a real stream is.
fn cases(seed: u64, n: usize) -> Vec<String> {
    let mut rng = Rng(seed | 1);
    let mut pool: Vec<Value> = (0..3).map(|_| schema(&mut rng, 0)).collect();
    let reals = reals();
    for _ in 0..3 {
        if !reals.is_empty() {
            pool.push(rng.pick(reals).clone());
        }
    }
    (0..n)
        .map(|_| {
            let d = rng.pick(&pool).clone();
            let s = inner(&d);
            let args = instance(&mut rng, &s, &s, 0);
            let mut case = json!({"schema": d, "args": args});
            if rng.chance(20) {
                case["formats"] = json!("annotate");
            }
            if rng.chance(10) {
                // The args as raw text, sometimes repeating a key.
                let text = case["args"].to_string();
                let text = if rng.chance(50) && text.starts_with("{\"") {
                    text.replacen('{', "{\"dup\": 1, \"dup\": 2, ", 1)
                } else {
                    text
                };
                case.as_object_mut().unwrap().remove("args");
                case["args_text"] = json!(text);
            }
            case.to_string()
        })
        .collect()
}

fn run(input: &str, all: bool) -> Vec<String> {
    let opts = jsonl::Options {
        all,
        ..Default::default()
    };
    let mut out = Vec::new();
    jsonl::run(input.as_bytes(), &mut out, &opts).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn jsonl_judges_each_line_as_alone(seed in any::<u64>(), all in any::<bool>()) {
        let lines = cases(seed, 40);
        let whole = run(&(lines.join("\n") + "\n"), all);
        prop_assert_eq!(whole.len(), lines.len());
        for (line, got) in lines.iter().zip(&whole) {
            let alone = run(&format!("{line}\n"), all);
            prop_assert_eq!(&alone[0], got, "{}", line);
        }
    }

    #[test]
    fn all_starts_with_the_first_failure(seed in any::<u64>(), off in 0usize..6) {
        use tooldojo::switches::Switch;
        let rules = ValidatorRules::without(tooldojo::validate::Rule::ALL.get(off).copied());
        for line in cases(seed, 20) {
            let case: Value = serde_json::from_str(&line).unwrap();
            let Ok(v) = Validator::from_value(&case["schema"]) else { continue };
            let text = match case.get("args_text") {
                Some(Value::String(t)) => t.clone(),
                _ => case["args"].to_string(),
            };
            let first = v.check(text.as_str(), &rules);
            let all = v.check_all(text.as_str(), &rules);
            match &first {
                Ok(()) => prop_assert!(all.is_empty(), "{}: {:?}", line, all),
                Err(e) => prop_assert_eq!(all.first(), Some(e), "{}", line),
            }
            // Phases never go backwards down the list.
            prop_assert!(all.windows(2).all(|w| w[0].kind <= w[1].kind), "{:?}", all);
        }
    }
}
