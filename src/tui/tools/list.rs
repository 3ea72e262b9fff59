//! The list of declarations on the Your tools screen: its width (it widens with the
//! window up to a third of it), each row's name (cut in the middle when too long, so that
//! names sharing a start still differ), its marks and count, and the legend under it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::{Analysis, ToolsScreen};
use crate::sanitize::clean;
use crate::text::{truncate, width};
use crate::tui::draw::{cut_middle, draw_lines, shared};
use crate::tui::theme::Theme;

/// The list's marks: yes, no, and one of the two providers.
pub(super) struct Marks {
    pub yes: &'static str,
    pub no: &'static str,
    pub one: &'static str,
}

/// One-cell marks, so that the names keep the room (`OK`/`FAIL` would take eight cells).
/// In ASCII a cross is `x`: a `-` would read as a list's dash.
pub(super) fn marks(t: &Theme) -> Marks {
    if t.ascii {
        Marks {
            yes: "+",
            no: "x",
            one: "~",
        }
    } else {
        Marks {
            yes: t.sym.ok,
            no: t.sym.bad,
            one: t.sym.in_progress,
        }
    }
}

/// What the list's marks and count mean, for the help: (what, meaning).
pub(super) fn legend(t: &Theme) -> [(&'static str, String); 3] {
    let m = marks(t);
    [
        (
            "first mark",
            format!("{} the validator honours it, {} refuses it", m.yes, m.no),
        ),
        (
            "second mark",
            format!(
                "strict-ready: {} for both providers, {} for one, {} for none",
                m.yes, m.one, m.no
            ),
        ),
        (
            "number",
            "its traps that your schema lets through".to_owned(),
        ),
    ]
}

/// The legend as drawn in `w` cells: short, a mark never parted from its word. In ASCII,
/// where `+` also reads as "plus", the label ends in a colon and the items are parted by
/// commas.
fn legend_lines(t: &Theme, w: usize) -> Vec<String> {
    let m = marks(t);
    let (label, comma) = if t.ascii {
        ("strict:", ",")
    } else {
        ("strict", "")
    };
    let entries = [
        vec![
            format!("{} honoured{comma}", m.yes),
            format!("{} refused", m.no),
        ],
        vec![
            label.to_owned(),
            format!("{} both{comma}", m.yes),
            format!("{} one{comma}", m.one),
            format!("{} none", m.no),
        ],
        vec!["n = let through".to_owned()],
    ];
    let mut out: Vec<String> = Vec::new();
    for entry in entries {
        let mut line = String::new();
        for item in entry {
            if !line.is_empty() && width(&line) + 1 + width(&item) > w {
                out.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&item);
        }
        out.push(line);
    }
    out.into_iter()
        .map(|l| truncate(&l, w, t.sym.ellipsis))
        .collect()
}

/// Cells a row spends besides the name: pointer, marks and the count.
fn row_extra(digits: usize, through: bool) -> usize {
    2 + 1 + 1 + 1 + 1 + 1 + digits + if through { 8 } else { 0 }
}

/// Digits of the widest count among the rows `rows` (at least two). Only rows in view:
/// a declaration is analysed when it first comes into view, not before.
fn digits(s: &ToolsScreen, rows: std::ops::Range<usize>) -> usize {
    rows.filter_map(|i| s.analysis(i))
        .map(|a| a.traps.through().to_string().len())
        .max()
        .unwrap_or(1)
        .max(2)
}

/// The list's width in a body `body_w` wide, borders included: enough for the longest
/// name and the word `through` when a third of the window allows, else less.
pub(super) fn width_for(s: &ToolsScreen, body_w: u16) -> u16 {
    let longest = s
        .file
        .set
        .tools
        .iter()
        .map(|t| width(&clean(&t.name, false)))
        .max()
        .unwrap_or(0);
    let most = usize::from(body_w / 3).max(20);
    // Two columns of border and one of room before the right one.
    let mut want = longest + row_extra(2, true) + 3;
    if want > most {
        want = longest + row_extra(2, false) + 3;
    }
    u16::try_from(want.clamp(20, most))
        .unwrap_or(u16::MAX)
        .min(body_w)
}

/// The strict mark of a declaration: both providers, one, none.
fn strict_mark(a: &Analysis, t: &Theme) -> (&'static str, Style) {
    let m = marks(t);
    match (a.strict.openai.ok, a.strict.anthropic.ok) {
        (true, true) => (m.yes, t.ok),
        (false, false) => (m.no, t.bad),
        _ => (m.one, t.warn),
    }
}

pub(super) fn draw(s: &ToolsScreen, area: Rect, buf: &mut Buffer, t: &Theme) {
    let w = usize::from(area.width);
    let legend = legend_lines(t, w);
    let show_legend = usize::from(area.height) > legend.len() + 4;
    let rows = usize::from(area.height)
        .saturating_sub(if show_legend { legend.len() + 1 } else { 0 })
        .max(1);
    let tools = &s.file.set.tools;
    let skipped = &s.file.set.skipped;
    let mut top = s.list_top.get();
    if s.sel < top {
        top = s.sel;
    } else if s.sel >= top + rows {
        top = s.sel + 1 - rows;
    }
    // At the last declaration, the skipped entries after it come into view as room allows.
    if s.sel + 1 >= tools.len() {
        top = top
            .max((tools.len() + skipped.len()).saturating_sub(rows))
            .min(s.sel);
    }
    s.list_top.set(top);
    let digits = digits(s, top..(top + rows).min(tools.len()));
    let longest = tools
        .iter()
        .map(|t| width(&clean(&t.name, false)))
        .max()
        .unwrap_or(0);
    // The word `through` only when every name fits whole beside it.
    let through_word = longest + row_extra(digits, true) <= w;
    let name_w = w.saturating_sub(row_extra(digits, through_word)).max(4);
    let m = marks(t);
    let alike = s.alike.get_or_init(|| {
        let names: Vec<String> = tools.iter().map(|t| clean(&t.name, false)).collect();
        shared(&names)
    });
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (i, tool) in tools.iter().enumerate().skip(top).take(rows) {
        let Some(a) = s.analysis(i) else { continue };
        let chosen = i == s.sel;
        let pointer = if chosen { t.sym.pointer } else { " " };
        let shared = alike.get(i).copied().unwrap_or_default();
        let name = cut_middle(&clean(&tool.name, false), name_w, t.sym.ellipsis, shared);
        let name = format!("{name}{}", " ".repeat(name_w.saturating_sub(width(&name))));
        let (h, hs) = if tool.honoured() {
            (m.yes, t.ok)
        } else {
            (m.no, t.bad)
        };
        let (sm, ss) = strict_mark(&a, t);
        let through = a.traps.through();
        let ts = if through > 0 { t.bad } else { t.ok };
        let word = if through_word { " through" } else { "" };
        let count = format!(" {through:>digits$}{word}");
        let name_style = if chosen { t.selected } else { t.base };
        lines.push(Line::from(vec![
            Span::styled(format!("{pointer} "), t.focus),
            Span::styled(name, name_style),
            Span::raw(" "),
            Span::styled(h, hs),
            Span::raw(" "),
            Span::styled(sm, ss),
            Span::styled(count, ts),
        ]));
    }
    // The entries that are not function tools, after the declarations: named, never chosen
    // (they have no schema to check).
    let room = rows.saturating_sub(lines.len());
    for sk in skipped
        .iter()
        .skip(top.saturating_sub(tools.len()))
        .take(room)
    {
        let name = sk.name.as_deref().unwrap_or(&sk.at);
        let text = format!(
            "  {} skipped: {}",
            clean(name, false),
            clean(&sk.kind, false)
        );
        lines.push(Line::styled(truncate(&text, w, t.sym.ellipsis), t.dim));
    }
    draw_lines(area, buf, &lines, 0);
    if show_legend {
        let first = area.y + area.height - u16::try_from(legend.len()).unwrap_or(0);
        for (k, l) in legend.iter().enumerate() {
            let y = first + u16::try_from(k).unwrap_or(0);
            buf.set_line(area.x, y, &Line::styled(l.clone(), t.dim), area.width);
        }
    }
}
