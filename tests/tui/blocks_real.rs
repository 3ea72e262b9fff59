//! predict tables and playgrounds run the REAL validator and executor: reveals, pipelines,
//! rule switches, save/restore, drawing.

use crate::blocks_support;

use std::sync::Arc;

use blocks_support::*;
use crossterm::event::KeyCode;
use serde_json::{Value, json};
use tooldojo::executor::Safeguard;
use tooldojo::executor::cases::ExecCase;
use tooldojo::executor::{Context, Record};
use tooldojo::switches::Switch;
use tooldojo::tui::blocks::playground::{
    self, ArgsInput, ExecutorPlayground, Panel, Stage, ValidatorPlayground,
};
use tooldojo::tui::blocks::predict::PredictWidget;
use tooldojo::tui::blocks::{BlockOutcome, BlockWidget};
use tooldojo::tui::theme::{Theme, ThemeName};
use tooldojo::validate::Rule;
use tooldojo::validate::cases::{NamedSchema, ValidatorCase, Verdict};

fn rec(tenant: &str, id: &str, title: &str, status: &str) -> Record {
    Record {
        tenant: tenant.into(),
        id: id.into(),
        title: title.into(),
        status: status.into(),
        description: None,
    }
}

fn records() -> Arc<Vec<Record>> {
    Arc::new(vec![
        rec("alpha", "TKT-104", "Settings crash", "open"),
        rec("beta", "TKT-104", "Private billing issue", "closed"),
    ])
}

fn ctx(tenant: &str, read: bool) -> Context {
    Context {
        tenant: tenant.into(),
        can_read_tickets: read,
        can_write_tickets: false,
    }
}

fn case(id: &str, label: &str, tool: &str, args: Value, c: Context, expected: Value) -> ExecCase {
    ExecCase {
        id: id.into(),
        group: "row".into(),
        label: label.into(),
        tool: tool.into(),
        args: Some(args),
        args_text: None,
        context: c,
        expected,
        reason: format!("reason of {id}"),
        mutate_result: false,
    }
}

/// The seed's eight rows, written out here so the test does not depend on the fixture file.
fn eight_rows() -> Vec<ExecCase> {
    let err = |code: &str| json!({"ok": false, "code": code});
    vec![
        case(
            "r1",
            "get_ticket, TKT-104",
            "get_ticket",
            json!({"ticket_id": "TKT-104"}),
            ctx("alpha", true),
            json!({"ok": true, "ticket": {"id": "TKT-104", "title": "Settings crash", "status": "open"}}),
        ),
        case(
            "r2",
            "get_ticket, TKT-104",
            "get_ticket",
            json!({"ticket_id": "TKT-104"}),
            ctx("beta", true),
            json!({"ok": true, "ticket": {"id": "TKT-104", "title": "Private billing issue", "status": "closed"}}),
        ),
        case(
            "r3",
            "get_ticket, TKT-999",
            "get_ticket",
            json!({"ticket_id": "TKT-999"}),
            ctx("alpha", true),
            err("not_found"),
        ),
        case(
            "r4",
            "get_ticket, TKT-104",
            "get_ticket",
            json!({"ticket_id": "TKT-104"}),
            ctx("alpha", false),
            err("forbidden"),
        ),
        case(
            "r5",
            "delete_ticket, TKT-104",
            "delete_ticket",
            json!({"ticket_id": "TKT-104"}),
            ctx("alpha", true),
            err("unknown_tool"),
        ),
        case(
            "r6",
            "get_ticket, numeric 104",
            "get_ticket",
            json!({"ticket_id": 104}),
            ctx("alpha", true),
            err("invalid_arguments"),
        ),
        case(
            "r7",
            "TKT-104 plus tenant beta",
            "get_ticket",
            json!({"ticket_id": "TKT-104", "tenant": "beta"}),
            ctx("alpha", true),
            err("invalid_arguments"),
        ),
        case(
            "r8",
            "get_ticket, null arguments",
            "get_ticket",
            Value::Null,
            ctx("alpha", true),
            err("invalid_arguments"),
        ),
    ]
}

