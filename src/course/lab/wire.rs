//! Tool calls and their results as each protocol carries them: the rows of
//! `fixtures/wire_cases.json` and the rules that pair a recorded result with the call it
//! answers, and say whether it went back flagged as an error.
//!
//! Each protocol names the call a result answers in its own field: Anthropic's `tool_result`
//! block by `tool_use_id` (the `id` of a `tool_use` block), OpenAI Chat's `role: "tool"`
//! message by `tool_call_id` (the `id` of an entry of `tool_calls`), OpenAI Responses'
//! `function_call_output` item by `call_id` (the `call_id` of a `function_call` item, not
//! its `id`), and an MCP `tools/call` response by its JSON-RPC `id`, compared as written.
//! Position never pairs anything, and neither does a tool's name.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::content::{Content, parse_json};
use crate::error::UserResult;
use crate::json_text::json_compact;

/// The file of wire rows, relative to the fixtures tree.
pub const WIRE_CASES: &str = "wire_cases.json";

/// The protocols a row may be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    /// Anthropic Messages: `tool_use` / `tool_result` blocks.
    Anthropic,
    /// OpenAI Chat Completions: `tool_calls` / `role: "tool"`.
    OpenaiChat,
    /// OpenAI Responses: `function_call` / `function_call_output` items.
    OpenaiResponses,
    /// MCP: JSON-RPC `tools/call` requests and their responses.
    Mcp,
}

impl Protocol {
    /// The name a person reads.
    pub fn title(self) -> &'static str {
        match self {
            Protocol::Anthropic => "Anthropic",
            Protocol::OpenaiChat => "OpenAI Chat",
            Protocol::OpenaiResponses => "OpenAI Responses",
            Protocol::Mcp => "MCP",
        }
    }
}

/// How a result says it is an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// The protocol's error flag is set (`is_error`, `isError`).
    Flagged,
    /// The protocol has a flag and it is not set (false, or left out).
    NotFlagged,
    /// The protocol has no error flag: only the text can say so.
    NoFlag,
    /// Not a tool result at all: a JSON-RPC error in its place.
    ProtocolError,
}

impl Flag {
    pub const ALL: [Flag; 4] = [
        Flag::Flagged,
        Flag::NotFlagged,
        Flag::NoFlag,
        Flag::ProtocolError,
    ];

    /// The outcome word of a flag row.
    pub fn word(self) -> &'static str {
        match self {
            Flag::Flagged => "flagged",
            Flag::NotFlagged => "not flagged",
            Flag::NoFlag => "no flag exists",
            Flag::ProtocolError => "JSON-RPC error",
        }
    }
}

/// What the row's fixture expects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireExpected {
    /// The id of the call the result answers, as written (`null`: no call of these).
    pub answers: Option<String>,
    pub flag: Flag,
}

/// One row of `fixtures/wire_cases.json`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireCase {
    /// Unique, stable id (lessons name rows by it).
    pub id: String,
    /// `pairing` rows ask which call the result answers, `flag` rows how it says it failed.
    pub group: String,
    pub protocol: Protocol,
    /// What carried the calls, as recorded: an assistant message, a list of output items,
    /// or a list of JSON-RPC requests.
    pub calls: Value,
    /// One recorded result: a `tool_result` block, a tool message, an output item, or a
    /// JSON-RPC response.
    pub result: Value,
    pub expected: WireExpected,
    /// One line, in our words, shown when the learner reveals the row.
    pub reason: String,
}

/// The group whose rows ask how the result says it failed.
pub const FLAG_GROUP: &str = "flag";
/// The outcome word when the result answers none of the calls.
pub const NO_CALL: &str = "no call";

/// One call as the rules see it: the id a result must name, and what was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct WireCall {
    /// The id a result names, as written (a JSON value: MCP's may be a number).
    pub id: Value,
    pub tool: String,
    /// The arguments as recorded (a string for OpenAI's protocols).
    pub args: Value,
}

impl WireCall {
    /// The id as a menu shows it: a string's text, anything else as JSON.
    pub fn label(&self) -> String {
        match &self.id {
            Value::String(s) => s.clone(),
            other => json_compact(other),
        }
    }
}

/// What the rules say of a row.
#[derive(Debug, Clone, PartialEq)]
pub struct WireRun {
    pub calls: Vec<WireCall>,
    /// Index into `calls` of the call the result answers.
    pub answers: Option<usize>,
    pub flag: Flag,
    /// The id the result names (as written), or why it names none.
    pub names: String,
    /// The text the model reads back, as recorded.
    pub text: String,
}

