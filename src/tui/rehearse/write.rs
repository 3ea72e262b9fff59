//! The write-it round: the learner writes one function in their own editor, in a file the
//! drill names (a starter is written when the file is not there yet), and the grader runs
//! on every save of it, over that function's rows only.

use std::path::PathBuf;

use ratatui::text::Line;

use crate::practice::{Function, Lang, Row, starter};
use crate::text::wrap;
use crate::tui::grader::{GraderState, LiveGrader, Notify, row_line};
use crate::tui::theme::Theme;

pub struct WriteRound {
    pub function: Function,
    pub grader: LiveGrader,
    /// What the round did about the file ("wrote a starter to ...").
    pub note: String,
}

/// The file of a drill's write-it round: in the current directory, named by seed.
pub fn file_for(seed: u64) -> PathBuf {
    PathBuf::from(format!("tooldojo-rehearsal-{seed}.py"))
}

impl WriteRound {
    /// Open the round: make sure the file exists, then grade it now and on every save.
    pub fn open(
        seed: u64,
        function: Function,
        rows: &[Row],
        notify: Option<Notify>,
    ) -> WriteRound {
        let rel = file_for(seed);
        let file = std::path::absolute(&rel).unwrap_or(rel);
        let shown = crate::sanitize::clean(&file.display().to_string(), false);
        let note = if file.exists() {
            format!("Your file {shown} is already there: it is graded as it is.")
        } else {
            match std::fs::write(&file, starter::text(Lang::Python)) {
                Ok(()) => format!("A starter is at {shown}: fill in {}.", function.name(false)),
                Err(e) => format!("Could not write a starter at {shown}: {e}"),
            }
        };
        let rows: Vec<Row> = rows.iter().filter(|r| r.function == function).cloned().collect();
        WriteRound {
            function,
            grader: LiveGrader::new(file, Lang::Python, rows, notify),
            note,
        }
    }

    /// Rows passed, rows graded, and the report in lines (for the transcript).
    pub fn result(&self) -> (usize, usize, Vec<String>) {
        let (passed, total) = self.grader.counts();
        (passed, total, self.grader.report_lines())
    }

    /// The round's screen lines.
    pub fn lines(&self, t: &Theme, w: usize) -> Vec<Line<'static>> {
        let name = self.function.name(false);
        let mut out = vec![Line::styled(
            format!("Write it: {name}, in your own editor"),
            t.heading,
        )];
        out.extend(wrap(&self.note, w).into_iter().map(|l| Line::styled(l, t.base)));
        out.push(Line::styled(
            "Save the file to grade it again; Enter hands it in as it stands.",
            t.dim,
        ));
        if let Some(why) = self.grader.unwatched() {
            out.push(Line::styled(why.to_owned(), t.warn));
        }
        out.push(Line::default());
        out.extend(status_lines(&self.grader, t, w));
        out
    }
}

/// The grader's state in lines: progress, the summary, and the first failing row in full.
pub fn status_lines(g: &LiveGrader, t: &Theme, w: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    match g.state() {
        GraderState::Waiting => out.push(Line::styled("Not graded yet.", t.dim)),
        GraderState::Running { done, total } => out.push(Line::styled(
            format!("Grading... {} of {total} rows", done.len()),
            t.accent,
        )),
        GraderState::Failed(e) => {
            out.extend(
                wrap(&format!("Cannot grade it: {e}"), w)
                    .into_iter()
                    .map(|l| Line::styled(l, t.bad)),
            );
        }
        GraderState::Done(r) => {
            let (mark, style) = if r.failed() == 0 {
                (t.sym.ok, t.ok)
            } else {
                (t.sym.bad, t.bad)
            };
            out.push(Line::styled(
                format!("{mark} {} (run {})", r.summary(), g.runs()),
                style,
            ));
            if let Some(e) = &r.load_error {
                out.extend(
                    wrap(&format!("It did not load: {e}"), w)
                        .into_iter()
                        .map(|l| Line::styled(l, t.bad)),
                );
            }
            if let Some(f) = r.first_failure() {
                out.push(Line::styled("First failing row:", t.heading));
                for (label, text) in [
                    ("row", f.id.as_str()),
                    ("call", f.call.as_str()),
                    ("expected", f.expected.as_str()),
                    ("actual", f.actual.as_str()),
                    ("why", f.note.as_deref().unwrap_or("")),
                    ("lesson", f.lesson.as_str()),
                ] {
                    if text.is_empty() {
                        continue;
                    }
                    let text = crate::sanitize::clean(&format!("{label}: {text}"), false);
                    out.extend(wrap(&text, w).into_iter().map(|l| Line::styled(l, t.code)));
                }
            }
            out.push(Line::default());
            for row in &r.rows {
                let style = if row.passed() { t.ok } else { t.bad };
                out.push(Line::styled(
                    crate::text::truncate(&row_line(row), w, t.sym.ellipsis),
                    style,
                ));
            }
        }
    }
    out
}
