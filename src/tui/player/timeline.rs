//! The timeline widget: a labelled time axis with the cursor, one row per lane (turns and
//! calls) drawn up to the cursor time, vertical lines for the deadline, a cancel and the
//! stop, a note beside each lane, and, when lanes do not fit, the rest grouped by state with
//! a density strip. With a previous run to compare, each call gets a dim `before` row, and
//! the previous run's raced handler a dim row of its own under it when there is room.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use crate::text::{fit, truncate, width as width_of};
use crate::tui::theme::Theme;

use super::glyphs::{self, Glyphs};
use crate::orchestrator::Outcome;

use super::group::{GroupWords, turn_word};
use super::notes::{call_note, ghost_note};
pub use super::rows::rows_wanted;
use super::rows::{Grouped, Part, Row, choose_rows, same_call};
use crate::replay::run::{Clock, Lane, Mark, Run, SegKind};

/// Where the axis and the lanes were drawn (for mouse clicks).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Geometry {
    /// The axis rows; a click there seeks.
    pub axis: Rect,
    /// First plot column and its width.
    pub plot_x: u16,
    pub plot_w: u16,
    pub axis_end: u64,
    /// Screen row -> call lane, for clicks on a lane.
    pub rows: Vec<(u16, usize)>,
}

impl Geometry {
    /// The virtual time under screen column `x`.
    pub fn time_at(&self, x: u16) -> Option<u64> {
        if self.plot_w == 0 || x < self.plot_x || x >= self.plot_x + self.plot_w {
            return None;
        }
        let col = u64::from(x - self.plot_x);
        let span = u64::from(self.plot_w.saturating_sub(1)).max(1);
        Some((col * self.axis_end).div_ceil(span).min(self.axis_end))
    }
}

pub struct TimelineView<'a> {
    pub tl: &'a Run,
    pub before: Option<&'a Run>,
    pub t: u64,
    pub selected: Option<usize>,
    pub theme: &'a Theme,
}

/// The common time axis of one run, or of a run and the one before it.
pub fn axis_end(tl: &Run, before: Option<&Run>) -> u64 {
    let mut end = tl.axis_end().max(before.map_or(0, Run::axis_end));
    // A deadline or cancel a little past the end is worth drawing.
    for (_, at) in tl.marks() {
        if at > end && at <= end + end / 4 {
            end = at;
        }
    }
    end.max(1)
}

struct Plot {
    x: u16,
    w: u16,
    end: u64,
}

impl Plot {
    fn col(&self, t: u64) -> u16 {
        let span = u64::from(self.w.saturating_sub(1));
        self.x + (t.min(self.end) * span / self.end) as u16
    }
}

