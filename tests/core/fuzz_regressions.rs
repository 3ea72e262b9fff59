//! Inputs the fuzz targets (`tests/fuzz/`) found to break a promise, kept as plain tests.

use serde_json::json;
use tooldojo::orchestrator::{Scenario, run_blocking};

/// Found by the `scenario` target: in race mode, two timed-out attempts of one keyed write
/// both wait for the first attempt's result; when it lands they were woken in an order
/// that changed from run to run, so the same scenario and seed printed different bytes.
#[test]
fn replays_waiting_on_one_idempotency_key_keep_their_order() {
    let scenario: Scenario = serde_json::from_value(json!({
        "title": "two retries wait for the first keyed close",
        "context": {"tenant": "alpha", "can_read_tickets": true, "can_write_tickets": true},
        "records": [{"tenant": "alpha", "id": "TKT-106", "title": "Export times out", "status": "open"}],
        "timeouts": "race",
        "budgets": {"call_timeout_ms": 250, "max_attempts": 3, "backoff_ms": 100},
        "calls": {"c1": {"attempts": [{"latency_ms": 900}, {"latency_ms": 400}]}},
        "turns": [
            {"calls": [{"id": "c1", "tool": "close_ticket", "args": {"ticket_id": "TKT-106"},
                        "idempotency_key": "close-106"}]},
            {"final": "closed"}
        ]
    }))
    .expect("the scenario parses");
    scenario.lint().expect("the scenario lints");
    for seed in 0..3 {
        let first = run_blocking(&scenario, seed).to_jsonl();
        let replays = first.matches("\"replayed\":true").count();
        assert_eq!(replays, 2, "both retries replay the first result:\n{first}");
        for _ in 0..12 {
            assert_eq!(
                run_blocking(&scenario, seed).to_jsonl(),
                first,
                "seed {seed}"
            );
        }
    }
}
