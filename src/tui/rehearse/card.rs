//! The scorecard on screen: a headline that says what it counts, the time, the transcript's
//! status, the lessons to revisit, then every question with how it ended (right, missed,
//! passed, not passed, skipped, time's up, not reached), what was missed and why, and the
//! write-it round's failing rows with the trap each one tests. Lines wrap, ids are never
//! cut.

use ratatui::style::Style;
use ratatui::text::Line;

use super::{Drill, Saved};
use crate::course::rehearsal::score::{clock, failing_list, seconds};
use crate::course::rehearsal::{Answer, Explain, Given, Question, Sitting};
use crate::text::{truncate, width as width_of, wrap};
use crate::tui::theme::Theme;

/// `text` wrapped to `w` under a first line starting with `head` (its later lines indented
/// as wide as `head`), in one style.
fn hanging(head: &str, text: &str, w: usize, style: Style) -> Vec<Line<'static>> {
    let indent = width_of(head);
    wrap(text, w.saturating_sub(indent).max(8))
        .into_iter()
        .enumerate()
        .map(|(i, part)| {
            let lead = if i == 0 {
                head.to_owned()
            } else {
                " ".repeat(indent)
            };
            Line::styled(format!("{lead}{part}"), style)
        })
        .collect()
}

/// Text on one line: runs of whitespace (line breaks too) as one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Drill {
    /// The scorecard's lines at width `w`, and the line where the transcript's status
    /// starts.
    pub(super) fn scorecard_lines(&self, t: &Theme, w: usize) -> (Vec<Line<'static>>, usize) {
        let card = self.scorecard();
        let mut out = vec![Line::styled(card.headline(), t.heading)];
        if self.time_up() {
            out.push(Line::styled(
                format!(
                    "{} Time's up: the {}-minute clock ran out.",
                    t.sym.bad, self.cfg.minutes
                ),
                t.warn,
            ));
        }
        let slow: Vec<String> = card
            .slowest
            .iter()
            .filter_map(|&i| {
                let a = self.answers.iter().find(|a| a.index == i)?;
                Some(format!("Q{} ({})", i + 1, seconds(a.ms)))
            })
            .collect();
        let mut time = format!(
            "Time per answered question: {}; time used {}",
            card.mean_words(),
            clock(self.elapsed_ms())
        );
        if !slow.is_empty() {
            time.push_str(&format!("; slowest: {}", slow.join(", ")));
        }
        out.extend(hanging("", &time, w, t.base));
        // Where the transcript went stays near the top whatever the list below holds.
        let status_at = out.len();
        out.extend(self.transcript_status(t, w));
        out.push(Line::default());
        out.extend(self.revisit_lines(t, w));
        out.push(Line::styled("Questions:", t.heading));
        for i in 0..self.questions.len() {
            out.extend(self.question_line(i, t, w));
        }
        (out, status_at)
    }

    /// One question: its mark, number, kind, how it ended, its time and its id in full,
    /// then what was missed (the real outcome and why, the failing rows and their traps).
    fn question_line(&self, i: usize, t: &Theme, w: usize) -> Vec<Line<'static>> {
        let Some(q) = self.questions.get(i) else {
            return Vec::new();
        };
        let a = self.answers.iter().find(|a| a.index == i);
        let status = a.map_or("not reached", Answer::status);
        let (mark, style) = match a {
            Some(a) if a.right() => (t.sym.ok, t.ok),
            Some(a) if a.answered() => (t.sym.bad, t.bad),
            _ => (t.sym.todo, t.dim),
        };
        let time = match a {
            Some(a) if a.answered() => format!(" ({})", seconds(a.ms)),
            _ => String::new(),
        };
        let head = format!("  {mark} Q{} ", i + 1);
        let text = format!(
            "{}, {status}{time}: {}, lesson {}",
            q.kind(),
            q.id(),
            self.title_of(q.lesson())
        );
        let mut out = hanging(&head, &text, w, style);
        let detail = " ".repeat(width_of(&head));
        if let Some(more) = a.and_then(|a| self.missed_words(q, a)) {
            out.extend(hanging(&detail, &more, w, t.base));
        }
        if let (Question::Explain(e), Some(a)) = (q, a) {
            out.extend(self.rubric_missed(e, a, &detail, t, w));
        }
        if let Some(Given::Written { failing, .. }) = a.map(|a| &a.given)
            && !failing.is_empty()
        {
            let (heading, rows) = failing_list("failing rows", failing);
            let text = format!("{heading} {}", rows.join(", "));
            out.extend(hanging(&detail, &text, w, t.code));
        }
        out
    }

    /// An explanation's rubric points that were not covered, one a line (an explanation
    /// skipped or cut off by the clock covered none), after the words written before the
    /// skip or the end of the clock.
    fn rubric_missed(
        &self,
        e: &Explain,
        a: &Answer,
        indent: &str,
        t: &Theme,
        w: usize,
    ) -> Vec<Line<'static>> {
        let ticked: &[bool] = match &a.given {
            Given::Words { ticked, .. } => ticked,
            Given::Skipped { .. } | Given::OutOfTime { .. } => &[],
            _ => return Vec::new(),
        };
        let mut out = Vec::new();
        let kept = match &a.given {
            Given::Skipped { text } => Some(("written, then skipped", text)),
            Given::OutOfTime { text } => Some(("written when the clock ran out", text)),
            _ => None,
        };
        if let Some((how, text)) = kept
            && !text.trim().is_empty()
        {
            let cut = truncate(&one_line(text), 160, t.sym.ellipsis);
            let words = format!("{how} (no points): {cut}");
            out.extend(hanging(indent, &words, w, t.code));
        }
        let head = format!("{indent}{} not covered: ", t.sym.bad);
        for (i, point) in e.points.iter().enumerate() {
            if !ticked.get(i).copied().unwrap_or(false) {
                out.extend(hanging(&head, point, w, t.dim));
            }
        }
        out
    }

    /// What a missed answer got wrong, in a sentence (none for a right one).
    fn missed_words(&self, q: &Question, a: &Answer) -> Option<String> {
        if a.right() {
            return None;
        }
        match (q, &a.given) {
            (Question::Predict(p), Given::Pick(pick)) => {
                let mut s = format!(
                    "you said {pick}; {} answered {} (it tests: {})",
                    p.who, p.answer, p.tests
                );
                if !p.reason.is_empty() {
                    s.push_str(&format!(". {}", p.reason));
                }
                Some(s)
            }
            (Question::Explain(e), Given::Words { ticked, .. }) => {
                let got = ticked.iter().filter(|t| **t).count();
                Some(format!(
                    "{got} of {} rubric points covered (half are needed)",
                    e.points.len()
                ))
            }
            (Question::Write { .. }, Given::Written { total: 0, .. }) => {
                Some("not graded: no report from the grader when it was handed in".to_owned())
            }
            (Question::Write { .. }, Given::Written { passed, total, .. }) => Some(format!(
                "{passed} of {total} rows pass: a pass needs every row"
            )),
            // The write-it round has no review card: it is asked every drill.
            (Question::Write { .. }, _) => None,
            (_, Given::Skipped { .. } | Given::OutOfTime { .. }) => {
                Some("counted as missed: it comes back in a later drill".to_owned())
            }
            _ => None,
        }
    }

    /// The lessons behind what was missed, each with its questions.
    fn revisit_lines(&self, t: &Theme, w: usize) -> Vec<Line<'static>> {
        let card = self.scorecard();
        let mut lessons: Vec<(String, Vec<String>)> = Vec::new();
        for &i in &card.missed {
            let Some(q) = self.questions.get(i) else {
                continue;
            };
            let title = self.title_of(q.lesson()).to_owned();
            let n = format!("Q{}", i + 1);
            match lessons.iter_mut().find(|(l, _)| *l == title) {
                Some((_, qs)) => qs.push(n),
                None => lessons.push((title, vec![n])),
            }
        }
        let mut out = if lessons.is_empty() {
            vec![Line::styled("Nothing missed.", t.ok)]
        } else {
            let list: Vec<String> = lessons
                .iter()
                .map(|(l, qs)| format!("{l} ({})", qs.join(", ")))
                .collect();
            let d = t.sym.bullet;
            hanging("Revisit: ", &list.join(&format!(" {d} ")), w, t.heading)
        };
        if !card.not_reached.is_empty() {
            let text = format!(
                "{}: never shown, so not missed and not due for review.",
                card.not_reached_list()
            );
            out.extend(hanging("Not reached: ", &text, w, t.dim));
        }
        out.push(Line::default());
        out
    }

    /// Where the transcript went, or where `w` puts it (and the second `w` it waits for).
    pub(super) fn transcript_status(&self, t: &Theme, w: usize) -> Vec<Line<'static>> {
        let path = || {
            self.cfg
                .transcript
                .clone()
                .unwrap_or_else(|| self.default_transcript())
        };
        let (text, style) = if let Some(p) = &self.confirm_overwrite {
            (
                format!(
                    "{} {} is already there: w again replaces it, any other key keeps it.",
                    t.sym.bad,
                    crate::sanitize::clean(&p.display().to_string(), false)
                ),
                t.warn,
            )
        } else {
            match &self.saved {
                Some(Saved::To(p)) => (
                    format!("{} Transcript saved to {}", t.sym.ok, p.display()),
                    t.ok,
                ),
                Some(Saved::Failed(e)) => {
                    (format!("{} Transcript not saved: {e}", t.sym.bad), t.bad)
                }
                None => (
                    format!("w saves the transcript to {}", path().display()),
                    t.dim,
                ),
            }
        };
        hanging("", &text, w, style)
    }
}
