//! A finding's lesson opened from the audit (`L` in its player) is a peek: the learner
//! looks up the page that teaches the finding, then goes back to the audit with Esc or `A`,
//! which is as they left it. Going back puts the home screen or the lesson they had under
//! the audit back as it was, so leaving the audit later lands there.
//!
//! A peek is not reading the course: no page it shows counts as seen (the lesson is not
//! marked started and would not resume at the peeked page), and the place home's Continue
//! opens stays where the learner was reading. Work done on the peeked page's blocks is kept,
//! as anywhere. Opening another lesson from the lesson list ends the peek: that is reading.

use super::present::LeftPage;
use super::{App, Focus, Screen, Slot};

/// Where the learner was when a finding's lesson was opened over it.
pub(crate) struct Peek {
    /// The home screen's selected row, when the home screen was under the audit.
    home: Option<usize>,
    /// The lesson (by id: a reload may move it) and page that were open, as they were.
    lesson: Option<String>,
    page: usize,
    scroll: usize,
    focus: Focus,
    slots: Vec<Slot>,
    steps: Option<usize>,
    /// Presenter mode: the pages left before it, for `h`.
    left_pages: Vec<LeftPage>,
}

impl App {
    /// Is a finding's lesson open from the audit (Esc goes back to the audit)?
    pub(crate) fn peeking(&self) -> bool {
        self.peek.is_some()
    }

    /// Open lesson `lesson` at `page` as a peek from the audit, keeping aside where the
    /// learner was (the audit is parked and the stack is down to its bottom screen).
    pub(super) fn peek_at(&mut self, lesson: usize, page: usize) {
        if self.peek.is_none() {
            if !self.demo {
                // The open page's work goes into the progress now, as leaving it would.
                self.stash_slots();
            }
            self.peek = Some(Peek {
                home: match self.screen {
                    Screen::Home { sel } => Some(sel),
                    _ => None,
                },
                lesson: self.current().map(|e| e.id.clone()),
                page: self.page,
                scroll: self.scroll,
                focus: self.focus,
                steps: self.blocks.steps_shown(),
                slots: self.blocks.take(),
                left_pages: std::mem::take(&mut self.left_pages),
            });
        }
        self.set_base(Screen::Lesson);
        self.focus = Focus::Page;
        // Shown, not opened: nothing is recorded about it.
        self.show(lesson, page);
    }

    /// The peek is over as reading (another lesson opened from the list): from here on
    /// the page counts as usual, and Esc goes home.
    pub(super) fn end_peek_here(&mut self) {
        self.peek = None;
    }

    /// Back from a peek: the lesson or home screen the learner had under the audit, as it
    /// was. Does nothing when no peek is open.
    pub(super) fn end_peek(&mut self) {
        let Some(peek) = self.peek.take() else {
            return;
        };
        let at = peek
            .lesson
            .as_ref()
            .and_then(|id| self.lessons.iter().position(|l| &l.id == id));
        match at {
            Some(i) => {
                self.show(i, peek.page);
                if self.page == peek.page && self.blocks.len() == peek.slots.len() {
                    self.blocks.set(peek.slots);
                    self.blocks.set_steps(peek.steps);
                }
                self.scroll = peek.scroll;
                self.set_focus(peek.focus);
                self.clamp_scroll();
            }
            None => self.show(0, 0),
        }
        self.left_pages = peek.left_pages;
        self.active = false;
        self.set_base(match peek.home {
            Some(sel) => Screen::Home { sel },
            None => Screen::Lesson,
        });
    }
}
