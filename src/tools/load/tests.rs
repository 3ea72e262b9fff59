use serde_json::json;

use super::*;

fn weather_schema() -> Value {
    json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
}

fn load(v: Value) -> ToolSet {
    ToolSet::from_value(&v, None).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_container_and_shape_is_recognised() {
    let mcp = json!({"name": "weather", "inputSchema": weather_schema()});
    let chat = json!({"type": "function", "function": {"name": "weather", "parameters": weather_schema()}});
    let responses = json!({"type": "function", "name": "weather", "parameters": weather_schema(), "strict": false});
    let anthropic = json!({"name": "weather", "input_schema": weather_schema()});
    let cases = [
        (
            json!({"tools": [mcp.clone()]}),
            Container::ToolsList,
            ToolsFormat::Mcp,
            "tools[0]",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [mcp.clone()]}}),
            Container::RpcResponse,
            ToolsFormat::Mcp,
            "result.tools[0]",
        ),
        (mcp, Container::Single, ToolsFormat::Mcp, ""),
        (
            json!([chat.clone()]),
            Container::Array,
            ToolsFormat::OpenaiChat,
            "[0]",
        ),
        (chat.clone(), Container::Single, ToolsFormat::OpenaiChat, ""),
        (
            json!([responses.clone()]),
            Container::Array,
            ToolsFormat::OpenaiResponses,
            "[0]",
        ),
        (
            responses,
            Container::Single,
            ToolsFormat::OpenaiResponses,
            "",
        ),
        (
            json!([anthropic.clone()]),
            Container::Array,
            ToolsFormat::Anthropic,
            "[0]",
        ),
        (
            anthropic.clone(),
            Container::Single,
            ToolsFormat::Anthropic,
            "",
        ),
        (
            json!({"model": "m", "max_tokens": 10, "messages": [], "tools": [anthropic.clone()]}),
            Container::Request,
            ToolsFormat::Anthropic,
            "tools[0]",
        ),
        (
            json!({"request": {"model": "m", "messages": [], "tools": [chat]}, "response": null}),
            Container::Exchange,
            ToolsFormat::OpenaiChat,
            "request.tools[0]",
        ),
    ];
    for (value, container, format, at) in cases {
        let set = load(value.clone());
        assert_eq!(set.shape.container, container, "{value}");
        assert_eq!(set.shape.format, Some(format), "{value}");
        assert!(!set.shape.named);
        assert_eq!(set.tools.len(), 1, "{value}");
        let t = &set.tools[0];
        assert_eq!(t.name, "weather");
        assert_eq!(t.at, at);
        assert!(t.honoured(), "{value}: {:?}", t.refusal());
        assert_eq!(t.schema(), Some(&weather_schema()));
        assert!(
            t.validator()
                .unwrap()
                .validate(&json!({"city": "Oslo"}))
                .is_ok()
        );
        assert!(t.validator().unwrap().validate(&json!({})).is_err());
    }
}

#[test]
fn server_tools_are_skipped_with_their_type() {
    let set = load(json!([
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
        {"name": "weather", "input_schema": weather_schema()},
        {"type": "custom", "name": "notes", "input_schema": {"type": "object"}},
        {"type": "tool_search_tool_bm25_20251119", "name": "tool_search"},
    ]));
    assert_eq!(set.shape.format, Some(ToolsFormat::Anthropic));
    assert_eq!(set.entries, 4);
    let names: Vec<&str> = set.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["weather", "notes"]);
    assert_eq!(set.tools[1].entry, 2);
    let kinds: Vec<(&str, usize)> = set
        .skipped
        .iter()
        .map(|s| (s.kind.as_str(), s.entry))
        .collect();
    assert_eq!(
        kinds,
        [
            ("web_search_20250305", 0),
            ("tool_search_tool_bm25_20251119", 3)
        ]
    );
    assert_eq!(set.skipped[0].name.as_deref(), Some("web_search"));
    assert_eq!(set.skipped[0].at, "[0]");
}

#[test]
fn only_server_tools_or_nothing_is_read_with_no_shape() {
    let set = load(json!([{"type": "web_search"}, {"type": "image_generation"}]));
    assert_eq!(set.shape.format, None);
    assert!(set.tools.is_empty());
    assert_eq!(set.skipped.len(), 2);
    let empty = load(json!([]));
    assert_eq!((empty.entries, empty.shape.format), (0, None));
    let list = load(json!({"tools": []}));
    assert_eq!(list.shape.format, Some(ToolsFormat::Mcp));
}

#[test]
fn duplicates_name_both_entries_and_every_entry_is_read() {
    let set = load(json!({"tools": [
        {"name": "a", "inputSchema": {"type": "object"}},
        {"name": "b", "inputSchema": {"type": "object"}},
        {"name": "a", "description": "again", "inputSchema": {"type": "object", "properties": {"x": {"type": "integer"}}}},
        {"name": "a", "inputSchema": {"type": "object"}},
    ]}));
    assert_eq!(set.tools.len(), 4);
    let pairs: Vec<(usize, usize)> = set.duplicates.iter().map(|d| (d.first, d.again)).collect();
    assert_eq!(pairs, [(0, 2), (0, 3)]);
    assert_eq!(set.get("a").unwrap().entry, 0);
    assert_eq!(set.get_all("a").count(), 3);
    assert_eq!(set.tools[2].description.as_deref(), Some("again"));
}

