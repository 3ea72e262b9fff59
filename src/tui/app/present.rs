//! Presenter mode (`--present`): a page is shown a step at a time (a paragraph, a block,
//! then a block's rows one by one through `present_step`), blocks can be put back as they
//! were before the class, and a clock counts the session's time. Nothing is read from or
//! written to the learner's progress in this mode (the caller keeps progress in memory).

use std::time::Duration;

use super::{App, Focus, Update};
use crate::content::lessons::{Block, Item};

/// One step of a page in presenter mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Paragraph `part` of the page's markdown item `item`.
    Text { item: usize, part: usize },
    /// Block `slot` appears.
    Block(usize),
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
    /// and every step inside a block (a table's rows, a trace played to its end).
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

    /// Is step `n` of the page shown?
    pub(crate) fn step_shown(&self, n: usize) -> bool {
        self.blocks.steps_shown().is_none_or(|s| n < s)
    }

    /// A page opened: presenter mode shows its first step, otherwise all of it.
    pub(super) fn reset_steps(&mut self) {
        self.blocks.set_steps(self.demo.then_some(1));
    }

    /// The next step: the shown block's next row, else the next paragraph or block,
    /// else the next page.
    pub(super) fn step(&mut self) -> Update {
        let steps = steps_of(self.page_items());
        let shown = self
            .blocks
            .steps_shown()
            .unwrap_or(steps.len())
            .min(steps.len());
        if let Some(Step::Block(slot)) = shown.checked_sub(1).and_then(|n| steps.get(n)).copied()
            && self.widget_mut(slot).is_some_and(|w| w.present_step())
        {
            self.focus = Focus::Block(slot);
            self.active = false;
            self.keep_focus_line(0, 0);
            return Update::Save;
        }
        if shown >= steps.len() {
            return self.next_page();
        }
        self.blocks.set_steps(Some(shown + 1));
        if let Step::Block(slot) = steps[shown] {
            self.focus = Focus::Block(slot);
            self.active = false;
            self.reveal_focus();
        } else {
            self.show_page_bottom();
        }
        Update::Redraw
    }

    /// Hide the last paragraph or block shown (rows a block revealed stay revealed).
    pub(super) fn step_back(&mut self) {
        let Some(shown) = self.blocks.steps_shown() else {
            return;
        };
        let steps = steps_of(self.page_items());
        let now = shown.min(steps.len()).saturating_sub(1).max(1);
        self.blocks.set_steps(Some(now));
        if let Focus::Block(b) = self.focus
            && !steps[..now.min(steps.len())].contains(&Step::Block(b))
        {
            self.focus = Focus::Page;
        }
        self.clamp_scroll();
    }

    /// Scroll so the page's last row is in view (a step was just added there).
    fn show_page_bottom(&mut self) {
        let c = self.content_area();
        let h = self.page_view(c.width).height;
        self.scroll = self.scroll.max(h.saturating_sub(usize::from(c.height)));
        self.clamp_scroll();
    }

    /// The lesson blocks of the current page, in order.
    fn page_blocks(&self) -> Vec<Block> {
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
        let widget = crate::tui::blocks::build(&block, &self.env);
        self.blocks.rebuild(i, widget);
    }

    /// `x`: reset the focused block.
    pub(super) fn reset_focused_block(&mut self) -> Update {
        match self.focus {
            Focus::Block(i) => {
                self.rebuild_block(i);
                self.active = false;
                self.status = Some("Block reset.".into());
                self.clamp_scroll();
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
