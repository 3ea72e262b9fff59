//! Drawing the drill: a header with the countdown, the open question (or the scorecard),
//! and the key bar; the quit question and the help on top. Reads `&Drill` only.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{Drill, Phase, Saved};
use crate::course::rehearsal::score::{clock, seconds};
use crate::course::rehearsal::{Explain, Predict, Question, Sitting};
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
        let top = if self.phase == Phase::Done {
            usize::from(self.scroll).min(most)
        } else {
            // The focus line in view, moved by PgUp/PgDn.
            let base = i64::try_from((focus + 1).saturating_sub(h)).unwrap_or(0);
            let top = (base + i64::from(self.shift)).clamp(0, i64::try_from(most).unwrap_or(0));
            usize::try_from(top).unwrap_or(0)
        };
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
            spans.push(Span::styled(
                format!("scorecard, seed {}", self.cfg.seed),
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
                out.push(Line::styled(
                    format!("Lesson: {}", self.title_of(&p.lesson)),
                    t.dim,
                ));
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
        if let Some(round) = &self.write {
            return round.lines(t, w);
        }
        let mut out = vec![Line::styled(
            "Write it: validate_tool_args or execute_tool, in your own editor",
            t.heading,
        )];
        let (passed, total, report) = self.write_result();
        out.push(Line::styled(
            format!("{passed} of {total} rows pass so far"),
            t.base,
        ));
        out.extend(
            report
                .iter()
                .flat_map(|l| wrap(l, w))
                .map(|l| Line::styled(l, t.code)),
        );
        out
    }

    fn scorecard_lines(&self, t: &Theme, w: usize) -> (Vec<Line<'static>>, usize) {
        let card = self.scorecard();
        let mut out = vec![
            Line::styled(
                format!(
                    "Score {}%: {} of {} right",
                    card.percent(),
                    card.right,
                    card.asked
                ),
                t.heading,
            ),
            Line::styled(
                format!("Time per answered question: {}", seconds(card.mean_ms)),
                t.base,
            ),
            Line::default(),
        ];
        for (title, list) in [("Slowest", &card.slowest), ("Missed", &card.missed)] {
            out.push(Line::styled(format!("{title}:"), t.heading));
            if list.is_empty() {
                out.push(Line::styled("  none", t.dim));
            }
            for &i in list.iter() {
                out.push(self.link_line(i, t, w));
            }
            out.push(Line::default());
        }
        let status = match &self.saved {
            Some(Saved::To(p)) => Line::styled(
                format!("{} Transcript saved to {}", t.sym.ok, p.display()),
                t.ok,
            ),
            Some(Saved::Failed(e)) => {
                Line::styled(format!("{} Transcript not saved: {e}", t.sym.bad), t.bad)
            }
            None => Line::styled(
                format!(
                    "w saves the transcript to {}",
                    self.cfg
                        .transcript
                        .clone()
                        .unwrap_or_else(|| self.default_transcript())
                        .display()
                ),
                t.dim,
            ),
        };
        out.push(status);
        let out = out
            .into_iter()
            .map(|l| {
                let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
                Line::styled(truncate(&text, w, t.sym.ellipsis), l.style)
            })
            .collect();
        (out, 0)
    }

    /// One question on the scorecard: its number, kind, time and the lesson to revisit.
    fn link_line(&self, i: usize, t: &Theme, w: usize) -> Line<'static> {
        let Some(q) = self.questions.get(i) else {
            return Line::default();
        };
        let a = self.answers.iter().find(|a| a.index == i);
        let (mark, style) = match a {
            Some(a) if a.right() => (t.sym.ok, t.ok),
            _ => (t.sym.bad, t.bad),
        };
        let ms = a.map_or(0, |a| a.ms);
        let what = match q {
            Question::Write { .. } => String::new(),
            _ => format!(" ({})", q.id()),
        };
        let text = format!(
            "  {mark} Q{} {}, {}: lesson {}{what}",
            i + 1,
            q.kind(),
            seconds(ms),
            self.title_of(q.lesson()),
        );
        Line::styled(truncate(&text, w, t.sym.ellipsis), style)
    }
}
