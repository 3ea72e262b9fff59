//! Drawing the drill: a header with the countdown, the open question (or the scorecard),
//! and the key bar; the quit question and the help on top. Reads `&Drill` only.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{Drill, Phase};
use crate::course::rehearsal::score::clock;
use crate::course::rehearsal::{Explain, Given, Predict, Question, Sitting};
use crate::text::{truncate, width as width_of, wrap};
use crate::tui::draw::keybar::{Rank, render_keys};
use crate::tui::draw::{self, text_popup};
use crate::tui::theme::Theme;

/// Below this many seconds the countdown turns to a warning.
const HURRY_MS: u64 = 30_000;
/// The answer editor's tallest height.
const EDITOR_MAX: u16 = 12;

impl Drill {
    /// Draw the whole drill screen into `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer, t: &Theme, present: bool) {
        let draw::ScreenAreas { head, body, bar } = draw::screen(area, buf, t, present);
        self.render_head(head, buf, t);
        let lines = if self.phase == Phase::Done {
            self.scorecard_lines(t, usize::from(body.width))
        } else {
            self.question_lines(t, usize::from(body.width))
        };
        let (lines, focus) = lines;
        let h = usize::from(body.height);
        let most = lines.len().saturating_sub(h);
        let base = (focus + 1).saturating_sub(h);
        let top = if self.phase == Phase::Done {
            usize::from(self.scroll).min(most)
        } else {
            // The focus line in view, moved by PgUp/PgDn.
            let top = (i64::try_from(base).unwrap_or(0) + i64::from(self.shift))
                .clamp(0, i64::try_from(most).unwrap_or(0));
            usize::try_from(top).unwrap_or(0)
        };
        // What PgUp/PgDn may move: a page, within what there is to show.
        let to_i32 = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
        self.view.set((
            body.height,
            (-to_i32(base), to_i32(most).saturating_sub(to_i32(base))),
        ));
        Paragraph::new(lines.into_iter().skip(top).take(h).collect::<Vec<_>>()).render(body, buf);
        if self.editing
            && let Some(Question::Explain(_)) = self.questions.get(self.cur)
        {
            let ed = self.editor_area(body);
            self.editor
                .render(ed, buf, t, true, "your answer (Esc when done)", true);
        }
        // Scrolling earns a place in the bar only when something is out of view.
        let mut keys = self.hints();
        keys.retain(|k| k.rank != Rank::Scroll || most > 0);
        render_keys(&keys, None, t, bar, buf);
        if self.confirm_quit {
            let msg = "Quit the drill? Your answers so far are not saved. q or y quits; any other key goes on.";
            text_popup(area, buf, t, " Quit? ", &wrap(msg, 46));
        } else if self.help {
            let mut text: Vec<String> = self
                .hints()
                .iter()
                .map(|h| format!("{:<6} {}", h.keys, h.what))
                .collect();
            text.push(String::new());
            text.extend(wrap(
                "While you type an answer every key types, q included; Esc leaves the editor. Ctrl-C quits at once.",
                44,
            ));
            text_popup(area, buf, t, " Keys ", &text);
        }
    }

    /// The editor sits below the question while the learner types.
    fn editor_area(&self, body: Rect) -> Rect {
        let used = match self.questions.get(self.cur) {
            Some(Question::Explain(e)) => wrap(&e.question, usize::from(body.width)).len() + 2,
            _ => 0,
        };
        let y = body.y + u16::try_from(used).unwrap_or(body.height).min(body.height);
        Rect {
            y,
            height: (body.y + body.height).saturating_sub(y).min(EDITOR_MAX),
            ..body
        }
    }

    fn render_head(&self, area: Rect, buf: &mut Buffer, t: &Theme) {
        let total = self.questions.len();
        let left = self.left_ms();
        let mut spans = vec![Span::styled(" Rehearsal ", t.heading)];
        if self.phase == Phase::Done {
            let why = if self.time_up() { ": time's up" } else { "" };
            spans.push(Span::styled(
                format!("scorecard, seed {}{why}", self.cfg.seed),
                t.dim,
            ));
        } else {
            let kind = self.questions.get(self.cur).map_or("", Question::kind);
            spans.push(Span::styled(
                format!("Q{} of {total} {} {kind}", self.cur + 1, t.sym.bullet),
                t.base,
            ));
        }
        if self.cfg.interviewer {
            spans.push(Span::styled("  [interviewer]", t.accent));
        } else if self.cfg.reveal_at_end && self.phase != Phase::Done {
            spans.push(Span::styled("  [outcomes at the end]", t.accent));
        }
        if let (Some(Question::Explain(e)), Phase::Ask) = (self.questions.get(self.cur), self.phase)
            && let Some(budget) = e.budget_ms
        {
            let spent = self.elapsed_ms().saturating_sub(self.shown_at);
            let style = if spent > budget { t.warn } else { t.dim };
            spans.push(Span::styled(
                format!("  answer {} of {}", clock(spent), clock(budget)),
                style,
            ));
        }
        let time = if self.phase == Phase::Done {
            format!("time used {} ", clock(self.elapsed_ms()))
        } else {
            format!("{} left ", clock(left))
        };
        let style = if self.phase != Phase::Done && left < HURRY_MS {
            t.warn
        } else {
            t.heading
        };
        let used: usize = spans.iter().map(Span::width).sum();
        let gap = usize::from(area.width).saturating_sub(used + width_of(&time));
        spans.push(Span::raw(" ".repeat(gap)));
        spans.push(Span::styled(time, style));
        buf.set_line(area.x, area.y, &Line::from(spans), area.width);
        // The time bar: how much of the clock is left.
        let w = usize::from(area.width);
        let limit = self.cfg.limit_ms().max(1);
        let full = usize::try_from(u128::from(left) * w as u128 / u128::from(limit)).unwrap_or(w);
        let bar = format!(
            "{}{}",
            t.sym.bar_full.repeat(full.min(w)),
            t.sym.bar_empty.repeat(w - full.min(w))
        );
        buf.set_line(area.x, area.y + 1, &Line::styled(bar, style), area.width);
    }

    /// The open question's lines and the line to keep in view.
    fn question_lines(&self, t: &Theme, w: usize) -> (Vec<Line<'static>>, usize) {
        match self.questions.get(self.cur) {
            Some(Question::Predict(p)) => {
                let lines = self.predict_lines(p, t, w);
                // Every choice while choosing (a blank line follows them), the outcome once
                // answered.
                let focus = match self.phase {
                    Phase::Ask => lines.len().saturating_sub(2),
                    _ => lines.len().saturating_sub(1),
                };
                (lines, focus)
            }
            Some(Question::Explain(e)) => self.explain_lines(e, t, w),
            Some(Question::Write { .. }) => (self.write_lines(t, w), 0),
            None => (Vec::new(), 0),
        }
    }

    fn predict_lines(&self, p: &Predict, t: &Theme, w: usize) -> Vec<Line<'static>> {
        let mut out = vec![Line::styled(
            format!("What does {} say? ({})", p.who, p.source.word()),
            t.heading,
        )];
        for (label, text) in &p.prompt {
            let indent = width_of(label) + 2;
            for (i, part) in wrap(text, w.saturating_sub(indent)).into_iter().enumerate() {
                let head = if i == 0 {
                    format!("{label}: ")
                } else {
                    " ".repeat(indent)
                };
                out.push(Line::from(vec![
                    Span::styled(head, t.dim),
                    Span::styled(part, t.code),
                ]));
            }
        }
        out.push(Line::default());
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
                for l in wrap(&p.result, w) {
                    out.push(Line::styled(l, t.code));
                }
                for l in wrap(&p.reason, w) {
                    out.push(Line::styled(l, t.base));
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

    fn explain_lines(&self, e: &Explain, t: &Theme, w: usize) -> (Vec<Line<'static>>, usize) {
        let mut out: Vec<Line> = wrap(&e.question, w)
            .into_iter()
            .map(|l| Line::styled(l, t.heading))
            .collect();
        out.push(Line::default());
        if self.editing {
            return (out, 0);
        }
        let mine = self.editor.text();
        out.push(Line::styled("Your answer:", t.dim));
        let mine = if mine.trim().is_empty() {
            "(nothing typed yet: e edits)".to_owned()
        } else {
            mine
        };
        out.extend(wrap(&mine, w).into_iter().map(|l| Line::styled(l, t.code)));
        out.push(Line::default());
        let mut focus = 0;
        match self.phase {
            Phase::Ask => out.push(Line::styled(
                "Enter: compare with the model answer (you cannot change it after).",
                t.dim,
            )),
            Phase::Locked => out.push(Line::styled(
                "Answer locked. Interviewer: press r to show the model answer and rubric.",
                t.accent,
            )),
            _ => {
                out.push(Line::styled("Model answer:", t.heading));
                out.extend(
                    wrap(&e.model_answer, w)
                        .into_iter()
                        .map(|l| Line::styled(l, t.base)),
                );
                out.push(Line::default());
                let who = if self.cfg.interviewer {
                    "Interviewer, tick"
                } else {
                    "Tick"
                };
                out.push(Line::styled(
                    format!("{who} each point the answer covered (Space), then Enter:"),
                    t.heading,
                ));
                for (i, p) in e.points.iter().enumerate() {
                    let here = i == self.point;
                    if here {
                        focus = out.len();
                    }
                    let hit = self.ticked.get(i).copied().unwrap_or(false);
                    let mark = if hit { t.sym.checked } else { t.sym.unchecked };
                    let style = if here { t.selected } else { t.base };
                    let pointer = if here { t.sym.pointer } else { " " };
                    let text = truncate(&format!("{pointer} {mark} {p}"), w, t.sym.ellipsis);
                    out.push(Line::styled(text, style));
                }
            }
        }
        (out, focus)
    }

    fn write_lines(&self, t: &Theme, w: usize) -> Vec<Line<'static>> {
        let handed = self.answers.last().filter(|a| a.index == self.cur);
        if let (Phase::Reveal, Some(a)) = (self.phase, handed) {
            return self.handed_in_lines(a, t, w);
        }
        if let Some(round) = &self.write {
            return round.lines(t, w);
        }
        let mut out = vec![Line::styled(
            "Write it: validate_tool_args or execute_tool, in your own editor",
            t.heading,
        )];
        if let Given::Written { report, .. } = self.write_result() {
            out.extend(
                report
                    .iter()
                    .flat_map(|l| wrap(l, w))
                    .map(|l| Line::styled(l, t.code)),
            );
        }
        out
    }

    /// The round as handed in: passed or not, and each failing row with its trap.
    fn handed_in_lines(
        &self,
        a: &crate::course::rehearsal::Answer,
        t: &Theme,
        w: usize,
    ) -> Vec<Line<'static>> {
        let Given::Written {
            passed,
            total,
            failing,
            ..
        } = &a.given
        else {
            return Vec::new();
        };
        let (mark, word, style) = if a.right() {
            (t.sym.ok, "passed", t.ok)
        } else {
            (t.sym.bad, "not passed", t.bad)
        };
        let mut out = vec![Line::styled(
            format!("{mark} Handed in: {passed} of {total} rows pass: {word}."),
            style,
        )];
        if !failing.is_empty() {
            out.push(Line::styled(
                "Failing rows, each with the trap it tests:",
                t.heading,
            ));
            for f in failing {
                for l in wrap(&f.line(), w.saturating_sub(2)) {
                    out.push(Line::styled(format!("  {l}"), t.code));
                }
            }
        }
        let lesson = self.questions.get(self.cur).map_or("", Question::lesson);
        out.push(Line::styled(
            format!("Lesson: {}", self.title_of(lesson)),
            t.dim,
        ));
        out.push(Line::styled("Enter: the next question.", t.dim));
        out
    }
}
