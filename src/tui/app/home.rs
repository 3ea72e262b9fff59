//! The home screen's state: the rows it offers (continue where the learner left off, then
//! every lesson of the course), moving between them, opening one, and coming back.

use super::{App, Focus, HomeEntry, Screen, Update};
use crate::tui::keys::Action;

impl App {
    /// The rows of the home screen a learner can open, top to bottom.
    pub fn home_entries(&self) -> Vec<HomeEntry> {
        let mut out = Vec::new();
        if let Some(i) = self.continue_target() {
            out.push(HomeEntry::Continue(i));
        }
        out.extend((0..self.lessons.len()).map(HomeEntry::Lesson));
        out
    }

    /// The selected row of the home screen (an index into `home_entries`).
    pub fn home_sel(&self) -> usize {
        match self.screen {
            Screen::Home { sel } => sel,
            _ => 0,
        }
    }

    /// The lesson "Continue" opens: the one the learner was in while it is unfinished;
    /// once it is done, the next unfinished one after it (round to the start); with
    /// nothing unfinished, the one the learner was in, else the first.
    pub(crate) fn continue_target(&self) -> Option<usize> {
        let n = self.lessons.len();
        if n == 0 {
            return None;
        }
        let current = self
            .progress
            .current
            .as_ref()
            .and_then(|p| self.lessons.iter().position(|l| l.id == p.lesson));
        let done = |i: usize| {
            self.progress
                .lessons
                .get(&self.lessons[i].id)
                .is_some_and(|p| p.done)
        };
        let from = current.unwrap_or(0);
        // A lesson file that does not parse is nothing to continue with.
        let unfinished = (0..n)
            .map(|k| (from + k) % n)
            .find(|&i| !done(i) && self.lessons[i].parsed.is_ok());
        Some(unfinished.or(current).unwrap_or(0))
    }

    /// Has the learner been anywhere yet (else the Continue row reads "Start")?
    pub(crate) fn has_begun(&self) -> bool {
        self.progress.current.is_some()
    }

    /// Back to the home screen (the lesson stays open underneath for Continue), showing
    /// what other windows saved meanwhile.
    pub(crate) fn go_home(&mut self) {
        self.set_base(Screen::Home { sel: 0 });
        let _ = self.look_at_progress();
        self.active = false;
        if self.focus == Focus::Sidebar {
            self.focus = Focus::Page;
        }
    }

    /// Keys on the home screen: move the selection, open the selected row.
    pub(super) fn apply_home(&mut self, action: Action) -> Option<Update> {
        let n = self.home_entries().len();
        let Screen::Home { sel } = &mut self.screen else {
            return None;
        };
        match action {
            Action::Down | Action::FocusNext if n > 0 => *sel = (*sel + 1) % n,
            Action::Up | Action::FocusPrev if n > 0 => *sel = (*sel + n - 1) % n,
            Action::Activate => {
                let sel = *sel;
                return Some(self.open_home_entry(sel));
            }
            _ => return None,
        }
        Some(Update::Redraw)
    }

    /// Open row `n` of the home screen.
    pub(crate) fn open_home_entry(&mut self, n: usize) -> Update {
        let Some(entry) = self.home_entries().get(n).copied() else {
            return Update::None;
        };
        let i = match entry {
            HomeEntry::Continue(i) | HomeEntry::Lesson(i) => i,
        };
        self.set_base(Screen::Lesson);
        self.focus = Focus::Page;
        self.resume(i);
        Update::Save
    }
}
