//! The player's timeline: built once from a finished `Run` (and the scenario it ran), then
//! read at any virtual time T without changing. Lanes (one per model turn, one per tool
//! call, in the order they happened), segments (slot wait, attempt, backoff, a raced
//! handler running on), result marks, vertical lines (deadline, cancel, stop), warnings.
//! Everything the frame at T shows is a pure function of this and T.

use std::sync::Arc;

use serde_json::Value;

use crate::orchestrator::{
    Budgets, Category, EventKind, HandlerState, Outcome, Rejection, Run, Scenario, StopReason,
    TimeoutMode, Used,
};
use crate::sanitize::clean;

use super::index::LaneIndex;
use super::warn::{self, Warning};

/// What a stretch of a lane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegKind {
    /// The model thinking (a turn lane).
    Model,
    /// Accepted, waiting for a concurrency slot.
    Wait,
    /// An attempt running with the caller waiting for it.
    Run,
    /// Backoff before the next attempt.
    Backoff,
    /// Race mode: the handler runs on after its caller stopped waiting.
    Ghost,
}

/// One stretch of a lane.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    pub kind: SegKind,
    /// The attempt it belongs to (0 for waits before the first, turns).
    pub attempt: u32,
    pub start: u64,
    pub end: u64,
    /// How it ended (attempts and ghosts).
    pub outcome: Option<Outcome>,
    /// The attempt's own timeout, for the detail pane.
    pub timeout_ms: Option<u64>,
    pub error: Option<String>,
}

/// The result the model received for a call.
#[derive(Debug, Clone, PartialEq)]
pub struct CallResult {
    pub t_ms: u64,
    pub category: Category,
    pub attempts: u32,
    pub truncated: bool,
    pub bytes: usize,
    pub validation: &'static str,
    pub authorization: &'static str,
}

/// A tool call's lane.
#[derive(Debug, Clone, PartialEq)]
pub struct CallLane {
    pub id: String,
    pub tool: String,
    pub turn: u32,
    /// When the call was accepted or rejected.
    pub proposed_ms: u64,
    /// The arguments as the trace shows them (sensitive ones hashed).
    pub args: Value,
    pub idempotency_key: Option<String>,
    pub rejected: Option<(Rejection, String)>,
    pub segments: Vec<Segment>,
    pub result: Option<CallResult>,
    /// The exact tool result text the model received.
    pub content: Option<String>,
    /// Writes the simulated service applied (or replayed) for this call: (t, attempt, replayed).
    pub writes: Vec<(u64, u32, bool)>,
    /// Indexes into the run's events that belong to this call.
    pub events: Vec<u32>,
}

/// A model turn's lane.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnLane {
    pub turn: u32,
    pub start: u64,
    pub end: u64,
    pub calls: Vec<String>,
    pub final_answer: Option<String>,
    pub event: u32,
}

/// A row of the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    Turn(usize),
    Call(usize),
}

/// A lane's state at time T (also how lanes that do not fit are grouped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LaneState {
    /// Not yet proposed at T.
    Later,
    Waiting,
    Running,
    Backoff,
    /// The result went back and was ok.
    Ok,
    /// The result went back and was anything else.
    Failed,
}

impl LaneState {
    pub fn word(self) -> &'static str {
        match self {
            LaneState::Later => "not yet",
            LaneState::Waiting => "waiting for a slot",
            LaneState::Running => "running",
            LaneState::Backoff => "in backoff",
            LaneState::Ok => "ok",
            LaneState::Failed => "failed",
        }
    }
}

/// A vertical line across the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Deadline,
    Cancel,
    Stop,
}

/// A budget gauge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GaugeKind {
    Turns,
    ToolCalls,
    Retries,
    Repairs,
    Deadline,
    InFlight,
}

impl GaugeKind {
    pub const ALL: [GaugeKind; 6] = [
        GaugeKind::Turns,
        GaugeKind::ToolCalls,
        GaugeKind::Retries,
        GaugeKind::Repairs,
        GaugeKind::Deadline,
        GaugeKind::InFlight,
    ];

