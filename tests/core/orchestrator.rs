//! One test per rule the orchestrator keeps, each on a shipped scenario (or a variant of one
//! built in code), checked against the events of a real run.

use serde_json::Value;
use tooldojo::check::rows::scenario_rows;
use tooldojo::content::Content;
use tooldojo::orchestrator::{
    Block, Category, EventKind, HandlerState, Outcome, Rejection, Role, Run, Scenario, StopReason,
    TimeoutMode, Turn, load_scenario, run_blocking, scenario_names, truncate_result,
};

fn scenario(name: &str) -> Scenario {
    load_scenario(&Content::embedded(), name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn run(name: &str) -> Run {
    run_blocking(&scenario(name), 0)
}

fn events_of<'a>(run: &'a Run, name: &str) -> Vec<&'a tooldojo::orchestrator::TraceEvent> {
    run.events
        .iter()
        .filter(|e| e.kind.name() == name)
        .collect()
}

fn for_call<'a>(
    run: &'a Run,
    call: &str,
    name: &str,
) -> Vec<&'a tooldojo::orchestrator::TraceEvent> {
    run.events
        .iter()
        .filter(|e| e.kind.name() == name && e.call_id() == Some(call))
        .collect()
}

/// The tool_result block the model was shown for `call`.
fn tool_result<'a>(run: &'a Run, call: &str) -> (&'a str, bool) {
    for m in &run.transcript {
        for b in &m.content {
            if let Block::ToolResult {
                tool_use_id,
                content,
                is_error,
            } = b
                && tool_use_id == call
            {
                return (content, *is_error);
            }
        }
    }
    panic!("no tool_result for {call}")
}

/// Handlers running at once, counted from the events alone.
fn max_in_flight(run: &Run) -> i64 {
    let (mut now, mut max) = (0i64, 0i64);
    for e in &run.events {
        match &e.kind {
            EventKind::AttemptStarted { .. } => now += 1,
            EventKind::AttemptFinished { handler, .. } if *handler != HandlerState::Running => {
                now -= 1
            }
            EventKind::HandlerStillRunning { .. } => now -= 1,
            _ => {}
        }
        max = max.max(now);
    }
    assert_eq!(now, 0, "every handler ends before the run does");
    max
}

#[test]
fn every_shipped_scenario_meets_its_expectation() {
    let content = Content::embedded();
    let names = scenario_names(&content).unwrap();
    for needed in [
        "happy-path",
        "turn-budget",
        "tool-budget",
        "deadline",
        "cancel",
        "repair",
        "repair-limit",
        "forbidden",
        "retry-read",
        "write-unknown-outcome",
        "write-idempotent",
        "parallel-out-of-order",
        "bounded-concurrency",
        "partial-success",
        "race-vs-cancel",
        "truncation",
        "injection",
    ] {
        assert!(
            names.iter().any(|n| n == needed),
            "missing scenario {needed}"
        );
    }
    let rows = scenario_rows(&content).unwrap();
    assert_eq!(rows.len(), names.len());
    for row in rows {
        assert!(
            row.pass,
            "{}: expected {} got {}",
            row.name, row.expected, row.actual
        );
    }
    for name in names {
        let s = scenario(&name);
        assert!(!s.note.trim().is_empty(), "{name} has no teaching note");
        assert!(s.expected.is_some(), "{name} has no expected block");
    }
}

#[test]
fn every_proposed_call_gets_exactly_one_result_and_stopped_is_last() {
    for name in scenario_names(&Content::embedded()).unwrap() {
        let r = run(&name);
        assert_eq!(r.events.last().unwrap().kind.name(), "stopped", "{name}");
        assert_eq!(events_of(&r, "stopped").len(), 1);
        assert_eq!(r.events.first().unwrap().kind.name(), "run_started");
        for (id, cat) in &r.results {
            let results = for_call(&r, id, "call_result");
            assert_eq!(results.len(), 1, "{name}: {id}");
            match &results[0].kind {
                EventKind::CallResult { category, .. } => assert_eq!(category, cat),
                _ => unreachable!(),
            }
        }
        // Time never runs backwards in the trace.
        assert!(
            r.events.windows(2).all(|w| w[0].t_ms <= w[1].t_ms),
            "{name}"
        );
    }
}

