//! A run as the player reads it: built once by a run source, then read at any time T without
//! changing. Lanes (one per model turn, one per tool call, in the order they happened),
//! segments (slot wait, attempt, backoff, a raced handler running on), results, events,
//! vertical lines (deadline, cancel, stop), budgets when the run kept any, and warnings.
//! Everything a frame at T shows is a pure function of this and T.

use std::sync::Arc;

use crate::orchestrator::{self, Budgets, Category, EventKind, Scenario, StopReason, Used};
use crate::sanitize::clean;

use super::index::LaneIndex;
pub use super::lanes::{
    CallLane, CallResult, Lane, LaneState, Lanes, SegKind, Segment, TurnLane, Validation,
};
use super::warn::Warning;

/// What the times of a run count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    /// Virtual milliseconds of an orchestrator run.
    Virtual,
    /// Real milliseconds since a recording's first message.
    Recorded,
    /// Order only (a record without times): step `k` is at `k * STEP_MS`.
    Order,
}

impl Clock {
    /// Where consecutive steps of an `Order` clock lie (one a second at normal speed).
    pub const STEP_MS: u64 = 1000;

    /// The unit times are shown in.
    pub fn unit(self) -> &'static str {
        match self {
            Clock::Order => "step",
            Clock::Virtual | Clock::Recorded => "ms",
        }
    }

    /// A time as a number in that unit.
    pub fn show(self, t: u64) -> String {
        match self {
            Clock::Order => (t / Clock::STEP_MS).to_string(),
            Clock::Virtual | Clock::Recorded => t.to_string(),
        }
    }

    /// A time with its unit (`820 ms`, `step 3`).
    pub fn at(self, t: u64) -> String {
        match self {
            Clock::Order => format!("step {}", self.show(t)),
            Clock::Virtual | Clock::Recorded => format!("{t} ms"),
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
    /// The budget was really hit: it stopped the run, or something asked past it (a call
    /// refused for it, a failure it left unretried). A budget used exactly up is spent,
    /// not hit.
    pub hit: bool,
}

/// What a scenario run keeps besides its lanes: the scenario and seed it ran with (the knobs
/// start from them) and the orchestrator's own trace (for the Chrome trace export).
#[derive(Debug, Clone)]
pub struct ScenarioRun {
    pub scenario: Scenario,
    pub seed: u64,
    pub trace: Arc<orchestrator::Run>,
}

/// Where a run came from, and what that offers besides playing it.
#[derive(Debug, Clone)]
pub enum Origin {
    /// A scenario run by the orchestrator: the knobs change it and run it again, and its
    /// trace can be written as a Chrome trace.
    Scenario(Box<ScenarioRun>),
    /// Anything else (a recorded conversation): played as it is.
    Fixed,
}

impl Origin {
    /// The scenario and trace behind a scenario run.
    pub fn scenario(&self) -> Option<&ScenarioRun> {
        match self {
            Origin::Scenario(s) => Some(s),
            Origin::Fixed => None,
        }
    }
}

/// The run's events in time order: when each happened, the call it belongs to, what was
/// spent as of it (runs with budgets), and one short line of text each.
#[derive(Debug, Clone)]
pub struct Events {
    times: Vec<u64>,
    calls: Vec<Option<u32>>,
    used: Vec<Used>,
    texts: Texts,
}

/// Where an event's line comes from: an orchestrator trace writes its own (made when shown:
/// a long run has many), any other source hands its lines in.
#[derive(Debug, Clone)]
enum Texts {
    Trace(Arc<orchestrator::Run>),
    Lines(Vec<String>),
}

impl Events {
    /// The events of an orchestrator trace, with the call lane of each.
    pub(crate) fn of_trace(trace: Arc<orchestrator::Run>, calls: Vec<Option<u32>>) -> Events {
        Events {
            times: trace.events.iter().map(|e| e.t_ms).collect(),
            used: trace.events.iter().map(|e| e.used).collect(),
            calls,
            texts: Texts::Trace(trace),
        }
    }

    /// Events given one by one: (time, call lane, line), in time order.
    pub(crate) fn of_lines(events: Vec<(u64, Option<u32>, String)>) -> Events {
        let mut out = Events {
            times: Vec::with_capacity(events.len()),
            calls: Vec::with_capacity(events.len()),
            used: Vec::new(),
            texts: Texts::Lines(Vec::with_capacity(events.len())),
        };
        for (t, call, text) in events {
            out.times.push(t);
            out.calls.push(call);
            if let Texts::Lines(lines) = &mut out.texts {
                lines.push(clean(&text, false));
            }
        }
        out
    }

    pub fn len(&self) -> usize {
        self.times.len()
    }

    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// When event `i` happened.
    pub fn time(&self, i: usize) -> u64 {
        self.times[i]
    }

    /// The call lane event `i` belongs to.
    pub fn call(&self, i: usize) -> Option<usize> {
        self.calls.get(i).copied().flatten().map(|c| c as usize)
    }

    /// What was spent as of event `i`, when the run kept budgets.
    pub fn used(&self, i: usize) -> Option<Used> {
        self.used.get(i).copied()
    }

    /// One short human line for event `i` (cleaned for the terminal).
    pub fn text(&self, i: usize) -> String {
        match &self.texts {
            Texts::Trace(run) => clean(&run.events[i].summary(), false),
            Texts::Lines(lines) => lines[i].clone(),
        }
    }

    /// How many events happened at or before `t`.
    pub fn until(&self, t: u64) -> usize {
        self.times.partition_point(|&e| e <= t)
    }

    /// The first event time after `t`.
    pub fn next_time(&self, t: u64) -> Option<u64> {
        self.times.get(self.until(t)).copied()
    }

    /// The last event time before `t`.
    pub fn prev_time(&self, t: u64) -> Option<u64> {
        let n = self.times.partition_point(|&e| e < t);
        n.checked_sub(1).map(|i| self.times[i])
    }
}

/// The whole run, ready to be read at any time.
#[derive(Debug, Clone)]
pub struct Run {
    /// Where it came from, and what that offers besides playing it (knobs, re-runs, export).
    pub origin: Origin,
    /// A short name (the scenario's, the recording's).
    pub name: String,
    pub title: String,
    /// What the run is about, in a sentence or two.
    pub note: String,
    pub clock: Clock,
    /// The limits the run kept to; `None` for a run that had none (a recording).
    pub budgets: Option<Budgets>,
    pub cancel_at_ms: Option<u64>,
    pub turns: Vec<TurnLane>,
    pub calls: Vec<CallLane>,
    /// Turns and calls interleaved in the order they happened.
    pub lanes: Vec<Lane>,
    pub events: Events,
    /// When the loop decided to stop (results may still land after it in race mode).
    pub decided_ms: u64,
    pub end_ms: u64,
    /// Why the run stopped; `None` when it just ends (a recording).
    pub stop: Option<StopReason>,
    pub final_answer: Option<String>,
    /// What a reviewer should look at, by time.
    pub warnings: Vec<Warning>,
    /// Finish times of dispatched calls, sorted (tool calls finished at T).
    finished_at: Vec<u64>,
    /// Lanes by state and time, calls by id: what a frame looks up instead of scanning.
    pub(crate) index: LaneIndex,
    /// When something first asked past the tool-call budget, and past the retry budget
    /// (see [`Run::asked_past`]), found once for every frame to read.
    asked_past_at: [Option<u64>; 2],
}

/// What a source hands over to make a run of; `Run::new` adds the indexes.
pub(crate) struct Parts {
    pub origin: Origin,
    pub name: String,
    pub title: String,
    pub note: String,
    pub clock: Clock,
    pub budgets: Option<Budgets>,
    pub cancel_at_ms: Option<u64>,
    pub turns: Vec<TurnLane>,
    pub calls: Vec<CallLane>,
    pub lanes: Vec<Lane>,
    pub events: Events,
    pub decided_ms: u64,
    pub end_ms: u64,
    pub stop: Option<StopReason>,
}

impl Run {
    /// The run made of `parts`, its warnings found by `warnings` (given the run without
    /// them), sorted by time.
    pub(crate) fn new(parts: Parts, warnings: impl FnOnce(&Run) -> Vec<Warning>) -> Run {
        let mut finished_at: Vec<u64> = parts
            .calls
            .iter()
            .filter(|c| c.rejected.is_none())
            .filter_map(|c| c.result.as_ref().map(|r| r.t_ms))
            .collect();
        finished_at.sort_unstable();
        let final_answer = parts
            .turns
            .iter()
            .rev()
            .find_map(|t| t.final_answer.clone());
        let mut run = Run {
            origin: parts.origin,
            name: clean(&parts.name, false),
            title: clean(&parts.title, false),
            note: clean(&parts.note, false),
            clock: parts.clock,
            budgets: parts.budgets,
            cancel_at_ms: parts.cancel_at_ms,
            turns: parts.turns,
            calls: parts.calls,
            lanes: parts.lanes,
            events: parts.events,
            decided_ms: parts.decided_ms,
            end_ms: parts.end_ms,
            stop: parts.stop,
            final_answer,
            warnings: Vec::new(),
            finished_at,
            index: LaneIndex::default(),
            asked_past_at: [None; 2],
        };
        run.asked_past_at = [
            run.first_asked_past(GaugeKind::ToolCalls),
            run.first_asked_past(GaugeKind::Retries),
        ];
        let mut found = warnings(&run);
        found.sort_by_key(|w| w.t_ms);
        run.warnings = found;
        run.index = LaneIndex::build(run.view());
        run
    }

    /// The stop reason in a word (`final_answer`), or `end` for a run that just ends.
    pub fn stop_word(&self) -> String {
        self.stop
            .map_or_else(|| "end".to_owned(), |r| r.to_string())
    }

    /// The last ms the axis must reach: the end of the run.
    pub fn axis_end(&self) -> u64 {
        self.end_ms.max(1)
    }

    /// Vertical lines and where they fall (the deadline may lie past the axis).
    pub fn marks(&self) -> Vec<(Mark, u64)> {
        let mut out = Vec::new();
        if let Some(b) = &self.budgets {
            out.push((Mark::Deadline, b.deadline_ms));
        }
        if let Some(c) = self.cancel_at_ms {
            out.push((Mark::Cancel, c));
        }
        if self.stop.is_some() {
            out.push((Mark::Stop, self.decided_ms));
        }
        out
    }

    /// How many events happened at or before `t`.
    pub fn events_until(&self, t: u64) -> usize {
        self.events.until(t)
    }

    /// Budgets spent as of `t`.
    pub fn used_at(&self, t: u64) -> Used {
        let n = self.events_until(t);
        n.checked_sub(1)
            .and_then(|i| self.events.used(i))
            .unwrap_or_default()
    }

    /// The next moment something happens after `t`.
    pub fn next_time(&self, t: u64) -> Option<u64> {
        self.events.next_time(t)
    }

    pub fn prev_time(&self, t: u64) -> Option<u64> {
        self.events.prev_time(t)
    }

    /// The budget that stopped the run, if a budget did.
    pub fn cause(&self) -> Option<GaugeKind> {
        match self.stop? {
            StopReason::MaxModelTurns => Some(GaugeKind::Turns),
            StopReason::MaxToolCalls => Some(GaugeKind::ToolCalls),
            StopReason::Deadline => Some(GaugeKind::Deadline),
            StopReason::RepairLimit => Some(GaugeKind::Repairs),
            _ => None,
        }
    }

    /// Every gauge at `t` (none for a run without budgets).
    pub fn gauges(&self, t: u64) -> Vec<Gauge> {
        let Some(b) = &self.budgets else {
            return Vec::new();
        };
        let u = self.used_at(t);
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
                let spent = limit > 0 && used >= limit || cause == Some(kind);
                Gauge {
                    kind,
                    used,
                    limit,
                    finished: (kind == GaugeKind::ToolCalls).then_some(finished),
                    spent,
                    cause: cause == Some(kind),
                    hit: cause == Some(kind) || spent && self.asked_past(kind, t),
                }
            })
            .collect()
    }

    /// Did anything by `t` ask past budget `kind`?
    fn asked_past(&self, kind: GaugeKind, t: u64) -> bool {
        let at = match kind {
            GaugeKind::ToolCalls => self.asked_past_at[0],
            GaugeKind::Retries => self.asked_past_at[1],
            _ => None,
        };
        at.is_some_and(|at| at <= t)
    }

    /// When something first asked past budget `kind`: a call refused for the tool-call
    /// budget, or a failure the orchestrator would have retried but for the spent retry
    /// budget (its `retry_denied` event). Whether the budget was spent by then is the
    /// gauge's own reading.
    fn first_asked_past(&self, kind: GaugeKind) -> Option<u64> {
        match kind {
            GaugeKind::ToolCalls => self
                .calls
                .iter()
                .filter_map(|c| c.result.as_ref())
                .filter(|r| r.category == Category::BudgetExhausted)
                .map(|r| r.t_ms)
                .min(),
            GaugeKind::Retries => self
                .origin
                .scenario()?
                .trace
                .events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::RetryDenied { .. }))
                .map(|e| e.t_ms)
                .min(),
            _ => None,
        }
    }

    /// The run's lanes, to read together.
    pub fn view(&self) -> Lanes<'_> {
        Lanes {
            turns: &self.turns,
            calls: &self.calls,
            order: &self.lanes,
        }
    }

    /// A call lane's state at `t`.
    pub fn call_state(&self, i: usize, t: u64) -> LaneState {
        self.view().call_state(i, t)
    }

    /// The state of any lane at `t` (turns: thinking is running, answered is ok).
    pub fn lane_state(&self, lane: Lane, t: u64) -> LaneState {
        self.view().lane_state(lane, t)
    }

    /// The label of a lane (`turn 2`, `c3 get_ticket`).
    pub fn lane_label(&self, lane: Lane) -> String {
        self.view().lane_label(lane)
    }

    /// When a lane first shows anything.
    pub fn lane_start(&self, lane: Lane) -> u64 {
        self.view().lane_start(lane)
    }

    /// The last time anything on a lane changes.
    pub fn lane_end(&self, lane: Lane) -> u64 {
        self.view().lane_end(lane)
    }

    /// One short human line for event `i` (sanitized).
    pub fn event_text(&self, i: usize) -> String {
        self.events.text(i)
    }
}
