//! The rule switches, what each rule checks, and the fixture rows that flip with the
//! switched-off rule, a row to a line where it fits. A wide playground gives them the
//! column beside its inputs, the switches over the rows: rows the column cannot hold go
//! on under the verdict, and when they do not all fit there either they scroll a page at
//! a time, the cut saying how many lines lie above and below it and which keys bring
//! them; room left under the rows shows what each rule checks, going on under the
//! verdict too when the column cannot hold it. Under a narrow
//! playground's inputs the switches sit beside the rows, and the page scrolls.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::text::{fit, width as width_of};
use crate::tui::blocks::common::{draw_lines, mark_cut, wrap_prefixed};
use crate::tui::blocks::panels::{self, Flip, RulesPanel};
use crate::tui::draw::{above_mark, below_mark};
use crate::tui::theme::Theme;

/// Inner width of a playground from which the rules and the rows that flip get a column
/// of their own beside the inputs.
pub(crate) const WIDE: u16 = 110;
/// Rows an editor box takes at least in one column, borders included.
pub(crate) const EDITOR_H: u16 = 8;
/// Rows an editor box in one column keeps at least when the block is drawn in longer
/// marks than it was measured in (ASCII, before its first draw): a line of text between
/// its borders, the verdict and the rules under it whole.
pub(crate) const EDITOR_LEAST: u16 = 3;
/// Rows the arguments box takes at least beside the side column, borders included.
pub(crate) const ARGS_LEAST: u16 = 5;
/// Rows the arguments box keeps free under its text beside the side column, to type into.
pub(crate) const ARGS_SPARE: u16 = 2;

/// The inputs' column and the side column of a wide block's inner area: the inputs take
/// `twentieths` twentieths of it, a gap of two, the side column the rest.
pub(crate) fn columns(inner: Rect, twentieths: u16) -> (Rect, Rect) {
    let lw = inner.width * twentieths / 20;
    let left = Rect { width: lw, ..inner };
    let side = Rect {
        x: inner.x + lw + 2,
        width: inner.width.saturating_sub(lw + 2),
        ..inner
    };
    (left, side)
}

/// A wide block's inner height: the rows its columns want (`want`), no more than the page
/// can show (`available`, the block's rows with its border; 0: no limit), and no fewer
/// than they keep at least (`least`).
pub(crate) fn body_height(want: u16, least: u16, available: u16) -> u16 {
    let body = if available > 0 {
        want.min(available.saturating_sub(2))
    } else {
        want
    };
    body.max(least)
}

/// Rows of an editor box in one column, borders included, when its text takes `full` and
/// `room` rows are free for it: its whole text when there is room, else what there is, at
/// least [`EDITOR_H`]. While rows that flip under it are pushed out of view (`crowded`) it
/// keeps no empty rows: those go to the flips.
pub(crate) fn editor_rows(full: u16, room: u16, crowded: bool) -> u16 {
    let least = if crowded {
        full.min(EDITOR_H)
    } else {
        EDITOR_H
    };
    full.min(room).max(least)
}

/// Columns the rule switches take (their labels are short).
const RULES_W: usize = 30;
/// Rows of the flips the column keeps at least when the block is cut short: enough for
/// a row between the two cut marks.
const LEAST_ROWS: usize = 3;

/// What one draw of the column showed: the rows that flip it had room for, and how many
/// there are in all (for scrolling them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SideView {
    pub shown: usize,
    pub total: usize,
    /// The first rows of the pages before and after, when the rows go on under the
    /// verdict (there no row hides under a cut mark, and pages follow whole rows).
    pub pages: Option<(usize, usize)>,
}

impl SideView {
    /// Some rows that flip did not fit.
    pub fn cut(self) -> bool {
        self.total > self.shown
    }

    /// The first row shown after moving `top` a page down (`down`) or up: a page less the
    /// two rows the cut marks take, within what there is.
    pub fn paged(self, top: usize, down: bool) -> usize {
        let step = self.shown.saturating_sub(2).max(1);
        let most = self.total.saturating_sub(self.shown);
        if let Some((before, after)) = self.pages {
            return if down {
                after.max(top)
            } else {
                before.min(top)
            };
        }
        if down {
            (top + step).min(most)
        } else {
            top.min(most).saturating_sub(step)
        }
    }
}