#[test]
fn budget_is_reserved_before_dispatch_and_excess_calls_never_run() {
    let r = run("tool-budget");
    assert_eq!(r.stop_reason, StopReason::MaxToolCalls);
    assert_eq!(r.tool_calls_used, 3);
    assert!(for_call(&r, "c4", "attempt_started").is_empty());
    let rej = for_call(&r, "c4", "call_rejected");
    assert!(matches!(
        rej[0].kind,
        EventKind::CallRejected {
            category: Rejection::BudgetExhausted,
            ..
        }
    ));
    // Each call's reservation is on record before its first attempt starts.
    for id in ["c1", "c2", "c3"] {
        let pos = |name: &str| {
            r.events
                .iter()
                .position(|e| e.kind.name() == name && e.call_id() == Some(id))
                .unwrap()
        };
        assert!(pos("call_accepted") < pos("attempt_started"));
    }
    // Attempts are not tool calls: the retries of retry-read spend no call budget.
    let r = run("retry-read");
    assert_eq!(r.tool_calls_used, 2);
    assert!(events_of(&r, "attempt_started").len() > 2);
}

#[test]
fn turn_budget_is_separate_from_call_budget() {
    let r = run("turn-budget");
    assert_eq!(r.stop_reason, StopReason::MaxModelTurns);
    assert_eq!(r.turns_used, 2);
    assert!(events_of(&r, "model_turn").iter().all(|e| e.turn <= 2));
    assert!(r.tool_calls_used < r.budgets.max_tool_calls);
}

#[test]
fn invalid_calls_get_a_concise_error_and_repairs_are_bounded() {
    let r = run("repair");
    assert_eq!(r.stop_reason, StopReason::FinalAnswer);
    let (content, is_error) = tool_result(&r, "c1");
    assert!(is_error);
    let v: Value = serde_json::from_str(content).unwrap();
    assert_eq!(v["code"], "invalid_arguments");
    assert!(
        v["error"].as_str().unwrap().contains("ticket_id"),
        "{content}"
    );
    assert!(content.len() < 200, "concise: {content}");
    assert_eq!(r.tool_calls_used, 1, "the invalid call spent no budget");

    let r = run("repair-limit");
    assert_eq!(r.stop_reason, StopReason::RepairLimit);
    assert_eq!(r.turns_used, 2, "no third model turn after the limit");
    assert!(events_of(&r, "attempt_started").is_empty());

    // With two repairs allowed the same model gets to its valid call.
    let mut s = scenario("repair-limit");
    s.budgets.max_repairs = 2;
    let r = run_blocking(&s, 0);
    assert_eq!(r.stop_reason, StopReason::FinalAnswer);
    assert_eq!(r.category_of("c3"), Some(Category::Ok));
}

#[test]
fn forbidden_is_never_retried_and_ends_tool_use() {
    let r = run("forbidden");
    assert_eq!(r.stop_reason, StopReason::AuthorizationDenied);
    assert_eq!(for_call(&r, "c1", "attempt_started").len(), 1);
    assert!(events_of(&r, "retry_scheduled").is_empty());
    assert!(for_call(&r, "c2", "attempt_started").is_empty());
    assert!(matches!(
        for_call(&r, "c2", "call_rejected")[0].kind,
        EventKind::CallRejected {
            category: Rejection::DeniedAfterForbidden,
            ..
        }
    ));
    // A model that accepts the denial and answers ends with a final answer instead.
    let mut s = scenario("forbidden");
    s.turns.remove(1);
    let r = run_blocking(&s, 0);
    assert_eq!(r.stop_reason, StopReason::FinalAnswer);
}

/// `forbidden` with c1 and c2 in the same turn: the forbidden scenario's second lookup moved
/// up beside the first.
fn forbidden_same_turn(max_concurrency: u32) -> Scenario {
    let mut s = scenario("forbidden");
    s.budgets.max_concurrency = max_concurrency;
    let Turn::Calls { calls } = s.turns.remove(1) else {
        unreachable!()
    };
    let Turn::Calls { calls: first } = &mut s.turns[0] else {
        unreachable!()
    };
    first.extend(calls);
    s
}

