//! Compare what the learner's function answered with what the real code expects.

use serde_json::Value;

use super::cases::{Call, Expected, Row};
use crate::executor::Envelope;
use crate::validate::json::{cut, dumps};

/// The verdict on one answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Judged {
    pub(crate) pass: bool,
    /// What the learner's function gave, written like the expected result.
    pub(crate) actual: String,
    /// Why it is wrong, when the actual text alone does not say it.
    pub(crate) note: Option<String>,
    /// The trap the answer fell into, when the row tests one and the answer shows it.
    pub(crate) trap: Option<super::trap::Trap>,
    /// The answer had the right shape and a wrong value: the row's trap may explain it.
    wrong_value: bool,
}

impl Judged {
    /// An answer that is not what the function must return at all.
    fn fail(actual: String, note: impl Into<String>) -> Self {
        Judged {
            pass: false,
            actual,
            note: Some(note.into()),
            trap: None,
            wrong_value: false,
        }
    }

    /// A well-formed answer with the wrong value.
    fn wrong(actual: String, note: impl Into<String>) -> Self {
        Judged {
            wrong_value: true,
            ..Judged::fail(actual, note)
        }
    }
}

/// Judge one harness answer line (already parsed).
pub(crate) fn judge(row: &Row, answer: &Value, js: bool) -> Judged {
    if let Some(error) = answer.get("error").and_then(Value::as_str) {
        let at = answer
            .get("line")
            .and_then(Value::as_u64)
            .map(|l| format!(" (line {l})"))
            .unwrap_or_default();
        return Judged::fail(
            format!("raised {}{at}", cut(error, 200)),
            "your function raised an error instead of returning a result",
        );
    }
    let Some(result) = answer.get("result") else {
        return Judged::fail("no answer".into(), "the harness got no result back");
    };
    let store = Store {
        sent: row.store_value(),
        after: answer.get("store_after"),
        after_edit: answer.get("store_after_edit"),
    };
    let mut judged = match (&row.expected, &row.call) {
        (Expected::Verdict { ok, messages }, _) => judge_verdict(*ok, messages, result),
        (
            Expected::Envelope {
                envelope,
                store_unchanged_after_edit,
            },
            Call::Execute { .. },
        ) => judge_envelope(envelope, *store_unchanged_after_edit, result, &store, js),
        (Expected::Envelope { .. }, Call::Validate { .. }) => {
            return Judged::fail("no answer".into(), "this row does not fit the function");
        }
    };
    // A wrong answer says which trap it fell into, where the row tests a named one and the
    // answer shows it (a refusal with the wrong code did not return the stored object).
    if judged.wrong_value
        && let Some(value) = result.get("value")
    {
        let edited = store.changed_by_caller() == Some(true);
        judged.trap = super::trap::fallen_into(row, value, edited);
        if let (Some(note), Some(trap)) = (&judged.note, judged.trap) {
            judged.note = Some(format!("{note}; {}", trap.why));
        }
    }
    judged
}

/// `value` when the harness could encode it, else the interpreter's own rendering.
fn shown(result: &Value, js: bool) -> String {
    let ty = result.get("type").and_then(Value::as_str).unwrap_or("?");
    match (
        result.get("value"),
        result.get("repr").and_then(Value::as_str),
    ) {
        (Some(v), _) if js => cut(&dumps(v), 300),
        (Some(v), _) => cut(&python_literals(&dumps(v)), 300),
        (None, Some(r)) => format!("{} ({ty})", cut(r, 200)),
        (None, None) => ty.to_owned(),
    }
}

fn python_literals(text: &str) -> String {
    text.replace(": true", ": True")
        .replace(": false", ": False")
        .replace(": null", ": None")
}