/// The column's parts at one width: the switches, the heading over the rows that flip,
/// and those rows.
struct Parts {
    rules: Vec<Line<'static>>,
    head: Vec<Line<'static>>,
    rows: Vec<Line<'static>>,
}

fn parts(p: &RulesPanel, theme: &Theme, width: usize) -> Parts {
    let rules = panels::rule_lines(theme, p.labels, p.off, p.cursor, width.min(RULES_W));
    let (head, rows) = flips(p, theme, (width, words_width(width)));
    Parts { rules, head, rows }
}

/// Columns the words of a part `width` wide wrap in: a column short of the block's
/// border keeps them off it (a verdict, the rows that flip, the notes).
pub(crate) fn words_width(width: usize) -> usize {
    width.saturating_sub(1)
}

/// Where each row that flips starts among the lines of its table `width` wide (the line
/// naming the columns not counted).
fn starts(theme: &Theme, flips: &[Flip], width: usize) -> Vec<usize> {
    let (_, rows) = table_of(theme, flips, width);
    let mut at = 0;
    rows.iter()
        .map(|r| {
            let start = at;
            at += r.len();
            start
        })
        .collect()
}

/// The heading over the rows that flip (with the line naming their columns), and the
/// rows, `width` wide. With no rule off, or none of the rows depending on it, the
/// heading says so, in words wrapped in `words` columns, and there are no rows.
fn flips(
    p: &RulesPanel,
    theme: &Theme,
    (width, words): (usize, usize),
) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    let Some(rule) = p.off.and_then(|i| p.labels.get(i).copied()) else {
        let mut head = vec![Line::styled("Rows that flip", theme.heading)];
        let hint = format!(
            "Switch a rule off to see which {} change: that is why the rule exists.",
            p.rows
        );
        head.extend(wrap_prefixed(Vec::new(), &hint, words, theme.dim));
        return (head, Vec::new());
    };
    let count = format!("{} of {} {} flip", p.flips.len(), p.flip_total, p.rows);
    let count_style = if p.flips.is_empty() {
        theme.dim
    } else {
        theme.warn
    };
    let mut head = heading(
        theme,
        &format!("Without the {rule}:"),
        (&count, count_style),
        width,
    );
    if p.flips.is_empty() {
        head.extend(wrap_prefixed(
            Vec::new(),
            "No row depends on it alone (another check still catches them).",
            words,
            theme.dim,
        ));
        return (head, Vec::new());
    }
    let mut rows = flip_table(theme, p.flips, width);
    // The line naming the columns stays with the heading while the rows scroll.
    head.push(rows.remove(0));
    (head, rows)
}

/// `title` and the count after it, the count on lines of its own when both do not fit
/// on one.
fn heading(
    theme: &Theme,
    title: &str,
    (count, style): (&str, Style),
    width: usize,
) -> Vec<Line<'static>> {
    if width_of(title) + 1 + width_of(count) <= width {
        return vec![Line::from(vec![
            Span::styled(format!("{title} "), theme.heading),
            Span::styled(count.to_owned(), style),
        ])];
    }
    let mut v = wrap_prefixed(Vec::new(), title, width, theme.heading);
    v.extend(wrap_prefixed(Vec::new(), count, width, style));
    v
}

/// What each rule checks, a rule at a time: its label over its words, indented, from
/// rule `from` on.
fn about_entries(
    p: &RulesPanel,
    theme: &Theme,
    from: usize,
    width: usize,
) -> Vec<Vec<Line<'static>>> {
    p.labels
        .iter()
        .zip(p.about)
        .skip(from)
        .map(|(label, about)| {
            let mut entry = wrap_prefixed(Vec::new(), label, width, theme.base);
            entry.extend(wrap_prefixed(
                vec![Span::raw("  ")],
                about,
                width,
                theme.dim,
            ));
            entry
        })
        .collect()
}