    pub fn label(self) -> &'static str {
        match self {
            GaugeKind::Turns => "model turns",
            GaugeKind::ToolCalls => "tool calls",
            GaugeKind::Retries => "retries",
            GaugeKind::Repairs => "repairs",
            GaugeKind::Deadline => "deadline",
            GaugeKind::InFlight => "in flight",
        }
    }

    pub fn short(self) -> &'static str {
        match self {
            GaugeKind::Turns => "turns",
            GaugeKind::ToolCalls => "calls",
            GaugeKind::Retries => "retries",
            GaugeKind::Repairs => "repairs",
            GaugeKind::Deadline => "deadline",
            GaugeKind::InFlight => "slots",
        }
    }
}

/// One gauge at time T.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gauge {
    pub kind: GaugeKind,
    pub used: u64,
    pub limit: u64,
    /// Tool calls: how many of the reserved ones have their result.
    pub finished: Option<u64>,
    /// Used up (in flight: every slot taken).
    pub spent: bool,
    /// This budget is what stopped the run (shown once the stop is decided).
    pub cause: bool,
}

/// The whole run, ready to be read at any time.
#[derive(Debug, Clone)]
pub struct Timeline {
    pub run: Arc<Run>,
    pub scenario: String,
    pub title: String,
    pub note: String,
    pub mode: TimeoutMode,
    pub budgets: Budgets,
    pub cancel_at_ms: Option<u64>,
    pub turns: Vec<TurnLane>,
    pub calls: Vec<CallLane>,
    /// Turns and calls interleaved in the order they happened.
    pub lanes: Vec<Lane>,
    /// For each event of the run, the call lane it belongs to.
    pub event_call: Vec<Option<u32>>,
    /// When the loop decided to stop (results may still land after it in race mode).
    pub decided_ms: u64,
    pub end_ms: u64,
    pub final_answer: Option<String>,
    pub warnings: Vec<Warning>,
    /// Finish times of dispatched calls, sorted (tool calls finished at T).
    finished_at: Vec<u64>,
    /// Lanes by state and time, calls by id: what a frame looks up instead of scanning.
    pub(crate) index: LaneIndex,
}

impl Timeline {
    pub fn build(scenario: &Scenario, run: Run) -> Timeline {
        let mut b = Builder::default();
        for (i, e) in run.events.iter().enumerate() {
            b.event(i as u32, e.t_ms, e.turn, &e.kind);
        }
        b.close(run.end_ms);
        attach_results(&mut b.calls, &run);
        let mut finished_at: Vec<u64> = b
            .calls
            .iter()
            .filter(|c| c.rejected.is_none())
            .filter_map(|c| c.result.as_ref().map(|r| r.t_ms))
            .collect();
        finished_at.sort_unstable();
        let decided_ms = run
            .events
            .iter()
            .rev()
            .find_map(|e| match &e.kind {
                EventKind::Stopped { decided_ms, .. } => Some(*decided_ms),
                _ => None,
            })
            .unwrap_or(run.end_ms);
        let final_answer = b.turns.iter().rev().find_map(|t| t.final_answer.clone());
        let mut tl = Timeline {
            scenario: clean(&scenario.name, false),
            title: clean(&run.title, false),
            note: clean(&scenario.note, false),
            mode: scenario.timeouts,
            budgets: run.budgets,
            cancel_at_ms: scenario.cancel_at_ms,
            turns: b.turns,
            calls: b.calls,
            lanes: b.lanes,
            event_call: b.event_call,
            decided_ms,
            end_ms: run.end_ms,
            final_answer,
            warnings: Vec::new(),
            finished_at,
            index: LaneIndex::default(),
            run: Arc::new(run),
        };
        tl.warnings = warn::find(&tl);
        tl.index = LaneIndex::build(&tl);
        tl
    }

    pub fn stop_reason(&self) -> StopReason {
        self.run.stop_reason
    }

    /// The last virtual ms the axis must reach: the end of the run, and a deadline or cancel
    /// that falls shortly after it.
    pub fn axis_end(&self) -> u64 {
        self.end_ms.max(1)
    }

    /// Vertical lines and where they fall (the deadline may lie past the axis).
    pub fn marks(&self) -> Vec<(Mark, u64)> {
        let mut out = vec![(Mark::Deadline, self.budgets.deadline_ms)];
        if let Some(c) = self.cancel_at_ms {
            out.push((Mark::Cancel, c));
        }
        out.push((Mark::Stop, self.decided_ms));
        out
    }

