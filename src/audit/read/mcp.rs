//! MCP JSON-RPC traffic, one message a record: `tools/call` requests are calls, their
//! responses results (`isError` is the flag; a JSON-RPC `error` is an error too), a
//! `tools/list` result declares the tools for the calls after it, and `initialize` starts a
//! new session. A record may also be a batch (an array of messages), an exchange
//! `{"request", "response"}`, or a request carrying its `response` beside it.

use std::borrow::Cow;

use crate::validate::Json;

use super::super::heuristics::reads_as_error;
use super::super::steps::{ArgsIn, CallStep, Record, ResultStep, Step};
use super::{Ctx, at_ms, blocks_text, cow_at, id_text, items_at, str_at};

/// A JSON-RPC id as text, typed: a string that reads as a number keeps its quotes, so that
/// `"7"` and `7` (two ids) are not paired.
fn rpc_id<'j>(v: &'j Json<'j>) -> Option<Cow<'j, str>> {
    match v {
        Json::Str(s) if s.parse::<f64>().is_ok() => Some(Cow::Owned(format!("\"{s}\""))),
        _ => id_text(v),
    }
}

/// The arguments of a call that sends none (MCP's `arguments` is optional).
static NO_ARGS: Json<'static> = Json::Object(Vec::new());

pub(super) fn read<'j>(
    root: &'j Json<'j>,
    rec: &mut Record<'j>,
    ctx: Ctx<'_>,
) -> Result<(), String> {
    match root {
        Json::Array(batch) => {
            for (i, m) in batch.iter().enumerate() {
                message(m, &format!("[{i}]."), rec, ctx)?;
            }
            Ok(())
        }
        _ if root.get("request").is_none() && session(root).is_some() => {
            rec.steps.extend(session(root).map(Step::Session));
            message(root, "", rec, ctx)
        }
        _ => match root.get("request") {
            Some(req) => {
                message(req, "request.", rec, ctx)?;
                match root.get("response") {
                    Some(resp @ Json::Object(_)) => message(resp, "response.", rec, ctx),
                    _ => Ok(()),
                }
            }
            None => message(root, "", rec, ctx),
        },
    }
}

/// The fields an eval's call log names its run by, beside the JSON-RPC message.
const SESSION_KEYS: [&str; 6] = [
    "session_id",
    "sessionId",
    "session",
    "conversation_id",
    "task",
    "model",
];

/// The run a message belongs to, when the record names one.
fn session(m: &Json<'_>) -> Option<String> {
    let parts: Vec<String> = SESSION_KEYS
        .iter()
        .filter_map(|k| m.get(k).map(|v| format!("{k}={}", v.to_text())))
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

fn message<'j>(
    m: &'j Json<'j>,
    prefix: &str,
    rec: &mut Record<'j>,
    ctx: Ctx<'_>,
) -> Result<(), String> {
    if !matches!(m, Json::Object(_)) {
        return Err(format!(
            "a JSON-RPC message is an object, not a {}",
            m.py_type()
        ));
    }
    let at = at_ms(m);
    match str_at(m, "method") {
        Some("tools/call") => {
            let params = m.get("params");
            let args = match params.and_then(|p| p.get("arguments")) {
                None | Some(Json::Null) => ArgsIn::Json(&NO_ARGS),
                Some(Json::Str(s)) => ArgsIn::Text(Cow::Borrowed(s)),
                Some(v) => ArgsIn::Json(v),
            };
            let duplicate = match args {
                ArgsIn::Json(Json::Object(_)) => {
                    ctx.duplicate_in(|| format!("{prefix}params.arguments"))
                }
                _ => None,
            };
            rec.steps.push(Step::Call(CallStep {
                id: m.get("id").and_then(rpc_id),
                tool: params
                    .and_then(|p| cow_at(p, "name"))
                    .unwrap_or(Cow::Borrowed("")),
                args,
                duplicate,
                at_ms: at,
            }));
            // A request logged with its answer beside it, or with its outcome alone (an
            // eval's call history: `isError`, no ids).
            if let Some(resp @ Json::Object(_)) = m.get("response") {
                message(resp, &format!("{prefix}response."), rec, ctx)?;
            } else if matches!(m.get("result"), Some(Json::Object(_))) {
                response(m, at, rec, true);
            } else if let Some(Json::Bool(flag)) = m.get("isError") {
                rec.steps.push(Step::Result(ResultStep {
                    id: None,
                    by_name: false,
                    beside: true,
                    text: Cow::Borrowed(""),
                    flagged: Some(*flag),
                    optional: false,
                    at_ms: at,
                }));
            }
        }
        Some("initialize") => rec.steps.push(Step::Restart),
        Some("notifications/cancelled") => {
            // The client gave up on a request: its answer, as far as the model goes.
            let params = m.get("params");
            let why = params
                .and_then(|p| str_at(p, "reason"))
                .unwrap_or("no reason given");
            rec.steps.push(Step::Result(ResultStep {
                id: params.and_then(|p| p.get("requestId")).and_then(rpc_id),
                by_name: false,
                beside: false,
                text: Cow::Owned(format!("cancelled by the client: {why}")),
                flagged: Some(true),
                optional: true,
                at_ms: at,
            }));
        }
        Some(_) => {}
        None => response(m, at, rec, false),
    }
    Ok(())
}

/// A response: a tool list, a tool's result, or an error (`beside`: recorded in its call's
/// record).
fn response<'j>(m: &'j Json<'j>, at: Option<u64>, rec: &mut Record<'j>, beside: bool) {
    let id = m.get("id").and_then(rpc_id);
    if let Some(result @ Json::Object(_)) = m.get("result") {
        if let Some(Json::Array(tools)) = result.get("tools") {
            rec.steps.push(Step::Declare(tools.iter().collect()));
            return;
        }
        let flag = result.get("isError");
        if result.get("content").is_none() && flag.is_none() {
            // An answer to another request (`initialize`, `ping`, a resource).
            return;
        }
        let structured = result.get("structuredContent");
        let text = match result.get("content") {
            // A structured result that says it failed, beside a text that does not: the
            // structured one is read.
            Some(c @ Json::Array(_)) if !items_at(result, "content").is_empty() => {
                let said = blocks_text(c);
                match structured.map(Json::to_text) {
                    Some(s)
                        if reads_as_error(&said).is_none()
                            && reads_as_error(&s).is_some_and(|e| e.typed) =>
                    {
                        Cow::Owned(s)
                    }
                    _ => said,
                }
            }
            _ => structured.map_or(Cow::Borrowed(""), |s| Cow::Owned(s.to_text())),
        };
        rec.steps.push(Step::Result(ResultStep {
            id,
            by_name: false,
            beside,
            text,
            flagged: Some(matches!(flag, Some(Json::Bool(true)))),
            optional: false,
            at_ms: at,
        }));
    } else if let Some(err) = m.get("error")
        && (m.get("id").is_some() || m.get("jsonrpc").is_some())
    {
        // A JSON-RPC error always carries its id (null when the request could not be
        // read); an object with only an `error` (a provider's HTTP error body) is none.
        let code = err.get("code").map(Json::to_text).unwrap_or_default();
        let what = str_at(err, "message").unwrap_or("");
        rec.steps.push(Step::Result(ResultStep {
            id,
            by_name: false,
            beside: false,
            text: Cow::Owned(format!("JSON-RPC error {code}: {what}")),
            flagged: Some(true),
            optional: true,
            at_ms: at,
        }));
    }
}
