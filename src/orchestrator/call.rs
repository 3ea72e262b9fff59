//! One dispatched call, as a task of its own: wait for a slot, run an attempt under its
//! timeout, stop (or, in race mode, abandon) a handler that ran too long, retry with backoff
//! while the budgets allow, and record the result the model will see, cut to size.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::budgets::Budgets;
use super::scenario::{AttemptScript, TimeoutMode};
use super::services::{AttemptInfo, HandlerOut, Services, ToolKind};
use super::trace::{Category, EventKind, HandlerState, Outcome, Recorder, Rejection};
use super::truncate::truncate_result;

/// What the model is told when a call is refused because an earlier one was forbidden.
pub(super) const DENIED_AFTER_FORBIDDEN: &str =
    "a call was forbidden earlier in this run; no further tool calls are dispatched";

/// What every call task of a run shares.
pub(super) struct Shared {
    pub rec: Recorder,
    pub services: Arc<Services>,
    pub sem: Arc<Semaphore>,
    pub stop: CancellationToken,
    pub deadline: Instant,
    pub budgets: Budgets,
    pub mode: TimeoutMode,
    pub seed: u64,
    /// The registered tools' names, shared by every event that names them.
    pub tool_names: [Arc<str>; 3],
    /// Race mode: waiters for handlers nobody waits for any more.
    pub lingering: Mutex<Vec<JoinHandle<()>>>,
    /// Set the moment an attempt comes back `forbidden`: from then on no call of the run
    /// starts an attempt, not even one of the same turn still waiting for a slot.
    pub forbidden: AtomicBool,
}

/// A validated call with its budget reserved.
pub(super) struct Dispatch {
    pub idx: usize,
    pub global: u64,
    pub id: Arc<str>,
    pub kind: ToolKind,
    pub args: Arc<Value>,
    /// The arguments as the trace shows them (sensitive ones masked).
    pub shown: Arc<Value>,
    pub key: Option<String>,
    /// The scenario's script for this call's attempts (empty: defaults).
    pub script: Vec<AttemptScript>,
}

/// What a call ended with, for the transcript.
pub(super) struct Finished {
    pub category: Category,
    pub content: String,
    /// Refused after a `forbidden` result (the run then stops with `authorization_denied`).
    pub denied: bool,
}

/// A call's last word before its result is recorded.
type Ended = (Category, HandlerOut);

/// How the caller's wait for one attempt ended.
enum Waited {
    Done(HandlerOut),
    TimedOut,
    Stopped,
}

/// One attempt's handler, polled by whoever waits for it.
type Handler = Pin<Box<dyn Future<Output = HandlerOut> + Send>>;

/// One attempt in flight.
struct Attempt {
    number: u32,
    limit: Duration,
    start_ms: u64,
    /// Tells the handler to stop.
    stop: CancellationToken,
}

/// What an attempt ended with, from the caller's side.
struct Settled {
    outcome: Outcome,
    state: HandlerState,
    out: Option<HandlerOut>,
    /// The slot, unless a handler that runs on still holds it.
    permit: Option<OwnedSemaphorePermit>,
}

/// The next move after an attempt.
enum Next {
    Done(Ended),
    Retry { failed: Ended, delay_ms: u64 },
}

/// One dispatched call: attempts, timeouts, retries with backoff, until it has a result.
pub(super) async fn call_task(sh: Arc<Shared>, d: Dispatch, turn: u32) -> (usize, Finished) {
    let mut call = CallTask::new(sh, d, turn);
    match call.attempts().await {
        Some((category, out)) => call.finish(category, out),
        None => call.deny_after_forbidden(),
    }
}

struct CallTask {
    sh: Arc<Shared>,
    d: Dispatch,
    turn: u32,
    tool: Arc<str>,
    start_ms: u64,
    attempts: u32,
    /// Jitter per call, seeded from the run seed and the call's place in the run, so the
    /// draws do not depend on which task happens to retry first.
    rng_seed: u64,
    /// Boxed: drawn only when a call retries, and kept out of the task's own size.
    rng: Option<Box<ChaCha8Rng>>,
    /// The failure of the attempt before a scheduled retry.
    last_failure: Option<Ended>,
}

