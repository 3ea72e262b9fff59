//! One frame of the player: the border with the scenario and the play state, the timeline,
//! the gauges, the selected call's detail, the events (or, at the end, the stop reason large
//! with the partial-success summary and the model's final answer), the key bar, and the
//! legend and knobs panels. Wide windows get side-by-side panes; narrow ones fold the
//! detail and flow the gauges, keeping the stop reason and the gauges on screen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

use crate::text::{truncate, width as width_of};
use crate::tui::draw::keybar::{self, BarKey, Rank};
use crate::tui::draw::{self, draw_lines, wrap_prefixed};
use crate::tui::theme::Theme;

use super::glyphs::Glyphs;
use super::legend::{self, keys};
use super::timeline::TimelineView;
use super::{Panel, Player};
use super::{gauges, panes};
use crate::replay::knobs::{self, Knob};

/// Draw the player into `area`.
pub fn render(p: &Player, area: Rect, buf: &mut Buffer, th: &Theme, present: bool) {
    let area = area.intersection(buf.area);
    if area.width < 30 || area.height < 8 {
        buf.set_string(area.x, area.y, "The player needs 30x8 cells", th.warn);
        return;
    }
    let inner = border(p, area, buf, th);
    // A column of room inside the border, so text never runs into it; two on a
    // projector in a wide window.
    let pad = match inner.width {
        w if present && w >= 100 => 2,
        w if w >= 60 => 1,
        _ => 0,
    };
    let inner = Rect::new(inner.x + pad, inner.y, inner.width - 2 * pad, inner.height);
    let mut legend_scrolls = false;
    match p.panel {
        Panel::Legend => legend_scrolls = legend::render(p, inner, buf, th),
        Panel::Knobs => {
            let w = 44.min(inner.width);
            let (main, side) = if inner.width >= 100 {
                (
                    Rect::new(inner.x, inner.y, inner.width - w - 1, inner.height),
                    Rect::new(inner.x + inner.width - w, inner.y, w, inner.height),
                )
            } else {
                let h = (Knob::ALL.len() as u16 + 3).min(inner.height / 2);
                (
                    Rect::new(inner.x, inner.y, inner.width, inner.height - h),
                    Rect::new(inner.x, inner.y + inner.height - h, inner.width, h),
                )
            };
            body(p, main, buf, th);
            knob_panel(p, side, buf, th);
        }
        Panel::None => body(p, inner, buf, th),
    }
    key_bar(p, area, buf, th, legend_scrolls);
}

/// The outer border (over the whole area in the base style): title, play state and time on
/// top, keys at the bottom.
fn border(p: &Player, area: Rect, buf: &mut Buffer, th: &Theme) -> Rect {
    let g = Glyphs::for_theme(th);
    let state = if p.pb.at_end(&p.tl) {
        format!("{} end", g.cancelled)
    } else if p.pb.playing {
        format!("{} playing", th.sym.pointer)
    } else {
        "paused".to_owned()
    };
    let clock = p.tl.clock;
    let right = format!(
        " {state} {}{}t = {} / {} {} ",
        p.pb.speed_label(),
        g.sep,
        clock.show(p.t_ms()),
        clock.show(p.tl.end_ms),
        clock.unit()
    );
    let title = format!(
        " Trace{}{} {} {} ",
        g.sep,
        g.shown(&p.tl.name),
        g.dash,
        g.shown(&p.tl.title)
    );
    let room = (area.width as usize).saturating_sub(width_of(&right) + 4);
    let block = Block::default()
        .style(th.base)
        .borders(Borders::ALL)
        .border_set(th.sym.border)
        .border_style(th.focus)
        .title(Line::from(Span::styled(
            truncate(&title, room, th.sym.ellipsis),
            th.heading,
        )))
        .title(Line::from(Span::styled(right, th.focus)).right_aligned());
    let inner = block.inner(area);
    block.render(area, buf);
    inner
}