impl TimelineView<'_> {
    /// Draw into `area`; returns where things went.
    pub fn render(&self, area: Rect, buf: &mut Buffer) -> Geometry {
        let area = area.intersection(buf.area);
        if area.height < 2 || area.width < 20 {
            return Geometry::default();
        }
        let g = Glyphs::for_theme(self.theme);
        let note_w = note_width(area.width);
        let label_w = self.label_width(area.width);
        let gap = u16::from(note_w > 0);
        let plot_w = area.width.saturating_sub(label_w + 1 + note_w + gap);
        let end = axis_end(self.tl, self.before);
        let plot = Plot {
            x: area.x + label_w + 1,
            w: plot_w,
            // Without a note column, room after the bars for their notes.
            end: if note_w == 0 { end + end / 4 } else { end },
        };
        let axis_rows = if area.height >= 6 { 2 } else { 1 };
        let axis = Rect::new(area.x, area.y, area.width, axis_rows);
        self.draw_axis(axis, &plot, label_w, g, buf);
        let body = Rect::new(
            area.x,
            area.y + axis_rows,
            area.width,
            area.height - axis_rows,
        );
        let mut geo = Geometry {
            axis,
            plot_x: plot.x,
            plot_w: plot.w,
            axis_end: plot.end,
            rows: Vec::new(),
        };
        let cx = LaneCtx {
            plot: &plot,
            label_w,
            note_w,
            g,
        };
        self.draw_body(body, &cx, buf, &mut geo);
        geo
    }

    fn label_width(&self, width: u16) -> u16 {
        let longest = self.tl.index.label_width().unwrap_or(6).max(10) as u16 + 2;
        longest.min(width / 4).max(6)
    }

    fn draw_axis(&self, area: Rect, plot: &Plot, label_w: u16, g: &Glyphs, buf: &mut Buffer) {
        let t = self.theme;
        let clock = self.tl.clock;
        // Milliseconds read as seconds on a long axis; steps stay steps.
        let seconds = clock != Clock::Order && plot.end >= 10_000;
        let unit = if seconds { "s" } else { clock.unit() };
        buf.set_string(area.x, area.y, unit, t.dim);
        let step = match clock {
            Clock::Order => tick_step(plot.end / Clock::STEP_MS, plot.w) * Clock::STEP_MS,
            Clock::Virtual | Clock::Recorded => tick_step(plot.end, plot.w),
        };
        let rule_y = area.y + area.height - 1;
        if area.height > 1 {
            for x in plot.x..plot.x + plot.w {
                put(buf, x, rule_y, g.axis, t.border);
            }
        }
        let mut at = 0;
        let mut free_from = plot.x;
        while at <= plot.end {
            let x = plot.col(at);
            let text = if seconds {
                format!("{}", at as f64 / 1000.0)
            } else {
                clock.show(at)
            };
            let w = width_of(&text) as u16;
            if x >= free_from && x + w <= plot.x + plot.w {
                buf.set_string(x, area.y, &text, t.dim);
                free_from = x + w + 1;
            }
            if area.height > 1 {
                put(buf, x, rule_y, g.tick, t.border);
            }
            at += step;
        }
        // The cursor: a mark on the rule (or the label row) and the time beside the labels.
        if area.height > 1 {
            put(buf, plot.col(self.t), rule_y, g.now, t.focus);
        }
        let _ = label_w;
    }

    fn draw_body(&self, area: Rect, cx: &LaneCtx, buf: &mut Buffer, geo: &mut Geometry) {
        let (plot, g) = (cx.plot, cx.g);
        if area.height == 0 {
            return;
        }
        // The last row names the vertical lines when there is room for it.
        let (lanes_area, marks_row) = if area.height >= 4 {
            (
                Rect::new(area.x, area.y, area.width, area.height - 1),
                Some(area.y + area.height - 1),
            )
        } else {
            (area, None)
        };
        let rows = lanes_area.height as usize;
        let layout = choose_rows(self.tl, self.t, self.selected, rows, self.before);
        // Vertical lines and the cursor first; bars draw over them.
        let marks = self.tl.marks();
        for y in lanes_area.y..lanes_area.y + lanes_area.height {
            self.draw_verticals(y, &marks, plot, g, buf);
        }
        // What the group rows (if any) count, per state, found once for all of them.
        let density = layout.iter().find_map(|row| match row {
            Row::Group(_, grouped) => Some(self.tl.index.density(
                self.tl.view(),
                self.t,
                grouped.shown.clone(),
                plot.x,
                plot.w,
                |at| plot.col(at),
            )),
            Row::Lane(..) => None,
        });
        for (y, row) in (lanes_area.y..).zip(layout.iter()) {
            match row {
                Row::Lane(lane, part) => {
                    self.draw_part(*lane, *part, y, cx, buf);
                    if let Lane::Call(i) = lane {
                        geo.rows.push((y, *i));
                    }
                }
                Row::Group(label, grouped) => {
                    let density = density.as_ref().map_or(&[][..], |d| &d[..]);
                    let counts =
                        grouped
                            .states
                            .iter()
                            .fold(vec![0; plot.w as usize], |mut acc, &s| {
                                for (a, n) in acc.iter_mut().zip(&density[s as usize]) {
                                    *a += n;
                                }
                                acc
                            });
                    self.draw_group(label, grouped, &counts, y, cx, buf)
                }
            }
        }
        if let Some(my) = marks_row {
            self.draw_mark_labels(my, plot, cx.note_w, g, buf);
        }
    }

    fn draw_verticals(
        &self,
        y: u16,
        marks: &[(Mark, u64)],
        plot: &Plot,
        g: &Glyphs,
        buf: &mut Buffer,
    ) {
        let t = self.theme;
        for &(mark, at) in marks {
            if at > plot.end || (mark == Mark::Stop && self.t < at) {
                continue;
            }
            let (sym, style) = match mark {
                Mark::Deadline => (g.deadline, t.warn),
                Mark::Cancel => (g.cancel, t.warn),
                Mark::Stop => (g.stop, t.dim),
            };
            put(buf, plot.col(at), y, sym, style);
        }
        put(buf, plot.col(self.t), y, g.cursor, t.focus);
    }

    /// One row of a lane: the lane itself, its raced handlers, or the run before.
    fn draw_part(&self, lane: Lane, part: Part, y: u16, cx: &LaneCtx, buf: &mut Buffer) {
        let g = cx.g;
        let lane_now = lane;
        let (tl, lane) = match (part, lane) {
            (p, Lane::Call(i)) if p.is_before() => {
                let Some(b) = self.before else { return };
                match same_call(b, self.tl, i) {
                    Some(j) => (b, Lane::Call(j)),
                    None => {
                        let th = self.theme;
                        let label = format!("  {} before", g.differs);
                        buf.set_string(
                            cx.plot.x - cx.label_w - 1,
                            y,
                            fit(&label, cx.label_w as usize, th.sym.ellipsis),
                            th.dim,
                        );
                        buf.set_string(cx.plot.x, y, "(not in the run before)", th.dim);
                        return;
                    }
                }
            }
            _ => (self.tl, lane),
        };
        self.draw_lane(tl, lane, part, y, cx, buf);
        // The same call in both runs: `≠` only where something changed.
        if let (Part::Before | Part::BeforeNoGhost, Lane::Call(now)) = (part, lane_now)
            && !crate::replay::knobs::lane_differs(tl, self.tl, now)
        {
            let th = self.theme;
            let label = fit("  = before", cx.label_w as usize, th.sym.ellipsis);
            buf.set_string(cx.plot.x - cx.label_w - 1, y, label, th.dim);
        }
    }

    fn draw_lane(&self, tl: &Run, lane: Lane, part: Part, y: u16, cx: &LaneCtx, buf: &mut Buffer) {
        let LaneCtx {
            plot,
            label_w,
            note_w,
            g,
        } = *cx;
        let th = self.theme;
        let before = part.is_before();
        let selected = matches!(lane, Lane::Call(i) if Some(i) == self.selected) && !before;
        let label = match part {
            Part::Before | Part::BeforeNoGhost => format!("  {} before", g.differs),
            Part::BeforeGhost => format!("  {} {} handler", g.differs, g.ghost),
            Part::Ghost => format!("  {} handler", g.ghost),
            _ => {
                let mark = if selected { th.sym.pointer } else { " " };
                format!("{mark}{}", g.shown(&tl.lane_label(lane)))
            }
        };
        let style = if selected {
            th.selected
        } else if before || part.is_ghost() {
            th.dim
        } else {
            th.base
        };
        buf.set_string(
            self_x(plot, label_w),
            y,
            fit(&label, label_w as usize, th.sym.ellipsis),
            style,
        );
        // A previous run is shown whole: its time is over.
        let t = if before { tl.end_ms } else { self.t };
        let mut last_x = None;
        for s in lane_segments(tl, lane) {
            let wanted = if part.is_ghost() {
                s.kind == SegKind::Ghost
            } else {
                !(part.without_ghosts() && s.kind == SegKind::Ghost)
            };
            if s.start > t || !wanted {
                continue;
            }
            let end = s.end.min(t);
            let open = s.end > t;
            let style = glyphs::seg_style(th, s.kind, s.outcome, open);
            let style = if before { th.dim } else { style };
            let (x0, x1) = (plot.col(s.start), plot.col(end));
            for x in x0..=x1 {
                put(buf, x, y, g.seg(s.kind), style);
            }
            if !open && let Some(o) = s.outcome {
                let ms = if s.kind == SegKind::Ghost {
                    th.dim
                } else {
                    glyphs::outcome_style(th, o)
                };
                buf.set_string(x1, y, g.outcome(o), if before { th.dim } else { ms });
            }
            last_x = Some(last_x.map_or(x1, |l: u16| l.max(x1)));
        }
        // A call refused before it ran (or never dispatched) has only its result: a mark.
        if let (Lane::Call(i), false) = (lane, part.is_ghost())
            && let Some(r) = tl.calls[i].result.as_ref().filter(|r| r.t_ms <= t)
            && r.attempts == 0
        {
            let x = plot.col(r.t_ms);
            let st = if before {
                th.dim
            } else {
                glyphs::category_style(th, r.category)
            };
            buf.set_string(x, y, g.category(r.category), st);
            last_x = Some(last_x.map_or(x, |l: u16| l.max(x)));
        }
        let note = if part.is_ghost() {
            ghost_note(tl, lane, t, th, g)
        } else {
            let room = if note_w > 0 { note_w } else { plot.w };
            self.lane_note(tl, lane, t, usize::from(room), g)
        };
        let (text, style) = note;
        if note_w > 0 {
            let x = plot.x + plot.w + 1;
            let s = if before { th.dim } else { style };
            buf.set_string(x, y, fit(&text, note_w as usize, th.sym.ellipsis), s);
        } else if let Some(lx) = last_x {
            // No column for notes: the note follows the bar when it fits.
            let room = (plot.x + plot.w).saturating_sub(lx + 2) as usize;
            if room >= 4 {
                let s = if before { th.dim } else { style };
                buf.set_string(lx + 2, y, truncate(&text, room, th.sym.ellipsis), s);
            }
        }
    }

    /// The words beside a lane at time `t` (those that could show in `room` cells).
    fn lane_note(&self, tl: &Run, lane: Lane, t: u64, room: usize, g: &Glyphs) -> (String, Style) {
        let th = self.theme;
        match lane {
            Lane::Turn(i) => {
                let turn = &tl.turns[i];
                if t < turn.start {
                    (String::new(), th.dim)
                } else if t < turn.end {
                    (format!("{} model thinking", g.running), th.accent)
                } else if turn.final_answer.is_some() {
                    (format!("{} final answer", g.ok), th.ok)
                } else if let Some(said) = &turn.reply {
                    // The mark stands for the line breaks: a note is one line.
                    let said = g.one_line(said);
                    (format!("replies {}{said}{}", g.lquote, g.rquote), th.base)
                } else if turn.calls.is_empty() {
                    ("proposes no call".to_owned(), th.dim)
                } else {
                    let ids: Vec<String> = turn.calls.iter().map(|c| g.shown(c)).collect();
                    (joined_within("proposes ", &ids, room), th.dim)
                }
            }
            Lane::Call(i) => call_note(tl, i, t, th, g),
        }
    }

    /// A group row: how many calls and turns, and per column how many of their attempts
    /// ran there.
    fn draw_group(
        &self,
        word: &str,
        grouped: &Grouped,
        counts: &[usize],
        y: u16,
        cx: &LaneCtx,
        buf: &mut Buffer,
    ) {
        let LaneCtx {
            plot,
            label_w,
            note_w,
            g,
        } = *cx;
        let th = self.theme;
        let words = GroupWords {
            calls: grouped.lanes.saturating_sub(grouped.turns),
            turns: grouped.turns,
            word,
            turn_word: turn_word(&grouped.states),
        };
        let label = words.label(label_w as usize);
        buf.set_string(
            self_x(plot, label_w),
            y,
            fit(&label, label_w as usize, th.sym.ellipsis),
            th.heading,
        );
        let max = counts.iter().copied().max().unwrap_or(0);
        for (i, &n) in counts.iter().enumerate() {
            if n > 0 {
                put(buf, plot.x + i as u16, y, g.density(n, max), th.accent);
            }
        }
        if note_w > 0 {
            let text = words.caption(max, note_w as usize);
            buf.set_string(
                plot.x + plot.w + 1,
                y,
                fit(&text, note_w as usize, th.sym.ellipsis),
                th.dim,
            );
        }
    }

    fn draw_mark_labels(&self, y: u16, plot: &Plot, note_w: u16, g: &Glyphs, buf: &mut Buffer) {
        let th = self.theme;
        let mut note_x = plot.x + plot.w + 1;
        let mut free_from = plot.x;
        let cx = plot.col(self.t);
        let now = format!("{} now {}", g.now, self.tl.clock.at(self.t));
        let now_w = width_of(&now) as u16;
        let now_x = if cx + now_w <= plot.x + plot.w {
            free_from = cx + now_w + 1;
            cx
        } else {
            (plot.x + plot.w).saturating_sub(now_w)
        };
        buf.set_string(now_x, y, &now, th.focus);
        // A mark past the axis, said in the note column, keeps two cells off the now label
        // when that label ends at the axis's end: one would read as one label.
        if now_x + now_w >= plot.x + plot.w {
            note_x += 1;
        }
        for (mark, at) in self.tl.marks() {
            let (sym, word) = match mark {
                Mark::Deadline => (g.deadline, "deadline"),
                Mark::Cancel => (g.cancel, "cancel"),
                Mark::Stop if self.t >= at => (g.stop, "stop"),
                Mark::Stop => continue,
            };
            let text = if at > plot.end {
                format!("{word} {} {}", self.tl.clock.at(at), self.theme.sym.arrow)
            } else {
                format!("{sym}{word} {}", self.tl.clock.show(at))
            };
            let w = width_of(&text) as u16;
            if at > plot.end && note_w > 0 {
                // Past the axis: said in the note column.
                let room = (plot.x + plot.w + 1 + note_w).saturating_sub(note_x);
                if w <= room {
                    buf.set_string(note_x, y, &text, th.warn);
                    note_x += w + 1;
                }
                continue;
            }
            let x = if at > plot.end {
                (plot.x + plot.w).saturating_sub(w)
            } else {
                plot.col(at)
            };
            if x >= free_from && x + w <= plot.x + plot.w {
                buf.set_string(x, y, &text, th.warn);
                free_from = x + w + 1;
            }
        }
    }
}

