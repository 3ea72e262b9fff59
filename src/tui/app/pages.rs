//! Moving through the course: where to start, opening a lesson at a page, building the
//! page's blocks from their saved states, and recording what the learner has seen and done.

use super::{App, Focus, Screen, Slot, Update};
use crate::content::lessons::{Block, Item};
use crate::course::LessonState;
use crate::course::progress::{self, LessonProgress, Progress};

impl App {
    /// Where to start: `--lesson ID` opens that lesson where the learner left it; otherwise
    /// the home screen (when asked for) over the lesson Continue would open, or that lesson.
    pub(super) fn start_at(&mut self, wanted: Option<&str>, home: bool) {
        let asked = wanted.and_then(|id| self.lessons.iter().position(|l| l.id == id));
        // Straight into a lesson: back where the learner was, finished or not; on the
        // home screen, what Continue offers (the next unfinished lesson).
        let was = || {
            let at = self.progress.current.as_ref()?;
            self.lessons.iter().position(|l| l.id == at.lesson)
        };
        let place = if home { None } else { was() };
        let Some(target) = asked.or(place).or_else(|| self.continue_target()) else {
            self.show(0, 0);
            return;
        };
        if home && asked.is_none() {
            self.set_base(Screen::Home { sel: 0 });
            // Shown underneath, not yet opened: nothing counts as seen until it is.
            self.show(target, self.resume_page(target));
        } else {
            self.resume(target);
        }
    }

    /// Open lesson `i` where the learner left it: the saved position (page, scroll and
    /// focused block) when it is in this lesson, else the page the lesson list resumes at.
    pub(super) fn resume(&mut self, i: usize) {
        let here = self
            .progress
            .current
            .clone()
            .filter(|p| self.lessons.get(i).is_some_and(|l| l.id == p.lesson));
        match here {
            Some(pos) => {
                self.open(i, pos.page);
                self.scroll = usize::from(pos.scroll);
                if let Some(b) = pos.block.filter(|b| *b < self.blocks.len()) {
                    self.focus = Focus::Block(b);
                }
                self.clamp_scroll();
            }
            None => self.open(i, self.resume_page(i)),
        }
    }

    /// Save the states of the current page's blocks into `progress`, and what is left of
    /// them.
    pub(super) fn stash_slots(&mut self) {
        if self.blocks.is_empty() {
            return;
        }
        let Some(id) = self.current().map(|e| e.id.clone()) else {
            return;
        };
        let left = self.page_left();
        let lp = self.progress.lessons.entry(id).or_default();
        note_left(lp, left);
        for (i, slot) in self.blocks.slots().iter().enumerate() {
            if let Ok(w) = &slot.widget {
                let state = w.save();
                let key = progress::block_key(self.page, i);
                if state.is_null() {
                    lp.blocks.remove(&key);
                } else {
                    lp.blocks.insert(key, state);
                }
            }
        }
    }

    /// Build the current page's blocks, with their saved states when `restore` says so.
    pub(super) fn build_slots(&mut self, restore: bool) {
        let blocks: Vec<Block> = self
            .page_items()
            .iter()
            .filter_map(|it| match it {
                Item::Block(b) => Some(b.clone()),
                Item::Markdown(_) => None,
            })
            .collect();
        let saved = self
            .current()
            .filter(|_| restore)
            .and_then(|e| self.progress.lessons.get(&e.id))
            .cloned()
            .unwrap_or_default();
        let slots = blocks
            .into_iter()
            .enumerate()
            .map(|(n, block)| {
                let widget = self.build_block(&block).map(|mut w| {
                    if let Some(state) = saved.blocks.get(&progress::block_key(self.page, n)) {
                        w.restore(state);
                    }
                    w
                });
                Slot {
                    kind: block.kind.clone(),
                    line: block.line,
                    widget,
                }
            })
            .collect();
        self.blocks.set(slots);
    }

    /// Record that the current page was seen and which of its blocks are finished (a
    /// page looked up from the audit is not: see `peek`).
    pub(super) fn note_progress(&mut self) {
        let Some(entry) = self.current().filter(|_| self.peek.is_none()) else {
            return;
        };
        let id = entry.id.clone();
        let pages = match &entry.parsed {
            Ok(l) => l.pages.len(),
            Err(_) => return,
        };
        let left = self.blocks_left();
        let lp = self.progress.lessons.entry(id.clone()).or_default();
        lp.note_page(self.page, pages, &left);
        self.progress.current = Some(progress::Position {
            lesson: id,
            page: self.page,
            block: self.focused_block(),
            scroll: u16::try_from(self.scroll).unwrap_or(u16::MAX),
        });
    }

    /// One frame of the page's animations. A block that finishes in it (a trace played to
    /// its end) is recorded as done at once, as a key that finished it would be.
    pub(super) fn tick_blocks(&mut self) -> Update {
        let done = |app: &App| -> Vec<bool> {
            (0..app.blocks.len())
                .map(|i| app.blocks.widget(i).is_some_and(|w| w.is_done()))
                .collect()
        };
        let before = done(self);
        self.blocks.tick();
        if done(self) == before {
            return Update::Redraw;
        }
        self.note_progress();
        Update::Save
    }