    /// How many events happened at or before `t`.
    pub fn events_until(&self, t: u64) -> usize {
        self.run.events.partition_point(|e| e.t_ms <= t)
    }

    /// Budgets spent as of `t`.
    pub fn used_at(&self, t: u64) -> Used {
        let n = self.events_until(t);
        n.checked_sub(1)
            .map(|i| self.run.events[i].used)
            .unwrap_or_default()
    }

    /// The distinct event times, for stepping.
    pub fn next_time(&self, t: u64) -> Option<u64> {
        let n = self.events_until(t);
        self.run.events.get(n).map(|e| e.t_ms)
    }

    pub fn prev_time(&self, t: u64) -> Option<u64> {
        let n = self.run.events.partition_point(|e| e.t_ms < t);
        n.checked_sub(1).map(|i| self.run.events[i].t_ms)
    }

    /// The budget that stopped the run, if a budget did.
    pub fn cause(&self) -> Option<GaugeKind> {
        match self.stop_reason() {
            StopReason::MaxModelTurns => Some(GaugeKind::Turns),
            StopReason::MaxToolCalls => Some(GaugeKind::ToolCalls),
            StopReason::Deadline => Some(GaugeKind::Deadline),
            StopReason::RepairLimit => Some(GaugeKind::Repairs),
            _ => None,
        }
    }

    /// Every gauge at `t`.
    pub fn gauges(&self, t: u64) -> Vec<Gauge> {
        let u = self.used_at(t);
        let b = &self.budgets;
        let stopped = t >= self.decided_ms;
        let cause = self.cause().filter(|_| stopped);
        let finished = self.finished_at.partition_point(|&f| f <= t) as u64;
        let elapsed = t.min(self.decided_ms);
        GaugeKind::ALL
            .iter()
            .map(|&kind| {
                let (used, limit) = match kind {
                    GaugeKind::Turns => (u.turns.into(), b.max_model_turns.into()),
                    GaugeKind::ToolCalls => (u.tool_calls.into(), b.max_tool_calls.into()),
                    GaugeKind::Retries => (u.retries.into(), b.retry_budget.into()),
                    GaugeKind::Repairs => (u.repairs.into(), b.max_repairs.into()),
                    GaugeKind::Deadline => (elapsed, b.deadline_ms),
                    GaugeKind::InFlight => (u.in_flight.into(), b.max_concurrency.max(1).into()),
                };
                Gauge {
                    kind,
                    used,
                    limit,
                    finished: (kind == GaugeKind::ToolCalls).then_some(finished),
                    spent: limit > 0 && used >= limit || cause == Some(kind),
                    cause: cause == Some(kind),
                }
            })
            .collect()
    }

    /// A call lane's state at `t`.
    pub fn call_state(&self, i: usize, t: u64) -> LaneState {
        let c = &self.calls[i];
        if t < c.proposed_ms {
            return LaneState::Later;
        }
        if let Some(r) = &c.result
            && r.t_ms <= t
        {
            return if r.category == Category::Ok {
                LaneState::Ok
            } else {
                LaneState::Failed
            };
        }
        let seg = c
            .segments
            .iter()
            .rev()
            .find(|s| s.kind != SegKind::Ghost && s.start <= t);
        match seg {
            Some(s) if s.kind == SegKind::Run && t < s.end => LaneState::Running,
            Some(s) if s.kind == SegKind::Backoff && t < s.end => LaneState::Backoff,
            Some(s) if s.kind == SegKind::Wait && t < s.end => LaneState::Waiting,
            Some(s) if s.kind == SegKind::Run => LaneState::Running,
            _ => LaneState::Waiting,
        }
    }

    /// The label of a lane (`turn 2`, `c3 get_ticket`).
    pub fn lane_label(&self, lane: Lane) -> String {
        match lane {
            Lane::Turn(i) => format!("turn {}", self.turns[i].turn),
            Lane::Call(i) => {
                let c = &self.calls[i];
                format!("{} {}", c.id, c.tool)
            }
        }
    }

