//! Property tests over generated scenarios: no call is dispatched past the tool-call budget,
//! handlers in flight never exceed `max_concurrency`, and the same seed gives the same trace.

use proptest::prelude::*;
use serde_json::{Value, json};
use tooldojo::content::Content;
use tooldojo::orchestrator::{
    EventKind, HandlerState, Run, Scenario, load_scenario, run_blocking, scenario_names,
    truncate_result,
};

fn records() -> Value {
    json!([
        {"tenant": "alpha", "id": "TKT-101", "title": "One", "status": "open"},
        {"tenant": "alpha", "id": "TKT-102", "title": "Two", "status": "open"},
        {"tenant": "alpha", "id": "TKT-103", "title": "Three", "status": "closed"},
        {"tenant": "beta", "id": "TKT-101", "title": "Other tenant", "status": "open"}
    ])
}

/// One generated call: which tool and argument shape, and its per-attempt script.
fn call_strategy() -> impl Strategy<Value = (u8, u8, Vec<(u64, bool)>, bool)> {
    (
        0u8..6,                                                              // tool / shape
        0u8..5,                                                              // ticket number
        prop::collection::vec((0u64..700, prop::bool::weighted(0.2)), 0..3), // attempts
        any::<bool>(),                                                       // idempotency key
    )
}

fn scenario_strategy() -> impl Strategy<Value = Scenario> {
    (
        prop::collection::vec(prop::collection::vec(call_strategy(), 0..7), 1..4),
        (1u32..8, 1u32..5, 1u32..4, 50u64..600, 200u64..4000, 0u32..4),
        (any::<bool>(), prop::option::of(0u64..2000), 0u32..3, any::<bool>()),
    )
        .prop_map(|(turns, (max_calls, conc, attempts, timeout, deadline, retries), (race, cancel_at, repairs, write))| {
            let mut n = 0;
            let mut calls_script = serde_json::Map::new();
            let mut turn_values: Vec<Value> = turns
                .into_iter()
                .map(|calls| {
                    let calls: Vec<Value> = calls
                        .into_iter()
                        .map(|(shape, num, script, key)| {
                            n += 1;
                            let id = format!("c{n}");
                            let ticket = format!("TKT-10{num}");
                            let mut call = match shape {
                                0 | 1 => json!({"id": id, "tool": "get_ticket", "args": {"ticket_id": ticket}}),
                                2 => json!({"id": id, "tool": "search_tickets", "args": {"query": "o", "page_size": 2}}),
                                3 => json!({"id": id, "tool": "close_ticket", "args": {"ticket_id": ticket}}),
                                4 => json!({"id": id, "tool": "get_ticket", "args": {"ticket_id": num}}),
                                _ => json!({"id": id, "tool": "drop_tables", "args": {}}),
                            };
                            if key && shape == 3 {
                                call["idempotency_key"] = json!(format!("k{num}"));
                            }
                            if !script.is_empty() {
                                let attempts: Vec<Value> = script
                                    .into_iter()
                                    .map(|(lat, err)| {
                                        if err {
                                            json!({"latency_ms": lat, "error": "upstream 503"})
                                        } else {
                                            json!({"latency_ms": lat})
                                        }
                                    })
                                    .collect();
                                calls_script.insert(id.clone(), json!({"attempts": attempts}));
                            }
                            call
                        })
                        .collect();
                    json!({"calls": calls})
                })
                .collect();
            turn_values.push(json!({"final": "done"}));
            let mut s: Scenario = serde_json::from_value(json!({
                "title": "generated",
                "context": {"tenant": "alpha", "can_read_tickets": true, "can_write_tickets": write},
                "records": records(),
                "timeouts": if race { "race" } else { "cancel" },
                "cancel_at_ms": cancel_at,
                "budgets": {"max_model_turns": 5, "max_tool_calls": max_calls, "max_concurrency": conc,
                            "max_attempts": attempts, "call_timeout_ms": timeout, "deadline_ms": deadline,
                            "retry_budget": retries, "max_repairs": repairs, "backoff_ms": 30},
                "calls": calls_script,
                "turns": turn_values,
            }))
            .expect("generated scenario parses");
            s.name = "generated".into();
            s
        })
}

