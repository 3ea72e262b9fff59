//! Reading one record, whatever its format: which format it is in ([`recognise`], unless
//! `--format` names it), then the reader of that format turns it into a [`Record`]: the
//! declarations the model was given and the conversation's steps.
//!
//! - `anthropic.rs`: Messages requests, responses and their streamed events;
//! - `chat.rs`: OpenAI Chat Completions, requests, responses and streamed chunks;
//! - `responses.rs`: OpenAI Responses input and output items (streams by their final object);
//! - `mcp.rs`: MCP JSON-RPC messages (`tools/list`, `tools/call` and their answers);
//! - `calls.rs`: one call a record, with or without its declaration.
//!
//! A record is an object, or a bare array of messages or items; `{"request", "response"}`
//! (how a logging proxy keeps an exchange) holds the request and what came back, with
//! `response_stream` standing for a streamed response.

use std::borrow::Cow;

use crate::validate::Json;

use super::steps::{Format, Record, Step};

mod anthropic;
mod calls;
mod chat;
mod mcp;
mod responses;
mod time;

pub(crate) use time::at_ms;

/// What reading a record needs besides the record: a repeated key the strict reader found
/// (the record was then read letting repeats through), to be blamed on the call whose
/// arguments hold it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Ctx<'c> {
    pub duplicate: Option<&'c str>,
}

impl Ctx<'_> {
    /// The repeated key inside the arguments at `at` (the path of the arguments object in
    /// the record), if the record's repeat lies there: its path inside the arguments.
    pub(crate) fn duplicate_in(&self, at: impl FnOnce() -> String) -> Option<String> {
        let dup = self.duplicate?;
        let at = at();
        let rest = dup.strip_prefix(at.as_str())?;
        if let Some(inner) = rest.strip_prefix('.') {
            Some(inner.to_owned())
        } else if rest.starts_with('[') {
            Some(rest.to_owned())
        } else {
            None
        }
    }
}

/// Read a record in `format` (or the one it is recognised as).
pub(crate) fn read<'j>(
    root: &'j Json<'j>,
    format: Option<Format>,
    ctx: Ctx<'_>,
) -> Result<Record<'j>, String> {
    let forced = format.is_some();
    let format = match format {
        Some(f) => f,
        None => recognise(root).ok_or_else(|| {
            format!(
                "not a record this audit reads ({}): expected Anthropic Messages, OpenAI \
                 Chat or Responses, MCP JSON-RPC, or a tool call",
                shape(root)
            )
        })?,
    };
    let mut rec = Record::new(format);
    match format {
        Format::Anthropic => anthropic::read(root, &mut rec, ctx)?,
        Format::OpenaiChat => chat::read(root, &mut rec)?,
        Format::OpenaiResponses => responses::read(root, &mut rec)?,
        Format::Mcp => mcp::read(root, &mut rec, ctx)?,
        Format::Calls => calls::read(root, &mut rec, ctx)?,
    }
    if forced && !rec.steps.iter().any(Step::is_traffic) {
        // Read in the format named, it holds nothing: say so when it looks like another.
        if let Some(other) = recognise(root).filter(|f| *f != format) {
            return Err(format!(
                "read as {} (--format) it holds no tool call or result; it looks like {} \
                 (name --format {}, or leave --format out)",
                format.name(),
                other.title(),
                other.name()
            ));
        }
    }
    Ok(rec)
}

/// The records of a file that holds a JSON array of them (each a request, an exchange or
/// a message of its own), when `root` is one and no format is named: not a bare array of
/// messages, and every item a record.
pub(crate) fn array_of_records<'a, 'j>(
    root: &'a Json<'j>,
    format: Option<Format>,
) -> Option<&'a [Json<'j>]> {
    let Json::Array(items) = root else {
        return None;
    };
    let records = format.is_none()
        && !items.is_empty()
        && recognise(root).is_none()
        && items
            .iter()
            .all(|i| matches!(i, Json::Object(_)) && recognise(i).is_some());
    records.then_some(items.as_slice())
}

/// A few words on what a value is, for an error.
fn shape(v: &Json<'_>) -> String {
    match v {
        Json::Object(fields) if fields.is_empty() => "an empty object".to_owned(),
        Json::Object(fields) => {
            let keys: Vec<&str> = fields.iter().take(6).map(|(k, _)| k.as_ref()).collect();
            let more = if fields.len() > 6 { ", ..." } else { "" };
            format!("an object with {}{more}", keys.join(", "))
        }
        Json::Array(items) => format!("an array of {}", items.len()),
        other => format!("a {}", other.py_type()),
    }
}

