//! The parts of the home screen that do not depend on the learner: the guide to a
//! lesson's blocks beside the course map, and the line of keys that matter under it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::text::width as width_of;
use crate::tui::theme::Theme;

/// The keys that matter, in as many whole words as `w` columns hold: the longest
/// wording that fits, never a word cut.
pub(super) fn key_hint(t: &Theme, w: usize) -> Line<'static> {
    let wordings: [&[(&str, &str)]; 4] = [
        &[
            ("Tab", "moves"),
            ("Enter", "opens"),
            ("Esc", "goes back (from a lesson, here)"),
            ("?", "every key"),
        ],
        &[
            ("Tab", "moves"),
            ("Enter", "opens"),
            ("Esc", "back"),
            ("?", "keys"),
        ],
        &[("Tab", "moves"), ("Enter", "opens"), ("?", "keys")],
        &[("Tab", "moves"), ("Enter", "opens")],
    ];
    let width = |keys: &[(&str, &str)]| -> usize {
        keys.iter()
            .map(|(k, what)| width_of(k) + 1 + width_of(what))
            .sum::<usize>()
            + 2 * keys.len().saturating_sub(1)
    };
    let keys = wordings.into_iter().find(|k| width(k) <= w).unwrap_or(&[]);
    let mut spans = Vec::new();
    for (n, (k, what)) in keys.iter().enumerate() {
        if n > 0 {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled((*k).to_owned(), t.key));
        spans.push(Span::styled(format!(" {what}"), t.dim));
    }
    Line::from(spans)
}

/// What each kind of block asks of the learner, beside the map on a wide window.
const GUIDE: &[(&str, &str)] = &[
    (
        "predict",
        "guess how the real code judges each row, then reveal what it returns",
    ),
    (
        "playground",
        "edit a call's arguments and switch a check off: which rows flip?",
    ),
    ("trace", "play a real orchestrator run, event by event"),
    ("quiz", "pick an answer; every choice explains itself"),
    ("explain", "answer in your own words, then compare"),
    ("checklist", "tick what you can now do"),
];

/// Where the guide goes beside the course map in `inner` (`map_w` columns of it), if the
/// window is wide enough for it.
pub(super) fn guide_area(inner: Rect, map_w: u16) -> Option<Rect> {
    (map_w < inner.width).then(|| Rect {
        x: inner.x + map_w + 2,
        y: inner.y + 3,
        width: inner.width - map_w - 2,
        height: inner.height.saturating_sub(5),
    })
}

/// The row under the guide's last line (the top of `inner` when there is no guide).
pub(super) fn guide_end(t: &Theme, inner: Rect, map_w: u16) -> u16 {
    guide_area(inner, map_w).map_or(inner.y, |area| {
        let shown = guide_lines(t, usize::from(area.width)).len();
        area.y + u16::try_from(shown.min(usize::from(area.height))).unwrap_or(0)
    })
}

/// The guide to a lesson's blocks and to when they are done.
pub(super) fn render_guide(t: &Theme, area: Rect, buf: &mut Buffer) {
    let lines = guide_lines(t, usize::from(area.width));
    for (n, line) in lines.iter().take(usize::from(area.height)).enumerate() {
        let y = area.y + u16::try_from(n).unwrap_or(0);
        buf.set_line(area.x, y, line, area.width);
    }
}

/// The guide's lines in `w` columns.
fn guide_lines(t: &Theme, w: usize) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled("How a lesson works", t.heading)];
    let intro = "Read a page, then use its blocks: Tab reaches the next one, Enter goes in, Esc comes back out.";
    lines.extend(
        crate::text::wrap(intro, w)
            .into_iter()
            .map(|l| Line::styled(l, t.base)),
    );
    lines.push(Line::default());
    for (kind, what) in GUIDE {
        for (n, part) in crate::text::wrap(what, w.saturating_sub(12))
            .into_iter()
            .enumerate()
        {
            let label = if n == 0 { *kind } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!("{label:<11} "), t.accent),
                Span::styled(part, t.base),
            ]));
        }
    }
    lines.push(Line::default());
    let rule = format!(
        "A block is done when its frame says {} done; a lesson, when every page has been opened and every block is done.",
        t.sym.ok
    );
    lines.extend(
        crate::text::wrap(&rule, w)
            .into_iter()
            .map(|l| Line::styled(l, t.dim)),
    );
    lines
}
