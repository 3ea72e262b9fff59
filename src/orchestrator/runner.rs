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

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::budgets::Budgets;
use super::call::{DENIED_AFTER_FORBIDDEN, Dispatch, Finished, Shared, call_task, rejection_body};
use super::model::{Block, Message, Model, ModelReply, Role, ScriptedModel, ToolDecl};
use super::redact::Redactor;
use super::scenario::{self, ProposedCall, Scenario, TimeoutMode, Turn};
use super::services::{self, Services, ToolKind};
use super::trace::{Category, EventKind, Recorder, Rejection, StopReason, TraceEvent};

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

/// The loop itself, with any model. Call it on a runtime with a paused clock for virtual time.
pub async fn run_with_model<M: Model>(scenario: &Scenario, seed: u64, model: &mut M) -> Run {
    let mut run = RunLoop::start(scenario, seed);
    let reason = run.turns(model).await;
    run.finish(reason).await
}

/// One run in progress.
struct RunLoop<'s> {
    scenario: &'s Scenario,
    seed: u64,
    run_id: String,
    rec: Recorder,
    budgets: Budgets,
    deadline: Instant,
    stop: CancellationToken,
    /// Why the stop token fired: the deadline or the user's cancel.
    cause: Arc<Mutex<Option<StopReason>>>,
    watcher: JoinHandle<()>,
    shared: Arc<Shared>,
    tools: Vec<ToolDecl>,
    transcript: Vec<Message>,
    /// call id -> category, in proposal order.
    results: Vec<(Arc<str>, Category)>,
    turn: u32,
    forbidden_seen: bool,
    invalid_calls: u32,
    /// Calls proposed in the turns before this one.
    proposed: u64,
    /// Masks sensitive values in the trace, numbering them across the run.
    redactor: Redactor,
}

/// The calls of one model turn on their way through the steps.
struct TurnCalls {
    calls: Vec<ProposedCall>,
    /// The arguments as written, shared by the dispatch, the trace and the transcript.
    inputs: Vec<Option<Arc<Value>>>,
    /// What each call ended with, by proposal index.
    slots: Vec<Option<Finished>>,
    /// The calls that passed validation: index, tool, arguments.
    valid: Vec<(usize, ToolKind, Arc<Value>)>,
    /// Where each dispatched call's entry sits in the run's results.
    pos: Vec<usize>,
    stop_now: Option<StopReason>,
    budget_hit: bool,
}

impl TurnCalls {
    fn new(mut calls: Vec<ProposedCall>) -> TurnCalls {
        let inputs = calls.iter_mut().map(|c| c.args.take()).collect();
        TurnCalls {
            slots: calls.iter().map(|_| None).collect(),
            valid: Vec::with_capacity(calls.len()),
            pos: vec![usize::MAX; calls.len()],
            stop_now: None,
            budget_hit: false,
            inputs,
            calls,
        }
    }
}

