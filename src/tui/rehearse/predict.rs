//! Drawing a prediction: the question, its prompt (a schema, the call's arguments), every
//! choice and, once answered, the outcome. Every JSON prompt is laid out the same way
//! ([`fold`]). When the whole does not fit, the tallest part of the prompt (a big schema)
//! takes the rows the rest leaves and scrolls there with PgUp/PgDn, a mark on its first and
//! last rows saying how many of its lines are out of view: the question, the arguments and
//! the choices stay in view while the clock runs.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::fold::fold;
use super::{Drill, Phase};
use crate::course::rehearsal::{Predict, Sitting};
use crate::text::{width as width_of, wrap};
use crate::tui::draw;
use crate::tui::theme::Theme;

/// The fewest rows a scrolled prompt part is given: a line between its two marks.
const LEAST_PANE: usize = 3;

/// A prediction's lines: those above the part that may scroll, that part (and its label),
/// and those below it.
pub(super) struct Parts {
    above: Vec<Line<'static>>,
    pane: Vec<Line<'static>>,
    label: &'static str,
    below: Vec<Line<'static>>,
}

impl Parts {
    /// Every line, in order.
    pub(super) fn joined(self) -> Vec<Line<'static>> {
        let mut out = self.above;
        out.extend(self.pane);
        out.extend(self.below);
        out
    }
}

/// One prompt entry: its JSON folded after `label: `, else wrapped under it.
fn prompt_lines(label: &str, text: &str, t: &Theme, w: usize) -> Vec<Line<'static>> {
    let lead = format!("{label}: ");
    if let Some(lines) = fold(text, &lead, w) {
        return (lines.into_iter().enumerate())
            .map(|(i, l)| {
                if i > 0 {
                    return draw::highlight_json_line(&l, t);
                }
                let mut spans = vec![Span::styled(lead.clone(), t.dim)];
                spans.extend(draw::highlight_json_line(&l[lead.len()..], t).spans);
                Line::from(spans)
            })
            .collect();
    }
    let indent = width_of(label) + 2;
    (wrap(text, w.saturating_sub(indent)).into_iter().enumerate())
        .map(|(i, part)| {
            let head = if i == 0 {
                lead.clone()
            } else {
                " ".repeat(indent)
            };
            Line::from(vec![Span::styled(head, t.dim), Span::styled(part, t.code)])
        })
        .collect()
}

impl Drill {
    /// The prediction's lines for a body `w` wide, the tallest prompt entry apart.
    pub(super) fn predict_parts(&self, p: &Predict, t: &Theme, w: usize) -> Parts {
        let blocks: Vec<Vec<Line<'static>>> = (p.prompt.iter())
            .map(|(label, text)| prompt_lines(label, text, t, w))
            .collect();
        // The first of the tallest entries scrolls, when there is one of two lines or more.
        let tallest = (0..blocks.len())
            .rev()
            .max_by_key(|&i| blocks[i].len())
            .filter(|&i| blocks[i].len() > 1);
        let mut parts = Parts {
            above: vec![Line::styled(
                format!("What does {} say? ({})", p.who, p.source.word()),
                t.heading,
            )],
            pane: Vec::new(),
            label: tallest.map_or("", |i| p.prompt[i].0),
            below: Vec::new(),
        };
        for (i, block) in blocks.into_iter().enumerate() {
            match tallest {
                Some(k) if i == k => parts.pane = block,
                Some(k) if i < k => parts.above.extend(block),
                _ => parts.below.extend(block),
            }
        }
        parts.below.extend(self.choice_lines(p, t, w));
        parts
    }

