//! Knobs: change a budget, the concurrency limit, a call's latency, race/cancel or the seed,
//! and re-run the real orchestrator; then what changed between the two runs (stop reason,
//! categories, timings), for the comparison on screen.

use crate::orchestrator::{AttemptScript, Scenario, TimeoutMode};

use super::run::Run;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knob {
    Timeouts,
    MaxConcurrency,
    CallTimeout,
    Latency,
    MaxAttempts,
    RetryBudget,
    MaxToolCalls,
    MaxModelTurns,
    MaxRepairs,
    Deadline,
    Seed,
}

impl Knob {
    pub const ALL: [Knob; 11] = [
        Knob::Timeouts,
        Knob::MaxConcurrency,
        Knob::CallTimeout,
        Knob::Latency,
        Knob::MaxAttempts,
        Knob::RetryBudget,
        Knob::MaxToolCalls,
        Knob::MaxModelTurns,
        Knob::MaxRepairs,
        Knob::Deadline,
        Knob::Seed,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Knob::Timeouts => "timeouts",
            Knob::MaxConcurrency => "max_concurrency",
            Knob::CallTimeout => "call_timeout_ms",
            Knob::Latency => "latency_ms",
            Knob::MaxAttempts => "max_attempts",
            Knob::RetryBudget => "retry_budget",
            Knob::MaxToolCalls => "max_tool_calls",
            Knob::MaxModelTurns => "max_model_turns",
            Knob::MaxRepairs => "max_repairs",
            Knob::Deadline => "deadline_ms",
            Knob::Seed => "seed",
        }
    }
}

/// The scenario and seed the next run will use, and which knob is chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct Knobs {
    pub scenario: Scenario,
    pub seed: u64,
    pub cursor: usize,
    /// The call whose first attempt's latency the latency knob changes.
    pub call: Option<String>,
}

impl Knobs {
    pub fn new(scenario: Scenario, seed: u64) -> Knobs {
        Knobs {
            scenario,
            seed,
            cursor: 0,
            call: None,
        }
    }

    pub fn chosen(&self) -> Knob {
        Knob::ALL[self.cursor.min(Knob::ALL.len() - 1)]
    }

    pub fn move_cursor(&mut self, down: bool) {
        let n = Knob::ALL.len();
        self.cursor = if down {
            (self.cursor + 1) % n
        } else {
            (self.cursor + n - 1) % n
        };
    }

    /// The latency the chosen call's first attempt takes.
    fn latency(&self) -> Option<u64> {
        let id = self.call.as_ref()?;
        let s = &self.scenario;
        let first = s.calls.get(id).and_then(|c| c.attempts.first());
        Some(
            first
                .and_then(|a| a.latency_ms)
                .unwrap_or(s.default_latency_ms),
        )
    }

    /// A knob's value as shown.
    pub fn value(&self, k: Knob) -> String {
        let b = &self.scenario.budgets;
        match k {
            Knob::Timeouts => match self.scenario.timeouts {
                TimeoutMode::Cancel => "cancel".into(),
                TimeoutMode::Race => "race".into(),
            },
            Knob::MaxConcurrency => b.max_concurrency.to_string(),
            Knob::CallTimeout => b.call_timeout_ms.to_string(),
            Knob::Latency => match (&self.call, self.latency()) {
                (Some(id), Some(ms)) => format!("{ms} ({id}, attempt 1)"),
                _ => "Tab a call first".into(),
            },
            Knob::MaxAttempts => b.max_attempts.to_string(),
            Knob::RetryBudget => b.retry_budget.to_string(),
            Knob::MaxToolCalls => b.max_tool_calls.to_string(),
            Knob::MaxModelTurns => b.max_model_turns.to_string(),
            Knob::MaxRepairs => b.max_repairs.to_string(),
            Knob::Deadline => b.deadline_ms.to_string(),
            Knob::Seed => self.seed.to_string(),
        }
    }

    /// Step the chosen knob up or down. Returns false when nothing changed.
    pub fn step(&mut self, up: bool) -> bool {
        let before = (self.scenario.clone(), self.seed);
        let k = self.chosen();
        let b = &mut self.scenario.budgets;
        let count = |v: &mut u32, min: u32| {
            *v = if up {
                v.saturating_add(1)
            } else {
                v.saturating_sub(1).max(min)
            }
        };
        let ms = |v: &mut u64, step: u64, min: u64| {
            *v = if up {
                v.saturating_add(step)
            } else {
                v.saturating_sub(step).max(min)
            }
        };
        match k {
            Knob::Timeouts => {
                self.scenario.timeouts = match self.scenario.timeouts {
                    TimeoutMode::Cancel => TimeoutMode::Race,
                    TimeoutMode::Race => TimeoutMode::Cancel,
                }
            }
            Knob::MaxConcurrency => count(&mut b.max_concurrency, 1),
            Knob::CallTimeout => ms(&mut b.call_timeout_ms, 50, 10),
            Knob::MaxAttempts => count(&mut b.max_attempts, 1),
            Knob::RetryBudget => count(&mut b.retry_budget, 0),
            Knob::MaxToolCalls => count(&mut b.max_tool_calls, 0),
            Knob::MaxModelTurns => count(&mut b.max_model_turns, 1),
            Knob::MaxRepairs => count(&mut b.max_repairs, 0),
            Knob::Deadline => ms(&mut b.deadline_ms, 100, 100),
            Knob::Seed => {
                self.seed = if up {
                    self.seed.wrapping_add(1)
                } else {
                    self.seed.saturating_sub(1)
                }
            }
            Knob::Latency => self.step_latency(up),
        }
        (self.scenario.clone(), self.seed) != before
    }

