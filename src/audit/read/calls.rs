//! One tool call a record, as eval sets and call logs keep them: `{"tool": <declaration> |
//! NAME, "arguments": ...}` (or `name` beside `arguments`, `args` or `input`), with an `id`,
//! a `result` and its `is_error` when the log kept them, and `tools` when it kept the whole
//! list. A declaration given as `tool` is the one the call is judged by.

use std::borrow::Cow;

use crate::validate::Json;

use super::super::steps::{ArgsIn, CallStep, Record, ResultStep, Step};
use super::{Ctx, at_ms, blocks_text, cow_at};

/// Where a call's arguments may be, in the order looked for.
const ARGS_KEYS: [&str; 4] = ["arguments", "args", "input", "parameters"];

pub(super) fn read<'j>(
    root: &'j Json<'j>,
    rec: &mut Record<'j>,
    ctx: Ctx<'_>,
) -> Result<(), String> {
    if !matches!(root, Json::Object(_)) {
        return Err(format!(
            "a call record is an object, not a {}",
            root.py_type()
        ));
    }
    if let Some(Json::Array(tools)) = root.get("tools") {
        rec.declare(tools.iter());
    }
    let tool = match root.get("tool") {
        Some(Json::Str(s)) => Cow::Borrowed(s.as_ref()),
        Some(decl @ Json::Object(_)) => {
            rec.declare(std::iter::once(decl));
            declared_name(decl).ok_or_else(|| "the \"tool\" declaration has no name".to_owned())?
        }
        Some(other) => {
            return Err(format!(
                "\"tool\" is a {}, not a name or a declaration",
                other.py_type()
            ));
        }
        None => cow_at(root, "name").ok_or_else(|| "no \"tool\" or \"name\"".to_owned())?,
    };
    let key = ARGS_KEYS.iter().find(|k| root.get(k).is_some());
    let args = match key.and_then(|k| root.get(k)) {
        Some(Json::Str(s)) => ArgsIn::Text(Cow::Borrowed(s)),
        None | Some(Json::Null) => ArgsIn::Missing,
        Some(v) => ArgsIn::Json(v),
    };
    let duplicate = match (&args, key) {
        (ArgsIn::Json(Json::Object(_)), Some(k)) => ctx.duplicate_in(|| (*k).to_owned()),
        _ => None,
    };
    let id = cow_at(root, "id").or_else(|| cow_at(root, "call_id"));
    let at = at_ms(root);
    rec.steps.push(Step::Turn { at_ms: at });
    rec.steps.push(Step::Call(CallStep {
        id: id.clone(),
        tool,
        args,
        duplicate,
        at_ms: at,
    }));
    if let Some(result) = root.get("result").or_else(|| root.get("output")) {
        let flag = root.get("is_error").or_else(|| root.get("isError"));
        rec.steps.push(Step::Result(ResultStep {
            id,
            by_name: false,
            beside: true,
            text: blocks_text(result),
            flagged: match flag {
                Some(Json::Bool(b)) => Some(*b),
                _ => None,
            },
            optional: false,
            at_ms: at,
        }));
    }
    Ok(())
}

/// The name a declaration gives its tool, in any provider's shape.
fn declared_name<'j>(decl: &'j Json<'j>) -> Option<Cow<'j, str>> {
    cow_at(decl, "name").or_else(|| decl.get("function").and_then(|f| cow_at(f, "name")))
}
