//! The contract's JSON line for each trace event. `Line` is a borrowed view of a
//! `TraceEvent` whose derived `Serialize` writes the keys in the contract's order: `t_ms`,
//! `event`, the event's own fields (with the turn, the clock and the budgets spent placed
//! where the contract puts them), then `run_id`. Optional fields are left out, never null.

use std::sync::Arc;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::budgets::Budgets;
use super::runner::Run;
use super::trace::{Category, EventKind, HandlerState, Outcome, Rejection, StopReason, TraceEvent};

impl Serialize for TraceEvent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Line::of(self).serialize(serializer)
    }
}

impl TraceEvent {
    /// Exactly one contract JSON line, as a value.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Exactly one contract JSON line, as text (no newline).
    pub fn to_json_line(&self) -> String {
        crate::sanitize::escape_json_controls(serde_json::to_string(self).unwrap_or_default())
    }
}

impl Run {
    /// Write the run as JSON Lines to `out`, one event at a time (memory stays that of one
    /// line whatever the length of the run); the bytes of [`Run::to_jsonl`].
    pub fn write_jsonl(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        for e in &self.events {
            out.write_all(e.to_json_line().as_bytes())?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// The whole trace as JSON Lines (each line ends with `\n`).
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        for e in &self.events {
            out.push_str(&e.to_json_line());
            out.push('\n');
        }
        out
    }
}

#[derive(Serialize)]
struct Line<'a> {
    t_ms: u64,
    #[serde(flatten)]
    body: Body<'a>,
    run_id: &'a str,
}

/// The fields of each event in the contract's order.
#[derive(Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
enum Body<'a> {
    RunStarted {
        scenario: &'a str,
        title: &'a str,
        seed: u64,
        timeouts: &'a str,
        budgets: &'a Budgets,
        tenant: &'a str,
        permissions: &'a [&'static str],
    },
    ModelTurn {
        turn: u32,
        calls: &'a [String],
        #[serde(rename = "final", skip_serializing_if = "Option::is_none")]
        final_answer: Option<&'a str>,
        start_ms: u64,
        end_ms: u64,
    },
    CallAccepted {
        turn: u32,
        call_id: &'a str,
        tool: &'a str,
        validation: &'a str,
        args: &'a Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        idempotency_key: Option<&'a str>,
    },
    CallRejected {
        turn: u32,
        call_id: &'a str,
        tool: &'a str,
        category: Rejection,
        error: &'a str,
        validation: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        authorization: Option<&'a str>,
        args: &'a Value,
    },
    AttemptStarted {
        call_id: &'a str,
        tool: &'a str,
        attempt: u32,
        turn: u32,
        timeout_ms: u64,
        start_ms: u64,
    },
    AttemptFinished {
        call_id: &'a str,
        tool: &'a str,
        attempt: u32,
        outcome: Outcome,
        turn: u32,
        start_ms: u64,
        end_ms: u64,
        handler: HandlerState,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<&'a str>,
    },
    HandlerStillRunning {
        call_id: &'a str,
        attempt: u32,
        tool: &'a str,
        turn: u32,
        outcome: Outcome,
        start_ms: u64,
        end_ms: u64,
    },
    RetryScheduled {
        call_id: &'a str,
        attempt: u32,
        delay_ms: u64,
        turn: u32,
    },
    RetryDenied {
        call_id: &'a str,
        attempt: u32,
        turn: u32,
        retries_used: u32,
    },
    WriteApplied {
        call_id: &'a str,
        attempt: u32,
        turn: u32,
        ticket_id: &'a str,
        replayed: bool,
    },
    CallResult {
        call_id: &'a str,
        tool: &'a str,
        category: Category,
        attempts: u32,
        truncated: bool,
        turn: u32,
        bytes: usize,
        validation: &'a str,
        authorization: &'a str,
        start_ms: u64,
        end_ms: u64,
    },
    Stopped {
        stop_reason: StopReason,
        turns_used: u32,
        tool_calls_used: u32,
        results: ResultsMap<'a>,
        turn: u32,
        decided_ms: u64,
        retries_used: u32,
        repairs_used: u32,
    },
}

/// call id -> category as one JSON object, in proposal order (a repeated id keeps its
/// first place and its last category).
struct ResultsMap<'a>(&'a [(Arc<str>, Category)]);