    fn step_latency(&mut self, up: bool) {
        let (Some(id), Some(now)) = (self.call.clone(), self.latency()) else {
            return;
        };
        let next = if up {
            now.saturating_add(50)
        } else {
            now.saturating_sub(50)
        };
        let script = self.scenario.calls.entry(id).or_default();
        if script.attempts.is_empty() {
            script.attempts.push(AttemptScript::default());
        }
        script.attempts[0].latency_ms = Some(next);
    }

    /// Race to cancel and back (the mode key).
    pub fn toggle_mode(&mut self) {
        self.cursor = 0;
        self.step(true);
    }
}

/// What differs between the previous run and this one, in words: the stop reason, each
/// call's category, and when things finished.
pub fn differences(before: &Run, now: &Run) -> Vec<String> {
    let mut out = Vec::new();
    let (br, nr) = (before.stop_word(), now.stop_word());
    if br == nr {
        out.push(format!(
            "stop {nr} at {} ms (was {} ms)",
            now.decided_ms, before.decided_ms
        ));
    } else {
        out.push(format!(
            "stop {br} at {} ms became {nr} at {} ms",
            before.decided_ms, now.decided_ms
        ));
    }
    let mut same = 0;
    for c in &now.calls {
        let Some(b) = before
            .index
            .find_call(&c.id, c.turn)
            .map(|(j, _)| &before.calls[j])
        else {
            out.push(format!("{} is new in this run", c.id));
            continue;
        };
        let (Some(rb), Some(rn)) = (&b.result, &c.result) else {
            continue;
        };
        if rb.category != rn.category {
            out.push(format!("{} {} became {}", c.id, rb.category, rn.category));
        } else if rb.t_ms != rn.t_ms || rb.attempts != rn.attempts {
            let dt = rn.t_ms as i64 - rb.t_ms as i64;
            let when = if dt < 0 {
                format!("{} ms sooner", -dt)
            } else {
                format!("{dt} ms later")
            };
            out.push(format!(
                "{} {} {when} ({} attempts, was {})",
                c.id, rn.category, rn.attempts, rb.attempts
            ));
        } else {
            same += 1;
        }
    }
    if same > 0 {
        let calls = if same == 1 { "call" } else { "calls" };
        out.push(format!("{same} {calls} unchanged"));
    }
    out
}

/// Whether a call's lane differs from the same call's in the previous run.
pub fn lane_differs(before: &Run, now: &Run, i: usize) -> bool {
    let c = &now.calls[i];
    match before
        .index
        .find_call(&c.id, c.turn)
        .map(|(j, _)| &before.calls[j])
    {
        None => true,
        Some(b) => b.segments != c.segments || b.result != c.result,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario() -> Scenario {
        let mut s = crate::orchestrator::load_scenario_generated(3, 1);
        s.timeouts = TimeoutMode::Race;
        s
    }

    #[test]
    fn one_unchanged_call_is_one_call() {
        let run = crate::replay::ScenarioSource::new(
            crate::orchestrator::load_scenario_generated(1, 1),
            0,
        )
        .run();
        let said = differences(&run, &run);
        assert!(said.iter().any(|d| d == "1 call unchanged"), "{said:?}");
    }

    #[test]
    fn the_mode_key_switches_race_and_cancel() {
        let mut k = Knobs::new(scenario(), 0);
        k.toggle_mode();
        assert_eq!(k.scenario.timeouts, TimeoutMode::Cancel);
        k.toggle_mode();
        assert_eq!(k.scenario.timeouts, TimeoutMode::Race);
    }

    #[test]
    fn counts_never_go_below_their_floor() {
        let mut k = Knobs::new(scenario(), 0);
        k.cursor = 1; // max_concurrency, 1 already
        assert!(!k.step(false));
        assert!(k.step(true));
        assert_eq!(k.value(Knob::MaxConcurrency), "2");
    }

    #[test]
    fn latency_needs_a_call_and_then_changes_its_first_attempt() {
        let mut k = Knobs::new(scenario(), 0);
        k.cursor = 3;
        assert!(!k.step(true));
        k.call = Some("c1".into());
        let was = k.latency().unwrap();
        assert!(k.step(true));
        assert_eq!(k.latency(), Some(was + 50));
    }
}
