//! A framed list of items (quiz choices, checklist items) drawn as wrapped lines and
//! scrolled to keep the cursor's line in view; a click maps back to the item it hit.

use std::cell::Cell;

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::tui::blocks::common::{draw_lines, frame, is_down, is_up, plain, scroll_to};
use crate::tui::blocks::{BlockOutcome, RenderCtx};
use crate::tui::theme::{Theme, ThemeName};

/// A list's lines, the line the cursor is on, and which item (if any) owns each line.
pub type ListLines = (Vec<Line<'static>>, usize, Vec<Option<usize>>);

/// Where a list was last drawn (inner width and scroll), to map clicks to items.
#[derive(Debug, Default)]
pub struct ListView {
    drawn: Cell<(u16, usize)>,
}

impl ListView {
    /// Draw the framed list; `lines` lays it out for a theme, a width and whether the
    /// cursor shows.
    pub fn render(
        &self,
        area: Rect,
        buf: &mut Buffer,
        ctx: &RenderCtx,
        (title, status): (&str, &str),
        lines: impl FnOnce(&Theme, usize, bool) -> ListLines,
    ) {
        let inner = frame(area, buf, ctx, title, status);
        if inner.is_empty() {
            return;
        }
        let (lines, focus, _) = lines(ctx.theme, inner.width as usize, ctx.active || ctx.focused);
        let skip = scroll_to(focus, inner.height as usize, lines.len());
        self.drawn.set((inner.width, skip));
        draw_lines(inner, buf, &lines, skip);
    }

    /// The row (from the block's top) of the cursor's line at `width` columns.
    pub fn focus_line(width: u16, lines: impl FnOnce(&Theme, usize, bool) -> ListLines) -> u16 {
        let theme = Theme::new(ThemeName::Mono, false);
        let (_, focus, _) = lines(&theme, width.saturating_sub(2) as usize, true);
        1 + focus as u16
    }

    /// The item a click on `row` (from the block's top) lands on, as last drawn.
    pub fn clicked(
        &self,
        row: u16,
        lines: impl FnOnce(&Theme, usize, bool) -> ListLines,
    ) -> Option<usize> {
        let (width, skip) = self.drawn.get();
        if row == 0 || width == 0 {
            return None;
        }
        let theme = Theme::new(ThemeName::Mono, false);
        let (_, _, owners) = lines(&theme, width as usize, true);
        owners.get(row as usize - 1 + skip).copied().flatten()
    }
}

/// The keys every list shares: nothing until the block is entered, Esc gives the focus
/// back, Up and Down move `cursor` over `len` items. `None` for any other key.
pub fn list_key(
    key: &KeyEvent,
    active: bool,
    cursor: &mut usize,
    len: usize,
) -> Option<BlockOutcome> {
    if !active {
        return Some(BlockOutcome::Ignored);
    }
    if plain(key, KeyCode::Esc) {
        return Some(BlockOutcome::Release);
    }
    move_cursor(key, cursor, len).then_some(BlockOutcome::Consumed)
}

/// Up and Down move `cursor` over `len` items; `true` when the key was one of them.
fn move_cursor(key: &KeyEvent, cursor: &mut usize, len: usize) -> bool {
    if is_up(key) {
        *cursor = cursor.saturating_sub(1);
        return true;
    }
    if is_down(key) {
        if *cursor + 1 < len {
            *cursor += 1;
        }
        return true;
    }
    false
}