impl Serialize for ResultsMap<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = Map::new();
        for (id, category) in self.0 {
            map.insert(id.to_string(), Value::String(category.to_string()));
        }
        map.serialize(serializer)
    }
}

impl<'a> Line<'a> {
    fn of(e: &'a TraceEvent) -> Line<'a> {
        Line {
            t_ms: e.t_ms,
            body: Body::of(e),
            run_id: &e.run_id,
        }
    }
}

impl<'a> Body<'a> {
    fn of(e: &'a TraceEvent) -> Body<'a> {
        match &e.kind {
            EventKind::RunStarted { .. }
            | EventKind::ModelTurn { .. }
            | EventKind::CallAccepted { .. }
            | EventKind::CallRejected { .. } => Body::of_turn(e),
            EventKind::AttemptStarted { .. }
            | EventKind::AttemptFinished { .. }
            | EventKind::HandlerStillRunning { .. }
            | EventKind::RetryScheduled { .. }
            | EventKind::RetryDenied { .. }
            | EventKind::WriteApplied { .. } => Body::of_attempt(e),
            EventKind::CallResult { .. } | EventKind::Stopped { .. } => Body::of_end(e),
        }
    }

    /// The run's start, the model's turns and what became of each proposed call.
    fn of_turn(e: &'a TraceEvent) -> Body<'a> {
        let (turn, end_ms) = (e.turn, e.t_ms);
        match &e.kind {
            EventKind::RunStarted {
                scenario,
                title,
                seed,
                budgets,
                timeouts,
                tenant,
                permissions,
            } => Body::RunStarted {
                scenario,
                title,
                seed: *seed,
                timeouts,
                budgets,
                tenant,
                permissions,
            },
            EventKind::ModelTurn {
                start_ms,
                calls,
                final_answer,
            } => Body::ModelTurn {
                turn,
                calls,
                final_answer: final_answer.as_deref(),
                start_ms: *start_ms,
                end_ms,
            },
            EventKind::CallAccepted {
                call_id,
                tool,
                args,
                idempotency_key,
            } => Body::CallAccepted {
                turn,
                call_id,
                tool,
                validation: "ok",
                args,
                idempotency_key: idempotency_key.as_deref(),
            },
            EventKind::CallRejected {
                call_id,
                tool,
                category,
                error,
                args,
            } => Body::CallRejected {
                turn,
                call_id,
                tool,
                category: *category,
                error,
                validation: category.validation(),
                authorization: (*category == Rejection::DeniedAfterForbidden).then_some("denied"),
                args,
            },
            other => unreachable!("{} is not a turn event", other.name()),
        }
    }

    /// The events of a call's attempts.
    fn of_attempt(e: &'a TraceEvent) -> Body<'a> {
        let (turn, end_ms) = (e.turn, e.t_ms);
        match &e.kind {
            EventKind::AttemptStarted {
                call_id,
                tool,
                attempt,
                timeout_ms,
            } => Body::AttemptStarted {
                call_id,
                tool,
                attempt: *attempt,
                turn,
                timeout_ms: *timeout_ms,
                start_ms: e.t_ms,
            },
            EventKind::AttemptFinished {
                call_id,
                tool,
                attempt,
                outcome,
                start_ms,
                handler,
                error,
            } => Body::AttemptFinished {
                call_id,
                tool,
                attempt: *attempt,
                outcome: *outcome,
                turn,
                start_ms: *start_ms,
                end_ms,
                handler: *handler,
                error: error.as_deref(),
            },
            EventKind::HandlerStillRunning {
                call_id,
                tool,
                attempt,
                start_ms,
                outcome,
            } => Body::HandlerStillRunning {
                call_id,
                attempt: *attempt,
                tool,
                turn,
                outcome: *outcome,
                start_ms: *start_ms,
                end_ms,
            },
            EventKind::RetryScheduled {
                call_id,
                attempt,
                delay_ms,
            } => Body::RetryScheduled {
                call_id,
                attempt: *attempt,
                delay_ms: *delay_ms,
                turn,
            },
            EventKind::RetryDenied { call_id, attempt } => Body::RetryDenied {
                call_id,
                attempt: *attempt,
                turn,
                retries_used: e.used.retries,
            },
            EventKind::WriteApplied {
                call_id,
                attempt,
                ticket_id,
                replayed,
            } => Body::WriteApplied {
                call_id,
                attempt: *attempt,
                turn,
                ticket_id,
                replayed: *replayed,
            },
            other => unreachable!("{} is not an attempt event", other.name()),
        }
    }

    /// A call's result and the run's stop.
    fn of_end(e: &'a TraceEvent) -> Body<'a> {
        let (turn, end_ms, used) = (e.turn, e.t_ms, e.used);
        match &e.kind {
            EventKind::CallResult {
                call_id,
                tool,
                category,
                attempts,
                truncated,
                bytes,
                start_ms,
                validation,
                authorization,
            } => Body::CallResult {
                call_id,
                tool,
                category: *category,
                attempts: *attempts,
                truncated: *truncated,
                turn,
                bytes: *bytes,
                validation,
                authorization,
                start_ms: *start_ms,
                end_ms,
            },
            EventKind::Stopped {
                stop_reason,
                decided_ms,
                results,
            } => Body::Stopped {
                stop_reason: *stop_reason,
                turns_used: used.turns,
                tool_calls_used: used.tool_calls,
                results: ResultsMap(results),
                turn,
                decided_ms: *decided_ms,
                retries_used: used.retries,
                repairs_used: used.repairs,
            },
            other => unreachable!("{} is not an end event", other.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::orchestrator::budgets::Used;

    fn line(turn: u32, kind: EventKind) -> String {
        let used = Used {
            turns: 2,
            tool_calls: 3,
            retries: 1,
            repairs: 0,
            in_flight: 1,
        };
        let e = TraceEvent {
            run_id: Arc::from("run-1"),
            t_ms: 250,
            turn,
            kind,
            used,
        };
        e.to_json_line()
    }

    #[test]
    fn keys_keep_the_contract_order_and_optional_fields_stay_out() {
        let final_turn = line(
            2,
            EventKind::ModelTurn {
                start_ms: 150,
                calls: Vec::new(),
                final_answer: Some("done".into()),
            },
        );
        assert_eq!(
            final_turn,
            r#"{"t_ms":250,"event":"model_turn","turn":2,"calls":[],"final":"done","start_ms":150,"end_ms":250,"run_id":"run-1"}"#
        );
        let denied = line(
            2,
            EventKind::CallRejected {
                call_id: Arc::from("c4"),
                tool: Arc::from("get_ticket"),
                category: Rejection::DeniedAfterForbidden,
                error: "no".into(),
                args: Arc::new(json!({"ticket_id": "TKT-1"})),
            },
        );
        assert_eq!(
            denied,
            r#"{"t_ms":250,"event":"call_rejected","turn":2,"call_id":"c4","tool":"get_ticket","category":"denied_after_forbidden","error":"no","validation":"ok","authorization":"denied","args":{"ticket_id":"TKT-1"},"run_id":"run-1"}"#
        );
        let finished = line(
            1,
            EventKind::AttemptFinished {
                call_id: Arc::from("c1"),
                tool: Arc::from("get_ticket"),
                attempt: 1,
                outcome: Outcome::Ok,
                start_ms: 200,
                handler: HandlerState::Finished,
                error: None,
            },
        );
        assert_eq!(
            finished,
            r#"{"t_ms":250,"event":"attempt_finished","call_id":"c1","tool":"get_ticket","attempt":1,"outcome":"ok","turn":1,"start_ms":200,"end_ms":250,"handler":"finished","run_id":"run-1"}"#
        );
    }

    #[test]
    fn the_stop_lists_results_in_proposal_order_and_the_budgets_spent() {
        let stopped = line(
            3,
            EventKind::Stopped {
                stop_reason: StopReason::FinalAnswer,
                decided_ms: 240,
                results: vec![
                    (Arc::from("c2"), Category::Ok),
                    (Arc::from("c1"), Category::Timeout),
                    (Arc::from("c2"), Category::Error),
                ],
            },
        );
        assert_eq!(
            stopped,
            r#"{"t_ms":250,"event":"stopped","stop_reason":"final_answer","turns_used":2,"tool_calls_used":3,"results":{"c2":"error","c1":"timeout"},"turn":3,"decided_ms":240,"retries_used":1,"repairs_used":0,"run_id":"run-1"}"#
        );
    }
}
