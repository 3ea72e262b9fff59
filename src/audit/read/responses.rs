//! OpenAI Responses: a request (`input` items, `tools`), a response (`output` items), an
//! exchange holding both, a stream (read from its final `response.completed` object, which
//! the server itself sends, or else from its finished output items), or a bare list of items.
//! `function_call` items are the client's calls and `function_call_output` their results;
//! built-in tool items (`web_search_call`, `mcp_call`, ...) run at the provider. Tools may
//! also arrive later (`additional_tools`, a `tool_search_output`), or inside a `namespace`.

use std::borrow::Cow;

use crate::validate::Json;

use super::super::steps::{ArgsIn, CallStep, Record, ResultStep, Speaker, Step};
use super::{at_ms, blocks_text, cow_at, items_at, str_at};

pub(super) fn read<'j>(root: &'j Json<'j>, rec: &mut Record<'j>) -> Result<(), String> {
    if let Json::Array(items) = root {
        self::items(items, rec, false);
        return Ok(());
    }
    if root.get("output").is_some() && root.get("input").is_none() && root.get("request").is_none()
    {
        output(root, rec);
        return Ok(());
    }
    let exchange = root.get("request");
    let req = exchange.unwrap_or(root);
    if let Some(tools) = req.get("tools") {
        match tools {
            Json::Array(tools) => declare(tools, rec),
            Json::Null => {}
            other => return Err(format!("\"tools\" is a {}, not a list", other.py_type())),
        }
    }
    // A request that goes on from state kept at the server holds results for calls made
    // there: they answer calls this record does not show.
    let continued = ["previous_response_id", "conversation"]
        .iter()
        .any(|k| !matches!(req.get(k), None | Some(Json::Null)));
    match req.get("input") {
        Some(Json::Array(list)) => {
            let from = rec.steps.len();
            items(list, rec, false);
            if continued {
                for step in &mut rec.steps[from..] {
                    if let Step::Result(r) = step {
                        r.optional = true;
                    }
                }
            }
        }
        Some(Json::Str(s)) => rec.steps.push(Step::Say {
            who: Speaker::User,
            text: Cow::Borrowed(s),
        }),
        Some(other) => {
            return Err(format!(
                "\"input\" is a {}, not a list or text",
                other.py_type()
            ));
        }
        None => return Err("no \"input\"".into()),
    }
    if exchange.is_some() {
        match root.get("response") {
            Some(resp @ Json::Object(_)) => output(resp, rec),
            _ => {
                if let Some(Json::Array(events)) = root.get("response_stream") {
                    stream(events, rec);
                }
            }
        }
    }
    Ok(())
}

/// Declarations, with the tools of a `namespace` taken out of it (a call names the tool).
fn declare<'j>(tools: &'j [Json<'j>], rec: &mut Record<'j>) {
    for t in tools {
        if str_at(t, "type") == Some("namespace") {
            rec.declare(items_at(t, "tools"));
        } else {
            rec.declare(std::iter::once(t));
        }
    }
}

/// Items in order. A model turn is a run of the model's own items (its messages, reasoning,
/// calls); a user message or a tool's output ends it. `one_turn`: all of them belong to the
/// turn the caller opened (a response's output).
fn items<'j>(list: &'j [Json<'j>], rec: &mut Record<'j>, one_turn: bool) {
    let mut in_turn = one_turn;
    // Built-in calls the client runs (a `tool_search_call` with `"execution": "client"`)
    // are answered like function calls, but they are not the model's function calls.
    let mut builtin: Vec<&str> = Vec::new();
    for it in list {
        let kind = str_at(it, "type");
        let role = str_at(it, "role");
        let model_side = match kind {
            Some("function_call" | "reasoning" | "custom_tool_call" | "mcp_list_tools") => true,
            Some(k) if k.ends_with("_call") => true,
            Some("message") | None => role == Some("assistant"),
            _ => false,
        };
        if model_side && !in_turn {
            rec.steps.push(Step::Turn { at_ms: at_ms(it) });
            in_turn = true;
        } else if !model_side && !one_turn {
            in_turn = false;
        }
        match kind {
            Some("function_call") => rec.steps.push(Step::Call(CallStep {
                id: cow_at(it, "call_id"),
                tool: cow_at(it, "name").unwrap_or(Cow::Borrowed("")),
                args: match it.get("arguments") {
                    Some(Json::Str(s)) => ArgsIn::Text(Cow::Borrowed(s)),
                    None | Some(Json::Null) => ArgsIn::Missing,
                    Some(v) => ArgsIn::Json(v),
                },
                duplicate: None,
                at_ms: at_ms(it),
            })),
            Some("function_call_output") => {
                let id = cow_at(it, "call_id");
                let answers_builtin = id.as_deref().is_some_and(|i| builtin.contains(&i));
                rec.steps.push(Step::Result(ResultStep {
                    id,
                    by_name: false,
                    beside: false,
                    text: it.get("output").map_or(Cow::Borrowed(""), blocks_text),
                    flagged: None,
                    optional: answers_builtin,
                    at_ms: at_ms(it),
                }));
            }
            Some(k) if k.ends_with("_call") => builtin.extend(str_at(it, "call_id")),
            Some("additional_tools" | "tool_search_output") => declare(items_at(it, "tools"), rec),
            Some("message") | None => {
                if let Some(c) = it.get("content") {
                    let who = match role {
                        Some("assistant") => Speaker::Model,
                        Some("user") => Speaker::User,
                        _ => continue,
                    };
                    rec.steps.push(Step::Say {
                        who,
                        text: blocks_text(c),
                    });
                }
            }
            _ => {}
        }
    }
}

/// A response object: its output is one model turn.
fn output<'j>(resp: &'j Json<'j>, rec: &mut Record<'j>) {
    let list = items_at(resp, "output");
    if list.is_empty() {
        return;
    }
    rec.steps.push(Step::Turn { at_ms: at_ms(resp) });
    items(list, rec, true);
}

/// A stream: its final response object, else the output items it finished.
fn stream<'j>(events: &'j [Json<'j>], rec: &mut Record<'j>) {
    let last = events.iter().rev().find_map(|e| {
        let data = e.get("data")?;
        match str_at(data, "type") {
            Some("response.completed" | "response.incomplete" | "response.failed") => {
                data.get("response")
            }
            _ => None,
        }
    });
    if let Some(resp) = last {
        output(resp, rec);
        return;
    }
    let done: Vec<&'j Json<'j>> = events
        .iter()
        .filter_map(|e| e.get("data"))
        .filter(|d| str_at(d, "type") == Some("response.output_item.done"))
        .filter_map(|d| d.get("item"))
        .collect();
    if done.is_empty() {
        return;
    }
    rec.steps.push(Step::Turn { at_ms: None });
    for it in done {
        items(std::slice::from_ref(it), rec, true);
    }
}
