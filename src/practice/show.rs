//! How a row is written for the learner: the call, the expected result and values in
//! the learner's own language (Python literals or JSON).

use serde_json::json;

use super::cases::{Call, Expected, Row, context_value};
use crate::executor::Envelope;
use crate::validate::{self, Json};

impl Row {
    /// The call as the learner would write it, e.g.
    /// `execute_tool("get_ticket", {"ticket_id": "TKT-104"}, {"tenant": "alpha", ...}, records)`.
    pub(crate) fn show_call(&self, js: bool) -> String {
        let name = self.function.name(js);
        match &self.call {
            Call::Validate {
                schema,
                required,
                args_text,
            } => {
                let fields: Vec<String> = schema
                    .iter()
                    .map(|(n, t)| format!("{}: {t}", quote(n)))
                    .collect();
                let req: Vec<String> = required.iter().map(|r| quote(r)).collect();
                let req = if req.is_empty() {
                    "set()".to_owned()
                } else {
                    format!("{{{}}}", req.join(", "))
                };
                let args = match validate::json::parse(args_text) {
                    Ok(j) => literal(&j, js),
                    Err(_) => args_text.clone(),
                };
                format!("{name}({{{}}}, {req}, {args})", fields.join(", "))
            }
            Call::Execute {
                tool,
                args,
                context,
                mutate,
                ..
            } => {
                let edit = if *mutate {
                    ", then the caller edits the returned ticket"
                } else {
                    ""
                };
                format!(
                    "{name}({}, {}, {}, records){edit}",
                    quote(tool),
                    literal(&Json::from_value(args), js),
                    literal(&Json::from_value(&context_value(context)), js)
                )
            }
        }
    }

    /// The expected result, written the way the learner's language would show it.
    pub(crate) fn show_expected(&self, js: bool) -> String {
        match &self.expected {
            Expected::Verdict { ok: true, .. } => "(True, \"\")".to_owned(),
            Expected::Verdict {
                ok: false,
                messages,
            } => {
                let quoted: Vec<String> = messages.iter().map(|m| quote(m)).collect();
                format!("(False, {})", quoted.join(" or "))
            }
            Expected::Envelope {
                envelope,
                store_unchanged_after_edit,
            } => {
                let mut text = show_envelope(envelope, js);
                if let Some(same) = store_unchanged_after_edit {
                    text.push_str(if *same {
                        ", store unchanged after the edit"
                    } else {
                        ", store changed after the edit"
                    });
                }
                text
            }
        }
    }
}

/// `{"ok": true, "ticket": {...}}` or `{"ok": false, "code": "..."}` (no detail: that part
/// is ours and free-form).
pub(crate) fn show_envelope(envelope: &Envelope, js: bool) -> String {
    let v = match envelope {
        Envelope::Ok { ticket } => {
            json!({"ok": true, "ticket": {"id": ticket.id, "title": ticket.title, "status": ticket.status}})
        }
        Envelope::Err { code, .. } => json!({"ok": false, "code": code.as_str()}),
    };
    let text = validate::json::dumps(&v);
    if js {
        text
    } else {
        text.replace("\"ok\": true", "\"ok\": True")
            .replace("\"ok\": false", "\"ok\": False")
    }
}

/// A value as the learner's language writes it: JSON for JavaScript, Python literals
/// (`True`, `None`, `3.0`) for Python.
fn literal(v: &Json<'_>, js: bool) -> String {
    let mut out = String::new();
    write_literal(v, js, &mut out);
    out
}

fn write_literal(v: &Json<'_>, js: bool, out: &mut String) {
    let list = |items: &mut dyn Iterator<Item = String>| items.collect::<Vec<_>>().join(", ");
    match v {
        Json::Null => out.push_str(if js { "null" } else { "None" }),
        Json::Bool(b) => out.push_str(match (b, js) {
            (true, true) => "true",
            (false, true) => "false",
            (true, false) => "True",
            (false, false) => "False",
        }),
        Json::Int(i) => out.push_str(&i.to_string()),
        Json::BigInt(t) => out.push_str(t),
        Json::Float(f) => out.push_str(&validate::json::show_f64(*f)),
        Json::Str(s) => out.push_str(&quote(s)),
        Json::Array(items) => {
            let inner = list(&mut items.iter().map(|i| literal(i, js)));
            out.push_str(&format!("[{inner}]"));
        }
        Json::Object(fields) => {
            let inner = list(
                &mut fields
                    .iter()
                    .map(|(k, v)| format!("{}: {}", quote(k), literal(v, js))),
            );
            out.push_str(&format!("{{{inner}}}"));
        }
    }
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}
