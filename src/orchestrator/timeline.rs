//! The human timeline: one short line per trace event (`TraceEvent::summary`, also the TUI
//! stepper's line) and the whole run laid out for an 80-column terminal (`Run::timeline`).

use super::runner::Run;
use super::trace::{EventKind, HandlerState, TraceEvent};
use crate::sanitize::clean;
use crate::text::plural;

const TIMELINE_WIDTH: usize = 80;
/// A wrapped event goes on under the text after its lane label (`c1    `).
const CONTINUED: &str = "      ";
const CONTINUED_ALL: &str = "                 ";

impl Run {
    /// The compact human timeline, for an 80-column terminal: one event a line, a long one
    /// wrapped at word boundaries and indented under its text.
    pub fn timeline(&self) -> String {
        let mut out = String::new();
        for e in &self.events {
            let head = format!("{:>7} ms  ", e.t_ms);
            let width = TIMELINE_WIDTH - head.len();
            for (i, line) in wrap_words(&e.summary(), width, width - CONTINUED.len())
                .iter()
                .enumerate()
            {
                out.push_str(if i == 0 { &head } else { CONTINUED_ALL });
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }
}

impl TraceEvent {
    /// One short human line (no time column).
    pub fn summary(&self) -> String {
        match &self.kind {
            EventKind::RunStarted { .. }
            | EventKind::ModelTurn { .. }
            | EventKind::Stopped { .. } => self.run_summary(),
            EventKind::CallAccepted { .. }
            | EventKind::CallRejected { .. }
            | EventKind::WriteApplied { .. }
            | EventKind::CallResult { .. } => self.call_summary(),
            EventKind::AttemptStarted { .. }
            | EventKind::AttemptFinished { .. }
            | EventKind::HandlerStillRunning { .. }
            | EventKind::RetryScheduled { .. }
            | EventKind::RetryDenied { .. } => self.attempt_summary(),
        }
    }

    /// The run's start, the model's turns and the stop.
    fn run_summary(&self) -> String {
        match &self.kind {
            EventKind::RunStarted {
                scenario,
                title,
                seed,
                timeouts,
                tenant,
                permissions,
                ..
            } => format!(
                "start  {scenario}: {title} (tenant {}, {}; seed {seed}; {})",
                clean(tenant, false),
                if permissions.is_empty() {
                    "no permissions".to_owned()
                } else {
                    permissions.join(", ")
                },
                match &**timeouts {
                    "cancel" => "a timeout cancels the handler".to_owned(),
                    "race" => "a timeout only races the handler".to_owned(),
                    other => format!("timeouts: {other}"),
                }
            ),
            EventKind::ModelTurn {
                start_ms,
                calls,
                final_answer,
            } => {
                let took = self.t_ms.saturating_sub(*start_ms);
                match final_answer {
                    Some(f) => format!(
                        "turn {}  model answers ({took} ms): {}",
                        self.turn,
                        clean(f, false)
                    ),
                    None => format!(
                        "turn {}  model proposes {} ({took} ms): {}",
                        self.turn,
                        plural(calls.len(), "call", "calls"),
                        calls.join(", ")
                    ),
                }
            }
            EventKind::Stopped {
                stop_reason,
                results,
                ..
            } => {
                let r: Vec<String> = results.iter().map(|(id, c)| format!("{id}={c}")).collect();
                // Retries and repairs only when some were used (most runs use none).
                let spent: String = [
                    (self.used.retries, "retry", "retries"),
                    (self.used.repairs, "repair", "repairs"),
                ]
                .iter()
                .filter(|(n, ..)| *n > 0)
                .map(|&(n, one, many)| format!(", {}", plural(n as usize, one, many)))
                .collect();
                format!(
                    "stop   {stop_reason}: {}, {}{spent}; {}",
                    plural(self.used.turns as usize, "turn", "turns"),
                    plural(self.used.tool_calls as usize, "tool call", "tool calls"),
                    if r.is_empty() {
                        "no calls".to_owned()
                    } else {
                        r.join(" ")
                    }
                )
            }
            other => unreachable!("{} is not a run event", other.name()),
        }
    }

    /// A call's acceptance or refusal, the write it applied and its result.
    fn call_summary(&self) -> String {
        match &self.kind {
            EventKind::CallAccepted {
                call_id,
                tool,
                idempotency_key,
                ..
            } => {
                let key = idempotency_key
                    .as_ref()
                    .map(|k| format!(", the loop's key {}", clean(k, false)))
                    .unwrap_or_default();
                format!(
                    "{call_id:<5} accepted {}: valid, tool call #{} reserved{key}",
                    clean(tool, false),
                    self.used.tool_calls
                )
            }
            EventKind::CallRejected {
                call_id,
                tool,
                category,
                error,
                ..
            } => format!(
                "{call_id:<5} REJECTED {} {category}: {}",
                clean(tool, false),
                clean(error, false)
            ),
            EventKind::WriteApplied {
                call_id,
                attempt,
                ticket_id,
                replayed,
            } => {
                if *replayed {
                    format!(
                        "{call_id:<5} service: key already used, replays the first result for {ticket_id} (attempt {attempt})"
                    )
                } else {
                    format!(
                        "{call_id:<5} service: write applied to {ticket_id} (attempt {attempt})"
                    )
                }
            }
            EventKind::CallResult {
                call_id,
                category,
                attempts,
                truncated,
                ..
            } => format!(
                "{call_id:<5} result {category} ({}{})",
                plural(*attempts as usize, "attempt", "attempts"),
                if *truncated { ", TRUNCATED" } else { "" }
            ),
            other => unreachable!("{} is not a call event", other.name()),
        }
    }

    /// One attempt's start and end, a handler finishing unwatched, a retry scheduled.
    fn attempt_summary(&self) -> String {
        match &self.kind {
            EventKind::AttemptStarted {
                call_id,
                attempt,
                timeout_ms,
                ..
            } => format!(
                "{call_id:<5} attempt {attempt} starts (timeout {timeout_ms} ms, {} in flight)",
                self.used.in_flight
            ),
            EventKind::AttemptFinished {
                call_id,
                attempt,
                outcome,
                start_ms,
                handler,
                error,
                ..
            } => {
                let took = self.t_ms.saturating_sub(*start_ms);
                let extra = match (handler, error) {
                    (HandlerState::Running, _) => ", handler still running".to_owned(),
                    (_, Some(e)) => format!(": {}", clean(e, false)),
                    _ => String::new(),
                };
                format!("{call_id:<5} attempt {attempt} {outcome} after {took} ms{extra}")
            }
            EventKind::HandlerStillRunning {
                call_id,
                attempt,
                start_ms,
                outcome,
                ..
            } => format!(
                "{call_id:<5} attempt {attempt}'s handler finished anyway ({outcome}, {} ms after it began)",
                self.t_ms.saturating_sub(*start_ms)
            ),
            EventKind::RetryScheduled {
                call_id,
                attempt,
                delay_ms,
            } => format!(
                "{call_id:<5} retry as attempt {} in {delay_ms} ms (retries used {})",
                attempt + 1,
                self.used.retries
            ),
            EventKind::RetryDenied { call_id, attempt } => format!(
                "{call_id:<5} no retry after attempt {attempt}: retry budget spent (used {})",
                self.used.retries
            ),
            other => unreachable!("{} is not an attempt event", other.name()),
        }
    }
}

/// Split `text` into lines of at most `first` characters (the first) and `rest` (the others),
/// at spaces where it can, mid-word only for a word longer than a whole line.
fn wrap_words(text: &str, first: usize, rest: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    for word in text.split(' ') {
        let mut word = word;
        // Counted once and kept up to date as the word is cut, so a long unbroken word
        // costs time in proportion to its length, not to its length squared.
        let mut wlen = word.chars().count();
        loop {
            let width = if lines.is_empty() { first } else { rest };
            let gap = usize::from(len > 0);
            if len + gap + wlen <= width {
                if gap == 1 {
                    line.push(' ');
                }
                line.push_str(word);
                len += gap + wlen;
                break;
            }
            if len > 0 {
                lines.push(std::mem::take(&mut line));
                len = 0;
                continue;
            }
            // A word longer than a whole line: cut it.
            let cut = word
                .char_indices()
                .nth(width)
                .map_or(word.len(), |(i, _)| i);
            lines.push(word[..cut].to_owned());
            word = &word[cut..];
            wlen = wlen.saturating_sub(width);
            if word.is_empty() {
                break;
            }
        }
    }
    if len > 0 || lines.is_empty() {
        lines.push(line);
    }
    lines
}
