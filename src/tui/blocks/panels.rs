//! Pieces the playgrounds draw: the ordered pipeline of checks, the rule switches, and
//! the fixture rows that flip with a rule off (laid out by `playground::side`).

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::text::{fit, width as width_of};
use crate::tui::theme::Theme;

/// Where one check of a pipeline stands after a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageState {
    Passed,
    Fired,
    NotRun,
    Off,
}

/// Where each check of a pipeline stands after a run, from `(label, switched off, fired)`
/// in check order: the checks after the one that fired did not run, nor did any when the
/// run was `broken` before the pipeline started.
pub fn stage_states(
    stages: impl IntoIterator<Item = (&'static str, bool, bool)>,
    broken: bool,
) -> Vec<(&'static str, StageState)> {
    let mut stopped = broken;
    stages
        .into_iter()
        .map(|(label, off, fired)| {
            let state = if stopped {
                StageState::NotRun
            } else if off {
                StageState::Off
            } else if fired {
                stopped = true;
                StageState::Fired
            } else {
                StageState::Passed
            };
            (label, state)
        })
        .collect()
}

/// `✓ parse → ✓ required → ✗ unknown → · type → · value`, wrapped to `width`.
/// The fired stage is drawn in the `bad` style and says `FIRED`; a switched-off stage says `off`.
pub fn pipeline_lines(
    theme: &Theme,
    title: &str,
    stages: &[(&str, StageState)],
    width: usize,
) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let mut line: Vec<Span<'static>> = vec![Span::styled(format!("{title} "), theme.dim)];
    let mut w = width_of(title) + 1;
    let indent = w;
    for (n, (label, state)) in stages.iter().enumerate() {
        let (mark, style, suffix) = match state {
            StageState::Passed => (theme.sym.ok, theme.ok, ""),
            StageState::Fired => (theme.sym.bad, theme.bad.patch(theme.selected), " FIRED"),
            StageState::NotRun => (theme.sym.todo, theme.dim, ""),
            StageState::Off => (theme.sym.todo, theme.dim, " off"),
        };
        let text = format!("{mark} {label}{suffix}");
        let sep = if n + 1 < stages.len() {
            format!(" {} ", theme.sym.arrow)
        } else {
            String::new()
        };
        let need = width_of(&text) + width_of(&sep);
        if w + need > width && w > indent {
            out.push(Line::from(std::mem::take(&mut line)));
            line.push(Span::raw(" ".repeat(indent)));
            w = indent;
        }
        line.push(Span::styled(text, style));
        line.push(Span::styled(sep, theme.dim));
        w += need;
    }
    out.push(Line::from(line));
    out
}

/// The rule switches, one a line: `▶ [✓] type check  on`.
pub fn rule_lines(
    theme: &Theme,
    labels: &[&str],
    off: Option<usize>,
    cursor: Option<usize>,
    width: usize,
) -> Vec<Line<'static>> {
    let mut out = vec![Line::from(Span::styled(
        "Rules (Space: off/on)",
        theme.heading,
    ))];
    for (i, label) in labels.iter().enumerate() {
        let is_off = off == Some(i);
        let here = cursor == Some(i);
        let pointer = if here { theme.sym.pointer } else { " " };
        let (mark, st, word) = if is_off {
            (theme.sym.switch_off, theme.warn, "OFF")
        } else {
            (theme.sym.switch_on, theme.ok, "on")
        };
        // ASCII marks already spell the state out.
        let word = if theme.ascii { "" } else { word };
        let style = if here { theme.selected } else { theme.base };
        let tail = if word.is_empty() { 2 } else { 6 };
        let body = width.saturating_sub(width_of(pointer) + width_of(mark) + tail);
        out.push(Line::from(vec![
            Span::styled(format!("{pointer} "), theme.focus),
            Span::styled(format!("{mark} "), st),
            Span::styled(fit(label, body, theme.sym.ellipsis), style),
            Span::styled(
                if word.is_empty() {
                    String::new()
                } else {
                    format!(" {word}")
                },
                st,
            ),
        ]));
    }
    out
}

/// One fixture row whose result changes when a rule is off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flip {
    pub id: String,
    /// Result with every rule on (`ok`, a code, or a verdict message).
    pub with: String,
    pub with_ok: bool,
    pub without: String,
    pub without_ok: bool,
}

impl Flip {
    /// Row `id` flips when its verdict with every rule on (`a`) differs from the one with a
    /// rule off (`b`); `ok_word` is what a passing verdict is called ("ok", "let through").
    pub fn between(
        id: &str,
        a: &crate::validate::cases::Verdict,
        b: &crate::validate::cases::Verdict,
        ok_word: &str,
    ) -> Option<Flip> {
        let words = |v: &crate::validate::cases::Verdict| match v.ok {
            true => ok_word.to_owned(),
            false => v.error.clone(),
        };
        (a != b).then(|| Flip {
            id: id.to_owned(),
            with: words(a),
            with_ok: a.ok,
            without: words(b),
            without_ok: b.ok,
        })
    }
}

/// The rule switch a click lands on: `drawn` is where the block was last drawn (its origin)
/// and the rules list's area (a bordered box, first rule on the row under its top border);
/// `row`, `col` are relative to the block. Returns the rule's index and the rule.
pub fn clicked_rule<R: Copy>(
    drawn: ((u16, u16), Rect),
    row: u16,
    col: u16,
    rules: &[R],
) -> Option<(usize, R)> {
    let ((ox, oy), ra) = drawn;
    let (x, y) = (ox.saturating_add(col), oy.saturating_add(row));
    if ra.is_empty() || x < ra.x || x >= ra.right() || y <= ra.y || y >= ra.bottom() {
        return None;
    }
    let idx = usize::from(y - ra.y - 1);
    rules.get(idx).map(|&r| (idx, r))
}

/// Space (or a click) on a rule: switch it off, or back on when it is already the one off.
pub fn toggled<R: PartialEq>(off: Option<R>, rule: R) -> Option<R> {
    if off.as_ref() == Some(&rule) {
        None
    } else {
        Some(rule)
    }
}

/// What the playgrounds' rules panel shows (see `playground::side`): the rule switches,
/// what each rule checks, and the fixture rows that flip with the switched-off rule.
pub struct RulesPanel<'a> {
    /// The rule labels, in switch order.
    pub labels: &'a [&'a str],
    /// What each rule checks and what gets through without it, in switch order.
    pub about: &'a [&'a str],
    /// Index of the rule switched off, if any.
    pub off: Option<usize>,
    /// Index of the highlighted switch, when the panel has the cursor.
    pub cursor: Option<usize>,
    pub flips: &'a [Flip],
    pub flip_total: usize,
    /// What the rows are called ("fixture rows", "trap rows").
    pub rows: &'a str,
}
