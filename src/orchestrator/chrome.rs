//! The Chrome trace event format (`{"traceEvents": [...]}`), which Perfetto and
//! chrome://tracing open: complete `"ph": "X"` slices, `ts`/`dur` in microseconds, the model on
//! track 0 and one track per call (a second track per call holds handlers nobody waited for).

use serde_json::{Value, json};

use super::runner::Run;
use super::trace::EventKind;

const PID: u64 = 1;
const ORPHAN_TID_BASE: u64 = 10_000;

fn slice(name: String, cat: &str, tid: u64, start_ms: u64, end_ms: u64, args: Value) -> Value {
    json!({
        "name": name,
        "cat": cat,
        "ph": "X",
        "pid": PID,
        "tid": tid,
        "ts": start_ms * 1000,
        "dur": end_ms.saturating_sub(start_ms) * 1000,
        "args": args,
    })
}

fn thread_name(tid: u64, name: &str) -> Value {
    json!({"name": "thread_name", "ph": "M", "pid": PID, "tid": tid, "args": {"name": name}})
}

/// The run as a Chrome trace document.
pub fn chrome_trace(run: &Run) -> Value {
    let ids = run.call_ids();
    let tid_of = |id: &str| {
        ids.iter()
            .position(|c| *c == id)
            .map_or(0, |i| i as u64 + 1)
    };
    let mut out = vec![
        json!({"name": "process_name", "ph": "M", "pid": PID, "tid": 0,
               "args": {"name": format!("tooldojo {} (seed {})", run.scenario, run.seed)}}),
        thread_name(0, "model"),
    ];
    let mut orphan_tracks = Vec::new();
    for e in &run.events {
        match &e.kind {
            EventKind::ModelTurn {
                start_ms,
                calls,
                final_answer,
            } => {
                let name = match final_answer {
                    Some(_) => format!("turn {}: final answer", e.turn),
                    None => format!("turn {}: {} call(s)", e.turn, calls.len()),
                };
                out.push(slice(
                    name,
                    "model",
                    0,
                    *start_ms,
                    e.t_ms,
                    json!({"calls": calls}),
                ));
            }
            EventKind::CallRejected {
                call_id,
                tool,
                category,
                error,
                ..
            } => out.push(slice(
                format!("{call_id} {tool}: rejected ({category})"),
                "call",
                tid_of(call_id),
                e.t_ms,
                e.t_ms,
                json!({"error": error}),
            )),
            EventKind::AttemptFinished {
                call_id,
                attempt,
                outcome,
                start_ms,
                handler,
                ..
            } => out.push(slice(
                format!("attempt {attempt}: {outcome}"),
                "attempt",
                tid_of(call_id),
                *start_ms,
                e.t_ms,
                json!({"handler": handler}),
            )),
            EventKind::RetryScheduled {
                call_id,
                attempt,
                delay_ms,
            } => out.push(slice(
                format!("backoff before attempt {}", attempt + 1),
                "backoff",
                tid_of(call_id),
                e.t_ms,
                e.t_ms + delay_ms,
                json!({"delay_ms": delay_ms}),
            )),
            EventKind::HandlerStillRunning {
                call_id,
                attempt,
                start_ms,
                outcome,
                ..
            } => {
                let tid = ORPHAN_TID_BASE + tid_of(call_id);
                if !orphan_tracks.contains(&tid) {
                    orphan_tracks.push(tid);
                    out.push(thread_name(
                        tid,
                        &format!("{call_id} (handler nobody waits for)"),
                    ));
                }
                out.push(slice(
                    format!("attempt {attempt} handler, still running: {outcome}"),
                    "handler",
                    tid,
                    *start_ms,
                    e.t_ms,
                    json!({}),
                ));
            }
            EventKind::CallResult {
                call_id,
                tool,
                category,
                attempts,
                truncated,
                start_ms,
                ..
            } => out.push(slice(
                format!("{call_id} {tool}: {category}"),
                "call",
                tid_of(call_id),
                *start_ms,
                e.t_ms,
                json!({"attempts": attempts, "truncated": truncated}),
            )),
            EventKind::Stopped { stop_reason, .. } => out.push(slice(
                format!("stopped: {stop_reason}"),
                "run",
                0,
                e.t_ms,
                e.t_ms,
                json!({"turns_used": e.used.turns, "tool_calls_used": e.used.tool_calls}),
            )),
            _ => {}
        }
    }
    for (i, id) in ids.iter().enumerate() {
        out.push(thread_name(i as u64 + 1, id));
    }
    json!({"traceEvents": out, "displayTimeUnit": "ms"})
}
