//! Anthropic Messages: a request body (`messages` with `tool_use` / `tool_result` blocks,
//! `tools`), a response (`{"type": "message", "content": [...]}`), an exchange holding both,
//! a streamed response as its events (`content_block_start` / `input_json_delta` /
//! `content_block_stop`), or a bare list of messages. `server_tool_use` and `mcp_tool_use`
//! blocks run at the provider: they are not the client's calls.

use std::borrow::Cow;

use crate::validate::Json;

use super::super::steps::{ArgsIn, CallStep, Record, ResultStep, Speaker, Step};
use super::{Ctx, at_ms, blocks_text, cow_at, str_at};

pub(super) fn read<'j>(
    root: &'j Json<'j>,
    rec: &mut Record<'j>,
    ctx: Ctx<'_>,
) -> Result<(), String> {
    if let Json::Array(msgs) = root {
        return messages(msgs, "", rec, ctx);
    }
    if str_at(root, "type") == Some("message") {
        response(root, "", rec, ctx);
        return Ok(());
    }
    let (req, prefix) = match root.get("request") {
        Some(r) => (r, "request."),
        None => (root, ""),
    };
    match req.get("tools") {
        None | Some(Json::Null) => {}
        Some(Json::Array(tools)) => rec.declare(tools.iter()),
        Some(other) => return Err(format!("\"tools\" is a {}, not a list", other.py_type())),
    }
    match req.get("messages") {
        Some(Json::Array(msgs)) => messages(msgs, prefix, rec, ctx)?,
        Some(other) => return Err(format!("\"messages\" is a {}, not a list", other.py_type())),
        None => return Err("no \"messages\"".into()),
    }
    if !prefix.is_empty() {
        match root.get("response") {
            Some(resp @ Json::Object(_)) => response(resp, "response.", rec, ctx),
            _ => {
                if let Some(Json::Array(events)) = root.get("response_stream") {
                    stream(events, rec);
                }
            }
        }
    }
    Ok(())
}

fn messages<'j>(
    msgs: &'j [Json<'j>],
    prefix: &str,
    rec: &mut Record<'j>,
    ctx: Ctx<'_>,
) -> Result<(), String> {
    for (i, m) in msgs.iter().enumerate() {
        let at = at_ms(m);
        match str_at(m, "role") {
            Some("assistant") => {
                rec.steps.push(Step::Turn { at_ms: at });
                let here = |k: usize| format!("{prefix}messages[{i}].content[{k}].input");
                content(m.get("content"), Speaker::Model, at, rec, ctx, &here);
            }
            Some("user") => {
                let here = |k: usize| format!("{prefix}messages[{i}].content[{k}].input");
                content(m.get("content"), Speaker::User, at, rec, ctx, &here);
            }
            Some(_) => {}
            None => return Err(format!("message {} has no \"role\"", i + 1)),
        }
    }
    Ok(())
}

/// A message's content: a string, or blocks.
fn content<'j>(
    content: Option<&'j Json<'j>>,
    who: Speaker,
    at: Option<u64>,
    rec: &mut Record<'j>,
    ctx: Ctx<'_>,
    here: &dyn Fn(usize) -> String,
) {
    match content {
        Some(Json::Str(s)) => rec.steps.push(Step::Say {
            who,
            text: Cow::Borrowed(s),
        }),
        Some(Json::Array(blocks)) => {
            for (k, b) in blocks.iter().enumerate() {
                block(b, who, at, rec, ctx, || here(k));
            }
        }
        _ => {}
    }
}

