//! OpenAI Chat Completions: a request (`messages` with `tool_calls` and `role: "tool"`,
//! `tools`), a response (`choices`), an exchange holding both, streamed chunks put together
//! (`delta.tool_calls` by index), or a bare list of messages. `arguments` is text the model
//! wrote, parsed later; the legacy `function_call` / `role: "function"` pair is read too.
//! Tools of another `type` (a provider's web search) are the provider's, not calls.

use std::borrow::Cow;

use crate::validate::Json;

use super::super::steps::{ArgsIn, CallStep, Record, ResultStep, Speaker, Step};
use super::{at_ms, blocks_text, cow_at, items_at, str_at};

pub(super) fn read<'j>(root: &'j Json<'j>, rec: &mut Record<'j>) -> Result<(), String> {
    if let Json::Array(msgs) = root {
        return messages(msgs, rec);
    }
    if root.get("choices").is_some() && root.get("messages").is_none() {
        response(root, rec);
        return Ok(());
    }
    let exchange = root.get("request");
    let req = exchange.unwrap_or(root);
    if let Some(tools) = req.get("tools") {
        match tools {
            Json::Array(tools) => rec.declare(tools.iter()),
            Json::Null => {}
            other => return Err(format!("\"tools\" is a {}, not a list", other.py_type())),
        }
    }
    match req.get("messages") {
        Some(Json::Array(msgs)) => messages(msgs, rec)?,
        Some(other) => return Err(format!("\"messages\" is a {}, not a list", other.py_type())),
        None => return Err("no \"messages\"".into()),
    }
    if exchange.is_some() {
        match root.get("response") {
            Some(resp @ Json::Object(_)) => response(resp, rec),
            _ => {
                if let Some(Json::Array(chunks)) = root.get("response_stream") {
                    stream(chunks, rec);
                }
            }
        }
    }
    Ok(())
}

fn messages<'j>(msgs: &'j [Json<'j>], rec: &mut Record<'j>) -> Result<(), String> {
    for (i, m) in msgs.iter().enumerate() {
        let at = at_ms(m);
        match str_at(m, "role") {
            Some("assistant") => assistant(m, at, rec),
            Some("tool") => rec.steps.push(Step::Result(ResultStep {
                id: cow_at(m, "tool_call_id"),
                by_name: false,
                beside: false,
                text: m.get("content").map_or(Cow::Borrowed(""), blocks_text),
                flagged: None,
                optional: false,
                at_ms: at,
            })),
            Some("function") => rec.steps.push(Step::Result(ResultStep {
                id: cow_at(m, "name"),
                by_name: true,
                beside: false,
                text: m.get("content").map_or(Cow::Borrowed(""), blocks_text),
                flagged: None,
                optional: false,
                at_ms: at,
            })),
            Some("user") => {
                if let Some(c) = m.get("content") {
                    rec.steps.push(Step::Say {
                        who: Speaker::User,
                        text: blocks_text(c),
                    });
                }
            }
            Some(_) => {}
            None => return Err(format!("message {} has no \"role\"", i + 1)),
        }
    }
    Ok(())
}

/// An assistant message: a model turn, its text and its calls.
fn assistant<'j>(m: &'j Json<'j>, at: Option<u64>, rec: &mut Record<'j>) {
    rec.steps.push(Step::Turn { at_ms: at });
    match m.get("content") {
        None | Some(Json::Null) => {}
        Some(c) => {
            let text = blocks_text(c);
            if !text.is_empty() {
                rec.steps.push(Step::Say {
                    who: Speaker::Model,
                    text,
                });
            }
        }
    }
    for tc in items_at(m, "tool_calls") {
        if !matches!(str_at(tc, "type"), None | Some("function")) {
            continue;
        }
        let f = tc.get("function");
        rec.steps.push(Step::Call(CallStep {
            id: cow_at(tc, "id"),
            tool: f
                .and_then(|f| cow_at(f, "name"))
                .unwrap_or(Cow::Borrowed("")),
            args: f.map_or(ArgsIn::Missing, arguments),
            duplicate: None,
            at_ms: at,
        }));
    }
    // Some servers send an empty `function_call` beside no call at all.
    if let Some(f @ Json::Object(_)) = m.get("function_call")
        && str_at(f, "name").is_some_and(|n| !n.is_empty())
    {
        rec.steps.push(Step::Call(CallStep {
            id: None,
            tool: cow_at(f, "name").unwrap_or(Cow::Borrowed("")),
            args: arguments(f),
            duplicate: None,
            at_ms: at,
        }));
    }
}

