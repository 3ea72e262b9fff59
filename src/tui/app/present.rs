//! Presenter mode (`--present`): a page is shown a step at a time (a paragraph, a block,
//! then a block's rows one by one through `present_step`), each step brought into view from
//! its first line; `h` undoes one step, and at a page's first step goes back to the page
//! before, kept aside as it was left (every page left is kept so, however far back `h`
//! walks). Blocks can be put back as they were before the class, and a
//! clock counts the session's time. Nothing is read from or
//! written to the learner's progress in this mode (the caller keeps progress in memory).

use std::time::Duration;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{App, Focus, Slot, Update};
use crate::content::lessons::{Block, Item};
use crate::tui::blocks::RenderCtx;

/// One step of a page in presenter mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Paragraph `part` of the page's markdown item `item`.
    Text { item: usize, part: usize },
    /// Block `slot` appears.
    Block(usize),
}

/// A page left in presenter mode, kept as it was: its blocks, steps, scroll and focus.
pub(crate) struct LeftPage {
    lesson: usize,
    page: usize,
    slots: Vec<Slot>,
    steps: Option<usize>,
    scroll: usize,
    focus: Focus,
}

/// The most pages kept aside as they were left (a class walks back through fewer).
const LEFT_PAGES: usize = 64;

/// The last step shown when `shown` steps are.
fn last_step(steps: &[Step], shown: usize) -> Option<Step> {
    shown.checked_sub(1).and_then(|n| steps.get(n)).copied()
}

/// Which rows of a block a step changed, as drawn after it.
#[derive(Debug, PartialEq, Eq)]
struct Changed {
    /// The first changed row (0: the top border).
    first: usize,
    /// The first changed row under the top border.
    inner: usize,
    /// One past the last changed row.
    end: usize,
}

/// Compare a block drawn before and after a step: rows are matched from the top down to
/// the first difference and from the bottom up to the last, so rows that only moved down
/// because the block grew above them are not counted as changed.
fn changed_rows(before: &Buffer, after: &Buffer) -> Option<Changed> {
    let (hb, ha) = (
        usize::from(before.area.height),
        usize::from(after.area.height),
    );
    if before.area.width != after.area.width {
        return Some(Changed {
            first: 0,
            inner: 1,
            end: ha,
        });
    }
    let w = usize::from(after.area.width);
    let row = |b: &Buffer, r: usize| b.content[r * w..(r + 1) * w].to_vec();
    let same = |rb: usize, ra: usize| row(before, rb) == row(after, ra);
    let common = hb.min(ha);
    let first = (0..common).find(|&r| !same(r, r)).unwrap_or(common);
    let inner = (1..common).find(|&r| !same(r, r)).unwrap_or(common);
    let tail = (0..common - first)
        .take_while(|&k| same(hb - 1 - k, ha - 1 - k))
        .count();
    let end = ha - tail;
    (first < end).then_some(Changed {
        first,
        inner: inner.max(first),
        end,
    })
}

