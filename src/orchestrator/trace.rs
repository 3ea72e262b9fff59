//! Trace events: what happened, when (virtual ms), and what had been spent, and the recorder
//! that keeps them in order. The contract's JSON line of an event is in `jsonl`, its short
//! human line in `timeline`.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;
use serde_json::Value;
use tokio::time::Instant;

use super::budgets::{Budgets, Used};

/// Result category of a call (the contract's list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Ok,
    NotFound,
    Forbidden,
    InvalidArguments,
    UnknownTool,
    Timeout,
    UnknownOutcome,
    Cancelled,
    Error,
    BudgetExhausted,
}

/// Why a call was refused before dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rejection {
    UnknownTool,
    InvalidArguments,
    BudgetExhausted,
    DeniedAfterForbidden,
}

/// How one attempt ended, from the caller's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Ok,
    NotFound,
    Forbidden,
    Timeout,
    Error,
    Cancelled,
}

/// What became of the handler when an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HandlerState {
    /// It answered.
    Finished,
    /// It was told to stop and did (or was aborted after the grace).
    Stopped,
    /// The caller stopped waiting; the handler runs on (race mode).
    Running,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    FinalAnswer,
    MaxModelTurns,
    MaxToolCalls,
    Deadline,
    Cancelled,
    RepairLimit,
    AuthorizationDenied,
}

macro_rules! snake_name {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.name())
            }
        }
        impl $t {
            fn name(&self) -> String {
                match serde_json::to_value(self) {
                    Ok(Value::String(s)) => s,
                    _ => "?".into(),
                }
            }
        }
    )*};
}
snake_name!(Category, Rejection, Outcome, HandlerState, StopReason);

impl Category {
    pub fn from_outcome(o: Outcome) -> Category {
        match o {
            Outcome::Ok => Category::Ok,
            Outcome::NotFound => Category::NotFound,
            Outcome::Forbidden => Category::Forbidden,
            Outcome::Timeout => Category::Timeout,
            Outcome::Error => Category::Error,
            Outcome::Cancelled => Category::Cancelled,
        }
    }
}

impl Rejection {
    /// The validator's verdict on a call refused for this reason.
    pub fn validation(self) -> &'static str {
        match self {
            Rejection::UnknownTool | Rejection::InvalidArguments => "failed",
            Rejection::BudgetExhausted | Rejection::DeniedAfterForbidden => "ok",
        }
    }

    /// The result category a rejected call ends with.
    pub fn category(self) -> Category {
        match self {
            Rejection::UnknownTool => Category::UnknownTool,
            Rejection::InvalidArguments => Category::InvalidArguments,
            Rejection::BudgetExhausted => Category::BudgetExhausted,
            Rejection::DeniedAfterForbidden => Category::Forbidden,
        }
    }
}

/// What happened.
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    RunStarted {
        scenario: String,
        title: String,
        seed: u64,
        budgets: Budgets,
        timeouts: &'static str,
        /// The run's trusted scope, from the authenticated context, never from the model:
        /// the tenant every lookup is scoped to...
        tenant: String,
        /// ...and the grants the session holds (`read_tickets`, `write_tickets`).
        permissions: Vec<&'static str>,
    },
    /// The model answered (`start_ms` is when it was asked).
    ModelTurn {
        start_ms: u64,
        calls: Vec<String>,
        final_answer: Option<String>,
    },
    /// A call passed validation and had budget reserved; it is about to be dispatched.
    CallAccepted {
        call_id: Arc<str>,
        tool: Arc<str>,
        args: Arc<Value>,
        idempotency_key: Option<String>,
    },
    CallRejected {
        call_id: Arc<str>,
        tool: Arc<str>,
        category: Rejection,
        error: String,
        args: Arc<Value>,
    },
    AttemptStarted {
        call_id: Arc<str>,
        tool: Arc<str>,
        attempt: u32,
        timeout_ms: u64,
    },
    AttemptFinished {
        call_id: Arc<str>,
        tool: Arc<str>,
        attempt: u32,
        outcome: Outcome,
        start_ms: u64,
        handler: HandlerState,
        error: Option<String>,
    },
    HandlerStillRunning {
        call_id: Arc<str>,
        tool: Arc<str>,
        attempt: u32,
        start_ms: u64,
        /// What the handler produced when it finally finished, nobody waiting.
        outcome: Outcome,
    },
    RetryScheduled {
        call_id: Arc<str>,
        attempt: u32,
        delay_ms: u64,
    },
    /// A failure the loop would have retried (a read's, or a keyed write's, with attempts
    /// and time left) was not, because the run's retry budget was spent.
    RetryDenied { call_id: Arc<str>, attempt: u32 },
    /// The simulated write service applied a write (or replayed one for a known key).
    WriteApplied {
        call_id: Arc<str>,
        attempt: u32,
        ticket_id: String,
        replayed: bool,
    },
    CallResult {
        call_id: Arc<str>,
        tool: Arc<str>,
        category: Category,
        attempts: u32,
        truncated: bool,
        bytes: usize,
        start_ms: u64,
        validation: &'static str,
        authorization: &'static str,
    },
    Stopped {
        stop_reason: StopReason,
        decided_ms: u64,
        results: Vec<(Arc<str>, Category)>,
    },
}