fn mutate_row() -> ExecCase {
    let mut c = case(
        "m1",
        "mutate the result",
        "get_ticket",
        json!({"ticket_id": "TKT-104"}),
        ctx("alpha", true),
        json!({"ok": true, "ticket": {"id": "TKT-104", "title": "Settings crash", "status": "open"}}),
    );
    c.group = "edge".into();
    c.mutate_result = true;
    c
}

/// Pick option `n` (1-based), lock, reveal.
fn predict_row(w: &mut dyn BlockWidget, n: char) {
    press(w, &[ch(n), key(KeyCode::Enter), key(KeyCode::Enter)]);
}

#[test]
fn predict_reveal_runs_the_real_executor() {
    let mut p = PredictWidget::for_exec_cases(eight_rows(), records());
    assert_eq!(p.handle_key(ch('1'), false), BlockOutcome::Ignored);
    // Row 1: predict ok (right).
    predict_row(&mut p, '1');
    assert_eq!(p.actual("r1").unwrap().outcome, "ok");
    assert!(p.actual("r1").unwrap().agrees);
    let screen = render(&p, 80, 24);
    assert!(screen.contains("Right"), "{screen}");
    assert!(screen.contains("Settings crash"), "{screen}");
    assert!(screen.contains("reason of r1"), "{screen}");
    // Row 2: predict not_found (5), the real executor says ok: missed, queued.
    press(&mut p, &[key(KeyCode::Down)]);
    predict_row(&mut p, '5');
    assert_eq!(p.actual("r2").unwrap().outcome, "ok");
    assert_eq!(p.queue(), ["r2"]);
    let screen = render(&p, 80, 24);
    assert!(screen.contains("Missed"), "{screen}");
    assert!(screen.contains("you said not_found"), "{screen}");
    assert!(screen.contains("Private billing"), "{screen}");
    assert!(screen.contains("score 1/2"), "{screen}");
    assert!(!p.is_done());
}

#[test]
fn predict_lock_needs_a_pick_and_unlock_works() {
    let mut p = PredictWidget::for_exec_cases(eight_rows(), records());
    press(&mut p, &[key(KeyCode::Enter)]);
    assert_eq!(p.prediction("r1"), None);
    assert!(render(&p, 80, 24).contains("Pick an outcome first"));
    press(&mut p, &[key(KeyCode::Right), key(KeyCode::Right)]);
    assert_eq!(p.prediction("r1"), Some(("unknown_tool", false)));
    press(&mut p, &[key(KeyCode::Enter)]);
    assert_eq!(p.prediction("r1"), Some(("unknown_tool", true)));
    press(&mut p, &[ch('3')]);
    assert_eq!(
        p.prediction("r1"),
        Some(("unknown_tool", true)),
        "locked picks do not change"
    );
    press(&mut p, &[ch('u'), ch('1')]);
    assert_eq!(p.prediction("r1"), Some(("ok", false)));
}

#[test]
fn predict_all_eight_rows_match_the_seed_table() {
    let mut p = PredictWidget::for_exec_cases(eight_rows(), records());
    // ok, ok, not_found, forbidden, unknown_tool, invalid x3.
    for (i, n) in ['1', '1', '5', '4', '2', '3', '3', '3']
        .into_iter()
        .enumerate()
    {
        predict_row(&mut p, n);
        if i < 7 {
            press(&mut p, &[key(KeyCode::Down)]);
        }
    }
    assert!(p.is_done());
    assert_eq!(p.score(), (8, 8, 8));
    for id in p.row_ids() {
        assert!(p.actual(&id).unwrap().agrees, "real code disagrees on {id}");
    }
    assert!(p.queue().is_empty());
}

