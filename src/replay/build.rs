//! A run put together a turn and a call at a time, for sources other than the orchestrator
//! (a recorded conversation, say): each model turn in order, each tool call with its
//! arguments, what the validator said of them and the result text the model saw, and the
//! findings to mark. Such a run has no budgets, no knobs and no re-runs; its times are the
//! record's own, or only its order.

use serde_json::Value;

use crate::orchestrator::{Category, Outcome, Rejection};

use super::run::{
    CallLane, CallResult, Clock, Events, Lane, Origin, Parts, Run, SegKind, Segment, TurnLane,
    Validation,
};
use super::warn::{WarnKind, Warning};

/// One model turn: when it began and ended, the calls it proposed, its final answer (the
/// text it ended with when it proposed no call, empty when it said nothing; a turn after it
/// makes that a reply).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TurnSpec {
    pub start_ms: u64,
    pub end_ms: u64,
    pub calls: Vec<String>,
    pub final_answer: Option<String>,
}

/// One tool call as the record has it.
#[derive(Debug, Clone, PartialEq)]
pub struct CallSpec {
    pub id: String,
    pub tool: String,
    /// When the model proposed it.
    pub at_ms: u64,
    pub args: Value,
    pub validation: Validation,
    /// What came back, if anything did.
    pub result: Option<ResultSpec>,
}

/// A call's result as the model saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultSpec {
    pub at_ms: u64,
    pub category: Category,
    /// The text exactly as the model received it.
    pub text: String,
}

/// Collects turns, calls and findings in the order they happened.
#[derive(Debug, Clone)]
pub struct RunBuilder {
    name: String,
    title: String,
    note: String,
    clock: Clock,
    turns: Vec<TurnLane>,
    calls: Vec<CallLane>,
    lanes: Vec<Lane>,
    events: Vec<(u64, Option<u32>, String)>,
    findings: Vec<Warning>,
}

impl RunBuilder {
    pub fn new(name: &str, title: &str, clock: Clock) -> RunBuilder {
        RunBuilder {
            name: name.to_owned(),
            title: title.to_owned(),
            note: String::new(),
            clock,
            turns: Vec::new(),
            calls: Vec::new(),
            lanes: Vec::new(),
            events: Vec::new(),
            findings: Vec::new(),
        }
    }

    /// What the run is about, shown until a call is selected.
    pub fn note(&mut self, note: &str) -> &mut RunBuilder {
        self.note = note.to_owned();
        self
    }

    /// The next model turn; returns its lane among the turns.
    pub fn turn(&mut self, spec: TurnSpec) -> usize {
        // Only the run's last turn gives its final answer: an answer the conversation went
        // on after was a reply to the user.
        if let Some(prev) = self.turns.last_mut()
            && let Some(said) = prev.final_answer.take()
        {
            let line = if said.trim().is_empty() {
                format!("turn {}  model replies with no text", prev.turn)
            } else {
                format!("turn {}  model replies: {}", prev.turn, one_line(&said))
            };
            if let Some(e) = self.events.get_mut(prev.event as usize) {
                e.2 = line;
            }
            // A reply with no text has nothing to quote.
            prev.reply = Some(said).filter(|s| !s.trim().is_empty());
        }
        let i = self.turns.len();
        let turn = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let line = match &spec.final_answer {
            Some(a) if a.trim().is_empty() => format!("turn {turn}  model ends with no text"),
            Some(a) => format!("turn {turn}  model answers: {}", one_line(a)),
            None => format!("turn {turn}  model proposes: {}", spec.calls.join(", ")),
        };
        self.events.push((spec.end_ms, None, line));
        self.turns.push(TurnLane {
            turn,
            start: spec.start_ms,
            end: spec.end_ms.max(spec.start_ms),
            calls: spec.calls,
            final_answer: spec.final_answer,
            reply: None,
            event: u32::try_from(self.events.len() - 1).unwrap_or(u32::MAX),
        });
        self.lanes.push(Lane::Turn(i));
        i
    }

    /// The next tool call, in the latest turn; returns its lane among the calls. A result
    /// came back from one attempt that ran until it.
    pub fn call(&mut self, spec: CallSpec) -> usize {
        self.push_call(spec, true)
    }

    /// The next tool call, refused by the argument check before it was dispatched: no
    /// attempt ran, and its result (the validator's error as the model is told it) went back
    /// at once, when it was proposed.
    pub fn refused(&mut self, spec: CallSpec) -> usize {
        self.push_call(spec, false)
    }

