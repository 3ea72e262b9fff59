//! Where the validator playground's parts go. From [`WIDE`] columns the schema picker, the
//! two editors and the verdict make a column on the left, each editor as tall as its text
//! (the arguments a few rows more, to type into), and the rules with the rows that flip
//! take the column beside it, its whole height: rows that do not fit scroll there.
//! Narrower, everything goes in one column: the picker, the editors side by side, the
//! verdict, the rules beside the rows that flip.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};

use super::ValidatorEngine;
use crate::tui::blocks::common;
use crate::tui::blocks::editor::Editor;
use crate::tui::blocks::playground::side::{
    ARGS_LEAST, ARGS_SPARE, EDITOR_H, EDITOR_LEAST, WIDE, body_height, columns, draw_verdict,
};
use crate::tui::blocks::playground::{Canvas, Panel, Shell};
use crate::validate::Rule;

/// Rows the schema box takes at least beside the side column, borders included (it
/// scrolls when its text needs more than the block has).
const SCHEMA_LEAST: u16 = 6;

/// Where the parts of a wide block go.
struct Wide {
    picker: Rect,
    schema: Rect,
    args: Rect,
    result: Rect,
    side: Rect,
    /// The bottom of the left column.
    bottom: u16,
}

impl ValidatorEngine {
    pub(super) fn wide(width: u16) -> bool {
        width >= WIDE
    }

    /// Rows the verdict takes in one column `width` wide, in the marks of the last draw.
    fn drawn_rows(&self, shell: &Shell<Rule>, width: u16) -> u16 {
        let lines = self.result_lines(&shell.drawn_theme(), usize::from(width), shell.off());
        u16::try_from(lines.len()).unwrap_or(u16::MAX)
    }

    /// Rows of the schema and the arguments boxes beside the side column at `width` when
    /// `room` rows are left for both, borders included. Each gets a few rows first, then
    /// the arguments their whole text, the schema its whole text, and the arguments
    /// [`ARGS_SPARE`] more (at least [`ARGS_LEAST`]): a box that gets less than its text
    /// scrolls.
    fn wide_boxes(&self, width: u16, room: u16) -> (u16, u16) {
        let schema = self.schema_view(width).full_height(width);
        let args = self.args_editor.full_height(width);
        let mut left = room;
        let mut take = |want: u16, have: u16| {
            let got = want.saturating_sub(have).min(left);
            left -= got;
            have + got
        };
        let s = take(schema.min(SCHEMA_LEAST), 0);
        let a = take(ARGS_LEAST, 0);
        let a = take(args, a);
        let s = take(schema, s);
        let a = take((args + ARGS_SPARE).max(ARGS_LEAST), a);
        (s, a)
    }

    /// Where the parts of a wide block go in `inner`.
    fn wide_parts(&self, shell: &Shell<Rule>, inner: Rect) -> Wide {
        let (left, side) = columns(inner, 9);
        let ph = self.picker_height(left.width).min(left.height);
        let res = self.result_height(left.width, shell.off());
        let room = left.height.saturating_sub(ph + res);
        let (s, a) = self.wide_boxes(left.width, room);
        let picker = Rect { height: ph, ..left };
        let schema = Rect {
            y: picker.bottom(),
            height: s,
            ..left
        };
        let args = Rect {
            y: schema.bottom(),
            height: a,
            ..left
        };
        let result = Rect {
            y: args.bottom(),
            height: res.min(left.bottom().saturating_sub(args.bottom())),
            ..left
        };
        Wide {
            picker,
            schema,
            args,
            result,
            side,
            bottom: left.bottom(),
        }
    }

    /// The block's inner height when wide: the taller of the two columns, but no taller
    /// than the page can show (`available`, 0: no limit) as long as the left column keeps
    /// the schema's least rows and the whole arguments, and the side column its least.
    fn wide_height(&self, shell: &Shell<Rule>, inner: u16, available: u16) -> u16 {
        let (left, side) = columns(Rect::new(0, 0, inner, 0), 9);
        let fixed = self.picker_height(left.width) + self.result_height(left.width, shell.off());
        let (s, a) = self.wide_boxes(left.width, u16::MAX / 4);
        let schema = self.schema_view(left.width).full_height(left.width);
        let args = self.args_editor.full_height(left.width).max(ARGS_LEAST);
        let least = (fixed + schema.min(SCHEMA_LEAST) + args).max(shell.side_least(side.width));
        let want = (fixed + s + a).max(shell.side_height(side.width));
        body_height(want, least, available)
    }

    fn render_wide(&self, c: &Canvas<Rule>, inner: Rect, buf: &mut Buffer) {
        let Canvas { shell, theme, show } = *c;
        let parts = self.wide_parts(shell, inner);
        let picker = self.picker_lines(
            theme,
            shell.shows(Panel::Schema, show),
            usize::from(parts.picker.width),
        );
        common::draw_lines(parts.picker, buf, &picker, 0);
        self.draw_editors(c, parts.schema, parts.args, buf);
        let res = self.result_lines(theme, usize::from(parts.result.width), shell.off());
        let spill = draw_verdict(&res, parts.result, parts.bottom, buf);
        shell.draw_side(theme, (parts.side, spill), buf, show);
    }