#[test]
fn a_call_still_queued_when_forbidden_arrives_is_never_dispatched() {
    // max_concurrency 1: c2 waits for c1's slot; c1 comes back forbidden.
    let r = run_blocking(&forbidden_same_turn(1), 0);
    assert_eq!(r.stop_reason, StopReason::AuthorizationDenied);
    assert!(for_call(&r, "c2", "attempt_started").is_empty());
    let rejected = for_call(&r, "c2", "call_rejected");
    assert_eq!(rejected.len(), 1);
    assert!(matches!(
        rejected[0].kind,
        EventKind::CallRejected {
            category: Rejection::DeniedAfterForbidden,
            ..
        }
    ));
    assert_eq!(for_call(&r, "c2", "call_result").len(), 1);
    assert_eq!(r.category_of("c2"), Some(Category::Forbidden));
    // The reservation of the call that never ran is given back.
    assert_eq!(r.tool_calls_used, 1);
    assert!(r.to_jsonl().contains("denied_after_forbidden"));
    // Room for both: c2 was already in flight when c1 was denied, so it finishes; the
    // model's next request would then be refused, but here it answers instead.
    let r = run_blocking(&forbidden_same_turn(2), 0);
    assert_eq!(for_call(&r, "c2", "attempt_started").len(), 1);
    assert_eq!(r.category_of("c2"), Some(Category::Forbidden));
    assert!(for_call(&r, "c2", "call_rejected").is_empty());
}

#[test]
fn reads_retry_with_capped_seeded_backoff_within_the_budgets() {
    let s = scenario("retry-read");
    let r = run_blocking(&s, 0);
    let b = s.budgets;
    for e in events_of(&r, "retry_scheduled") {
        if let EventKind::RetryScheduled {
            attempt, delay_ms, ..
        } = e.kind
        {
            let base = (b.backoff_ms << (attempt - 1)).min(b.max_backoff_ms);
            assert!(
                (base / 2..=base).contains(&delay_ms),
                "{delay_ms} vs {base}"
            );
        }
    }
    for id in ["c1", "c2"] {
        assert!(for_call(&r, id, "attempt_started").len() as u32 <= b.max_attempts);
    }
    // The jitter follows the seed: same seed, same delays; some seed gives others.
    let delays = |seed| -> Vec<u64> {
        run_blocking(&s, seed)
            .events
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::RetryScheduled { delay_ms, .. } => Some(delay_ms),
                _ => None,
            })
            .collect()
    };
    assert_eq!(delays(3), delays(3));
    assert!((1..6).any(|seed| delays(seed) != delays(0)));
    // The run-wide retry budget caps retries across calls.
    let mut tight = s.clone();
    tight.budgets.retry_budget = 1;
    let r = run_blocking(&tight, 0);
    assert_eq!(events_of(&r, "retry_scheduled").len(), 1);
    assert!(r.results.iter().any(|(_, c)| *c != Category::Ok));
    // Each failure the spent budget left unretried says so, once, with the budget spent.
    let denied = events_of(&r, "retry_denied");
    assert!(!denied.is_empty());
    for e in &denied {
        assert_eq!(e.used.retries, 1);
        let EventKind::RetryDenied { call_id, attempt } = &e.kind else {
            unreachable!()
        };
        let result = r.category_of(call_id).expect("a denied call has a result");
        assert_ne!(result, Category::Ok, "{call_id} after attempt {attempt}");
    }
    let json = denied[0].to_json();
    assert_eq!(json["event"], "retry_denied");
    assert_eq!(json["retries_used"], 1);
    assert!(json["attempt"].as_u64().is_some_and(|a| a >= 1));
    // With budget to spare, nothing is denied.
    assert!(events_of(&run_blocking(&s, 0), "retry_denied").is_empty());
}

#[test]
fn a_timed_out_write_is_unknown_outcome_and_not_retried_without_a_key() {
    let r = run("write-unknown-outcome");
    assert_eq!(r.category_of("c1"), Some(Category::UnknownOutcome));
    assert!(events_of(&r, "retry_scheduled").is_empty());
    // In race mode the write lands after the caller gave up: that is the lesson.
    let applied = events_of(&r, "write_applied");
    assert_eq!(applied.len(), 1);
    assert!(applied[0].t_ms > for_call(&r, "c1", "call_result")[0].t_ms);
    // In cancel mode the handler is stopped before it applies anything; still unknown to the caller.
    let mut s = scenario("write-unknown-outcome");
    s.timeouts = TimeoutMode::Cancel;
    let r = run_blocking(&s, 0);
    assert_eq!(r.category_of("c1"), Some(Category::UnknownOutcome));
    assert!(events_of(&r, "write_applied").is_empty());
}

