//! The trap table of the Your tools screen's detail: one row a trap, its name whole (the
//! name column takes the free width, and a name longer than it wraps), the fix beside the
//! verdict when it fits and under the row when not, and the arguments in what is left.

use ratatui::text::{Line, Span};

use super::Analysis;
use crate::sanitize::clean;
use crate::text::{fit, truncate, width, wrap};
use crate::tools::traps::Trap;
use crate::tui::theme::Theme;

/// The narrowest arguments column worth drawing.
const ARGS_MIN: usize = 16;
/// Cells of the row number and the space after it.
const NUM_W: usize = 4;

/// The widths of the table's columns (0: not drawn; a fix not drawn beside its row goes
/// under it).
#[derive(Debug, PartialEq, Eq)]
struct Columns {
    label: usize,
    args: usize,
    verdict: usize,
    fix: usize,
}

/// What the fix column says of a trap: the fix, or why there is none.
fn fix_text(trap: &Trap) -> String {
    match (&trap.fix, &trap.why) {
        (Some(f), _) if !f.costs.is_empty() => format!("{} (costs strict mode)", f.snippet()),
        (Some(f), _) => f.snippet(),
        (None, Some(why)) if trap.ok => why.clone(),
        _ => String::new(),
    }
}

/// The verdict as the table words it: with a mark, but in ASCII (where the marks are
/// words: `FAIL`, `OK`) the words alone.
fn verdict(trap: &Trap, t: &Theme) -> String {
    let word = if trap.ok { "let through" } else { "rejected" };
    if t.ascii {
        word.to_owned()
    } else {
        let mark = if trap.ok { t.sym.bad } else { t.sym.ok };
        format!("{mark} {word}")
    }
}

/// A trap's arguments in at most `w` cells, only the changed field shown, with the
/// theme's ellipsis, and never two ellipses in a row.
fn args_cell(trap: &Trap, w: usize, t: &Theme) -> String {
    let mut budget = w;
    loop {
        let mut s = truncate(&clean(&trap.short_args(budget), false), budget, "…");
        while s.contains("……") {
            s = s.replace("……", "…");
        }
        if t.ascii {
            s = s.replace('…', t.sym.ellipsis);
        }
        if width(&s) <= w || budget <= 1 {
            return truncate(&s, w, t.sym.ellipsis);
        }
        budget -= 1;
    }
}

/// The columns for `traps` in `w` cells: the names as wide as they need, the fixes under
/// their rows; or, when that takes fewer lines, the fixes beside their rows and the
/// longest names wrapped. The arguments get what is left.
fn columns(traps: &[Trap], t: &Theme, w: usize) -> Columns {
    let verdict_w = traps
        .iter()
        .map(|x| width(&verdict(x, t)))
        .max()
        .unwrap_or(0)
        .max(width("your schema"));
    let label_need = traps
        .iter()
        .map(|x| width(&clean(&x.title(), false)))
        .max()
        .unwrap_or(0)
        .max(width("trap"));
    let fix_need = traps
        .iter()
        .map(|x| width(&clean(&fix_text(x), false)))
        .max()
        .unwrap_or(0);
    let base = NUM_W + 1 + verdict_w;
    let whole = label_need.min(w.saturating_sub(base)).max(8);
    let mut best = Columns {
        label: whole,
        args: 0,
        verdict: verdict_w,
        fix: 0,
    };
    if fix_need > 0 {
        let fix = fix_need.max(3);
        let label = w.saturating_sub(base + fix + 1).min(whole);
        let beside = Columns {
            label,
            args: 0,
            verdict: verdict_w,
            fix,
        };
        if label >= 20 && height(traps, &beside, w) < height(traps, &best, w) {
            best = beside;
        }
    }
    let args_need = |room: usize| {
        traps
            .iter()
            .map(|x| width(&args_cell(x, room, t)))
            .max()
            .unwrap_or(0)
            .max(width("arguments"))
    };
    let fix_w = if best.fix > 0 { best.fix + 1 } else { 0 };
    // A wide table gives the arguments a share of its width (a quarter, as much as they
    // need of it): the longest names wrap for it, down to LABEL_MIN columns.
    let want = if w >= SHARE_FROM {
        args_need(w / 4).min(w / 4)
    } else {
        0
    };
    let left = w.saturating_sub(base + best.label + fix_w);
    if left < want + 1 && want > ARGS_MIN {
        let give = (want + 1 - left).min(best.label.saturating_sub(LABEL_MIN));
        best.label -= give;
    }
    let left = w.saturating_sub(base + best.label + fix_w);
    if left > ARGS_MIN {
        best.args = args_need(left - 1).min(left - 1);
    }
    best
}

/// The narrowest name column the arguments may take width from.
const LABEL_MIN: usize = 28;
/// From this many columns the arguments get a share of the table's width.
const SHARE_FROM: usize = 100;

/// The lines `traps` take with columns `c`.
fn height(traps: &[Trap], c: &Columns, w: usize) -> usize {
    traps
        .iter()
        .map(|x| {
            let name = wrap(&clean(&x.title(), false), c.label).len();
            let fix = clean(&fix_text(x), false);
            let under = if c.fix == 0 && x.ok && !fix.is_empty() {
                wrap(&format!("fix: {fix}"), w.saturating_sub(NUM_W + 2)).len()
            } else {
                0
            };
            name + under
        })
        .sum()
}