    fn focused_block(&self) -> Option<usize> {
        match self.focus {
            Focus::Block(b) => Some(b),
            _ => None,
        }
    }

    /// Open lesson `lesson` at `page` (clamped), top of the page, and count it as seen.
    pub(crate) fn open(&mut self, lesson: usize, page: usize) {
        self.show(lesson, page);
        if !self.lessons.is_empty() {
            self.note_progress();
        }
    }

    /// Put lesson `lesson` at `page` (clamped) on the page, top of the page, without
    /// recording anything about it. In presenter mode every page opens as new (the page
    /// left is kept aside as it was, for `h` to go back to).
    pub(super) fn show(&mut self, lesson: usize, page: usize) {
        if self.demo {
            self.remember_page();
        } else {
            self.stash_slots();
        }
        self.held_place = None;
        if self.lessons.is_empty() {
            self.blocks.clear();
            return;
        }
        self.lesson = lesson.min(self.lessons.len() - 1);
        self.page = page.min(self.lessons[self.lesson].page_count() - 1);
        self.sidebar_sel = self.lesson;
        self.scroll = 0;
        self.active = false;
        if matches!(self.focus, Focus::Block(_)) {
            self.focus = Focus::Page;
        }
        self.build_slots(!self.demo);
        self.reset_steps();
    }

    pub(super) fn next_page(&mut self) -> Update {
        let Some(entry) = self.current() else {
            return Update::None;
        };
        if self.page + 1 < entry.page_count() {
            self.open(self.lesson, self.page + 1);
        } else if self.lesson + 1 < self.lessons.len() {
            self.open(self.lesson + 1, 0);
        } else {
            self.status = Some("This is the last page of the last lesson.".into());
            return Update::Redraw;
        }
        Update::Save
    }

    pub(super) fn prev_page(&mut self) -> Update {
        if self.current().is_none() {
            return Update::None;
        }
        match self.prev_place() {
            Some((lesson, page)) => self.open(lesson, page),
            None => {
                self.status = Some("This is the first page.".into());
                return Update::Redraw;
            }
        }
        Update::Save
    }

    /// The lesson and page before the current one (the previous lesson's last page at a
    /// lesson's first), if any.
    pub(super) fn prev_place(&self) -> Option<(usize, usize)> {
        if self.page > 0 {
            Some((self.lesson, self.page - 1))
        } else if self.lesson > 0 {
            Some((
                self.lesson - 1,
                self.lessons[self.lesson - 1].page_count() - 1,
            ))
        } else {
            None
        }
    }

    /// The page to open lesson `i` at from the lesson list: where the learner left it,
    /// or the first page once the lesson is finished.
    pub(crate) fn resume_page(&self, i: usize) -> usize {
        self.lessons
            .get(i)
            .and_then(|e| self.progress.lessons.get(&e.id))
            .filter(|p| !p.done)
            .map_or(0, |p| p.last_page)
    }

    /// What is left of the open page's blocks, with the page and the lesson's page count,
    /// for the record (`None` for a lesson that does not parse).
    fn page_left(&self) -> Option<(usize, usize, Vec<Option<String>>)> {
        let pages = self.current()?.parsed.as_ref().ok()?.pages.len();
        Some((self.page, pages, self.blocks_left()))
    }

    /// Snapshot of everything to persist (block states of the current page included, and
    /// what is left of them: a block finished without a key, a trace played to its end,
    /// is never saved as left).
    pub fn progress_snapshot(&self) -> Progress {
        let mut p = self.progress.clone();
        if let Some(entry) = self.current() {
            let lp = p.lessons.entry(entry.id.clone()).or_default();
            note_left(lp, self.page_left());
            for (i, slot) in self.blocks.slots().iter().enumerate() {
                if let Ok(w) = &slot.widget {
                    let state = w.save();
                    if !state.is_null() {
                        lp.blocks.insert(progress::block_key(self.page, i), state);
                    }
                }
            }
            // Where this window is, unless the position is another window's (taken in
            // from the file), one left earlier under the home screen, or a page looked up
            // from the audit.
            if let Some(cur) = p
                .current
                .as_mut()
                .filter(|cur| cur.lesson == entry.id && cur.page == self.page)
                .filter(|_| self.peek.is_none())
            {
                cur.scroll = u16::try_from(self.scroll).unwrap_or(u16::MAX);
                cur.block = self.focused_block();
            }
        }
        p
    }

    /// Lesson state for the sidebar: done, started, or not yet.
    pub fn lesson_state(&self, i: usize) -> LessonState {
        match self.lessons.get(i) {
            Some(entry) => LessonState::of(entry, self.progress.lessons.get(&entry.id)),
            None => LessonState::Todo,
        }
    }
}

/// Record what is left of a page's blocks, once the page counts as seen (a page only shown
/// under the home screen does not).
fn note_left(lp: &mut LessonProgress, left: Option<(usize, usize, Vec<Option<String>>)>) {
    if let Some((page, pages, left)) = left
        && lp.pages_seen.contains(&page)
    {
        lp.note_page(page, pages, &left);
    }
}
