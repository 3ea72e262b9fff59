use serde_json::{Value, json};

use super::*;
use crate::tools::ToolSet;

fn tool_report(decl: Value) -> TrapReport {
    let set = ToolSet::from_value(&decl, None).unwrap();
    report(&set.tools[0])
}

fn search_issues() -> Value {
    json!({"name": "search_issues", "description": "Search issues in a repository",
    "inputSchema": {"type": "object", "required": ["repo", "query"], "properties": {
        "repo": {"type": "string", "pattern": "^[\\w.-]+/[\\w.-]+$"},
        "query": {"type": "string"},
        "labels": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
        "state": {"type": "string", "enum": ["open", "closed", "all"]},
        "per_page": {"type": "integer", "minimum": 1},
        "since": {"type": "string", "format": "date-time"},
        "filter": {"type": "object", "properties": {"author": {"type": "string"}}, "required": ["author"]}
    }}})
}

fn find<'r>(r: &'r TrapReport, kind: TrapKind, path: &str) -> &'r Trap {
    r.traps
        .iter()
        .find(|t| t.kind == kind && t.path == path)
        .unwrap_or_else(|| {
            panic!(
                "no {kind:?} trap on {path}: {:#?}",
                r.traps
                    .iter()
                    .map(|t| (&t.label, &t.path))
                    .collect::<Vec<_>>()
            )
        })
}

#[test]
fn the_report_judges_each_trap_by_the_validator() {
    let r = tool_report(search_issues());
    assert_eq!(r.note, None);
    assert!(r.unjudged.is_empty(), "{:?}", r.unjudged);
    assert_eq!(r.baseline, Some(json!({"repo": "a/a", "query": "example"})));
    let missing = find(&r, TrapKind::MissingRequired, "repo");
    assert!(!missing.ok);
    assert_eq!(missing.error, "missing required arg: repo");
    assert_eq!(missing.args, json!({"query": "example"}));
    let extra = find(&r, TrapKind::ExtraKey, "note");
    assert!(extra.ok);
    assert_eq!(
        extra.fix.as_ref().unwrap().snippet(),
        "\"additionalProperties\": false"
    );
    let nested = find(&r, TrapKind::ExtraKey, "filter.note");
    assert!(nested.ok);
    assert_eq!(nested.fix.as_ref().unwrap().at, "/properties/filter");
    assert_eq!(
        nested.args["filter"],
        json!({"author": "example", "note": "added by the model"})
    );
    let deep_missing = find(&r, TrapKind::MissingRequired, "filter.author");
    assert_eq!(deep_missing.error, "missing required arg: filter.author");
    let huge = find(&r, TrapKind::NoUpperBound, "per_page");
    assert!(huge.ok);
    assert_eq!(
        huge.fix.as_ref().unwrap().text(),
        "add \"maximum\": 100 on per_page"
    );
    let below = find(&r, TrapKind::PastBound, "per_page");
    assert!(!below.ok && below.args["per_page"] == json!(0), "{below:?}");
    let as_text = find(&r, TrapKind::StringForNumber, "per_page");
    assert!(!as_text.ok && as_text.args["per_page"] == json!("1"));
    assert!(!find(&r, TrapKind::BoolForNumber, "per_page").ok);
    let near = r
        .traps
        .iter()
        .filter(|t| t.kind == TrapKind::EnumNearMiss)
        .count();
    assert_eq!(near, 6);
    assert!(
        r.traps
            .iter()
            .filter(|t| t.kind == TrapKind::EnumNearMiss)
            .all(|t| !t.ok)
    );
    let digits = find(&r, TrapKind::UnicodeDigits, "repo");
    assert!(!digits.ok, "ECMA \\w is ASCII: {digits:?}");
    assert!(!find(&r, TrapKind::PatternMiss, "repo").ok);
    let date = find(&r, TrapKind::InvalidFormat, "since");
    assert!(!date.ok && date.args["since"] == json!("2026-02-30T10:00:00Z"));
    let long = find(&r, TrapKind::OverLong, "query");
    assert!(long.ok);
    assert_eq!(long.fix.as_ref().unwrap().snippet(), "\"maxLength\": 256");
    assert!(!find(&r, TrapKind::TooManyItems, "labels").ok);
    assert!(!find(&r, TrapKind::WrongItemType, "labels").ok);
    assert!(!find(&r, TrapKind::NullForField, "query").ok);
    assert!(!find(&r, TrapKind::EmptyObject, "").ok);
}

#[test]
fn untyped_and_unanchored_fields_let_traps_through_with_a_fix() {
    let r = tool_report(
        json!({"name": "t", "input_schema": {"type": "object", "properties": {
        "code": {"type": "string", "pattern": "[A-Z]{3}"},
        "anything": {"description": "no type"},
        "tags": {"type": "array"},
        "mode": {"type": ["string", "integer"]}
    }, "additionalProperties": false}}),
    );
    let miss = find(&r, TrapKind::PatternMiss, "code");
    assert!(miss.ok);
    assert_eq!(miss.fix.as_ref().unwrap().value, json!("^[A-Z]{3}$"));
    let null = find(&r, TrapKind::NullForField, "anything");
    assert!(null.ok);
    assert_eq!(null.fix.as_ref().unwrap().snippet(), "\"type\": \"string\"");
    let item = find(&r, TrapKind::WrongItemType, "tags");
    assert!(item.ok);
    assert_eq!(item.fix.as_ref().unwrap().key, "items");
    let num = find(&r, TrapKind::NumberForString, "mode");
    assert!(num.ok);
    assert_eq!(num.fix.as_ref().unwrap().value, json!("string"));
    let empty = find(&r, TrapKind::EmptyObject, "");
    assert!(empty.ok);
    assert_eq!(empty.fix.as_ref().unwrap().value, json!(["code"]));
    assert!(!find(&r, TrapKind::ExtraKey, "note").ok);
}

