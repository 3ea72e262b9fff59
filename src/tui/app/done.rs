//! Completion made visible on screen: what is left of each block of the open page, and of
//! each lesson (the rule and the words are the course's, `course::done`).

use super::App;
use crate::course::Left;

impl App {
    /// What is left of block `i` of the current page, or `None` when it is done (a block
    /// that could not be built has nothing a learner can do, so it never holds a lesson
    /// back).
    pub(crate) fn block_left(&self, i: usize) -> Option<String> {
        let slot = self.blocks.slots().get(i)?;
        let w = slot.widget.as_ref().ok()?;
        if w.is_done() {
            return None;
        }
        let words = w.remaining();
        Some(if words.is_empty() {
            slot.kind.noun().to_owned()
        } else {
            words.join(", ")
        })
    }

    /// What is left of each block of the current page (`None`: done).
    pub(super) fn blocks_left(&self) -> Vec<Option<String>> {
        (0..self.blocks.len()).map(|b| self.block_left(b)).collect()
    }

    /// What is left of lesson `i`; the open lesson's page is read from its blocks.
    fn left(&self, i: usize) -> Left {
        let Some(entry) = self.lessons.get(i) else {
            return Left::default();
        };
        let Ok(lesson) = &entry.parsed else {
            return Left::default();
        };
        let live: Vec<String> = if i == self.lesson {
            self.blocks_left().into_iter().flatten().collect()
        } else {
            Vec::new()
        };
        let open = (i == self.lesson).then_some((self.page, live.as_slice()));
        Left::of(lesson, self.progress.lessons.get(&entry.id), open)
    }

    /// What is left of lesson `i`: unfinished blocks (the same phrase on several pages once,
    /// with its pages), then the pages not opened yet. Empty for a finished lesson and for
    /// one not begun.
    pub fn lesson_left(&self, i: usize) -> Vec<String> {
        self.left(i).words()
    }

    /// How many things are left of lesson `i`: each unfinished block and each unread page.
    pub fn left_count(&self, i: usize) -> usize {
        self.left(i).count()
    }

    /// `2 left: predict rows 4-8, the checklist`, for a started, unfinished lesson.
    pub fn left_summary(&self, i: usize) -> Option<String> {
        self.left(i).summary()
    }
}