pub(super) fn lines(a: &Analysis, t: &Theme, w: usize, out: &mut Vec<Line<'static>>) {
    let traps = &a.traps;
    let head = format!(
        "Traps {} {} tried, {} let through",
        super::dot(t),
        traps.traps.len(),
        traps.through()
    );
    let head = if width(&head) + 24 <= w {
        format!("{head} (predict first: Enter)")
    } else {
        head
    };
    out.push(Line::styled(head, t.heading));
    if let Some(note) = &traps.note {
        for l in wrap(&clean(note, false), w) {
            out.push(Line::styled(l, t.warn));
        }
    }
    if traps.traps.is_empty() {
        return;
    }
    let c = columns(&traps.traps, t, w);
    let mut header = format!("{:>3} {}", "#", fit("trap", c.label, ""));
    if c.args > 0 {
        let words = if c.args >= width("arguments (the rest valid)") {
            "arguments (the rest valid)"
        } else {
            "arguments"
        };
        header.push(' ');
        header.push_str(&fit(words, c.args, ""));
    }
    header.push(' ');
    header.push_str(&fit("your schema", c.verdict, ""));
    if c.fix > 0 {
        header.push_str(" fix");
    }
    out.push(Line::styled(header.trim_end().to_owned(), t.dim));
    for (i, trap) in traps.traps.iter().enumerate() {
        row(trap, i, &c, t, w, out);
    }
}

/// One trap: its first line with every column, then the rest of its name, then its fix
/// when the fix has no column.
fn row(trap: &Trap, i: usize, c: &Columns, t: &Theme, w: usize, out: &mut Vec<Line<'static>>) {
    let mut names = wrap(&clean(&trap.title(), false), c.label).into_iter();
    let mut spans = vec![
        Span::styled(format!("{:>3} ", i + 1), t.dim),
        Span::styled(fit(&names.next().unwrap_or_default(), c.label, ""), t.base),
    ];
    if c.args > 0 {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(
            fit(&args_cell(trap, c.args, t), c.args, ""),
            t.dim,
        ));
    }
    let style = if trap.ok { t.bad } else { t.ok };
    spans.push(Span::raw(" "));
    spans.push(Span::styled(fit(&verdict(trap, t), c.verdict, ""), style));
    let fix = clean(&fix_text(trap), false);
    if c.fix > 0 && !fix.is_empty() {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(fix.clone(), t.warn));
    }
    out.push(Line::from(spans));
    for more in names {
        out.push(Line::from(vec![
            Span::raw(" ".repeat(NUM_W)),
            Span::styled(more, t.base),
        ]));
    }
    if c.fix == 0 && trap.ok && !fix.is_empty() {
        let text = if trap.fix.is_some() {
            format!("fix: {fix}")
        } else {
            fix
        };
        let pad = " ".repeat(NUM_W + 2);
        for l in wrap(&text, w.saturating_sub(NUM_W + 2)) {
            out.push(Line::from(vec![
                Span::raw(pad.clone()),
                Span::styled(l, t.warn),
            ]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::{Theme, ThemeName};

    fn traps() -> Vec<Trap> {
        let text = include_str!("../../../fixtures/tools/issue-tracker.json");
        let set = crate::tools::ToolSet::from_text(text, None).unwrap();
        crate::tools::traps::report(&set.tools[0]).traps
    }

    fn words(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn every_trap_name_reads_whole_at_any_width() {
        let traps = traps();
        let t = Theme::new(ThemeName::Default, false);
        for w in [40, 53, 77, 108] {
            let c = columns(&traps, &t, w);
            for (i, trap) in traps.iter().enumerate() {
                let mut out = Vec::new();
                row(trap, i, &c, &t, w, &mut out);
                // The name: its column on the first line, then the lines under it.
                let mut name = out[0].spans[1].content.to_string();
                for l in &out[1..] {
                    if l.spans[0].content.len() == NUM_W {
                        name.push(' ');
                        name.push_str(&l.spans[1].content);
                    }
                }
                assert_eq!(words(&name), words(&trap.title()), "at {w}");
            }
        }
    }

    #[test]
    fn the_name_column_takes_the_free_width() {
        let traps = traps();
        let t = Theme::new(ThemeName::Default, false);
        let longest = traps.iter().map(|x| width(&x.title())).max().unwrap();
        assert_eq!(columns(&traps, &t, 77).label, longest);
        let c = columns(&traps, &t, 130);
        assert!(c.fix > 0 && c.args >= ARGS_MIN, "{c:?}");
        assert_eq!(columns(&traps, &t, 40).label, 40 - NUM_W - 1 - c.verdict);
    }

    #[test]
    fn the_arguments_widen_with_the_table() {
        let traps = traps();
        let t = Theme::new(ThemeName::Default, false);
        let mut last = 0;
        for w in [123, 150, 180] {
            let c = columns(&traps, &t, w);
            assert!(c.args >= w / 4 - 1, "at {w}: {c:?}");
            assert!(c.args >= last, "at {w}: {c:?}");
            assert!(c.label >= LABEL_MIN, "at {w}: {c:?}");
            last = c.args;
        }
    }

    #[test]
    fn ascii_arguments_have_one_ascii_ellipsis() {
        let t = Theme::new(ThemeName::Default, true);
        for trap in traps() {
            for w in [12, 20, 26, 40] {
                let cell = args_cell(&trap, w, &t);
                assert!(cell.is_ascii(), "{cell}");
                assert!(width(&cell) <= w, "{cell}");
                assert!(!cell.contains("......"), "{cell}");
            }
        }
        let t = Theme::new(ThemeName::Default, false);
        for trap in traps() {
            for w in [12, 20, 26, 40] {
                assert!(!args_cell(&trap, w, &t).contains("……"));
            }
        }
    }
}