/// Which format a record is in, from its shape; `None` when it is none of them.
pub(crate) fn recognise(root: &Json<'_>) -> Option<Format> {
    match root {
        Json::Array(items) => messages_format(items).or_else(|| {
            // A batch of JSON-RPC messages.
            items.iter().all(is_rpc).then_some(Format::Mcp)
        }),
        Json::Object(_) => {
            if is_rpc(root) {
                return Some(Format::Mcp);
            }
            if let Some(req) = root.get("request").filter(|r| matches!(r, Json::Object(_))) {
                // What came back tells best; then the endpoint; then the request itself.
                return root
                    .get("response")
                    .and_then(response_format)
                    .or_else(|| str_at(root, "uri").and_then(endpoint_format))
                    .or_else(|| recognise(req));
            }
            let named_call = root.get("name").is_some()
                && (root.get("arguments").is_some() || root.get("input").is_some());
            if root.get("tool").is_some() || (named_call && root.get("model").is_none()) {
                return Some(Format::Calls);
            }
            if root.get("messages").is_some() || root.get("tool_calls").is_some() {
                return Some(request_format(root));
            }
            if root.get("input").is_some()
                || str_at(root, "object") == Some("response")
                || root
                    .get("output")
                    .is_some_and(|o| matches!(o, Json::Array(_)))
            {
                return Some(Format::OpenaiResponses);
            }
            if root.get("choices").is_some() || str_at(root, "object") == Some("chat.completion") {
                return Some(Format::OpenaiChat);
            }
            if str_at(root, "type") == Some("message") && root.get("content").is_some() {
                return Some(Format::Anthropic);
            }
            None
        }
        _ => None,
    }
}

/// The format of a response object, when its shape says.
fn response_format(resp: &Json<'_>) -> Option<Format> {
    if is_rpc(resp) {
        return Some(Format::Mcp);
    }
    match (str_at(resp, "type"), str_at(resp, "object")) {
        (Some("message"), _) => Some(Format::Anthropic),
        (_, Some("chat.completion")) => Some(Format::OpenaiChat),
        (_, Some("response")) => Some(Format::OpenaiResponses),
        _ if resp.get("choices").is_some() => Some(Format::OpenaiChat),
        _ if resp.get("output").is_some() => Some(Format::OpenaiResponses),
        _ => None,
    }
}

/// The format an endpoint speaks, from the path of its URI.
fn endpoint_format(uri: &str) -> Option<Format> {
    let path = uri.split(['?', '#']).next().unwrap_or(uri);
    if path.ends_with("/chat/completions") {
        Some(Format::OpenaiChat)
    } else if path.ends_with("/responses") {
        Some(Format::OpenaiResponses)
    } else if path.ends_with("/v1/messages") {
        Some(Format::Anthropic)
    } else {
        None
    }
}

/// A JSON-RPC message: `jsonrpc`, or an MCP method.
fn is_rpc(v: &Json<'_>) -> bool {
    v.get("jsonrpc").is_some()
        || str_at(v, "method").is_some_and(|m| {
            m.starts_with("tools/") || m == "initialize" || m.starts_with("notifications/")
        })
}

/// Anthropic or OpenAI Chat, for a request with `messages`: by the first sign either way
/// (content blocks, tool messages, the tools' shape), OpenAI Chat when there is none.
fn request_format(root: &Json<'_>) -> Format {
    if let Some(Json::Array(tools)) = root.get("tools") {
        for t in tools {
            if t.get("input_schema").is_some() {
                return Format::Anthropic;
            }
            if t.get("function").is_some() {
                return Format::OpenaiChat;
            }
            // A server tool (`{"type": "web_search_20250305", "name": ...}`): Chat tools
            // always hold a `function`.
            if t.get("name").is_some() && str_at(t, "type") != Some("function") {
                return Format::Anthropic;
            }
        }
    }
    if let Some(Json::Array(msgs)) = root.get("messages")
        && let Some(f) = messages_format(msgs)
    {
        return f;
    }
    if matches!(root.get("system"), Some(Json::Str(_) | Json::Array(_))) {
        return Format::Anthropic;
    }
    Format::OpenaiChat
}