impl<'s> RunLoop<'s> {
    /// Record the start, set the clock watcher going and build what the call tasks share.
    fn start(scenario: &'s Scenario, seed: u64) -> RunLoop<'s> {
        let start = Instant::now();
        let run_id = run_id(scenario, seed);
        let rec = Recorder::new(start, &run_id, 8 + expected_calls(scenario) * 5);
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
                tenant: scenario.context.tenant.clone(),
                permissions: scenario.context.permissions(),
            },
        );
        let cancel_at = scenario
            .cancel_at_ms
            .map(|ms| start + Duration::from_millis(ms));
        let watcher = watch_clock(cancel_at, deadline, stop.clone(), cause.clone());
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
            tool_names: services::TOOLS.map(|t| Arc::from(t.name())),
            lingering: Mutex::new(Vec::new()),
            forbidden: AtomicBool::new(false),
        });
        let task = scenario.task.as_ref().unwrap_or(&scenario.title);
        RunLoop {
            scenario,
            seed,
            run_id,
            rec,
            budgets: b,
            deadline,
            stop,
            cause,
            watcher,
            shared,
            tools: services::declarations(),
            transcript: vec![Message::user_text(task)],
            results: Vec::with_capacity(expected_calls(scenario)),
            turn: 0,
            forbidden_seen: false,
            invalid_calls: 0,
            proposed: 0,
            redactor: Redactor::new(&scenario.sensitive_args),
        }
    }

    fn stop_cause(&self) -> StopReason {
        self.cause
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .unwrap_or(StopReason::Cancelled)
    }

    /// Turn after turn until something stops the run.
    async fn turns<M: Model>(&mut self, model: &mut M) -> StopReason {
        loop {
            if let Some(reason) = self.stopped_before_asking() {
                return reason;
            }
            let asked_ms = self.rec.now_ms();
            let reply = tokio::select! {
                biased;
                _ = self.stop.cancelled() => return self.stop_cause(),
                r = model.respond(&self.transcript, &self.tools) => r,
            };
            self.turn += 1;
            let turn = self.turn;
            let calls = match reply {
                ModelReply::Final(text) => {
                    self.rec.update(
                        turn,
                        |u| u.turns = turn,
                        Some(EventKind::ModelTurn {
                            start_ms: asked_ms,
                            calls: Vec::new(),
                            final_answer: Some(text.clone()),
                        }),
                    );
                    self.transcript.push(Message::assistant_text(&text));
                    return StopReason::FinalAnswer;
                }
                ModelReply::Calls(calls) => calls,
            };
            self.rec.update(
                turn,
                |u| u.turns = turn,
                Some(EventKind::ModelTurn {
                    start_ms: asked_ms,
                    calls: calls.iter().map(|c| c.id.clone()).collect(),
                    final_answer: None,
                }),
            );
            if let Some(reason) = self.play(TurnCalls::new(calls)).await {
                return reason;
            }
        }
    }

    /// Before asking the model: is the run stopped, out of time or out of turns?
    fn stopped_before_asking(&self) -> Option<StopReason> {
        if self.stop.is_cancelled() {
            Some(self.stop_cause())
        } else if Instant::now() >= self.deadline {
            Some(StopReason::Deadline)
        } else if self.turn >= self.budgets.max_model_turns {
            Some(StopReason::MaxModelTurns)
        } else {
            None
        }
    }

    /// One turn's calls: classify, dispatch, collect, answer the model. `Some` ends the run.
    async fn play(&mut self, mut t: TurnCalls) -> Option<StopReason> {
        self.classify(&mut t);
        let set = self.dispatch(&mut t);
        self.collect(&mut t, set).await;
        self.answer(t)
    }

    /// 1. Classify every call before anything runs: refused after a `forbidden`, invalid
    ///    (a repair, until the repair limit), or valid.
    fn classify(&mut self, t: &mut TurnCalls) {
        for (idx, call) in t.calls.iter().enumerate() {
            let input = t.inputs[idx].as_deref();
            if self.forbidden_seen {
                let shown = self.shown_raw(call, input);
                let why = Rejection::DeniedAfterForbidden;
                let msg = DENIED_AFTER_FORBIDDEN;
                t.slots[idx] = Some(self.reject(call, why, msg, (shown, msg.to_owned())));
                t.stop_now = Some(StopReason::AuthorizationDenied);
                continue;
            }
            match services::validate_call(&call.tool, input, call.args_text.as_deref()) {
                Ok((kind, parsed)) => {
                    let args = match parsed {
                        Some(v) => Arc::new(v),
                        None => t.inputs[idx]
                            .clone()
                            .unwrap_or_else(|| Arc::new(Value::Null)),
                    };
                    t.valid.push((idx, kind, args))
                }
                Err((why, msg)) => {
                    self.invalid_calls += 1;
                    let over = self.invalid_calls > self.budgets.max_repairs;
                    if !over {
                        let repairs = self.invalid_calls;
                        self.rec.update(self.turn, |u| u.repairs = repairs, None);
                    }
                    let shown = self.shown_raw(call, input);
                    let traced = self.redactor.error(&call.tool, input, &msg);
                    t.slots[idx] = Some(self.reject(call, why, &msg, (shown, traced)));
                    if over {
                        t.stop_now.get_or_insert(StopReason::RepairLimit);
                    }
                }
            }
        }
    }

    /// The arguments of a call as written, masked for the trace.
    fn shown_raw(&mut self, call: &ProposedCall, input: Option<&Value>) -> Arc<Value> {
        let text = call.args_text.as_deref();
        Arc::new(self.redactor.args(&call.tool, input, text))
    }

    /// The arguments of a valid call as the trace shows them (sensitive ones masked).
    fn shown_valid(&mut self, call: &ProposedCall, args: &Arc<Value>) -> Arc<Value> {
        if self.redactor.applies_to(&call.tool) {
            Arc::new(self.redactor.args(&call.tool, Some(args), None))
        } else {
            args.clone()
        }
    }

    /// 2. Reserve budget, then dispatch (unless the turn already ended the run).
    fn dispatch(&mut self, t: &mut TurnCalls) -> JoinSet<(usize, Finished)> {
        let mut set = JoinSet::new();
        for (idx, kind, args) in std::mem::take(&mut t.valid) {
            let call = &t.calls[idx];
            if t.stop_now.is_some() {
                t.slots[idx] = Some(self.not_dispatched(call));
                continue;
            }
            let shown = self.shown_valid(call, &args);
            if self.rec.used().tool_calls >= self.budgets.max_tool_calls {
                let msg = format!(
                    "tool-call budget of {} is spent; the call was not run",
                    self.budgets.max_tool_calls
                );
                let why = Rejection::BudgetExhausted;
                t.slots[idx] = Some(self.reject(call, why, &msg, (shown, msg.clone())));
                t.budget_hit = true;
                continue;
            }
            t.pos[idx] = self.results.len();
            let d = self.accept(call, idx, kind, args, shown);
            set.spawn(call_task(self.shared.clone(), d, self.turn));
        }
        self.proposed += t.calls.len() as u64;
        set
    }

    /// Reserve a tool call for a valid call and record it as accepted.
    fn accept(
        &mut self,
        call: &ProposedCall,
        idx: usize,
        kind: ToolKind,
        args: Arc<Value>,
        shown: Arc<Value>,
    ) -> Dispatch {
        let id: Arc<str> = Arc::from(call.id.as_str());
        // The loop, never the model, chooses the key of a write.
        let key = call
            .keyed(self.scenario, kind.is_write())
            .then(|| scenario::idempotency_key(&self.run_id, &call.id));
        self.rec.update(
            self.turn,
            |u| u.tool_calls += 1,
            Some(EventKind::CallAccepted {
                call_id: id.clone(),
                tool: self.shared.tool_names[kind as usize].clone(),
                args: shown.clone(),
                idempotency_key: key.clone(),
            }),
        );
        // A placeholder until the call finishes.
        self.results.push((id.clone(), Category::Cancelled));
        Dispatch {
            idx,
            global: self.proposed + idx as u64,
            id,
            kind,
            args,
            shown,
            key,
            script: self
                .scenario
                .calls
                .get(&call.id)
                .map(|c| c.attempts.clone())
                .unwrap_or_default(),
        }
    }

    /// 3. Attach each result under its own id, whatever order they finish in.
    async fn collect(&mut self, t: &mut TurnCalls, mut set: JoinSet<(usize, Finished)>) {
        while let Some(joined) = set.join_next().await {
            match joined {
                Ok((idx, fin)) => {
                    if fin.denied {
                        t.stop_now.get_or_insert(StopReason::AuthorizationDenied);
                    }
                    if let Some(slot) = self.results.get_mut(t.pos[idx]) {
                        slot.1 = fin.category;
                    }
                    t.slots[idx] = Some(fin);
                }
                Err(e) => std::panic::resume_unwind(e.into_panic()),
            }
        }
    }

    /// 4. The model's calls and their results, in proposal order, go into the transcript;
    ///    then the turn ends the run or not.
    fn answer(&mut self, t: TurnCalls) -> Option<StopReason> {
        let mut blocks = Vec::with_capacity(t.calls.len());
        for (call, slot) in t.calls.iter().zip(t.slots) {
            let fin = slot.unwrap_or_else(|| Finished {
                category: Category::Cancelled,
                content: json!({"ok": false, "code": "cancelled"}).to_string(),
                denied: false,
            });
            if fin.category == Category::Forbidden {
                self.forbidden_seen = true;
            }
            blocks.push(Block::ToolResult {
                tool_use_id: call.id.clone(),
                is_error: fin.category != Category::Ok,
                content: fin.content,
            });
        }
        self.transcript
            .push(Message::assistant_calls(t.calls, t.inputs));
        self.transcript.push(Message {
            role: Role::User,
            content: blocks,
        });
        if t.stop_now.is_some() {
            t.stop_now
        } else if self.stop.is_cancelled() {
            Some(self.stop_cause())
        } else if t.budget_hit {
            Some(StopReason::MaxToolCalls)
        } else {
            None
        }
    }

    /// Refuse a call before dispatch: a concise error goes back to the model as its result;
    /// the trace gets `shown`, the arguments and the error with sensitive values masked.
    fn reject(
        &mut self,
        call: &ProposedCall,
        why: Rejection,
        msg: &str,
        shown: (Arc<Value>, String),
    ) -> Finished {
        let (shown, traced) = shown;
        let id: Arc<str> = Arc::from(call.id.as_str());
        self.rec.emit(
            self.turn,
            EventKind::CallRejected {
                call_id: id.clone(),
                tool: Arc::from(call.tool.as_str()),
                category: why,
                error: traced,
                args: shown,
            },
        );
        let denied = why == Rejection::DeniedAfterForbidden;
        let content = rejection_body(why, msg);
        let authorization = if denied { "denied" } else { "not_checked" };
        self.record_unrun(&id, &call.tool, why.category(), &content, authorization);
        Finished {
            category: why.category(),
            content,
            denied,
        }
    }

    /// A valid call the run stopped before it was dispatched.
    fn not_dispatched(&mut self, call: &ProposedCall) -> Finished {
        let content = json!({"ok": false, "code": "cancelled",
            "detail": "not dispatched: the run stopped in this turn"})
        .to_string();
        let id: Arc<str> = Arc::from(call.id.as_str());
        self.record_unrun(
            &id,
            &call.tool,
            Category::Cancelled,
            &content,
            "not_checked",
        );
        Finished {
            category: Category::Cancelled,
            content,
            denied: false,
        }
    }

    /// The result of a call that never ran an attempt.
    fn record_unrun(
        &mut self,
        call_id: &Arc<str>,
        tool: &str,
        category: Category,
        content: &str,
        authorization: &'static str,
    ) {
        let validation = match category {
            Category::InvalidArguments | Category::UnknownTool => "failed",
            _ => "ok",
        };
        self.rec.emit(
            self.turn,
            EventKind::CallResult {
                call_id: call_id.clone(),
                tool: Arc::from(tool),
                category,
                attempts: 0,
                truncated: false,
                bytes: content.len(),
                start_ms: self.rec.now_ms(),
                validation,
                authorization,
            },
        );
        self.results.push((call_id.clone(), category));
    }

    /// Stop the clock watcher, let handlers nobody waits for finish (race mode) so their
    /// late finish is on the record before the last line, then record the stop.
    async fn finish(self, reason: StopReason) -> Run {
        let decided_ms = self.rec.now_ms();
        self.watcher.abort();
        loop {
            let pending: Vec<JoinHandle<()>> = std::mem::take(
                &mut *self
                    .shared
                    .lingering
                    .lock()
                    .unwrap_or_else(|p| p.into_inner()),
            );
            if pending.is_empty() {
                break;
            }
            for h in pending {
                let _ = h.await;
            }
        }
        self.rec.emit(
            self.turn,
            EventKind::Stopped {
                stop_reason: reason,
                decided_ms,
                results: self.results.clone(),
            },
        );
        let used = self.rec.used();
        let events: Vec<TraceEvent> = self.rec.take();
        Run {
            run_id: self.run_id,
            scenario: self.scenario.name.clone(),
            title: self.scenario.title.clone(),
            seed: self.seed,
            budgets: self.budgets,
            end_ms: events.last().map(|e| e.t_ms).unwrap_or(0),
            events,
            stop_reason: reason,
            turns_used: used.turns,
            tool_calls_used: used.tool_calls,
            results: self.results,
            transcript: self.transcript,
        }
    }
}

/// The number of calls the scenario's script proposes (to size the logs).
fn expected_calls(scenario: &Scenario) -> usize {
    scenario
        .turns
        .iter()
        .map(|t| match t {
            Turn::Calls { calls } => calls.len(),
            Turn::Final { .. } => 0,
        })
        .sum()
}

/// One watcher turns the deadline and the user's cancel into the stop token.
fn watch_clock(
    cancel_at: Option<Instant>,
    deadline: Instant,
    stop: CancellationToken,
    cause: Arc<Mutex<Option<StopReason>>>,
) -> JoinHandle<()> {
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
}
