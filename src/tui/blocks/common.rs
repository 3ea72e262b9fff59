//! The block's framed border, and what blocks draw and read keys with, gathered from where
//! it lives (`tui::draw` for lines, JSON and verdicts, `tui::keys` for matching a key, the
//! crate's text helpers) so a block names one place.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

pub use crate::json_text::{json_compact, json_semi_pretty, line_col};
use crate::sanitize::clean;
use crate::text::width as width_of;
pub use crate::text::{fit, prose, truncate, wrap};
use crate::tui::blocks::RenderCtx;
pub use crate::tui::draw::{
    dot, draw_lines, highlight_json_line, highlight_json_text, mark_cut, scroll_to, verdict_line,
    verdict_lines, wrap_json, wrap_prefixed, wrap_rich,
};
pub use crate::tui::keys::{digit, is_char, is_down, is_left, is_right, is_up, plain};

/// Draw the block's border with its title (and an optional right-aligned status) and
/// return the inner area. Tiny areas get no border at all.
pub fn frame(area: Rect, buf: &mut Buffer, ctx: &RenderCtx, title: &str, status: &str) -> Rect {
    // Titles and statuses may quote a lesson's options: cleaned where they are drawn.
    let (title, status) = (&clean(title, false), &clean(status, false));
    let area = area.intersection(buf.area);
    if area.width < 4 || area.height < 3 {
        return area;
    }
    let t = ctx.theme;
    let border_style = if ctx.focused || ctx.active {
        t.focus
    } else {
        t.border
    };
    let marker = if ctx.active {
        format!("{} ", t.sym.pointer)
    } else {
        String::new()
    };
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_set(t.sym.border)
        .border_style(border_style)
        .title(Line::from(vec![
            Span::styled(format!(" {marker}"), border_style),
            Span::styled(
                format!("{title} "),
                if ctx.focused || ctx.active {
                    t.focus
                } else {
                    t.heading
                },
            ),
        ]));
    if !status.is_empty() && border_fits(area.width, title, status, ctx.active) {
        block = block.title(Line::from(Span::styled(format!(" {status} "), t.dim)).right_aligned());
    }
    let inner = block.inner(area);
    block.render(area, buf);
    inner
}

/// Title and status share the top border of a block `width` cells wide without touching
/// (a status that does not fit is left out by `frame`; blocks offer shorter ones first).
pub fn border_fits(width: u16, title: &str, status: &str, active: bool) -> bool {
    // Corners, the spaces around each text, the active marker, one border cell between.
    let marker = if active { 2 } else { 0 };
    let need = 2 + (width_of(title) + 2 + marker) + (width_of(status) + 2) + 1;
    need <= width as usize
}
