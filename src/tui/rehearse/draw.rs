//! Drawing the drill: a header with the countdown, the open question (or the scorecard),
//! and the key bar; the quit question and the help on top. Reads `&Drill` only.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::{Drill, Phase};
use crate::course::rehearsal::score::{clock, failing_list};
use crate::course::rehearsal::{Explain, Given, Question, Sitting};
use crate::text::{truncate, width as width_of, wrap};
use crate::tui::draw::keybar::{BarKey, Rank, render_keys};
use crate::tui::draw::{self, text_popup};

/// The narrowest body that keeps a side column beside the question, and that column's width.
const SIDE_FROM: u16 = 110;
const SIDE_W: u16 = 40;

/// The body, and a column on its right for the drill's progress and keys when it is wide.
fn split_side(body: Rect) -> (Rect, Option<Rect>) {
    if body.width < SIDE_FROM {
        return (body, None);
    }
    let main = Rect {
        width: body.width - SIDE_W - 3,
        ..body
    };
    let side = Rect {
        x: body.x + body.width - SIDE_W,
        width: SIDE_W,
        ..body
    };
    (main, Some(side))
}
use crate::tui::theme::Theme;

/// What PgUp/PgDn do when the prompt entry `label` scrolls alone.
fn scroll_what(label: &str) -> &'static str {
    match label {
        "schema" => "scroll the schema",
        "args" => "scroll the arguments",
        "calls" => "scroll the calls",
        _ => "scroll the prompt",
    }
}

/// Below this many seconds the countdown turns to a warning.
const HURRY_MS: u64 = 30_000;