/// What each rule checks under a heading: in `area`, the side column's rows left under
/// the rows that flip, when it fits whole there; else in `spill`, the room under the
/// verdict, when it fits whole there; else as many rules as fit whole in `area`, the
/// others going on in `spill` under a heading of their own. Nothing when the two cannot
/// hold every rule's words.
fn draw_about(p: &RulesPanel, theme: &Theme, (area, spill): (Rect, Rect), buf: &mut Buffer) {
    const HEAD: &str = "What each rule checks";
    let headed = |title: &str, from: usize, width: usize| {
        let mut lines = wrap_prefixed(Vec::new(), title, width, theme.heading);
        lines.extend(about_entries(p, theme, from, width).into_iter().flatten());
        lines
    };
    let width = words_width(usize::from(area.width));
    let whole = headed(HEAD, 0, width);
    if whole.len() <= usize::from(area.height) {
        draw_lines(area, buf, &whole, 0);
        return;
    }
    let under = headed(HEAD, 0, usize::from(spill.width));
    if under.len() <= usize::from(spill.height) {
        draw_lines(spill, buf, &under, 0);
        return;
    }
    // The rules that fit whole in the column, under the heading.
    let (mut here, mut used) = (0, 1);
    for entry in about_entries(p, theme, 0, width) {
        if used + entry.len() > usize::from(area.height) {
            break;
        }
        used += entry.len();
        here += 1;
    }
    let more = headed(
        &format!("{HEAD}, continued:"),
        here,
        usize::from(spill.width),
    );
    if here > 0 && more.len() <= usize::from(spill.height) {
        draw_lines(area, buf, &whole[..used], 0);
        draw_lines(spill, buf, &more, 0);
    }
}

/// Columns of the row names when they get a column: the longest name, at most a third
/// of the line (a longer name takes a line of its own).
fn id_column(flips: &[Flip], width: usize) -> usize {
    let longest = flips.iter().map(|f| width_of(&f.id)).max().unwrap_or(0);
    longest.clamp(3, (width / 3).max(3))
}

/// The dim line naming the columns: `row   with the rule → without it` (`idw` 0: the
/// names on lines of their own).
fn header(theme: &Theme, idw: usize, width: usize) -> Line<'static> {
    let words = format!("with the rule {} without it", theme.sym.arrow);
    let text = if idw == 0 {
        format!("  {words}")
    } else {
        format!("{}  {words}", fit("row", idw, theme.sym.ellipsis))
    };
    Line::styled(fit(&text, width, theme.sym.ellipsis), theme.dim)
}

/// The rows that flip with the line naming their columns, in whichever of two forms
/// takes fewer lines: the names in a column beside the results, or each name on a line
/// of its own over its results (better in a narrow column, where the results would
/// wrap beside a column of names; the form kept when both take as many).
pub fn flip_table(theme: &Theme, flips: &[Flip], width: usize) -> Vec<Line<'static>> {
    let (header, rows) = table_of(theme, flips, width);
    let mut out = vec![header];
    out.extend(rows.into_iter().flatten());
    out
}

/// The line naming the columns of [`flip_table`], and the lines of each row that flips.
fn table_of(
    theme: &Theme,
    flips: &[Flip],
    width: usize,
) -> (Line<'static>, Vec<Vec<Line<'static>>>) {
    let beside = flip_rows(theme, flips, width, id_column(flips, width));
    let over = flip_rows(theme, flips, width, 0);
    let lines = |rows: &[Vec<Line>]| rows.iter().map(Vec::len).sum::<usize>();
    let (idw, rows) = if lines(&over) <= lines(&beside) {
        (0, over)
    } else {
        (id_column(flips, width), beside)
    };
    (header(theme, idw, width), rows)
}

