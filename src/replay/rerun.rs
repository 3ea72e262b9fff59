//! Re-runs of a scenario run, asked for from the player (`m`, Enter in the knobs). A request
//! becomes a `RerunJob`: the scenario and seed the knobs hold, with an id. A job is run on
//! the spot, or handed to whoever runs it off the event loop and brings the result back.
//!
//! At most one job runs at a time. A request made while one runs replaces any request still
//! waiting and makes the running one's result stale: when it arrives it is dropped and the
//! newest request starts, so the screen always ends on the run the knobs last asked for.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::orchestrator::{Scenario, run_blocking};

use super::knobs::{Knob, Knobs};
use super::run::Run;

/// Ids are unique in the process, so a result can never be taken for another player's.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One re-run to make: the scenario and seed the knobs held when it was asked for.
#[derive(Debug, Clone)]
pub struct RerunJob {
    id: u64,
    scenario: Scenario,
    seed: u64,
    /// The timeout mode and seed, in words, for the notes on screen.
    label: String,
}

/// A finished re-run, its run already built.
#[derive(Debug, Clone)]
pub struct RerunDone {
    id: u64,
    run: Run,
    label: String,
}

impl RerunJob {
    /// A job for what `knobs` hold now.
    pub fn new(knobs: &Knobs) -> RerunJob {
        RerunJob {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            scenario: knobs.scenario.clone(),
            seed: knobs.seed,
            label: format!("{}, seed {}", knobs.value(Knob::Timeouts), knobs.seed),
        }
    }

    /// Run the real orchestrator and build the lanes. Blocks for as long as the run takes
    /// (about half a second for the 10,000-call scenario): call it off the event loop.
    pub fn run(self) -> RerunDone {
        let trace = run_blocking(&self.scenario, self.seed);
        RerunDone {
            id: self.id,
            run: Run::from_trace(&self.scenario, trace),
            label: self.label,
        }
    }
}

/// Re-runs asked for and not yet on screen.
#[derive(Debug, Clone, Default)]
pub struct Pending {
    /// The job handed out and not yet back.
    running: Option<u64>,
    /// The newest request, waiting for the running one to end.
    waiting: Option<RerunJob>,
    /// The newest request's mode and seed, in words.
    label: String,
}

impl Pending {
    /// Ask for `job`. In the background it waits to be taken; otherwise it is handed back,
    /// marked as running, to be run now.
    pub fn ask(&mut self, job: RerunJob, background: bool) -> Option<RerunJob> {
        self.label = job.label.clone();
        if background {
            self.waiting = Some(job);
            None
        } else {
            self.running = Some(job.id);
            Some(job)
        }
    }

    /// The mode and seed of the re-run asked for and not on screen yet, in words.
    pub fn label(&self) -> Option<&str> {
        let busy = self.running.is_some() || self.waiting.is_some();
        busy.then_some(self.label.as_str())
    }

    /// The re-run to start now, if one waits and none runs.
    pub fn take(&mut self) -> Option<RerunJob> {
        if self.running.is_some() {
            return None;
        }
        let job = self.waiting.take()?;
        self.running = Some(job.id);
        Some(job)
    }

    /// A re-run came back: its run and label, unless it is not the one running or a newer
    /// request waits (that one is taken next).
    pub fn finish(&mut self, done: RerunDone) -> Option<(Run, String)> {
        if self.running != Some(done.id) {
            return None;
        }
        self.running = None;
        if self.waiting.is_some() {
            return None;
        }
        Some((done.run, done.label))
    }
}