impl CallTask {
    fn new(sh: Arc<Shared>, d: Dispatch, turn: u32) -> CallTask {
        CallTask {
            rng_seed: sh.seed ^ (d.global + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            rng: None,
            tool: sh.tool_names[d.kind as usize].clone(),
            start_ms: sh.rec.now_ms(),
            attempts: 0,
            last_failure: None,
            sh,
            d,
            turn,
        }
    }

    /// Attempts until one ends the call. `None`: a `forbidden` elsewhere in the run came
    /// before this call ever started.
    async fn attempts(&mut self) -> Option<Ended> {
        loop {
            // A slot first: never more than max_concurrency handlers at once.
            let permit = tokio::select! {
                biased;
                _ = self.sh.stop.cancelled() => return Some(cancelled()),
                p = self.sh.sem.clone().acquire_owned() => match p {
                    Ok(p) => p,
                    Err(_) => return Some(cancelled()),
                },
            };
            if self.sh.forbidden.load(Ordering::Relaxed) {
                drop(permit);
                // A retry of a call that already ran keeps its failure; a call queued behind
                // the slot when the denial came is never dispatched.
                return self.last_failure.take();
            }
            let now = Instant::now();
            if now >= self.sh.deadline {
                return Some(cancelled());
            }
            let attempt = self.start_attempt(now);
            let settled = self.run_attempt(&attempt, permit).await;
            let limit = attempt.limit;
            let (outcome, out) = self.record_attempt(attempt, settled);
            match self.next(outcome, out, limit) {
                Next::Done(ended) => return Some(ended),
                Next::Retry { failed, delay_ms } => {
                    self.last_failure = Some(failed);
                    tokio::select! {
                        biased;
                        _ = self.sh.stop.cancelled() => return Some(cancelled()),
                        _ = tokio::time::sleep(Duration::from_millis(delay_ms)) => {}
                    }
                }
            }
        }
    }

    /// Count the attempt, bound it by the call timeout and the deadline, and record its start.
    fn start_attempt(&mut self, now: Instant) -> Attempt {
        self.attempts += 1;
        let limit =
            Duration::from_millis(self.sh.budgets.call_timeout_ms).min(self.sh.deadline - now);
        let attempt = Attempt {
            number: self.attempts,
            limit,
            start_ms: self.sh.rec.now_ms(),
            stop: CancellationToken::new(),
        };
        self.sh.rec.update(
            self.turn,
            |u| u.in_flight += 1,
            Some(EventKind::AttemptStarted {
                call_id: self.d.id.clone(),
                tool: self.tool.clone(),
                attempt: attempt.number,
                timeout_ms: limit.as_millis() as u64,
            }),
        );
        attempt
    }

    /// Start the handler and wait for it, its timeout, the deadline or the user's cancel.
    async fn run_attempt(&self, attempt: &Attempt, permit: OwnedSemaphorePermit) -> Settled {
        let info = AttemptInfo {
            rec: self.sh.rec.clone(),
            turn: self.turn,
            call_id: self.d.id.clone(),
            attempt: attempt.number,
        };
        let script = self
            .d
            .script
            .get(attempt.number as usize - 1)
            .cloned()
            .unwrap_or_default();
        // The handler is polled right here while someone waits for it; in race mode a
        // timed-out handler moves onto a task of its own and runs on.
        let mut handler: Handler = Box::pin(self.sh.services.clone().handle(
            self.d.kind,
            self.d.args.clone(),
            self.d.key.clone(),
            script,
            attempt.stop.clone(),
            info,
        ));
        let waited = tokio::select! {
            biased;
            r = tokio::time::timeout(attempt.limit, &mut handler) => match r {
                Ok(out) => Waited::Done(out),
                // A timeout that lands on the deadline is the deadline stopping the call.
                Err(_) if Instant::now() >= self.sh.deadline => Waited::Stopped,
                Err(_) => Waited::TimedOut,
            },
            _ = self.sh.stop.cancelled() => Waited::Stopped,
        };
        self.settle(waited, handler, attempt, permit).await
    }

    /// What became of the handler once the wait ended.
    async fn settle(
        &self,
        waited: Waited,
        handler: Handler,
        attempt: &Attempt,
        permit: OwnedSemaphorePermit,
    ) -> Settled {
        let (outcome, race) = match waited {
            Waited::Done(out) => {
                return Settled {
                    outcome: out.outcome,
                    state: HandlerState::Finished,
                    out: Some(out),
                    permit: Some(permit),
                };
            }
            // The deadline and the user's cancel stop the work in either mode; race mode
            // only lets a handler run on past its own attempt timeout.
            Waited::Stopped => (Outcome::Cancelled, false),
            Waited::TimedOut => (Outcome::Timeout, self.sh.mode == TimeoutMode::Race),
        };
        if race {
            // Only the waiting stops: the handler keeps its slot and runs on.
            self.linger(handler, attempt, permit);
            return Settled {
                outcome,
                state: HandlerState::Running,
                out: None,
                permit: None,
            };
        }
        stop_handler(handler, &attempt.stop, self.grace()).await;
        Settled {
            outcome,
            state: HandlerState::Stopped,
            out: None,
            permit: Some(permit),
        }
    }

    fn grace(&self) -> Duration {
        Duration::from_millis(self.sh.budgets.cancel_grace_ms)
    }

    /// Race mode: a task of its own waits for a handler nobody waits for any more. It runs
    /// on until it finishes, or until the deadline or the user's cancel, which stop it like
    /// any other work in flight; its late end goes on the record.
    fn linger(&self, mut handler: Handler, attempt: &Attempt, permit: OwnedSemaphorePermit) {
        let rec = self.sh.rec.clone();
        let stop = self.sh.stop.clone();
        let a_stop = attempt.stop.clone();
        let grace = self.grace();
        let (turn, number, start_ms) = (self.turn, attempt.number, attempt.start_ms);
        let (call_id, tool) = (self.d.id.clone(), self.tool.clone());
        let waiter = tokio::spawn(async move {
            let late = tokio::select! {
                biased;
                out = &mut handler => out.outcome,
                _ = stop.cancelled() => {
                    a_stop.cancel();
                    let _ = tokio::time::timeout(grace, &mut handler).await;
                    Outcome::Cancelled
                }
            };
            drop(permit);
            rec.update(
                turn,
                |u| u.in_flight = u.in_flight.saturating_sub(1),
                Some(EventKind::HandlerStillRunning {
                    call_id,
                    tool,
                    attempt: number,
                    start_ms,
                    outcome: late,
                }),
            );
        });
        self.sh
            .lingering
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(waiter);
    }

    /// Record the attempt's end (a `forbidden` closes the run to further attempts), then
    /// give back its slot.
    fn record_attempt(&self, attempt: Attempt, settled: Settled) -> (Outcome, Option<HandlerOut>) {
        let Settled {
            outcome,
            state,
            out,
            permit,
        } = settled;
        if outcome == Outcome::Forbidden {
            self.sh.forbidden.store(true, Ordering::Relaxed);
        }
        let running = state == HandlerState::Running;
        self.sh.rec.update(
            self.turn,
            |u| {
                if !running {
                    u.in_flight = u.in_flight.saturating_sub(1)
                }
            },
            Some(EventKind::AttemptFinished {
                call_id: self.d.id.clone(),
                tool: self.tool.clone(),
                attempt: attempt.number,
                outcome,
                start_ms: attempt.start_ms,
                handler: state,
                error: out.as_ref().and_then(|o| o.error.clone()),
            }),
        );
        drop(permit);
        (outcome, out)
    }

    /// Done, or worth another attempt: a transient failure of a read (or of a write with an
    /// idempotency key) while attempts, the deadline and the run's retry budget allow.
    fn next(&mut self, outcome: Outcome, out: Option<HandlerOut>, limit: Duration) -> Next {
        let transient = match outcome {
            Outcome::Ok | Outcome::NotFound | Outcome::Forbidden => {
                let out = out.unwrap_or_else(HandlerOut::cancelled);
                return Next::Done((Category::from_outcome(outcome), out));
            }
            Outcome::Cancelled => return Next::Done(cancelled()),
            Outcome::Timeout => true,
            Outcome::Error => out.as_ref().is_some_and(|o| o.transient),
        };
        let write = self.d.kind.is_write();
        let failed = failure(outcome, out, write, limit);
        // Reads retry; writes only with an idempotency key (the service then replays).
        let may_retry = transient && (!write || self.d.key.is_some());
        let b = self.sh.budgets;
        if !may_retry || self.attempts >= b.max_attempts || self.sh.stop.is_cancelled() {
            return Next::Done(failed);
        }
        let rng_seed = self.rng_seed;
        let rng = self
            .rng
            .get_or_insert_with(|| Box::new(ChaCha8Rng::seed_from_u64(rng_seed)));
        let delay_ms = b.backoff(self.attempts, rng);
        if Instant::now() + Duration::from_millis(delay_ms) >= self.sh.deadline {
            return Next::Done(failed);
        }
        let scheduled = self.sh.rec.try_spend_retry(
            self.turn,
            b.retry_budget,
            EventKind::RetryScheduled {
                call_id: self.d.id.clone(),
                attempt: self.attempts,
                delay_ms,
            },
            EventKind::RetryDenied {
                call_id: self.d.id.clone(),
                attempt: self.attempts,
            },
        );
        if scheduled {
            Next::Retry { failed, delay_ms }
        } else {
            Next::Done(failed)
        }
    }

    /// Cut the body to size and record the call's result.
    fn finish(self, category: Category, out: HandlerOut) -> (usize, Finished) {
        let (content, truncated) = truncate_result(out.body, self.sh.budgets.max_result_bytes);
        let authorization = match category {
            Category::Ok | Category::NotFound => "allowed",
            Category::Forbidden => "denied",
            _ => "not_checked",
        };
        self.sh.rec.emit(
            self.turn,
            EventKind::CallResult {
                call_id: self.d.id.clone(),
                tool: self.tool,
                category,
                attempts: self.attempts,
                truncated,
                bytes: content.len(),
                start_ms: self.start_ms,
                validation: "ok",
                authorization,
            },
        );
        (
            self.d.idx,
            Finished {
                category,
                content,
                denied: false,
            },
        )
    }

    /// A call that was accepted but still waiting for a slot when another call of the run
    /// came back `forbidden`: refused without running, and its tool-call reservation given
    /// back.
    fn deny_after_forbidden(self) -> (usize, Finished) {
        let why = Rejection::DeniedAfterForbidden;
        let msg = DENIED_AFTER_FORBIDDEN;
        let (sh, d, turn, tool) = (self.sh, self.d, self.turn, self.tool);
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
        let content = rejection_body(why, msg);
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
}

/// Tell a handler to stop and give it a bounded grace to do so; past the grace it is
/// dropped, which aborts the work.
async fn stop_handler(mut handler: Handler, stop: &CancellationToken, grace: Duration) {
    stop.cancel();
    if tokio::time::timeout(grace, &mut handler).await.is_err() {
        drop(handler);
    }
}

fn cancelled() -> Ended {
    (Category::Cancelled, HandlerOut::cancelled())
}

/// The failure a call keeps if no retry follows this attempt.
fn failure(outcome: Outcome, out: Option<HandlerOut>, write: bool, limit: Duration) -> Ended {
    match outcome {
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
    }
}

fn failure_body(code: &str, detail: &str) -> HandlerOut {
    HandlerOut {
        body: json!({"ok": false, "code": code, "detail": detail}).to_string(),
        ..HandlerOut::error(detail)
    }
}

/// The result a refused call gives the model.
pub(super) fn rejection_body(why: Rejection, msg: &str) -> String {
    json!({"ok": false, "code": why, "error": msg}).to_string()
}