/// The rows that flip, a row to a line: its name (in a column `idw` wide; 0: on a line
/// of its own), what it gets with every rule on and, after an arrow, what it gets with
/// the rule off. A row too long for its line puts the second result on the next line,
/// under the first; a name too long for its column takes a line of its own. Every word
/// shows: long results wrap, nothing is cut.
fn flip_rows(theme: &Theme, flips: &[Flip], width: usize, idw: usize) -> Vec<Vec<Line<'static>>> {
    let indent = if idw == 0 { 2 } else { idw + 2 };
    let style = |ok: bool| if ok { theme.ok } else { theme.bad };
    let cell = |ok: bool, text: &str| {
        let mark = if ok { theme.sym.ok } else { theme.sym.bad };
        format!("{mark} {}", crate::sanitize::clean(text, false))
    };
    let arrow = format!("{} ", theme.sym.arrow);
    let mut all = Vec::new();
    for f in flips {
        let mut out = Vec::new();
        let id = crate::sanitize::clean(&f.id, false);
        let lead = if idw > 0 && width_of(&id) <= idw {
            format!("{}  ", fit(&id, idw, theme.sym.ellipsis))
        } else {
            out.extend(wrap_prefixed(Vec::new(), &id, width, theme.base));
            " ".repeat(indent)
        };
        let (with, without) = (cell(f.with_ok, &f.with), cell(f.without_ok, &f.without));
        let one = indent + width_of(&with) + 1 + width_of(&arrow) + width_of(&without);
        if one <= width {
            out.push(Line::from(vec![
                Span::styled(lead, theme.base),
                Span::styled(with, style(f.with_ok)),
                Span::styled(format!(" {arrow}"), theme.dim),
                Span::styled(without, style(f.without_ok)),
            ]));
            all.push(out);
            continue;
        }
        out.extend(wrap_prefixed(
            vec![Span::styled(lead, theme.base)],
            &with,
            width,
            style(f.with_ok),
        ));
        out.extend(wrap_prefixed(
            vec![
                Span::raw(" ".repeat(indent)),
                Span::styled(arrow.clone(), theme.dim),
            ],
            &without,
            width,
            style(f.without_ok),
        ));
        all.push(out);
    }
    all
}

pub(crate) fn rows_u16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// Rows the column needs at `width` to show everything.
pub fn height(p: &RulesPanel, width: u16) -> u16 {
    let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
    let parts = parts(p, &theme, usize::from(width));
    rows_u16(parts.rules.len() + 1 + parts.head.len() + parts.rows.len())
}

/// Rows the column needs at least at `width`: the switches, the heading, and a few of
/// the rows that flip (the others scroll).
pub fn least(p: &RulesPanel, width: u16) -> u16 {
    let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
    let parts = parts(p, &theme, usize::from(width));
    let rows = parts.rows.len().min(LEAST_ROWS);
    rows_u16(parts.rules.len() + 1 + parts.head.len() + rows)
}

/// Draw the column into `area`, the rows that flip from row `top` on, their cut marked
/// with `keys` (up, down). Returns the switches' area (the heading row, then a row a
/// switch: for mapping clicks) and what the rows that flip showed.
pub fn render(
    p: &RulesPanel,
    theme: &Theme,
    (area, buf): (Rect, &mut Buffer),
    spill: Rect,
    top: usize,
    keys: (&str, &str),
) -> (Rect, SideView) {
    let parts = parts(p, theme, usize::from(area.width));
    let rules_h = rows_u16(parts.rules.len()).min(area.height);
    let rules = Rect {
        height: rules_h,
        width: area.width.min(rows_u16(RULES_W)),
        ..area
    };
    draw_lines(rules, buf, &parts.rules, 0);
    let below = |y: u16| Rect {
        y: y.min(area.bottom()),
        height: area.bottom().saturating_sub(y),
        ..area
    };
    let head = below(rules.bottom() + 1);
    draw_lines(head, buf, &parts.head, 0);
    let table = below(head.y + rows_u16(parts.head.len()));
    if parts.rows.len() > usize::from(table.height)
        && let Some(view) = render_split(p, theme, (&parts.rows, table, spill, buf), top, keys)
    {
        return (rules, view);
    }
    let view = SideView {
        shown: usize::from(table.height).min(parts.rows.len()),
        total: parts.rows.len(),
        pages: None,
    };
    let top = top.min(view.total.saturating_sub(view.shown));
    draw_lines(table, buf, &parts.rows, top);
    mark_cut(table, buf, theme, (top, view.total), keys);
    // The rows left under the rows that flip say what each rule checks, going on under
    // the verdict when they cannot hold all of it.
    if !view.cut() {
        let left = below(table.y + rows_u16(view.shown) + 1);
        draw_about(p, theme, (left, spill), buf);
    }
    (rules, view)
}