impl WireRun {
    /// The outcome word of a pairing row: the call's id, or [`NO_CALL`].
    pub fn answer_word(&self) -> String {
        self.answers
            .map_or_else(|| NO_CALL.to_owned(), |i| self.calls[i].label())
    }

    /// The rules' answer in the fixture's own terms.
    pub fn expected_form(&self) -> WireExpected {
        WireExpected {
            answers: self.answers.map(|i| self.calls[i].label()),
            flag: self.flag,
        }
    }
}

/// The wire rows of `content`, in file order. A fixtures tree without the file (a copy made
/// before wire rows existed) has none.
pub fn wire_cases(content: &Content) -> UserResult<Vec<WireCase>> {
    if !content.fixtures.exists(WIRE_CASES) {
        return Ok(Vec::new());
    }
    parse_json(&content.fixtures.read(WIRE_CASES)?)
}

fn field<'v>(v: &'v Value, key: &str, what: &str) -> Result<&'v Value, String> {
    v.get(key).ok_or_else(|| format!("{what} has no `{key}`"))
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .map(|p| match p.get("text") {
                Some(Value::String(t)) => t.clone(),
                _ => json_compact(p),
            })
            .collect::<Vec<_>>()
            .join(" "),
        Value::Null => String::new(),
        other => json_compact(other),
    }
}

/// Anthropic: `tool_use` blocks of an assistant message (or a bare list of blocks).
fn anthropic_calls(calls: &Value) -> Result<Vec<WireCall>, String> {
    let blocks = calls.get("content").unwrap_or(calls);
    let blocks = blocks
        .as_array()
        .ok_or("the calls are an assistant message whose content is a list of blocks")?;
    Ok(blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
        .map(|b| WireCall {
            id: b.get("id").cloned().unwrap_or(Value::Null),
            tool: b
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            args: b.get("input").cloned().unwrap_or(Value::Null),
        })
        .collect())
}

