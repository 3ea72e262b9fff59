//! A key bar, as drawn at the bottom of every screen. The way out and the help (`q quit`, `? help`,
//! or an entered block's own way out) keep their place on the right whatever the width;
//! the rest flows from the left by priority: the keys of what has focus, then scrolling
//! (only where something scrolls), then the others. When room is short the least needed
//! keys take their shorter words first, and only then are keys left out, from the least
//! needed on, with `…` in their place (the help lists every key). Nothing is cut mid-word.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::text::{truncate, width as width_of};
use crate::tui::keys::Command;
use crate::tui::theme::Theme;

/// The digit keys that pick one of `$n` choices, as a key bar names them: `1`, `1-2` up to
/// `1-9` (digits go no further), between `$before` and `$after`
/// (`pick_keys!("", 4, "/Left/Right")` is `1-4/Left/Right`). Every block and screen that
/// takes a digit names its digits with this, so none offers a digit that picks nothing.
macro_rules! pick_keys {
    ($n:expr) => {
        $crate::tui::draw::keybar::pick_keys!("", $n, "")
    };
    ($before:literal, $n:expr, $after:literal) => {
        match $n {
            0 | 1 => concat!($before, "1", $after),
            2 => concat!($before, "1-2", $after),
            3 => concat!($before, "1-3", $after),
            4 => concat!($before, "1-4", $after),
            5 => concat!($before, "1-5", $after),
            6 => concat!($before, "1-6", $after),
            7 => concat!($before, "1-7", $after),
            8 => concat!($before, "1-8", $after),
            _ => concat!($before, "1-9", $after),
        }
    };
}
pub(crate) use pick_keys;

/// How much a key matters when the bar is short of room; the first stay longest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Rank {
    /// Quitting and the help (or the way back to where the help is): always shown.
    Always,
    /// The keys of what has focus.
    Focus,
    /// Scrolling, for a screen that scrolls.
    Scroll,
    /// Everything else worth a place in the bar.
    Rest,
}

/// One entry of a key bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BarKey {
    pub keys: &'static str,
    pub what: &'static str,
    /// The keys and words used when room is short.
    pub short: (&'static str, &'static str),
    pub rank: Rank,
}

impl BarKey {
    pub(crate) const fn new(keys: &'static str, what: &'static str, rank: Rank) -> BarKey {
        BarKey {
            keys,
            what,
            short: (keys, what),
            rank,
        }
    }

    /// The same entry with a shorter form for a narrow bar.
    pub(crate) const fn brief(self, keys: &'static str, what: &'static str) -> BarKey {
        BarKey {
            short: (keys, what),
            ..self
        }
    }

    /// The entry of command `c`.
    pub(crate) fn of(c: &Command, rank: Rank) -> BarKey {
        BarKey::new(c.label, c.what, rank).brief(c.short.0, c.short.1)
    }

    fn form(&self, short: bool) -> Entry {
        if short {
            self.short
        } else {
            (self.keys, self.what)
        }
    }
}

/// An entry as drawn: its keys and its words.
type Entry = (&'static str, &'static str);

/// Cells an entry takes: ` keys what `.
fn cells((k, w): (&str, &str)) -> usize {
    width_of(k) + width_of(w) + 3
}

/// What a bar shows: the entries of each line (keys, words), the pinned entries on the right
/// of the first line, and whether keys were left out.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    pub lines: Vec<Vec<Entry>>,
    pub right: Vec<Entry>,
    pub more: bool,
}

