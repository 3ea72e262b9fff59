//! The words beside each lane: a call's state or result at the cursor, a raced handler's
//! fate.

use ratatui::style::Style;

use crate::tui::theme::Theme;

use super::glyphs::{self, Glyphs};
use crate::replay::run::{Lane, LaneState, Run, SegKind, Validation};
use crate::replay::warn::WarnKind;

/// The words beside a call lane at `t`: its state, or its result.
pub fn call_note(tl: &Run, i: usize, t: u64, th: &Theme, g: &Glyphs) -> (String, Style) {
    if tl.origin.scenario().is_none() {
        return recorded_note(tl, i, t, th, g);
    }
    let c = &tl.calls[i];
    if let Some(r) = c.result.as_ref().filter(|r| r.t_ms <= t) {
        if let Some((why, _)) = &c.rejected {
            return (format!("{} rejected: {why}", g.refused), th.bad);
        }
        let attempts = match r.attempts {
            0 => "not run".to_owned(),
            1 => "1 attempt".to_owned(),
            n => format!("{n} attempts"),
        };
        let cut = if r.truncated { ", TRUNCATED" } else { "" };
        return (
            format!(
                "{} {}{}{attempts}{cut}",
                g.category(r.category),
                r.category,
                g.sep
            ),
            glyphs::category_style(th, r.category),
        );
    }
    match tl.call_state(i, t) {
        LaneState::Later => (String::new(), th.dim),
        LaneState::Waiting => (format!("{} waiting for a slot", g.wait), th.dim),
        LaneState::Backoff => {
            let next = c
                .segments
                .iter()
                .find(|s| s.kind == SegKind::Backoff && s.start <= t && t < s.end)
                .map(|s| (s.attempt + 1, s.end));
            let text = match next {
                Some((a, at)) => format!("{} backoff: attempt {a} at {at} ms", g.backoff),
                None => format!("{} backoff", g.backoff),
            };
            (text, th.dim)
        }
        LaneState::Running => {
            let run = c
                .segments
                .iter()
                .rev()
                .find(|s| s.kind == SegKind::Run && s.start <= t);
            let text = match run {
                Some(s) => match s.timeout_ms {
                    Some(to) => format!(
                        "{} attempt {} running, timeout at {}",
                        g.running,
                        s.attempt,
                        s.start + to
                    ),
                    None => format!("{} attempt {} running", g.running, s.attempt),
                },
                None => format!("{} running", g.running),
            };
            (text, th.accent)
        }
        LaneState::Ok | LaneState::Failed => (String::new(), th.dim),
    }
}

/// The words beside a recorded call at `t`: what came back (or that nothing did), and
/// its findings.
fn recorded_note(tl: &Run, i: usize, t: u64, th: &Theme, g: &Glyphs) -> (String, Style) {
    let c = &tl.calls[i];
    if t < c.proposed_ms {
        return (String::new(), th.dim);
    }
    let (mut text, mut style) = match (c.result.as_ref().filter(|r| r.t_ms <= t), &c.validation) {
        (Some(r), _) => (
            format!("{} {}", g.category(r.category), r.category),
            glyphs::category_style(th, r.category),
        ),
        (None, Validation::Failed(_)) => (format!("{} invalid, no result yet", g.fail), th.bad),
        (None, _) if c.result.is_some() => (format!("{} no result yet", g.wait), th.dim),
        (None, _) => (format!("{} no result in the record", g.wait), th.dim),
    };
    let shown = c
        .result
        .as_ref()
        .filter(|r| r.t_ms <= t)
        .map(|r| r.category.to_string());
    for w in tl
        .warnings
        .iter()
        .filter(|w| w.call == Some(i) && w.t_ms <= t)
    {
        // Said once: a finding that is the category already shown is not said again.
        if shown.as_deref() == Some(w.kind.word()) {
            continue;
        }
        // A repair is good news; anything else is a warning.
        let good = w.kind == WarnKind::Repaired;
        let mark = if good { g.ok } else { g.warn };
        text.push_str(&format!("{}{mark} {}", g.sep, w.kind.word()));
        if !good && (style == th.ok || style == th.dim) {
            style = th.warn;
        }
    }
    (text, style)
}

/// The words beside a raced handler's row.
pub fn ghost_note(tl: &Run, lane: Lane, t: u64, th: &Theme, g: &Glyphs) -> (String, Style) {
    let Lane::Call(i) = lane else {
        return (String::new(), th.dim);
    };
    let ghost = tl.calls[i]
        .segments
        .iter()
        .rev()
        .find(|s| s.kind == SegKind::Ghost && s.start <= t);
    match ghost {
        Some(s) if s.end <= t => (
            format!(
                "{} attempt {} finished {} at {} ms, nobody waiting",
                g.ghost,
                s.attempt,
                s.outcome.map_or("?".to_owned(), |o| o.to_string()),
                s.end
            ),
            th.dim,
        ),
        Some(s) => (
            format!(
                "{} attempt {} runs on, holding its slot",
                g.ghost, s.attempt
            ),
            th.warn,
        ),
        None => (String::new(), th.dim),
    }
}
