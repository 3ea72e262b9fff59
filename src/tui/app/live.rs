//! Progress another window saved, taken in while the app runs. The app looks at the
//! progress file (its stamp, one `stat`) on a slow tick while the home screen, a lesson or
//! the Your tools screen is on top, and at once when one of them or the lesson list comes
//! into view; a changed file is read and laid under this window's own changes not saved
//! yet, so that a lesson finished in another window shows here without a restart and
//! nothing done here is lost. What this window shows follows: the home screen's rows, the
//! open page's blocks, the lesson list hidden or shown, the Your tools screen's predict
//! tables.

use std::time::{Duration, Instant};

use super::{App, Focus, Screen, Update};
use crate::course::progress::{self, Progress, Store};

/// How often the home screen, a lesson and the Your tools screen look at the progress file.
pub(super) const LOOK_EVERY: Duration = Duration::from_secs(1);

/// The progress file this window shares with others, and when the app last looked at it.
pub(super) struct Watch {
    store: Store,
    looked: Option<Instant>,
}

impl App {
    /// Look at `store`'s progress file for other windows' saves (a store kept in memory
    /// has none, and is not looked at).
    pub fn watch_progress(&mut self, store: Store) {
        self.watch = store.path.is_some().then_some(Watch {
            store,
            looked: None,
        });
    }

    /// Does the app look at a progress file on its ticks?
    pub(super) fn watches_progress(&self) -> bool {
        self.watch.is_some()
            && matches!(
                self.screen,
                Screen::Home { .. } | Screen::Lesson | Screen::Tools(_)
            )
    }

    /// A tick: look at the progress file when [`LOOK_EVERY`] has passed since the last look
    /// (a lesson's animations tick far more often).
    pub(super) fn look_on_tick(&mut self) -> Update {
        let due = self
            .watch
            .as_ref()
            .is_some_and(|w| w.looked.is_none_or(|at| at.elapsed() >= LOOK_EVERY));
        if due {
            self.look_at_progress()
        } else {
            Update::None
        }
    }

    /// Look at the progress file now and take in what another window saved, if it did.
    pub(super) fn look_at_progress(&mut self) -> Update {
        let Some(watch) = &mut self.watch else {
            return Update::None;
        };
        watch.looked = Some(Instant::now());
        // This window's progress is gathered (every block's state) only for a changed file.
        if !watch.store.changed_on_disk() {
            return Update::None;
        }
        let mine = self.progress_snapshot();
        let Some(merged) = self.watch.as_ref().and_then(|w| w.store.take_in(&mine)) else {
            return Update::None;
        };
        self.progress = merged;
        self.follow_sidebar(mine.sidebar_hidden);
        self.follow_tools();
        self.refresh_blocks(&mine);
        self.follow_continue();
        Update::Redraw
    }

    /// Hide or show the lesson list as another window chose to (`hidden`: this window's
    /// choice before it took that in; one it made and has not saved yet stays, as the
    /// merge keeps it). The projector's list is not the learner's choice and stays as it is.
    fn follow_sidebar(&mut self, hidden: bool) {
        if self.present || self.progress.sidebar_hidden == hidden {
            return;
        }
        self.sidebar_wide = !self.progress.sidebar_hidden;
        if !self.sidebar_visible() && self.focus == Focus::Sidebar {
            self.focus = Focus::Page;
        }
        // The page changed width: keep the focused block, and its focus line, in view.
        self.reveal_focus();
        self.keep_focus_line(0, 0);
    }

    /// Give each open Your tools screen its file's progress as taken in (this window's own
    /// is in it: every change the screen makes is kept in the app's progress at once), none
    /// when the file has none (another window started over with `--reset-progress`).
    fn follow_tools(&mut self) {
        let screens = std::iter::once(&mut self.screen).chain(self.below.iter_mut());
        for screen in screens {
            if let Screen::Tools(s) = screen {
                let progress = self.progress.tools.get(&s.progress_key());
                s.take_in(progress.cloned().unwrap_or_default());
            }
        }
    }

    /// On the home screen, put the lesson Continue now opens underneath, at the page it
    /// opens (another window may have moved on), as a window started now would: its row
    /// then names that page.
    fn follow_continue(&mut self) {
        if !matches!(self.base_screen(), Screen::Home { .. }) {
            return;
        }
        let Some(i) = self.continue_target() else {
            return;
        };
        let page = match &self.progress.current {
            Some(at) if at.lesson == self.lessons[i].id => at.page,
            _ => self.resume_page(i),
        };
        if (i, page) != (self.lesson, self.page) {
            self.show(i, page);
        }
    }

    /// Build again the open page's blocks whose state came from another window (`mine`:
    /// this window's progress before it took that in), so that what they show is what is
    /// saved, and a later save does not put back the state they showed before.
    fn refresh_blocks(&mut self, mine: &Progress) {
        let Some(id) = self.current().map(|e| e.id.clone()) else {
            return;
        };
        let now = self.progress.lessons.get(&id).cloned().unwrap_or_default();
        let before = mine.lessons.get(&id);
        for (i, block) in self.page_blocks().into_iter().enumerate() {
            let key = progress::block_key(self.page, i);
            let state = now.blocks.get(&key);
            if before.and_then(|lp| lp.blocks.get(&key)) == state {
                continue;
            }
            let widget = self.build_block(&block).map(|mut w| {
                if let Some(state) = state {
                    w.restore(state);
                }
                w
            });
            self.blocks.rebuild(i, widget);
        }
        self.clamp_scroll();
    }
}