/// A function's `arguments`: text as OpenAI sends it, a value as some compatible servers do.
fn arguments<'j>(f: &'j Json<'j>) -> ArgsIn<'j> {
    match f.get("arguments") {
        Some(Json::Str(s)) => ArgsIn::Text(Cow::Borrowed(s)),
        None | Some(Json::Null) => ArgsIn::Missing,
        Some(v) => ArgsIn::Json(v),
    }
}

/// A response: every choice is a model turn.
fn response<'j>(resp: &'j Json<'j>, rec: &mut Record<'j>) {
    let at = at_ms(resp);
    for choice in items_at(resp, "choices") {
        if let Some(m) = choice.get("message") {
            assistant(m, at, rec);
        }
    }
}

/// One call being streamed.
struct Open<'j> {
    choice: i64,
    index: i64,
    id: Option<Cow<'j, str>>,
    name: Option<Cow<'j, str>>,
    args: String,
    kind_ok: bool,
}

/// Streamed chunks: each choice's text and calls put together, as a client gets them once
/// the stream ends.
fn stream<'j>(chunks: &'j [Json<'j>], rec: &mut Record<'j>) {
    let mut calls: Vec<Open<'j>> = Vec::new();
    let mut texts: Vec<(i64, String)> = Vec::new();
    let mut at = None;
    for chunk in chunks {
        let Some(data @ Json::Object(_)) = chunk.get("data") else {
            continue;
        };
        at = at.or_else(|| at_ms(data));
        for choice in items_at(data, "choices") {
            let c = int_at(choice, "index");
            let Some(delta) = choice.get("delta") else {
                continue;
            };
            if let Some(Json::Str(t)) = delta.get("content") {
                match texts.iter_mut().find(|(i, _)| *i == c) {
                    Some((_, s)) => s.push_str(t),
                    None => texts.push((c, t.to_string())),
                }
            }
            for tc in items_at(delta, "tool_calls") {
                let index = int_at(tc, "index");
                let f = tc.get("function");
                let at_call = calls.iter().position(|o| o.choice == c && o.index == index);
                let open = match at_call {
                    Some(k) => &mut calls[k],
                    None => {
                        calls.push(Open {
                            choice: c,
                            index,
                            id: None,
                            name: None,
                            args: String::new(),
                            kind_ok: true,
                        });
                        calls.last_mut().expect("just pushed")
                    }
                };
                if open.id.is_none() {
                    open.id = cow_at(tc, "id");
                }
                if let Some(kind) = str_at(tc, "type") {
                    open.kind_ok = kind == "function";
                }
                if let Some(f) = f {
                    if open.name.is_none() {
                        open.name = cow_at(f, "name");
                    }
                    if let Some(Json::Str(piece)) = f.get("arguments") {
                        open.args.push_str(piece);
                    }
                }
            }
        }
    }
    let mut choices: Vec<i64> = texts.iter().map(|(c, _)| *c).collect();
    choices.extend(calls.iter().map(|o| o.choice));
    choices.sort_unstable();
    choices.dedup();
    for c in choices {
        rec.steps.push(Step::Turn { at_ms: at });
        if let Some((_, t)) = texts.iter_mut().find(|(i, _)| *i == c) {
            rec.steps.push(Step::Say {
                who: Speaker::Model,
                text: Cow::Owned(std::mem::take(t)),
            });
        }
        for o in calls.iter_mut().filter(|o| o.choice == c && o.kind_ok) {
            rec.steps.push(Step::Call(CallStep {
                id: o.id.take(),
                tool: o.name.take().unwrap_or(Cow::Borrowed("")),
                args: ArgsIn::Text(Cow::Owned(std::mem::take(&mut o.args))),
                duplicate: None,
                at_ms: at,
            }));
        }
    }
}

fn int_at(v: &Json<'_>, key: &str) -> i64 {
    match v.get(key) {
        Some(Json::Int(i)) => *i,
        _ => 0,
    }
}