fn judge_verdict(ok: bool, messages: &[String], result: &Value) -> Judged {
    let ty = result.get("type").and_then(Value::as_str).unwrap_or("?");
    let pair = result.get("value").and_then(Value::as_array);
    let parts = match pair.map(Vec::as_slice) {
        Some([Value::Bool(got_ok), Value::String(msg)]) if ty == "tuple" => (*got_ok, msg.as_str()),
        _ => {
            return Judged::fail(
                shown(result, false),
                format!("return a tuple (ok, message) with a bool and a str, not a {ty}"),
            );
        }
    };
    let actual = format!(
        "({}, {})",
        if parts.0 { "True" } else { "False" },
        serde_json::to_string(parts.1).unwrap_or_default()
    );
    let pass = parts.0 == ok
        && if ok {
            parts.1.is_empty()
        } else {
            messages.iter().any(|m| m == parts.1)
        };
    let note = match (pass, parts.0 == ok) {
        (true, _) => None,
        (false, true) if ok => Some("a passing call returns an empty message".to_owned()),
        (false, true) if messages.iter().any(|m| same_but_blanks(m, parts.1)) => Some(
            "the right verdict and message but for its blanks: a space doubled, missing, at an end, or a tab"
                .to_owned(),
        ),
        (false, true) => Some("the right verdict, but not the first failure in check order (or not the exact message)".to_owned()),
        (false, false) if ok => Some("these args are valid, but your function rejected them".to_owned()),
        (false, false) => Some("these args break the contract, but your function let them through".to_owned()),
    };
    Judged {
        pass,
        actual,
        note,
        trap: None,
        wrong_value: !pass,
    }
}

/// Do two messages differ only in their blanks (spaces, tabs, newlines)?
fn same_but_blanks(a: &str, b: &str) -> bool {
    let letters = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    a != b && letters(a) == letters(b)
}

/// The store as the grader sent it and as the harness read it back (its JSON after the
/// call, and after the caller's edit on the rows that make one). The grader compares them
/// itself: the child reports data, never whether it changed.
struct Store<'a> {
    sent: Option<Value>,
    after: Option<&'a Value>,
    after_edit: Option<&'a Value>,
}

impl Store<'_> {
    /// Whether the store read back after the caller's edit differs from what was sent (an
    /// unreadable store counts as changed); `None` on a row without the edit.
    fn changed_by_caller(&self) -> Option<bool> {
        self.after_edit.map(|v| Some(v) != self.sent.as_ref())
    }
}

