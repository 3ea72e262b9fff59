//! The bounded agent loop, as real async Rust on tokio's paused clock:
//! scenarios (serde), budgets, a `Model` trait with `ScriptedModel`, simulated services,
//! the runner (JoinSet, Semaphore, CancellationToken, timeout), `TraceEvent`s and the
//! Chrome trace export.
//!
//! The public face:
//! - `Scenario` (serde, the scenario file format of the README) and `load_scenario(&Content, name_or_path)`
//! - `scenario_names(&Content) -> UserResult<Vec<String>>`
//! - `run_blocking(&Scenario, seed) -> Run` : runs on its own thread + paused runtime,
//!   safe to call from inside another tokio runtime (the TUI), returns every event.
//! - `TraceEvent { t_ms, .. }` with `to_json()` (one contract JSON line) and `summary()`
//!   (one short human line for the timeline and the TUI stepper).

pub mod budgets;
mod call;
pub mod chrome;
mod jsonl;
pub mod model;
pub mod redact;
pub mod runner;
pub mod scenario;
pub mod services;
mod timeline;
pub mod trace;
mod truncate;

use std::path::Path;

use serde_json::json;

pub use budgets::{Budgets, Used};
pub use chrome::{chrome_trace, write_chrome_trace};
pub use model::{Block, Message, Model, ModelReply, Role, ScriptedModel, ToolDecl};
pub use runner::{Run, run_blocking, run_id, run_with_model};
pub use scenario::{
    AttemptScript, CallScript, Expected, MAX_CALLS, ProposedCall, Scenario, TimeoutMode, Turn,
};
pub use services::{ToolKind, declarations};
pub use trace::{
    Category, EventKind, HandlerState, Outcome, Rejection, StopReason, TraceEvent, results_map,
};
pub use truncate::truncate_result;

use crate::content::{Content, TextFile};
use crate::error::{UserError, UserResult};

/// The folder of the fixtures tree that holds the scenarios.
pub const SCENARIO_DIR: &str = "scenarios";

/// What a scenario file is, for a file that holds something else.
const SCENARIO_FILE: crate::validate::json::JsonFile = crate::validate::json::JsonFile {
    object: true,
    is: "a scenario file is one JSON object ({\"title\", \"context\", \"turns\", ...})",
};

/// Load a scenario: a path to a file, or a name under `fixtures/scenarios/`. A file that does
/// not parse is reported as `file:line:col: what` (text that is not JSON first, as
/// `file:line:col: not JSON: what`).
pub fn load_scenario(content: &Content, name_or_path: &str) -> UserResult<Scenario> {
    let looks_like_path = name_or_path.contains('/')
        || name_or_path.contains('\\')
        || name_or_path.ends_with(".json");
    let file = if looks_like_path || Path::new(name_or_path).is_file() {
        let text = crate::input::read_text(
            Path::new(name_or_path),
            crate::input::MAX_SCENARIO_BYTES,
            name_or_path,
        )?;
        TextFile {
            display: name_or_path.to_owned(),
            rel: name_or_path.to_owned(),
            text,
        }
    } else {
        let rel = format!("{SCENARIO_DIR}/{name_or_path}.json");
        if !content.fixtures.exists(&rel) {
            let known = scenario_names(content).unwrap_or_default().join(", ");
            return Err(UserError::new(format!(
                "no scenario named {} (known: {known})",
                crate::sanitize::quote(name_or_path)
            )));
        }
        content.fixtures.read(&rel)?
    };
    let mut scenario: Scenario =
        crate::validate::json::parse_json_file(&file.text, &file.display, &SCENARIO_FILE)?;
    scenario.name = Path::new(&file.rel)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    scenario
        .lint()
        .map_err(|e| UserError::new(format!("{}: {e}", file.display)))?;
    if scenario.records.is_none() {
        scenario.default_records = crate::executor::cases::tickets(content)?;
    }
    Ok(scenario)
}

/// The names of the shipped (or `--fixtures`) scenarios, sorted.
pub fn scenario_names(content: &Content) -> UserResult<Vec<String>> {
    Ok(content
        .fixtures
        .list(SCENARIO_DIR, ".json")?
        .into_iter()
        .filter_map(|rel| {
            Path::new(&rel)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .collect())
}

/// A generated load scenario: one model turn proposing `calls` lookups, run `concurrency` at a
/// time, with varied latencies, every tenth call failing once upstream (so retries run) and
/// ids TKT-900 to TKT-999 missing from the store (so some lookups are not_found).
/// Used by the bench and the soak test; built in code rather than shipped as a huge file.
pub fn load_scenario_generated(calls: usize, concurrency: u32) -> Scenario {
    let records: Vec<crate::executor::Record> = (0..900)
        .map(|i| crate::executor::Record {
            tenant: "alpha".into(),
            id: format!("TKT-{i:03}"),
            title: format!("Generated ticket {i}"),
            status: if i % 3 == 0 { "closed" } else { "open" }.into(),
            description: None,
        })
        .collect();
    let mut scripts = std::collections::BTreeMap::new();
    let proposed: Vec<ProposedCall> = (0..calls)
        .map(|i| {
            let id = format!("c{i}");
            let latency = 5 + (i as u64 * 7919) % 60;
            let mut attempts = vec![AttemptScript {
                latency_ms: Some(latency),
                ..AttemptScript::default()
            }];
            if i % 10 == 0 {
                attempts.insert(
                    0,
                    AttemptScript {
                        latency_ms: Some(latency / 2),
                        error: Some("upstream 503".into()),
                        stop_delay_ms: 0,
                    },
                );
            }
            scripts.insert(id.clone(), CallScript { attempts });
            ProposedCall {
                id,
                tool: "get_ticket".into(),
                args: Some(std::sync::Arc::new(
                    json!({"ticket_id": format!("TKT-{:03}", i % 1000)}),
                )),
                args_text: None,
                idempotency_key: None,
            }
        })
        .collect();
    Scenario {
        name: format!("generated-{calls}x{concurrency}"),
        title: format!("{calls} lookups, {concurrency} at a time"),
        note: String::new(),
        task: None,
        context: crate::executor::Context {
            tenant: "alpha".into(),
            can_read_tickets: true,
            can_write_tickets: false,
        },
        budgets: Budgets {
            max_model_turns: 2,
            max_tool_calls: calls as u32,
            deadline_ms: 3_600_000,
            max_concurrency: concurrency,
            retry_budget: calls as u32,
            ..Budgets::default()
        },
        timeouts: TimeoutMode::Cancel,
        cancel_at_ms: None,
        model_latency_ms: 100,
        default_latency_ms: 40,
        calls: scripts,
        turns: vec![
            Turn::Calls { calls: proposed },
            Turn::Final {
                r#final: "done".into(),
            },
        ],
        sensitive_args: Vec::new(),
        idempotency_keys: false,
        records: Some(records),
        default_records: Vec::new(),
        expected: None,
    }
}