#[test]
fn every_fix_applied_closes_its_trap_and_keeps_the_baseline() {
    for decl in [
        search_issues(),
        json!({"name": "t", "input_schema": {"type": "object", "properties": {
            "code": {"type": "string", "pattern": "[A-Z]{3}"},
            "anything": {"description": "no type"},
            "tags": {"type": "array"},
            "mode": {"type": ["string", "integer"]}
        }}}),
    ] {
        let set = ToolSet::from_value(&decl, None).unwrap();
        let tool = &set.tools[0];
        let r = report(tool);
        for t in r.traps.iter().filter(|t| t.ok) {
            let Some(fix) = &t.fix else { continue };
            let fixed = apply_fixes(&tool.declaration, tool.format.form(), &[fix]);
            let v = crate::validate::Validator::from_value(&fixed).unwrap();
            assert!(
                !v.is_valid(&t.args, &ValidatorRules::ALL_ON),
                "{} still through after {}",
                t.label,
                fix.text()
            );
            assert!(
                v.is_valid(&t.control, &ValidatorRules::ALL_ON),
                "{} breaks {}",
                fix.text(),
                t.control
            );
        }
    }
}

#[test]
fn no_valid_arguments_means_only_the_empty_object_is_tried() {
    let r = tool_report(
        json!({"name": "t", "input_schema": {"type": "object", "required": ["a"],
        "properties": {"a": {"type": "string", "not": {"type": "string"}}}}}),
    );
    assert!(
        r.note.as_deref().unwrap().contains("no valid arguments"),
        "{:?}",
        r.note
    );
    assert_eq!(r.traps.len(), 1);
    assert_eq!(r.traps[0].kind, TrapKind::EmptyObject);
}

#[test]
fn a_function_without_parameters_is_judged_as_the_validator_reads_it() {
    // The validator takes a function declared without `parameters` as taking none.
    let r = tool_report(json!({"type": "function", "name": "ping"}));
    let extra = find(&r, TrapKind::ExtraKey, "note");
    assert!(!extra.ok);
    assert_eq!(extra.error, "unknown arg: note");
    assert!(
        r.traps.iter().all(|t| t.kind != TrapKind::EmptyObject),
        "{{}} is its one right call"
    );
}

#[test]
fn a_refused_declaration_has_no_traps() {
    let r = tool_report(json!({"name": "t", "input_schema": {"$ref": "https://example.com/x"}}));
    assert!(r.traps.is_empty());
    assert!(r.note.unwrap().contains("refuses"));
}

#[test]
fn short_args_show_only_the_changed_field() {
    let r = tool_report(search_issues());
    assert_eq!(
        find(&r, TrapKind::NoUpperBound, "per_page").short_args(60),
        "{…, \"per_page\": 1000000000}"
    );
    assert_eq!(
        find(&r, TrapKind::ExtraKey, "filter.note").short_args(80),
        "{…, \"filter\": {…, \"note\": \"added by the model\"}}"
    );
    assert_eq!(
        find(&r, TrapKind::MissingRequired, "repo").short_args(60),
        "{…} without repo"
    );
    assert_eq!(find(&r, TrapKind::EmptyObject, "").short_args(60), "{}");
    let long = find(&r, TrapKind::OverLong, "query").short_args(40);
    assert!(crate::text::width(&long) <= 40, "{long}");
}

#[test]
fn one_set_of_arguments_is_one_trap() {
    // `labels` is a list of strings: its wrong item type and its item's number for a
    // string both write `[7]`; a lone required field's absence is the empty object.
    for decl in [
        search_issues(),
        json!({"name": "t", "input_schema": {"type": "object", "required": ["a"],
            "properties": {"a": {"type": "string"}}}}),
    ] {
        let r = tool_report(decl);
        for (i, t) in r.traps.iter().enumerate() {
            let again = r.traps[..i].iter().find(|u| u.args == t.args);
            assert!(
                again.is_none(),
                "{} repeats {}: {}",
                t.title(),
                again.unwrap().title(),
                t.args
            );
        }
    }
    let r = tool_report(search_issues());
    assert!(!find(&r, TrapKind::WrongItemType, "labels").ok);
    assert!(
        !r.traps
            .iter()
            .any(|t| t.kind == TrapKind::NumberForString && t.path == "labels[0]")
    );
}

#[test]
fn short_args_keep_the_path_and_claim_no_items_that_are_not_there() {
    let r = tool_report(search_issues());
    // `labels` holds one item: nothing stands after it.
    assert_eq!(
        find(&r, TrapKind::WrongItemType, "labels").short_args(60),
        "{…, \"labels\": [7]}"
    );
    let long = find(&r, TrapKind::OverLong, "labels[0]").short_args(40);
    assert!(long.starts_with("{…, \"labels\": [\"example"), "{long}");
    assert!(
        long.ends_with("…]}") && crate::text::width(&long) <= 40,
        "{long}"
    );
    // Too narrow for the value: the path stays, the value is `…`.
    assert_eq!(
        find(&r, TrapKind::ExtraKey, "filter.note").short_args(30),
        "{…, \"filter\": {…, \"note\": …}}"
    );
}