    /// One column: picker, the editors side by side, results, rules. The editors take
    /// the rows the other parts leave.
    fn render_narrow(&self, c: &Canvas<Rule>, inner: Rect, buf: &mut Buffer) {
        let Canvas { shell, theme, show } = *c;
        let res = self.result_lines(theme, inner.width as usize, shell.off());
        let picker = self.picker_lines(
            theme,
            shell.shows(Panel::Schema, show),
            inner.width as usize,
        );
        let ph = (picker.len() as u16)
            .min(inner.height.saturating_sub(1))
            .max(1);
        let fixed = res.len() as u16 + shell.under_rows(theme, inner.width);
        // At least EDITOR_H as measured; fewer when drawn in longer marks than measured.
        let eh = inner
            .height
            .saturating_sub(ph + fixed)
            .max(EDITOR_LEAST)
            .min(inner.height.saturating_sub(ph));
        let rest = inner.height.saturating_sub(ph + eh);
        let rh = (res.len() as u16).min(rest);
        let [pick, eds, ra, rules] = inner.layout(&Layout::vertical([
            Constraint::Length(ph),
            Constraint::Length(eh),
            Constraint::Length(rh),
            Constraint::Fill(1),
        ]));
        common::draw_lines(pick, buf, &picker, 0);
        let [sa, aa] = eds.layout(&Layout::horizontal([
            Constraint::Percentage(50),
            Constraint::Percentage(50),
        ]));
        self.draw_editors(c, sa, aa, buf);
        common::draw_lines(ra, buf, &res, 0);
        shell.draw_under(theme, rules, buf, show);
    }

    pub(super) fn render_in(&self, c: &Canvas<Rule>, inner: Rect, buf: &mut Buffer) {
        if Self::wide(inner.width) {
            self.render_wide(c, inner, buf);
        } else {
            self.render_narrow(c, inner, buf);
        }
    }

    /// The block's height at `width` when the page can give it `available` rows (0: just
    /// what it needs). In one column the editors show their whole text when there is room,
    /// at least [`EDITOR_H`] rows.
    pub(super) fn height_in(&self, shell: &Shell<Rule>, width: u16, available: u16) -> u16 {
        let inner = width.saturating_sub(2);
        if Self::wide(inner) {
            return self.wide_height(shell, inner, available) + 2;
        }
        let box_w = inner / 2;
        let full = |e: &Editor| e.full_height(box_w).max(EDITOR_H);
        let grown = full(&self.schema_view(box_w)).max(full(&self.args_editor));
        // What the page sees at first: editors up to a modest size, so a short window
        // still shows the verdict; more room lets them show everything.
        let base = grown.min(EDITOR_H + 4);
        let fixed =
            self.picker_height(inner) + self.drawn_rows(shell, inner) + shell.under_height(inner);
        let room = available.saturating_sub(2 + fixed);
        fixed + grown.min(room).max(base) + 2
    }

    /// The row (from the block's top border) the reader keeps in view: the schema picker
    /// while choosing a schema, the rule cursor, the line being typed, else the verdict.
    pub(super) fn focus_row(&self, shell: &Shell<Rule>, width: u16) -> u16 {
        let inner = width.saturating_sub(2);
        if !shell.editing() && shell.focus() == Panel::Schema {
            return 1;
        }
        let body = self.height_in(shell, width, shell.room()).saturating_sub(2);
        let rules = !shell.editing() && shell.focus() == Panel::Rules;
        let (schema, args, verdict) = if Self::wide(inner) {
            let parts = self.wide_parts(shell, Rect::new(0, 0, inner, body));
            if rules {
                return 1 + parts.side.y + shell.rule_row();
            }
            (parts.schema, parts.args, parts.result.y)
        } else {
            let ph = self.picker_height(inner);
            let res = self.drawn_rows(shell, inner);
            let eds = body.saturating_sub(ph + res + shell.under_height(inner));
            if rules {
                return 1 + ph + eds + res + shell.rule_row();
            }
            let boxes = Rect::new(0, ph, inner / 2, eds);
            (boxes, boxes, ph + eds)
        };
        if !shell.editing() {
            return 1 + verdict;
        }
        let (area, ed) = match shell.focus() {
            Panel::Schema => (schema, &self.schema_editor),
            _ => (args, &self.args_editor),
        };
        let row =
            (ed.wrapped(area.width.saturating_sub(2)).1 as u16).min(area.height.saturating_sub(3));
        1 + area.y + 1 + row
    }

    fn draw_editors(&self, c: &Canvas<Rule>, schema_area: Rect, args_area: Rect, buf: &mut Buffer) {
        let Canvas { shell, theme, show } = *c;
        self.schema_w.set(schema_area.width);
        let view = if shell.edits(Panel::Schema) {
            std::borrow::Cow::Borrowed(&self.schema_editor)
        } else {
            self.schema_view(schema_area.width)
        };
        view.render(
            schema_area,
            buf,
            theme,
            shell.edits(Panel::Schema),
            "schema",
            shell.shows(Panel::Schema, show),
        );
        self.schema_editor.drawn_as(&view);
        self.args_editor.render(
            args_area,
            buf,
            theme,
            shell.edits(Panel::Args),
            "arguments",
            shell.shows(Panel::Args, show),
        );
    }
}
