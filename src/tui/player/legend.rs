//! The player's legend (`?`): the run's title and note, every mark in words, and every key
//! (the key bar leaves some out when the window is narrow). Two columns where the width
//! allows, one otherwise; when it is taller than the window it scrolls.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::text::width as width_of;
use crate::tui::draw::{draw_scrolled, wrap_prefixed};
use crate::tui::theme::Theme;

use super::Player;
use super::glyphs::Glyphs;

/// Keys for the key bar and the legend (arrows spelled out in ASCII): the re-run keys only
/// for a run that can be run again, the export only for one that can be exported, and in
/// presenter mode (which writes nothing) `x` as the reset it is there.
pub fn keys(g: &Glyphs, p: &Player) -> Vec<(&'static str, &'static str)> {
    let space = if p.pb.at_end(&p.tl) {
        "replay from the start"
    } else {
        "play/pause"
    };
    let all = [
        ("Space", space),
        (g.left_right, "step"),
        ("[ ]", "scrub"),
        ("+/-", "speed"),
        ("Tab", "call"),
        (", .", "call's events"),
        ("m", "race/cancel + re-run"),
        ("r", "knobs"),
        ("b", "compare"),
        ("x", "export"),
        ("x", "reset to the start"),
        ("?", "legend"),
        ("Esc", "back"),
        ("q", "quit"),
    ];
    all.into_iter()
        .filter(|(k, what)| match *k {
            "m" | "r" | "b" => p.can_rerun(),
            "x" if *what == "export" => p.can_export(),
            "x" => p.demo,
            _ => true,
        })
        .collect()
}

/// The keys the key bar never shows, with what they do.
const MORE_KEYS: [(&str, &str); 5] = [
    ("h l", "step back / forward"),
    ("j k", "next / previous call (as Tab)"),
    ("Home", "the start (g); End: the end (G)"),
    ("PgDn", "scroll the call's detail (PgUp back)"),
    ("mouse", "click the axis to seek, a lane to select it"),
];

/// Draw the legend into `area` from the player's scroll offset. True when it is taller
/// than `area` (so it scrolls).
pub fn render(p: &Player, area: Rect, buf: &mut Buffer, th: &Theme) -> bool {
    let lines = lines(p, area.width as usize, th);
    let h = area.height as usize;
    let max = lines.len().saturating_sub(h);
    p.legend_view.set((clamp_u16(max), clamp_u16(h)));
    let skip = (p.legend_scroll as usize).min(max);
    let down = format!("{} or PgDn", down_key(Glyphs::for_theme(th)));
    draw_scrolled(area, buf, &lines, skip, (th, &down));
    max > 0
}

fn clamp_u16(n: usize) -> u16 {
    n.min(u16::MAX as usize) as u16
}

/// The down arrow's name in the glyph set.
fn down_key(g: &Glyphs) -> &'static str {
    if g.up_down == "↑↓" { "↓" } else { "Down" }
}

/// The whole legend for a width: the run's title and note, then the marks and the keys.
pub fn lines(p: &Player, width: usize, th: &Theme) -> Vec<Line<'static>> {
    let g = Glyphs::for_theme(th);
    let mut out = wrap_prefixed(vec![], &g.shown(&p.tl.title), width, th.heading);
    if !p.tl.note.is_empty() {
        out.extend(wrap_prefixed(
            vec![],
            &g.shown_lines(&p.tl.note),
            width,
            th.base,
        ));
    }
    out.push(Line::from(""));
    let two = width >= 76;
    let col_w = if two { width / 2 - 1 } else { width };
    let marks = mark_lines(g, col_w, th);
    let keys = key_lines(g, p, col_w, th);
    if two {
        let rows = marks.len().max(keys.len());
        for i in 0..rows {
            let mut left = marks.get(i).cloned().unwrap_or_default();
            let pad = (col_w + 2).saturating_sub(left.width());
            left.spans.push(Span::raw(" ".repeat(pad)));
            if let Some(right) = keys.get(i) {
                left.spans.extend(right.spans.iter().cloned());
            }
            out.push(left);
        }
    } else {
        out.extend(marks);
        out.push(Line::from(""));
        out.extend(keys);
    }
    out
}

/// Every mark, in words, under the legend's heading.
fn mark_lines(g: &Glyphs, width: usize, th: &Theme) -> Vec<Line<'static>> {
    let rows: Vec<(String, Style, &str)> = vec![
        (g.run.repeat(3), th.accent, "an attempt, the caller waiting"),
        (g.wait.repeat(3), th.dim, "accepted, waiting for a slot"),
        (
            g.backoff.repeat(3),
            th.dim,
            "backoff before the next attempt",
        ),
        (g.ghost.repeat(3), th.dim, "race: handler runs on, unwaited"),
        (g.model.repeat(3), th.heading, "the model thinking (a turn)"),
        (g.ok.into(), th.ok, "ok"),
        (g.not_found.into(), th.ok, "not_found: no such ticket"),
        (g.timeout.into(), th.bad, "timeout, or unknown outcome"),
        (g.fail.into(), th.bad, "error from upstream"),
        (
            g.refused.into(),
            th.bad,
            "refused: invalid/forbidden/budget",
        ),
        (g.cancelled.into(), th.warn, "cancelled or stopped"),
        (g.running.into(), th.accent, "still running at the cursor"),
        (g.deadline.into(), th.warn, "the deadline"),
        (g.cancel.into(), th.warn, "the user's cancel"),
        (g.stop.into(), th.dim, "where the loop decided to stop"),
        (g.cursor.into(), th.focus, "the cursor (now)"),
        (g.warn.into(), th.warn, "budget warning/hit; STOP: cause"),
        (
            g.density[4..].concat(),
            th.accent,
            "grouped lanes: runs per column",
        ),
        (g.differs.into(), th.warn, "differs from the run before"),
    ];
    let col = rows.iter().map(|(m, _, _)| width_of(m)).max().unwrap_or(0) + 1;
    let mut lines = vec![Line::from(Span::styled(
        "Legend (? or Esc closes)",
        th.heading,
    ))];
    for (mark, style, words) in rows {
        lines.extend(wrap_prefixed(
            vec![Span::styled(pad(&mark, col), style)],
            words,
            width,
            th.base,
        ));
    }
    lines
}

/// Every key, in a column as wide as the longest key name it holds (plus a space).
fn key_lines(g: &Glyphs, p: &Player, width: usize, th: &Theme) -> Vec<Line<'static>> {
    let all: Vec<(&str, &str)> = keys(g, p)
        .into_iter()
        .chain(p.host_keys.iter().copied())
        .chain(MORE_KEYS)
        .collect();
    let col = key_column(&all);
    let mut lines = vec![Line::from(Span::styled("Keys", th.heading))];
    for (k, what) in all {
        lines.extend(wrap_prefixed(
            vec![Span::styled(pad(k, col), th.key)],
            what,
            width,
            th.base,
        ));
    }
    lines
}

/// The key column's width: the longest key name, a space, and never under six cells.
fn key_column(keys: &[(&str, &str)]) -> usize {
    let longest = keys.iter().map(|(k, _)| width_of(k)).max().unwrap_or(0);
    (longest + 1).max(6)
}

/// `s` padded with spaces to `w` cells.
fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width_of(s))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_column_fits_its_longest_key_with_a_space() {
        assert_eq!(key_column(&[("Space", "play"), ("q", "quit")]), 6);
        assert_eq!(key_column(&[("Left/Right", "step"), ("q", "quit")]), 11);
        assert_eq!(pad("←/→", 6), "←/→   ");
    }
}