#[test]
fn the_loop_keys_writes_and_the_service_replays_the_first_result() {
    let r = run("write-idempotent");
    assert_eq!(r.category_of("c1"), Some(Category::Ok));
    let applied: Vec<(String, bool)> = events_of(&r, "write_applied")
        .iter()
        .map(|e| match &e.kind {
            EventKind::WriteApplied {
                ticket_id,
                replayed,
                ..
            } => (ticket_id.clone(), *replayed),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(
        applied,
        vec![("TKT-106".to_owned(), false), ("TKT-106".to_owned(), true)],
        "applied once, replayed once"
    );
    // The key is the loop's, made from the run and the call; the model's turn has none.
    let accepted = for_call(&r, "c1", "call_accepted")[0].to_json();
    assert_eq!(
        accepted["idempotency_key"],
        format!("{}/c1", r.run_id),
        "{accepted}"
    );
    let s = scenario("write-idempotent");
    assert!(s.turns.iter().all(|t| match t {
        Turn::Calls { calls } => calls.iter().all(|c| c.idempotency_key.is_none()),
        Turn::Final { .. } => true,
    }));
    // Without the loop's keys the same timeout is an unknown outcome, never retried.
    let mut unkeyed = s.clone();
    unkeyed.idempotency_keys = false;
    let r = run_blocking(&unkeyed, 0);
    assert_eq!(r.category_of("c1"), Some(Category::UnknownOutcome));
    assert!(for_call(&r, "c1", "call_accepted")[0].to_json()["idempotency_key"].is_null());
    // An older scenario's call-level key still asks for a keyed write, but the key used is
    // the loop's, never the text in the file.
    let mut old = unkeyed;
    if let Turn::Calls { calls } = &mut old.turns[0] {
        calls[0].idempotency_key = Some("chosen-by-the-file".into());
    }
    let r = run_blocking(&old, 0);
    assert_eq!(r.category_of("c1"), Some(Category::Ok));
    assert!(!r.to_jsonl().contains("chosen-by-the-file"));
}

#[test]
fn a_key_reused_with_other_arguments_is_refused_by_the_service() {
    use std::sync::Arc;
    use tokio_util::sync::CancellationToken;
    use tooldojo::executor::Context;
    use tooldojo::orchestrator::services::{AttemptInfo, Services, ToolKind};
    use tooldojo::orchestrator::trace::Recorder;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    rt.block_on(async {
        let ctx = Context {
            can_write_tickets: true,
            ..Context::reader("alpha")
        };
        let services = Services::new(
            ctx,
            scenario("write-idempotent").store_records().to_vec(),
            10,
        );
        let rec = Recorder::new(tokio::time::Instant::now(), "run-test", 8);
        let call = |tool: ToolKind, id: &str, key: Option<&str>, attempt: u32| {
            let info = AttemptInfo {
                rec: rec.clone(),
                turn: 1,
                call_id: Arc::from("c1"),
                attempt,
            };
            services.clone().handle(
                tool,
                Arc::new(serde_json::json!({"ticket_id": id})),
                key.map(str::to_owned),
                Default::default(),
                CancellationToken::new(),
                info,
            )
        };
        let close =
            |id: &str, attempt: u32| call(ToolKind::CloseTicket, id, Some("run-test/c1"), attempt);
        assert_eq!(close("TKT-106", 1).await.outcome, Outcome::Ok);
        assert_eq!(close("TKT-106", 2).await.outcome, Outcome::Ok);
        let refused = close("TKT-105", 3).await;
        assert_eq!(refused.outcome, Outcome::Error);
        assert!(
            refused.body.contains("different arguments"),
            "{}",
            refused.body
        );
        let read = call(ToolKind::GetTicket, "TKT-105", None, 1).await;
        assert!(read.body.contains(r#""status":"open""#), "{}", read.body);
    });
}

#[test]
fn results_attach_by_call_id_whatever_order_they_finish() {
    let r = run("parallel-out-of-order");
    let finish: Vec<&str> = events_of(&r, "call_result")
        .iter()
        .filter_map(|e| e.call_id())
        .collect();
    assert_eq!(finish, ["c2", "c3", "c1"]);
    let results_msg = r
        .transcript
        .iter()
        .find(|m| m.role == Role::User && matches!(m.content[0], Block::ToolResult { .. }))
        .unwrap();
    let ids: Vec<&str> = results_msg
        .content
        .iter()
        .map(|b| match b {
            Block::ToolResult { tool_use_id, .. } => tool_use_id.as_str(),
            _ => "",
        })
        .collect();
    assert_eq!(ids, ["c1", "c2", "c3"], "shown in proposal order");
    for (call, ticket) in [("c1", "TKT-104"), ("c2", "TKT-105"), ("c3", "TKT-106")] {
        let v: Value = serde_json::from_str(tool_result(&r, call).0).unwrap();
        assert_eq!(v["ticket"]["id"], ticket, "{call}");
    }
    // Finished calls are never re-run: partial success keeps c1's single attempt.
    let r = run("partial-success");
    assert_eq!(for_call(&r, "c1", "attempt_started").len(), 1);
    assert_eq!(r.category_of("c1"), Some(Category::Ok));
}

#[test]
fn the_deadline_stops_race_mode_handlers_too() {
    // Race mode: the first attempt times out and its handler runs on (until 1100 ms). A
    // deadline at 700 ms must stop that handler as well, within the grace, not wait for it.
    let mut s = scenario("race-vs-cancel");
    assert_eq!(s.timeouts, TimeoutMode::Race);
    s.budgets.deadline_ms = 700;
    let r = run_blocking(&s, 0);
    assert_eq!(r.stop_reason, StopReason::Deadline);
    let limit = 700 + r.budgets.cancel_grace_ms;
    assert!(r.end_ms <= limit, "run ended at {} ms", r.end_ms);
    for e in events_of(&r, "handler_still_running") {
        assert!(e.t_ms <= limit);
        assert!(matches!(
            e.kind,
            EventKind::HandlerStillRunning {
                outcome: Outcome::Cancelled,
                ..
            }
        ));
    }
}

#[test]
fn concurrency_never_exceeds_the_semaphore() {
    let r = run("bounded-concurrency");
    assert_eq!(max_in_flight(&r), 2);
    assert!(r.events.iter().all(|e| e.used.in_flight <= 2));
    // Three waves of 100 ms after the 100 ms model turn.
    let ends: Vec<u64> = events_of(&r, "call_result")
        .iter()
        .map(|e| e.t_ms)
        .collect();
    assert_eq!(ends, [200, 200, 300, 300, 400, 400]);
}

#[test]
fn race_keeps_the_handler_running_and_cancel_stops_it() {
    let race = run("race-vs-cancel");
    let late = events_of(&race, "handler_still_running");
    assert_eq!(late.len(), 1);
    assert_eq!(late[0].t_ms, 1100);
    assert!(matches!(
        for_call(&race, "c1", "attempt_finished")[0].kind,
        EventKind::AttemptFinished {
            outcome: Outcome::Timeout,
            handler: HandlerState::Running,
            ..
        }
    ));
    let mut s = scenario("race-vs-cancel");
    s.timeouts = TimeoutMode::Cancel;
    let cancel = run_blocking(&s, 0);
    assert!(events_of(&cancel, "handler_still_running").is_empty());
    assert!(matches!(
        for_call(&cancel, "c1", "attempt_finished")[0].kind,
        EventKind::AttemptFinished {
            handler: HandlerState::Stopped,
            ..
        }
    ));
    let done = |r: &Run| for_call(r, "c1", "call_result")[0].t_ms;
    assert!(done(&cancel) + 500 < done(&race));

    // The handler gets a bounded grace to stop: a slow stopper is aborted at the grace.
    let mut slow = s.clone();
    slow.calls.get_mut("c1").unwrap().attempts[0].stop_delay_ms = 10_000;
    let r = run_blocking(&slow, 0);
    let fin = for_call(&r, "c1", "attempt_finished")[0];
    assert_eq!(fin.t_ms, 400 + slow.budgets.cancel_grace_ms);
    let mut quick = s.clone();
    quick.calls.get_mut("c1").unwrap().attempts[0].stop_delay_ms = 20;
    let r = run_blocking(&quick, 0);
    assert_eq!(for_call(&r, "c1", "attempt_finished")[0].t_ms, 420);
}

#[test]
fn oversized_results_are_cut_inside_a_valid_envelope() {
    let r = run("truncation");
    let max = r.budgets.max_result_bytes;
    match &for_call(&r, "c1", "call_result")[0].kind {
        EventKind::CallResult {
            truncated, bytes, ..
        } => assert!(*truncated && *bytes <= max),
        _ => unreachable!(),
    }
    let (content, _) = tool_result(&r, "c1");
    assert!(content.len() <= max);
    // The model still gets JSON, with its typed fields whole and the cut spelled out.
    let v: Value = serde_json::from_str(content).expect(content);
    assert_eq!(v["ok"], true);
    assert_eq!(v["ticket"]["status"], "open");
    assert_eq!(v["truncated"], true);
    let kept = v["ticket"]["title"].as_str().unwrap().len();
    // Lesson 13 quotes this line.
    assert_eq!(v["cut"]["ticket.title"], "kept 73 of 483 bytes");
    assert!(
        v["cut"]["ticket.title"]
            .as_str()
            .is_some_and(|c| c.starts_with(&format!("kept {kept} of "))),
        "{content}"
    );
    match &for_call(&r, "c2", "call_result")[0].kind {
        EventKind::CallResult { truncated, .. } => assert!(!truncated),
        _ => unreachable!(),
    }
    assert_eq!(
        truncate_result("short".into(), 61),
        ("short".to_owned(), false)
    );
}

#[test]
fn the_deadline_caps_attempts_and_stops_everything() {
    let r = run("deadline");
    assert_eq!(r.stop_reason, StopReason::Deadline);
    match &for_call(&r, "c1", "attempt_started")[0].kind {
        EventKind::AttemptStarted { timeout_ms, .. } => assert_eq!(*timeout_ms, 900),
        _ => unreachable!(),
    }
    assert_eq!(r.events.last().unwrap().t_ms, 1000);
    assert_eq!(r.category_of("c2"), Some(Category::Ok));
    // A backoff that would end past the deadline is not started.
    let mut s = scenario("partial-success");
    s.budgets.deadline_ms = 640;
    let r = run_blocking(&s, 0);
    assert!(for_call(&r, "c2", "retry_scheduled").is_empty());
    assert_eq!(r.stop_reason, StopReason::Deadline);
}

#[test]
fn user_cancel_stops_in_flight_work_and_keeps_finished_results() {
    let r = run("cancel");
    assert_eq!(r.stop_reason, StopReason::Cancelled);
    assert_eq!(r.events.last().unwrap().t_ms, 300);
    assert_eq!(r.category_of("c2"), Some(Category::Ok));
    assert_eq!(r.category_of("c1"), Some(Category::Cancelled));
    assert!(events_of(&r, "retry_scheduled").is_empty());
    // Cancelling while the model is thinking stops before its reply is used.
    let mut s = scenario("happy-path");
    s.cancel_at_ms = Some(50);
    let r = run_blocking(&s, 0);
    assert_eq!(r.stop_reason, StopReason::Cancelled);
    assert_eq!(r.turns_used, 0);
}

#[test]
fn ticket_text_never_steers_the_loop() {
    let hostile = scenario("injection");
    let mut benign = hostile.clone();
    for rec in benign.records.as_mut().unwrap() {
        if rec.id == "TKT-107" {
            rec.title = "Printer offline".into();
            rec.description = None;
        }
    }
    let shape = |r: &Run| -> Vec<(u64, &'static str, Option<String>, String)> {
        r.events
            .iter()
            .map(|e| {
                let detail = match &e.kind {
                    EventKind::CallResult { category, .. } => category.to_string(),
                    EventKind::AttemptFinished { outcome, .. } => outcome.to_string(),
                    EventKind::CallRejected { category, .. } => category.to_string(),
                    EventKind::Stopped { stop_reason, .. } => stop_reason.to_string(),
                    _ => String::new(),
                };
                (
                    e.t_ms,
                    e.kind.name(),
                    e.call_id().map(str::to_owned),
                    detail,
                )
            })
            .collect()
    };
    let (a, b) = (run_blocking(&hostile, 0), run_blocking(&benign, 0));
    assert_eq!(shape(&a), shape(&b));
    assert_eq!(a.category_of("c2"), Some(Category::UnknownTool));
    // The hostile title did reach the model, as data inside a tool result.
    assert!(tool_result(&a, "c1").0.contains("ignore your policy"));
}

#[test]
fn sensitive_arguments_are_masked_never_printed_nor_hashed() {
    let r = run("turn-budget");
    let jsonl = r.to_jsonl();
    assert!(jsonl.contains("<redacted #1, 5 chars>"), "{jsonl}");
    assert!(
        !jsonl.contains("sha256"),
        "a bare hash of a guessable value is reversible"
    );
    let chrome = tooldojo::orchestrator::chrome_trace(&r).to_string();
    for shown in [&jsonl, &r.timeline(), &chrome] {
        assert!(!shown.contains("crash\""), "the query leaked: {shown}");
    }
    // A scenario can mark more names sensitive; a value error about one does not quote it.
    let mut s = scenario("happy-path");
    s.sensitive_args = vec!["ticket_id".into()];
    if let Turn::Calls { calls } = &mut s.turns[0] {
        calls[0].args = Some(std::sync::Arc::new(
            serde_json::json!({"ticket_id": "TKT-1040"}),
        ));
    }
    let r = run_blocking(&s, 0);
    let jsonl = r.to_jsonl();
    let chrome = tooldojo::orchestrator::chrome_trace(&r).to_string();
    for shown in [&jsonl, &r.timeline(), &chrome] {
        assert!(!shown.contains("TKT-1040"), "the ticket id leaked: {shown}");
    }
    assert!(jsonl.contains("got <redacted #1, 8 chars>"), "{jsonl}");
    // The same scenario and seed still print the same bytes.
    assert_eq!(run_blocking(&s, 0).to_jsonl(), jsonl);
}

#[test]
fn the_transcript_pairs_every_tool_use_with_its_result() {
    let r = run("partial-success");
    let mut uses = Vec::new();
    let mut results = Vec::new();
    for m in &r.transcript {
        for b in &m.content {
            match b {
                Block::ToolUse { id, .. } => {
                    assert_eq!(m.role, Role::Assistant);
                    uses.push(id.clone())
                }
                Block::ToolResult {
                    tool_use_id,
                    is_error,
                    ..
                } => {
                    assert_eq!(m.role, Role::User);
                    assert_eq!(*is_error, r.category_of(tool_use_id) != Some(Category::Ok));
                    results.push(tool_use_id.clone())
                }
                Block::Text { .. } => {}
            }
        }
    }
    assert_eq!(uses, results);
    let json = serde_json::to_value(&r.transcript).unwrap();
    assert_eq!(json[1]["content"][0]["type"], "tool_use");
    assert_eq!(json[2]["content"][0]["type"], "tool_result");
}

#[test]
fn run_blocking_works_inside_another_runtime() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let r = rt.block_on(async { run_blocking(&scenario("happy-path"), 0) });
    assert_eq!(r.stop_reason, StopReason::FinalAnswer);
}

#[test]
fn trace_lines_carry_the_contract_fields() {
    let r = run("partial-success");
    let required: &[(&str, &[&str])] = &[
        ("model_turn", &["turn"]),
        ("attempt_started", &["call_id", "tool", "attempt"]),
        (
            "attempt_finished",
            &["call_id", "tool", "attempt", "outcome"],
        ),
        ("retry_scheduled", &["call_id", "attempt", "delay_ms"]),
        (
            "call_result",
            &["call_id", "tool", "category", "attempts", "truncated"],
        ),
        (
            "stopped",
            &["stop_reason", "turns_used", "tool_calls_used", "results"],
        ),
    ];
    for e in &r.events {
        let v = e.to_json();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys[0], "t_ms");
        assert_eq!(keys[1], "event");
        assert_eq!(v["run_id"], r.run_id.as_str());
        for (name, fields) in required {
            if v["event"] == *name {
                for f in *fields {
                    assert!(v.get(*f).is_some(), "{name} lacks {f}: {v}");
                }
            }
        }
        assert!(!e.summary().is_empty());
    }
    let stopped = r.events.last().unwrap().to_json();
    assert_eq!(stopped["results"]["c2"], "timeout");
}

#[test]
fn generated_load_runs_every_call_within_the_bound() {
    let s = tooldojo::orchestrator::load_scenario_generated(2_000, 64);
    let start = std::time::Instant::now();
    let r = run_blocking(&s, 0);
    let per_call = start.elapsed().as_secs_f64() * 1e6 / 2_000.0;
    eprintln!("generated 2000x64: {per_call:.1} us per call (debug build)");
    assert_eq!(r.stop_reason, StopReason::FinalAnswer);
    assert_eq!(r.results.len(), 2_000);
    assert_eq!(max_in_flight(&r), 64);
    // TKT-900 to TKT-999 are not in the store.
    assert!(r.results.iter().any(|(_, c)| *c == Category::NotFound));
    assert!(
        r.results
            .iter()
            .all(|(_, c)| matches!(c, Category::Ok | Category::NotFound))
    );
}

#[test]
fn playback_helpers_follow_the_cursor() {
    let r = run("bounded-concurrency");
    assert_eq!(r.events_until(0).len(), 1, "only run_started at t=0");
    assert_eq!(r.used_at(150).in_flight, 2);
    assert_eq!(r.used_at(150).tool_calls, 6);
    assert_eq!(r.used_at(r.end_ms).in_flight, 0);
    assert_eq!(r.events_until(r.end_ms).len(), r.events.len());
}

#[test]
fn the_timeline_fits_an_80_column_terminal() {
    let content = Content::embedded();
    for name in scenario_names(&content).unwrap() {
        let text = run(&name).timeline();
        for line in text.lines() {
            assert!(line.chars().count() <= 80, "{name}: {line:?}");
            // An event starts with its time; a wrapped event goes on indented under its text.
            assert!(
                line.contains(" ms  ") || line.starts_with("                 "),
                "{name}: {line:?}"
            );
        }
    }
}

#[test]
fn exec_and_the_loop_word_a_bad_get_ticket_call_alike() {
    use serde_json::json;
    use tooldojo::executor::{Context, Envelope, Store, execute};
    use tooldojo::orchestrator::services::validate_call;
    let store = Store::from_records(Vec::new());
    for args in [
        json!({"ticket_id": 104}),
        json!({"ticket_id": "TKT-104", "tenant": "alpha"}),
        json!({"ticket_id": "TKT-1040"}),
        json!({}),
        json!(["TKT-104"]),
        Value::Null,
    ] {
        let Envelope::Err { detail, .. } =
            execute("get_ticket", &args, &Context::reader("alpha"), &store)
        else {
            panic!("{args} was accepted by the executor");
        };
        let Err((_, loop_says)) = validate_call("get_ticket", Some(&args), None) else {
            panic!("{args} was accepted by the loop");
        };
        assert_eq!(detail, loop_says, "{args}");
    }
}

#[test]
fn the_trace_records_the_trusted_scope_of_the_run() {
    let r = run("write-idempotent");
    let first = r.events[0].to_json();
    assert_eq!(first["event"], "run_started");
    assert_eq!(first["tenant"], "alpha");
    assert_eq!(
        first["permissions"],
        serde_json::json!(["read_tickets", "write_tickets"])
    );
    let start = r.events[0].summary();
    assert!(
        start.contains("(tenant alpha, read_tickets, write_tickets;"),
        "{start}"
    );
    assert!(
        r.timeline()
            .starts_with(&format!("      0 ms  {}", &start[..20]))
    );
    let chrome = tooldojo::orchestrator::chrome_trace(&r);
    let scoped = chrome["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["args"]["tenant"] == "alpha")
        .expect("a chrome slice names the tenant");
    assert_eq!(scoped["args"]["permissions"][1], "write_tickets");
    // A session without grants says so rather than leaving the field out.
    let denied = run("forbidden");
    assert_eq!(
        denied.events[0].to_json()["permissions"],
        serde_json::json!([])
    );
    assert!(denied.events[0].summary().contains("no permissions"));
}
