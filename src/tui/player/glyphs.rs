//! The player's marks and bar glyphs, Unicode and ASCII, and the styles they take. Every
//! mark also has a word (the legend, the lane notes, the detail pane say it), so nothing is
//! told by colour alone.

use ratatui::style::{Modifier, Style};

use crate::orchestrator::{Category, Outcome};
use crate::tui::theme::Theme;

use crate::replay::run::SegKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glyphs {
    pub run: &'static str,
    pub model: &'static str,
    pub wait: &'static str,
    pub backoff: &'static str,
    pub ghost: &'static str,
    pub ok: &'static str,
    pub fail: &'static str,
    pub timeout: &'static str,
    pub refused: &'static str,
    pub not_found: &'static str,
    pub cancelled: &'static str,
    pub running: &'static str,
    pub warn: &'static str,
    pub cursor: &'static str,
    pub now: &'static str,
    pub deadline: &'static str,
    pub cancel: &'static str,
    pub stop: &'static str,
    pub axis: &'static str,
    pub tick: &'static str,
    pub gauge_full: &'static str,
    pub gauge_empty: &'static str,
    /// A cell filled a part (eighths: index 1 is an eighth, 7 seven eighths).
    pub gauge_part: [&'static str; 8],
    pub differs: &'static str,
    pub density: [&'static str; 9],
    /// Between items of a line.
    pub sep: &'static str,
    pub dash: &'static str,
    pub arrow: &'static str,
    pub ellipsis: &'static str,
    pub lquote: &'static str,
    pub rquote: &'static str,
    pub left_right: &'static str,
    pub up_down: &'static str,
    /// Where a line break was, in text drawn on one line.
    pub newline: &'static str,
    /// Text from the run gets the ASCII stand-ins for controls.
    pub ascii: bool,
}

const UNICODE: Glyphs = Glyphs {
    run: "█",
    model: "▓",
    wait: "·",
    backoff: "┄",
    ghost: "░",
    ok: "✓",
    fail: "✕",
    timeout: "⧗",
    refused: "⊘",
    not_found: "∅",
    cancelled: "■",
    running: "◐",
    warn: "⚑",
    cursor: "│",
    now: "▼",
    deadline: "┊",
    cancel: "╎",
    stop: "▏",
    axis: "─",
    tick: "┼",
    gauge_full: "█",
    gauge_empty: "░",
    gauge_part: ["░", "▏", "▎", "▍", "▌", "▋", "▊", "▉"],
    differs: "≠",
    density: [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"],
    sep: " · ",
    dash: "—",
    arrow: "→",
    ellipsis: "…",
    lquote: "\u{201c}",
    rquote: "\u{201d}",
    left_right: "←/→",
    up_down: "↑↓",
    newline: "␊",
    ascii: false,
};

const ASCII: Glyphs = Glyphs {
    run: "#",
    model: "=",
    wait: ".",
    backoff: "-",
    ghost: "%",
    ok: "o",
    fail: "x",
    timeout: "T",
    refused: "/",
    not_found: "?",
    cancelled: "C",
    running: "~",
    warn: "!",
    cursor: "|",
    now: "v",
    deadline: ":",
    cancel: ";",
    stop: "I",
    axis: "-",
    tick: "^",
    gauge_full: "#",
    gauge_empty: ".",
    gauge_part: [".", ":", ":", ":", ":", ":", ":", ":"],
    differs: "*",
    density: [" ", ".", ":", "-", "=", "&", "*", "#", "@"],
    sep: " | ",
    dash: "-",
    arrow: "->",
    ellipsis: "...",
    lquote: "\"",
    rquote: "\"",
    left_right: "Left/Right",
    up_down: "Up/Down",
    newline: " / ",
    ascii: true,
};

impl Glyphs {
    pub fn for_theme(theme: &Theme) -> &'static Glyphs {
        if theme.ascii { &ASCII } else { &UNICODE }
    }

    pub fn seg(&self, kind: SegKind) -> &'static str {
        match kind {
            SegKind::Model => self.model,
            SegKind::Wait => self.wait,
            SegKind::Run => self.run,
            SegKind::Backoff => self.backoff,
            SegKind::Ghost => self.ghost,
        }
    }

    /// The mark an attempt ends with.
    pub fn outcome(&self, o: Outcome) -> &'static str {
        match o {
            Outcome::Ok => self.ok,
            Outcome::NotFound => self.not_found,
            Outcome::Forbidden => self.refused,
            Outcome::Timeout => self.timeout,
            Outcome::Error => self.fail,
            Outcome::Cancelled => self.cancelled,
        }
    }

    /// The mark a call's result carries.
    pub fn category(&self, c: Category) -> &'static str {
        match c {
            Category::Ok => self.ok,
            Category::NotFound => self.not_found,
            Category::Forbidden
            | Category::InvalidArguments
            | Category::UnknownTool
            | Category::BudgetExhausted => self.refused,
            Category::Timeout | Category::UnknownOutcome => self.timeout,
            Category::Cancelled => self.cancelled,
            Category::Error => self.fail,
        }
    }

    /// Text taken from the run (its name, title and note, a call's id and tool, a message,
    /// a result, the model's words) as this set draws it: cleaned here, whatever the run's
    /// source did, so a control shows as its stand-in (in ASCII for the ASCII set) and
    /// never reaches the terminal.
    pub fn shown(&self, text: &str) -> String {
        crate::sanitize::clean_as(text, false, self.ascii)
    }

    /// [`Glyphs::shown`] keeping the line breaks (a result's text, a note, an answer).
    pub fn shown_lines(&self, text: &str) -> String {
        crate::sanitize::clean_as(text, true, self.ascii)
    }

    /// Text from the run on one line: [`Glyphs::shown`], with its line breaks in this set's
    /// mark (a run of them as one in ASCII).
    pub fn one_line(&self, text: &str) -> String {
        let shown = self.shown(text);
        let line_break = crate::sanitize::ascii_stand_in('\n').unwrap_or("\n");
        if !self.ascii || !shown.contains(line_break) {
            return shown;
        }
        let mut out = String::with_capacity(shown.len());
        for (i, piece) in shown.split(line_break).enumerate() {
            if i > 0 && !out.ends_with(self.newline) {
                out.push_str(self.newline);
            }
            out.push_str(piece);
        }
        out
    }

    /// A density glyph for `n` of `max`.
    pub fn density(&self, n: usize, max: usize) -> &'static str {
        if n == 0 || max == 0 {
            return self.density[0];
        }
        let level = (n * 8).div_ceil(max).clamp(1, 8);
        self.density[level]
    }
}

