use serde_json::{Value, json};

use super::program::RootShape;
use super::*;

/// Compile any shape, the form read from it (`required` for the flat form).
fn compile(schema: &Value, required: &[String]) -> Result<Validator, String> {
    Validator::options()
        .required(required)
        .compile_value(schema)
        .map_err(|e| e.to_string())
}

fn compile_as(schema: &Value, form: Form) -> Result<Validator, String> {
    Validator::options()
        .form(Some(form))
        .compile_value(schema)
        .map_err(|e| e.to_string())
}

fn weather() -> Validator {
    compile(&json!({"city": "str", "days": "int"}), &["city".into()]).unwrap()
}

/// `(ok, message)` the way the seed's function answers.
fn verdict(schema: &Validator, text: &str) -> (bool, String) {
    verdict_with(schema, text, &ValidatorRules::ALL_ON)
}

fn verdict_with(schema: &Validator, text: &str, rules: &ValidatorRules) -> (bool, String) {
    match schema.check(text, rules) {
        Ok(()) => (true, String::new()),
        Err(v) => (false, v.message),
    }
}

#[test]
fn the_seeds_four_examples() {
    let s = weather();
    let rows = [
        (r#"{"city": "Paris", "days": 3}"#, ""),
        (r#"{"days": 3}"#, "missing required arg: city"),
        (r#"{"city": "Paris", "unit": "C"}"#, "unknown arg: unit"),
        (
            r#"{"city": "Paris", "days": "3"}"#,
            "type error: days expected int, got str",
        ),
    ];
    for (args, want) in rows {
        assert_eq!(
            verdict(&s, args),
            (want.is_empty(), want.to_owned()),
            "{args}"
        );
    }
}

/// Every place where a careless port of the Python reference would disagree with it.
#[test]
fn traps_agree_with_python() {
    let s = compile(
        &json!({"n": "int", "x": "float", "b": "bool", "s": "str", "l": "list", "d": "dict"}),
        &[],
    )
    .unwrap();
    let rows = [
        // bool is a subclass of int in Python; the guard keeps it out
        (r#"{"n": true}"#, "type error: n expected int, got bool"),
        (r#"{"n": false}"#, "type error: n expected int, got bool"),
        // ...and bool is never a float either
        (r#"{"x": true}"#, "type error: x expected float, got bool"),
        // a bool field takes a bool, and only a bool
        (r#"{"b": true}"#, ""),
        (r#"{"b": 1}"#, "type error: b expected bool, got int"),
        // 3.0 is a float, 3 is not
        (r#"{"n": 3.0}"#, "type error: n expected int, got float"),
        (r#"{"x": 3}"#, "type error: x expected float, got int"),
        (r#"{"x": 3.0}"#, ""),
        // an exponent makes a float, even when the value is whole
        (r#"{"n": 1e2}"#, "type error: n expected int, got float"),
        (r#"{"x": 1e2}"#, ""),
        (r#"{"x": 1E400}"#, ""),
        // integers beyond i64/u64 are still ints in Python
        (r#"{"n": 123456789012345678901234567890}"#, ""),
        (r#"{"n": 18446744073709551616}"#, ""),
        (r#"{"n": -9223372036854775809}"#, ""),
        (
            r#"{"x": 123456789012345678901234567890}"#,
            "type error: x expected float, got int",
        ),
        (r#"{"n": -0}"#, ""),
        // null is NoneType, never "null" or "None"
        (r#"{"s": null}"#, "type error: s expected str, got NoneType"),
        (r#"{"l": {}}"#, "type error: l expected list, got dict"),
        (r#"{"d": []}"#, "type error: d expected dict, got list"),
        (r#"{"s": "3"}"#, ""),
        (r#"{"n": "3"}"#, "type error: n expected int, got str"),
    ];
    for (args, want) in rows {
        assert_eq!(
            verdict(&s, args),
            (want.is_empty(), want.to_owned()),
            "{args}"
        );
    }
}

#[test]
fn order_of_checks_and_of_args() {
    let s = compile(
        &json!({"city": "str", "days": "int", "unit": "str"}),
        &["city".into(), "days".into()],
    )
    .unwrap();
    let rows = [
        // missing beats unknown beats type
        (r#"{"extra": 1, "unit": 5}"#, "missing required arg: city"),
        (
            r#"{"city": "P", "days": "x", "zzz": 1}"#,
            "unknown arg: zzz",
        ),
        // required names are reported in declared order
        (r#"{"unit": "C"}"#, "missing required arg: city"),
        (r#"{"city": "P"}"#, "missing required arg: days"),
        // unknown and type errors follow the order the model wrote
        (
            r#"{"b": 1, "a": 2, "city": "P", "days": 1}"#,
            "unknown arg: b",
        ),
        (
            r#"{"unit": 1, "city": 2, "days": 3}"#,
            "type error: unit expected str, got int",
        ),
        (
            r#"{"days": "1", "city": 2}"#,
            "type error: days expected int, got str",
        ),
    ];
    for (args, want) in rows {
        assert_eq!(verdict(&s, args), (false, want.to_owned()), "{args}");
    }
}

#[test]
fn parse_problems() {
    let s = weather();
    let (ok, m) = verdict(&s, r#"{"city": "Paris", "days": }"#);
    assert!(!ok);
    assert_eq!(m, "invalid JSON: expected a value at line 1 column 27");
    assert_eq!(
        verdict(&s, r#"{"city": "Paris", "city": "Rome"}"#).1,
        "duplicate arg: city"
    );
    assert_eq!(
        verdict(&s, r#"["city"]"#).1,
        "invalid args: expected a JSON object (dict), got list"
    );
    assert_eq!(
        verdict(&s, "null").1,
        "invalid args: expected a JSON object (dict), got NoneType"
    );
    assert_eq!(
        verdict(&s, "7").1,
        "invalid args: expected a JSON object (dict), got int"
    );
    let deep = format!("{{\"city\": {}", "[".repeat(10_000));
    let (ok, m) = verdict(&s, &deep);
    assert!(!ok);
    assert!(
        m.starts_with("invalid JSON: nesting deeper than 128 levels at line 1 column"),
        "{m}"
    );
    // parse_args keeps the order and refuses repeats
    let v = parse_args(r#"{"z": 1, "a": 2}"#).unwrap();
    assert_eq!(
        v.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["z", "a"]
    );
    let e = parse_args(r#"{"a": 1, "a": 1}"#).unwrap_err();
    assert_eq!((e.kind, e.path.as_str()), (CheckKind::Parse, "a"));
}

fn create_event() -> Validator {
    compile(
        &json!({
            "type": "object",
            "properties": {
                "title": {"type": "string", "minLength": 3, "maxLength": 10},
                "room": {"type": "string", "pattern": "^[A-Z]-[0-9]{2}$"},
                "tag": {"type": "string", "pattern": "urgent"},
                "attendees": {"type": "integer", "minimum": 1, "maximum": 50},
                "duration_h": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 8},
                "kind": {"enum": ["meeting", "call", 3]},
                "note": {"type": ["string", "null"]}
            },
            "required": ["title"],
            "additionalProperties": false
        }),
        &[],
    )
    .unwrap()
}

#[test]
fn value_constraints_state_bound_and_value() {
    let s = create_event();
    let rows = [
        (r#"{"title": "Standup"}"#, ""),
        (
            r#"{"title": "ab"}"#,
            r#"value error: title must be at least 3 characters long, got 2 ("ab")"#,
        ),
        // characters, not bytes: "été" is 3 chars, 5 bytes
        (r#"{"title": "été"}"#, ""),
        (
            r#"{"title": "ééééééééééé"}"#,
            r#"value error: title must be at most 10 characters long, got 11 ("ééééééééééé")"#,
        ),
        (
            r#"{"title": "abc", "attendees": 0}"#,
            "value error: attendees must be >= 1, got 0",
        ),
        (
            r#"{"title": "abc", "attendees": 99999999}"#,
            "value error: attendees must be <= 50, got 99999999",
        ),
        (r#"{"title": "abc", "attendees": 50}"#, ""),
        (
            r#"{"title": "abc", "duration_h": 0}"#,
            "value error: duration_h must be > 0, got 0",
        ),
        (
            r#"{"title": "abc", "duration_h": 8.0}"#,
            "value error: duration_h must be < 8, got 8.0",
        ),
        (r#"{"title": "abc", "duration_h": 7.5}"#, ""),
        (r#"{"title": "abc", "duration_h": 1}"#, ""),
        (
            r#"{"title": "abc", "kind": "party"}"#,
            r#"value error: kind must be one of "meeting", "call", 3, got "party""#,
        ),
        (r#"{"title": "abc", "kind": 3.0}"#, ""),
        (
            r#"{"title": "abc", "kind": true}"#,
            r#"value error: kind must be one of "meeting", "call", 3, got true"#,
        ),
        (r#"{"title": "abc", "room": "B-12"}"#, ""),
        (
            r#"{"title": "abc", "room": "B-123"}"#,
            r#"value error: room must match the pattern ^[A-Z]-[0-9]{2}$, got "B-123""#,
        ),
        // Rust's $ does not match before a trailing newline (Python's does)
        (
            r#"{"title": "abc", "room": "B-12\n"}"#,
            r#"value error: room must match the pattern ^[A-Z]-[0-9]{2}$, got "B-12\n""#,
        ),
        // [0-9] is ASCII only
        (
            r#"{"title": "abc", "room": "B-١٢"}"#,
            r#"value error: room must match the pattern ^[A-Z]-[0-9]{2}$, got "B-١٢""#,
        ),
        // patterns are unanchored unless written with ^ and $
        (r#"{"title": "abc", "tag": "very urgent!"}"#, ""),
        (r#"{"title": "abc", "note": null}"#, ""),
        (
            r#"{"title": "abc", "note": 5}"#,
            "type error: note expected str or NoneType, got int",
        ),
        (
            r#"{"title": "abc", "attendees": 2.0}"#,
            "type error: attendees expected int, got float",
        ),
        (
            r#"{"title": "abc", "duration_h": "2"}"#,
            "type error: duration_h expected int or float, got str",
        ),
        (r#"{"title": "abc", "x": 1}"#, "unknown arg: x"),
    ];
    for (args, want) in rows {
        assert_eq!(
            verdict(&s, args),
            (want.is_empty(), want.to_owned()),
            "{args}"
        );
    }
}

#[test]
fn all_failures_in_check_order() {
    let s = create_event();
    let all: Vec<String> = s
        .check_all(
            r#"{"attendees": 0, "zz": 1, "room": 5, "duration_h": 9, "yy": 2}"#,
            &ValidatorRules::ALL_ON,
        )
        .into_iter()
        .map(|v| v.message)
        .collect();
    assert_eq!(
        all,
        [
            "missing required arg: title",
            "unknown arg: zz",
            "unknown arg: yy",
            "type error: room expected str, got int",
            "value error: attendees must be >= 1, got 0",
            "value error: duration_h must be < 8, got 9",
        ]
    );
    // The Value API gives the same answers.
    let v = parse_args(r#"{"attendees": 0, "zz": 1}"#).unwrap();
    assert_eq!(s.check_all(&v, &ValidatorRules::ALL_ON).len(), 3);
    assert_eq!(
        s.validate(&v).unwrap_err().message,
        "missing required arg: title"
    );
}

#[test]
fn json_schema_defaults_and_forms() {
    // Without additionalProperties: false, JSON Schema allows extra keys.
    let open = compile(
        &json!({"type": "object", "properties": {"q": {"type": "string"}}}),
        &[],
    )
    .unwrap();
    assert_eq!(
        verdict(&open, r#"{"q": "x", "other": 1}"#),
        (true, "".into())
    );
    // A tool declaration wraps a JSON Schema.
    let tool = compile(&tools::declaration("search_tickets").unwrap(), &[]).unwrap();
    assert_eq!(tool.form(), Form::Tool);
    assert_eq!(tool.name(), Some("search_tickets"));
    assert_eq!(
        verdict(&tool, r#"{"query": "crash", "page_size": 99999999}"#).1,
        "value error: page_size must be <= 100, got 99999999"
    );
    assert_eq!(
        verdict(&tool, r#"{"query": "crash", "page_size": true}"#).1,
        "type error: page_size expected int, got bool"
    );
    // A flat schema with a property called "type" is still flat.
    let flat = compile(&json!({"type": "str"}), &[]).unwrap();
    assert_eq!(flat.form(), Form::Flat);
    // Text form refuses a schema that repeats a key.
    assert!(
        Validator::from_text(r#"{"a": "int", "a": "str"}"#)
            .unwrap_err()
            .to_string()
            .contains("repeats the key")
    );
}

#[test]
fn malformed_schemas_are_errors() {
    let bad = [
        (json!([1]), "must be a JSON object"),
        (json!({"city": "string"}), "unknown type \"string\""),
        (json!({"city": 5}), "Python type name"),
        (
            json!({"type": "object", "properties": {"a": {"type": "text"}}}),
            "unknown type",
        ),
        (
            json!({"type": "object", "properties": {"a": {"pattern": "("}}}),
            "bad pattern",
        ),
        (
            json!({"type": "object", "properties": {"a": {"minimum": "1"}}}),
            "must be a number",
        ),
        (
            json!({"type": "object", "properties": {"a": {"maxLength": -1}}}),
            "whole number",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}}),
            "never fetches",
        ),
        (
            json!({"type": "object", "allOf": []}),
            "at least one schema",
        ),
        (json!({"$ref": "#"}), "loop"),
        (json!({"type": "object", "required": "a"}), "required"),
        (json!({"name": "t", "input_schema": 3}), "input_schema"),
        (
            json!({"type": "object", "properties": {"a": {"enum": 3}}}),
            "enum",
        ),
    ];
    for (schema, want) in bad {
        let e = compile(&schema, &[]).unwrap_err();
        assert!(e.contains(want), "{schema}: {e}");
    }
    assert!(
        compile(&json!({"type": "object"}), &["a".into()])
            .unwrap_err()
            .contains("flat form")
    );
}

#[test]
fn switching_a_rule_off_changes_the_verdict() {
    let s = weather();
    let off = |rule: Rule| ValidatorRules::without([rule]);
    assert!(verdict_with(&s, r#"{"days": 3}"#, &off(Rule::Required)).0);
    assert!(verdict_with(&s, r#"{"city": "P", "unit": "C"}"#, &off(Rule::Unknown)).0);
    assert!(verdict_with(&s, r#"{"city": "P", "days": "3"}"#, &off(Rule::Types)).0);
    // Without the guard, Python's isinstance(True, int) lets a bool in.
    assert_eq!(
        verdict_with(&s, r#"{"city": "P", "days": true}"#, &off(Rule::BoolGuard)),
        (true, String::new())
    );
    let t = compile(&tools::declaration("search_tickets").unwrap(), &[]).unwrap();
    assert!(verdict_with(&t, r#"{"query": "a", "page_size": 0}"#, &off(Rule::Values)).0);
    // Value checks still run on the right kind when the type check is off.
    assert_eq!(
        verdict_with(&t, r#"{"query": "a", "page_size": 0}"#, &off(Rule::Types)).1,
        "value error: page_size must be >= 1, got 0"
    );
}

#[test]
fn tool_declarations_compile_and_validate() {
    for d in tools::declarations() {
        let name = d["name"].as_str().unwrap();
        assert!(tools::validator(name).is_some(), "{name}");
    }
    let d = tools::declaration("get_ticket").unwrap();
    let ok = tools::validate_call(
        &d,
        &json!({"ticket_id": "TKT-104"}),
        &ValidatorRules::ALL_ON,
    );
    assert_eq!(ok, Ok(Ok(())));
    let bad = tools::validate_call(
        &d,
        &json!({"ticket_id": "TKT-1040"}),
        &ValidatorRules::ALL_ON,
    )
    .unwrap()
    .unwrap_err();
    assert_eq!(bad.kind, CheckKind::Value);
    assert!(
        tools::validate_call(
            &json!({"name": 1, "input_schema": {}}),
            &json!({}),
            &ValidatorRules::ALL_ON
        )
        .is_err()
    );
}

#[test]
fn dumps_matches_the_contract_spacing() {
    assert_eq!(
        json::dumps(&json!({"ok": false, "error": "a \"b\"\n\u{1}"})),
        r#"{"ok": false, "error": "a \"b\"\n\u0001"}"#
    );
}

fn js(props: serde_json::Value) -> Validator {
    compile(&json!({"type": "object", "properties": props}), &[]).unwrap()
}

#[test]
fn numbers_compare_exactly_and_messages_show_them_as_written() {
    let s = Validator::from_text(
        r#"{"type": "object", "properties": {
            "i": {"maximum": 9223372036854775807},
            "e": {"enum": [99999999999999999999999]},
            "c": {"const": 9007199254740993},
            "m": {"minimum": -100000000000000000000}}}"#,
    )
    .unwrap();
    let rows = [
        (
            r#"{"i": 9223372036854775808}"#,
            "value error: i must be <= 9223372036854775807, got 9223372036854775808",
        ),
        (r#"{"i": 9223372036854775807}"#, ""),
        (r#"{"i": 9.2233720368547748e18}"#, ""),
        (
            r#"{"e": 100000000000000000000000}"#,
            "value error: e must be 99999999999999999999999, got 100000000000000000000000",
        ),
        (r#"{"e": 99999999999999999999999}"#, ""),
        (
            r#"{"c": 9007199254740992.0}"#,
            "value error: c must be 9007199254740993, got 9007199254740992.0",
        ),
        (r#"{"c": 9007199254740993}"#, ""),
        (
            r#"{"m": -100000000000000000001}"#,
            "value error: m must be >= -100000000000000000000, got -100000000000000000001",
        ),
        (r#"{"m": -1e20}"#, ""),
    ];
    for (args, want) in rows {
        assert_eq!(
            verdict(&s, args),
            (want.is_empty(), want.to_owned()),
            "{args}"
        );
    }
}

#[test]
fn empty_enum_and_integral_float_lengths_are_valid() {
    let s = js(
        json!({"never": {"enum": []}, "code": {"type": "string", "minLength": 2.0, "maxLength": 3e0}}),
    );
    assert_eq!(
        verdict(&s, r#"{"never": null}"#).1,
        "value error: never accepts no value (the enum is empty), got null"
    );
    assert!(verdict(&s, r#"{"code": "ab"}"#).0);
    assert_eq!(
        verdict(&s, r#"{"code": "a"}"#).1,
        r#"value error: code must be at least 2 characters long, got 1 ("a")"#
    );
    // Lengths count code points: one non-BMP character is one character.
    assert!(verdict(&s, r#"{"code": "🐲🐲"}"#).0);
    for bad in [json!(2.5), json!(-1), json!(-1.0), json!("2")] {
        let e = compile(
            &json!({"type": "object", "properties": {"a": {"minLength": bad}}}),
            &[],
        )
        .unwrap_err();
        assert!(e.contains("whole number >= 0"), "{e}");
    }
}

#[test]
fn ambiguous_shapes_need_their_form_named() {
    for shape in [
        json!({}),
        json!({"title": "int"}),
        json!({"description": "str", "$comment": "dict"}),
    ] {
        let e = compile(&shape, &[]).unwrap_err();
        assert!(
            e.contains("ambiguous") && e.contains("flat or json-schema"),
            "{shape}: {e}"
        );
        let flat = compile_as(&shape, Form::Flat).unwrap();
        assert_eq!(flat.form(), Form::Flat);
        assert!(!verdict(&flat, r#"{"extra": 1}"#).0);
        let open = compile_as(&shape, Form::JsonSchema).unwrap();
        assert_eq!(open.form(), Form::JsonSchema);
        assert!(verdict(&open, r#"{"extra": 1}"#).0);
    }
    // A separate required list only belongs to the flat form, so it settles the question.
    let s = compile(&json!({"title": "int"}), &["title".into()]).unwrap();
    assert_eq!(s.form(), Form::Flat);
    // Not ambiguous: a key that is no string keyword, or a value that is no Python type.
    assert_eq!(
        compile(&json!({"title": "int", "days": "int"}), &[])
            .unwrap()
            .form,
        Form::Flat
    );
    assert_eq!(
        compile(&json!({"title": "Weather"}), &[]).unwrap().form,
        Form::JsonSchema
    );
    assert_eq!(
        compile(
            &json!({"required": ["a"], "additionalProperties": false}),
            &[]
        )
        .unwrap()
        .form(),
        Form::JsonSchema
    );
    // A flat schema whose arguments are called name and parameters is no tool declaration.
    let s = compile(&json!({"name": "str", "parameters": "dict"}), &[]).unwrap();
    assert_eq!(s.form(), Form::Flat);
    // A named form that does not fit is an error, not a guess.
    assert!(compile_as(&json!({"a": "int"}), Form::Tool).is_err());
    // As a JSON Schema, `a` is an unknown keyword: ignored, and named.
    let v = compile_as(&json!({"a": "int"}), Form::JsonSchema).unwrap();
    assert_eq!(v.unknown_keywords()[0].keyword, "a");
}

#[test]
fn patterns_have_their_ecma_262_meaning() {
    let s = js(json!({"id": {"type": "string", "pattern": "^TKT-\\d{3}$"}}));
    assert!(verdict(&s, r#"{"id": "TKT-104"}"#).0);
    assert_eq!(
        verdict(&s, r#"{"id": "TKT-١٠٤"}"#).1,
        r#"value error: id must match the pattern ^TKT-\d{3}$, got "TKT-١٠٤""#
    );
    let e = compile(
        &json!({"type": "object", "properties": {"a": {"pattern": "(a)\\1"}}}),
        &[],
    )
    .unwrap_err();
    assert!(e.contains("backreference"), "{e}");
}

#[test]
fn rule_names_on_the_command_line_and_in_progress_files() {
    let flags: Vec<String> = Rule::ALL.iter().map(|r| r.flag().to_owned()).collect();
    for r in Rule::ALL {
        assert_eq!(r.flag().parse::<Rule>(), Ok(*r));
    }
    assert_eq!(
        flags,
        ["required", "unknown", "types", "bool_guard", "values"]
    );
    let keys: Vec<Value> = Rule::ALL
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect();
    assert_eq!(keys, ["required", "unknown", "type", "bool_guard", "value"]);
}

#[test]
fn form_names_agree_everywhere() {
    for (form, name) in Form::ALL.iter().zip(Form::NAMES) {
        assert_eq!(form.name(), name);
        assert_eq!(Form::parse(name), Some(*form));
        assert_eq!(serde_json::to_value(form).unwrap(), form.name());
    }
    assert_eq!(Form::parse("anthropic"), Some(Form::Tool));
}

/// Random flat args as text, from `seed` (stepped on): fewer than `most` draws of a key
/// from `keys` (a key drawn again is passed over), each with a value from `values`.
fn random_args(seed: &mut u64, most: u64, keys: &[&str], values: &[&str]) -> String {
    let mut parts = Vec::new();
    let mut used = Vec::new();
    for _ in 0..(*seed % most) {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let k = keys[(*seed >> 33) as usize % keys.len()];
        if !used.contains(&k) {
            used.push(k);
            let val = values[(*seed >> 40) as usize % values.len()];
            parts.push(format!("\"{k}\": {val}"));
        }
    }
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    format!("{{{}}}", parts.join(", "))
}

/// The shallow fast path gives the same first failure as the quick and explaining passes.
#[test]
fn the_shallow_path_agrees_with_the_general_one() {
    use crate::switches::Switch;
    let schemas = [
        json!({"city": "str", "days": "int", "x": "float", "b": "bool"}),
        json!({"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": ["integer", "null"]}}, "required": ["q", "n"], "additionalProperties": false}),
        json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}),
    ];
    let values = [
        "1",
        "true",
        "\"s\"",
        "null",
        "2.5",
        "[1]",
        "{}",
        "1e400",
        "123456789012345678901234567890",
    ];
    let keys = ["city", "days", "x", "b", "q", "n", "zz"];
    for (si, schema) in schemas.iter().enumerate() {
        let v = Validator::options()
            .required(&if si == 0 {
                vec!["city".to_string(), "b".to_string()]
            } else {
                vec![]
            })
            .compile_value(schema)
            .unwrap();
        assert_eq!(v.program.shape, RootShape::Shallow, "{schema}");
        let mut seed = 7u64;
        for _ in 0..400 {
            let text = random_args(&mut seed, 5, &keys, &values);
            let args = json::parse(&text).unwrap();
            for off in [
                None,
                Some(Rule::Required),
                Some(Rule::Unknown),
                Some(Rule::Types),
                Some(Rule::BoolGuard),
            ] {
                let rules = ValidatorRules::without(off);
                let mut fast = None;
                v.judge(&args, &rules, |f| fast = Some(f.message("args")));
                let flags = Flags::of(&rules);
                let general = if Quick::new(&v.program, flags).valid(v.program.root, &args, None) {
                    None
                } else {
                    Some(eval::explain::first(&v.program, flags, &args, "args").message("args"))
                };
                assert_eq!(fast, general, "{schema} {text} {off:?}");
                let _ = Rule::ALL;
            }
        }
    }
}

/// Flat args against a root whose properties check scalar values: the byte path says
/// "passed" exactly when the general passes do, under every rule switch, and otherwise
/// leaves the args to be judged parsed.
#[test]
fn the_scalar_path_accepts_exactly_what_the_general_one_accepts() {
    use crate::switches::Switch;
    let schemas = [
        json!({"type": "object", "properties": {
            "unit": {"type": "string", "enum": ["c", "f"]},
            "days": {"type": "integer", "minimum": 1, "maximum": 10},
            "q": {"type": "string", "minLength": 2, "pattern": "^[a-z ]+$"},
            "when": {"type": "string", "format": "date"},
            "n": {"type": ["number", "null"], "multipleOf": 0.5},
            "k": {"const": true},
            "free": {}},
            "required": ["unit"], "additionalProperties": false}),
        json!({"type": "object", "properties": {
            "q": {"type": "string"}, "days": {"enum": [1, 2.0, "3", null]}}}),
        json!({"type": "object", "properties": {
            "zz": false, "unit": {"enum": ["c"]}, "q": {"type": "string"}}}),
    ];
    let values = [
        "1",
        "0",
        "11",
        "2.0",
        "2.5",
        "true",
        "null",
        "\"c\"",
        "\"x\"",
        "\"ab cd\"",
        "\"AB\"",
        "\"2026-02-28\"",
        "\"2026-02-30\"",
        "\"3\"",
        "1e400",
        "-0",
        "123456789012345678901234567890",
        "[1]",
    ];
    let keys = ["unit", "days", "q", "when", "n", "k", "free", "zz"];
    let mut from_bytes = 0;
    for schema in &schemas {
        let v = Validator::options().compile_value(schema).unwrap();
        assert_eq!(v.program.shape, RootShape::Scalars, "{schema}");
        let mut seed = 11u64;
        for _ in 0..600 {
            let text = random_args(&mut seed, 6, &keys, &values);
            let args = json::parse(&text).unwrap();
            let mut members = [("", 0u8, ""); json::FLAT_MAX];
            let flat = json::flat_object(&text, 0, &mut members);
            // Each switch off alone, and with the value checks, and two more pairs.
            let switches = [Rule::Required, Rule::Unknown, Rule::Types, Rule::BoolGuard];
            let offs = std::iter::once(vec![])
                .chain(switches.iter().map(|&r| vec![r]))
                .chain(switches.iter().map(|&r| vec![r, Rule::Values]))
                .chain([vec![Rule::Values], vec![Rule::Required, Rule::Unknown]]);
            for off in offs {
                let rules = ValidatorRules::without(off.iter().copied());
                let general = v.judge(&args, &rules, |_| {});
                let Some((n, _)) = flat else { continue };
                let fast = v.judge_flat(&members[..n], &rules, |_| {});
                assert_eq!(fast, general.then_some(true), "{schema} {text} {off:?}");
                from_bytes += usize::from(fast.is_some());
                let _ = Rule::ALL;
            }
        }
    }
    assert!(from_bytes > 500, "only {from_bytes} judged from bytes");
}

/// A refusal names a key, a tool or a reference as the schema wrote it, quoted the way the
/// tools report quotes (`crate::sanitize::quote`), never in Rust's escapes (`\u{301}`).
#[test]
fn refusals_quote_names_as_written() {
    // A combining accent, a zero-width space, a quote and a backslash.
    let name = "cafe\u{301}\u{200b}\"x\\";
    let shown = crate::sanitize::quote(name);
    assert_eq!(shown, "\"cafe\u{301}\u{200b}\\\"x\\\\\"");
    let cases = [
        json!({"name": name, "input_schema": []}),
        json!({"name": name, "description": "d"}),
        json!({name: "chaîne"}),
        json!({name: 5}),
        json!({"type": "object", "properties": {"a": {"$ref": format!("#/{name}")}}}),
        json!({"type": "object", "properties": {"a": {"pattern": format!("(?<{name}>x")}}}),
        json!({"type": "object", "properties": {"a": {"pattern": "\u{e9}\u{301}("}}}),
    ];
    for schema in cases {
        let err = compile(&schema, &[]).unwrap_err();
        assert!(!err.contains("\\u{"), "{err}");
        let written = match &schema["properties"]["a"] {
            Value::Object(m) => m
                .values()
                .next()
                .and_then(Value::as_str)
                .unwrap()
                .to_owned(),
            _ => name.to_owned(),
        };
        assert!(
            err.contains(&crate::sanitize::quote(&written)),
            "{schema}: {err}"
        );
    }
    let pattern = |p: &str| compile(&json!({"type": "string", "pattern": p}), &[]).unwrap_err();
    let group = pattern("(?<x\u{301}>a)(?<x\u{301}>b)");
    assert!(
        group.contains("the group name \"x\u{301}\" is used twice"),
        "{group}"
    );
    let twice = Validator::from_text(r#"{"a": {"ne\u0301": 1, "ne\u0301": 2}}"#)
        .unwrap_err()
        .to_string();
    assert_eq!(twice, "the schema repeats the key \"a.ne\u{301}\"");
}
