//! The write-it round: the learner writes one function in their own editor, in a file the
//! drill names (a starter is written when the file is not there yet), and the grader runs
//! on every save of it, over that function's rows only.

use std::path::PathBuf;

use ratatui::text::Line;

use crate::course::rehearsal::{Failing, Given};
use crate::practice::{Function, Lang, Row, starter};
use crate::text::wrap;
use crate::tui::grader::{LiveGrader, Notify, status_lines};
use crate::tui::theme::Theme;

pub struct WriteRound {
    pub function: Function,
    pub lang: Lang,
    pub grader: LiveGrader,
    /// What the round did about the file ("wrote a starter to ...").
    pub note: String,
}

impl WriteRound {
    /// Open the round: make sure the file exists, then grade it now and on every save.
    pub fn open(
        file: PathBuf,
        function: Function,
        lang: Lang,
        rows: &[Row],
        notify: Option<Notify>,
    ) -> WriteRound {
        let file = std::path::absolute(&file).unwrap_or(file);
        let shown = crate::sanitize::clean(&file.display().to_string(), false);
        let note = if notify.is_none() {
            // Off screen (render, a test without a loop) nothing is graded or written.
            format!("In the app, the grader watches {shown}.")
        } else if file.exists() {
            format!("Your file {shown} is already there: it is graded as it is.")
        } else {
            match std::fs::write(&file, starter::text(lang)) {
                Ok(()) => format!(
                    "A starter is at {shown}: fill in {}.",
                    function.name(lang.is_js())
                ),
                Err(e) => format!("Could not write a starter at {shown}: {e}"),
            }
        };
        let rows: Vec<Row> = rows
            .iter()
            .filter(|r| r.function == function)
            .cloned()
            .collect();
        WriteRound {
            function,
            lang,
            grader: LiveGrader::new(file, lang, rows, notify),
            note,
        }
    }

    /// The round as handed in: rows passed of rows graded, the report in lines (for the
    /// transcript), and the rows that failed with the trap each one tests.
    pub fn written(&self) -> Given {
        let (passed, total) = self.grader.counts();
        let failing = self
            .grader
            .report()
            .map(|r| {
                r.rows
                    .iter()
                    .filter(|row| !row.passed())
                    .map(|row| Failing {
                        id: row.id.clone(),
                        trap: row.trap,
                    })
                    .collect()
            })
            .unwrap_or_default();
        Given::Written {
            passed,
            total,
            report: self.grader.report_lines(),
            failing,
        }
    }

    /// The round's screen lines.
    pub fn lines(&self, t: &Theme, w: usize) -> Vec<Line<'static>> {
        let name = self.function.name(self.lang.is_js());
        let mut out = vec![Line::styled(
            format!(
                "Write it: {name} ({}), in your own editor",
                self.lang.name()
            ),
            t.heading,
        )];
        out.extend(
            wrap(&self.note, w)
                .into_iter()
                .map(|l| Line::styled(l, t.base)),
        );
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
