//! The drill's rows on real declarations and protocols: the wire rows of the fixtures as
//! predictions, and held-back rows the lessons never show, nested calls against the
//! fixtures' declarations and recorded results in each protocol, each answered by the real
//! validator or the protocols' pairing rules. A drill names a call by its place in the turn
//! ("2nd call"), since the choices are the same words for every row.

use serde_json::Value;

use super::predict::{Predict, Source};
use crate::course::lab::validator_run;
use crate::course::lab::wire::{self, FLAG_GROUP, Flag, WireCase};
use crate::json_text::json_compact;
use crate::sanitize::clean;
use crate::validate::cases::{NamedSchema, ValidatorCase};

/// How a drill names the calls of a turn, in order, then none of them.
const PLACES: [&str; 6] = [
    "1st call", "2nd call", "3rd call", "4th call", "5th call", "6th call",
];
const NO_CALL: &str = "no call";
const FLAGS: [&str; 4] = ["flagged", "not flagged", "no flag exists", "JSON-RPC error"];

/// Nested calls against the fixtures' declarations that no lesson shows, in the validator
/// rows' own format.
const HELD_NESTED: &str = r#"[
 {"id": "held-nested-deep-missing", "group": "nested", "schema": "send_replacement",
  "args": {"ticket_id": "TKT-104", "items": [{"qty": 1}]},
  "expected": {"ok": false, "error": "missing required arg: items[0].sku"},
  "reason": "An edge case the lessons never show: a part without its stock number, reported at its path in the list."},
 {"id": "held-nested-null-object", "group": "nested", "schema": "find_tickets",
  "args": {"filter": null, "page_size": 20, "note": null},
  "expected": {"ok": false, "error": "type error: filter expected dict, got NoneType"},
  "reason": "An edge case the lessons never show: filter may not be null, since only note and status were declared nullable."},
 {"id": "held-nested-bool-qty", "group": "nested", "schema": "send_replacement",
  "args": {"ticket_id": "TKT-104", "items": [{"sku": "BAT-0001", "qty": true}]},
  "expected": {"ok": false, "error": "type error: items[0].qty expected int, got bool"},
  "reason": "An edge case the lessons never show: the bool guard holds at every depth, inside a referenced definition too."},
 {"id": "held-nested-float-qty", "group": "nested", "schema": "send_replacement",
  "args": {"ticket_id": "TKT-104", "items": [{"sku": "BAT-0001", "qty": 2.0}]},
  "expected": {"ok": false, "error": "type error: items[0].qty expected int, got float"},
  "reason": "An edge case the lessons never show: 2.0 is a float to Python, inside a list as at the top."},
 {"id": "held-nested-open-type", "group": "open", "schema": "tag_ticket",
  "args": {"ticket_id": "TKT-104", "labels": {"area": 5}},
  "expected": {"ok": false, "error": "type error: labels.area expected str, got int"},
  "reason": "An edge case the lessons never show: an open object still checks the keys it declares."},
 {"id": "held-nested-leap-day", "group": "format", "schema": "send_replacement",
  "args": {"ticket_id": "TKT-104", "items": [{"sku": "BAT-0001", "qty": 1}], "ship_by": "2028-02-29"},
  "expected": {"ok": true, "error": ""},
  "reason": "An edge case the lessons never show: 2028 is a leap year, so its 29 February is a real day."},
 {"id": "held-nested-too-many", "group": "ref", "schema": "send_replacement",
  "args": {"ticket_id": "TKT-104", "items": [{"sku": "AAA-0001", "qty": 1}, {"sku": "AAA-0002", "qty": 1}, {"sku": "AAA-0003", "qty": 1}, {"sku": "AAA-0004", "qty": 1}, {"sku": "AAA-0005", "qty": 1}, {"sku": "AAA-0006", "qty": 1}]},
  "expected": {"ok": false, "error": "value error: items must have at most 5 items, got 6"},
  "reason": "An edge case the lessons never show: maxItems bounds the list, whatever its parts hold."},
 {"id": "held-nested-newline-sku", "group": "ref", "schema": "send_replacement",
  "args": {"ticket_id": "TKT-104", "items": [{"sku": "BAT-0001\n", "qty": 1}]},
  "expected": {"ok": false, "error": "value error: items[0].sku must match the pattern ^[A-Z]{3}-[0-9]{4}$, got \"BAT-0001\\n\""},
  "reason": "An edge case the lessons never show: ECMA-262's $ is the very end, so a trailing newline fails the pattern at depth too."},
 {"id": "held-nested-tenant-closed", "group": "nested", "schema": "find_tickets",
  "args": {"filter": {"since": "2026-03-01", "status": null, "tags": []}, "page_size": 20, "note": null, "tenant": "beta"},
  "expected": {"ok": false, "error": "unknown arg: tenant"},
  "reason": "An edge case the lessons never show: a closed declaration refuses a tenant key at the validator already."}
]"#;