#[test]
fn predict_custom_records_change_the_actual() {
    // alpha's TKT-104 is gone: the real executor now says not_found, and the row's
    // expected (ok) disagrees with the real code, which the reveal says out loud.
    let only_beta = Arc::new(vec![rec(
        "beta",
        "TKT-104",
        "Private billing issue",
        "closed",
    )]);
    let mut p = PredictWidget::for_exec_cases(eight_rows(), only_beta);
    predict_row(&mut p, '1');
    let a = p.actual("r1").unwrap();
    assert_eq!(a.outcome, "not_found");
    assert!(!a.agrees);
    let screen = render(&p, 80, 24);
    assert!(screen.contains("Bug: the real code disagrees"), "{screen}");
}

#[test]
fn predict_review_queue_replays_missed_rows() {
    let mut p = PredictWidget::for_exec_cases(eight_rows(), records());
    predict_row(&mut p, '2'); // r1 wrong
    press(&mut p, &[key(KeyCode::Down)]);
    predict_row(&mut p, '1'); // r2 right
    press(&mut p, &[key(KeyCode::Down)]);
    predict_row(&mut p, '1'); // r3 wrong
    assert_eq!(p.queue(), ["r1", "r3"]);
    assert_eq!(press_out(&mut p, &[ch('r')]), BlockOutcome::Changed);
    assert!(p.in_review());
    assert_eq!(p.current_id().as_deref(), Some("r1"));
    assert_eq!(p.prediction("r1"), None, "replay starts fresh");
    predict_row(&mut p, '1'); // r1 right now
    assert_eq!(p.queue(), ["r3"]);
    // The right answer is shown as a wrong one would be, until the learner moves on.
    assert_eq!(p.current_id().as_deref(), Some("r1"));
    let screen = render(&p, 80, 24);
    assert!(screen.contains("(review)"), "{screen}");
    assert!(screen.contains("✓ Right"), "{screen}");
    assert!(screen.contains("reason of r1"), "{screen}");
    assert!(screen.contains("Enter: the next missed row"), "{screen}");
    press(&mut p, &[key(KeyCode::Enter)]);
    assert_eq!(p.current_id().as_deref(), Some("r3"));
    assert!(render(&p, 80, 24).contains("Pick an outcome"));
    predict_row(&mut p, '5');
    assert!(p.queue().is_empty());
    assert_eq!(p.current_id().as_deref(), Some("r3"));
    let screen = render(&p, 80, 24);
    assert!(screen.contains("✓ Right"), "{screen}");
    assert!(screen.contains("reason of r3"), "{screen}");
    assert!(screen.contains("Review done"), "{screen}");
    // The first-try score does not change on replay.
    assert_eq!(p.score(), (1, 3, 8));
    press(&mut p, &[ch('r')]);
    assert!(!p.in_review());
}

/// The keys the bar offers, as "key what" words.
fn offered(p: &PredictWidget) -> Vec<String> {
    p.key_hints(true)
        .iter()
        .map(|h| format!("{} {}", h.keys, h.what))
        .collect()
}

#[test]
fn a_revealed_row_offers_no_pick_lock_or_unlock() {
    let mut p = PredictWidget::for_exec_cases(eight_rows(), records());
    predict_row(&mut p, '2'); // r1 wrong, revealed
    let keys = offered(&p);
    for gone in ["pick", "lock, then reveal", "unlock", "reveal locked"] {
        assert!(!keys.iter().any(|k| k.ends_with(gone)), "{gone}: {keys:?}");
    }
    for kept in ["Up/Down row", "r review missed", "Esc back to page"] {
        assert!(keys.contains(&kept.to_owned()), "{kept}: {keys:?}");
    }
    // The next row, not yet answered, offers them again.
    press(&mut p, &[key(KeyCode::Down)]);
    assert!(
        offered(&p).iter().any(|k| k.ends_with("pick")),
        "{:?}",
        offered(&p)
    );
}