/// Rows `spill` needs at least to take the rows that flip the side column cannot hold:
/// its heading, the line naming the columns, and a few rows.
const SPILL_LEAST: u16 = 5;

/// Draw a wide playground's verdict (`lines`) from the top of `result` down, on more
/// rows than `result` has when its marks take more room (ASCII), as far as `bottom`;
/// returns the room left under it, a blank row between: where the rows that flip go on
/// when the side column cannot hold them all.
pub(crate) fn draw_verdict(lines: &[Line], result: Rect, bottom: u16, buf: &mut Buffer) -> Rect {
    let end = (result.y + rows_u16(lines.len()))
        .max(result.bottom())
        .min(bottom);
    let result = Rect {
        height: end.saturating_sub(result.y),
        ..result
    };
    draw_lines(result, buf, lines, 0);
    let y = (end + 1).min(bottom);
    Rect {
        y,
        height: bottom - y,
        ..result
    }
}

/// The rows that flip as they run from the side column on under the verdict.
struct Flow<'a> {
    theme: &'a Theme,
    flips: &'a [Flip],
    /// Where each row starts among the side column's lines, and how many lines there are.
    at: Vec<usize>,
    total: usize,
    /// Rows of the side column's table.
    table: usize,
    /// The room under the verdict, and the rows its heading takes there.
    spill: Rect,
    head: usize,
}

/// What one page of a [`Flow`] shows: the side column's lines from `top` up to the row
/// numbered `k`, which with the `taken` rows after it shows whole under the verdict;
/// `next` is the first line not shown.
#[derive(Clone, Copy)]
struct Page {
    top: usize,
    k: usize,
    taken: usize,
    next: usize,
}

impl Flow<'_> {
    /// The page from line `top` on; `None` when the rest fits the side column alone or
    /// no whole row does.
    fn page(&self, top: usize) -> Option<Page> {
        let room = self.table - usize::from(top > 0);
        if self.total - top <= room {
            return None;
        }
        let k = self.at.iter().rposition(|&s| s > top && s <= top + room)?;
        let (_, more) = table_of(self.theme, &self.flips[k..], usize::from(self.spill.width));
        let h = usize::from(self.spill.height);
        let (mut used, mut taken) = (self.head, 0);
        for (i, r) in more.iter().enumerate() {
            // The last row may take the bottom line; before it, the cut mark does.
            let limit = if k + i + 1 == self.flips.len() {
                h
            } else {
                h - 1
            };
            if used + r.len() > limit {
                break;
            }
            used += r.len();
            taken += 1;
        }
        let next = self.at.get(k + taken).copied().unwrap_or(self.total);
        Some(Page {
            top,
            k,
            taken,
            next,
        })
    }

    /// The page to show from line `top` on: on the last one, from as far back as every
    /// row to the end still shows, so that no room stays blank.
    fn settle(&self, top: usize) -> Option<Page> {
        let here = self.page(top);
        if here.is_some_and(|p| p.next < self.total) {
            return here;
        }
        let mut best = here;
        for &s in self.at.iter().rev().filter(|&&s| s <= top) {
            match self.page(s) {
                None => continue,
                Some(p) if p.next == self.total => best = Some(p),
                Some(_) => break,
            }
        }
        best
    }

    /// The first line of the page before `page`: the earliest that reaches its top.
    fn before(&self, page: Page) -> usize {
        self.at
            .iter()
            .copied()
            .filter(|&s| s < page.top)
            .find(|&s| self.page(s).is_some_and(|p| p.next >= page.top))
            .unwrap_or(0)
    }
}

