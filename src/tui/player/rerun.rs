//! Re-runs asked for from inside the player (`m`, Enter in the knobs). A request becomes a
//! `RerunJob`: the scenario and seed to run, with an id. A player made for tests and
//! `render` runs it on the spot; the interactive app sets `Player::background`, takes the job
//! with `take_job`, runs it off its event loop and hands the result back with `finish_rerun`.
//! Meanwhile the previous run stays on screen under a "re-running" note.
//!
//! At most one job runs per player. A request made while one runs replaces any request still
//! waiting and makes the running one's result stale: when it arrives it is dropped and the
//! newest request starts, so the screen always ends on the run the knobs last asked for.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::orchestrator::{Scenario, run_blocking};

use super::model::Timeline;
use super::{Player, knobs};

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

/// A finished re-run, its timeline already built.
#[derive(Debug, Clone)]
pub struct RerunDone {
    id: u64,
    tl: Timeline,
    label: String,
}

impl RerunJob {
    /// Run the real orchestrator and build the lanes. Blocks for as long as the run takes
    /// (about half a second for the 10,000-call scenario): call it off the event loop.
    pub fn run(self) -> RerunDone {
        let run = run_blocking(&self.scenario, self.seed);
        RerunDone {
            id: self.id,
            tl: Timeline::build(&self.scenario, run),
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

impl Player {
    /// Re-run the real orchestrator with the knobs' scenario and seed; the run on screen
    /// becomes the one compared against. In the background, only once the new run is back.
    pub fn rerun(&mut self) {
        let label = format!(
            "{}, seed {}",
            self.knobs.value(knobs::Knob::Timeouts),
            self.knobs.seed
        );
        let job = RerunJob {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            scenario: self.knobs.scenario.clone(),
            seed: self.knobs.seed,
            label: label.clone(),
        };
        if self.background {
            self.pending.waiting = Some(job);
            self.pending.label = label;
            self.status = None;
        } else {
            self.pending.running = Some(job.id);
            let done = job.run();
            let _ = self.finish_rerun(done);
        }
    }

    /// The mode and seed of the re-run asked for and not on screen yet, in words.
    pub fn rerunning(&self) -> Option<&str> {
        let busy = self.pending.running.is_some() || self.pending.waiting.is_some();
        busy.then_some(self.pending.label.as_str())
    }

    /// The re-run to start now, if one waits and none runs.
    pub fn take_job(&mut self) -> Option<RerunJob> {
        if self.pending.running.is_some() {
            return None;
        }
        let job = self.pending.waiting.take()?;
        self.pending.running = Some(job.id);
        Some(job)
    }

    /// A re-run came back. It goes on screen unless it is not this player's or a newer
    /// request waits (then that one is next, from `take_job`). True when the screen changed.
    pub fn finish_rerun(&mut self, done: RerunDone) -> bool {
        if self.pending.running != Some(done.id) {
            return false;
        }
        self.pending.running = None;
        if self.pending.waiting.is_some() {
            return false;
        }
        let old = std::mem::replace(&mut self.tl, done.tl);
        self.before = Some(old);
        self.show_before = true;
        self.pb.selected = self.pb.selected.filter(|&i| i < self.tl.calls.len());
        let _ = self.pb.seek(&self.tl, self.tl.end_ms);
        self.pb.playing = false;
        self.status = Some(format!(
            "Re-ran the real orchestrator ({}): {} at {} ms. b hides the comparison.",
            done.label,
            self.tl.stop_reason(),
            self.tl.decided_ms
        ));
        true
    }
}