/// The format of a bare list of messages or items, by the first that tells.
fn messages_format(items: &[Json<'_>]) -> Option<Format> {
    for m in items {
        match str_at(m, "type") {
            Some("function_call" | "function_call_output" | "reasoning" | "additional_tools") => {
                return Some(Format::OpenaiResponses);
            }
            Some("message")
                if m.get("content")
                    .is_some_and(|c| matches!(c, Json::Array(_))) =>
            {
                if let Some(Json::Array(blocks)) = m.get("content") {
                    if blocks
                        .iter()
                        .any(|b| matches!(str_at(b, "type"), Some("input_text" | "output_text")))
                    {
                        return Some(Format::OpenaiResponses);
                    }
                }
            }
            _ => {}
        }
        if m.get("tool_calls").is_some()
            || m.get("function_call").is_some()
            || matches!(str_at(m, "role"), Some("tool" | "function"))
        {
            return Some(Format::OpenaiChat);
        }
        if let Some(Json::Array(blocks)) = m.get("content") {
            for b in blocks {
                match str_at(b, "type") {
                    Some("tool_use" | "tool_result" | "thinking" | "server_tool_use") => {
                        return Some(Format::Anthropic);
                    }
                    Some("input_text" | "output_text") => return Some(Format::OpenaiResponses),
                    _ => {}
                }
            }
        }
    }
    let looks_like_messages = !items.is_empty()
        && items
            .iter()
            .all(|m| str_at(m, "role").is_some() && m.get("content").is_some());
    looks_like_messages.then_some(Format::OpenaiChat)
}

// ---- small readers of values ----

/// The string at `key`, if it is one.
pub(crate) fn str_at<'a>(v: &'a Json<'_>, key: &str) -> Option<&'a str> {
    match v.get(key) {
        Some(Json::Str(s)) => Some(s),
        _ => None,
    }
}

/// The string at `key`, borrowed for as long as the value.
pub(crate) fn cow_at<'j>(v: &'j Json<'j>, key: &str) -> Option<Cow<'j, str>> {
    match v.get(key) {
        Some(Json::Str(s)) => Some(Cow::Borrowed(s.as_ref())),
        _ => None,
    }
}

/// The array at `key` (empty when it is missing or not an array).
pub(crate) fn items_at<'j>(v: &'j Json<'j>, key: &str) -> &'j [Json<'j>] {
    match v.get(key) {
        Some(Json::Array(items)) => items,
        _ => &[],
    }
}

/// An id as text: a string as it is, a number written out (JSON-RPC ids may be either).
pub(crate) fn id_text<'j>(v: &'j Json<'j>) -> Option<Cow<'j, str>> {
    match v {
        Json::Str(s) => Some(Cow::Borrowed(s.as_ref())),
        Json::Int(_) | Json::BigInt(_) | Json::Float(_) => Some(Cow::Owned(v.to_text())),
        _ => None,
    }
}

/// The text of content blocks as the model reads them: text parts joined by newlines,
/// anything else named in brackets (`[image]`, `[document]`).
pub(crate) fn blocks_text<'j>(content: &'j Json<'j>) -> Cow<'j, str> {
    match content {
        Json::Str(s) => Cow::Borrowed(s.as_ref()),
        Json::Null => Cow::Borrowed(""),
        Json::Array(blocks) => {
            if let [one] = blocks.as_slice()
                && let Some(t) = block_text(one)
            {
                return Cow::Borrowed(t);
            }
            let mut out = String::new();
            for b in blocks {
                if !out.is_empty() {
                    out.push('\n');
                }
                match block_text(b) {
                    Some(t) => out.push_str(t),
                    None => {
                        out.push('[');
                        out.push_str(str_at(b, "type").unwrap_or("block"));
                        let named = b.get("tool").and_then(|t| str_at(t, "name"));
                        if let Some(name) = named.or_else(|| str_at(b, "tool_name")) {
                            out.push(' ');
                            out.push_str(name);
                        }
                        out.push(']');
                    }
                }
            }
            Cow::Owned(out)
        }
        other => Cow::Owned(other.to_text()),
    }
}

/// The text of one text block (`{"type": "text", "text": ...}` and its kin), if it is one.
fn block_text<'j>(b: &'j Json<'j>) -> Option<&'j str> {
    match b {
        Json::Str(s) => Some(s),
        _ => match str_at(b, "type") {
            Some("text" | "input_text" | "output_text") | None => str_at(b, "text"),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests;
