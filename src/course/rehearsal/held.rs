//! The grader's held-back edge cases as rows to predict: the call as the learner's own
//! function would receive it, and the outcome the real code gives.

use super::predict::{Predict, Source};
use crate::executor::Envelope;
use crate::practice::cases::{Expected, Row};
use crate::practice::{Function, Origin};

const VERDICTS: [&str; 6] = ["ok", "missing", "unknown", "type", "value", "parse"];
const CODES: [&str; 5] = [
    "ok",
    "unknown_tool",
    "invalid_arguments",
    "forbidden",
    "not_found",
];
const STORE: [&str; 2] = ["store unchanged", "store changed"];

/// The check word of a validator message (`type error: ...` is `type`).
fn verdict_word(message: &str) -> &'static str {
    if message.starts_with("missing") {
        "missing"
    } else if message.starts_with("unknown") {
        "unknown"
    } else if message.starts_with("type") {
        "type"
    } else if message.starts_with("value") {
        "value"
    } else {
        "parse"
    }
}

fn envelope_word(envelope: &Envelope) -> String {
    let v = envelope.to_value();
    if v.get("ok").and_then(serde_json::Value::as_bool) == Some(true) {
        return "ok".to_owned();
    }
    v.get("code")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("error")
        .to_owned()
}

/// One held-back row as a prediction (fixture rows are asked from the fixtures already).
pub(super) fn predict(row: &Row) -> Option<Predict> {
    if row.origin != Origin::HeldBack {
        return None;
    }
    let (who, choices, answer) = match &row.expected {
        Expected::Verdict { ok: true, .. } => {
            ("the real validator", VERDICTS.to_vec(), "ok".to_owned())
        }
        Expected::Verdict { messages, .. } => {
            let word = verdict_word(messages.first().map_or("", String::as_str));
            ("the real validator", VERDICTS.to_vec(), word.to_owned())
        }
        Expected::Envelope {
            store_unchanged_after_edit: Some(same),
            ..
        } => {
            let word = if *same { STORE[0] } else { STORE[1] };
            ("the real executor", STORE.to_vec(), word.to_owned())
        }
        Expected::Envelope { envelope, .. } => {
            ("the real executor", CODES.to_vec(), envelope_word(envelope))
        }
    };
    if !choices.contains(&answer.as_str()) {
        return None;
    }
    let name = match row.function {
        Function::Validate => "validate_tool_args",
        Function::Execute => "execute_tool",
    };
    let trap = crate::practice::trap::of(row);
    let reason = match trap {
        Some(t) => format!("An edge case the lessons never show: {}.", t.why),
        None => {
            format!("An edge case the lessons never show: the grader asks it of your own {name}.")
        }
    };
    Some(Predict {
        id: format!("held/{}", row.id),
        source: Source::HeldBack,
        lesson: row.lesson.to_owned(),
        who,
        prompt: vec![("call", crate::sanitize::clean(&row.show_call(false), false))],
        choices,
        tests: trap.map_or_else(
            || super::predict::rule_tested(&answer).to_owned(),
            |t| t.name.to_owned(),
        ),
        answer,
        result: crate::sanitize::clean(&row.show_expected(false), false),
        reason,
    })
}
