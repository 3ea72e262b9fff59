//! The rehearsal drill as a screen of the app: it covers the lessons while it runs, takes
//! every key and tick, and when it ends its answers go into the review cards and the trend.

use super::{App, Screen, Update};
use crate::tui::rehearse::{Drill, DrillConfig, DrillUpdate, Pool};

impl App {
    /// Open a drill drawn from the loaded lessons and fixtures; cards due today come first.
    pub fn start_drill(&mut self, cfg: DrillConfig) {
        let pool = Pool::build(&self.env, &self.lessons);
        let due = self.progress.rehearsal.due_on(cfg.day);
        let notify = self.notify.clone();
        let drill = Drill::new(cfg, &pool, &due, self.lesson_titles(), notify);
        self.open_screen(Screen::Drill(Box::new(drill)));
    }

    /// The drill, when it is the screen on top.
    pub fn drill(&self) -> Option<&Drill> {
        match &self.screen {
            Screen::Drill(d) => Some(d),
            _ => None,
        }
    }

    /// Run the open drill to its scorecard (see `Drill::play_through`).
    pub fn drill_play_through(&mut self) {
        if let Screen::Drill(d) = &mut self.screen {
            d.play_through();
        }
    }

    /// What the drill said after a key or a tick.
    pub(super) fn drill_outcome(&mut self, out: DrillUpdate) -> Update {
        match out {
            DrillUpdate::None => Update::None,
            DrillUpdate::Redraw => Update::Redraw,
            DrillUpdate::Finished => {
                if let Screen::Drill(d) = &self.screen {
                    crate::course::rehearsal::record(d.as_ref(), &mut self.progress.rehearsal);
                }
                Update::Save
            }
            DrillUpdate::Leave => {
                self.close_screen();
                Update::Redraw
            }
            DrillUpdate::Quit => Update::Quit,
            DrillUpdate::Suspend => Update::Suspend,
        }
    }

    /// A fresh drill with today's date and a seed from the clock (the `R` key).
    pub(super) fn open_drill_now(&mut self) -> Update {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() % 100_000)
            .unwrap_or(0);
        let mut cfg = DrillConfig::new(seed, 10);
        cfg.lang = crate::course::rehearsal::lang_in(&cfg.dir);
        self.start_drill(cfg);
        Update::Redraw
    }

    /// The learner's progress as it stands (review cards and drill trend included).
    pub fn progress(&self) -> &crate::course::Progress {
        &self.progress
    }
}