/// Choose what a bar `width` cells wide and `rows` lines high shows of `keys`, keeping
/// their order on screen; `more_w` is the width of the mark for keys left out.
pub(crate) fn plan(keys: &[BarKey], width: usize, rows: usize, more_w: usize) -> Plan {
    let rows = rows.max(1);
    let pinned: Vec<&BarKey> = keys.iter().filter(|k| k.rank == Rank::Always).collect();
    // The pinned entries in full, or shortened, or as many as fit.
    let mut right: Vec<_> = pinned.iter().map(|k| k.form(false)).collect();
    if right.iter().map(|e| cells(*e)).sum::<usize>() > width {
        right = pinned.iter().map(|k| k.form(true)).collect();
    }
    while right.iter().map(|e| cells(*e)).sum::<usize>() > width {
        right.pop();
    }
    let right_w: usize = right.iter().map(|e| cells(*e)).sum();
    let rest: Vec<&BarKey> = keys.iter().filter(|k| k.rank != Rank::Always).collect();
    // The order in which entries give way: the least needed, then the last, first.
    let mut victims: Vec<usize> = (0..rest.len()).collect();
    victims.sort_by_key(|&i| (std::cmp::Reverse(rest[i].rank), std::cmp::Reverse(i)));
    for dropped in 0..=victims.len() {
        let out = &victims[..dropped];
        let kept: Vec<usize> = victims[dropped..].to_vec();
        for shortened in 0..=kept.len() {
            let short = &kept[..shortened];
            let entries: Vec<_> = (0..rest.len())
                .filter(|i| !out.contains(i))
                .map(|i| rest[i].form(short.contains(&i)))
                .collect();
            let more = (dropped > 0).then_some(more_w);
            if let Some(lines) = flow(&entries, more, width.saturating_sub(right_w), width, rows) {
                return Plan {
                    lines,
                    right,
                    more: dropped > 0,
                };
            }
        }
    }
    // Not even the mark fits beside the pinned entries.
    Plan {
        lines: vec![Vec::new()],
        right,
        more: false,
    }
}

/// Lay `entries` (and the mark for left-out keys, `more` wide) over `rows` lines, the first
/// `first_w` wide and the others `width`; `None` when they do not fit.
fn flow(
    entries: &[Entry],
    more: Option<usize>,
    first_w: usize,
    width: usize,
    rows: usize,
) -> Option<Vec<Vec<Entry>>> {
    let mut lines = vec![Vec::new()];
    let mut used = 0;
    let sizes = entries.iter().map(|e| Some(cells(*e))).chain([more]);
    for (n, size) in sizes.enumerate() {
        let Some(need) = size else { continue };
        let room = if lines.len() == 1 { first_w } else { width };
        if used + need > room {
            if lines.len() == rows {
                return None;
            }
            lines.push(Vec::new());
            used = 0;
            if need > width {
                return None;
            }
        }
        used += need;
        if let Some(e) = entries.get(n) {
            lines.last_mut()?.push(*e);
        }
    }
    Some(lines)
}

/// Draw a bar of `keys` into `area` (one line per row); `status`, when given, takes the
/// place of the flowing keys on the first line.
pub(crate) fn render_keys(
    keys: &[BarKey],
    status: Option<&str>,
    t: &Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    buf.set_style(area, t.bar);
    let more = format!(" {} ", t.sym.ellipsis);
    let width = usize::from(area.width);
    let p = plan(keys, width, usize::from(area.height), width_of(&more));
    let entry = |(k, w): (&str, &str)| {
        [
            Span::styled(format!(" {k} "), t.bar.patch(t.key)),
            Span::styled(format!("{w} "), t.bar),
        ]
    };
    let right: Vec<Span> = p.right.iter().flat_map(|e| entry(*e)).collect();
    let right_w: usize = right.iter().map(Span::width).sum();
    let mut lines: Vec<Line> = if let Some(status) = status {
        let s = truncate(&format!(" {status} "), width - right_w, t.sym.ellipsis);
        vec![Line::from(Span::styled(s, t.bar.patch(t.warn)))]
    } else {
        p.lines
            .iter()
            .map(|l| Line::from(l.iter().flat_map(|e| entry(*e)).collect::<Vec<_>>()))
            .collect()
    };
    if p.more
        && status.is_none()
        && let Some(last) = lines.last_mut()
    {
        last.push_span(Span::styled(more, t.bar.patch(t.key)));
    }
    for (n, line) in lines.iter().enumerate() {
        let y = area.y + u16::try_from(n).unwrap_or(0);
        buf.set_line(area.x, y, line, area.width);
    }
    if !right.is_empty() {
        let x = area.right() - u16::try_from(right_w).unwrap_or(0);
        buf.set_line(x, area.y, &Line::from(right), area.width);
    }
}

