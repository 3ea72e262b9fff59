//! A fresh set of lesson files, taken in when the lesson directory changes, keeping the
//! learner where they were.

use super::{App, Focus, Update};
use crate::course::LessonEntry;
use crate::error::UserResult;

impl App {
    /// New lesson files arrived: keep the learner where they are when possible.
    pub(super) fn reload(&mut self, result: UserResult<Vec<LessonEntry>>) -> Update {
        let lessons = match result {
            Ok(l) => l,
            Err(e) => {
                self.status = Some(format!("Reloading lessons failed: {e}"));
                return Update::Redraw;
            }
        };
        let current_id = self.current().map(|e| e.id.clone());
        let old_source = self.current().map(|e| e.source.clone());
        self.stash_slots();
        self.blocks.clear();
        self.lessons = lessons;
        self.load_error = None;
        let idx = current_id
            .as_ref()
            .and_then(|id| self.lessons.iter().position(|l| &l.id == id));
        match idx {
            Some(i) => {
                let changed = self.lessons[i].source != old_source.unwrap_or_default();
                self.reopen_in_place(i);
                if changed {
                    let what = match &self.lessons[i].parsed {
                        Ok(_) => format!("Reloaded {}", self.lessons[i].file),
                        Err(_) => format!("{} no longer parses", self.lessons[i].file),
                    };
                    self.status = Some(what);
                }
            }
            None => {
                if !self.lessons.is_empty() {
                    self.open(self.lesson.min(self.lessons.len() - 1), 0);
                }
                self.status = Some("The lesson you were reading is gone; showing another.".into());
            }
        }
        Update::Save
    }

    /// Show lesson `i` again after a reload at the page, scroll and focus the learner had
    /// (or had before a reload cut the lesson short), holding that place while it cannot
    /// be shown.
    fn reopen_in_place(&mut self, i: usize) {
        let (scroll, focus, active) = (self.scroll, self.focus, self.active);
        let id = self.lessons[i].id.clone();
        let (want_page, want_scroll) = match self.held_place.take() {
            Some((held, p, s)) if held == id => (p, s),
            _ => (self.page, scroll),
        };
        // Not `open`: the block states were stashed already.
        self.lesson = i;
        self.page = want_page.min(self.lessons[i].page_count() - 1);
        if self.page != want_page || self.lessons[i].parsed.is_err() {
            self.held_place = Some((id, want_page, want_scroll));
        }
        self.sidebar_sel = self.sidebar_sel.min(self.lessons.len() - 1);
        self.build_slots(true);
        if self.lessons[i].parsed.is_ok() {
            self.note_progress();
        }
        self.scroll = want_scroll;
        self.focus = match focus {
            Focus::Block(b) if b < self.blocks.len() => Focus::Block(b),
            Focus::Block(_) => Focus::Page,
            f => f,
        };
        self.active = active && matches!(self.focus, Focus::Block(_));
        self.clamp_scroll();
    }
}