#[test]
fn a_refused_declaration_is_kept_with_its_reason() {
    let set = load(json!({"tools": [
        {"name": "ok", "inputSchema": {"type": "object"}},
        {"name": "refs_out", "description": "d", "inputSchema": {"$ref": "https://example.com/s.json"}},
        {"name": "no_schema"},
    ]}));
    assert_eq!(set.tools.len(), 3);
    assert_eq!(set.honoured(), 1);
    let refused = &set.tools[1];
    assert_eq!(refused.name, "refs_out");
    assert_eq!(refused.description.as_deref(), Some("d"));
    let why = refused.refusal().unwrap();
    assert!(!why.starts_with("tool "), "{why}");
    assert!(why.contains("$ref"), "{why}");
    let missing = set.tools[2].refusal().unwrap();
    assert!(missing.contains("inputSchema"), "{missing}");
}

#[test]
fn mixed_shapes_ask_for_the_format_and_a_named_one_refuses_what_does_not_fit() {
    let value = json!([
        {"type": "function", "name": "a", "parameters": {"type": "object"}},
        {"name": "b", "parameters": {"type": "object"}},
    ]);
    let err = ToolSet::from_value(&value, None).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("[0] (a) reads as openai-responses"), "{text}");
    assert!(text.contains("[1] (b) as anthropic"), "{text}");
    assert!(text.contains("--tools-format"), "{text}");
    let set = ToolSet::from_value(&value, Some(ToolsFormat::OpenaiResponses)).unwrap();
    assert!(set.shape.named);
    assert!(set.tools[0].honoured());
    let why = set.tools[1].refusal().unwrap();
    assert!(why.contains("\"type\": \"function\""), "{why}");
    assert_eq!(set.tools[1].name, "b");
}

#[test]
fn what_is_not_a_tools_file_says_so() {
    let cases = [
        (json!("tools"), "holds a string"),
        (
            json!({"type": "object", "properties": {}}),
            "bare JSON Schema",
        ),
        (json!({"tools": {"a": 1}}), "tools must be an array"),
        (
            json!({"model": "gpt", "messages": []}),
            "without a \"tools\" array",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "nope"}}),
            "is an error",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            "no result.tools array",
        ),
        (json!([{"city": "str"}]), "[0] reads as the flat form"),
    ];
    for (value, want) in cases {
        let text = ToolSet::from_value(&value, None).unwrap_err().to_string();
        assert!(text.contains(want), "{value}: {text}");
    }
}

#[test]
fn text_is_read_strictly_and_errors_name_the_place() {
    let err = ToolSet::from_text("[\n  {\"name\": }\n]", None).unwrap_err();
    assert!(matches!(err, LoadError::NotJson { line: 2, .. }), "{err:?}");
    let err = ToolSet::from_text(
        r#"{"tools": [{"name": "a", "name": "b", "inputSchema": {}}]}"#,
        None,
    )
    .unwrap_err();
    assert!(matches!(err, LoadError::RepeatedKey { .. }), "{err:?}");
    let wrapped = err.in_file("t.json").to_string();
    assert!(wrapped.starts_with("t.json: the key"), "{wrapped}");
    let e = LoadError::NotJson {
        what: "x".into(),
        line: 3,
        column: 4,
    }
    .in_file("t.json");
    assert_eq!(e.to_string(), "t.json:3:4: not JSON: x");
}

#[test]
fn read_names_the_file_and_caps_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.json");
    let err = ToolSet::read(&missing, None).unwrap_err().to_string();
    assert!(err.contains("none.json"), "{err}");
    let good = dir.path().join("t.json");
    std::fs::write(
        &good,
        r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}"#,
    )
    .unwrap();
    let read = ToolSet::read(&good, None).unwrap();
    assert_eq!(read.tools.len(), 1);
    let hash = read.hash.unwrap();
    assert_eq!(hash.len(), 64);
    assert_eq!(hash, content_hash(&std::fs::read_to_string(&good).unwrap()));
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"tools\": [").unwrap();
    let err = ToolSet::read(&bad, None).unwrap_err().to_string();
    assert!(err.starts_with(&format!("{}:1:", bad.display())), "{err}");
}

#[test]
fn tools_formats_parse_by_name() {
    for f in ToolsFormat::ALL {
        assert_eq!(f.name().parse::<ToolsFormat>(), Ok(f));
        assert_eq!(ToolsFormat::of_form(f.form()), Some(f));
    }
    let err = "gemini".parse::<ToolsFormat>().unwrap_err();
    assert!(err.contains("openai-chat"), "{err}");
}

#[test]
fn json_lines_of_declarations_are_told_to_become_one_array() {
    let lines = "{\"name\": \"a\", \"inputSchema\": {}}\n{\"name\": \"b\", \"inputSchema\": {}}\n";
    let err = ToolSet::from_text(lines, None)
        .unwrap_err()
        .in_file("t.jsonl");
    let text = err.to_string();
    assert!(
        text.starts_with("t.jsonl:2:1: not JSON: trailing characters"),
        "{text}"
    );
    assert!(
        text.contains("line 2 starts a second value, as in JSON Lines"),
        "{text}"
    );
    // Trailing text that is not a second value on its own line gets no hint.
    for text in ["{\"name\": \"a\"} x", "{\"name\": \"a\"}\nx", "{} {}"] {
        let err = ToolSet::from_text(text, None).unwrap_err().to_string();
        assert!(!err.contains("JSON Lines"), "{text:?}: {err}");
    }
}