/// One line of the trace.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceEvent {
    /// The run this event belongs to.
    pub run_id: Arc<str>,
    /// Virtual milliseconds since the run started.
    pub t_ms: u64,
    /// The model turn the event belongs to (0 before the first).
    pub turn: u32,
    pub kind: EventKind,
    /// Budgets spent when the event happened.
    pub used: Used,
}

impl EventKind {
    /// Every event name the trace can emit, in the order of the variants.
    pub const NAMES: &'static [&'static str] = &[
        "run_started",
        "model_turn",
        "call_accepted",
        "call_rejected",
        "attempt_started",
        "attempt_finished",
        "handler_still_running",
        "retry_scheduled",
        "retry_denied",
        "write_applied",
        "call_result",
        "stopped",
    ];

    /// The contract's event name (one of [`EventKind::NAMES`]).
    pub fn name(&self) -> &'static str {
        Self::NAMES[self.ordinal()]
    }

    /// The variant's place in [`EventKind::NAMES`].
    fn ordinal(&self) -> usize {
        match self {
            EventKind::RunStarted { .. } => 0,
            EventKind::ModelTurn { .. } => 1,
            EventKind::CallAccepted { .. } => 2,
            EventKind::CallRejected { .. } => 3,
            EventKind::AttemptStarted { .. } => 4,
            EventKind::AttemptFinished { .. } => 5,
            EventKind::HandlerStillRunning { .. } => 6,
            EventKind::RetryScheduled { .. } => 7,
            EventKind::RetryDenied { .. } => 8,
            EventKind::WriteApplied { .. } => 9,
            EventKind::CallResult { .. } => 10,
            EventKind::Stopped { .. } => 11,
        }
    }

    /// The call the event is about, if any (the trace player's lane).
    pub fn call_id(&self) -> Option<&str> {
        match self {
            EventKind::CallAccepted { call_id, .. }
            | EventKind::CallRejected { call_id, .. }
            | EventKind::AttemptStarted { call_id, .. }
            | EventKind::AttemptFinished { call_id, .. }
            | EventKind::HandlerStillRunning { call_id, .. }
            | EventKind::RetryScheduled { call_id, .. }
            | EventKind::RetryDenied { call_id, .. }
            | EventKind::WriteApplied { call_id, .. }
            | EventKind::CallResult { call_id, .. } => Some(&**call_id),
            _ => None,
        }
    }
}

impl TraceEvent {
    pub fn call_id(&self) -> Option<&str> {
        self.kind.call_id()
    }
}

/// Shared event log of a run. Holds the clock origin and the spent budgets; the mutex is
/// never held across an await.
#[derive(Clone)]
pub struct Recorder {
    inner: Arc<Mutex<Log>>,
    start: Instant,
    run_id: Arc<str>,
}

struct Log {
    events: Vec<TraceEvent>,
    used: Used,
}

impl Recorder {
    pub fn new(start: Instant, run_id: &str, capacity: usize) -> Recorder {
        Recorder {
            inner: Arc::new(Mutex::new(Log {
                events: Vec::with_capacity(capacity),
                used: Used::default(),
            })),
            start,
            run_id: Arc::from(run_id),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Log> {
        // A panic while holding the lock only happens on a bug; keep the log usable.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Virtual ms since the start.
    pub fn now_ms(&self) -> u64 {
        Instant::now().duration_since(self.start).as_millis() as u64
    }

    pub fn used(&self) -> Used {
        self.lock().used
    }

    /// Change the spent budgets, then record `kind` (if any) with the new snapshot.
    pub fn update(&self, turn: u32, f: impl FnOnce(&mut Used), kind: Option<EventKind>) {
        self.update_if(turn, |u| {
            f(u);
            kind
        });
    }

    /// Spend one retry of the run-wide budget if any is left, recording `scheduled` with it;
    /// when none is left, record `denied` instead (under the same lock, so that the budget
    /// cannot change between the check and the record).
    pub fn try_spend_retry(
        &self,
        turn: u32,
        budget: u32,
        scheduled: EventKind,
        denied: EventKind,
    ) -> bool {
        let mut spent = false;
        self.update_if(turn, |u| {
            if u.retries >= budget {
                return Some(denied);
            }
            u.retries += 1;
            spent = true;
            Some(scheduled)
        });
        spent
    }

    /// Under one lock: change the spent budgets and say what to record, if anything.
    fn update_if(&self, turn: u32, f: impl FnOnce(&mut Used) -> Option<EventKind>) {
        let t_ms = self.now_ms();
        let mut log = self.lock();
        if let Some(kind) = f(&mut log.used) {
            let used = log.used;
            log.events.push(TraceEvent {
                run_id: self.run_id.clone(),
                t_ms,
                turn,
                kind,
                used,
            });
        }
    }

    pub fn emit(&self, turn: u32, kind: EventKind) {
        self.update(turn, |_| {}, Some(kind));
    }

    pub fn take(&self) -> Vec<TraceEvent> {
        std::mem::take(&mut self.lock().events)
    }
}

/// call id -> category, in proposal order, as a map (for `check` and tests).
pub fn results_map(results: &[(Arc<str>, Category)]) -> BTreeMap<String, String> {
    results
        .iter()
        .map(|(id, c)| (id.to_string(), c.to_string()))
        .collect()
}
