//! Where the executor playground's parts go. From [`WIDE`] columns the tool field, the
//! trusted context, the arguments beside the envelope and the verdict make a column on
//! the left, as tall as their text needs, and the rules with the rows that flip take the
//! column beside it, its whole height. Narrower, everything goes in one column: the rules
//! beside the rows that flip come last.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};

use super::ExecutorEngine;
use crate::executor::Safeguard;
use crate::tui::blocks::common;
use crate::tui::blocks::playground::side::{
    ARGS_LEAST, ARGS_SPARE, EDITOR_H, EDITOR_LEAST, WIDE, body_height, columns, draw_verdict,
    rows_u16,
};
use crate::tui::blocks::playground::{Canvas, Panel, Shell};
use crate::tui::theme::Theme;

/// Where the parts of a wide block go: the left column (the tool field and the context
/// at its top), the argument editor with the envelope, the verdict, the side column.
struct Wide {
    left: Rect,
    eds: Rect,
    result: Rect,
    side: Rect,
}

fn theme() -> Theme {
    Theme::new(crate::tui::theme::ThemeName::Mono, false)
}

impl ExecutorEngine {
    fn result_height(&self, width: u16, off: Option<Safeguard>) -> u16 {
        let n = self.result_lines(&theme(), usize::from(width), off).len();
        u16::try_from(n).unwrap_or(u16::MAX)
    }

    /// Rows the verdict takes in one column `width` wide, in the marks of the last draw.
    fn drawn_rows(&self, shell: &Shell<Safeguard>, width: u16) -> u16 {
        let lines = self.result_lines(&shell.drawn_theme(), usize::from(width), shell.off());
        rows_u16(lines.len())
    }

    /// Rows the envelope needs beside the argument editor in `eds` columns.
    fn envelope_rows(&self, eds: u16) -> u16 {
        let w = (eds - eds / 2).saturating_sub(1);
        let n = self
            .envelope_lines(&theme(), usize::from(w), usize::MAX)
            .len();
        u16::try_from(n).unwrap_or(u16::MAX)
    }

    /// Rows of the argument editor in one column `eds` wide when `room` rows are free for
    /// it: [`EDITOR_H`] at least, its whole text when there is room.
    fn editor_rows(&self, eds: u16, room: u16) -> u16 {
        let full = self.args.full_height(eds / 2).max(self.envelope_rows(eds));
        full.min(room).max(EDITOR_H)
    }

    /// Rows of the argument editor and the envelope beside the side column, `eds` wide:
    /// what they want (the arguments' text and a few rows to type into) and what they
    /// keep at least (the arguments' text and the whole envelope).
    fn wide_rows(&self, eds: u16) -> (u16, u16) {
        let args = self.args.full_height(eds / 2);
        let env = self.envelope_rows(eds);
        let least = args.max(env).max(ARGS_LEAST);
        (least.max(args + ARGS_SPARE), least)
    }

    fn wide_parts(&self, shell: &Shell<Safeguard>, inner: Rect) -> Wide {
        let (left, side) = columns(inner, 11);
        let top = self.top_rows(left.width).min(left.height);
        let res = self.result_height(left.width, shell.off());
        let room = left.height.saturating_sub(top + res);
        let (want, least) = self.wide_rows(left.width);
        let eds = Rect {
            y: left.y + top,
            height: want.min(room).max(least.min(left.height - top)),
            ..left
        };
        let result = Rect {
            y: eds.bottom(),
            height: res.min(left.bottom().saturating_sub(eds.bottom())),
            ..left
        };
        Wide {
            left,
            eds,
            result,
            side,
        }
    }