#[test]
fn a_review_with_every_row_answered_offers_only_the_keys_that_still_work() {
    let mut p = PredictWidget::for_exec_cases(eight_rows(), records());
    predict_row(&mut p, '2'); // r1 wrong
    press(&mut p, &[ch('r')]);
    assert!(
        offered(&p).iter().any(|k| k.contains("pick")),
        "{:?}",
        offered(&p)
    );
    predict_row(&mut p, '1'); // r1 right: the review is done
    assert!(p.queue().is_empty());
    let keys = offered(&p);
    for gone in ["pick", "lock", "unlock", "reveal locked"] {
        assert!(!keys.iter().any(|k| k.ends_with(gone)), "{gone}: {keys:?}");
    }
    assert!(keys.contains(&"r leave review".to_owned()), "{keys:?}");
    assert!(keys.contains(&"Esc back to page".to_owned()), "{keys:?}");
    // Keys that do nothing are not offered: one row, so no Up/Down either.
    assert!(!keys.iter().any(|k| k.starts_with("Up/Down")), "{keys:?}");
    let screen = render(&p, 80, 24);
    assert!(screen.contains("✓ Right"), "{screen}");
    assert!(screen.contains("Review done"), "{screen}");
    press(&mut p, &[ch('r')]);
    assert!(!p.in_review());
}

#[test]
fn predict_save_restore_round_trip() {
    let mut p = PredictWidget::for_exec_cases(eight_rows(), records());
    predict_row(&mut p, '2');
    press(&mut p, &[key(KeyCode::Down), ch('4'), key(KeyCode::Enter)]); // r2 locked, not revealed
    press(&mut p, &[key(KeyCode::Down), ch('3')]); // r3 tentative
    let saved = p.save();
    let mut q = PredictWidget::for_exec_cases(eight_rows(), records());
    q.restore(&saved);
    assert_eq!(q.save(), saved);
    assert_eq!(q.queue(), ["r1"]);
    assert_eq!(q.prediction("r2"), Some(("forbidden", true)));
    assert_eq!(q.prediction("r3"), Some(("invalid_arguments", false)));
    assert_eq!(
        q.actual("r1").unwrap().outcome,
        "ok",
        "recomputed by the real code"
    );
    q.restore(&json!({"rows": {"r1": {"pick": "nonsense", "locked": true, "revealed": true}}, "queue": [3]}));
    assert_eq!(q.prediction("r1"), None);
}

#[test]
fn predict_mutation_row_checks_the_store() {
    let mut p = PredictWidget::for_exec_cases(vec![mutate_row()], records());
    predict_row(&mut p, '1');
    let a = p.actual("m1").unwrap();
    assert!(a.agrees);
    assert!(
        a.extra
            .as_deref()
            .unwrap()
            .contains("left the store as it was")
    );
}

#[test]
fn predict_draws_at_many_sizes_and_themes() {
    let mut p = PredictWidget::for_exec_cases(eight_rows(), records());
    predict_row(&mut p, '1');
    let ascii = render_with(&p, 80, 24, &Theme::new(ThemeName::Mono, true));
    assert!(ascii.is_ascii(), "{ascii}");
    assert!(ascii.contains("OK Right"), "{ascii}");
    let wide = render(&p, 140, 30);
    assert!(wide.contains("Context") && wide.contains("Right"), "{wide}");
    assert!(p.height(80) <= 24, "fits an 80x24 reader: {}", p.height(80));
    render_tiny_sizes(&p);
}

// ------------------------------------------------------------------ validator

fn schemas() -> Vec<(String, NamedSchema)> {
    vec![
        (
            "weather".into(),
            NamedSchema {
                schema: json!({"city": "str", "days": "int"}),
                required: vec!["city".into()],
                description: "the seed's example".into(),
            },
        ),
        (
            "search".into(),
            NamedSchema {
                schema: json!({"type": "object", "properties": {"query": {"type": "string"},
                    "page_size": {"type": "integer", "minimum": 1, "maximum": 100}},
                    "required": ["query"], "additionalProperties": false}),
                required: vec![],
                description: String::new(),
            },
        ),
    ]
}