impl Drill {
    /// Draw the whole drill screen into `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer, t: &Theme, present: bool) {
        let draw::ScreenAreas { head, body, bar } = draw::screen(area, buf, t, present);
        // A wide window keeps the drill's progress and its keys beside the question.
        let (body, side) = match self.phase {
            Phase::Done => (body, None),
            _ => split_side(body),
        };
        self.render_head(head, buf, t, side.is_none());
        let (most, pane) = self.render_body(body, buf, t);
        // Scrolling earns a place among the keys only when something is out of view; when a
        // prediction's schema scrolls alone, the keys say so.
        let mut keys = self.hints();
        keys.retain(|k| k.rank != Rank::Scroll || most > 0);
        if let Some(label) = pane {
            for k in keys.iter_mut().filter(|k| k.rank == Rank::Scroll) {
                k.what = scroll_what(label);
            }
        }
        if let Some(side) = side {
            let lines = self.side_lines(t, usize::from(side.width), &keys);
            draw::draw_lines(side, buf, &lines, 0);
        }
        if self.editing
            && let Some(Question::Explain(_)) = self.questions.get(self.cur)
        {
            let ed = self.editor_area(body);
            self.editor
                .render(ed, buf, t, true, "your answer (Esc when done)", true);
        }
        render_keys(&keys, None, t, bar, buf);
        if self.confirm_quit {
            let (title, msg) = if self.cfg.quits_app {
                (
                    " Quit? ",
                    "Quit the drill? Your answers so far are not saved. q or y quits tooldojo; any other key goes on.",
                )
            } else {
                (
                    " Leave? ",
                    "Leave the drill? Your answers so far are not saved. q or y goes back to where you opened it; any other key goes on. Ctrl-C quits tooldojo.",
                )
            };
            text_popup(area, buf, t, title, &wrap(msg, 46));
        } else if self.help {
            let marks =
                (side.is_none() && self.phase != Phase::Done).then(|| self.question_marks(t));
            let text = self.help_text(&keys, marks, usize::from(area.height).saturating_sub(2));
            text_popup(area, buf, t, " Keys ", &text);
        }
    }

    /// The question (opened at its top; once answered, the outcome or the rubric point in
    /// view, moved by PgUp/PgDn) or the scrolled scorecard, with a mark on the first row
    /// when lines are above and on the last when more are below. Returns how far the view
    /// can scroll, and the label of the prompt entry that scrolls alone (a prediction's
    /// schema, when the whole does not fit).
    fn render_body(&self, body: Rect, buf: &mut Buffer, t: &Theme) -> (usize, Option<&str>) {
        if let (Some(Question::Predict(p)), Phase::Ask | Phase::Locked | Phase::Reveal) =
            (self.questions.get(self.cur), self.phase)
            && let Some((most, label)) = self.render_predict(p, body, buf, t)
        {
            return (most, Some(label));
        }
        let (lines, focus) = if self.phase == Phase::Done {
            self.scorecard_lines(t, usize::from(body.width))
        } else {
            self.question_lines(t, usize::from(body.width))
        };
        let total = lines.len();
        let unpinned_most = total.saturating_sub(usize::from(body.height));
        let (body, pinned) = if self.phase == Phase::Done {
            self.pin_status(body, buf, t, (focus, total))
        } else {
            (body, false)
        };
        let h = usize::from(body.height);
        let most = total.saturating_sub(h);
        // The focus line stays clear of the last row, which may carry the "more" mark.
        let base = match self.phase {
            Phase::Ask | Phase::Done => 0,
            _ => (focus + 2).saturating_sub(h).min(most),
        };
        let top = if self.phase == Phase::Done {
            // A card scrolled to its end stays at its end when a pinned line takes rows.
            if pinned && usize::from(self.scroll) >= unpinned_most {
                most
            } else {
                usize::from(self.scroll).min(most)
            }
        } else {
            let top = (i64::try_from(base).unwrap_or(0) + i64::from(self.shift))
                .clamp(0, i64::try_from(most).unwrap_or(0));
            usize::try_from(top).unwrap_or(0)
        };
        // What PgUp/PgDn may move: a page (less the two mark rows), within what there is.
        let to_i32 = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
        self.view.set((
            body.height.saturating_sub(1),
            (-to_i32(base), to_i32(most).saturating_sub(to_i32(base))),
        ));
        draw::draw_lines(body, buf, &lines, top);
        let (up, down) = if self.phase == Phase::Done {
            ("k/PgUp", "j/PgDn")
        } else {
            ("PgUp", "PgDn")
        };
        draw::mark_cut(body, buf, t, (top, total), (up, down));
        (most, None)
    }

    /// Right after `w` on the scorecard, its answer (saved where, or a file there to
    /// replace) shows above the key bar when the card is scrolled so that the transcript's
    /// own line, at `at` in the card's `total` lines, is out of view. Returns the rows left
    /// for the card, and whether the answer took some.
    fn pin_status(
        &self,
        body: Rect,
        buf: &mut Buffer,
        t: &Theme,
        (at, total): (usize, usize),
    ) -> (Rect, bool) {
        if !self.pin_status {
            return (body, false);
        }
        let status = self.transcript_status(t, usize::from(body.width));
        let (n, h) = (status.len(), usize::from(body.height));
        let top = usize::from(self.scroll).min(total.saturating_sub(h));
        // The first and last rows carry the marks when lines are above or below.
        let first = top + usize::from(top > 0);
        let end = top + h - usize::from(top + h < total);
        if (at >= first && at + n <= end) || n + 2 > h {
            return (body, false);
        }
        let rows = u16::try_from(n).unwrap_or(body.height);
        let card = Rect {
            height: body.height - rows,
            ..body
        };
        let pinned = Rect {
            y: card.bottom(),
            height: rows,
            ..body
        };
        draw::draw_lines(pinned, buf, &status, 0);
        (card, true)
    }

    /// The editor sits below the question while the learner types, and takes every row
    /// under it: a bigger window gives a longer answer room.
    fn editor_area(&self, body: Rect) -> Rect {
        let used = match self.questions.get(self.cur) {
            Some(Question::Explain(e)) => wrap(&e.question, usize::from(body.width)).len() + 2,
            _ => 0,
        };
        let y = body.y + u16::try_from(used).unwrap_or(body.height).min(body.height);
        Rect {
            y,
            height: (body.y + body.height).saturating_sub(y),
            ..body
        }
    }

    /// The side column: every question with where it stands, then `hints`, the keys that
    /// act now.
    fn side_lines(&self, t: &Theme, w: usize, hints: &[BarKey]) -> Vec<Line<'static>> {
        let mut out = vec![Line::styled("This drill", t.heading)];
        for (i, text) in self.question_marks(t).into_iter().enumerate() {
            let style = match self.answers.iter().find(|a| a.index == i) {
                Some(_) => t.dim,
                None if i == self.cur => t.selected,
                None => t.base,
            };
            out.push(Line::styled(truncate(&text, w, t.sym.ellipsis), style));
        }
        out.push(Line::default());
        out.push(Line::styled("Keys", t.heading));
        let kw = hints.iter().map(|h| width_of(h.keys)).max().unwrap_or(0);
        for h in hints {
            let head = format!("{:<kw$}  ", h.keys);
            for (i, part) in wrap(h.what, w.saturating_sub(kw + 2).max(8))
                .into_iter()
                .enumerate()
            {
                let lead = if i == 0 {
                    head.clone()
                } else {
                    " ".repeat(kw + 2)
                };
                out.push(Line::styled(format!("{lead}{part}"), t.dim));
            }
        }
        out
    }

    /// Each question with where it stands: `✓ Q1 predict answered`, `▶ Q2 explain now`.
    /// The `?` popup's lines, at most `room` of them: the keys the bar offers, then the
    /// questions when the side column has no room for them (side by side when one a line
    /// would not fit), then a note on typing when there is room left for it.
    fn help_text(&self, keys: &[BarKey], marks: Option<Vec<String>>, room: usize) -> Vec<String> {
        let mut text: Vec<String> = keys
            .iter()
            .map(|h| format!("{:<6} {}", h.keys, h.what))
            .collect();
        let note = wrap(
            "Typing an answer, every key types (q and s too): Esc leaves the editor, Ctrl-Z undoes, Ctrl-S skips. Ctrl-C quits at once.",
            44,
        );
        if let Some(marks) = marks {
            text.push(String::new());
            if text.len() + marks.len() + 1 + note.len() <= room {
                text.extend(marks);
            } else {
                let half = marks.len().div_ceil(2);
                let w = marks[..half].iter().map(|m| width_of(m)).max().unwrap_or(0);
                for (i, left) in marks[..half].iter().enumerate() {
                    let pad = " ".repeat(w - width_of(left) + 3);
                    let right = marks.get(i + half).map_or("", String::as_str);
                    text.push(format!("{left}{pad}{right}").trim_end().to_owned());
                }
            }
        }
        if text.len() + 1 + note.len() <= room {
            text.push(String::new());
            text.extend(note);
        }
        text
    }

    fn question_marks(&self, t: &Theme) -> Vec<String> {
        (self.questions.iter().enumerate())
            .map(|(i, q)| {
                let (mark, word) = match self.answers.iter().find(|a| a.index == i) {
                    Some(a) if a.answered() => (t.sym.done, "answered"),
                    Some(_) => (t.sym.done, "skipped"),
                    None if i == self.cur => (t.sym.pointer, "now"),
                    None => (t.sym.todo, ""),
                };
                format!("{mark} Q{} {} {word}", i + 1, q.kind())
                    .trim_end()
                    .to_owned()
            })
            .collect()
    }

    /// The head line and the time bar; `no_side` says the side column found no room.
    fn render_head(&self, area: Rect, buf: &mut Buffer, t: &Theme, no_side: bool) {
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
        // A window too narrow for the side column says where its list went.
        let note = "  ? questions, keys";
        let used: usize = spans.iter().map(Span::width).sum();
        if self.phase != Phase::Done
            && no_side
            && used + width_of(note) + width_of(&time) < usize::from(area.width)
        {
            spans.push(Span::styled(note, t.dim));
        }
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

    /// The open question's lines for a body `w` wide, and the line to keep in view.
    fn question_lines(&self, t: &Theme, w: usize) -> (Vec<Line<'static>>, usize) {
        match self.questions.get(self.cur) {
            Some(Question::Predict(p)) => {
                let lines = self.predict_parts(p, t, w).joined();
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
            Phase::Ask if self.nothing_written() => out.push(Line::styled(
                "Enter: see the model answer; with nothing written it counts as a skip.",
                t.dim,
            )),
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
                if self.nothing_written() {
                    out.extend(self.untickable_lines(e, t, w));
                    return (out, focus);
                }
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

    /// The rubric of an explanation left empty: nothing to tick, Enter goes on as a skip.
    fn untickable_lines(&self, e: &Explain, t: &Theme, w: usize) -> Vec<Line<'static>> {
        let mut out: Vec<Line> = wrap(
            "Nothing was written, so there is nothing to tick. Enter goes on; it counts as a skip (no points, and it comes back in a later drill).",
            w,
        )
        .into_iter()
        .map(|l| Line::styled(l, t.warn))
        .collect();
        out.push(Line::styled("The rubric:", t.heading));
        for p in &e.points {
            let text = truncate(&format!("  {} {p}", t.sym.bullet), w, t.sym.ellipsis);
            out.push(Line::styled(text, t.base));
        }
        out
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
            let (heading, rows) = failing_list("Failing rows", failing);
            out.extend(
                wrap(&heading, w)
                    .into_iter()
                    .map(|l| Line::styled(l, t.heading)),
            );
            for row in rows {
                for l in wrap(&row, w.saturating_sub(2)) {
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
