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
        let slot = self.blocks.slots().get(i)?;
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

    /// What is left of lesson `i`: unfinished blocks (the same phrase on several pages once,
    /// with its pages), then the pages not opened yet. Empty for a finished lesson and for
    /// one not begun.
    pub fn lesson_left(&self, i: usize) -> Vec<String> {
        let (items, unseen) = self.left_items(i);
        let mut out = grouped_by_what(items);
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
        let (items, unseen) = self.left_items(i);
        items.len() + unseen.len()
    }

    /// The unfinished blocks of lesson `i` as (what is left, its page, or None for the open
    /// page, whose blocks are read live), and its unread pages.
    fn left_items(&self, i: usize) -> (Vec<(String, Option<usize>)>, Vec<usize>) {
        let none = (Vec::new(), Vec::new());
        let Some(entry) = self.lessons.get(i) else {
            return none;
        };
        let Ok(lesson) = &entry.parsed else {
            return none;
        };
        let Some(lp) = self.progress.lessons.get(&entry.id) else {
            return none;
        };
        if lp.done || !lp.started() {
            return none;
        }
        let mut items: Vec<(String, Option<usize>)> = Vec::new();
        for (page, key) in lp.pending.iter().filter_map(|k| Some((page_of(k)?, k))) {
            if i == self.lesson && page == self.page {
                continue;
            }
            let what = lp
                .left
                .get(key)
                .cloned()
                .unwrap_or_else(|| "a block".to_owned());
            items.push((what, Some(page)));
        }
        if i == self.lesson {
            let open = (0..self.blocks.len()).filter_map(|b| self.block_left(b));
            items.extend(open.map(|what| (what, None)));
        }
        let unseen = (0..lesson.pages.len())
            .filter(|p| !lp.pages_seen.contains(p))
            .collect();
        (items, unseen)
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
        for i in 0..self.blocks.len() {
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

/// The same thing left on several pages reads once, with its pages (`the checklist (pages
/// 2, 4)`), not once per page. The open page needs no tag on its own (`this page` beside others).
fn grouped_by_what(items: Vec<(String, Option<usize>)>) -> Vec<String> {
    let mut groups: Vec<(String, Vec<Option<usize>>)> = Vec::new();
    for (what, page) in items {
        match groups.iter_mut().find(|(w, _)| *w == what) {
            Some((_, pages)) => pages.push(page),
            None => groups.push((what, vec![page])),
        }
    }
    groups
        .into_iter()
        .map(|(what, mut pages)| {
            let what = match pages.len() {
                1 => what,
                n => format!("{what} x{n}"),
            };
            pages.sort_unstable();
            pages.dedup();
            if pages == [None] {
                return what;
            }
            let numbered = pages.iter().filter(|p| p.is_some()).count();
            let shown: Vec<String> = pages
                .iter()
                .map(|p| p.map_or_else(|| "this page".to_owned(), |p| (p + 1).to_string()))
                .collect();
            let word = if numbered > 1 {
                "pages "
            } else if numbered == 1 {
                "page "
            } else {
                ""
            };
            let list = shown.join(", ");
            // "this page" sorts first (None < Some); the word goes before the numbers.
            match list.strip_prefix("this page, ") {
                Some(rest) => format!("{what} (this page, {word}{rest})"),
                None => format!("{what} ({word}{list})"),
            }
        })
        .collect()
}

/// The page of a block key `"PAGE/BLOCK"`.
fn page_of(key: &str) -> Option<usize> {
    key.split_once('/')?.0.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::grouped_by_what;

    #[test]
    fn the_same_thing_left_on_several_pages_reads_once_with_its_pages() {
        let items = vec![
            ("the checklist".to_owned(), Some(3)),
            ("predict rows 2-3".to_owned(), None),
            ("the checklist".to_owned(), Some(1)),
            ("the playground".to_owned(), None),
            ("the playground".to_owned(), None),
            ("the trace".to_owned(), None),
            ("the trace".to_owned(), Some(0)),
        ];
        assert_eq!(
            grouped_by_what(items),
            vec![
                "the checklist x2 (pages 2, 4)",
                "predict rows 2-3",
                "the playground x2",
                "the trace x2 (this page, page 1)",
            ]
        );
    }
}
