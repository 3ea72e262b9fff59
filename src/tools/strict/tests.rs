//! Each strict rule, broken alone: a schema both providers accept, then one change that
//! breaks exactly that rule for the provider it belongs to.

use serde_json::{Value, json};

use super::*;

fn ready() -> Value {
    json!({
        "type": "object",
        "properties": {
            "a": {"type": "string", "description": "a string"},
            "b": {"type": ["integer", "null"]},
            "c": {"type": "object", "properties": {"d": {"type": "boolean"}},
                  "required": ["d"], "additionalProperties": false}
        },
        "required": ["a", "b", "c"],
        "additionalProperties": false
    })
}

fn rules(schema: &Value, p: Provider) -> Vec<StrictRule> {
    check(schema, p).reasons.iter().map(|r| r.rule).collect()
}

fn with(change: impl FnOnce(&mut Value)) -> Value {
    let mut s = ready();
    change(&mut s);
    s
}

#[test]
fn the_ready_schema_is_ready_for_both() {
    let r = readiness(Some(&ready()));
    assert!(r.openai.ok, "{:?}", r.openai.reasons);
    assert!(r.anthropic.ok, "{:?}", r.anthropic.reasons);
}

fn nested(levels: usize) -> Value {
    let mut inner = json!({"type": "string"});
    for _ in 0..levels {
        inner = json!({"type": "object", "properties": {"x": inner}, "required": ["x"], "additionalProperties": false});
    }
    inner
}

type Case = (StrictRule, Provider, Value);

/// The rules both providers share, and OpenAI's own.
fn openai_cases() -> Vec<Case> {
    use Provider::{Anthropic, Openai};
    use StrictRule::*;
    let many_props: serde_json::Map<String, Value> = (0..5001)
        .map(|i| (format!("p{i}"), json!({"type": "integer"})))
        .collect();
    let names: Vec<String> = many_props.keys().cloned().collect();
    let long_enum: Vec<String> = (0..251).map(|i| format!("{i:0>60}")).collect();
    vec![
        (
            RootNotObject,
            Openai,
            json!({"type": "array", "items": {"type": "string"}}),
        ),
        (
            RootNotObject,
            Anthropic,
            json!({"type": "array", "items": {"type": "string"}}),
        ),
        (
            RootAnyOf,
            Openai,
            with(
                |s| s["anyOf"] = json!([{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}]),
            ),
        ),
        (
            OpenObject,
            Openai,
            with(|s| {
                s.as_object_mut().unwrap().remove("additionalProperties");
            }),
        ),
        (
            OpenObject,
            Anthropic,
            with(|s| s["properties"]["c"]["additionalProperties"] = json!(true)),
        ),
        (
            NotAllRequired,
            Openai,
            with(|s| s["required"] = json!(["a", "c"])),
        ),
        (
            Untyped,
            Openai,
            with(|s| s["properties"]["a"] = json!({"description": "anything"})),
        ),
        (
            UnsupportedKeyword,
            Openai,
            with(|s| s["properties"]["a"]["not"] = json!({"const": "x"})),
        ),
        (
            UnsupportedKeyword,
            Openai,
            with(|s| s["properties"]["a"]["maxLength"] = json!(9)),
        ),
        (
            UnsupportedKeyword,
            Anthropic,
            with(|s| s["properties"]["b"]["minimum"] = json!(1)),
        ),
        (
            UnsupportedKeyword,
            Anthropic,
            with(|s| s["properties"]["a"]["maxLength"] = json!(9)),
        ),
        (
            UnsupportedFormat,
            Openai,
            with(|s| s["properties"]["a"]["format"] = json!("uri")),
        ),
        (
            UnsupportedFormat,
            Anthropic,
            with(|s| s["properties"]["a"]["format"] = json!("iri")),
        ),
        (
            ExternalRef,
            Openai,
            with(|s| s["properties"]["a"] = json!({"$ref": "https://example.com/a.json"})),
        ),
        (
            ExternalRef,
            Anthropic,
            with(|s| s["properties"]["a"] = json!({"$ref": "other.json#/a"})),
        ),
        (TooDeep, Openai, nested(11)),
        (
            TooManyProperties,
            Openai,
            json!({"type": "object", "properties": many_props, "required": names, "additionalProperties": false}),
        ),
        (
            TooManyEnumValues,
            Openai,
            with(|s| s["properties"]["b"]["enum"] = json!((0..1001).collect::<Vec<_>>())),
        ),
        (
            EnumTooLong,
            Openai,
            with(|s| s["properties"]["a"]["enum"] = json!(long_enum)),
        ),
        (TooMuchText, Openai, {
            let long = "n".repeat(40_001);
            let props: serde_json::Map<String, Value> = (0..3)
                .map(|i| (format!("{long}{i}"), json!({"type": "string"})))
                .collect();
            let req: Vec<String> = props.keys().cloned().collect();
            json!({"type": "object", "properties": props, "required": req, "additionalProperties": false})
        }),
    ]
}