/// Split markdown into paragraphs at blank lines outside code fences (a fence, a list or a
/// table with no blank line inside stays one paragraph).
pub(crate) fn paragraphs(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut fence: Option<&str> = None;
    for line in src.lines() {
        let t = line.trim_start();
        match fence {
            Some(f) if t.starts_with(f) => fence = None,
            None if t.starts_with("```") => fence = Some("```"),
            None if t.starts_with("~~~") => fence = Some("~~~"),
            _ => {}
        }
        if fence.is_none() && t.is_empty() {
            if !cur.trim().is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            cur.clear();
            continue;
        }
        cur.push_str(line);
        cur.push('\n');
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// The steps of a page's items, in order.
pub(crate) fn steps_of(items: &[Item]) -> Vec<Step> {
    let mut out = Vec::new();
    let mut slot = 0;
    for (item, it) in items.iter().enumerate() {
        match it {
            Item::Markdown(src) => {
                let n = paragraphs(src).len();
                out.extend((0..n).map(|part| Step::Text { item, part }));
            }
            Item::Block(_) => {
                out.push(Step::Block(slot));
                slot += 1;
            }
        }
    }
    out
}

impl App {
    /// Presenter mode (a demo session: steps, resets, a clock, nothing saved).
    pub fn demo(&self) -> bool {
        self.demo
    }

    /// How long this session has run, for the presenter's clock.
    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Steps shown and steps on the page, in presenter mode: every paragraph and block,
    /// and every step inside a block (a table's rows, a trace played, paused part way or not).
    pub(crate) fn step_counter(&self) -> Option<(usize, usize)> {
        let steps = steps_of(self.page_items());
        let shown = self.blocks.steps_shown()?.min(steps.len());
        let (mut done, mut total) = (shown, steps.len());
        for (n, step) in steps.iter().enumerate() {
            let Step::Block(slot) = *step else { continue };
            let (inner_done, inner_total) = self
                .blocks
                .widget(slot)
                .map_or((0, 0), |w| w.present_progress());
            total += inner_total;
            if n < shown {
                done += inner_done.min(inner_total);
            }
        }
        Some((done, total))
    }

    /// Presenter mode: what Space does now when it steps inside the last block shown,
    /// in that block's words (a trace plays or pauses); `None` when it shows the page's
    /// next step.
    pub(crate) fn present_space(&self) -> Option<&'static str> {
        let steps = steps_of(self.page_items());
        let shown = self.blocks.steps_shown()?.min(steps.len());
        let Some(Step::Block(slot)) = last_step(&steps, shown) else {
            return None;
        };
        let hints = self.blocks.widget(slot)?.key_hints(false);
        hints.iter().find(|h| h.keys == "Space").map(|h| h.what)
    }

    /// Is step `n` of the page shown?
    pub(crate) fn step_shown(&self, n: usize) -> bool {
        self.blocks.steps_shown().is_none_or(|s| n < s)
    }

    /// How many of the page's blocks are on screen: all of them, or in presenter mode those
    /// stepped to (steps come in page order, so these are the first ones).
    pub(crate) fn blocks_shown(&self) -> usize {
        let Some(shown) = self.blocks.steps_shown() else {
            return self.slots().len();
        };
        let steps = steps_of(self.page_items());
        steps[..shown.min(steps.len())]
            .iter()
            .filter(|s| matches!(s, Step::Block(_)))
            .count()
    }

    /// A page opened: presenter mode shows its first step, otherwise all of it.
    pub(super) fn reset_steps(&mut self) {
        self.blocks.set_steps(self.demo.then_some(1));
    }

    /// The next step: the shown block's next row, else the next paragraph or block,
    /// else the next page. What the step shows is brought into view: all of it when it
    /// fits, else from its first line.
    pub(super) fn step(&mut self) -> Update {
        let steps = steps_of(self.page_items());
        let shown = self
            .blocks
            .steps_shown()
            .unwrap_or(steps.len())
            .min(steps.len());
        if let Some(Step::Block(slot)) = last_step(&steps, shown) {
            let before = self.draw_block(slot);
            if self.widget_mut(slot).is_some_and(|w| w.present_step()) {
                self.focus = Focus::Block(slot);
                self.active = false;
                self.show_block_change(slot, before);
                return Update::Save;
            }
        }
        if shown >= steps.len() {
            return self.next_page();
        }
        let width = self.content_area().width;
        let old_end = self.page_view(width).height;
        self.blocks.set_steps(Some(shown + 1));
        if let Step::Block(slot) = steps[shown] {
            self.focus = Focus::Block(slot);
            self.active = false;
        }
        let view = self.page_view(width);
        let top = view.first_filled_row(old_end);
        self.show_rows(top, view.height.saturating_sub(top));
        self.view_moved = true;
        Update::Redraw
    }

    /// Bring into view the rows of block `slot` that a step changed (`before`: the block
    /// as drawn before it). A changed top border (a table's count of rows shown) comes
    /// along when the first changed row still shows under it, and the bottom border right
    /// under the change when it fits.
    fn show_block_change(&mut self, slot: usize, before: Option<Buffer>) {
        let after = self.draw_block(slot);
        let c = self.content_area();
        let vh = usize::from(c.height);
        let Some((y, h)) = self.page_view(c.width).slot_span(slot) else {
            return;
        };
        let change = before.zip(after).and_then(|(b, a)| changed_rows(&b, &a));
        if let Some(ch) = change {
            let inner = ch.inner.min(ch.end);
            // The change, with the bottom border when it reaches it.
            let end = if ch.end + 1 == h { h } else { ch.end };
            // From the block's top when the top border changed too (a count), unless leaving
            // the top out is what lets the rest of the change (a row and its verdict below
            // the table) show whole.
            let whole_below = end > vh && end - inner <= vh;
            let top = if ch.first == 0 && (inner == ch.end || (inner < vh && !whole_below)) {
                0
            } else {
                inner
            };
            let end = if end - top <= vh { end } else { ch.end };
            self.show_rows(y + top, end - top);
            self.view_moved = true;
        }
    }

    /// Block `slot` drawn off screen as the page lays it out now (focused, not entered).
    fn draw_block(&self, slot: usize) -> Option<Buffer> {
        let width = self.content_area().width;
        let (_, h) = self.page_view(width).slot_span(slot)?;
        let area = Rect::new(0, 0, width, u16::try_from(h).ok()?);
        let mut buf = Buffer::empty(area);
        let ctx = RenderCtx {
            theme: &self.theme,
            focused: true,
            active: false,
            demo: self.demo,
        };
        self.blocks.widget(slot)?.render(area, &mut buf, &ctx);
        Some(buf)
    }

    /// Undo the last step: the last row a block revealed (a trace played goes back to its
    /// start), else the last paragraph or block shown, else (at a page's first step) go
    /// back to the page before, as it was left.
    pub(super) fn step_back(&mut self) {
        let Some(shown) = self.blocks.steps_shown() else {
            return;
        };
        let steps = steps_of(self.page_items());
        let shown = shown.min(steps.len());
        self.view_moved = true;
        if let Some(Step::Block(slot)) = last_step(&steps, shown)
            && self.unstep_block(slot)
        {
            self.focus = Focus::Block(slot);
            self.active = false;
            self.clamp_scroll();
            return;
        }
        if shown <= 1 {
            self.back_to_page_left();
            return;
        }
        let now = shown - 1;
        self.blocks.set_steps(Some(now));
        if let Focus::Block(b) = self.focus
            && !steps[..now].contains(&Step::Block(b))
        {
            self.focus = Focus::Page;
        }
        self.clamp_scroll();
    }

    /// Take back the last step inside block `slot`, leaving the rest of the block as it
    /// is. False when it had taken no step.
    fn unstep_block(&mut self, slot: usize) -> bool {
        self.widget_mut(slot).is_some_and(|w| w.present_unstep())
    }

    /// Presenter mode, a page about to be left: keep it aside as it is (in place of what
    /// was kept of it before; past [`LEFT_PAGES`] pages, the one left longest ago goes).
    pub(super) fn remember_page(&mut self) {
        if self.current().is_none() || self.blocks.steps_shown().is_none() {
            return;
        }
        let (lesson, page) = (self.lesson, self.page);
        self.left_pages
            .retain(|l| (l.lesson, l.page) != (lesson, page));
        if self.left_pages.len() >= LEFT_PAGES {
            self.left_pages.remove(0);
        }
        self.left_pages.push(LeftPage {
            lesson,
            page,
            steps: self.blocks.steps_shown(),
            scroll: self.scroll,
            focus: self.focus,
            slots: self.blocks.take(),
        });
    }

    /// `h` at a page's first step: the page before, as it was left (a page not left in
    /// this session opens with every paragraph and block shown, at its end).
    fn back_to_page_left(&mut self) {
        let Some((lesson, page)) = self.prev_place() else {
            self.status = Some("This is the first page.".into());
            return;
        };
        let left = (self.left_pages.iter())
            .rposition(|l| (l.lesson, l.page) == (lesson, page))
            .map(|at| self.left_pages.remove(at));
        self.open(lesson, page);
        match left {
            Some(l) if l.slots.len() == self.blocks.len() => {
                self.blocks.set(l.slots);
                self.blocks.set_steps(l.steps);
                self.scroll = l.scroll;
                if matches!(l.focus, Focus::Block(_)) {
                    self.focus = l.focus;
                }
            }
            _ => {
                let all = steps_of(self.page_items()).len();
                self.blocks.set_steps(Some(all.max(1)));
                self.scroll = self.max_scroll();
            }
        }
        self.clamp_scroll();
    }

    /// The lesson blocks of the current page, in order.
    pub(super) fn page_blocks(&self) -> Vec<Block> {
        self.page_items()
            .iter()
            .filter_map(|it| match it {
                Item::Block(b) => Some(b.clone()),
                Item::Markdown(_) => None,
            })
            .collect()
    }

    /// Put block `i` back as it was before anyone touched it.
    fn rebuild_block(&mut self, i: usize) {
        let Some(block) = self.page_blocks().into_iter().nth(i) else {
            return;
        };
        let widget = self.build_block(&block);
        self.blocks.rebuild(i, widget);
    }

    /// The widget of a lesson block, told it is shown to a room in presenter mode.
    pub(super) fn build_block(
        &self,
        block: &crate::content::lessons::Block,
    ) -> Result<Box<dyn crate::tui::blocks::BlockWidget>, String> {
        let mut widget = crate::tui::blocks::build(block, &self.env)?;
        if self.demo {
            widget.show_to_room();
        }
        Ok(widget)
    }

    /// `x`: reset the focused block, shown from its top (whole when it fits). The page's
    /// steps stay as they are; the steps inside the block (a trace played, rows shown)
    /// count again from none, as the presenter's next Space shows them again.
    pub(super) fn reset_focused_block(&mut self) -> Update {
        match self.focus {
            Focus::Block(i) => {
                self.rebuild_block(i);
                self.active = false;
                self.status = Some("Block reset.".into());
                self.reveal_focus();
                self.view_moved = true;
            }
            _ => self.status = Some("Tab to a block first (X resets the whole page).".into()),
        }
        Update::Redraw
    }

    /// `X`: reset every block of the page and start its steps again.
    pub(super) fn reset_page(&mut self) -> Update {
        for i in 0..self.blocks.len() {
            self.rebuild_block(i);
        }
        self.active = false;
        self.focus = Focus::Page;
        self.scroll = 0;
        self.reset_steps();
        self.status = Some("Page reset: every block as new.".into());
        Update::Redraw
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_split_at_blank_lines_but_not_inside_fences() {
        let src = "One\nstill one\n\nTwo\n\n```json\n{\n\n}\n```\n\n- a\n- b\n";
        let p = paragraphs(src);
        assert_eq!(p.len(), 4, "{p:?}");
        assert_eq!(p[0], "One\nstill one\n");
        assert!(p[2].contains("{\n\n}"), "the fence keeps its blank line");
        assert_eq!(p[3], "- a\n- b\n");
    }

    fn drawn(rows: &[&str]) -> Buffer {
        Buffer::with_lines(rows.iter().copied())
    }

    #[test]
    fn changed_rows_are_the_rows_between_the_first_and_last_difference() {
        let before = drawn(&["+-1-+", "| a |", "| b |", "+---+"]);
        // A row grew in the middle: what moved down under it is not a change.
        let after = drawn(&["+-2-+", "| a |", "| B |", "| x |", "| b |", "+---+"]);
        let ch = changed_rows(&before, &after).unwrap();
        assert_eq!((ch.first, ch.inner, ch.end), (0, 2, 4));
        assert_eq!(changed_rows(&before, &before), None);
        let only_border = drawn(&["+-3-+", "| a |", "| b |", "+---+"]);
        let ch = changed_rows(&before, &only_border).unwrap();
        assert_eq!((ch.first, ch.end), (0, 1));
    }

    #[test]
    fn steps_count_paragraphs_and_blocks_in_order() {
        let block = Block {
            kind: crate::content::lessons::BlockKind::Quiz,
            options: Vec::new(),
            body: String::new(),
            line: 1,
            spec: crate::content::lessons::BlockSpec::None,
        };
        let items = vec![
            Item::Markdown("a\n\nb\n".into()),
            Item::Block(block.clone()),
            Item::Markdown("c\n".into()),
            Item::Block(block),
        ];
        assert_eq!(
            steps_of(&items),
            vec![
                Step::Text { item: 0, part: 0 },
                Step::Text { item: 0, part: 1 },
                Step::Block(0),
                Step::Text { item: 2, part: 0 },
                Step::Block(1),
            ]
        );
    }
}
