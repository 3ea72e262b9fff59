//! Properties of the validator and the argument reader (proptest), and agreement with a plain
//! Python implementation of the seed's three passes on random flat-form cases.

use proptest::prelude::*;
use serde_json::{Value, json};
use tooldojo::validate::{self, CheckKind, Rule, Validator, ValidatorRules, json as vjson};

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,3}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    /// Whatever serde_json writes, our reader reads back to the same value.
    #[test]
    fn reader_agrees_with_serde_json(v in arb_value()) {
        let text = serde_json::to_string(&v).unwrap();
        let back = vjson::parse(&text).unwrap().to_value();
        prop_assert_eq!(back, v.clone());
        let pretty = serde_json::to_string_pretty(&v).unwrap();
        prop_assert_eq!(vjson::parse(&pretty).unwrap().to_value(), v);
    }

    /// No text makes the reader or the validator panic, and a rejection is well-formed.
    #[test]
    fn no_text_panics(text in "\\PC{0,60}|[\\[\\]{}\":,0-9a-z .eE+-]{0,60}") {
        let schema = Validator::options()
            .required(&["city".into()])
            .compile_value(&json!({"city": "str", "days": "int"}))
            .unwrap();
        for rules_off in [None, Some(Rule::Types), Some(Rule::BoolGuard)] {
            let rules = ValidatorRules::without(rules_off);
            match schema.check(text.as_str(), &rules) {
                Ok(()) => prop_assert!(serde_json::from_str::<Value>(&text).is_ok()),
                Err(v) => prop_assert!(!v.message.is_empty()),
            }
            let all = schema.check_all(text.as_str(), &rules);
            prop_assert_eq!(all.is_empty(), schema.check(text.as_str(), &rules).is_ok());
        }
    }

    /// The first failure of `--all` is the failure of the first-error validator.
    #[test]
    fn all_starts_with_first(args in prop::collection::btree_map("(city|days|unit|page)", arb_value(), 0..4)) {
        let schema = Validator::from_value(&validate::tools::declaration("search_tickets").unwrap()).unwrap();
        let args = Value::Object(args.into_iter().collect());
        let all = schema.check_all(&args, &ValidatorRules::ALL_ON);
        match schema.validate(&args) {
            Ok(()) => prop_assert!(all.is_empty()),
            Err(first) => prop_assert_eq!(&all[0], &first),
        }
        // Check kinds never go backwards.
        let order = |k: CheckKind| k as u8;
        prop_assert!(all.windows(2).all(|w| order(w[0].kind) <= order(w[1].kind)));
    }

    /// Text with a repeated top-level key is always refused, whatever the schema says.
    #[test]
    fn repeated_keys_are_refused(key in "[a-z]{1,6}", a in arb_value(), b in arb_value()) {
        let text = format!("{{{k}: {a}, {k}: {b}}}", k = serde_json::to_string(&key).unwrap());
        let schema = Validator::options().form(Some(validate::Form::Flat)).compile_text("{}").unwrap();
        let err = schema.check(text.as_str(), &ValidatorRules::ALL_ON).unwrap_err();
        prop_assert_eq!(err.message, format!("duplicate arg: {key}"));
    }
}

/// Small deterministic generator (no extra dependency for a test).
pub(crate) struct Rng(pub(crate) u64);
impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn agrees_with_plain_python_on_random_flat_cases() {
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output();
    if python.is_err() {
        eprintln!("python3 not found: skipping the agreement test");
        return;
    }
    let names = ["city", "days", "unit", "temp", "flag", "tags", "meta"];
    let types = ["str", "int", "float", "bool", "list", "dict"];
    let literals = [
        "3",
        "-7",
        "0",
        "-0",
        "3.0",
        "0.5",
        "1e2",
        "1E-3",
        "-2.5e+3",
        "true",
        "false",
        "null",
        "\"x\"",
        "\"\"",
        "\"3\"",
        "[]",
        "[1, \"a\"]",
        "{}",
        "{\"a\": 1}",
        "123456789012345678901234567890",
        "-99999999999999999999",
        "18446744073709551615",
        "9223372036854775808",
        "1e400",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut lines = String::new();
    let mut ours = Vec::new();
    for _ in 0..3000 {
        let mut schema = serde_json::Map::new();
        for n in names {
            if rng.next() % 2 == 0 {
                schema.insert(n.into(), Value::from(*rng.pick(&types)));
            }
        }
        let mut required: Vec<String> = Vec::new();
        for n in names {
            if rng.next() % 4 == 0 && !required.iter().any(|r| r == n) {
                required.push(n.into());
            }
        }
        let mut used: Vec<&str> = Vec::new();
        let mut parts = Vec::new();
        for _ in 0..(rng.next() % 5) {
            let n = *rng.pick(&names);
            if used.contains(&n) {
                continue;
            }
            used.push(n);
            parts.push(format!("\"{n}\": {}", rng.pick(&literals)));
        }
        let args_text = format!("{{{}}}", parts.join(", "));
        // `{}` reads both ways, so the form is named (as the JSON-lines case below does).
        let flat = Some(validate::Form::Flat);
        let s = Validator::options()
            .form(flat)
            .required(&required)
            .compile_text(&Value::Object(schema.clone()).to_string())
            .unwrap();
        let verdict = match s.check(args_text.as_str(), &ValidatorRules::ALL_ON) {
            Ok(()) => json!({"ok": true, "error": ""}),
            Err(v) => json!({"ok": false, "error": v.message}),
        };
        ours.push(verdict);
        lines.push_str(&format!(
            "{{\"schema\": {}, \"form\": \"flat\", \"required\": {}, \"args\": {args_text}}}\n",
            Value::Object(schema),
            json!(required)
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cases.jsonl");
    std::fs::write(&path, &lines).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/py_three_pass.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(&path)
        .output()
        .unwrap();
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
    assert_eq!(theirs.len(), ours.len());
    let case_lines: Vec<&str> = lines.lines().collect();
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(a, b, "case {}: {}", i + 1, case_lines[i]);
    }
    // The same cases through `tooldojo validate --jsonl` give the same lines again.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .args(["validate", "--jsonl"])
        .arg(&path)
        .output()
        .unwrap();
    let via_cli: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(via_cli, theirs);
}
