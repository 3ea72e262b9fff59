//! How a scenario run's warnings are found: from its lanes and the orchestrator's trace,
//! once, when the run is built.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use crate::orchestrator::{self, Category, EventKind, Rejection, StopReason};

use crate::replay::run::Run;
use crate::replay::warn::{WarnKind, Warning};

/// Retries closer together than this (or the call timeout, if longer) count toward a storm.
const STORM_WINDOW_MS: u64 = 500;
/// This many retries inside one window make a storm.
const STORM_RETRIES: usize = 3;

/// Phrases that give orders to the reader rather than describe a ticket.
static INSTRUCTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(ignore (all |any |your |the )?(previous |prior |above )?(instructions|policy|rules|prompt)|disregard (all|any|your|the|previous)|system override|you are now|call [a-z_]+ on|then (say|report) |do not tell)",
    )
    .expect("the instruction pattern is a valid regex")
});

/// Every warning of a scenario's run, by time.
pub(super) fn warnings(tl: &Run, trace: &orchestrator::Run) -> Vec<Warning> {
    let mut out = Vec::new();
    repeated(tl, &mut out);
    storms(tl, trace, &mut out);
    budgets(tl, trace, &mut out);
    for (i, c) in tl.calls.iter().enumerate() {
        let Some(r) = &c.result else { continue };
        if r.category == Category::UnknownOutcome {
            out.push(Warning {
                t_ms: r.t_ms,
                kind: WarnKind::UnknownWrite,
                call: Some(i),
                text: format!(
                    "{} {}: the write timed out; it may or may not have been applied",
                    c.id, c.tool
                ),
            });
        }
        if let Some(m) = c.content.as_deref().and_then(|t| INSTRUCTION.find(t)) {
            out.push(Warning {
                t_ms: r.t_ms,
                kind: WarnKind::Injection,
                call: Some(i),
                text: format!(
                    "{}'s result carries instruction-like text ({:?}): data, not orders",
                    c.id,
                    m.as_str()
                ),
            });
        }
    }
    out.sort_by_key(|w| w.t_ms);
    out
}

/// A call with the same tool and the same arguments as an earlier one.
fn repeated(tl: &Run, out: &mut Vec<Warning>) {
    let mut first: HashMap<(String, String), usize> = HashMap::new();
    for (i, c) in tl.calls.iter().enumerate() {
        if c.args.is_null() {
            continue;
        }
        let key = (c.tool.clone(), c.args.to_string());
        match first.get(&key) {
            Some(&j) => out.push(Warning {
                t_ms: c.proposed_ms,
                kind: WarnKind::Repeated,
                call: Some(i),
                text: format!(
                    "{} repeats {}: {} with the same arguments",
                    c.id, tl.calls[j].id, c.tool
                ),
            }),
            None => {
                first.insert(key, i);
            }
        }
    }
}

/// Several retries scheduled close together: one warning per burst.
fn storms(tl: &Run, trace: &orchestrator::Run, out: &mut Vec<Warning>) {
    let timeout = tl.budgets.map_or(0, |b| b.call_timeout_ms);
    let window = STORM_WINDOW_MS.max(timeout);
    let times: Vec<u64> = trace
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::RetryScheduled { .. }))
        .map(|e| e.t_ms)
        .collect();
    let mut from = 0;
    let mut warned_until: Option<u64> = None;
    for (i, &t) in times.iter().enumerate() {
        while times[from] + window < t {
            from += 1;
        }
        let n = i + 1 - from;
        if n >= STORM_RETRIES && warned_until.is_none_or(|w| t > w) {
            let burst = times[from..]
                .iter()
                .take_while(|&&x| x <= t + window)
                .count();
            out.push(Warning {
                t_ms: t,
                kind: WarnKind::RetryStorm,
                call: None,
                text: format!("{burst} retries within {window} ms"),
            });
            warned_until = Some(t + window);
        }
    }
}

/// Each budget that said no (a retry refused, a call refused for the tool-call budget) and
/// the budget that stopped the run. A budget used exactly up, with nothing more asked of it,
/// is not one.
fn budgets(tl: &Run, trace: &orchestrator::Run, out: &mut Vec<Warning>) {
    let Some(b) = &tl.budgets else { return };
    let events = &trace.events;
    let mut denied = events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.kind, EventKind::RetryDenied { .. }));
    if let Some((i, e)) = denied.next() {
        let id = tl.events.call(i).map(|c| tl.calls[c].id.clone());
        let more = match denied.count() {
            0 => String::new(),
            n => format!(" (and {n} more)"),
        };
        out.push(Warning {
            t_ms: e.t_ms,
            kind: WarnKind::BudgetHit,
            call: tl.events.call(i),
            text: format!(
                "{} failed and was not retried{more}: no retry budget left",
                id.unwrap_or_default()
            ),
        });
    }
    if let Some((i, e)) = events.iter().enumerate().find(|(_, e)| {
        matches!(
            e.kind,
            EventKind::CallRejected {
                category: Rejection::BudgetExhausted,
                ..
            }
        )
    }) {
        let id = tl.events.call(i).map(|c| tl.calls[c].id.clone());
        out.push(Warning {
            t_ms: e.t_ms,
            kind: WarnKind::BudgetHit,
            call: tl.events.call(i),
            text: format!(
                "tool-call budget of {} spent: {} not run",
                b.max_tool_calls,
                id.unwrap_or_default()
            ),
        });
    }
    let text = match trace.stop_reason {
        StopReason::MaxModelTurns => format!("model-turn budget of {} spent", b.max_model_turns),
        StopReason::Deadline => format!("deadline of {} ms reached", b.deadline_ms),
        StopReason::RepairLimit => format!("repair budget of {} spent", b.max_repairs),
        _ => return,
    };
    out.push(Warning {
        t_ms: tl.decided_ms,
        kind: WarnKind::BudgetHit,
        call: None,
        text,
    });
}
