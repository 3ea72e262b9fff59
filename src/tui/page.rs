//! Drawing the page: the rows of its segments that are in view. A block wholly in view
//! is drawn in place; one the view cuts is drawn off-screen and its visible rows copied.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::text::truncate;
use crate::tui::app::{App, Focus, PageView, SegKind};
use crate::tui::blocks::RenderCtx;
use crate::tui::draw::bordered;

/// The rows of the page that are in view, segment by segment.
pub(crate) fn draw_page(app: &App, view: &PageView, content: Rect, buf: &mut Buffer) {
    let t = app.theme();
    let top = app.scroll();
    let bottom = top + usize::from(content.height);
    for seg in &view.segments {
        let (s0, s1) = (seg.y, seg.y + seg.height);
        if s1 <= top || s0 >= bottom {
            continue;
        }
        // Rows of this segment that are visible, in segment coordinates.
        let from = top.saturating_sub(s0);
        let to = (bottom - s0).min(seg.height);
        let screen_y = content.y + u16::try_from(s0 + from - top).unwrap_or(0);
        match &seg.kind {
            SegKind::Lines(lines) => {
                for (n, line) in lines[from..to].iter().enumerate() {
                    let y = screen_y + u16::try_from(n).unwrap_or(0);
                    buf.set_line(content.x, y, line, content.width);
                }
            }
            SegKind::Big(lines) => {
                let big = tui_big_text::BigText::builder()
                    .pixel_size(tui_big_text::PixelSize::Quadrant)
                    .style(t.heading)
                    .lines(
                        lines
                            .iter()
                            .map(|l| Line::from(l.clone()))
                            .collect::<Vec<_>>(),
                    )
                    .build();
                let place = Placement::new(content, seg.height, from, to, screen_y);
                place.draw(buf, None, |area, b| big.render(area, b));
            }
            SegKind::Slot(i) => {
                let place = Placement::new(content, seg.height, from, to, screen_y);
                place.draw(buf, Some(t.base), |area, b| render_slot(app, *i, area, b));
            }
        }
    }
}

/// Draw one block into `area` of `buf`, or its build error.
fn render_slot(app: &App, i: usize, area: Rect, buf: &mut Buffer) {
    let t = &app.theme();
    let Some(slot) = app.slots().get(i) else {
        return;
    };
    let focused = app.focus() == Focus::Block(i);
    match &slot.widget {
        Ok(w) => {
            let ctx = RenderCtx {
                theme: t,
                focused,
                active: focused && app.active(),
                demo: app.demo(),
            };
            w.render(area, buf, &ctx);
            if !app.demo() {
                draw_done_mark(app, i, area, buf);
            }
        }
        Err(e) => {
            let block = bordered(t, focused).title(Line::styled(
                format!(
                    " {} {} block, line {} ",
                    t.sym.bad,
                    slot.kind.name(),
                    slot.line
                ),
                t.bad,
            ));
            let inner = block.inner(area);
            block.render(area, buf);
            let inner = Rect {
                x: inner.x + 1,
                width: inner.width.saturating_sub(2),
                ..inner
            };
            Paragraph::new(crate::sanitize::clean(e, true))
                .style(t.warn)
                .wrap(Wrap { trim: false })
                .render(inner, buf);
        }
    }
}

/// The block's done mark on the left of its bottom border: `✓ done` or what is left.
fn draw_done_mark(app: &App, i: usize, area: Rect, buf: &mut Buffer) {
    let t = app.theme();
    let bottom = area.bottom() - 1;
    // The mark sits in the block's frame: a block drawn without one gets none.
    let framed = buf
        .cell((area.x + 2, bottom))
        .is_some_and(|c| c.symbol() == t.sym.border.horizontal_bottom);
    if area.height < 3 || area.width < 12 || !framed {
        return;
    }
    let (text, style) = match app.block_left(i) {
        None => (format!(" {} done ", t.sym.ok), t.ok),
        Some(left) => (format!(" {} to do: {left} ", t.sym.todo), t.dim),
    };
    let room = usize::from(area.width.saturating_sub(4));
    let text = truncate(&text, room, t.sym.ellipsis);
    buf.set_line(
        area.x + 2,
        bottom,
        &Line::styled(text, style),
        area.width.saturating_sub(4),
    );
}

/// Where a segment `height` rows tall goes on screen, and which of its rows show.
struct Placement {
    /// The segment's whole area on screen, when all of it is in view.
    whole: Option<Rect>,
    width: u16,
    height: u16,
    from: usize,
    to: usize,
    x: u16,
    y: u16,
}

impl Placement {
    fn new(content: Rect, height: usize, from: usize, to: usize, y: u16) -> Placement {
        let h = u16::try_from(height).unwrap_or(u16::MAX);
        let whole = Rect::new(content.x, y, content.width, h);
        let in_view = from == 0 && to == height && content.intersection(whole) == whole;
        Placement {
            whole: in_view.then_some(whole),
            width: content.width,
            height: h,
            from,
            to,
            x: content.x,
            y,
        }
    }

    /// Draw the segment with `paint` (given its area and a buffer holding all of it) on
    /// blank cells in `base` (or unstyled): in place when it is all in view, else
    /// off-screen and its visible rows copied.
    fn draw(&self, buf: &mut Buffer, base: Option<Style>, paint: impl FnOnce(Rect, &mut Buffer)) {
        if let Some(area) = self.whole {
            // The page area is blank in the base style until its segments are drawn.
            if base.is_none() {
                for pos in area.positions() {
                    if let Some(c) = buf.cell_mut(pos) {
                        c.reset();
                    }
                }
            }
            paint(area, buf);
            return;
        }
        let mut off = blank_buffer(Rect::new(0, 0, self.width, self.height));
        if let Some(base) = base {
            off.set_style(off.area, base);
        }
        paint(off.area, &mut off);
        copy_rows(&off, self.from, self.to, self.x, self.y, buf);
    }
}

/// A buffer of blank cells, as `Buffer::empty` makes it, with each cell written as the
/// blank constant instead of cloned from one (several times faster for a whole screen).
pub(crate) fn blank_buffer(area: Rect) -> Buffer {
    let cells = usize::from(area.width) * usize::from(area.height);
    Buffer {
        area,
        content: (0..cells).map(|_| ratatui::buffer::Cell::EMPTY).collect(),
    }
}

/// Copy rows `from..to` of an off-screen buffer to `buf` at (`x`, `y`).
fn copy_rows(src: &Buffer, from: usize, to: usize, x: u16, y: u16, buf: &mut Buffer) {
    let dst = buf.area;
    for (n, row) in (from..to).enumerate() {
        let Ok(row) = u16::try_from(row) else { break };
        let ty = y + u16::try_from(n).unwrap_or(0);
        if row >= src.area.height || ty >= dst.bottom() {
            break;
        }
        for col in 0..src.area.width {
            let tx = x + col;
            if tx >= dst.right() {
                break;
            }
            if let (Some(s), Some(d)) = (src.cell((col, row)), buf.cell_mut((tx, ty))) {
                *d = s.clone();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blank_buffer_is_an_empty_one() {
        for (w, h) in [(0, 0), (0, 3), (1, 1), (7, 3), (200, 60)] {
            let area = Rect::new(2, 5, w, h);
            assert_eq!(blank_buffer(area), Buffer::empty(area));
        }
    }
}