/// Anthropic's own rules.
fn anthropic_cases() -> Vec<Case> {
    use Provider::Anthropic;
    use StrictRule::*;
    vec![
        (
            ComplexEnum,
            Anthropic,
            with(|s| {
                s["properties"]["a"] =
                    json!({"type": "array", "items": {"type": "integer"}, "enum": [[1, 2]]})
            }),
        ),
        (
            MinItemsOverOne,
            Anthropic,
            with(|s| {
                s["properties"]["a"] =
                    json!({"type": "array", "items": {"type": "string"}, "minItems": 2})
            }),
        ),
        (
            AllOfWithRef,
            Anthropic,
            with(|s| {
                s["$defs"] = json!({"S": {"type": "string"}});
                s["properties"]["a"] = json!({"allOf": [{"$ref": "#/$defs/S"}]});
            }),
        ),
        (
            Recursive,
            Anthropic,
            with(|s| s["properties"]["c"]["properties"]["d"] = json!({"$ref": "#/properties/c"})),
        ),
        (
            PatternFeature,
            Anthropic,
            with(|s| s["properties"]["a"]["pattern"] = json!("^(?=x).*$")),
        ),
        (
            PatternFeature,
            Anthropic,
            with(|s| s["properties"]["a"]["pattern"] = json!("^(a)\\1$")),
        ),
        (
            PatternFeature,
            Anthropic,
            with(|s| s["properties"]["a"]["pattern"] = json!("\\bword\\b")),
        ),
    ]
}

#[test]
fn each_rule_broken_alone_is_the_only_reason() {
    for (rule, provider, schema) in openai_cases().into_iter().chain(anthropic_cases()) {
        assert_eq!(
            rules(&schema, provider),
            vec![rule],
            "{rule:?} for {provider:?}"
        );
    }
}

#[test]
fn rules_of_one_provider_do_not_bind_the_other() {
    let open_optional = with(|s| s["required"] = json!(["a"]));
    assert!(check(&open_optional, Provider::Anthropic).ok);
    let bounded = with(|s| s["properties"]["b"]["maximum"] = json!(9));
    assert!(check(&bounded, Provider::Openai).ok);
    let recursive = with(|s| s["properties"]["c"]["properties"]["d"] = json!({"$ref": "#"}));
    assert!(check(&recursive, Provider::Openai).ok);
    assert_eq!(
        rules(&recursive, Provider::Anthropic),
        [StrictRule::Recursive]
    );
    let uri = with(|s| s["properties"]["a"]["format"] = json!("uri"));
    assert!(check(&uri, Provider::Anthropic).ok);
}

#[test]
fn a_missing_schema_is_not_ready_and_reasons_read_well() {
    let r = readiness(None);
    assert!(!r.openai.ok && !r.anthropic.ok);
    let v = check(&with(|s| s["required"] = json!(["a"])), Provider::Openai);
    assert_eq!(
        v.reasons[0].message,
        "\"b\", \"c\" are not in required at the root (strict needs every property required; \
         make an optional one a union with null, e.g. \"type\": [\"string\", \"null\"])"
    );
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["ok"], json!(false));
    assert!(json["reasons"][0].is_string());
}
