//! The grader's held-back edge cases as rows to predict: the call as the learner's own
//! function would receive it, and the outcome the real code gives.

use super::predict::{Predict, Source};
use crate::executor::Envelope;
use crate::practice::cases::{Call, Expected, Row};
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

/// Why each held-back row's real outcome is the right one, by row id. (A row's trap says
/// what a wrong answer that fell into it looks like: the grader's words for a failing row,
/// not the reason the real outcome is right.)
const REASONS: &[(&str, &str)] = &[
    (
        "held-bool-count",
        "count is declared int and True is a bool; Python counts a bool as an int (isinstance(True, int) is True), so the validator checks for bool first and answers with a type error",
    ),
    (
        "held-bool-retries",
        "retries is declared int and False is a bool: the bool check comes before the int check, so even False, which Python takes for 0, is a type error",
    ),
    (
        "held-bool-where-bool",
        "notify is declared bool, so True is the right type there, and count's 0 is a real int: every check passes (the bool guard refuses a bool only where a number is declared)",
    ),
    (
        "held-order-all-three",
        "three things are wrong: city is missing, unit is not declared and days is a string; the checks run in order (missing, unknown, type, value), so the missing city is the answer",
    ),
    (
        "held-order-unknown-before-type",
        "zone is not declared and city is a number, not a string: the unknown-key check runs before the type check, so zone is the answer",
    ),
    (
        "held-order-types-as-written",
        "nothing is missing or unknown, and both values have the wrong type: the answer is a type error, reported for days, the first one written",
    ),
    (
        "held-order-two-missing",
        "origin and target are both required and neither is there, and via is not declared: the missing check runs before the unknown-key check, so the answer is missing",
    ),
    (
        "held-devanagari-digits",
        "the digits after TKT- are Devanagari, not ASCII 0-9, and an id is TKT- with three ASCII digits: the call is invalid_arguments",
    ),
    (
        "held-mixed-digits",
        "one of the digits is a fullwidth zero, not an ASCII 0, and an id is TKT- with three ASCII digits: the call is invalid_arguments",
    ),
    (
        "held-trailing-newline",
        "the id ends in a newline, and an id is TKT- with three digits and nothing after them: the call is invalid_arguments",
    ),
    (
        "held-unanchored-prefix",
        "XTKT-104 holds an id but is not one: the whole ticket_id must be TKT- and three digits, so the call is invalid_arguments",
    ),
    (
        "held-unanchored-suffix",
        "TKT-1044 has four digits and an id has exactly three: the call is invalid_arguments, though it begins like TKT-104",
    ),
    (
        "held-tenant-equals-session",
        "the arguments may hold ticket_id and nothing else, so a tenant key makes the call invalid_arguments, even one naming the session's own tenant: the tenant comes from the session's context, never from the arguments",
    ),
    (
        "held-caller-edits-copy",
        "the call succeeds and hands back a copy of the stored ticket: the caller edits that copy, so the store is unchanged",
    ),
    (
        "held-description-stays",
        "TKT-105 is in the session's tenant and the caller may read tickets, so the call succeeds; the ticket goes out with only its id, title and status, and the description stored with it stays behind",
    ),
    (
        "held-bool-id",
        "ticket_id is True, a bool, and an id must be a string: the call is invalid_arguments",
    ),
    (
        "held-order-tool-first",
        "close_ticket is not a registered tool, and the allowlist is checked first: the call is unknown_tool before its arguments (None, not an object) or the missing read permission are looked at",
    ),
    (
        "held-order-value-before-permission",
        "ticket_id is the number 104, not a string, and the arguments are checked before the read permission: the call is invalid_arguments, though this caller may not read tickets either",
    ),
    (
        "held-order-permission-before-lookup",
        "the context says this caller may not read tickets, and the permission is checked before the lookup: the call is forbidden, whether or not TKT-555 exists",
    ),
];

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

/// The rule a held-back row with no named trap tests; a validator row's type error names
/// its trap from the real message.
fn rule_of(row: &Row, answer: &str) -> String {
    match (&row.call, &row.expected) {
        (Call::Validate { required, .. }, Expected::Verdict { messages, .. }) => {
            let message = messages.first().map_or("", String::as_str);
            super::predict::validator_rule(answer, message, required)
        }
        _ => super::predict::rule_tested(answer).to_owned(),
    }
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
    let reason = match REASONS.iter().find(|(id, _)| *id == row.id) {
        Some((_, why)) => format!("An edge case the lessons never show: {why}."),
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
        tests: trap.map_or_else(|| rule_of(row, &answer), |t| t.name.to_owned()),
        answer,
        result: crate::sanitize::clean(&row.show_expected(false), false),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::{REASONS, predict};
    use crate::content::Content;
    use crate::practice::Origin;

    #[test]
    fn every_held_row_says_why_its_real_outcome_is_right_not_how_a_wrong_answer_looks() {
        let rows = crate::practice::cases::load(&Content::embedded()).unwrap();
        let held: Vec<_> = rows
            .iter()
            .filter(|r| r.origin == Origin::HeldBack)
            .collect();
        assert!(held.len() >= 15, "{}", held.len());
        for (id, _) in REASONS {
            assert!(held.iter().any(|r| r.id == *id), "{id} is a held-back row");
        }
        for row in held {
            let q = predict(row).unwrap_or_else(|| panic!("{} is asked", row.id));
            if let Some(trap) = crate::practice::trap::of(row) {
                assert!(
                    !q.reason.contains(trap.why),
                    "{}: the reason is the trap's wrong-answer sentence: {}",
                    row.id,
                    q.reason
                );
            }
            assert!(
                !q.reason.contains("the grader asks it"),
                "{} has a reason of its own: {}",
                row.id,
                q.reason
            );
        }
    }
}