    /// When a lane first shows anything.
    pub fn lane_start(&self, lane: Lane) -> u64 {
        match lane {
            Lane::Turn(i) => self.turns[i].start,
            Lane::Call(i) => self.calls[i].proposed_ms,
        }
    }

    /// The last time anything on a lane changes.
    pub fn lane_end(&self, lane: Lane) -> u64 {
        match lane {
            Lane::Turn(i) => self.turns[i].end,
            Lane::Call(i) => {
                let c = &self.calls[i];
                let segs = c.segments.iter().map(|s| s.end).max().unwrap_or(0);
                segs.max(c.result.as_ref().map_or(0, |r| r.t_ms))
                    .max(c.proposed_ms)
            }
        }
    }

    /// One short human line for event `i` (sanitized).
    pub fn event_text(&self, i: usize) -> String {
        clean(&self.run.events[i].summary(), false)
    }
}

/// Gathers lanes while walking the events once.
#[derive(Default)]
struct Builder {
    turns: Vec<TurnLane>,
    calls: Vec<CallLane>,
    lanes: Vec<Lane>,
    event_call: Vec<Option<u32>>,
    /// (call id, turn) -> lane, the most recent first.
    open: std::collections::HashMap<Arc<str>, Vec<(u32, usize)>>,
    /// Per call: when it became ready to take a slot (accepted, or its backoff ended).
    ready: Vec<Option<u64>>,
}

impl Builder {
    fn lane_of(&self, id: &str, turn: u32) -> Option<usize> {
        let lanes = self.open.get(id)?;
        lanes
            .iter()
            .rev()
            .find(|(t, _)| *t == turn)
            .map(|&(_, i)| i)
    }

    fn new_call(&mut self, id: &Arc<str>, tool: &str, turn: u32, t: u64, args: &Value) -> usize {
        let i = self.calls.len();
        self.calls.push(CallLane {
            id: clean(id, false),
            tool: clean(tool, false),
            turn,
            proposed_ms: t,
            args: args.clone(),
            idempotency_key: None,
            rejected: None,
            segments: Vec::new(),
            result: None,
            content: None,
            writes: Vec::new(),
            events: Vec::new(),
        });
        self.ready.push(None);
        self.lanes.push(Lane::Call(i));
        self.open.entry(id.clone()).or_default().push((turn, i));
        i
    }

    fn event(&mut self, idx: u32, t: u64, turn: u32, kind: &EventKind) {
        let lane = match kind {
            EventKind::ModelTurn {
                start_ms,
                calls,
                final_answer,
            } => {
                self.lanes.push(Lane::Turn(self.turns.len()));
                self.turns.push(TurnLane {
                    turn,
                    start: *start_ms,
                    end: t,
                    calls: calls.iter().map(|c| clean(c, false)).collect(),
                    final_answer: final_answer.as_ref().map(|f| clean(f, false)),
                    event: idx,
                });
                None
            }
            EventKind::CallAccepted {
                call_id,
                tool,
                args,
                idempotency_key,
            } => {
                let i = self.new_call(call_id, tool, turn, t, args);
                self.calls[i].idempotency_key = idempotency_key.as_ref().map(|k| clean(k, false));
                self.ready[i] = Some(t);
                Some(i)
            }
            EventKind::CallRejected {
                call_id,
                tool,
                category,
                error,
                args,
            } => {
                // A call accepted, then refused while it waited for a slot, keeps its lane.
                let i = match self.lane_of(call_id, turn) {
                    Some(i) if self.calls[i].result.is_none() => i,
                    _ => self.new_call(call_id, tool, turn, t, args),
                };
                self.calls[i].rejected = Some((*category, clean(error, false)));
                Some(i)
            }
            EventKind::CallResult { call_id, tool, .. }
                if self.lane_of(call_id, turn).is_none() =>
            {
                // Not dispatched because the run stopped in this turn: only a result.
                self.new_call(call_id, tool, turn, t, &Value::Null);
                self.call_event(t, turn, kind)
            }
            other => self.call_event(t, turn, other),
        };
        self.event_call.push(lane.map(|i| i as u32));
        if let Some(i) = lane {
            self.calls[i].events.push(idx);
        }
    }

