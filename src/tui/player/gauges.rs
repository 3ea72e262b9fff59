//! The budget gauges under the timeline: a bar exact to an eighth of a cell, the numbers in
//! words, and the flag of a budget really hit (`⚑`) or the one that stopped the run.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::glyphs::Glyphs;
use crate::replay::run::{Gauge, GaugeKind};
use crate::text::width as width_of;
use crate::tui::theme::Theme;

/// The gauge's numbers in words (`3 of 6 reserved, 1 done`).
fn gauge_numbers(g: &Gauge, short: bool) -> String {
    match g.kind {
        GaugeKind::Deadline if short => format!("{}/{} s", secs(g.used), secs(g.limit)),
        GaugeKind::Deadline => format!("{} of {} ms", g.used, g.limit),
        GaugeKind::ToolCalls if !short => format!(
            "{} of {} reserved, {} done",
            g.used,
            g.limit,
            g.finished.unwrap_or(0)
        ),
        _ if short => format!("{}/{}", g.used, g.limit),
        _ => format!("{} of {}", g.used, g.limit),
    }
}

fn secs(ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.1}")
    }
}

/// A gauge's bar of `cells` cells, as exact as eighths of a cell allow: a use above zero
/// shows at least an eighth, and the bar is full only when the budget is.
fn bar(g: &Gauge, cells: usize, gl: &Glyphs) -> String {
    let cells = cells.max(1);
    let most = cells as u64 * 8;
    let eighths = if g.limit == 0 {
        0
    } else {
        let used = g.used.min(g.limit);
        let exact =
            (u128::from(used) * u128::from(most) + u128::from(g.limit) / 2) / u128::from(g.limit);
        let mut e = u64::try_from(exact).unwrap_or(most);
        if used > 0 {
            e = e.max(1);
        }
        if used < g.limit {
            e = e.min(most - 1);
        }
        e
    };
    let full = (eighths / 8) as usize;
    let part = (eighths % 8) as usize;
    let mut out = gl.gauge_full.repeat(full);
    if part > 0 {
        out.push_str(gl.gauge_part[part]);
    }
    let drawn = full + usize::from(part > 0);
    out.push_str(&gl.gauge_empty.repeat(cells - drawn));
    out
}

fn gauge_style(th: &Theme, g: &Gauge) -> Style {
    if g.cause {
        th.bad
    } else if g.spent {
        th.warn
    } else {
        th.accent
    }
}

/// The flag after a gauge: the cause of the stop, a budget really hit (something asked
/// past it), or every slot in flight. A budget used exactly up, and no more asked of it,
/// has no flag.
fn gauge_flag(g: &Gauge, gl: &Glyphs, short: bool) -> String {
    match (g.cause, g.kind) {
        (true, _) if short => format!(" {} STOP", gl.warn),
        (true, _) => format!(" {} stopped the run", gl.warn),
        (false, GaugeKind::InFlight) if g.spent => format!(" {} full", gl.warn),
        (false, _) if g.hit && short => format!(" {}", gl.warn),
        (false, _) if g.hit => format!(" {} hit", gl.warn),
        _ => String::new(),
    }
}

/// One gauge a row (wide panes).
pub fn gauge_rows(gauges: &[Gauge], width: usize, th: &Theme, gl: &Glyphs) -> Vec<Line<'static>> {
    let cells = (width.saturating_sub(13 + 38)).clamp(4, 10);
    gauges
        .iter()
        .map(|g| {
            let style = gauge_style(th, g);
            let numbers = format!("  {}", gauge_numbers(g, false));
            // The flag in words where the row has room for them, else its short form.
            let mut flag = gauge_flag(g, gl, false);
            if 13 + cells + width_of(&numbers) + width_of(&flag) > width {
                flag = gauge_flag(g, gl, true);
            }
            Line::from(vec![
                Span::styled(format!("{:<12} ", g.kind.label()), th.base),
                Span::styled(bar(g, cells, gl), style),
                Span::styled(numbers, th.base),
                Span::styled(flag, style),
            ])
        })
        .collect()
}

/// Gauges flowed across as few rows as fit (narrow screens).
pub fn gauge_flow(gauges: &[Gauge], width: usize, th: &Theme, gl: &Glyphs) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut cur: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for g in gauges {
        let style = gauge_style(th, g);
        let parts = [
            (format!("{} ", g.kind.short()), th.base),
            (bar(g, 4, gl), style),
            (format!(" {}", gauge_numbers(g, true)), th.base),
            (gauge_flag(g, gl, true), style),
        ];
        let w: usize = parts.iter().map(|(s, _)| width_of(s)).sum::<usize>() + 2;
        if used > 0 && used + w > width {
            lines.push(Line::from(std::mem::take(&mut cur)));
            used = 0;
        }
        if used > 0 {
            cur.push(Span::raw("  "));
        }
        cur.extend(parts.into_iter().map(|(s, st)| Span::styled(s, st)));
        used += w;
    }
    if !cur.is_empty() {
        lines.push(Line::from(cur));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ThemeName;

    fn gauge(used: u64, limit: u64) -> Gauge {
        Gauge {
            kind: GaugeKind::Deadline,
            used,
            limit,
            finished: None,
            spent: used >= limit,
            cause: false,
            hit: false,
        }
    }

    #[test]
    fn gauges_are_as_exact_as_eighths_of_a_cell() {
        let u = Glyphs::for_theme(&Theme::new(ThemeName::Default, false));
        let a = Glyphs::for_theme(&Theme::new(ThemeName::Default, true));
        // 1.5% of a four-cell bar is an eighth of a cell, never a quarter of the bar.
        assert_eq!(bar(&gauge(15, 1000), 4, u), "▏░░░");
        assert_eq!(bar(&gauge(15, 1000), 4, a), ":...");
        assert_eq!(bar(&gauge(0, 1000), 4, u), "░░░░");
        assert_eq!(bar(&gauge(500, 1000), 4, u), "██░░");
        assert_eq!(bar(&gauge(300, 10_000), 4, u), "▏░░░", "0.3 of 10 s");
        assert_eq!(bar(&gauge(999, 1000), 4, u), "███▉", "full only when spent");
        assert_eq!(bar(&gauge(1000, 1000), 4, u), "████");
        assert_eq!(bar(&gauge(1, 4), 4, u), "█░░░");
        assert_eq!(bar(&gauge(3, 0), 4, u), "░░░░");
    }
}
