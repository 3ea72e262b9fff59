//! What "done" means, and what is left, in words, for the lesson list, the home screen and
//! each block's frame.
//!
//! The rule: a lesson is done when every page has been opened and every block on it is done
//! by its own rule (each block kind says when it is done and what is still to do).

use crate::content::lessons::Lesson;
use crate::course::LessonEntry;
use crate::course::progress::{LessonProgress, block_key};

/// How far the learner is in a lesson, for the lesson list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LessonState {
    Done,
    Started,
    Todo,
    /// The lesson file does not parse.
    Broken,
}

impl LessonState {
    pub fn of(entry: &LessonEntry, lp: Option<&LessonProgress>) -> LessonState {
        if entry.parsed.is_err() {
            return LessonState::Broken;
        }
        match lp {
            Some(p) if p.done => LessonState::Done,
            Some(p) if p.started() => LessonState::Started,
            _ => LessonState::Todo,
        }
    }
}

impl LessonProgress {
    /// Page `page` of a lesson of `pages` pages was seen, `left[i]` saying what is left of
    /// its block `i` (`None`: done). The lesson is done once every page was seen and no
    /// block met on them is left.
    pub fn note_page(&mut self, page: usize, pages: usize, left: &[Option<String>]) {
        self.pages_seen.insert(page);
        self.last_page = page;
        for (i, what) in left.iter().enumerate() {
            let key = block_key(page, i);
            match what {
                Some(what) => {
                    self.pending.insert(key.clone());
                    self.left.insert(key, what.clone());
                }
                None => {
                    self.pending.remove(&key);
                    self.left.remove(&key);
                }
            }
        }
        if (0..pages).all(|p| self.pages_seen.contains(&p)) && self.pending.is_empty() {
            self.done = true;
        }
    }
}

/// What is left of a started, unfinished lesson: its unfinished blocks (what is left, and
/// the page, `None` for the page on screen) and its unread pages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Left {
    pub blocks: Vec<(String, Option<usize>)>,
    pub unread: Vec<usize>,
}

impl Left {
    /// What is left of `lesson` as `lp` records it. `open` is the page on screen with what
    /// is left of its blocks, read from the blocks themselves (they win over the record).
    /// Nothing is left of a finished lesson, nor of one not begun.
    pub fn of(
        lesson: &Lesson,
        lp: Option<&LessonProgress>,
        open: Option<(usize, &[String])>,
    ) -> Left {
        let Some(lp) = lp.filter(|lp| !lp.done && lp.started()) else {
            return Left::default();
        };
        let mut blocks: Vec<(String, Option<usize>)> = Vec::new();
        for (page, key) in lp.pending.iter().filter_map(|k| Some((page_of(k)?, k))) {
            if open.is_some_and(|(p, _)| p == page) {
                continue;
            }
            let what = lp
                .left
                .get(key)
                .cloned()
                .unwrap_or_else(|| "a block".to_owned());
            blocks.push((what, Some(page)));
        }
        if let Some((_, live)) = open {
            blocks.extend(live.iter().map(|what| (what.clone(), None)));
        }
        let unread = (0..lesson.pages.len())
            .filter(|p| !lp.pages_seen.contains(p))
            .collect();
        Left { blocks, unread }
    }

    /// How many things are left: each unfinished block and each unread page.
    pub fn count(&self) -> usize {
        self.blocks.len() + self.unread.len()
    }

    /// The unfinished blocks (the same phrase on several pages once, with its pages), then
    /// the pages not opened yet by number (`unread (pages 2, 4)`).
    pub fn words(&self) -> Vec<String> {
        let mut out = grouped_by_what(&self.blocks);
        let pages = crate::text::number_ranges(&self.unread);
        match self.unread.len() {
            0 => {}
            1 => out.push(format!("unread (page {pages})")),
            _ => out.push(format!("unread (pages {pages})")),
        }
        out
    }

    /// `2 left: predict rows 4-8, the checklist`, or `None` when nothing is left.
    pub fn summary(&self) -> Option<String> {
        let words = self.words();
        if words.is_empty() {
            return None;
        }
        Some(format!("{} left: {}", self.count(), words.join(", ")))
    }
}

/// The same thing left on several pages reads once, with its pages (`the checklist (pages
/// 2, 4)`), not once per page. The open page needs no tag on its own (`this page` beside others).
fn grouped_by_what(items: &[(String, Option<usize>)]) -> Vec<String> {
    let mut groups: Vec<(&str, Vec<Option<usize>>)> = Vec::new();
    for (what, page) in items {
        match groups.iter_mut().find(|(w, _)| *w == what) {
            Some((_, pages)) => pages.push(*page),
            None => groups.push((what, vec![*page])),
        }
    }
    groups
        .into_iter()
        .map(|(what, mut pages)| {
            let what = match pages.len() {
                1 => what.to_owned(),
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
    use super::*;

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
            grouped_by_what(&items),
            vec![
                "the checklist x2 (pages 2, 4)",
                "predict rows 2-3",
                "the playground x2",
                "the trace x2 (this page, page 1)",
            ]
        );
    }

    #[test]
    fn a_lesson_is_done_when_every_page_is_seen_and_nothing_is_left() {
        let mut lp = LessonProgress::default();
        lp.note_page(0, 2, &[Some("the quiz".to_owned()), None]);
        assert!(!lp.done && lp.pending.contains("0/0"));
        lp.note_page(1, 2, &[]);
        assert!(!lp.done, "the quiz on page 1 is still open");
        lp.note_page(0, 2, &[None, None]);
        assert!(lp.done && lp.pending.is_empty() && lp.left.is_empty());
    }
}
