//! Scrolling: how far the page may scroll, and keeping the focused block (and the line it
//! points at) in view as blocks grow and the page changes width.

use super::{App, Focus};

impl App {
    pub(super) fn max_scroll(&self) -> usize {
        let c = self.content_area();
        let view = self.page_view(c.width);
        view.height.saturating_sub(usize::from(c.height))
    }

    /// Is the page taller than its view?
    pub(crate) fn page_scrolls(&self) -> bool {
        self.max_scroll() > 0
    }

    /// Is the page scrolled to its end (nothing more below)?
    pub(crate) fn page_at_end(&self) -> bool {
        self.scroll >= self.max_scroll()
    }

    pub(super) fn clamp_scroll(&mut self) {
        self.scroll = self.scroll.min(self.max_scroll());
    }

    /// Scroll so the focused block is in view (its top, if it is taller than the view).
    pub(super) fn reveal_focus(&mut self) {
        let Focus::Block(i) = self.focus else {
            return;
        };
        let c = self.content_area();
        let view = self.page_view(c.width);
        if let Some((y, h)) = view.slot_span(i) {
            self.show_rows(y, h);
        }
        self.clamp_scroll();
    }

    /// Scroll so page rows `y..y + h` are in view, moving as little as possible; rows
    /// taller than the view show from their first.
    pub(super) fn show_rows(&mut self, y: usize, h: usize) {
        let vh = usize::from(self.content_area().height.max(1));
        if y < self.scroll || h > vh {
            self.scroll = y;
        } else if y + h > self.scroll + vh {
            self.scroll = y + h - vh;
        }
        self.clamp_scroll();
    }

    /// Enter on a block whose top is scrolled away: bring its top into view, as far as
    /// the row it points at (its focus line) stays in view.
    pub(super) fn show_focus_top(&mut self) {
        let Focus::Block(i) = self.focus else {
            return;
        };
        let c = self.content_area();
        let Some((y, h)) = self.page_view(c.width).slot_span(i) else {
            return;
        };
        if y >= self.scroll {
            return;
        }
        let vh = usize::from(c.height.max(1));
        let line = self.blocks.widget(i).and_then(|w| w.focus_line(c.width));
        let line = line.map_or(0, |l| usize::from(l).min(h.saturating_sub(1)));
        self.scroll = if line < vh { y } else { y + line + 1 - vh };
        self.clamp_scroll();
    }

    /// Height and drawing width of the focused block (0 when no block has focus).
    pub(super) fn focused_height(&self) -> (u16, u16) {
        let w = self.content_area().width;
        let Focus::Block(i) = self.focus else {
            return (0, w);
        };
        // As laid out (a block alone on its page may have grown into the room).
        let h = match self.page_view(w).slot_span(i) {
            Some((_, h)) => u16::try_from(h).unwrap_or(u16::MAX),
            None => self.slot_height(i, w),
        };
        (h, w)
    }

    /// After a key inside the focused block: keep its focus line in view and, when the block
    /// just grew, show its new bottom as far as the focus line and its top allow (a top in
    /// view is never scrolled away by the block growing).
    pub(super) fn keep_focus_line(&mut self, old_h: u16, old_w: u16) {
        let Focus::Block(i) = self.focus else {
            return;
        };
        let c = self.content_area();
        let view = self.page_view(c.width);
        let Some((y, h)) = view.slot_span(i) else {
            return;
        };
        let vh = usize::from(c.height.max(1));
        let line = self.blocks.widget(i).and_then(|w| w.focus_line(c.width));
        let anchor = y + line.map_or(0, |l| usize::from(l).min(h.saturating_sub(1)));
        let grew = old_w == c.width && h > usize::from(old_h);
        if grew && y + h > self.scroll + vh {
            // A top in view stays in view (the learner typing keeps what the block is
            // about on screen); the focus line stays in view in any case.
            let limit = if y >= self.scroll { y } else { anchor };
            self.scroll = (y + h - vh).min(limit.min(anchor)).max(self.scroll);
        }
        if line.is_some() {
            if anchor < self.scroll {
                self.scroll = anchor;
            } else if anchor >= self.scroll + vh {
                self.scroll = anchor + 1 - vh;
            }
        }
        self.clamp_scroll();
    }
}