fn vcase(id: &str, schema: &str, args: Value, ok: bool, error: &str) -> ValidatorCase {
    ValidatorCase {
        id: id.into(),
        group: "seed".into(),
        schema: Value::String(schema.into()),
        required: vec![],
        args: Some(args),
        args_text: None,
        expected: Verdict {
            ok,
            error: error.into(),
        },
        reason: format!("because {id}"),
    }
}

fn vcases() -> Vec<ValidatorCase> {
    let mut dup = vcase("dup", "weather", Value::Null, false, "duplicate arg: city");
    dup.args = None;
    dup.args_text = Some(r#"{"city": "Paris", "city": "Rome"}"#.into());
    vec![
        vcase(
            "ok",
            "weather",
            json!({"city": "Paris", "days": 3}),
            true,
            "",
        ),
        vcase(
            "missing",
            "weather",
            json!({"days": 3}),
            false,
            "missing required arg: city",
        ),
        vcase(
            "unknown",
            "weather",
            json!({"city": "Paris", "unit": "C"}),
            false,
            "unknown arg: unit",
        ),
        vcase(
            "type",
            "weather",
            json!({"city": "Paris", "days": "3"}),
            false,
            "type error: days expected int, got str",
        ),
        vcase(
            "bool",
            "weather",
            json!({"city": "Paris", "days": true}),
            false,
            "type error: days expected int, got bool",
        ),
        vcase(
            "range",
            "search",
            json!({"query": "x", "page_size": 99999999}),
            false,
            "value error: page_size must be <= 100, got 99999999",
        ),
        dup,
    ]
}

#[test]
fn validator_predict_uses_the_real_validator() {
    let mut p = PredictWidget::for_validator_cases(vcases(), schemas());
    // ok, missing, unknown, type, type(bool), value, parse
    for (i, n) in ['1', '2', '3', '4', '4', '5', '6'].into_iter().enumerate() {
        predict_row(&mut p, n);
        if i < 6 {
            press(&mut p, &[key(KeyCode::Down)]);
        }
    }
    assert_eq!(p.score(), (7, 7, 7), "{:?}", p.save());
    for id in p.row_ids() {
        let a = p.actual(&id).unwrap();
        assert!(a.agrees, "{id}: {a:?}");
    }
    assert_eq!(p.actual("bool").unwrap().outcome, "type");
    assert_eq!(p.actual("dup").unwrap().outcome, "parse");
    let screen = render(&p, 80, 24);
    assert!(
        screen.contains("6 parse"),
        "parse option on parse rows: {screen}"
    );
    assert!(screen.contains("duplicate arg: city"), "{screen}");
}

#[test]
fn validator_playground_pipeline_and_bool_guard_switch() {
    let mut pg =
        ValidatorPlayground::new(schemas(), 0, r#"{"city": "Paris", "days": true}"#, vcases());
    assert_eq!(
        pg.verdict().unwrap().error,
        "type error: days expected int, got bool"
    );
    assert_eq!(pg.fired(), Some(tooldojo::validate::CheckKind::Type));
    let screen = render(&pg, 80, 24);
    assert!(screen.contains("✗ type FIRED"), "{screen}");
    assert!(screen.contains("✓ required"), "{screen}");
    // Tab to the rules, down to the bool guard, switch it off.
    assert_eq!(pg.focus(), Panel::Args);
    press(&mut pg, &[key(KeyCode::Tab)]);
    assert_eq!(pg.focus(), Panel::Rules);
    press(&mut pg, &[ch('j'), ch('j'), ch('j'), ch(' ')]);
    assert_eq!(pg.off(), Some(Rule::BoolGuard));
    assert!(
        pg.verdict().unwrap().ok,
        "without the guard, true slips into days"
    );
    let ids: Vec<&str> = pg.flips().iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["bool"]);
    let screen = render(&pg, 80, 24);
    assert!(screen.contains("1 of 7 fixture"), "{screen}");
    assert!(screen.contains("bool"), "{screen}");
    // Each rule flips its own rows.
    press(&mut pg, &[ch('k'), ch('k'), ch('k'), ch(' ')]);
    assert_eq!(pg.off(), Some(Rule::Required));
    let ids: Vec<&str> = pg.flips().iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["missing"]);
    press(&mut pg, &[ch('j'), ch(' ')]);
    let ids: Vec<&str> = pg.flips().iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["unknown"]);
    press(&mut pg, &[ch('j'), ch('j'), ch('j'), ch(' ')]);
    assert_eq!(pg.off(), Some(Rule::Values));
    let ids: Vec<&str> = pg.flips().iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["range"]);
    press(&mut pg, &[ch(' ')]);
    assert_eq!(pg.off(), None);
}

