//! The player drawn small, inside a lesson page: the scenario's note in full, a compact
//! timeline, the gauges, and the latest events (at the end: the stop reason, which calls
//! finished, the final answer). Its height depends only on the run and the width, so the
//! page does not jump while it plays.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::tui::draw::{draw_lines, wrap_prefixed};
use crate::tui::theme::Theme;

use super::Player;
use super::glyphs::Glyphs;
use super::panes::StartKeys;
use super::timeline::{TimelineView, rows_wanted};
use super::{gauges, panes};

/// Lane rows the inline timeline shows at most (the rest are grouped).
const MAX_LANE_ROWS: u16 = 10;
/// Rows for the latest events, or the end summary.
const TAIL_ROWS: u16 = 6;

/// The scenario's title, then its note, both in full.
fn note_lines(p: &Player, width: u16, th: &Theme) -> Vec<Line<'static>> {
    let g = Glyphs::for_theme(th);
    let mut out = wrap_prefixed(vec![], &g.shown(&p.tl.title), width as usize, th.heading);
    if !p.tl.note.is_empty() {
        let note = g.shown_lines(&p.tl.note);
        out.extend(wrap_prefixed(vec![], &note, width as usize, th.dim));
    }
    out
}

fn timeline_rows(p: &Player) -> u16 {
    let lanes = rows_wanted(&p.tl, p.compare()).min(MAX_LANE_ROWS as usize) as u16;
    lanes + 3
}

fn gauge_lines(p: &Player, width: u16, th: &Theme) -> Vec<Line<'static>> {
    // The widest the gauges get is when every one is spent: measure at the end of the run.
    let g = Glyphs::for_theme(th);
    gauges::gauge_flow(&p.tl.gauges(p.tl.end_ms), width as usize, th, g)
}

/// The rows the inline player takes at `width` columns.
pub fn height(p: &Player, width: u16, th: &Theme) -> u16 {
    let note = note_lines(p, width, th).len() as u16;
    let gauges = gauge_lines(p, width, th).len() as u16;
    note + timeline_rows(p) + gauges + TAIL_ROWS
}

/// The lines under the gauges: the latest events, or at the end the stop and the summary.
fn tail_lines(
    p: &Player,
    t: u64,
    (width, height): (u16, u16),
    keys: StartKeys,
    th: &Theme,
) -> Vec<Line<'static>> {
    let g = Glyphs::for_theme(th);
    if t >= p.tl.end_ms {
        let mut lines = vec![panes::stop_line(&p.tl, th, g)];
        lines.extend(panes::end_lines(&p.tl, width as usize, th, g));
        lines
    } else {
        panes::events(&p.tl, t, (height as usize, width as usize), keys, th, g)
    }
}

/// The row, counted from the top of the inline area, of the event at the cursor (or of the
/// stop reason at the end): the row a reader keeps in view.
pub fn focus_row(p: &Player, t: u64, width: u16, th: &Theme) -> u16 {
    let top = note_lines(p, width, th).len() as u16
        + timeline_rows(p)
        + gauge_lines(p, width, th).len() as u16;
    // The line naming the keys is one line whichever keys it names.
    let lines = tail_lines(p, t, (width, TAIL_ROWS), StartKeys::Player, th);
    let at = if t >= p.tl.end_ms {
        0
    } else {
        lines
            .iter()
            .position(|l| {
                l.spans
                    .first()
                    .is_some_and(|s| s.content.starts_with(th.sym.pointer))
            })
            .unwrap_or(0)
    };
    top + (at as u16).min(TAIL_ROWS - 1)
}

/// Draw the inline player at virtual time `t` into `area`; `keys`: which keys play it.
pub fn render(p: &Player, (t, keys): (u64, StartKeys), area: Rect, buf: &mut Buffer, th: &Theme) {
    let area = area.intersection(buf.area);
    if area.is_empty() {
        return;
    }
    let g = Glyphs::for_theme(th);
    let mut y = area.y;
    let bottom = area.y + area.height;
    let note = note_lines(p, area.width, th);
    if !note.is_empty() {
        let h = (note.len() as u16).min(bottom - y);
        draw_lines(Rect::new(area.x, y, area.width, h), buf, &note, 0);
        y += h;
    }
    let tl_h = timeline_rows(p).min(bottom - y);
    let geo = TimelineView {
        tl: &p.tl,
        before: p.compare(),
        t,
        selected: p.pb.selected,
        theme: th,
    }
    .render(Rect::new(area.x, y, area.width, tl_h), buf);
    *p.geometry.borrow_mut() = geo;
    y += tl_h;
    let gauges = gauges::gauge_flow(&p.tl.gauges(t), area.width as usize, th, g);
    let gh = (gauges.len() as u16).min(bottom - y);
    draw_lines(Rect::new(area.x, y, area.width, gh), buf, &gauges, 0);
    y += gh;
    let tail = Rect::new(area.x, y, area.width, bottom - y);
    let lines = tail_lines(p, t, (tail.width, tail.height), keys, th);
    draw_lines(tail, buf, &lines, 0);
}