/// Calls against the shipped tools file's `search_issues` (as written, and with its trap
/// report's fixes applied) and against the recorded log's ticket tools that lesson 16 never
/// shows, in the validator rows' own format.
const HELD_YOURS: &str = r#"[
 {"id": "held-yours-eleven-labels", "group": "yours", "schema": "search_issues",
  "args": {"repo": "acme/web", "query": "crash", "labels": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]},
  "expected": {"ok": false, "error": "value error: labels must have at most 10 items, got 11"},
  "reason": "An edge case the lesson never shows: the list has its maxItems even though its strings have no maxLength."},
 {"id": "held-yours-state-space", "group": "yours", "schema": "search_issues",
  "args": {"repo": "acme/web", "query": "crash", "state": "open "},
  "expected": {"ok": false, "error": "value error: state must be one of \"open\", \"closed\", \"all\", got \"open \""},
  "reason": "An edge case the lesson never shows: a trailing space is another value to an enum."},
 {"id": "held-yours-empty-query", "group": "yours", "schema": "search_issues",
  "args": {"repo": "acme/web", "query": ""},
  "expected": {"ok": false, "error": "value error: query must be at least 1 character long, got 0 (\"\")"},
  "reason": "An edge case the lesson never shows: query is required and has a minLength, so the empty string is refused."},
 {"id": "held-yours-negative-page", "group": "yours", "schema": "search_issues",
  "args": {"repo": "acme/web", "query": "crash", "per_page": -5},
  "expected": {"ok": false, "error": "value error: per_page must be >= 1, got -5"},
  "reason": "An edge case the lesson never shows: the one bound per_page has holds below; only the top was open."},
 {"id": "held-fixed-page-one", "group": "fixed", "schema": "search_issues_fixed",
  "args": {"repo": "acme/web", "query": "crash", "per_page": 1},
  "expected": {"ok": true, "error": ""},
  "reason": "An edge case the lesson never shows: the fixes close the top and keep the old minimum, so 1 still passes."},
 {"id": "held-fixed-missing-first", "group": "fixed", "schema": "search_issues_fixed",
  "args": {"query": "crash", "note": "y"},
  "expected": {"ok": false, "error": "missing required arg: repo"},
  "reason": "An edge case the lesson never shows: closing the object adds an unknown-key check, and the missing-field check still runs before it."},
 {"id": "held-fixed-state-null", "group": "fixed", "schema": "search_issues_fixed",
  "args": {"repo": "acme/web", "query": "crash", "state": null},
  "expected": {"ok": false, "error": "type error: state expected str, got NoneType"},
  "reason": "An edge case the lesson never shows: an optional field may be left out, not sent as null."},
 {"id": "held-fixed-repo-space", "group": "fixed", "schema": "search_issues_fixed",
  "args": {"repo": "acme web", "query": "crash"},
  "expected": {"ok": false, "error": "value error: repo must match the pattern ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$, got \"acme web\""},
  "reason": "An edge case the lesson never shows: the fixes add keywords and take none away, so the pattern still holds."},
 {"id": "held-log-close-bare-number", "group": "log", "schema": "close_ticket",
  "args": {"ticket_id": "205"},
  "expected": {"ok": false, "error": "value error: ticket_id must match the pattern ^TKT-[0-9]{3}$, got \"205\""},
  "reason": "An edge case the lesson never shows: the number as a string passes the type check and fails the pattern."},
 {"id": "held-log-search-page-200", "group": "log", "schema": "search_tickets",
  "args": {"query": "login timeout", "page_size": 200},
  "expected": {"ok": false, "error": "value error: page_size must be <= 100, got 200"},
  "reason": "An edge case the lesson never shows: had the storm's calls asked for 200, the validator would have refused each."}
]"#;

