//! Completion made visible: what is left of each block and each lesson, in words, for the
//! lesson list, the home screen and the mark on each block's frame.
//!
//! The rule: a lesson is done when every page has been opened and every block on it is
//! done by its own rule (`BlockWidget::is_done`).

use super::App;
use crate::content::lessons::BlockKind;
use crate::tui::progress;

/// How the page names a block of `kind` that has nothing more precise to say.
fn kind_noun(kind: &BlockKind) -> &'static str {
    match kind {
        BlockKind::Predict => "the predict table",
        BlockKind::Playground => "the playground",
        BlockKind::Trace => "the trace",
        BlockKind::Quiz => "the quiz",
        BlockKind::Explain => "the explain question",
        BlockKind::Checklist => "the checklist",
    }
}

impl App {
    /// What is left of block `i` of the current page, or `None` when it is done (a block
    /// that could not be built has nothing a learner can do, so it never holds a lesson
    /// back).
    pub(crate) fn block_left(&self, i: usize) -> Option<String> {
        let slot = self.slots.get(i)?;
        let w = slot.widget.as_ref().ok()?;
        if w.is_done() {
            return None;
        }
        let words = w.remaining();
        Some(if words.is_empty() {
            kind_noun(&slot.kind).to_owned()
        } else {
            words.join(", ")
        })
    }

    /// What is left of lesson `i`, item by item: pages not opened yet, then unfinished
    /// blocks on the pages that were. Empty for a finished lesson and for one not begun.
    pub fn lesson_left(&self, i: usize) -> Vec<String> {
        let Some(entry) = self.lessons.get(i) else {
            return Vec::new();
        };
        let Ok(lesson) = &entry.parsed else {
            return Vec::new();
        };
        let Some(lp) = self.progress.lessons.get(&entry.id) else {
            return Vec::new();
        };
        if lp.done || !lp.started() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (page, key) in lp.pending.iter().filter_map(|k| Some((page_of(k)?, k))) {
            let live = i == self.lesson && page == self.page;
            if live {
                continue;
            }
            let what = lp
                .left
                .get(key)
                .cloned()
                .unwrap_or_else(|| "a block".to_owned());
            out.push(format!("{what} (page {})", page + 1));
        }
        if i == self.lesson {
            out.extend((0..self.slots.len()).filter_map(|b| self.block_left(b)));
        }
        let unseen: Vec<usize> = (0..lesson.pages.len())
            .filter(|p| !lp.pages_seen.contains(p))
            .collect();
        match unseen.len() {
            0 => {}
            1 => out.push(format!(
                "page {} unread",
                crate::text::number_ranges(&unseen)
            )),
            _ => out.push(format!(
                "pages {} unread",
                crate::text::number_ranges(&unseen)
            )),
        }
        out
    }

    /// How many things are left of lesson `i`: each unfinished block and each unread page.
    pub fn left_count(&self, i: usize) -> usize {
        let left = self.lesson_left(i);
        let unread = self
            .lessons
            .get(i)
            .and_then(|e| Some((e.parsed.as_ref().ok()?, self.progress.lessons.get(&e.id)?)))
            .filter(|_| !left.is_empty())
            .map_or(0, |(l, lp)| {
                (0..l.pages.len())
                    .filter(|p| !lp.pages_seen.contains(p))
                    .count()
            });
        // The unread pages are one entry of `left`, counted here page by page.
        left.len() + unread.saturating_sub(1)
    }

    /// `2 left: predict rows 4-8, the checklist`, for a started, unfinished lesson.
    pub fn left_summary(&self, i: usize) -> Option<String> {
        let left = self.lesson_left(i);
        if left.is_empty() {
            return None;
        }
        Some(format!("{} left: {}", self.left_count(i), left.join(", ")))
    }

    /// Record what is left of each block of the current page in `lp`.
    pub(super) fn note_left(&self, lp: &mut progress::LessonProgress) {
        for i in 0..self.slots.len() {
            let key = progress::block_key(self.page, i);
            match self.block_left(i) {
                Some(what) => {
                    lp.pending.insert(key.clone());
                    lp.left.insert(key, what);
                }
                None => {
                    lp.pending.remove(&key);
                    lp.left.remove(&key);
                }
            }
        }
    }
}

/// The page of a block key `"PAGE/BLOCK"`.
fn page_of(key: &str) -> Option<usize> {
    key.split_once('/')?.0.parse().ok()
}
