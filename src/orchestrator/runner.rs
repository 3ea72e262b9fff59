//! The bounded loop. Each step checks the stop token (user cancel, deadline), the time left
//! and the model-turn budget; asks the model; stops on a final answer; otherwise validates
//! every proposed call, reserves tool-call budget before dispatch, runs the permitted calls
//! concurrently (a `JoinSet` per turn, a `Semaphore` for `max_concurrency`), attaches each
//! result under its own call id, and goes round again.
//!
//! Determinism: runs use a current-thread runtime with the clock paused, every `select!` is
//! `biased`, jitter comes from a ChaCha8 generator seeded per call from the scenario seed, and
//! results enter the transcript in proposal order whatever order they finished in. With no
//! real I/O and one thread, the same scenario and seed replay the same schedule.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::budgets::Budgets;
use super::model::{Block, Message, Model, ModelReply, Role, ScriptedModel};
use super::scenario::{AttemptScript, ProposedCall, Scenario, TimeoutMode};
use super::services::{self, AttemptInfo, HandlerOut, Services, ToolKind};
use super::trace::{
    Category, EventKind, HandlerState, Outcome, Recorder, Rejection, StopReason, TraceEvent,
};

/// What the model is told when a call is refused because an earlier one was forbidden.
const DENIED_AFTER_FORBIDDEN: &str =
    "a call was forbidden earlier in this run; no further tool calls are dispatched";

/// A finished run: every event in order, the stop summary and the transcript the model saw.
#[derive(Debug, Clone)]
pub struct Run {
    pub run_id: String,
    pub scenario: String,
    pub title: String,
    pub seed: u64,
    pub budgets: Budgets,
    pub events: Vec<TraceEvent>,
    pub stop_reason: StopReason,
    pub turns_used: u32,
    pub tool_calls_used: u32,
    /// call id -> category, for every call the model proposed, in proposal order.
    pub results: Vec<(Arc<str>, Category)>,
    /// Virtual ms when the last event happened.
    pub end_ms: u64,
    pub transcript: Vec<Message>,
}

impl Run {
    /// The call ids in the order the model proposed them (the trace player's lanes).
    pub fn call_ids(&self) -> Vec<&str> {
        self.results.iter().map(|(id, _)| &**id).collect()
    }

    pub fn category_of(&self, call_id: &str) -> Option<Category> {
        self.results
            .iter()
            .find(|(id, _)| &**id == call_id)
            .map(|(_, c)| *c)
    }

    /// The events that happened at or before `t_ms` (a playback cursor's view).
    pub fn events_until(&self, t_ms: u64) -> &[TraceEvent] {
        let n = self.events.partition_point(|e| e.t_ms <= t_ms);
        &self.events[..n]
    }

    /// Budgets spent as of `t_ms` (for gauges while playing back).
    pub fn used_at(&self, t_ms: u64) -> super::budgets::Used {
        self.events_until(t_ms)
            .last()
            .map(|e| e.used)
            .unwrap_or_default()
    }