/// Recorded results in each protocol that no lesson shows, in the wire rows' own format.
const HELD_WIRE: &str = r#"[
 {"id": "held-wire-third-of-three", "group": "pairing", "protocol": "anthropic",
  "calls": {"role": "assistant", "content": [
   {"type": "tool_use", "id": "toolu_11", "name": "get_ticket", "input": {"ticket_id": "TKT-104"}},
   {"type": "tool_use", "id": "toolu_12", "name": "get_ticket", "input": {"ticket_id": "TKT-105"}},
   {"type": "tool_use", "id": "toolu_13", "name": "get_ticket", "input": {"ticket_id": "TKT-106"}}]},
  "result": {"type": "tool_result", "tool_use_id": "toolu_13", "content": "{\"ok\": true, \"ticket\": {\"id\": \"TKT-106\", \"title\": \"Export times out\", \"status\": \"open\"}}"},
  "expected": {"answers": "toolu_13", "flag": "not_flagged"},
  "reason": "An edge case the lessons never show: the result names toolu_13, the third call, wherever it sits in the message."},
 {"id": "held-wire-chat-first-named-last", "group": "pairing", "protocol": "openai-chat",
  "calls": {"role": "assistant", "content": null, "tool_calls": [
   {"id": "call_p", "type": "function", "function": {"name": "get_ticket", "arguments": "{\"ticket_id\": \"TKT-104\"}"}},
   {"id": "call_q", "type": "function", "function": {"name": "get_ticket", "arguments": "{\"ticket_id\": \"TKT-106\"}"}}]},
  "result": {"role": "tool", "tool_call_id": "call_p", "content": "{\"ok\": true, \"ticket\": {\"id\": \"TKT-106\", \"title\": \"Export times out\", \"status\": \"open\"}}"},
  "expected": {"answers": "call_p", "flag": "no_flag"},
  "reason": "An edge case the lessons never show: the id pairs it with the first call, so TKT-106's ticket is read as the answer about TKT-104."},
 {"id": "held-wire-responses-unknown-call", "group": "pairing", "protocol": "openai-responses",
  "calls": [
   {"type": "function_call", "id": "fc_7", "call_id": "call_7", "name": "get_ticket", "arguments": "{\"ticket_id\": \"TKT-104\"}"},
   {"type": "function_call", "id": "fc_8", "call_id": "call_8", "name": "get_ticket", "arguments": "{\"ticket_id\": \"TKT-105\"}"}],
  "result": {"type": "function_call_output", "call_id": "call_9", "output": "{\"ok\": true}"},
  "expected": {"answers": null, "flag": "no_flag"},
  "reason": "An edge case the lessons never show: call_9 is no call of the turn, so this output answers nothing."},
 {"id": "held-wire-mcp-middle", "group": "pairing", "protocol": "mcp",
  "calls": [
   {"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {"name": "get_ticket", "arguments": {"ticket_id": "TKT-104"}}},
   {"jsonrpc": "2.0", "id": 21, "method": "tools/call", "params": {"name": "get_ticket", "arguments": {"ticket_id": "TKT-105"}}},
   {"jsonrpc": "2.0", "id": 22, "method": "tools/call", "params": {"name": "get_ticket", "arguments": {"ticket_id": "TKT-106"}}}],
  "result": {"jsonrpc": "2.0", "id": 21, "result": {"content": [{"type": "text", "text": "{\"ok\": true}"}]}},
  "expected": {"answers": "21", "flag": "not_flagged"},
  "reason": "An edge case the lessons never show: the response carries id 21, the request in the middle."},
 {"id": "held-wire-anthropic-false-flag", "group": "flag", "protocol": "anthropic",
  "calls": {"role": "assistant", "content": [
   {"type": "tool_use", "id": "toolu_21", "name": "get_ticket", "input": {"ticket_id": "TKT-10"}}]},
  "result": {"type": "tool_result", "tool_use_id": "toolu_21", "content": "value error: ticket_id must match the pattern ^TKT-[0-9]{3}$, got \"TKT-10\"", "is_error": false},
  "expected": {"answers": "toolu_21", "flag": "not_flagged"},
  "reason": "An edge case the lessons never show: a validator's message sent with is_error false reads as the tool's data."},
 {"id": "held-wire-responses-no-flag", "group": "flag", "protocol": "openai-responses",
  "calls": [
   {"type": "function_call", "id": "fc_9", "call_id": "call_9", "name": "get_ticket", "arguments": "{\"ticket_id\": \"TKT-104\", \"tenant\": \"beta\"}"}],
  "result": {"type": "function_call_output", "call_id": "call_9", "output": "{\"ok\": false, \"code\": \"invalid_arguments\", \"detail\": \"unknown arg: tenant\"}"},
  "expected": {"answers": "call_9", "flag": "no_flag"},
  "reason": "An edge case the lessons never show: the output is a string, and only its envelope says the call was refused."},
 {"id": "held-wire-mcp-refusal-flagged", "group": "flag", "protocol": "mcp",
  "calls": [
   {"jsonrpc": "2.0", "id": 30, "method": "tools/call", "params": {"name": "get_ticket", "arguments": {"ticket_id": "TKT-104"}}}],
  "result": {"jsonrpc": "2.0", "id": 30, "result": {"content": [{"type": "text", "text": "{\"ok\": false, \"code\": \"forbidden\"}"}], "structuredContent": {"ok": false, "code": "forbidden"}, "isError": true}},
  "expected": {"answers": "30", "flag": "flagged"},
  "reason": "An edge case the lessons never show: a refusal reported as MCP asks, isError true beside the typed code."}
]"#;