fn block<'j>(
    b: &'j Json<'j>,
    who: Speaker,
    at: Option<u64>,
    rec: &mut Record<'j>,
    ctx: Ctx<'_>,
    here: impl FnOnce() -> String,
) {
    match str_at(b, "type") {
        Some("text") => {
            if let Some(text) = cow_at(b, "text") {
                rec.steps.push(Step::Say { who, text });
            }
        }
        Some("tool_use") => {
            let args = match b.get("input") {
                Some(Json::Str(s)) => ArgsIn::Text(Cow::Borrowed(s)),
                Some(v) => ArgsIn::Json(v),
                None => ArgsIn::Missing,
            };
            let duplicate = match args {
                ArgsIn::Json(Json::Object(_)) => ctx.duplicate_in(here),
                _ => None,
            };
            rec.steps.push(Step::Call(CallStep {
                id: cow_at(b, "id"),
                tool: cow_at(b, "name").unwrap_or(Cow::Borrowed("")),
                args,
                duplicate,
                at_ms: at,
            }));
        }
        Some("tool_result") => {
            let flagged = matches!(b.get("is_error"), Some(Json::Bool(true)));
            rec.steps.push(Step::Result(ResultStep {
                id: cow_at(b, "tool_use_id"),
                by_name: false,
                beside: false,
                text: b.get("content").map_or(Cow::Borrowed(""), blocks_text),
                flagged: Some(flagged),
                optional: false,
                at_ms: at,
            }));
        }
        _ => {}
    }
}

/// A response message: one model turn.
fn response<'j>(resp: &'j Json<'j>, prefix: &str, rec: &mut Record<'j>, ctx: Ctx<'_>) {
    if str_at(resp, "type") == Some("error") {
        return;
    }
    let at = at_ms(resp);
    rec.steps.push(Step::Turn { at_ms: at });
    let here = |k: usize| format!("{prefix}content[{k}].input");
    content(resp.get("content"), Speaker::Model, at, rec, ctx, &here);
}

/// A block being streamed.
struct Open<'j> {
    index: i64,
    id: Option<Cow<'j, str>>,
    name: Cow<'j, str>,
    start: Option<&'j Json<'j>>,
    partial: String,
    text: Option<String>,
}

/// A streamed response: the tool calls put together from their events, in the order their
/// blocks started (what a client gets once the stream ends; a stream cut short leaves the
/// input text it had).
fn stream<'j>(events: &'j [Json<'j>], rec: &mut Record<'j>) {
    let mut open: Vec<Open<'j>> = Vec::new();
    let mut done: Vec<Open<'j>> = Vec::new();
    let mut turned = false;
    for e in events {
        let Some(data) = e.get("data") else { continue };
        let index = match data.get("index") {
            Some(Json::Int(i)) => *i,
            _ => -1,
        };
        match str_at(data, "type") {
            Some("message_start") => turned = true,
            Some("content_block_start") => {
                let Some(cb) = data.get("content_block") else {
                    continue;
                };
                match str_at(cb, "type") {
                    Some("tool_use") => open.push(Open {
                        index,
                        id: cow_at(cb, "id"),
                        name: cow_at(cb, "name").unwrap_or(Cow::Borrowed("")),
                        start: cb.get("input"),
                        partial: String::new(),
                        text: None,
                    }),
                    Some("text") => open.push(Open {
                        index,
                        id: None,
                        name: Cow::Borrowed(""),
                        start: None,
                        partial: String::new(),
                        text: Some(str_at(cb, "text").unwrap_or("").to_owned()),
                    }),
                    _ => {}
                }
            }
            Some("content_block_delta") => {
                let Some(d) = data.get("delta") else { continue };
                let Some(b) = open.iter_mut().find(|b| b.index == index) else {
                    continue;
                };
                match (str_at(d, "type"), &mut b.text) {
                    (Some("input_json_delta"), None) => {
                        b.partial.push_str(str_at(d, "partial_json").unwrap_or(""));
                    }
                    (Some("text_delta"), Some(t)) => t.push_str(str_at(d, "text").unwrap_or("")),
                    _ => {}
                }
            }
            Some("content_block_stop") => {
                if let Some(at) = open.iter().position(|b| b.index == index) {
                    done.push(open.remove(at));
                }
            }
            _ => {}
        }
    }
    done.append(&mut open);
    if done.is_empty() && !turned {
        return;
    }
    rec.steps.push(Step::Turn { at_ms: None });
    for b in done {
        if let Some(text) = b.text {
            rec.steps.push(Step::Say {
                who: Speaker::Model,
                text: Cow::Owned(text),
            });
            continue;
        }
        let args = if b.partial.is_empty() {
            b.start.map_or(ArgsIn::Missing, ArgsIn::Json)
        } else {
            ArgsIn::Text(Cow::Owned(b.partial))
        };
        rec.steps.push(Step::Call(CallStep {
            id: b.id,
            tool: b.name,
            args,
            duplicate: None,
            at_ms: None,
        }));
    }
}