/// Draw the rows that flip from row `top` on in the side column's `table` (`rows`, at
/// its width) as far as whole rows fit, and go on with the next rows under the verdict
/// (`spill`, a table of its own width under a heading), each cut marked. `None` when
/// `spill` has too little room, or the side column alone holds the rest.
fn render_split(
    p: &RulesPanel,
    theme: &Theme,
    (rows, table, spill, buf): (&[Line<'static>], Rect, Rect, &mut Buffer),
    top: usize,
    keys: (&str, &str),
) -> Option<SideView> {
    let rule = p.off.and_then(|i| p.labels.get(i).copied())?;
    if spill.height < SPILL_LEAST || spill.width < 20 || table.height < 2 {
        return None;
    }
    let width = usize::from(spill.width);
    let mut lines = wrap_prefixed(
        Vec::new(),
        &format!("Without the {rule}, continued:"),
        width,
        theme.heading,
    );
    let flow = Flow {
        theme,
        flips: p.flips,
        at: starts(theme, p.flips, usize::from(table.width)),
        total: rows.len(),
        table: usize::from(table.height),
        spill,
        head: lines.len() + 1,
    };
    let page = flow.settle(top.min(flow.total.saturating_sub(1)))?;
    let side = Rect {
        y: table.y + u16::from(page.top > 0),
        height: table.height - u16::from(page.top > 0),
        ..table
    };
    draw_lines(side, buf, &rows[..flow.at[page.k]], page.top);
    if page.top > 0 {
        let mark = above_mark(theme.sym.ellipsis, page.top, keys.0);
        draw_mark(table, buf, theme, mark);
    }
    let (header, more) = table_of(theme, &p.flips[page.k..], width);
    lines.push(header);
    lines.extend(more.into_iter().take(page.taken).flatten());
    draw_lines(spill, buf, &lines, 0);
    if page.next < flow.total {
        let mark = below_mark(theme.sym.arrow, flow.total - page.next, keys.1);
        let row = Rect {
            y: spill.bottom() - 1,
            height: 1,
            ..spill
        };
        draw_mark(row, buf, theme, mark);
    }
    Some(SideView {
        shown: page.next - page.top,
        total: flow.total,
        pages: Some((flow.before(page), page.next)),
    })
}

/// A cut mark on the first row of `area`, dim.
fn draw_mark(area: Rect, buf: &mut Buffer, theme: &Theme, text: String) {
    let line = Line::styled(
        fit(&text, usize::from(area.width), theme.sym.ellipsis),
        theme.dim,
    );
    buf.set_line(area.x, area.y, &line, area.width);
}

/// Columns the switches take beside the rows that flip, under a narrow playground's
/// inputs.
fn beside_rules(width: u16) -> u16 {
    rows_u16(RULES_W).min(width / 2)
}

/// The rows that flip, heading first, beside the switches in `width` columns.
fn beside_flips(p: &RulesPanel, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let fw = words_width(usize::from(width.saturating_sub(beside_rules(width) + 1)));
    let (mut head, rows) = flips(p, theme, (fw, fw));
    head.extend(rows);
    head
}

/// Rows the switches beside the rows that flip need at `width` in `theme`'s marks (all of
/// them: under a narrow playground's inputs the page scrolls).
pub fn beside_height(p: &RulesPanel, theme: &Theme, width: u16) -> u16 {
    let flips = beside_flips(p, theme, width).len();
    rows_u16(flips.max(p.labels.len() + 1))
}

/// Draw the switches on the left of `area` and the rows that flip beside them; returns
/// the switches' area (for mapping clicks).
pub fn render_beside(p: &RulesPanel, theme: &Theme, area: Rect, buf: &mut Buffer) -> Rect {
    let rules = Rect {
        width: beside_rules(area.width),
        ..area
    };
    let lines = panels::rule_lines(theme, p.labels, p.off, p.cursor, usize::from(rules.width));
    draw_lines(rules, buf, &lines, 0);
    let flips = Rect {
        x: rules.right() + 1,
        width: area.width.saturating_sub(rules.width + 1),
        ..area
    };
    draw_lines(flips, buf, &beside_flips(p, theme, area.width), 0);
    rules
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ThemeName;

    fn flip(id: &str, with: &str, without: &str) -> Flip {
        Flip {
            id: id.to_owned(),
            with: with.to_owned(),
            with_ok: false,
            without: without.to_owned(),
            without_ok: without == "ok",
        }
    }

    fn text(lines: &[Line]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn a_row_that_fits_takes_one_line_with_its_name_in_a_column() {
        let theme = Theme::new(ThemeName::Mono, false);
        let flips = [
            flip("seed-type", "type error: days expected int, got str", "ok"),
            flip(
                "trap-true-as-int",
                "type error: days expected int, got bool",
                "ok",
            ),
        ];
        let lines = text(&flip_table(&theme, &flips, 80));
        assert_eq!(lines.len(), 3, "{lines:#?}");
        assert!(
            lines[0].starts_with("row               with the rule"),
            "{lines:#?}"
        );
        assert!(
            lines[1].starts_with("seed-type         ✗ type error"),
            "{lines:#?}"
        );
        assert!(lines[2].ends_with("got bool → ✓ ok"), "{lines:#?}");
    }

    #[test]
    fn in_a_narrow_column_each_name_goes_over_its_results() {
        let theme = Theme::new(ThemeName::Mono, false);
        let flips = [
            flip(
                "trap-exponent-as-int",
                "type error: days expected int, got float",
                "ok",
            ),
            flip(
                "trap-int-as-float",
                "type error: x expected float, got int",
                "ok",
            ),
        ];
        let lines = text(&flip_table(&theme, &flips, 60));
        assert_eq!(lines.len(), 5, "{lines:#?}");
        assert_eq!(lines[1], "trap-exponent-as-int");
        assert_eq!(
            lines[2],
            "  ✗ type error: days expected int, got float → ✓ ok"
        );
    }

    #[test]
    fn a_long_row_wraps_under_its_first_result_and_loses_no_word() {
        let theme = Theme::new(ThemeName::Mono, true);
        let long = "value error: room must match the pattern ^[A-Z]-[0-9]{2}$, got \"B-123\"";
        let flips = [flip("value-pattern", long, "ok")];
        for width in [20, 40, 60] {
            let lines = text(&flip_table(&theme, &flips, width));
            assert!(lines.len() > 1, "{lines:#?}");
            for l in &lines {
                assert!(width_of(l) <= width, "{width}: {lines:#?}");
            }
            let words: String = lines.join(" ");
            for w in long.split_whitespace().chain(["value-pattern", "->", "OK"]) {
                assert!(words.contains(w), "{w} at {width}: {lines:#?}");
            }
        }
    }

    #[test]
    fn an_editor_keeps_no_empty_rows_while_the_flips_under_it_are_crowded() {
        // Four lines of text in a box of six rows: two empty rows to type into, unless
        // the rows that flip need them.
        assert_eq!(editor_rows(6, 20, false), EDITOR_H);
        assert_eq!(editor_rows(6, 2, true), 6);
        // A longer text scrolls in a box of the least height either way.
        assert_eq!(editor_rows(30, 4, true), EDITOR_H);
        assert_eq!(editor_rows(30, 12, false), 12);
    }

    #[test]
    fn a_wide_body_stays_within_the_page_but_keeps_its_least() {
        assert_eq!(body_height(40, 10, 0), 40);
        assert_eq!(body_height(40, 10, 30), 28);
        assert_eq!(body_height(40, 10, 8), 10);
    }

    #[test]
    fn with_no_rule_off_the_heading_says_how_to_see_rows_flip() {
        let theme = Theme::new(ThemeName::Mono, false);
        let labels = ["type check"];
        let mut p = RulesPanel {
            labels: &labels,
            about: &["Each value has its declared type."],
            off: None,
            cursor: None,
            flips: &[],
            flip_total: 0,
            rows: "trap rows",
        };
        let (head, rows) = flips(&p, &theme, (40, 40));
        let head = text(&head);
        assert_eq!(head[0], "Rows that flip");
        assert!(
            head.join(" ").contains("which trap rows change"),
            "{head:#?}"
        );
        assert!(rows.is_empty());
        p.off = Some(0);
        p.flip_total = 12;
        let (head, rows) = flips(&p, &theme, (40, 40));
        let head = text(&head).join(" ");
        assert!(
            head.contains("Without the type check: 0 of 12 trap rows flip"),
            "{head}"
        );
        assert!(head.contains("No row depends on it alone"), "{head}");
        assert!(rows.is_empty());
    }

    /// Two rules, each with what it checks, and no row that flips.
    fn two_rules() -> RulesPanel<'static> {
        RulesPanel {
            labels: &["required check", "type check"],
            about: &[
                "Every required name is present.",
                "Each value has its declared type.",
            ],
            off: None,
            cursor: None,
            flips: &[],
            flip_total: 0,
            rows: "trap rows",
        }
    }

    #[test]
    fn room_under_the_rows_says_what_each_rule_checks_when_the_words_fit_whole() {
        let theme = Theme::new(ThemeName::Mono, false);
        let p = two_rules();
        let drawn = |h: u16| {
            let area = Rect::new(0, 0, 60, h);
            let mut buf = Buffer::empty(area);
            render(
                &p,
                &theme,
                (area, &mut buf),
                Rect::default(),
                0,
                ("PgUp", "PgDn"),
            );
            crate::text::screen_text(&buf)
        };
        let tall = drawn(20);
        assert!(tall.contains("What each rule checks"), "{tall}");
        assert!(
            tall.contains("  Each value has its declared type."),
            "{tall}"
        );
        // One row short of the words: none of them, rather than a part.
        let short = drawn(12);
        assert!(!short.contains("What each rule checks"), "{short}");
        assert!(!short.contains("Every required name"), "{short}");
        // Just enough rows: all of them.
        let exact = drawn(13);
        assert!(
            exact
                .trim_end()
                .ends_with("  Each value has its declared type."),
            "{exact}"
        );
    }

    #[test]
    fn what_each_rule_checks_goes_on_under_the_verdict_when_the_column_cannot_hold_it() {
        let theme = Theme::new(ThemeName::Mono, false);
        let p = two_rules();
        // The column at the right, the room under the verdict at the left.
        let drawn = |h: u16, spill_h: u16| {
            let mut buf = Buffer::empty(Rect::new(0, 0, 100, 20));
            let spill = Rect::new(0, 20 - spill_h, 38, spill_h);
            render(
                &p,
                &theme,
                (Rect::new(40, 0, 60, h), &mut buf),
                spill,
                0,
                ("PgUp", "PgDn"),
            );
            crate::text::screen_text(&buf)
        };
        // One row short in the column: the second rule goes on at the left.
        let split = drawn(12, 4);
        let lines: Vec<&str> = split.lines().collect();
        assert!(
            lines[16].starts_with("What each rule checks, continued:"),
            "{split}"
        );
        assert!(lines[17].starts_with("type check"), "{split}");
        assert!(
            lines[18].starts_with("  Each value has its declared type."),
            "{split}"
        );
        assert!(
            split.contains("  Every required name is present."),
            "{split}"
        );
        // Room under the verdict for all of it: it goes there whole.
        let under = drawn(12, 6);
        assert!(under.contains("What each rule checks\n"), "{under}");
        assert!(!under.contains("continued"), "{under}");
        // Too little room in both: none of it, rather than a part.
        let none = drawn(12, 2);
        assert!(!none.contains("What each rule checks"), "{none}");
        assert!(!none.contains("Every required name"), "{none}");
    }

    #[test]
    fn paging_stops_at_both_ends() {
        let view = SideView {
            shown: 10,
            total: 25,
            pages: None,
        };
        assert!(view.cut());
        assert_eq!(view.paged(0, true), 8);
        assert_eq!(view.paged(8, true), 15);
        assert_eq!(view.paged(15, true), 15);
        assert_eq!(view.paged(15, false), 7);
        assert_eq!(view.paged(3, false), 0);
        assert!(
            !SideView {
                shown: 4,
                total: 4,
                pages: None
            }
            .cut()
        );
    }
}