    /// Every choice, then what answering it brought.
    fn choice_lines(&self, p: &Predict, t: &Theme, w: usize) -> Vec<Line<'static>> {
        let mut out = vec![Line::default()];
        let pick = self.answers.last().filter(|a| a.index == self.cur);
        for (i, c) in p.choices.iter().enumerate() {
            let here = i == self.choice;
            let mark = if here { t.sym.pointer } else { " " };
            let style = if here { t.selected } else { t.base };
            out.push(Line::styled(format!(" {mark} {} {c}", i + 1), style));
        }
        out.push(Line::default());
        match (self.phase, pick) {
            (Phase::Locked, Some(_)) => out.push(Line::styled(
                "Answer locked. Interviewer: press r to reveal the real outcome.",
                t.accent,
            )),
            (Phase::Reveal, Some(a)) => {
                let (mark, word, style) = if a.right() {
                    (t.sym.ok, "right", t.ok)
                } else {
                    (t.sym.bad, "wrong", t.bad)
                };
                out.push(Line::styled(
                    format!("{mark} {word}: {} answered {}", p.who, p.answer),
                    style,
                ));
                let text = [p.result.as_str(), p.reason.as_str()];
                for (i, part) in text.into_iter().enumerate() {
                    let style = if i == 0 { t.code } else { t.base };
                    out.extend(wrap(part, w).into_iter().map(|l| Line::styled(l, style)));
                }
                for l in wrap(&format!("Tests: {}", p.tests), w) {
                    out.push(Line::styled(l, t.base));
                }
                out.push(Line::styled(
                    format!("Lesson: {}", self.title_of(&p.lesson)),
                    t.dim,
                ));
                out.push(Line::styled("Enter: the next question.", t.dim));
            }
            _ => {}
        }
        out
    }

    /// Draw a prediction too tall for `body` with its tallest prompt entry scrolled in the
    /// rows the rest leaves. Returns how far that entry can scroll and its label; `None`
    /// when the whole fits (or the rest alone does not leave the entry a few rows), for the
    /// body to be drawn, and scrolled, as one.
    pub(super) fn render_predict(
        &self,
        p: &Predict,
        body: Rect,
        buf: &mut Buffer,
        t: &Theme,
    ) -> Option<(usize, &'static str)> {
        let (w, h) = (usize::from(body.width), usize::from(body.height));
        let mut parts = self.predict_parts(p, t, w);
        // The blank line under the choices is not worth a row here (the whole, blank line
        // and all, fitting is left to the body).
        while parts.below.last().is_some_and(|l| l.width() == 0) {
            parts.below.pop();
        }
        let fixed = parts.above.len() + parts.below.len();
        let room = h.checked_sub(fixed)?;
        let n = parts.pane.len();
        if (n > room && room < LEAST_PANE) || fixed + n < h {
            return None;
        }
        let pane_h = n.min(room);
        let most = n - pane_h;
        let top = usize::try_from(self.shift.max(0)).unwrap_or(0).min(most);
        // A page is the pane less the two mark rows (PgDn steps its height less one).
        let to_i32 = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
        let page = u16::try_from(pane_h.saturating_sub(1)).unwrap_or(u16::MAX);
        self.view.set((page, (0, to_i32(most))));
        let rows = |from: usize, n: usize| Rect {
            y: body.y + u16::try_from(from).unwrap_or(0),
            height: u16::try_from(n).unwrap_or(0),
            ..body
        };
        draw::draw_lines(rows(0, parts.above.len()), buf, &parts.above, 0);
        let pane = rows(parts.above.len(), pane_h);
        draw::draw_lines(pane, buf, &parts.pane, top);
        let below = rows(parts.above.len() + pane_h, parts.below.len());
        draw::draw_lines(below, buf, &parts.below, 0);
        self.mark_pane(pane, buf, t, (top, n), parts.label);
        Some((most, parts.label))
    }

    /// Say on the pane's first row how many of its `total` lines are above (when scrolled
    /// `top` lines in) and on its last how many more are below, with the key for each.
    fn mark_pane(
        &self,
        pane: Rect,
        buf: &mut Buffer,
        t: &Theme,
        (top, total): (usize, usize),
        label: &str,
    ) {
        let h = usize::from(pane.height);
        let mut mark = |row: u16, text: String| {
            // The row is cleared first: the line drawn there goes.
            let line = Rect {
                y: pane.y + row,
                height: 1,
                ..pane
            };
            buf.set_style(line, t.base);
            for x in line.left()..line.right() {
                if let Some(c) = buf.cell_mut((x, line.y)) {
                    c.set_symbol(" ");
                }
            }
            let text = crate::text::fit(&text, usize::from(pane.width), t.sym.ellipsis);
            buf.set_line(pane.x, line.y, &Line::styled(text, t.dim), pane.width);
        };
        if top > 0 {
            let n = top + 1;
            mark(
                0,
                format!("{} {n} lines of the {label} above: PgUp", t.sym.ellipsis),
            );
        }
        if top + h < total {
            let n = total - (top + h) + 1;
            let row = pane.height.saturating_sub(1);
            mark(
                row,
                format!("{} {n} more lines of the {label} below: PgDn", t.sym.arrow),
            );
        }
    }
}
