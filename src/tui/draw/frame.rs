//! Frames: a bordered box in the theme's border set, a popup over the screen (cleared,
//! framed, its title on top and a way out at the bottom), a box centred in an area, and the
//! frame of a full screen of its own (a head, the body padded at the sides, the key bar).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget};

use crate::tui::theme::Theme;

/// A box with every border, in the focus colour when `focused`.
pub fn bordered<'a>(t: &Theme, focused: bool) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_set(t.sym.border)
        .border_style(if focused { t.focus } else { t.border })
}

/// A `width` x `height` box in the middle of `area` (cut to it).
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [r] = area.layout(
        &Layout::vertical([Constraint::Length(height.min(area.height))]).flex(Flex::Center),
    );
    let [r] = r.layout(
        &Layout::horizontal([Constraint::Length(width.min(area.width))]).flex(Flex::Center),
    );
    r
}

/// Draw a popup frame over `r`: what was under it cleared, the border, `title` on top and
/// `bottom` (how to close it) on the right of the bottom border. Returns the inner area.
pub fn popup(
    r: Rect,
    buf: &mut Buffer,
    t: &Theme,
    title: Line<'static>,
    bottom: Option<&str>,
) -> Rect {
    Clear.render(r, buf);
    buf.set_style(r, t.base);
    let mut block = bordered(t, true).title(title);
    if let Some(b) = bottom {
        block = block.title_bottom(Line::styled(format!(" {b} "), t.dim).right_aligned());
    }
    let inner = block.inner(r);
    block.render(r, buf);
    inner
}

/// Where a full screen of its own draws: its head (two rows), its body (padded at the sides,
/// more in presenter mode) and its key bar (the last row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScreenAreas {
    pub head: Rect,
    pub body: Rect,
    pub bar: Rect,
}

/// The frame of a full screen: `area` in the base style, split into head, body and bar.
pub fn screen(area: Rect, buf: &mut Buffer, t: &Theme, present: bool) -> ScreenAreas {
    buf.set_style(area, t.base);
    let pad = if present { 2 } else { 1 };
    let [head, body, bar] = area.layout(&Layout::vertical([
        Constraint::Length(2),
        Constraint::Fill(1),
        Constraint::Length(1),
    ]));
    let body = Rect {
        x: body.x + pad,
        width: body.width.saturating_sub(2 * pad),
        ..body
    };
    ScreenAreas { head, body, bar }
}

/// A popup just big enough for `lines`, in the middle of `area`, titled `title`.
pub fn text_popup(area: Rect, buf: &mut Buffer, t: &Theme, title: &str, lines: &[String]) {
    let w = lines
        .iter()
        .map(|l| crate::text::width(l))
        .max()
        .unwrap_or(10)
        + 4;
    let w = u16::try_from(w).unwrap_or(u16::MAX).min(area.width);
    let h = u16::try_from(lines.len() + 2)
        .unwrap_or(u16::MAX)
        .min(area.height);
    let r = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    let title = Line::from(Span::styled(title.to_owned(), t.focus));
    let inner = popup(r, buf, t, title, None);
    let text: Vec<Line> = lines
        .iter()
        .map(|l| Line::styled(format!(" {l}"), Style::default()))
        .collect();
    Paragraph::new(text).render(inner, buf);
}