/// The keys, in the app's key bar over the bottom border: the legend, the way back and
/// quitting always on the right, then as many of the others as fit. The open legend's
/// bar has its own keys: how it scrolls (when it does) and how it closes.
fn key_bar(p: &Player, area: Rect, buf: &mut Buffer, th: &Theme, legend_scrolls: bool) {
    let g = Glyphs::for_theme(th);
    let row = Rect::new(area.x + 1, area.bottom() - 1, area.width - 2, 1);
    if p.panel == Panel::Legend {
        let mut bar = Vec::new();
        if legend_scrolls {
            bar.push(BarKey::new(g.up_down, "scroll", Rank::Focus));
            bar.push(BarKey::new("PgUp/PgDn", "page", Rank::Scroll).brief("PgUp/Dn", "page"));
            bar.push(BarKey::new("Home/End", "top/end", Rank::Rest));
        }
        bar.push(BarKey::new("?/Esc", "close", Rank::Always));
        bar.push(BarKey::new("q", "quit", Rank::Always));
        keybar::render_keys(&bar, None, th, row, buf);
        return;
    }
    let bar: Vec<BarKey> = keys(g, p)
        .into_iter()
        .map(|(k, what)| {
            let rank = match k {
                "?" | "Esc" | "q" => Rank::Always,
                "Space" => Rank::Focus,
                _ => Rank::Rest,
            };
            let brief = match k {
                "Space" if p.pb.at_end(&p.tl) => "replay",
                "Space" => "play",
                ", ." => "events",
                "m" => "race/cancel",
                "r" => "knobs",
                "x" if p.demo => "reset",
                _ => what,
            };
            BarKey::new(k, what, rank).brief(k, brief)
        })
        .collect();
    keybar::render_keys(&bar, None, th, row, buf);
}

/// Run, gauges, detail, events or the end view.
fn body(p: &Player, area: Rect, buf: &mut Buffer, th: &Theme) {
    let g = Glyphs::for_theme(th);
    let t = p.t_ms();
    let wide = area.width >= 100 && area.height >= 26;
    let ended = p.pb.at_end(&p.tl);
    let before = p.compare();
    let gauges = p.tl.gauges(t);
    let gauge_lines = if wide {
        gauges::gauge_rows(&gauges, GAUGE_W as usize, th, g)
    } else {
        gauges::gauge_flow(&gauges, area.width as usize, th, g)
    };
    let mut notes: Vec<Line<'static>> = Vec::new();
    if let Some(s) = &p.status {
        notes.extend(wrap_prefixed(vec![], s, area.width as usize, th.accent));
    }
    if let Some(label) = p.rerunning() {
        let s = format!(
            "re-running the real orchestrator ({label}){} the run on screen stays until the new one is back.",
            g.ellipsis
        );
        notes.extend(wrap_prefixed(vec![], &s, area.width as usize, th.warn));
    }
    if let Some(b) = before {
        let diff = g.shown(&knobs::differences(b, &p.tl).join(g.sep));
        notes.extend(wrap_prefixed(
            vec![Span::styled(
                format!("{} compared with the run before: ", g.differs),
                th.warn,
            )],
            &diff,
            area.width as usize,
            th.base,
        ));
    }
    let lanes_need = lanes_rows(p) + 3;
    // The bottom part: the end view at the end, else events (or the detail when narrow).
    let end_lines = if ended {
        panes::end_lines(&p.tl, area.width as usize, th, g)
    } else {
        Vec::new()
    };
    let end_h = if ended { end_lines.len() as u16 + 1 } else { 0 };
    // The wide layout's right pane: the selected call, or the scenario's note.
    let side_w = if gauges.is_empty() {
        area.width as usize
    } else {
        wide_detail_width(area.width)
    };
    let side = wide.then(|| match p.pb.selected {
        Some(i) => panes::detail(&p.tl, i, t, side_w, th, g),
        None => wrap_prefixed(vec![], &g.shown_lines(&p.tl.note), side_w, th.base),
    });
    let middle_h = if let Some(side) = &side {
        (side.len().max(gauge_lines.len()) as u16 + 1).min(area.height * 2 / 5)
    } else {
        gauge_lines.len() as u16
    };
    let fixed = middle_h + notes.len() as u16 + end_h;
    let min_rest = if ended { 0 } else { 3 };
    let tl_h = lanes_need
        .min(area.height.saturating_sub(fixed + min_rest))
        .max(5.min(area.height));
    let mut y = area.y;
    let tl_area = Rect::new(area.x, y, area.width, tl_h);
    let geo = TimelineView {
        tl: &p.tl,
        before,
        t,
        selected: p.pb.selected,
        theme: th,
    }
    .render(tl_area, buf);
    *p.geometry.borrow_mut() = geo;
    y += tl_h;
    let left = area.y + area.height - y;
    let notes_h = (notes.len() as u16).min(left);
    draw_lines(Rect::new(area.x, y, area.width, notes_h), buf, &notes, 0);
    y += notes_h;
    let left = area.y + area.height - y;
    let mid = Rect::new(area.x, y, area.width, middle_h.min(left));
    if let Some(side) = &side {
        wide_middle(p, mid, &gauge_lines, side, buf, th);
    } else {
        draw_lines(mid, buf, &gauge_lines, 0);
    }
    y += mid.height;
    let rest = Rect::new(area.x, y, area.width, area.y + area.height - y);
    if let (false, Some(i)) = (wide, p.pb.selected) {
        // Narrow: the selected call's detail folds the events (and, at the end, the
        // summary) away; the stop reason keeps its line.
        let mut rest = rest;
        if ended && rest.height > 2 {
            buf.set_line(rest.x, rest.y, &panes::stop_line(&p.tl, th, g), rest.width);
            rest = Rect::new(rest.x, rest.y + 1, rest.width, rest.height - 1);
        }
        let lines = panes::detail(&p.tl, i, t, rest.width as usize, th, g);
        draw::draw_scrolled(rest, buf, &lines, p.detail_scroll.into(), (th, "PgDn"));
    } else if ended {
        end_view(p, rest, &end_lines, buf, th, g);
    } else {
        let size = (rest.height as usize, rest.width as usize);
        let mut lines = panes::events(&p.tl, t, size, panes::StartKeys::Player, th, g);
        if !wide && t == 0 {
            // At the start the room reads what to watch for: the note where it fits, else
            // where to find it.
            lines.extend(start_note(p, rest, lines.len(), th));
        }
        draw_lines(rest, buf, &lines, 0);
    }
}

