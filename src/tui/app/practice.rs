//! The practice screen as a screen of the app, the grader's messages, and what a passing
//! grade does: it ticks the checklist items that a `grader=` option hands to the grader,
//! in the progress file (and on the page, when that page is open).

use serde_json::{Value, json};

use super::{App, Screen, Update};
use crate::content::lessons::{BlockKind, Item};
use crate::practice::Function;
use crate::tui::app::LessonEntry;
use crate::tui::grader::{GraderMsg, Notify};
use crate::tui::practice_screen::{PracticeScreen, PracticeUpdate};
use crate::tui::progress::{self, Progress};

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

    /// Open the practice screen on the learner's solution in the current directory.
    pub(super) fn open_practice(&mut self) -> Update {
        let dir = std::env::current_dir().unwrap_or_else(|_| ".".into());
        let rows = self.grading_rows();
        let screen = PracticeScreen::open(&dir, rows, self.notify());
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
                changed |= p.grader.on_msg(msg);
                passed.extend(p.grader.all_passed());
            }
            Screen::Drill(d) => {
                changed |= d.grader_msg(msg);
                passed.extend(d.write_passed());
            }
            _ => {}
        }
        let ticked = passed.into_iter().any(|f| self.grader_passed(f));
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

/// A newly ticked checklist: lesson index, page, block index on the page, its new state.
pub(super) type Ticked = (usize, usize, usize, Value);

/// Tick, in `progress`, every checklist item a `grader=` option hands to `function`.
/// `live` gives the state of a block that is on screen (it wins over the saved one).
pub fn tick_graded(
    lessons: &[LessonEntry],
    progress: &mut Progress,
    function: Function,
    live: impl Fn(usize, usize, usize) -> Option<Value>,
) -> Vec<Ticked> {
    let word = match function {
        Function::Validate => "validate",
        Function::Execute => "execute",
    };
    let mut out = Vec::new();
    for (l, entry) in lessons.iter().enumerate() {
        let Ok(lesson) = &entry.parsed else { continue };
        for (p, page) in lesson.pages.iter().enumerate() {
            let blocks = page.items.iter().filter_map(|i| match i {
                Item::Block(b) => Some(b),
                _ => None,
            });
            for (b, block) in blocks.enumerate() {
                if block.kind != BlockKind::Checklist {
                    continue;
                }
                for (_, item) in block.grader_items().into_iter().filter(|(f, _)| f == word) {
                    let key = progress::block_key(p, b);
                    let lp = progress.lessons.entry(entry.id.clone()).or_default();
                    let state = live(l, p, b)
                        .or_else(|| lp.blocks.get(&key).cloned())
                        .unwrap_or(Value::Null);
                    if let Some(state) = tick(state, item) {
                        lp.blocks.insert(key, state.clone());
                        out.push((l, p, b, state));
                    }
                }
            }
        }
    }
    out
}

/// A checklist's saved state with item `item` ticked, or `None` when it already was.
fn tick(state: Value, item: usize) -> Option<Value> {
    let mut ticked: Vec<bool> = state
        .get("ticked")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|v| v.as_bool().unwrap_or(false)).collect())
        .unwrap_or_default();
    if ticked.get(item) == Some(&true) {
        return None;
    }
    if ticked.len() <= item {
        ticked.resize(item + 1, false);
    }
    ticked[item] = true;
    Some(json!({ "ticked": ticked }))
}

#[cfg(test)]
mod tests {
    use super::tick;
    use serde_json::json;

    #[test]
    fn ticking_keeps_the_other_items() {
        assert_eq!(
            tick(json!({"ticked": [false, true, false]}), 0),
            Some(json!({"ticked": [true, true, false]}))
        );
        assert_eq!(tick(json!({"ticked": [true]}), 0), None);
        assert_eq!(tick(json!(null), 1), Some(json!({"ticked": [false, true]})));
    }
}

#[cfg(test)]
mod tick_tests {
    use super::*;
    use crate::content::Content;
    use crate::tui::app::load_lessons;

    #[test]
    fn a_passing_grade_ticks_the_items_its_checklist_hands_to_the_grader() {
        let lessons = load_lessons(&Content::new(None, None)).unwrap();
        let mut progress = Progress::default();
        let ticked = tick_graded(&lessons, &mut progress, Function::Execute, |_, _, _| None);
        assert_eq!(ticked.len(), 1, "lesson 14's checklist names execute:1");
        let (l, p, b, state) = &ticked[0];
        let id = &lessons[*l].id;
        assert!(id.starts_with("14-"), "{id}");
        assert_eq!(state, &json!({"ticked": [true]}));
        assert_eq!(
            progress.lessons[id].blocks[&progress::block_key(*p, *b)],
            json!({"ticked": [true]})
        );
        // Once ticked, a second pass changes nothing; the validator's pass ticks item 2.
        assert!(tick_graded(&lessons, &mut progress, Function::Execute, |_, _, _| None).is_empty());
        let more = tick_graded(&lessons, &mut progress, Function::Validate, |_, _, _| None);
        assert_eq!(more[0].3, json!({"ticked": [true, true]}));
    }
}