    /// The whole trace as JSON Lines (each line ends with `\n`).
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        for e in &self.events {
            out.push_str(&e.to_json().to_string());
            out.push('\n');
        }
        out
    }

    /// The compact human timeline, for an 80-column terminal: one event a line, a long one
    /// wrapped at word boundaries and indented under its text.
    pub fn timeline(&self) -> String {
        let mut out = String::new();
        for e in &self.events {
            let head = format!("{:>7} ms  ", e.t_ms);
            let width = TIMELINE_WIDTH - head.len();
            for (i, line) in wrap_words(&e.summary(), width, width - CONTINUED.len())
                .iter()
                .enumerate()
            {
                out.push_str(if i == 0 { &head } else { CONTINUED_ALL });
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }
}

const TIMELINE_WIDTH: usize = 80;
/// A wrapped event goes on under the text after its lane label (`c1    `).
const CONTINUED: &str = "      ";
const CONTINUED_ALL: &str = "                 ";

/// Split `text` into lines of at most `first` characters (the first) and `rest` (the others),
/// at spaces where it can, mid-word only for a word longer than a whole line.
fn wrap_words(text: &str, first: usize, rest: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    for word in text.split(' ') {
        let mut word = word;
        loop {
            let width = if lines.is_empty() { first } else { rest };
            let wlen = word.chars().count();
            let gap = usize::from(len > 0);
            if len + gap + wlen <= width {
                if gap == 1 {
                    line.push(' ');
                }
                line.push_str(word);
                len += gap + wlen;
                break;
            }
            if len > 0 {
                lines.push(std::mem::take(&mut line));
                len = 0;
                continue;
            }
            // A word longer than a whole line: cut it.
            let cut = word
                .char_indices()
                .nth(width)
                .map_or(word.len(), |(i, _)| i);
            lines.push(word[..cut].to_owned());
            word = &word[cut..];
            if word.is_empty() {
                break;
            }
        }
    }
    if len > 0 || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Run `scenario` with the scripted model on a fresh thread with its own current-thread
/// runtime and a paused clock. Safe to call from inside another tokio runtime.
pub fn run_blocking(scenario: &Scenario, seed: u64) -> Run {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("tooldojo-run".into())
            .spawn_scoped(scope, || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_time()
                    .start_paused(true)
                    .build()
                    .expect("a current-thread tokio runtime can always be built");
                rt.block_on(async {
                    let mut model = ScriptedModel::new(&scenario.turns, scenario.model_latency_ms);
                    run_with_model(scenario, seed, &mut model).await
                })
            })
            .expect("spawning the run thread");
        match worker.join() {
            Ok(run) => run,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// A stable id for a run: the same scenario and seed always get the same id.
pub fn run_id(scenario: &Scenario, seed: u64) -> String {
    let mut h = Sha256::new();
    h.update(scenario.name.as_bytes());
    h.update([0]);
    h.update(scenario.title.as_bytes());
    h.update(seed.to_le_bytes());
    let d = h.finalize();
    let hex: String = d[..4].iter().map(|b| format!("{b:02x}")).collect();
    format!("run-{hex}")
}

/// What every call task of a run shares.
struct Shared {
    rec: Recorder,
    services: Arc<Services>,
    sem: Arc<Semaphore>,
    stop: CancellationToken,
    deadline: Instant,
    budgets: Budgets,
    mode: TimeoutMode,
    seed: u64,
    /// The registered tools' names, shared by every event that names them.
    tool_names: [Arc<str>; 3],
    /// Race mode: waiters for handlers nobody waits for any more.
    lingering: Mutex<Vec<JoinHandle<()>>>,
    /// Set the moment an attempt comes back `forbidden`: from then on no call of the run
    /// starts an attempt, not even one of the same turn still waiting for a slot.
    forbidden: AtomicBool,
}

/// A validated call with its budget reserved.
struct Dispatch {
    idx: usize,
    global: u64,
    id: Arc<str>,
    kind: ToolKind,
    args: Arc<Value>,
    /// The arguments as the trace shows them (sensitive ones hashed).
    shown: Arc<Value>,
    key: Option<String>,
    /// The scenario's script for this call's attempts (empty: defaults).
    script: Vec<AttemptScript>,
}

/// What a call ended with, for the transcript.
struct Finished {
    category: Category,
    content: String,
    /// Refused after a `forbidden` result (the run then stops with `authorization_denied`).
    denied: bool,
}

/// The loop itself, with any model. Call it on a runtime with a paused clock for virtual time.
pub async fn run_with_model<M: Model>(scenario: &Scenario, seed: u64, model: &mut M) -> Run {
    let start = Instant::now();
    let run_id = run_id(scenario, seed);
    let expected_calls: usize = scenario
        .turns
        .iter()
        .map(|t| match t {
            super::scenario::Turn::Calls { calls } => calls.len(),
            super::scenario::Turn::Final { .. } => 0,
        })
        .sum();
    let rec = Recorder::new(start, &run_id, 8 + expected_calls * 5);
    let b = scenario.budgets;
    let deadline = start + Duration::from_millis(b.deadline_ms);
    let stop = CancellationToken::new();
    let cause: Arc<Mutex<Option<StopReason>>> = Arc::new(Mutex::new(None));

    rec.emit(
        0,
        EventKind::RunStarted {
            scenario: scenario.name.clone(),
            title: scenario.title.clone(),
            seed,
            budgets: b,
            timeouts: match scenario.timeouts {
                TimeoutMode::Cancel => "cancel",
                TimeoutMode::Race => "race",
            },
        },
    );

    // One watcher turns the deadline and the user's cancel into the stop token.
    let watcher = {
        let stop = stop.clone();
        let cause = cause.clone();
        let cancel_at = scenario
            .cancel_at_ms
            .map(|ms| start + Duration::from_millis(ms));
        tokio::spawn(async move {
            let reason = tokio::select! {
                biased;
                _ = async {
                    match cancel_at {
                        Some(at) => tokio::time::sleep_until(at).await,
                        None => std::future::pending().await,
                    }
                } => StopReason::Cancelled,
                _ = tokio::time::sleep_until(deadline) => StopReason::Deadline,
            };
            cause
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get_or_insert(reason);
            stop.cancel();
        })
    };
    let stop_cause = || {
        cause
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .unwrap_or(StopReason::Cancelled)
    };

    let tool_names: [Arc<str>; 3] = services::TOOLS.map(|t| Arc::from(t.name()));
    let shared = Arc::new(Shared {
        rec: rec.clone(),
        services: Services::new(
            scenario.context.clone(),
            scenario.store_records().to_vec(),
            scenario.default_latency_ms,
        ),
        sem: Arc::new(Semaphore::new(b.max_concurrency.max(1) as usize)),
        stop: stop.clone(),
        deadline,
        budgets: b,
        mode: scenario.timeouts,
        seed,
        tool_names: tool_names.clone(),
        lingering: Mutex::new(Vec::new()),
        forbidden: AtomicBool::new(false),
    });

    let tools = services::declarations();
    let task = scenario
        .task
        .clone()
        .unwrap_or_else(|| scenario.title.clone());
    let mut transcript = vec![Message::user_text(&task)];
    let mut results: Vec<(Arc<str>, Category)> = Vec::with_capacity(expected_calls);
    let mut turn: u32 = 0;
    let mut forbidden_seen = false;
    let mut invalid_calls: u32 = 0;
    let mut proposed: u64 = 0;

    let reason = loop {
        if stop.is_cancelled() {
            break stop_cause();
        }
        if Instant::now() >= deadline {
            break StopReason::Deadline;
        }
        if turn >= b.max_model_turns {
            break StopReason::MaxModelTurns;
        }
        let asked_ms = rec.now_ms();
        let reply = tokio::select! {
            biased;
            _ = stop.cancelled() => break stop_cause(),
            r = model.respond(&transcript, &tools) => r,
        };
        turn += 1;
        let calls = match reply {
            ModelReply::Final(text) => {
                rec.update(
                    turn,
                    |u| u.turns = turn,
                    Some(EventKind::ModelTurn {
                        start_ms: asked_ms,
                        calls: Vec::new(),
                        final_answer: Some(text.clone()),
                    }),
                );
                transcript.push(Message::assistant_text(&text));
                break StopReason::FinalAnswer;
            }
            ModelReply::Calls(calls) => calls,
        };
        rec.update(
            turn,
            |u| u.turns = turn,
            Some(EventKind::ModelTurn {
                start_ms: asked_ms,
                calls: calls.iter().map(|c| c.id.clone()).collect(),
                final_answer: None,
            }),
        );

        // 1. Classify every call before anything runs.
        let mut slots: Vec<Option<Finished>> = calls.iter().map(|_| None).collect();
        let mut valid: Vec<(usize, ToolKind, Arc<Value>)> = Vec::with_capacity(calls.len());
        let mut stop_now: Option<StopReason> = None;
        // The arguments as written, shared by the dispatch, the trace and the transcript.
        let mut calls = calls;
        let inputs: Vec<Option<Arc<Value>>> = calls
            .iter_mut()
            .map(|c| c.args.take().map(Arc::new))
            .collect();
        for (idx, call) in calls.iter().enumerate() {
            let input = inputs[idx].as_deref();
            let shown = || {
                Arc::new(services::redact(
                    &call.tool,
                    input,
                    call.args_text.as_deref(),
                    &scenario.sensitive_args,
                ))
            };
            if forbidden_seen {
                let msg = DENIED_AFTER_FORBIDDEN;
                slots[idx] = Some(reject(
                    &rec,
                    turn,
                    call,
                    Rejection::DeniedAfterForbidden,
                    msg,
                    shown(),
                    &mut results,
                ));
                stop_now = Some(StopReason::AuthorizationDenied);
                continue;
            }
            match services::validate_call(&call.tool, input, call.args_text.as_deref()) {
                Ok((kind, parsed)) => {
                    let args = match parsed {
                        Some(v) => Arc::new(v),
                        None => inputs[idx].clone().unwrap_or_else(|| Arc::new(Value::Null)),
                    };
                    valid.push((idx, kind, args))
                }
                Err((why, msg)) => {
                    invalid_calls += 1;
                    let over = invalid_calls > b.max_repairs;
                    if !over {
                        rec.update(turn, |u| u.repairs = invalid_calls, None);
                    }
                    slots[idx] = Some(reject(&rec, turn, call, why, &msg, shown(), &mut results));
                    if over {
                        stop_now.get_or_insert(StopReason::RepairLimit);
                    }
                }
            }
        }

        // 2. Reserve budget, then dispatch (unless the turn already ended the run).
        let mut budget_hit = false;
        let mut pos: Vec<usize> = vec![usize::MAX; calls.len()];
        let mut set: JoinSet<(usize, Finished)> = JoinSet::new();
        for (idx, kind, args) in valid {
            let call = &calls[idx];
            if stop_now.is_some() {
                let content = json!({"ok": false, "code": "cancelled",
                    "detail": "not dispatched: the run stopped in this turn"})
                .to_string();
                let id: Arc<str> = Arc::from(call.id.as_str());
                record_result(
                    &rec,
                    turn,
                    &id,
                    &call.tool,
                    Category::Cancelled,
                    0,
                    false,
                    content.len(),
                    rec.now_ms(),
                    "not_checked",
                );
                results.push((id, Category::Cancelled));
                slots[idx] = Some(Finished {
                    category: Category::Cancelled,
                    content,
                    denied: false,
                });
                continue;
            }
            let shown = if services::has_sensitive_args(&call.tool, &scenario.sensitive_args) {
                Arc::new(services::redact(
                    &call.tool,
                    Some(&args),
                    None,
                    &scenario.sensitive_args,
                ))
            } else {
                args.clone()
            };
            if rec.used().tool_calls >= b.max_tool_calls {
                let msg = format!(
                    "tool-call budget of {} is spent; the call was not run",
                    b.max_tool_calls
                );
                slots[idx] = Some(reject(
                    &rec,
                    turn,
                    call,
                    Rejection::BudgetExhausted,
                    &msg,
                    shown,
                    &mut results,
                ));
                budget_hit = true;
                continue;
            }
            let id: Arc<str> = Arc::from(call.id.as_str());
            rec.update(
                turn,
                |u| u.tool_calls += 1,
                Some(EventKind::CallAccepted {
                    call_id: id.clone(),
                    tool: tool_names[kind as usize].clone(),
                    args: shown.clone(),
                    idempotency_key: call.idempotency_key.clone(),
                }),
            );
            pos[idx] = results.len();
            results.push((id.clone(), Category::Cancelled)); // placeholder until it finishes
            let d = Dispatch {
                idx,
                global: proposed + idx as u64,
                id,
                kind,
                args,
                shown,
                key: call.idempotency_key.clone(),
                script: scenario
                    .calls
                    .get(&call.id)
                    .map(|c| c.attempts.clone())
                    .unwrap_or_default(),
            };
            set.spawn(call_task(shared.clone(), d, turn));
        }
        proposed += calls.len() as u64;

        // 3. Attach each result under its own id, whatever order they finish in.
        while let Some(joined) = set.join_next().await {
            match joined {
                Ok((idx, fin)) => {
                    if fin.denied {
                        stop_now.get_or_insert(StopReason::AuthorizationDenied);
                    }
                    if let Some(slot) = results.get_mut(pos[idx]) {
                        slot.1 = fin.category;
                    }
                    slots[idx] = Some(fin);
                }
                Err(e) => std::panic::resume_unwind(e.into_panic()),
            }
        }
        let mut blocks = Vec::with_capacity(calls.len());
        for (call, slot) in calls.iter().zip(slots) {
            let fin = slot.unwrap_or(Finished {
                category: Category::Cancelled,
                content: json!({"ok": false, "code": "cancelled"}).to_string(),
                denied: false,
            });
            if fin.category == Category::Forbidden {
                forbidden_seen = true;
            }
            blocks.push(Block::ToolResult {
                tool_use_id: call.id.clone(),
                is_error: fin.category != Category::Ok,
                content: fin.content,
            });
        }
        transcript.push(Message::assistant_calls(calls, inputs));
        transcript.push(Message {
            role: Role::User,
            content: blocks,
        });

        if let Some(r) = stop_now {
            break r;
        }
        if stop.is_cancelled() {
            break stop_cause();
        }
        if budget_hit {
            break StopReason::MaxToolCalls;
        }
    };

    // Stop the clock watchers, then let handlers nobody waits for finish (race mode), so
    // their late finish is on the record before the last line.
    let decided_ms = rec.now_ms();
    watcher.abort();
    loop {
        let pending: Vec<JoinHandle<()>> =
            std::mem::take(&mut *shared.lingering.lock().unwrap_or_else(|p| p.into_inner()));
        if pending.is_empty() {
            break;
        }
        for h in pending {
            let _ = h.await;
        }
    }
    rec.emit(
        turn,
        EventKind::Stopped {
            stop_reason: reason,
            decided_ms,
            results: results.clone(),
        },
    );
    let used = rec.used();
    let events = rec.take();
    Run {
        run_id,
        scenario: scenario.name.clone(),
        title: scenario.title.clone(),
        seed,
        budgets: b,
        end_ms: events.last().map(|e| e.t_ms).unwrap_or(0),
        events,
        stop_reason: reason,
        turns_used: used.turns,
        tool_calls_used: used.tool_calls,
        results,
        transcript,
    }
}

/// Refuse a call before dispatch: a concise error goes back to the model as its result.
fn reject(
    rec: &Recorder,
    turn: u32,
    call: &ProposedCall,
    why: Rejection,
    msg: &str,
    shown: Arc<Value>,
    results: &mut Vec<(Arc<str>, Category)>,
) -> Finished {
    let id: Arc<str> = Arc::from(call.id.as_str());
    rec.emit(
        turn,
        EventKind::CallRejected {
            call_id: id.clone(),
            tool: Arc::from(call.tool.as_str()),
            category: why,
            error: msg.to_owned(),
            args: shown,
        },
    );
    let category = why.category();
    let content = json!({"ok": false, "code": why, "error": msg}).to_string();
    let authorization = if why == Rejection::DeniedAfterForbidden {
        "denied"
    } else {
        "not_checked"
    };
    record_result(
        rec,
        turn,
        &id,
        &call.tool,
        category,
        0,
        false,
        content.len(),
        rec.now_ms(),
        authorization,
    );
    results.push((id, category));
    Finished {
        category,
        content,
        denied: why == Rejection::DeniedAfterForbidden,
    }
}

#[allow(clippy::too_many_arguments)]
fn record_result(
    rec: &Recorder,
    turn: u32,
    call_id: &Arc<str>,
    tool: &str,
    category: Category,
    attempts: u32,
    truncated: bool,
    bytes: usize,
    start_ms: u64,
    authorization: &'static str,
) {
    let validation = match category {
        Category::InvalidArguments | Category::UnknownTool => "failed",
        _ => "ok",
    };
    rec.emit(
        turn,
        EventKind::CallResult {
            call_id: call_id.clone(),
            tool: Arc::from(tool),
            category,
            attempts,
            truncated,
            bytes,
            start_ms,
            validation,
            authorization,
        },
    );
}

/// Cut `text` to at most `max` bytes, marker included, on a character boundary. The marker
/// says how much was cut when it fits; a short one when only that fits; with no room for any
/// text at all, as much of the short marker as fits (the trace still says `truncated: true`).
pub fn truncate_result(text: String, max: usize) -> (String, bool) {
    if text.len() <= max {
        return (text, false);
    }
    const SHORT: &str = " [truncated]";
    let long = format!(" [truncated: result cut to {max} of {} bytes]", text.len());
    let marker = if long.len() <= max {
        long.as_str()
    } else if SHORT.len() <= max {
        SHORT
    } else {
        return (SHORT[1..1 + max.min(SHORT.len() - 1)].to_owned(), true);
    };
    let mut keep = max - marker.len();
    while !text.is_char_boundary(keep) {
        keep -= 1;
    }
    let mut out = text;
    out.truncate(keep);
    out.push_str(marker);
    (out, true)
}

/// One dispatched call: attempts, timeouts, retries with backoff, until it has a result.
async fn call_task(sh: Arc<Shared>, d: Dispatch, turn: u32) -> (usize, Finished) {
    // Jitter per call, seeded from the run seed and the call's place in the run, so the
    // draws do not depend on which task happens to retry first.
    let rng_seed = sh.seed ^ (d.global + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut rng: Option<ChaCha8Rng> = None;
    let b = sh.budgets;
    let tool: Arc<str> = sh.tool_names[d.kind as usize].clone();
    let start_ms = sh.rec.now_ms();
    let mut attempts: u32 = 0;
    let grace = Duration::from_millis(b.cancel_grace_ms);
    let mut last_failure: Option<(Category, HandlerOut)> = None;

    let (category, out) = loop {
        // A slot first: never more than max_concurrency handlers at once.
        let permit: OwnedSemaphorePermit = tokio::select! {
            biased;
            _ = sh.stop.cancelled() => break (Category::Cancelled, HandlerOut::cancelled()),
            p = sh.sem.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break (Category::Cancelled, HandlerOut::cancelled()),
            },
        };
        if sh.forbidden.load(Ordering::Relaxed) {
            drop(permit);
            match last_failure.take() {
                // A retry of a call that already ran: no new attempt, it keeps its failure.
                Some(failed) => break failed,
                // Queued behind the slot when the denial came: never dispatched.
                None => return deny_after_forbidden(&sh, d, turn),
            }
        }
        let now = Instant::now();
        if now >= sh.deadline {
            break (Category::Cancelled, HandlerOut::cancelled());
        }
        attempts += 1;
        let attempt = attempts;
        let limit = Duration::from_millis(b.call_timeout_ms).min(sh.deadline - now);
        let a_start = sh.rec.now_ms();
        sh.rec.update(
            turn,
            |u| u.in_flight += 1,
            Some(EventKind::AttemptStarted {
                call_id: d.id.clone(),
                tool: tool.clone(),
                attempt,
                timeout_ms: limit.as_millis() as u64,
            }),
        );
        let a_stop = CancellationToken::new();
        let info = AttemptInfo {
            rec: sh.rec.clone(),
            turn,
            call_id: d.id.clone(),
            attempt,
        };
        let script = d
            .script
            .get(attempt as usize - 1)
            .cloned()
            .unwrap_or_default();
        // The handler is polled right here while someone waits for it; in race mode a
        // timed-out handler moves onto a task of its own and runs on.
        let mut handler: Pin<Box<dyn Future<Output = HandlerOut> + Send>> =
            Box::pin(sh.services.clone().handle(
                d.kind,
                d.args.clone(),
                d.key.clone(),
                script,
                a_stop.clone(),
                info,
            ));

        enum Waited {
            Done(HandlerOut),
            TimedOut,
            Stopped,
        }
        let waited = tokio::select! {
            biased;
            r = tokio::time::timeout(limit, &mut handler) => match r {
                Ok(out) => Waited::Done(out),
                // A timeout that lands on the deadline is the deadline stopping the call.
                Err(_) if Instant::now() >= sh.deadline => Waited::Stopped,
                Err(_) => Waited::TimedOut,
            },
            _ = sh.stop.cancelled() => Waited::Stopped,
        };
        let mut permit = Some(permit);
        let (outcome, state, out) = match waited {
            Waited::Done(out) => (out.outcome, HandlerState::Finished, Some(out)),
            Waited::TimedOut | Waited::Stopped => {
                let outcome = if matches!(waited, Waited::TimedOut) {
                    Outcome::Timeout
                } else {
                    Outcome::Cancelled
                };
                // The deadline and the user's cancel stop the work in either mode; race
                // mode only lets a handler run on past its own attempt timeout.
                let stopping = matches!(waited, Waited::Stopped);
                match sh.mode {
                    _ if stopping => {
                        a_stop.cancel();
                        if tokio::time::timeout(grace, &mut handler).await.is_err() {
                            drop(handler);
                        }
                        (outcome, HandlerState::Stopped, None)
                    }
                    TimeoutMode::Cancel => {
                        // Tell the handler to stop and give it a bounded grace to do so.
                        a_stop.cancel();
                        if tokio::time::timeout(grace, &mut handler).await.is_err() {
                            // Past the grace: drop it, which aborts the work.
                            drop(handler);
                        }
                        (outcome, HandlerState::Stopped, None)
                    }
                    TimeoutMode::Race => {
                        // Only the waiting stops: the handler keeps its slot and runs on.
                        let rec = sh.rec.clone();
                        let (id, held, tool) = (d.id.clone(), permit.take(), tool.clone());
                        let stop = sh.stop.clone();
                        let waiter = tokio::spawn(async move {
                            // It runs on until it finishes, or until the deadline or the
                            // user's cancel, which stop it like any other work in flight.
                            let late = tokio::select! {
                                biased;
                                out = &mut handler => out.outcome,
                                _ = stop.cancelled() => {
                                    a_stop.cancel();
                                    let _ = tokio::time::timeout(grace, &mut handler).await;
                                    Outcome::Cancelled
                                }
                            };
                            drop(held);
                            rec.update(
                                turn,
                                |u| u.in_flight = u.in_flight.saturating_sub(1),
                                Some(EventKind::HandlerStillRunning {
                                    call_id: id,
                                    tool: tool.clone(),
                                    attempt,
                                    start_ms: a_start,
                                    outcome: late,
                                }),
                            );
                        });
                        sh.lingering
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push(waiter);
                        (outcome, HandlerState::Running, None)
                    }
                }
            }
        };
        if outcome == Outcome::Forbidden {
            sh.forbidden.store(true, Ordering::Relaxed);
        }
        let running = state == HandlerState::Running;
        sh.rec.update(
            turn,
            |u| {
                if !running {
                    u.in_flight = u.in_flight.saturating_sub(1)
                }
            },
            Some(EventKind::AttemptFinished {
                call_id: d.id.clone(),
                tool: tool.clone(),
                attempt,
                outcome,
                start_ms: a_start,
                handler: state,
                error: out.as_ref().and_then(|o| o.error.clone()),
            }),
        );
        drop(permit);

        let transient = match outcome {
            Outcome::Ok | Outcome::NotFound | Outcome::Forbidden => {
                let out = out.unwrap_or_else(HandlerOut::cancelled);
                break (Category::from_outcome(outcome), out);
            }
            Outcome::Cancelled => break (Category::Cancelled, HandlerOut::cancelled()),
            Outcome::Timeout => true,
            Outcome::Error => out.as_ref().is_some_and(|o| o.transient),
        };
        let write = d.kind.is_write();
        let failed = match outcome {
            Outcome::Timeout if write => (
                Category::UnknownOutcome,
                failure_body(
                    "unknown_outcome",
                    "the write timed out: it may or may not have been applied",
                ),
            ),
            Outcome::Timeout => (
                Category::Timeout,
                failure_body(
                    "timeout",
                    &format!("no answer within {} ms", limit.as_millis()),
                ),
            ),
            _ => (
                Category::Error,
                out.unwrap_or_else(|| HandlerOut::error("error")),
            ),
        };
        // Reads retry; writes only with an idempotency key (the service then replays).
        let may_retry = transient && (!write || d.key.is_some());
        if !may_retry || attempt >= b.max_attempts || sh.stop.is_cancelled() {
            break failed;
        }
        let delay = b.backoff(
            attempt,
            rng.get_or_insert_with(|| ChaCha8Rng::seed_from_u64(rng_seed)),
        );
        if Instant::now() + Duration::from_millis(delay) >= sh.deadline {
            break failed;
        }
        let scheduled = sh.rec.try_spend_retry(
            turn,
            b.retry_budget,
            EventKind::RetryScheduled {
                call_id: d.id.clone(),
                attempt,
                delay_ms: delay,
            },
        );
        if !scheduled {
            break failed;
        }
        last_failure = Some(failed);
        tokio::select! {
            biased;
            _ = sh.stop.cancelled() => break (Category::Cancelled, HandlerOut::cancelled()),
            _ = tokio::time::sleep(Duration::from_millis(delay)) => {}
        }
    };

    let (content, truncated) = truncate_result(out.body, b.max_result_bytes);
    let authorization = match category {
        Category::Ok | Category::NotFound => "allowed",
        Category::Forbidden => "denied",
        _ => "not_checked",
    };
    sh.rec.emit(
        turn,
        EventKind::CallResult {
            call_id: d.id.clone(),
            tool,
            category,
            attempts,
            truncated,
            bytes: content.len(),
            start_ms,
            validation: "ok",
            authorization,
        },
    );
    (
        d.idx,
        Finished {
            category,
            content,
            denied: false,
        },
    )
}

/// A call that was accepted but still waiting for a slot when another call of the run came
/// back `forbidden`: refused without running, and its tool-call reservation given back.
fn deny_after_forbidden(sh: &Shared, d: Dispatch, turn: u32) -> (usize, Finished) {
    let why = Rejection::DeniedAfterForbidden;
    let msg = DENIED_AFTER_FORBIDDEN;
    let tool = sh.tool_names[d.kind as usize].clone();
    sh.rec.update(
        turn,
        |u| u.tool_calls = u.tool_calls.saturating_sub(1),
        Some(EventKind::CallRejected {
            call_id: d.id.clone(),
            tool: tool.clone(),
            category: why,
            error: msg.to_owned(),
            args: d.shown,
        }),
    );
    let content = json!({"ok": false, "code": why, "error": msg}).to_string();
    sh.rec.emit(
        turn,
        EventKind::CallResult {
            call_id: d.id,
            tool,
            category: why.category(),
            attempts: 0,
            truncated: false,
            bytes: content.len(),
            start_ms: sh.rec.now_ms(),
            validation: "ok",
            authorization: "denied",
        },
    );
    (
        d.idx,
        Finished {
            category: why.category(),
            content,
            denied: true,
        },
    )
}

fn failure_body(code: &str, detail: &str) -> HandlerOut {
    HandlerOut {
        body: json!({"ok": false, "code": code, "detail": detail}).to_string(),
        ..HandlerOut::error(detail)
    }
}
