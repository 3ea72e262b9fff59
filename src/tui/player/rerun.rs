//! Re-runs on screen (`m`, Enter in the knobs): the player made for tests and `render` runs
//! one on the spot; the interactive app sets `Player::background`, takes the job with
//! `take_job`, runs it off its event loop and hands the result back with `finish_rerun`.
//! Meanwhile the previous run stays on screen under a "re-running" note. The jobs and their
//! order are `replay::rerun`'s.

pub use crate::replay::rerun::{RerunDone, RerunJob};

use super::Player;

impl Player {
    /// Re-run the real orchestrator with the knobs' scenario and seed; the run on screen
    /// becomes the one compared against. In the background, only once the new run is back.
    /// A run without knobs (a recording) is never re-run.
    pub fn rerun(&mut self) {
        let Some(knobs) = &self.knobs else {
            return;
        };
        let job = RerunJob::new(knobs);
        if self.background {
            self.status = None;
        }
        if let Some(now) = self.pending.ask(job, self.background) {
            let done = now.run();
            let _ = self.finish_rerun(done);
        }
    }

    /// The mode and seed of the re-run asked for and not on screen yet, in words.
    pub fn rerunning(&self) -> Option<&str> {
        self.pending.label()
    }

    /// The re-run to start now, if one waits and none runs.
    pub fn take_job(&mut self) -> Option<RerunJob> {
        self.pending.take()
    }

    /// A re-run came back. It goes on screen unless it is not this player's or a newer
    /// request waits (then that one is next, from `take_job`). True when the screen changed.
    pub fn finish_rerun(&mut self, done: RerunDone) -> bool {
        let Some((run, label)) = self.pending.finish(done) else {
            return false;
        };
        let old = std::mem::replace(&mut self.tl, run);
        self.before = Some(old);
        self.show_before = true;
        self.pb.selected = self.pb.selected.filter(|&i| i < self.tl.calls.len());
        // The new run opens at its start, ready to play and tell.
        let _ = self.pb.seek(&self.tl, 0);
        self.pb.playing = false;
        self.status = Some(format!(
            "Re-ran the real orchestrator ({label}): {} at {} ms. b hides the comparison.",
            self.tl.stop_word(),
            self.tl.decided_ms
        ));
        true
    }
}
