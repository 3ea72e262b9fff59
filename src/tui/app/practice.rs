//! The practice screen as a screen of the app, the grader's messages, and what a passing
//! grade does on screen: the checklist items it ticks (`course::graded`) are ticked on the
//! open page too.

use std::collections::BTreeMap;

use super::{App, Screen, Update};
use crate::course::graded::tick_graded;
use crate::practice::Function;
use crate::tui::grader::{GraderMsg, Notify};
use crate::tui::practice_screen::{PracticeScreen, PracticeUpdate};

impl App {
    /// How background grading reaches the event loop (the live app sets it).
    pub fn set_notify(&mut self, notify: Notify) {
        self.notify = Some(notify);
    }

    pub(crate) fn notify(&self) -> Option<Notify> {
        self.notify.clone()
    }

    /// Every grading row, or none when the fixtures cannot be read (the screen says so).
    pub(crate) fn grading_rows(&self) -> Vec<crate::practice::Row> {
        crate::practice::cases::load(&self.env.content).unwrap_or_default()
    }

    /// The loaded lessons' titles by id (a lesson that did not parse has none): a failing
    /// row names the lesson to go back to by these.
    pub(crate) fn lesson_titles(&self) -> BTreeMap<String, String> {
        self.lessons
            .iter()
            .filter_map(|l| Some((l.id.clone(), l.parsed.as_ref().ok()?.title.clone())))
            .collect()
    }

    /// Grade the solution in `dir` on `P` instead of the current directory (a tool or test
    /// working in a directory of its own).
    pub fn set_practice_dir(&mut self, dir: std::path::PathBuf) {
        self.practice_dir = Some(dir);
    }

    /// Open the practice screen on the learner's solution in the current directory (it
    /// asks before writing a starter there).
    pub(super) fn open_practice(&mut self) -> Update {
        let dir = match &self.practice_dir {
            Some(dir) => dir.clone(),
            None => std::env::current_dir().unwrap_or_else(|_| ".".into()),
        };
        let rows = self.grading_rows();
        let screen = PracticeScreen::open(&dir, rows, self.lesson_titles(), self.notify());
        self.open_screen(Screen::Practice(Box::new(screen)));
        Update::Redraw
    }

    /// The practice screen, when it is the screen on top.
    pub fn practice_screen(&self) -> Option<&PracticeScreen> {
        match &self.screen {
            Screen::Practice(p) => Some(p),
            _ => None,
        }
    }

    /// What the practice screen said after a key.
    pub(super) fn practice_outcome(&mut self, out: PracticeUpdate) -> Update {
        match out {
            PracticeUpdate::None => Update::None,
            PracticeUpdate::Redraw => Update::Redraw,
            PracticeUpdate::Leave => {
                self.close_screen();
                Update::Redraw
            }
            PracticeUpdate::Quit => Update::Quit,
            PracticeUpdate::Suspend => Update::Suspend,
        }
    }

    /// A message from a watcher or a grading run, for whichever screen grades.
    pub(super) fn grader_msg(&mut self, msg: GraderMsg) -> Update {
        let mut changed = false;
        let mut passed = Vec::new();
        match &mut self.screen {
            Screen::Practice(p) => {
                if let Some(g) = p.grader_mut() {
                    changed |= g.on_msg(msg);
                    passed.extend(g.all_passed());
                }
            }
            Screen::Drill(d) => {
                changed |= d.grader_msg(msg);
                passed.extend(d.write_passed());
            }
            _ => {}
        }
        // Every function that passed ticks its items (not only the first that ticks one).
        let mut ticked = false;
        for function in passed {
            ticked |= self.grader_passed(function);
        }
        match (ticked, changed) {
            (true, _) => Update::Save,
            (false, true) => Update::Redraw,
            _ => Update::None,
        }
    }

    /// Every row of `function` passed: tick the checklist items that wait for it, in the
    /// progress and on the open page. Returns true when an item was newly ticked.
    pub(crate) fn grader_passed(&mut self, function: Function) -> bool {
        let (lesson, page) = (self.lesson, self.page);
        let blocks = &self.blocks;
        let live = |l: usize, p: usize, b: usize| {
            if (l, p) != (lesson, page) {
                return None;
            }
            blocks.widget(b).map(|w| w.save())
        };
        let ticked = tick_graded(&self.lessons, &mut self.progress, function, live);
        for (l, p, b, state) in &ticked {
            if (*l, *p) == (lesson, page)
                && let Some(w) = self.blocks.widget_mut(*b)
            {
                w.restore(state);
            }
        }
        if !ticked.is_empty() {
            self.note_progress();
        }
        !ticked.is_empty()
    }
}