/// The lesson that shows a fixture group, found by the caller.
pub(super) type LessonOf<'a> = &'a dyn Fn(&str, &str, &str) -> String;

/// A validator case as a prediction, answered by the real validator (`None`: the case does
/// not run).
pub(super) fn validator_predict(
    case: &ValidatorCase,
    named: &[(String, NamedSchema)],
    lesson: String,
    source: Source,
) -> Option<Predict> {
    let run = validator_run::run_validator_case(case, named, None).ok()?;
    let verdict = run.verdict();
    let (schema, required) = schema_shown(&case.schema, &case.required, named);
    let mut prompt = vec![("schema", clean(&schema, false))];
    if !required.is_empty() {
        prompt.push(("required", clean(&required.join(", "), false)));
    }
    let args = crate::course::lab::ArgsInput::from_case(&case.args, &case.args_text).display();
    prompt.push(("args", clean(&args, false)));
    let id = match source {
        Source::Fixture => format!("validator/{}", case.id),
        Source::HeldBack => format!("held/{}", case.id),
    };
    Some(Predict {
        id,
        source,
        lesson,
        who: "the real validator",
        prompt,
        // Every row offers the same six outcomes: a "parse" choice shown only on raw-text
        // rows would give the answer away.
        choices: vec!["ok", "missing", "unknown", "type", "value", "parse"],
        answer: run.outcome().to_owned(),
        tests: super::predict::validator_rule(
            run.outcome(),
            &verdict.error,
            &declared_required(&case.schema, &required),
        ),
        result: clean(&serde_json::to_string(&verdict).unwrap_or_default(), false),
        reason: clean(&case.reason, false),
    })
}

/// A wire case as a prediction, answered by the protocols' pairing rules (`None`: the case
/// does not run, or its turn has more calls than a drill names).
pub(super) fn wire_predict(case: &WireCase, lesson: String, source: Source) -> Option<Predict> {
    let run = wire::run(case).ok()?;
    if run.calls.len() > PLACES.len() {
        return None;
    }
    let asks_flag = case.group == FLAG_GROUP;
    let (choices, answer, tests) = if asks_flag {
        let i = Flag::ALL.iter().position(|f| *f == run.flag)?;
        (FLAGS.to_vec(), FLAGS[i], "the protocol's error flag")
    } else {
        let mut choices = PLACES[..run.calls.len()].to_vec();
        choices.push(NO_CALL);
        let answer = run.answers.map_or(NO_CALL, |i| PLACES[i]);
        (choices, answer, "pairing a result by its call id")
    };
    let id = match source {
        Source::Fixture => format!("wire/{}", case.id),
        Source::HeldBack => format!("held/{}", case.id),
    };
    let question = if asks_flag {
        "how does this result say the call failed, if it does?"
    } else {
        "which call does this result answer (1st, 2nd, ... as the calls are written)?"
    };
    Some(Predict {
        id,
        source,
        lesson,
        who: "the protocol",
        prompt: vec![
            ("protocol", case.protocol.title().to_owned()),
            ("calls", clean(&json_compact(&case.calls), false)),
            ("result", clean(&json_compact(&case.result), false)),
            ("asks", question.to_owned()),
        ],
        choices,
        answer: answer.to_owned(),
        result: clean(
            &serde_json::to_string(&run.expected_form()).unwrap_or_default(),
            false,
        ),
        reason: clean(&case.reason, false),
        tests: tests.to_owned(),
    })
}

