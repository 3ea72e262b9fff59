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

/// The members a call record is read from, each the first of its key (as `Json::get` finds
/// it), found in one pass over the record's members.
#[derive(Default)]
struct Members<'j> {
    tools: Option<&'j Json<'j>>,
    tool: Option<&'j Json<'j>>,
    name: Option<&'j Json<'j>>,
    /// By [`ARGS_KEYS`].
    args: [Option<&'j Json<'j>>; 4],
    id: Option<&'j Json<'j>>,
    call_id: Option<&'j Json<'j>>,
    result: Option<&'j Json<'j>>,
    output: Option<&'j Json<'j>>,
    is_error: Option<&'j Json<'j>>,
    is_error_camel: Option<&'j Json<'j>>,
}

impl<'j> Members<'j> {
    fn of(fields: &'j [(Cow<'j, str>, Json<'j>)]) -> Members<'j> {
        let mut m = Members::default();
        for (k, v) in fields {
            let slot = match k.as_ref() {
                "tools" => &mut m.tools,
                "tool" => &mut m.tool,
                "name" => &mut m.name,
                "id" => &mut m.id,
                "call_id" => &mut m.call_id,
                "result" => &mut m.result,
                "output" => &mut m.output,
                "is_error" => &mut m.is_error,
                "isError" => &mut m.is_error_camel,
                k => match ARGS_KEYS.iter().position(|a| *a == k) {
                    Some(i) => &mut m.args[i],
                    None => continue,
                },
            };
            slot.get_or_insert(v);
        }
        m
    }
}

/// A string member, borrowed.
fn cow<'j>(v: Option<&'j Json<'j>>) -> Option<Cow<'j, str>> {
    match v {
        Some(Json::Str(s)) => Some(Cow::Borrowed(s.as_ref())),
        _ => None,
    }
}

pub(super) fn read<'j>(
    root: &'j Json<'j>,
    rec: &mut Record<'j>,
    ctx: Ctx<'_>,
) -> Result<(), String> {
    let Json::Object(fields) = root else {
        return Err(format!(
            "a call record is an object, not a {}",
            root.py_type()
        ));
    };
    let m = Members::of(fields);
    if let Some(Json::Array(tools)) = m.tools {
        rec.declare(tools.iter());
    }
    let tool = match m.tool {
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
        None => cow(m.name).ok_or_else(|| "no \"tool\" or \"name\"".to_owned())?,
    };
    let at_key = m.args.iter().position(Option::is_some);
    let args = match at_key.and_then(|i| m.args[i]) {
        Some(Json::Str(s)) => ArgsIn::Text(Cow::Borrowed(s)),
        None | Some(Json::Null) => ArgsIn::Missing,
        Some(v) => ArgsIn::Json(v),
    };
    let duplicate = match (&args, at_key) {
        (ArgsIn::Json(Json::Object(_)), Some(i)) => ctx.duplicate_in(|| ARGS_KEYS[i].to_owned()),
        _ => None,
    };
    let id = cow(m.id).or_else(|| cow(m.call_id));
    let at = at_ms(root);
    rec.steps.push(Step::Turn { at_ms: at });
    rec.steps.push(Step::Call(CallStep {
        id: id.clone(),
        tool,
        args,
        duplicate,
        at_ms: at,
    }));
    if let Some(result) = m.result.or(m.output) {
        let flag = m.is_error.or(m.is_error_camel);
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