/// Do two key labels ("Enter", "Enter/1-9", "j/Down") name a common key?
pub(crate) fn same_key(a: &str, b: &str) -> bool {
    a.split('/').any(|x| b.split('/').any(|y| x == y))
}

#[cfg(test)]
mod tests {
    #[test]
    fn digit_keys_go_as_far_as_the_choices_and_never_past_nine() {
        assert_eq!(pick_keys!(1), "1");
        assert_eq!(pick_keys!(3), "1-3");
        assert_eq!(pick_keys!(9), "1-9");
        assert_eq!(pick_keys!(12), "1-9");
        assert_eq!(pick_keys!("Enter/", 4, ""), "Enter/1-4");
        assert_eq!(pick_keys!("", 5, "/Left/Right"), "1-5/Left/Right");
    }

    use super::*;

    const KEYS: [BarKey; 6] = [
        BarKey::new("n/p", "next/prev page", Rank::Focus).brief("n/p", "pages"),
        BarKey::new("Tab", "next block", Rank::Focus).brief("Tab", "blocks"),
        BarKey::new("s", "show lessons", Rank::Rest).brief("s", "lessons"),
        BarKey::new("j/Down", "scroll down", Rank::Scroll).brief("j/k", "scroll"),
        BarKey::new("q", "quit", Rank::Always),
        BarKey::new("?", "help", Rank::Always),
    ];

    fn line_w(l: &[(&str, &str)]) -> usize {
        l.iter().map(|e| cells(*e)).sum()
    }

    #[test]
    fn quit_and_help_stay_and_nothing_overflows_at_any_width() {
        for width in 16..=200 {
            for rows in 1..=2 {
                let p = plan(&KEYS, width, rows, 3);
                assert_eq!(p.right, [("q", "quit"), ("?", "help")], "{width}");
                assert!(p.lines.len() <= rows);
                for (n, l) in p.lines.iter().enumerate() {
                    let mut used = line_w(l);
                    if n == 0 {
                        used += line_w(&p.right);
                    }
                    if p.more && n + 1 == p.lines.len() {
                        used += 3;
                    }
                    assert!(used <= width, "{width}x{rows}: {p:?}");
                }
            }
        }
    }

    #[test]
    fn labels_shorten_before_any_key_is_left_out() {
        // In full: 20 + 16 + 16 + 20 = 72 beside 16 pinned; short: 12 + 13 + 12 + 12 = 49.
        let p = plan(&KEYS, 80, 1, 3);
        assert!(!p.more);
        assert_eq!(p.lines[0].len(), 4);
        assert!(p.lines[0].contains(&("j/k", "scroll")));
        let wide = plan(&KEYS, 120, 1, 3);
        assert!(wide.lines[0].contains(&("j/Down", "scroll down")));
        assert!(wide.lines[0].contains(&("n/p", "next/prev page")));
    }

    #[test]
    fn the_least_needed_give_way_first() {
        // The least needed is shortened first: the lesson toggle, then scrolling.
        let p = plan(&KEYS, 85, 1, 3);
        assert!(p.lines[0].contains(&("s", "lessons")), "{p:?}");
        assert!(p.lines[0].contains(&("n/p", "next/prev page")), "{p:?}");
        // Short of room even for short words: the lesson toggle goes, then scrolling.
        let p = plan(&KEYS, 58, 1, 3);
        assert!(p.more);
        assert!(!p.lines[0].iter().any(|e| e.0 == "s"), "{p:?}");
        assert!(p.lines[0].contains(&("j/k", "scroll")), "{p:?}");
        let p = plan(&KEYS, 50, 1, 3);
        assert_eq!(p.lines[0], [("n/p", "pages"), ("Tab", "blocks")], "{p:?}");
    }
}