fn self_x(plot: &Plot, label_w: u16) -> u16 {
    plot.x - label_w - 1
}

/// `head` then `words` space separated, stopping once the text is well past `room` cells:
/// the note is cut to its room, and a turn may propose thousands of calls.
fn joined_within(head: &str, words: &[String], room: usize) -> String {
    let mut out = head.to_owned();
    let mut used = width_of(head);
    for (k, word) in words.iter().enumerate() {
        if used > room + 16 {
            break;
        }
        if k > 0 {
            out.push(' ');
            used += 1;
        }
        out.push_str(word);
        used += width_of(word);
    }
    out
}

/// The note column's width at `width` cells: none on narrow screens, then 26, 36 from 130
/// cells, and past that half of every further cell, up to [`NOTE_MAX`] (a wide window
/// reads its notes whole instead of leaving the plot all the room).
fn note_width(width: u16) -> u16 {
    match width {
        0..=89 => 0,
        90..=129 => 26,
        _ => (36 + (width - 130) / 2).min(NOTE_MAX),
    }
}

/// The widest the note column gets.
const NOTE_MAX: u16 = 64;

/// A round step between axis labels so that labels sit about ten cells apart.
fn tick_step(end: u64, width: u16) -> u64 {
    let want = (end * 10 / u64::from(width.max(10))).max(1);
    let mut unit = 1;
    loop {
        for m in [1, 2, 5] {
            if unit * m >= want {
                return unit * m;
            }
        }
        unit *= 10;
    }
}