/// The scenario's note under the first events, or a line saying `?` shows it.
fn start_note(p: &Player, rest: Rect, used: usize, th: &Theme) -> Vec<Line<'static>> {
    if p.tl.note.is_empty() {
        return Vec::new();
    }
    let mut note = vec![Line::from("")];
    note.extend(wrap_prefixed(
        vec![],
        &Glyphs::for_theme(th).shown_lines(&p.tl.note),
        rest.width as usize,
        th.base,
    ));
    if used + note.len() <= rest.height as usize {
        return note;
    }
    vec![Line::from(Span::styled(
        "? shows this run's note (what to watch for) and the legend",
        th.dim,
    ))]
}

/// Rows the timeline wants: the lanes, two axis rows and the row naming the lines.
fn lanes_rows(p: &Player) -> u16 {
    let n = super::timeline::rows_wanted(&p.tl, p.compare());
    n.min(u16::MAX as usize / 2) as u16
}

/// The gauges' pane width in the wide layout.
const GAUGE_W: u16 = 60;

fn wide_detail_width(width: u16) -> usize {
    width.saturating_sub(GAUGE_W.min(width / 2) + 1) as usize
}

/// Gauges on the left, the selected call (or the scenario's note) on the right: `side`, made
/// for the right pane's width.
fn wide_middle(
    p: &Player,
    area: Rect,
    gauges: &[Line<'static>],
    side: &[Line<'static>],
    buf: &mut Buffer,
    th: &Theme,
) {
    // A run without budgets gives the whole width to the call.
    let right = if gauges.is_empty() {
        area
    } else {
        let gw = GAUGE_W.min(area.width / 2);
        let left = Rect::new(area.x, area.y, gw, area.height);
        let lb = pane_block("Budgets", th);
        let li = lb.inner(left);
        lb.render(left, buf);
        draw_lines(li, buf, gauges, 0);
        Rect::new(area.x + gw + 1, area.y, area.width - gw - 1, area.height)
    };
    let title = match p.pb.selected.and_then(|i| p.tl.calls.get(i)) {
        Some(c) => {
            let g = Glyphs::for_theme(th);
            format!("{} {}", g.shown(&c.id), g.shown(&c.tool))
        }
        None => "About this run (Tab selects a call)".to_owned(),
    };
    let rb = pane_block(&title, th);
    let ri = rb.inner(right);
    rb.render(right, buf);
    draw::draw_scrolled(ri, buf, side, p.detail_scroll.into(), (th, "PgDn"));
}

fn pane_block(title: &str, th: &Theme) -> Block<'static> {
    Block::default()
        .borders(Borders::TOP)
        .border_set(th.sym.border)
        .border_style(th.border)
        .title(Span::styled(format!(" {title} "), th.heading))
}

/// The stop reason (large where it fits: never in ASCII, whose letters are plain), the
/// partial-success summary, the final answer, then the last events in the rows left.
fn end_view(
    p: &Player,
    area: Rect,
    lines: &[Line<'static>],
    buf: &mut Buffer,
    th: &Theme,
    g: &Glyphs,
) {
    let word = panes::stop_title(&p.tl);
    let big = !th.ascii
        && (width_of(&word) as u16) * 4 <= area.width
        && area.height as usize >= 5 + lines.len();
    let mut y = area.y;
    if big {
        let style = panes::stop_style(p.tl.stop, th);
        let head = match p.tl.stop {
            Some(r) => format!("{} STOPPED{}{r}", g.cancelled, g.sep),
            None => format!("{} ENDED", g.cancelled),
        };
        buf.set_string(area.x, y, head, style);
        tui_big_text::BigText::builder()
            .pixel_size(tui_big_text::PixelSize::Quadrant)
            .style(style)
            .lines(vec![Line::from(word)])
            .build()
            .render(Rect::new(area.x, y + 1, area.width, 4), buf);
        y += 5;
    } else if area.height > 0 {
        buf.set_line(area.x, y, &panes::stop_line(&p.tl, th, g), area.width);
        y += 1;
    }
    let bottom = area.y + area.height;
    let rest = Rect::new(area.x, y, area.width, bottom.saturating_sub(y));
    draw_lines(rest, buf, lines, 0);
    let y = (y + lines.len() as u16).min(bottom);
    if bottom > y + 1 {
        let ev = Rect::new(area.x, y + 1, area.width, bottom - y - 1);
        let size = (ev.height as usize, ev.width as usize);
        let lines = panes::events(&p.tl, p.t_ms(), size, panes::StartKeys::Player, th, g);
        draw_lines(ev, buf, &lines, 0);
    }
}

fn knob_panel(p: &Player, area: Rect, buf: &mut Buffer, th: &Theme) {
    let Some(knobs) = &p.knobs else {
        return;
    };
    let g = Glyphs::for_theme(th);
    // The longest title the border holds whole; what it leaves out goes inside.
    let full = format!(
        " Knobs: {} choose{}{} change{}Enter re-run ",
        g.up_down, g.sep, g.left_right, g.sep
    );
    let fits = |t: &str| width_of(t) + 2 <= usize::from(area.width);
    let (title, hint) = if fits(&full) {
        (full, None)
    } else {
        let keys = format!(
            "{} choose{}{} change{}Enter re-run",
            g.up_down, g.sep, g.left_right, g.sep
        );
        (" Knobs ".to_owned(), Some(keys))
    };
    let inner = draw::popup(
        area,
        buf,
        th,
        Line::from(Span::styled(title, th.focus)),
        None,
    );
    let mut lines: Vec<Line<'static>> = Knob::ALL
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let chosen = i == knobs.cursor;
            let style: Style = if chosen { th.selected } else { th.base };
            let mark = if chosen { th.sym.pointer } else { " " };
            Line::from(Span::styled(
                format!("{mark} {:<16} {}", k.label(), knobs.value(k)),
                style,
            ))
        })
        .collect();
    if let Some(keys) = hint {
        lines.extend(wrap_prefixed(vec![], &keys, inner.width as usize, th.dim));
    }
    let skip = (knobs.cursor + 1).saturating_sub(inner.height as usize);
    draw_lines(inner, buf, &lines, skip);
}
