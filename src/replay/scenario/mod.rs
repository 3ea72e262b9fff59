//! A scenario run by the orchestrator as a run source: the real loop runs the scenario with
//! a seed, and its trace events are walked once into lanes. Such a run keeps its scenario
//! and seed, so the player's knobs can change them and run it again.

use std::sync::Arc;

use serde_json::Value;

use crate::orchestrator::{self, Category, EventKind, HandlerState, Scenario, run_blocking};
use crate::sanitize::clean;

mod find;

use super::run::{
    CallLane, CallResult, Clock, Events, Lane, Origin, Parts, Run, ScenarioRun, SegKind, Segment,
    TurnLane, Validation,
};
use super::source::{ReplayError, RunSource};

/// A scenario (already loaded) and the seed to run it with.
#[derive(Debug, Clone)]
pub struct ScenarioSource {
    pub scenario: Scenario,
    pub seed: u64,
}

impl ScenarioSource {
    pub fn new(scenario: Scenario, seed: u64) -> ScenarioSource {
        ScenarioSource { scenario, seed }
    }

    /// Run the real orchestrator and build the run (a scenario always runs).
    pub fn run(&self) -> Run {
        let trace = run_blocking(&self.scenario, self.seed);
        Run::from_trace(&self.scenario, trace)
    }
}

impl RunSource for ScenarioSource {
    fn name(&self) -> String {
        clean(&self.scenario.name, false)
    }

    fn build(&self) -> Result<Run, ReplayError> {
        Ok(self.run())
    }
}

impl Run {
    /// The run of an orchestrator trace already made from `scenario`.
    pub fn from_trace(scenario: &Scenario, trace: orchestrator::Run) -> Run {
        let mut b = Builder::default();
        for (i, e) in trace.events.iter().enumerate() {
            b.event(i as u32, e.t_ms, e.turn, &e.kind);
        }
        b.close(trace.end_ms);
        attach_results(&mut b.calls, &trace);
        let decided_ms = trace
            .events
            .iter()
            .rev()
            .find_map(|e| match &e.kind {
                EventKind::Stopped { decided_ms, .. } => Some(*decided_ms),
                _ => None,
            })
            .unwrap_or(trace.end_ms);
        let trace = Arc::new(trace);
        let parts = Parts {
            origin: Origin::Scenario(Box::new(ScenarioRun {
                scenario: scenario.clone(),
                seed: trace.seed,
                trace: Arc::clone(&trace),
            })),
            name: scenario.name.clone(),
            title: trace.title.clone(),
            note: scenario.note.clone(),
            clock: Clock::Virtual,
            budgets: Some(trace.budgets),
            cancel_at_ms: scenario.cancel_at_ms,
            turns: b.turns,
            calls: b.calls,
            lanes: b.lanes,
            events: Events::of_trace(Arc::clone(&trace), b.event_call),
            decided_ms,
            end_ms: trace.end_ms,
            stop: Some(trace.stop_reason),
        };
        Run::new(parts, |run| find::warnings(run, &trace))
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
            validation: Validation::Passed,
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
                    final_answer: final_answer.as_ref().map(|f| clean(f, true)),
                    reply: None,
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
                let error = clean(error, false);
                // Refusals of the argument check fail validation; the others (forbidden,
                // out of budget) come after it passed.
                let cat = category.category();
                if cat != Category::Forbidden && cat != Category::BudgetExhausted {
                    self.calls[i].validation = Validation::Failed(error.clone());
                }
                self.calls[i].rejected = Some((*category, error));
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
                    authorization: Some(authorization),
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
fn attach_results(calls: &mut [CallLane], run: &orchestrator::Run) {
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