#[test]
fn validator_playground_edits_rerun_and_json_errors_point_at_the_spot() {
    let mut pg = ValidatorPlayground::new(schemas(), 0, "{}", vcases());
    assert_eq!(pg.verdict().unwrap().error, "missing required arg: city");
    assert!(!pg.captures_text());
    press(&mut pg, &[key(KeyCode::Enter)]);
    assert!(pg.captures_text());
    // Clear and retype, with q and ? as text.
    let _ = pg.handle_key(key(KeyCode::End), true);
    for _ in 0..2 {
        let _ = pg.handle_key(key(KeyCode::Backspace), true);
    }
    type_text(&mut pg, "{\"city\": \"q?\",\n \"days\": }");
    let err = pg.json_error().expect("a JSON error").clone();
    assert_eq!(err.line, 2, "{err:?}");
    assert!(!err.in_schema);
    let screen = render(&pg, 80, 24);
    assert!(screen.contains("args line 2, column"), "{screen}");
    assert!(screen.contains("✗ parse FIRED"), "{screen}");
    press(&mut pg, &[key(KeyCode::Esc)]);
    assert!(!pg.captures_text());
    press(&mut pg, &[key(KeyCode::Home)]);
    assert_eq!(press_out(&mut pg, &[ch('g')]), BlockOutcome::Changed);
    assert!(pg.captures_text());
    assert_eq!(pg.args_cursor().0, 1, "cursor on the error line");
    assert_eq!(pg.args_cursor().1 + 1, err.column.min(" \"days\": }".len()));
    // Fix it: the verdict follows every keystroke.
    for _ in 0..1 {
        let _ = pg.handle_key(key(KeyCode::End), true);
        let _ = pg.handle_key(key(KeyCode::Backspace), true);
    }
    type_text(&mut pg, "4}");
    assert_eq!(
        pg.verdict().unwrap(),
        Verdict {
            ok: true,
            error: String::new()
        }
    );
    assert_eq!(pg.args_text(), "{\"city\": \"q?\",\n \"days\": 4}");
}

#[test]
fn validator_playground_schema_picker_editor_and_restore() {
    let mut pg = ValidatorPlayground::new(
        schemas(),
        0,
        r#"{"query": "x", "page_size": 500, "extra": 1}"#,
        vcases(),
    );
    assert_eq!(pg.schema_name(), Some("weather"));
    press(&mut pg, &[key(KeyCode::BackTab)]);
    assert_eq!(pg.focus(), Panel::Schema);
    press(&mut pg, &[key(KeyCode::Right)]);
    assert_eq!(pg.schema_name(), Some("search"));
    assert_eq!(pg.verdict().unwrap().error, "unknown arg: extra");
    assert_eq!(pg.all_violations().len(), 2, "{:?}", pg.all_violations());
    let screen = render(&pg, 80, 24);
    assert!(screen.contains("every violation (--all): 2"), "{screen}");
    // Editing the schema text makes it a custom schema.
    press(&mut pg, &[key(KeyCode::Enter), ch('x')]);
    assert_eq!(pg.schema_name(), None);
    assert!(pg.verdict().is_none(), "broken schema text");
    let screen = render(&pg, 80, 24);
    assert!(screen.contains("schema error"), "{screen}");
    let saved = pg.save();
    let mut other = ValidatorPlayground::new(schemas(), 0, "{}", vcases());
    other.restore(&saved);
    assert_eq!(other.save(), saved);
    assert!(other.verdict().is_none());
    render_tiny_sizes(&other);
    let wide = render(&other, 140, 30);
    assert!(wide.contains("Rules"), "{wide}");
}