fn judge_envelope(
    expected: &Envelope,
    unchanged_after_edit: Option<bool>,
    result: &Value,
    store: &Store<'_>,
    js: bool,
) -> Judged {
    let mut actual = shown(result, js);
    let changed_by_caller = store.changed_by_caller();
    if let Some(changed) = changed_by_caller {
        actual.push_str(if changed {
            ", store changed after the edit"
        } else {
            ", store unchanged after the edit"
        });
    }
    let Some(Value::Object(got)) = result.get("value") else {
        return Judged::fail(actual, "return an object with a boolean ok");
    };
    match store.after {
        Some(Value::Null) | None => {
            return Judged::fail(
                actual,
                "the store could not be read back after the call (it holds something that is not plain data)",
            );
        }
        Some(after) if Some(after) != store.sent.as_ref() => {
            return Judged::fail(actual, "your function changed the store while answering");
        }
        Some(_) => {}
    }
    let Some(Value::Bool(got_ok)) = got.get("ok") else {
        return Judged::fail(actual, "ok must be a boolean");
    };
    let note = match (expected, got_ok) {
        (Envelope::Ok { ticket }, true) => match got.get("ticket") {
            Some(Value::Object(t)) => {
                let extra: Vec<&str> = t
                    .keys()
                    .map(String::as_str)
                    .filter(|k| !["id", "title", "status"].contains(k))
                    .collect();
                let same = [
                    ("id", &ticket.id),
                    ("title", &ticket.title),
                    ("status", &ticket.status),
                ]
                .iter()
                .all(|(k, v)| t.get(*k).and_then(Value::as_str) == Some(v.as_str()));
                if !extra.is_empty() {
                    Some(format!(
                        "the ticket carries fields it must not: {}",
                        extra.join(", ")
                    ))
                } else if !same {
                    Some("a ticket came back, but not this tenant's ticket with this id".to_owned())
                } else {
                    None
                }
            }
            _ => Some("a success carries a ticket object".to_owned()),
        },
        (Envelope::Ok { .. }, false) => {
            Some("this call is valid and allowed; it should succeed".to_owned())
        }
        (Envelope::Err { code, .. }, false) => {
            let got_code = got.get("code").and_then(Value::as_str);
            (got_code != Some(code.as_str())).then(|| {
                format!(
                    "the code should be {} (the first check in order that fails)",
                    code.as_str()
                )
            })
        }
        (Envelope::Err { code, .. }, true) => {
            Some(format!("this call must be refused with {}", code.as_str()))
        }
    };
    if let Some(note) = note {
        return Judged::wrong(actual, note);
    }
    if unchanged_after_edit == Some(true) && changed_by_caller != Some(false) {
        return Judged::wrong(actual, "editing the returned ticket changed the store");
    }
    Judged {
        pass: true,
        actual,
        note: None,
        trap: None,
        wrong_value: false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::content::Content;
    use crate::practice::cases;

    fn row(id: &str) -> Row {
        cases::load(&Content::embedded())
            .unwrap()
            .into_iter()
            .find(|r| r.id == id)
            .unwrap()
    }

    #[test]
    fn a_tuple_with_the_right_message_passes() {
        let r = row("seed-missing");
        let a =
            json!({"result": {"type": "tuple", "value": [false, "missing required arg: city"]}});
        assert!(judge(&r, &a, false).pass);
        let list =
            json!({"result": {"type": "list", "value": [false, "missing required arg: city"]}});
        assert!(!judge(&r, &list, false).pass);
    }

    #[test]
    fn a_message_wrong_only_in_its_blanks_is_told_so() {
        let r = row("seed-missing");
        for msg in [
            "missing required arg:  city",
            "missing required arg:city",
            "missing required arg: city ",
            "missing\trequired arg: city",
        ] {
            let a = json!({"result": {"type": "tuple", "value": [false, msg]}});
            let j = judge(&r, &a, false);
            assert!(!j.pass, "{msg:?}");
            assert!(
                j.note
                    .as_deref()
                    .unwrap_or("")
                    .contains("but for its blanks"),
                "{msg:?}: {:?}",
                j.note
            );
        }
        let other = json!({"result": {"type": "tuple", "value": [false, "unknown arg: city"]}});
        let note = judge(&r, &other, false).note.unwrap_or_default();
        assert!(note.contains("check order"), "{note}");
    }

    #[test]
    fn either_missing_name_passes() {
        let r = row("held-order-two-missing");
        for name in ["origin", "target"] {
            let a = json!({"result": {"type": "tuple", "value": [false, format!("missing required arg: {name}")]}});
            assert!(judge(&r, &a, false).pass, "{name}");
        }
    }

    #[test]
    fn a_copied_description_fails() {
        let r = row("held-description-stays");
        let a = json!({"result": {"type": "dict", "value": {"ok": true, "ticket": {"id": "TKT-105", "title": "Export to CSV times out", "status": "open", "description": "x"}}}, "store_after": r.store_value()});
        let j = judge(&r, &a, false);
        assert!(!j.pass && j.note.unwrap().contains("description"));
    }

    #[test]
    fn an_edited_store_fails_the_edit_row() {
        let r = row("edge-mutation");
        let store = r.store_value().unwrap();
        let ticket = json!({"id": "TKT-104", "title": "Settings crash", "status": "open"});
        let good = json!({"result": {"type": "dict", "value": {"ok": true, "ticket": ticket}}, "store_after": store, "store_after_edit": store});
        assert!(judge(&r, &good, false).pass);
        let mut edited = store.clone();
        edited["alpha:TKT-104"]["title"] = json!("edited by the caller");
        let bad = json!({"result": {"type": "dict", "value": {"ok": true, "ticket": ticket}}, "store_after": store, "store_after_edit": edited});
        let j = judge(&r, &bad, false);
        assert!(!j.pass && j.actual.contains("store changed"));
    }

    #[test]
    fn the_store_is_judged_from_its_data_not_from_a_flag() {
        let r = row("edge-mutation");
        let store = r.store_value().unwrap();
        let ticket = json!({"id": "TKT-104", "title": "Settings crash", "status": "open"});
        // A verdict in the answer counts for nothing: only the store read back does.
        let mut edited = store.clone();
        edited["alpha:TKT-104"]["status"] = json!("deleted");
        let forged = json!({"result": {"type": "dict", "value": {"ok": true, "ticket": ticket}}, "store_changed": false, "store_changed_by_caller": false, "store_after": store, "store_after_edit": edited});
        assert!(!judge(&r, &forged, false).pass);
        let unread = json!({"result": {"type": "dict", "value": {"ok": true, "ticket": ticket}}, "store_after": null, "store_after_edit": store});
        let j = judge(&r, &unread, false);
        assert!(!j.pass && j.note.unwrap().contains("read back"));
        let missing = json!({"result": {"type": "dict", "value": {"ok": true, "ticket": ticket}}, "store_after": store});
        assert!(
            !judge(&r, &missing, false).pass,
            "an edit row needs the store after the edit"
        );
    }

    #[test]
    fn a_trap_is_named_only_when_the_answer_shows_it() {
        let why = |id: &str, value: serde_json::Value| {
            let r = row(id);
            let mut a =
                json!({"result": {"type": "dict", "value": value}, "store_after": r.store_value()});
            if let Some(store) = r.store_value().filter(|_| id.contains("edit")) {
                a["store_after_edit"] = store;
            }
            let j = judge(&r, &a, false);
            assert!(!j.pass, "{id}");
            (j.note.unwrap_or_default(), j.trap.map(|t| t.name))
        };
        let not_found = json!({"ok": false, "code": "not_found"});
        // A refusal sent nothing out whole and returned no stored object.
        let (note, trap) = why("held-description-stays", not_found.clone());
        assert_eq!(trap, None);
        assert!(!note.contains("description"), "{note}");
        assert!(note.contains("should succeed"), "{note}");
        let (note, trap) = why("held-caller-edits-copy", not_found.clone());
        assert_eq!(trap, None);
        assert!(!note.contains("stored object"), "{note}");
        // An id the pattern let through, to a lookup that found nothing: that is the trap.
        let (note, trap) = why("held-devanagari-digits", not_found);
        assert_eq!(trap, Some("\\d matches Unicode digits"), "{note}");
        // Refused before the id was looked at: not the id's trap.
        let (note, trap) = why(
            "held-devanagari-digits",
            json!({"ok": false, "code": "unknown_tool"}),
        );
        assert_eq!(trap, None, "{note}");
        // Right verdict, wrong message: not the bool trap.
        let r = row("held-bool-count");
        let a = json!({"result": {"type": "tuple", "value": [false, "unknown arg: x"]}});
        assert_eq!(judge(&r, &a, false).trap, None);
        let a = json!({"result": {"type": "tuple", "value": [true, ""]}});
        assert_eq!(
            judge(&r, &a, false).trap.map(|t| t.name),
            Some("bool is a subclass of int")
        );
    }

    #[test]
    fn errors_name_the_line() {
        let r = row("row-1");
        let a = json!({"error": "KeyError: 'ticket_id'", "line": 7});
        let j = judge(&r, &a, false);
        assert!(!j.pass && j.actual.contains("line 7"));
    }
}
