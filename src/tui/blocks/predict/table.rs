//! The table of rows (one line per row: what it is about, the pick, the real outcome),
//! where the table and the detail pane sit inside the border, and drawing both.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use crate::text::fit;
use crate::tui::blocks::common;
use crate::tui::theme::{Theme, ThemeName};

use super::PredictWidget;
use super::cells::{distinct_fit, for_theme, shared_starts};
use super::detail::Reach;
use super::rows::Row;

/// Inner width from which the row detail may go beside the table.
pub(super) const WIDE: u16 = 110;
/// The narrowest the detail pane gets beside the table.
const DETAIL_MIN: u16 = 44;
/// The first column's width the table makes room for beside the detail pane (a longer
/// cell keeps its start and its distinct end).
const ABOUT_ROOM: usize = 48;
/// Table rows shown at once in the stacked layout (the table scrolls around the cursor).
pub(super) const MAX_TABLE_ROWS: usize = 8;

/// How the table is drawn: the theme, whether the cursor shows, which keys reach the
/// block, and whether it is shown to a room (presenter mode).
#[derive(Clone, Copy)]
pub(super) struct Look<'a> {
    pub theme: &'a Theme,
    pub show_cursor: bool,
    pub reach: Reach,
    pub demo: bool,
}

/// Layout inside the border (coordinates relative to the inner area).
pub(super) struct Geometry {
    pub wide: bool,
    pub left_w: u16,
    /// Stacked: rows of the table (header included); wide: the left column's height.
    pub table_h: u16,
    /// Table lines scrolled away (stacked: data rows; wide: whole table lines).
    pub row_skip: usize,
    pub detail: Rect,
}

/// What the columns need, measured once from the rows (their cells and menus never change).
pub(super) struct Measure {
    /// The widest context cell.
    context: usize,
    /// The widest outcome word of any row's menu.
    picks: usize,
    /// The widest first cell (what a row is about), as drawn.
    about: usize,
    /// Per row, the characters its first cell shares at the start with the most alike
    /// other row: as drawn in full, and as drawn in ASCII.
    shared: [Vec<usize>; 2],
}

impl Measure {
    pub(super) fn new(rows: &[Row]) -> Measure {
        let widest = |f: &dyn Fn(&Row) -> usize| rows.iter().map(f).max().unwrap_or(0);
        let context = widest(&|r| crate::text::width(&r.cells()[1]));
        let picks = widest(&|r| {
            r.options()
                .iter()
                .map(|o| crate::text::width(o))
                .max()
                .unwrap_or(0)
        });
        let abouts = |ascii: bool| -> Vec<String> {
            rows.iter()
                .map(|r| for_theme(&r.cells()[0], ascii))
                .collect()
        };
        Measure {
            context,
            picks,
            about: abouts(false)
                .iter()
                .map(|a| crate::text::width(a))
                .max()
                .unwrap_or(0),
            shared: [shared_starts(&abouts(false)), shared_starts(&abouts(true))],
        }
    }
}

/// Column widths of the table at one width.
struct Columns {
    /// The first column (what is proposed) takes what the others leave.
    flex: usize,
    context: usize,
    you: usize,
    real: usize,
    /// "You" and "Real" share one column (the reveal replaces the prediction; the detail
    /// pane still shows both).
    compact: bool,
}

impl Columns {
    /// Cells every column but the first takes, the row number and gaps included.
    fn fixed(&self) -> usize {
        if self.compact {
            4 + self.context + 1 + self.real
        } else {
            4 + self.context + 1 + self.you + 1 + self.real
        }
    }
}