/// The style of an outcome mark.
pub fn outcome_style(theme: &Theme, o: Outcome) -> Style {
    match o {
        Outcome::Ok | Outcome::NotFound => theme.ok,
        Outcome::Cancelled => theme.warn,
        _ => theme.bad,
    }
}

pub fn category_style(theme: &Theme, c: Category) -> Style {
    match c {
        Category::Ok | Category::NotFound => theme.ok,
        Category::Cancelled | Category::UnknownOutcome => theme.warn,
        _ => theme.bad,
    }
}

/// The style of a bar.
pub fn seg_style(theme: &Theme, kind: SegKind, outcome: Option<Outcome>, open: bool) -> Style {
    match kind {
        SegKind::Model => theme.heading,
        SegKind::Wait | SegKind::Backoff => theme.dim,
        SegKind::Ghost => theme.dim.add_modifier(Modifier::DIM),
        SegKind::Run if open => theme.accent,
        SegKind::Run => match outcome {
            Some(o) => outcome_style(theme, o),
            None => theme.accent,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every mark that stands for a moment or an outcome means one thing only, and none is
    /// `+`, the corner of an ASCII frame.
    #[test]
    fn marks_stay_distinct_in_ascii_and_unicode() {
        for g in [&ASCII, &UNICODE] {
            let marks = [
                g.ok,
                g.fail,
                g.timeout,
                g.refused,
                g.not_found,
                g.cancelled,
                g.running,
                g.warn,
                g.cursor,
                g.now,
                g.deadline,
                g.cancel,
                g.stop,
                g.tick,
                g.differs,
            ];
            for (i, a) in marks.iter().enumerate() {
                assert_ne!(*a, "+", "a mark is a frame corner");
                for b in &marks[i + 1..] {
                    assert_ne!(a, b, "two marks look the same");
                }
            }
            assert!(!g.density.contains(&"+"));
        }
    }

    #[test]
    fn in_ascii_a_line_break_is_drawn_in_ascii() {
        let cleaned = crate::sanitize::clean("booking?\n\n1. Trip", false);
        assert_eq!(UNICODE.one_line(&cleaned), "booking?␊␊1. Trip");
        assert_eq!(ASCII.one_line(&cleaned), "booking? / 1. Trip");
        assert_eq!(UNICODE.one_line("booking?\n\n1. Trip"), "booking?␊␊1. Trip");
        assert_eq!(ASCII.one_line("booking?\n\n1. Trip"), "booking? / 1. Trip");
    }

    #[test]
    fn text_from_the_run_is_shown_with_its_controls_as_stand_ins() {
        let evil = "evil\u{1b}[31mred\u{202e}";
        assert_eq!(UNICODE.shown(evil), "evil\u{241b}[31mred\u{fffd}");
        assert_eq!(ASCII.shown(evil), "evil<ESC>[31mred<?>");
        // Text a source cleaned already draws the same.
        assert_eq!(ASCII.shown(&UNICODE.shown(evil)), "evil<ESC>[31mred<?>");
        assert_eq!(UNICODE.shown_lines("a\u{1b}\nb"), "a\u{241b}\nb");
        assert_eq!(ASCII.one_line("a\u{1b}\nb"), "a<ESC> / b");
    }
}