/// One bar of a lane, as drawn.
struct Bar {
    kind: SegKind,
    start: u64,
    end: u64,
    outcome: Option<Outcome>,
}

/// Which bars draw over which: waits and backoffs under raced handlers under attempts.
fn layer(kind: SegKind) -> u8 {
    match kind {
        SegKind::Wait | SegKind::Backoff => 0,
        SegKind::Ghost => 1,
        _ => 2,
    }
}

/// A lane's bars in drawing order: the turn's thinking, or the call's waits, backoffs,
/// raced handlers and attempts (each layer in the order they happened).
fn lane_segments(tl: &Run, lane: Lane) -> impl Iterator<Item = Bar> + '_ {
    let (turn, segs) = match lane {
        Lane::Turn(i) => {
            let t = &tl.turns[i];
            let bar = Bar {
                kind: SegKind::Model,
                start: t.start,
                end: t.end,
                outcome: None,
            };
            (Some(bar), &[][..])
        }
        Lane::Call(i) => (None, tl.calls[i].segments.as_slice()),
    };
    turn.into_iter().chain((0..3).flat_map(move |k| {
        segs.iter()
            .filter(move |s| layer(s.kind) == k)
            .map(|s| Bar {
                kind: s.kind,
                start: s.start,
                end: s.end,
                outcome: s.outcome,
            })
    }))
}

/// Put a one-cell glyph at (`x`, `y`), as `Buffer::set_string` would, without measuring it.
fn put(buf: &mut Buffer, x: u16, y: u16, glyph: &str, style: Style) {
    if let Some(cell) = buf.cell_mut((x, y)) {
        cell.set_symbol(glyph).set_style(style);
    }
}

/// What every lane row is drawn with: where the plot, the label and the note columns are,
/// and the glyphs of the theme.
struct LaneCtx<'a> {
    plot: &'a Plot,
    label_w: u16,
    note_w: u16,
    g: &'a Glyphs,
}