impl PredictWidget {
    /// The columns at `width`; in a demo "You" is never asked, so "Real" stands alone.
    fn columns(&self, width: usize, demo: bool) -> Columns {
        let [context, you, real] = self.fixture.widths;
        // Columns no wider than what they hold (the first column gets the rest).
        let context = self
            .measure
            .context
            .min(context.max(16))
            .max(self.fixture.headers[1].len());
        let picks = self.measure.picks;
        // Room for the longest outcome word (a mark and a space before it in "Real", the
        // widest mark being ASCII's FAIL), within bounds.
        let you = (picks + 1).clamp(4, you.max(14));
        let real = (picks + 5).clamp(6, real.max(17));
        let compact = demo || width < 4 + 24 + context + you + real + 3;
        // The context column is what a row is about, so it stays when narrow.
        let context = if compact && self.fixture.shrink_context {
            context.min(width / 5).max(6)
        } else {
            context
        };
        let mut cols = Columns {
            flex: 0,
            context,
            you,
            real,
            compact,
        };
        cols.flex = width.saturating_sub(cols.fixed() + 1).max(4);
        cols
    }

    /// Lines of the table: the header, then a line per row in view (at least one line).
    pub(super) fn table_len(&self) -> usize {
        1 + self.visible().len().max(1)
    }

