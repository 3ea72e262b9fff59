//! The lanes of a run: one per model turn and one per tool call, in the order they
//! happened, with their stretches (waits, attempts, backoffs, raced handlers) and results,
//! and each lane's state at any time T.

use serde_json::Value;

use crate::orchestrator::{Category, Outcome, Rejection};

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
    /// The authorization check's word (`allowed`, `denied`), when the run made one.
    pub authorization: Option<&'static str>,
}

/// What the argument check said of a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validation {
    Passed,
    /// The arguments were refused, with the validator's message.
    Failed(String),
    /// Not judged (a recording with no declaration to judge the call by), and why.
    NotJudged(String),
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
    /// What the argument check said.
    pub validation: Validation,
    /// Refused before it was dispatched, and why (an orchestrator's refusal).
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
    /// What the model said in the run's last turn, when that turn proposed no call.
    pub final_answer: Option<String>,
    /// What the model said to the user in a turn that proposed no call and was not the
    /// last (the conversation went on).
    pub reply: Option<String>,
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

/// A run's lanes, read together: the turns, the calls, and their order.
#[derive(Debug, Clone, Copy)]
pub struct Lanes<'a> {
    pub turns: &'a [TurnLane],
    pub calls: &'a [CallLane],
    /// Turns and calls interleaved in the order they happened.
    pub order: &'a [Lane],
}

impl Lanes<'_> {
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

    /// The state of any lane at `t` (turns: thinking is running, answered is ok).
    pub fn lane_state(&self, lane: Lane, t: u64) -> LaneState {
        match lane {
            Lane::Call(i) => self.call_state(i, t),
            Lane::Turn(i) => {
                let turn = &self.turns[i];
                if t < turn.start {
                    LaneState::Later
                } else if t < turn.end {
                    LaneState::Running
                } else {
                    LaneState::Ok
                }
            }
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
}