// ------------------------------------------------------------------ executor

#[test]
fn executor_stage_split_is_pinned_on_real_rows() {
    let recs = records();
    let stage = |tool: &str, args: Value| {
        playground::run_exec(
            tool,
            &ArgsInput::Value(args),
            &ctx("alpha", true),
            &recs,
            None,
            false,
        )
        .fired
    };
    assert_eq!(
        stage("nope", json!({"ticket_id": "TKT-104"})),
        Some(Stage::Name)
    );
    assert_eq!(
        stage("get_ticket", json!({"ticket_id": 104})),
        Some(Stage::Value)
    );
    assert_eq!(
        stage("get_ticket", json!({"ticket_id": "TKT-1040"})),
        Some(Stage::Value)
    );
    assert_eq!(
        stage(
            "get_ticket",
            json!({"ticket_id": "TKT-104", "tenant": "alpha"})
        ),
        Some(Stage::Shape)
    );
    assert_eq!(stage("get_ticket", Value::Null), Some(Stage::Shape));
    assert_eq!(
        stage("get_ticket", json!({"ticket_id": "TKT-999"})),
        Some(Stage::Lookup)
    );
    assert_eq!(stage("get_ticket", json!({"ticket_id": "TKT-104"})), None);
}

fn exec_pg(args: &str) -> ExecutorPlayground {
    let mut cases = eight_rows();
    cases.push(mutate_row());
    ExecutorPlayground::new("get_ticket", 0, true, args, cases, records())
}