    /// Lines `first..first + count` of the table (line 0 is the header), built for those
    /// lines only.
    pub(super) fn table_window(
        &self,
        look: Look,
        width: usize,
        first: usize,
        count: usize,
    ) -> Vec<Line<'static>> {
        let Look {
            theme,
            show_cursor,
            demo,
            ..
        } = look;
        let cols = self.columns(width, demo);
        let visible = self.visible();
        let shared = &self.measure.shared[usize::from(theme.ascii)];
        let mut out = Vec::new();
        // The rows these lines reach, as the header counts them.
        let shown = (
            first.saturating_sub(1),
            first
                .saturating_add(count)
                .saturating_sub(1)
                .min(visible.len()),
        );
        for k in first..first.saturating_add(count) {
            let Some(pos) = k.checked_sub(1) else {
                out.push(self.header_line(theme, &cols, demo, shown));
                continue;
            };
            match visible.get(pos) {
                Some(&i) => {
                    let here = show_cursor && pos == self.cursor;
                    out.push(self.row_line(theme, &cols, (i, here, demo), shared[i]));
                }
                None => break,
            }
        }
        out
    }

    /// The line naming the columns; while the table shows only some of its rows
    /// (`shown`: the first and the end of those drawn), its first column's name says which.
    fn header_line(
        &self,
        theme: &Theme,
        cols: &Columns,
        demo: bool,
        (from, to): (usize, usize),
    ) -> Line<'static> {
        let e = theme.sym.ellipsis;
        let [h1, h2] = self.fixture.headers;
        let total = self.visible().len();
        let h1 = if from > 0 || to < total {
            format!("{h1} (rows {}-{to} of {total})", from + 1)
        } else {
            h1.to_owned()
        };
        let mut header = vec![
            Span::styled(format!("    {} ", fit(&h1, cols.flex, e)), theme.dim),
            Span::styled(format!("{} ", fit(h2, cols.context, e)), theme.dim),
        ];
        if cols.compact {
            let head = if demo { "Real" } else { "You / real" };
            header.push(Span::styled(fit(head, cols.real, e), theme.dim));
        } else {
            header.push(Span::styled(
                format!("{} ", fit("You", cols.you, e)),
                theme.dim,
            ));
            header.push(Span::styled(fit("Real", cols.real, e), theme.dim));
        }
        Line::from(header)
    }

    /// Row `i`'s line (`here`: under the cursor; `demo`: shown to a room).
    fn row_line(
        &self,
        theme: &Theme,
        cols: &Columns,
        (i, here, demo): (usize, bool, bool),
        shared: usize,
    ) -> Line<'static> {
        let e = theme.sym.ellipsis;
        let row = &self.rows[i];
        let base = if here { theme.selected } else { theme.base };
        let [about, context] = row.cells().each_ref().map(|c| for_theme(c, theme.ascii));
        let pointer = if here { theme.sym.pointer } else { " " };
        let mut spans = vec![
            Span::styled(pointer.to_string(), theme.focus),
            Span::styled(format!("{:>2} ", i + 1), base),
            Span::styled(
                format!("{} ", distinct_fit(&about, shared, cols.flex, e)),
                base,
            ),
            Span::styled(format!("{} ", fit(&context, cols.context, e)), base),
        ];
        let you = match (row.pick_word(), row.locked) {
            // Nobody guesses in a demo: a row not shown yet is blank.
            (None, _) if demo => String::new(),
            (None, _) => theme.sym.pending.to_owned(),
            (Some(w), true) => w.to_owned(),
            (Some(w), false) => format!("{w}?"),
        };
        // Marks keep the row's own style under their colour (a selected row's highlight).
        let you_style = if row.locked {
            base
        } else {
            base.patch(theme.dim)
        };
        let real = match (&row.actual, row.revealed) {
            (Some(a), true) => {
                // A row shown without a prediction (presenter mode) is neither.
                let (mark, st) = if row.pick.is_none() {
                    (theme.sym.arrow, base)
                } else if row.is_right() {
                    (theme.sym.ok, base.patch(theme.ok))
                } else {
                    (theme.sym.bad, base.patch(theme.bad))
                };
                let text = format!("{mark} {}", a.outcome);
                Some(Span::styled(fit(&text, cols.real, e), st))
            }
            _ => None,
        };
        if cols.compact {
            spans.push(real.unwrap_or_else(|| Span::styled(fit(&you, cols.real, e), you_style)));
        } else {
            spans.push(Span::styled(
                format!("{} ", fit(&you, cols.you, e)),
                you_style,
            ));
            spans.push(real.unwrap_or_else(|| Span::styled(fit("", cols.real, e), base)));
        }
        Line::from(spans)
    }

    /// Where things go inside the border at this inner size (shared by `render`,
    /// `focus_line` and `handle_click`).
    pub(super) fn geometry(&self, inner_w: u16, inner_h: u16) -> Geometry {
        let table_len = self.table_len();
        if let Some(left_w) = self.beside(inner_w) {
            let skip = common::scroll_to(self.cursor + 1, inner_h as usize, table_len);
            return Geometry {
                wide: true,
                left_w,
                table_h: inner_h,
                row_skip: skip,
                detail: Rect {
                    x: left_w + 1,
                    y: 0,
                    width: inner_w.saturating_sub(left_w + 1),
                    height: inner_h,
                },
            };
        }
        let theme = Theme::new(ThemeName::Mono, false);
        let detail = self.detail_lines(&theme, inner_w as usize, (Reach::Focused, false));
        // The detail pane first (the selected row whole), the table takes the rest.
        let detail_h = (detail.len() as u16).min(inner_h.saturating_sub(2));
        let table_h = (table_len as u16)
            .min(inner_h.saturating_sub(detail_h))
            .max(inner_h.min(2));
        let rows_h = table_h.saturating_sub(1) as usize;
        let skip = common::scroll_to(self.cursor, rows_h, table_len.saturating_sub(1));
        Geometry {
            wide: false,
            left_w: inner_w,
            table_h,
            row_skip: skip,
            detail: Rect {
                x: 0,
                y: table_h,
                width: inner_w,
                height: inner_h.saturating_sub(table_h),
            },
        }
    }

    /// The table's width when the detail pane goes beside it at this inner width: the
    /// room the first column's cells need (the detail keeping [`DETAIL_MIN`]), and only
    /// when that is at least [`ABOUT_ROOM`] or the widest cell; otherwise the detail goes
    /// below and the table has the whole width.
    fn beside(&self, inner_w: u16) -> Option<u16> {
        if inner_w < WIDE {
            return None;
        }
        let [left, _] = Rect::new(0, 0, inner_w, 1).layout(&Layout::horizontal([
            Constraint::Percentage(55),
            Constraint::Percentage(45),
        ]));
        let fixed = self.columns(usize::from(inner_w), false).fixed() + 1;
        let about = self.measure.about;
        let want = u16::try_from(fixed + about).unwrap_or(u16::MAX);
        let left = want
            .max(left.width)
            .min(inner_w.saturating_sub(1 + DETAIL_MIN));
        let flex = self.columns(usize::from(left), false).flex;
        (flex >= about.min(ABOUT_ROOM)).then_some(left)
    }

    /// The inner size this block gets when drawn inline at `width` (its own height).
    fn inline_geometry(&self, width: u16) -> Geometry {
        let h = self.wanted_height(width);
        self.geometry(width.saturating_sub(2), h.saturating_sub(2))
    }

    /// The block's height at `width`, border included: up to [`MAX_TABLE_ROWS`] rows of
    /// the table when stacked.
    pub(super) fn wanted_height(&self, width: u16) -> u16 {
        self.height_with_rows(width, MAX_TABLE_ROWS)
    }

    /// The height when the page can give `available` rows: more of the table in view, up
    /// to all of it.
    pub(super) fn grown_height(&self, width: u16, available: u16) -> u16 {
        let need = self.wanted_height(width);
        let all = self.height_with_rows(width, usize::MAX);
        all.min(available).max(need)
    }

    fn height_with_rows(&self, width: u16, max_rows: usize) -> u16 {
        let inner = width.saturating_sub(2);
        let rows = self.visible().len().max(1);
        let h = if self.beside(inner).is_some() {
            // The detail pane's own width (what the wide split leaves it).
            let g = self.geometry(inner, 1);
            (1 + rows).max(self.detail_height(g.detail.width as usize))
        } else {
            1 + rows.min(max_rows) + self.detail_height(inner as usize)
        };
        (h + 2).min(u16::MAX as usize) as u16
    }

    /// Draw the table and the detail pane into `inner` (the area inside the border).
    pub(super) fn draw(&self, inner: Rect, buf: &mut Buffer, look: Look) {
        let theme = look.theme;
        let g = self.geometry(inner.width, inner.height);
        let at = |r: Rect| {
            Rect {
                x: inner.x + r.x,
                y: inner.y + r.y,
                ..r
            }
            .intersection(inner)
        };
        let detail_a = at(g.detail);
        let detail = self.detail_lines(theme, detail_a.width as usize, (look.reach, look.demo));
        if g.wide {
            let left = Rect {
                width: g.left_w,
                ..inner
            };
            let (w, h) = (left.width as usize, left.height as usize);
            let table = self.table_window(look, w, g.row_skip, h);
            common::draw_lines(left, buf, &table, 0);
            common::draw_lines(detail_a, buf, &detail, 0);
            return;
        }
        let ta = Rect {
            height: g.table_h.min(inner.height),
            ..inner
        };
        // Header stays; rows scroll around the cursor.
        if !ta.is_empty() {
            let w = inner.width as usize;
            let rows_area = Rect {
                y: ta.y + 1,
                height: ta.height.saturating_sub(1),
                ..ta
            };
            let shown = (g.row_skip, g.row_skip + usize::from(rows_area.height));
            let header = self.header_line(
                look.theme,
                &self.columns(w, look.demo),
                look.demo,
                (shown.0, shown.1.min(self.visible().len())),
            );
            common::draw_lines(ta, buf, &[header], 0);
            let first = 1 + g.row_skip;
            let rows = self.table_window(look, w, first, rows_area.height as usize);
            common::draw_lines(rows_area, buf, &rows, 0);
        }
        common::draw_lines(detail_a, buf, &detail, 0);
    }

    /// The line to keep in view, counted from the top border at `width`: the end of a
    /// reveal, else the row under the cursor.
    pub(super) fn focus_row(&self, width: u16) -> u16 {
        let g = self.inline_geometry(width);
        let theme = Theme::new(ThemeName::Mono, false);
        let revealed = self.current().is_some_and(|i| self.rows[i].revealed);
        if revealed {
            // The end of the reveal (the row's reason) is what the learner reads next.
            let n = self
                .detail_lines(&theme, g.detail.width as usize, (Reach::Focused, false))
                .len() as u16;
            return 1 + g.detail.y + n.saturating_sub(1).min(g.detail.height.saturating_sub(1));
        }
        let line = if g.wide {
            (self.cursor + 1).saturating_sub(g.row_skip)
        } else {
            1 + self.cursor.saturating_sub(g.row_skip)
        };
        1 + line as u16
    }
}