    /// The block's height at `width` when the page can give it `available` rows (0: just
    /// what it needs). Wide: the taller of the two columns, no taller than the page can
    /// show as long as each keeps its least.
    pub(super) fn height_in(&self, shell: &Shell<Safeguard>, width: u16, available: u16) -> u16 {
        let inner = width.saturating_sub(2);
        if inner >= WIDE {
            let (left, side) = columns(Rect::new(0, 0, inner, 0), 11);
            let fixed = self.top_rows(left.width) + self.result_height(left.width, shell.off());
            let (want, least) = self.wide_rows(left.width);
            let want = (fixed + want).max(shell.side_height(side.width));
            let least = (fixed + least).max(shell.side_least(side.width));
            return body_height(want, least, available) + 2;
        }
        let rules = shell.under_height(inner);
        let res = self.drawn_rows(shell, inner);
        let fixed = 2 + self.top_rows(inner) + res + rules;
        fixed + self.editor_rows(inner, available.saturating_sub(fixed))
    }

    pub(super) fn render_in(&self, c: &Canvas<Safeguard>, inner: Rect, buf: &mut Buffer) {
        let Canvas { shell, theme, show } = *c;
        if inner.width >= WIDE {
            let parts = self.wide_parts(shell, inner);
            self.draw_top(c, parts.left, buf);
            self.draw_editors(c, parts.eds, buf);
            let res = self.result_lines(theme, usize::from(parts.result.width), shell.off());
            let spill = draw_verdict(&res, parts.result, parts.left.bottom(), buf);
            shell.draw_side(theme, (parts.side, spill), buf, show);
            return;
        }
        let rest = self.draw_top(c, inner, buf);
        let res = self.result_lines(theme, rest.width as usize, shell.off());
        let fixed = res.len() as u16 + shell.under_rows(theme, inner.width);
        // At least EDITOR_H as measured; fewer when drawn in longer marks than measured.
        let eh = rest
            .height
            .saturating_sub(fixed)
            .max(EDITOR_LEAST)
            .min(rest.height);
        let rh = (res.len() as u16).min(rest.height.saturating_sub(eh));
        let [eds, ra, rules] = rest.layout(&Layout::vertical([
            Constraint::Length(eh),
            Constraint::Length(rh),
            Constraint::Fill(1),
        ]));
        self.draw_editors(c, eds, buf);
        common::draw_lines(ra, buf, &res, 0);
        shell.draw_under(theme, rules, buf, show);
    }

    /// The row (from the block's top border) the reader keeps in view: the line being
    /// typed in the arguments, the rule cursor, else the verdict.
    pub(super) fn focus_row(&self, shell: &Shell<Safeguard>, width: u16) -> u16 {
        let inner = width.saturating_sub(2);
        let body = self.height_in(shell, width, shell.room()).saturating_sub(2);
        let rules = !shell.editing() && shell.focus() == Panel::Rules;
        let (eds, verdict) = if inner >= WIDE {
            let parts = self.wide_parts(shell, Rect::new(0, 0, inner, body));
            if rules {
                return 1 + parts.side.y + shell.rule_row();
            }
            (parts.eds, parts.result.y)
        } else {
            let top = self.top_rows(inner);
            let res = self.drawn_rows(shell, inner);
            let eh = body.saturating_sub(top + res + shell.under_height(inner));
            if rules {
                return 1 + top + eh + res + shell.rule_row();
            }
            (Rect::new(0, top, inner, eh), top + eh)
        };
        if shell.edits(Panel::Args) {
            // The editor box has a top border; it scrolls past its height.
            let row = (self.args.wrapped((eds.width / 2).saturating_sub(2)).1 as u16)
                .min(eds.height.saturating_sub(3));
            return 1 + eds.y + 1 + row;
        }
        1 + verdict
    }

    /// The argument editor beside the envelope.
    fn draw_editors(&self, c: &Canvas<Safeguard>, eds: Rect, buf: &mut Buffer) {
        let Canvas { shell, theme, show } = *c;
        let [aa, ea] = eds.layout(&Layout::horizontal([
            Constraint::Percentage(50),
            Constraint::Percentage(50),
        ]));
        self.args.render(
            aa,
            buf,
            theme,
            shell.edits(Panel::Args),
            "arguments",
            shell.shows(Panel::Args, show),
        );
        let ea = Rect {
            x: ea.x + 1,
            width: ea.width.saturating_sub(1),
            ..ea
        };
        let env = self.envelope_lines(theme, ea.width as usize, ea.height as usize);
        common::draw_lines(ea, buf, &env, 0);
    }
}