#[test]
fn executor_playground_context_tool_and_pipeline() {
    let mut pg = exec_pg(r#"{"ticket_id": "TKT-104"}"#);
    assert_eq!(pg.envelope()["ticket"]["title"], "Settings crash");
    assert!(render(&pg, 80, 24).contains("✓ store intact"));
    press(&mut pg, &[ch('t')]);
    assert_eq!(pg.context().tenant, "beta");
    assert_eq!(pg.envelope()["ticket"]["title"], "Private billing issue");
    press(&mut pg, &[ch('p')]);
    assert_eq!(pg.envelope()["code"], "forbidden");
    assert_eq!(pg.fired(), Some(Stage::Permission));
    let screen = render(&pg, 80, 24);
    assert!(screen.contains("✗ permission FIRED"), "{screen}");
    assert!(screen.contains("✓ value"), "{screen}");
    // Tool name: Tab back to the tool field, edit to delete_ticket.
    press(
        &mut pg,
        &[
            key(KeyCode::BackTab),
            key(KeyCode::BackTab),
            key(KeyCode::Enter),
        ],
    );
    assert!(pg.captures_text());
    let _ = pg.handle_key(key(KeyCode::Home), true);
    for _ in 0.."get_".len() {
        let _ = pg.handle_key(key(KeyCode::Delete), true);
    }
    type_text(&mut pg, "delete_");
    assert_eq!(pg.tool_name(), "delete_ticket");
    assert_eq!(pg.envelope()["code"], "unknown_tool");
    assert_eq!(pg.fired(), Some(Stage::Name));
    press(&mut pg, &[key(KeyCode::Enter)]);
    assert!(!pg.captures_text(), "Enter ends the one-line field");
}

#[test]
fn executor_playground_rule_switches_flip_rows() {
    let mut pg = exec_pg(r#"{"ticket_id": "TKT-104"}"#);
    // Focus starts on args; Tab to the rules.
    press(&mut pg, &[key(KeyCode::Tab)]);
    let flips = |pg: &mut ExecutorPlayground, rule: Safeguard| {
        let i = Safeguard::ALL.iter().position(|r| *r == rule).unwrap();
        press(pg, &[key(KeyCode::Home)]);
        for _ in 0..6 {
            press(pg, &[ch('k')]);
        }
        for _ in 0..i {
            press(pg, &[ch('j')]);
        }
        press(pg, &[ch(' ')]);
        assert_eq!(pg.off(), Some(rule));
        let ids: Vec<String> = pg.flips().iter().map(|f| f.id.clone()).collect();
        press(pg, &[ch(' ')]);
        ids
    };
    assert_eq!(flips(&mut pg, Safeguard::Allowlist), ["r5"]);
    assert_eq!(flips(&mut pg, Safeguard::ExactShape), ["r7"]);
    assert_eq!(flips(&mut pg, Safeguard::IdFormat), ["r6"]);
    assert_eq!(flips(&mut pg, Safeguard::ReadPermission), ["r4"]);
    assert_eq!(flips(&mut pg, Safeguard::TenantScoping), ["r2"]);
    assert_eq!(flips(&mut pg, Safeguard::CopyOnReturn), ["m1"]);
    let i = Safeguard::ALL.len() - 1;
    for _ in 0..i {
        press(&mut pg, &[ch('j')]);
    }
    press(&mut pg, &[ch(' ')]);
    let screen = render(&pg, 80, 24);
    assert!(screen.contains("store changed"), "{screen}");
    assert!(
        screen.contains("✗ store changed  the caller's edit went into"),
        "{screen}"
    );
    let row = screen
        .lines()
        .find(|l| l.contains("[ ] copy on return"))
        .unwrap();
    assert!(row.contains("OFF"), "{screen}");
    let saved = pg.save();
    let mut other = exec_pg("{}");
    other.restore(&saved);
    assert_eq!(other.save(), saved);
    assert_eq!(other.flips().len(), 1);
    render_tiny_sizes(&other);
    let ascii = render_with(&other, 80, 24, &Theme::new(ThemeName::Mono, true));
    assert!(ascii.is_ascii(), "{ascii}");
}

#[test]
fn executor_playground_bad_json_is_invalid_arguments_with_position() {
    let mut pg = exec_pg("{\"ticket_id\": \"TKT-104\",\n}");
    assert_eq!(pg.envelope()["code"], "invalid_arguments");
    assert_eq!(pg.fired(), Some(Stage::Shape));
    let screen = render(&pg, 80, 24);
    assert!(screen.contains("args line 2, column"), "{screen}");
    assert_eq!(press_out(&mut pg, &[ch('g')]), BlockOutcome::Changed);
    assert!(pg.captures_text());
}

#[test]
fn playground_switches_saved_under_their_old_keys_still_restore() {
    let mut pg = ValidatorPlayground::new(schemas(), 0, "{}", vcases());
    pg.restore(&json!({"off": "type", "edited": true, "switched": true}));
    assert_eq!(pg.off(), Some(Rule::Types));
    assert_eq!(pg.save()["off"], "type");
    pg.restore(&json!({"off": "value"}));
    assert_eq!(pg.off(), Some(Rule::Values));
    pg.restore(&json!({"off": "no such rule"}));
    assert_eq!(pg.off(), None);
    let mut ex = ExecutorPlayground::new("get_ticket", 0, true, "{}", eight_rows(), records());
    ex.restore(&json!({"off": "tenant_scope"}));
    assert_eq!(ex.off(), Some(Safeguard::TenantScoping));
    assert_eq!(ex.save()["off"], "tenant_scope");
}