    /// Events of a call after it was accepted.
    fn call_event(&mut self, t: u64, turn: u32, kind: &EventKind) -> Option<usize> {
        let i = self.lane_of(kind.call_id()?, turn)?;
        let c = &mut self.calls[i];
        match kind {
            EventKind::AttemptStarted {
                attempt,
                timeout_ms,
                ..
            } => {
                if let Some(ready) = self.ready[i].take()
                    && ready < t
                {
                    c.segments.push(seg(SegKind::Wait, *attempt, ready, t));
                }
                let mut s = seg(SegKind::Run, *attempt, t, t);
                s.timeout_ms = Some(*timeout_ms);
                c.segments.push(s);
            }
            EventKind::AttemptFinished {
                attempt,
                outcome,
                handler,
                error,
                ..
            } => {
                if let Some(s) = c
                    .segments
                    .iter_mut()
                    .rev()
                    .find(|s| s.kind == SegKind::Run && s.attempt == *attempt)
                {
                    s.end = t;
                    s.outcome = Some(*outcome);
                    s.error = error.as_ref().map(|e| clean(e, false));
                }
                if *handler == HandlerState::Running {
                    c.segments.push(seg(SegKind::Ghost, *attempt, t, t));
                }
            }
            EventKind::HandlerStillRunning {
                attempt, outcome, ..
            } => {
                if let Some(s) = c
                    .segments
                    .iter_mut()
                    .rev()
                    .find(|s| s.kind == SegKind::Ghost && s.attempt == *attempt)
                {
                    s.end = t;
                    s.outcome = Some(*outcome);
                }
            }
            EventKind::RetryScheduled {
                attempt, delay_ms, ..
            } => {
                c.segments
                    .push(seg(SegKind::Backoff, *attempt, t, t + delay_ms));
                self.ready[i] = Some(t + delay_ms);
            }
            EventKind::WriteApplied {
                attempt, replayed, ..
            } => c.writes.push((t, *attempt, *replayed)),
            EventKind::CallResult {
                category,
                attempts,
                truncated,
                bytes,
                validation,
                authorization,
                ..
            } => {
                // A backoff the stop cut short ends here; a wait for a slot that never came too.
                for s in c.segments.iter_mut().filter(|s| s.kind == SegKind::Backoff) {
                    s.end = s.end.min(t);
                }
                if let Some(ready) = self.ready[i].take()
                    && ready < t
                {
                    c.segments.push(seg(SegKind::Wait, *attempts + 1, ready, t));
                }
                c.result = Some(CallResult {
                    t_ms: t,
                    category: *category,
                    attempts: *attempts,
                    truncated: *truncated,
                    bytes: *bytes,
                    validation,
                    authorization,
                });
            }
            _ => {}
        }
        Some(i)
    }

    /// Anything still open at the end of the run ends there.
    fn close(&mut self, end: u64) {
        for c in &mut self.calls {
            for s in &mut c.segments {
                if s.kind == SegKind::Ghost && s.outcome.is_none() {
                    s.end = end;
                }
            }
        }
    }
}

fn seg(kind: SegKind, attempt: u32, start: u64, end: u64) -> Segment {
    Segment {
        kind,
        attempt,
        start,
        end,
        outcome: None,
        timeout_ms: None,
        error: None,
    }
}

/// The exact text each call's result carried back to the model, from the transcript (the
/// k-th result for an id goes to the k-th lane with that id).
fn attach_results(calls: &mut [CallLane], run: &Run) {
    use crate::orchestrator::Block;
    use std::collections::{HashMap, VecDeque};
    let mut by_id: HashMap<String, VecDeque<&str>> = HashMap::new();
    for m in &run.transcript {
        for b in &m.content {
            if let Block::ToolResult {
                tool_use_id,
                content,
                ..
            } = b
            {
                by_id
                    .entry(clean(tool_use_id, false))
                    .or_default()
                    .push_back(content.as_str());
            }
        }
    }
    for lane in calls.iter_mut() {
        if let Some(q) = by_id.get_mut(&lane.id) {
            lane.content = q.pop_front().map(|s| clean(s, true));
        }
    }
}