/// OpenAI Chat: the entries of an assistant message's `tool_calls`.
fn chat_calls(calls: &Value) -> Result<Vec<WireCall>, String> {
    let list = field(calls, "tool_calls", "the assistant message")?
        .as_array()
        .ok_or("tool_calls is a list")?;
    Ok(list
        .iter()
        .map(|c| WireCall {
            id: c.get("id").cloned().unwrap_or(Value::Null),
            tool: c
                .pointer("/function/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            args: c
                .pointer("/function/arguments")
                .cloned()
                .unwrap_or(Value::Null),
        })
        .collect())
}

/// OpenAI Responses: the `function_call` items of an output list, named by `call_id`.
fn responses_calls(calls: &Value) -> Result<Vec<WireCall>, String> {
    let items = calls
        .as_array()
        .ok_or("the calls are a list of output items")?;
    Ok(items
        .iter()
        .filter(|i| i.get("type").and_then(Value::as_str) == Some("function_call"))
        .map(|i| WireCall {
            id: i.get("call_id").cloned().unwrap_or(Value::Null),
            tool: i
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            args: i.get("arguments").cloned().unwrap_or(Value::Null),
        })
        .collect())
}

/// MCP: JSON-RPC `tools/call` requests, named by their `id`.
fn mcp_calls(calls: &Value) -> Result<Vec<WireCall>, String> {
    let list = calls
        .as_array()
        .ok_or("the calls are a list of JSON-RPC requests")?;
    Ok(list
        .iter()
        .filter(|r| r.get("method").and_then(Value::as_str) == Some("tools/call"))
        .map(|r| WireCall {
            id: r.get("id").cloned().unwrap_or(Value::Null),
            tool: r
                .pointer("/params/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            args: r
                .pointer("/params/arguments")
                .cloned()
                .unwrap_or(Value::Null),
        })
        .collect())
}

/// The id a result names, its flag and the text the model reads.
fn read_result(protocol: Protocol, result: &Value) -> Result<(Value, Flag, String), String> {
    let id = |key: &str, what: &str| field(result, key, what).cloned();
    Ok(match protocol {
        Protocol::Anthropic => {
            if result.get("type").and_then(Value::as_str) != Some("tool_result") {
                return Err("the result is a tool_result block".into());
            }
            let flag = match result.get("is_error") {
                Some(Value::Bool(true)) => Flag::Flagged,
                _ => Flag::NotFlagged,
            };
            let text = text_of(result.get("content").unwrap_or(&Value::Null));
            (id("tool_use_id", "the tool_result block")?, flag, text)
        }
        Protocol::OpenaiChat => {
            if result.get("role").and_then(Value::as_str) != Some("tool") {
                return Err("the result is a message with role tool".into());
            }
            let text = text_of(result.get("content").unwrap_or(&Value::Null));
            (id("tool_call_id", "the tool message")?, Flag::NoFlag, text)
        }
        Protocol::OpenaiResponses => {
            if result.get("type").and_then(Value::as_str) != Some("function_call_output") {
                return Err("the result is a function_call_output item".into());
            }
            let text = text_of(result.get("output").unwrap_or(&Value::Null));
            (id("call_id", "the output item")?, Flag::NoFlag, text)
        }
        Protocol::Mcp => {
            let rpc_id = id("id", "the JSON-RPC response")?;
            if let Some(err) = result.get("error") {
                let text = err
                    .get("message")
                    .map_or_else(|| json_compact(err), text_of);
                (rpc_id, Flag::ProtocolError, text)
            } else {
                let body = field(result, "result", "the JSON-RPC response")?;
                let flag = match body.get("isError") {
                    Some(Value::Bool(true)) => Flag::Flagged,
                    _ => Flag::NotFlagged,
                };
                let mut text = text_of(body.get("content").unwrap_or(&Value::Null));
                if let Some(s) = body.get("structuredContent") {
                    text.push_str(&format!(" (structuredContent {})", json_compact(s)));
                }
                (rpc_id, flag, text)
            }
        }
    })
}

/// Pair a row's result with its calls by the protocol's own rule. `Err` when the row itself
/// is not written in its protocol's shape.
pub fn run(case: &WireCase) -> Result<WireRun, String> {
    let calls = match case.protocol {
        Protocol::Anthropic => anthropic_calls(&case.calls)?,
        Protocol::OpenaiChat => chat_calls(&case.calls)?,
        Protocol::OpenaiResponses => responses_calls(&case.calls)?,
        Protocol::Mcp => mcp_calls(&case.calls)?,
    };
    if calls.is_empty() {
        return Err("the calls hold no tool call".into());
    }
    let (named, flag, text) = read_result(case.protocol, &case.result)?;
    // JSON-RPC compares the id as written: 8 and "8" are different ids.
    let answers = calls.iter().position(|c| c.id == named);
    Ok(WireRun {
        calls,
        answers,
        flag,
        names: json_compact(&named),
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn case(protocol: Protocol, calls: Value, result: Value) -> WireCase {
        WireCase {
            id: "t".into(),
            group: "pairing".into(),
            protocol,
            calls,
            result,
            expected: WireExpected {
                answers: None,
                flag: Flag::NoFlag,
            },
            reason: String::new(),
        }
    }

    #[test]
    fn each_protocol_pairs_by_its_own_field() {
        let a = case(
            Protocol::Anthropic,
            json!({"role": "assistant", "content": [
                {"type": "tool_use", "id": "t1", "name": "x", "input": {}},
                {"type": "tool_use", "id": "t2", "name": "x", "input": {}}]}),
            json!({"type": "tool_result", "tool_use_id": "t2", "content": "ok", "is_error": true}),
        );
        let r = run(&a).unwrap();
        assert_eq!((r.answers, r.flag), (Some(1), Flag::Flagged));
        let responses = case(
            Protocol::OpenaiResponses,
            json!([{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "x", "arguments": "{}"}]),
            json!({"type": "function_call_output", "call_id": "fc_1", "output": "ok"}),
        );
        let r = run(&responses).unwrap();
        assert_eq!(r.answers, None, "the item id is not the call id");
        assert_eq!(r.answer_word(), NO_CALL);
        let mcp = case(
            Protocol::Mcp,
            json!([{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "x", "arguments": {}}}]),
            json!({"jsonrpc": "2.0", "id": "8", "result": {"content": []}}),
        );
        assert_eq!(run(&mcp).unwrap().answers, None, "8 is not \"8\"");
        let chat = case(
            Protocol::OpenaiChat,
            json!({"role": "assistant", "tool_calls": [{"id": "call_a", "type": "function",
                "function": {"name": "x", "arguments": "{\"a\": 1"}}]}),
            json!({"role": "tool", "tool_call_id": "call_a", "content": "parse error"}),
        );
        let r = run(&chat).unwrap();
        assert_eq!((r.answers, r.flag), (Some(0), Flag::NoFlag));
    }

    #[test]
    fn a_row_out_of_its_protocols_shape_is_an_error() {
        let bad = case(
            Protocol::OpenaiChat,
            json!({"role": "assistant"}),
            json!({}),
        );
        assert!(run(&bad).unwrap_err().contains("tool_calls"));
        let bad = case(
            Protocol::Anthropic,
            json!([{"type": "tool_use", "id": "t1", "name": "x", "input": {}}]),
            json!({"role": "tool", "tool_call_id": "t1"}),
        );
        assert!(run(&bad).unwrap_err().contains("tool_result"));
    }
}