fn check_invariants(s: &Scenario, r: &Run) -> Result<(), TestCaseError> {
    let b = s.budgets;
    // No call dispatched past the budget.
    let accepted: Vec<&str> = r
        .events
        .iter()
        .filter(|e| e.kind.name() == "call_accepted")
        .filter_map(|e| e.call_id())
        .collect();
    prop_assert!(accepted.len() as u32 <= b.max_tool_calls);
    for e in &r.events {
        prop_assert!(e.used.tool_calls <= b.max_tool_calls);
        if let EventKind::AttemptStarted { call_id, .. } = &e.kind {
            prop_assert!(accepted.contains(&&**call_id), "{call_id} ran unreserved");
        }
    }
    // In flight never above max_concurrency (counted from the events alone).
    let mut now = 0i64;
    for e in &r.events {
        match &e.kind {
            EventKind::AttemptStarted { .. } => now += 1,
            EventKind::AttemptFinished { handler, .. } if *handler != HandlerState::Running => {
                now -= 1
            }
            EventKind::HandlerStillRunning { .. } => now -= 1,
            _ => {}
        }
        prop_assert!(now <= b.max_concurrency as i64, "in flight {now}");
        prop_assert!(e.used.in_flight <= b.max_concurrency);
    }
    prop_assert_eq!(now, 0);
    // Attempts bounded per call, retries bounded per run.
    let retries = r
        .events
        .iter()
        .filter(|e| e.kind.name() == "retry_scheduled")
        .count();
    prop_assert!(retries as u32 <= b.retry_budget);
    for id in &accepted {
        let n = r
            .events
            .iter()
            .filter(|e| e.kind.name() == "attempt_started" && e.call_id() == Some(id))
            .count();
        prop_assert!(n as u32 <= b.max_attempts);
    }
    // One result per proposed call; stopped last; time moves forward.
    for (id, _) in &r.results {
        let n = r
            .events
            .iter()
            .filter(|e| e.kind.name() == "call_result" && e.call_id() == Some(id))
            .count();
        prop_assert_eq!(n, 1, "{}", id);
    }
    prop_assert_eq!(r.events.last().unwrap().kind.name(), "stopped");
    prop_assert!(r.events.windows(2).all(|w| w[0].t_ms <= w[1].t_ms));
    Ok(())
}

proptest! {
    #[test]
    fn truncation_never_exceeds_the_limit_and_keeps_the_envelope_valid(
        parts in prop::collection::vec(prop::sample::select(vec!["a", "é", "€", "😀", " ", "\n"]), 0..200),
        ids in 0usize..60,
        ok in any::<bool>(),
        max in 0usize..400,
    ) {
        let title: String = parts.concat();
        let list: Vec<String> = (0..ids).map(|i| format!("TKT-{i:03}")).collect();
        let text = serde_json::json!({"ok": ok, "ticket": {"id": "TKT-104", "title": title,
            "status": "open"}, "ids": list})
        .to_string();
        let (cut, truncated) = truncate_result(text.clone(), max);
        prop_assert_eq!(truncated, text.len() > max);
        if !truncated {
            prop_assert_eq!(cut, text);
        } else {
            prop_assert!(cut.len() <= max);
            if max >= 2 {
                let v: Value = serde_json::from_str(&cut).unwrap();
                prop_assert!(v.is_object());
            }
            if cut.len() > 2 {
                let v: Value = serde_json::from_str(&cut).unwrap();
                prop_assert_eq!(&v["truncated"], &Value::Bool(true));
                if v.get("ticket").is_some() {
                    // Typed fields whole; the kept title is a prefix of the original.
                    prop_assert_eq!(&v["ok"], &Value::Bool(ok));
                    prop_assert_eq!(&v["ticket"]["status"], "open");
                    let kept = v["ticket"]["title"].as_str().unwrap();
                    prop_assert!(title.starts_with(kept));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn generated_runs_keep_every_bound(s in scenario_strategy(), seed in 0u64..1000) {
        let r = run_blocking(&s, seed);
        check_invariants(&s, &r)?;
        // Same scenario, same seed: the same bytes.
        let again = run_blocking(&s, seed);
        prop_assert_eq!(r.to_jsonl(), again.to_jsonl());
    }
}

#[test]
fn every_shipped_scenario_replays_byte_for_byte() {
    let content = Content::embedded();
    for name in scenario_names(&content).unwrap() {
        let s = load_scenario(&content, &name).unwrap();
        for seed in [0, 1, 42] {
            let first = run_blocking(&s, seed);
            check_invariants(&s, &first).unwrap();
            let first = first.to_jsonl();
            for _ in 0..4 {
                assert_eq!(
                    run_blocking(&s, seed).to_jsonl(),
                    first,
                    "{name} seed {seed}"
                );
            }
        }
    }
}
