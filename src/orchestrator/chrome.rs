//! The Chrome trace event format (`{"traceEvents": [...]}`), which Perfetto and
//! chrome://tracing open: complete `"ph": "X"` slices, `ts`/`dur` in microseconds, the model on
//! track 0 and one track per call (a second track per call holds handlers nobody waited for).

use std::collections::{HashMap, HashSet};
use std::io::{self, Write};

use serde_json::{Value, json};

use super::runner::Run;
use super::trace::{EventKind, TraceEvent};

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

/// The run as a Chrome trace document (the whole document in memory: for a small run; a
/// file is written with [`write_chrome_trace`]).
pub fn chrome_trace(run: &Run) -> Value {
    let mut events = Vec::new();
    let _ = each_event(run, &mut |v| {
        events.push(v);
        Ok(())
    });
    json!({"traceEvents": events, "displayTimeUnit": "ms"})
}

/// Write the run as a Chrome trace document to `out`, one event at a time: memory stays
/// that of one event whatever the length of the run. The bytes are those of
/// [`chrome_trace`] serialized, with every character that could steer a terminal escaped,
/// and a newline.
pub fn write_chrome_trace(run: &Run, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(b"{\"traceEvents\":[")?;
    let mut first = true;
    each_event(run, &mut |v| {
        if !first {
            out.write_all(b",")?;
        }
        first = false;
        let text = serde_json::to_string(&v).map_err(io::Error::other)?;
        out.write_all(crate::sanitize::escape_json_controls(text).as_bytes())
    })?;
    out.write_all(b"],\"displayTimeUnit\":\"ms\"}\n")
}

/// Hand every event of the document to `emit`, in order; at most the slices of one trace
/// event are held at a time.
fn each_event(run: &Run, emit: &mut dyn FnMut(Value) -> io::Result<()>) -> io::Result<()> {
    emit(
        json!({"name": "process_name", "ph": "M", "pid": PID, "tid": 0,
                "args": {"name": format!("tooldojo {} (seed {})", run.scenario, run.seed)}}),
    )?;
    emit(thread_name(0, "model"))?;
    let mut doc = Doc {
        tracks: HashMap::new(),
        ids: run.call_ids(),
        out: Vec::new(),
        orphan_tracks: HashSet::new(),
    };
    for (i, id) in doc.ids.iter().enumerate() {
        // A repeated call id keeps its first track, as a scan from the front would.
        doc.tracks.entry(*id).or_insert(i as u64 + 1);
    }
    for e in &run.events {
        doc.add(e);
        for v in doc.out.drain(..) {
            emit(v)?;
        }
    }
    for (i, id) in doc.ids.iter().enumerate() {
        emit(thread_name(i as u64 + 1, id))?;
    }
    Ok(())
}

/// The document being written.
struct Doc<'r> {
    /// The call ids in proposal order: call `i` is on track `i + 1`.
    ids: Vec<&'r str>,
    /// The track of each call id, looked up once per event (a scan of `ids` per event made
    /// a long run quadratic).
    tracks: HashMap<&'r str, u64>,
    /// The slices of the event being added (handed on and cleared after each).
    out: Vec<Value>,
    /// Tracks already named for handlers nobody waits for.
    orphan_tracks: HashSet<u64>,
}

impl Doc<'_> {
    fn tid_of(&self, id: &str) -> u64 {
        self.tracks.get(id).copied().unwrap_or(0)
    }

    /// Add the slice an event draws, if it draws one.
    fn add(&mut self, e: &TraceEvent) {
        match &e.kind {
            EventKind::RunStarted {
                tenant,
                permissions,
                ..
            } => self.out.push(slice(
                format!("run started: tenant {tenant}"),
                "run",
                0,
                e.t_ms,
                e.t_ms,
                json!({"tenant": tenant, "permissions": permissions}),
            )),
            EventKind::ModelTurn {
                start_ms,
                calls,
                final_answer,
            } => {
                let name = match final_answer {
                    Some(_) => format!("turn {}: final answer", e.turn),
                    None => format!("turn {}: {} call(s)", e.turn, calls.len()),
                };
                let args = json!({"calls": calls});
                self.out
                    .push(slice(name, "model", 0, *start_ms, e.t_ms, args));
            }
            EventKind::CallRejected {
                call_id,
                tool,
                category,
                error,
                ..
            } => self.out.push(slice(
                format!("{call_id} {tool}: rejected ({category})"),
                "call",
                self.tid_of(call_id),
                e.t_ms,
                e.t_ms,
                json!({"error": error}),
            )),
            EventKind::CallResult {
                call_id,
                tool,
                category,
                attempts,
                truncated,
                start_ms,
                ..
            } => self.out.push(slice(
                format!("{call_id} {tool}: {category}"),
                "call",
                self.tid_of(call_id),
                *start_ms,
                e.t_ms,
                json!({"attempts": attempts, "truncated": truncated}),
            )),
            EventKind::Stopped { stop_reason, .. } => self.out.push(slice(
                format!("stopped: {stop_reason}"),
                "run",
                0,
                e.t_ms,
                e.t_ms,
                json!({"turns_used": e.used.turns, "tool_calls_used": e.used.tool_calls}),
            )),
            _ => self.add_attempt(e),
        }
    }

    /// The slices of a call's attempts: each attempt, each backoff, each handler that ran
    /// on unwatched (on a second track of its call).
    fn add_attempt(&mut self, e: &TraceEvent) {
        match &e.kind {
            EventKind::AttemptFinished {
                call_id,
                attempt,
                outcome,
                start_ms,
                handler,
                ..
            } => self.out.push(slice(
                format!("attempt {attempt}: {outcome}"),
                "attempt",
                self.tid_of(call_id),
                *start_ms,
                e.t_ms,
                json!({"handler": handler}),
            )),
            EventKind::RetryScheduled {
                call_id,
                attempt,
                delay_ms,
            } => self.out.push(slice(
                format!("backoff before attempt {}", attempt + 1),
                "backoff",
                self.tid_of(call_id),
                e.t_ms,
                e.t_ms + delay_ms,
                json!({"delay_ms": delay_ms}),
            )),
            EventKind::RetryDenied { call_id, attempt } => self.out.push(slice(
                format!("no retry after attempt {attempt}: retry budget spent"),
                "retry_denied",
                self.tid_of(call_id),
                e.t_ms,
                e.t_ms,
                json!({"retries_used": e.used.retries}),
            )),
            EventKind::HandlerStillRunning {
                call_id,
                attempt,
                start_ms,
                outcome,
                ..
            } => {
                let tid = ORPHAN_TID_BASE + self.tid_of(call_id);
                if self.orphan_tracks.insert(tid) {
                    let name = format!("{call_id} (handler nobody waits for)");
                    self.out.push(thread_name(tid, &name));
                }
                self.out.push(slice(
                    format!("attempt {attempt} handler, still running: {outcome}"),
                    "handler",
                    tid,
                    *start_ms,
                    e.t_ms,
                    json!({}),
                ));
            }
            _ => {}
        }
    }
}