/// A schema as the learner must see it to predict: a named one spelled out (its name
/// first), with the required names that apply.
fn schema_shown(
    schema: &serde_json::Value,
    required: &[String],
    named: &[(String, crate::validate::cases::NamedSchema)],
) -> (String, Vec<String>) {
    match schema {
        serde_json::Value::String(name) => match named.iter().find(|(n, _)| n == name) {
            Some((_, entry)) => {
                let req = if required.is_empty() {
                    entry.required.clone()
                } else {
                    required.to_vec()
                };
                (format!("{name} {}", json_compact(&entry.schema)), req)
            }
            None => (name.clone(), required.to_vec()),
        },
        other => (json_compact(other), required.to_vec()),
    }
}

/// The names a row requires: those it lists, and those its schema object lists itself.
fn declared_required(schema: &Value, listed: &[String]) -> Vec<String> {
    let own = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned);
    listed.iter().cloned().chain(own).collect()
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> Vec<T> {
    serde_json::from_str::<Vec<Value>>(text)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|v| serde_json::from_value(v).ok())
        .collect()
}

/// The held-back nested and protocol rows, each under the lesson that shows its group.
pub(super) fn held_back(named: &[(String, NamedSchema)], lesson_of: LessonOf) -> Vec<Predict> {
    let mut nested: Vec<ValidatorCase> = parse(HELD_NESTED);
    nested.extend(parse::<ValidatorCase>(HELD_YOURS));
    let recorded: Vec<WireCase> = parse(HELD_WIRE);
    let mut out: Vec<Predict> = nested
        .iter()
        .filter_map(|c| {
            let lesson = lesson_of("validator", &c.id, &c.group);
            validator_predict(c, named, lesson, Source::HeldBack)
        })
        .collect();
    out.extend(recorded.iter().filter_map(|c| {
        let lesson = lesson_of("wire", &c.id, &c.group);
        wire_predict(c, lesson, Source::HeldBack)
    }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;

    #[test]
    fn every_held_row_runs_and_the_real_code_agrees_with_it() {
        let content = Content::new(None, None);
        let named = validator_run::load_named_schemas(&content).unwrap();
        let mut nested: Vec<ValidatorCase> = serde_json::from_str(HELD_NESTED).unwrap();
        assert_eq!(nested.len(), parse::<ValidatorCase>(HELD_NESTED).len());
        let yours: Vec<ValidatorCase> = serde_json::from_str(HELD_YOURS).unwrap();
        assert_eq!(yours.len(), parse::<ValidatorCase>(HELD_YOURS).len());
        assert_eq!(yours.len(), 10);
        nested.extend(yours);
        for c in &nested {
            let run = validator_run::run_validator_case(c, &named, None).unwrap();
            assert_eq!(run.verdict(), c.expected, "{}", c.id);
        }
        let recorded: Vec<WireCase> = serde_json::from_str(HELD_WIRE).unwrap();
        for c in &recorded {
            assert_eq!(
                wire::run(c).unwrap().expected_form(),
                c.expected,
                "{}",
                c.id
            );
        }
        let rows = held_back(&named, &|_, _, _| "14-real-declarations".to_owned());
        assert_eq!(rows.len(), nested.len() + recorded.len());
        for r in &rows {
            assert!(r.choices.contains(&r.answer.as_str()), "{}", r.id);
            assert_eq!(r.source, Source::HeldBack);
        }
        // A pairing row names calls by their place; its answer is where the id points.
        let third = rows
            .iter()
            .find(|r| r.id == "held/held-wire-third-of-three")
            .unwrap();
        assert_eq!(third.answer, "3rd call");
        assert_eq!(
            third.choices,
            ["1st call", "2nd call", "3rd call", "no call"]
        );
    }

    #[test]
    fn held_ids_are_not_fixture_ids() {
        let content = Content::new(None, None);
        let fixture: Vec<String> = crate::validate::cases::validator_cases(&content)
            .unwrap()
            .into_iter()
            .map(|c| c.id)
            .chain(
                wire::wire_cases(&content)
                    .unwrap()
                    .into_iter()
                    .map(|c| c.id),
            )
            .collect();
        let mut held: Vec<ValidatorCase> = serde_json::from_str(HELD_NESTED).unwrap();
        held.extend(serde_json::from_str::<Vec<ValidatorCase>>(HELD_YOURS).unwrap());
        let recorded: Vec<WireCase> = serde_json::from_str(HELD_WIRE).unwrap();
        for id in held
            .iter()
            .map(|c| &c.id)
            .chain(recorded.iter().map(|c| &c.id))
        {
            assert!(
                !fixture.contains(id),
                "{id} is a fixture row: the lessons show it"
            );
        }
    }
}