    fn push_call(&mut self, spec: CallSpec, ran: bool) -> usize {
        let i = self.calls.len();
        let lane = Some(u32::try_from(i).unwrap_or(u32::MAX));
        let verdict = match &spec.validation {
            Validation::Passed => "valid".to_owned(),
            Validation::Failed(why) => format!("invalid: {why}"),
            Validation::NotJudged(why) => format!("not judged: {why}"),
        };
        self.events.push((
            spec.at_ms,
            lane,
            format!("{:<5} proposed {}: {verdict}", spec.id, spec.tool),
        ));
        let mut call = CallLane {
            id: spec.id,
            tool: spec.tool,
            turn: self.turns.last().map_or(0, |t| t.turn),
            proposed_ms: spec.at_ms,
            args: spec.args,
            idempotency_key: None,
            validation: spec.validation,
            rejected: None,
            segments: Vec::new(),
            result: None,
            content: None,
            writes: Vec::new(),
            events: vec![u32::try_from(self.events.len() - 1).unwrap_or(u32::MAX)],
        };
        if let Some(r) = spec.result {
            let end = if ran {
                r.at_ms.max(spec.at_ms)
            } else {
                spec.at_ms
            };
            if ran {
                call.segments.push(Segment {
                    kind: SegKind::Run,
                    attempt: 1,
                    start: spec.at_ms,
                    end,
                    outcome: Some(outcome_of(r.category)),
                    timeout_ms: None,
                    error: None,
                });
            } else {
                let why = match &call.validation {
                    Validation::Failed(why) => why.clone(),
                    _ => crate::sanitize::clean(&r.text, false),
                };
                call.rejected = Some((Rejection::InvalidArguments, why));
            }
            self.events.push((
                end,
                lane,
                format!(
                    "{:<5} result back: {}, {} bytes",
                    call.id,
                    r.category,
                    r.text.len()
                ),
            ));
            call.events
                .push(u32::try_from(self.events.len() - 1).unwrap_or(u32::MAX));
            call.result = Some(CallResult {
                t_ms: end,
                category: r.category,
                attempts: u32::from(ran),
                truncated: false,
                bytes: r.text.len(),
                authorization: None,
            });
            call.content = Some(crate::sanitize::clean(&r.text, true));
        }
        self.calls.push(call);
        self.lanes.push(Lane::Call(i));
        i
    }

    /// A finding to mark: on call `call` (at the time it was proposed) or on the run.
    pub fn finding(&mut self, call: Option<usize>, kind: WarnKind, text: &str) {
        let t_ms = call
            .and_then(|i| self.calls.get(i))
            .map_or(0, |c| c.proposed_ms);
        self.findings.push(Warning {
            t_ms,
            kind,
            call,
            text: crate::sanitize::clean(text, false),
        });
    }

    /// The run, ending where its last turn or result does.
    pub fn build(self) -> Run {
        let mut events = self.events;
        // Stable: events at the same moment keep the order they were given in.
        let mut order: Vec<usize> = (0..events.len()).collect();
        order.sort_by_key(|&k| events[k].0);
        let mut new_index = vec![0u32; events.len()];
        for (to, &from) in order.iter().enumerate() {
            new_index[from] = u32::try_from(to).unwrap_or(u32::MAX);
        }
        let mut sorted: Vec<(u64, Option<u32>, String)> = Vec::with_capacity(events.len());
        for &k in &order {
            sorted.push(std::mem::take(&mut events[k]));
        }
        let mut calls = self.calls;
        for c in &mut calls {
            for e in &mut c.events {
                *e = new_index[*e as usize];
            }
            c.events.sort_unstable();
        }
        let mut turns = self.turns;
        for t in &mut turns {
            t.event = new_index[t.event as usize];
        }
        let end_ms = sorted.last().map_or(0, |e| e.0);
        let parts = Parts {
            origin: Origin::Fixed,
            name: self.name,
            title: self.title,
            note: self.note,
            clock: self.clock,
            budgets: None,
            cancel_at_ms: None,
            turns,
            calls,
            lanes: self.lanes,
            events: Events::of_lines(sorted),
            decided_ms: end_ms,
            end_ms,
            stop: None,
        };
        let findings = self.findings;
        Run::new(parts, |_| findings)
    }
}

/// Text on one line: its line breaks shown as a mark (an event is one line).
fn one_line(text: &str) -> String {
    crate::sanitize::clean(text, false)
}

/// How the one attempt of a recorded call ended, from its result's category.
fn outcome_of(category: Category) -> Outcome {
    match category {
        Category::Ok => Outcome::Ok,
        Category::NotFound => Outcome::NotFound,
        Category::Forbidden => Outcome::Forbidden,
        Category::Timeout | Category::UnknownOutcome => Outcome::Timeout,
        Category::Cancelled => Outcome::Cancelled,
        _ => Outcome::Error,
    }
}
