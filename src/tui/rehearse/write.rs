//! The write-it round: the learner writes one function in their own editor, in a file the
//! drill names, and the grader runs on every save of it, over that function's rows only.
//! With no file there yet, the round first asks before it writes a starter (Enter writes
//! it; a skip leaves nothing written); a file that is there is graded as it is.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ratatui::text::Line;

use crate::course::rehearsal::{Failing, Given};
use crate::practice::{Function, Lang, Row, starter};
use crate::safe_file::WriteError;
use crate::text::wrap;
use crate::tui::grader::{
    Grading, LiveGrader, Notify, Pending, shown_path, starter_lines, status_lines,
};
use crate::tui::theme::Theme;

/// The round's starter: a header naming the one function graded and how the drill grades
/// it, then that function from the practice starter (its signature and rules, nothing
/// solved), and none of the others.
pub fn drill_starter(lang: Lang, function: Function) -> String {
    let name = function.name(lang.is_js());
    let c = if lang.is_js() { "//" } else { "#" };
    let mut out = format!(
        "{c} tooldojo rehearsal: write {name}; the drill grades {name} and nothing else.\n\
         {c} Save this file and the drill grades it again; Enter in the drill hands it in.\n"
    );
    if lang.is_js() {
        out.push_str(&format!(
            "{c} CommonJS as written; an ES module with `export function {name}` works too.\n"
        ));
    }
    // The practice starter without its header (the comment lines it opens with), cut
    // into its functions at each definition: the one graded is kept as written, with
    // what comes before the first.
    let def = if lang.is_js() { "function " } else { "def " };
    let graded = format!("{def}{name}(");
    let mut keep = true;
    for line in starter::text(lang).lines().skip_while(|l| l.starts_with(c)) {
        if line.starts_with(def) {
            keep = line.starts_with(&graded);
        }
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// How a row the function gave no answer to failed, from the grader's tag (`error`).
fn no_answer_words(tag: &'static str) -> &'static str {
    match tag {
        "error" => "raised an error",
        "timeout" => "ran past its time limit",
        "flood" => "printed past the output cap",
        "memory" => "went over the memory cap",
        "processes" => "went over the cap on processes",
        "not-run" => "was not run",
        other => other,
    }
}

pub struct WriteRound {
    pub function: Function,
    pub lang: Lang,
    /// The file graded, by its whole path.
    file: PathBuf,
    stage: Grading,
    /// What the round did about the file ("A starter is at ..."), or the question asked
    /// before a starter is written.
    pub note: String,
}

impl WriteRound {
    /// Open the round on `file` (a failing row names its lesson by its title in `titles`).
    /// A file that is there is graded at once, as it is; with none, the round asks before
    /// it writes a starter there ([`WriteRound::start`]).
    pub fn open(
        file: PathBuf,
        function: Function,
        lang: Lang,
        rows: &[Row],
        titles: BTreeMap<String, String>,
        notify: Option<Notify>,
    ) -> WriteRound {
        let file = std::path::absolute(&file).unwrap_or(file);
        let rows: Vec<Row> = rows
            .iter()
            .filter(|r| r.function == function)
            .cloned()
            .collect();
        let shown = shown_path(&file);
        let name = function.name(lang.is_js());
        let offscreen = notify.is_none();
        let mut round = WriteRound {
            function,
            lang,
            note: format!(
                "There is no {} yet.\n\nWrite a starter for {name} at {shown}? Enter writes \
                 it, then edit it in your own editor: every save grades it. s skips the round \
                 and writes nothing.",
                file.file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default()
            ),
            file,
            stage: Grading::Ask(Box::new(Pending {
                rows,
                titles,
                notify,
            })),
        };
        if offscreen {
            // Off screen (render, a test without a loop) nothing is graded or written.
            round.grade(format!(
                "In the app, the grader watches {shown} (when it is not there, the drill asks \
                 before it writes a starter)."
            ));
        } else if round.file.exists() {
            round.grade(format!(
                "Your file {shown} is already there: it is graded as it is."
            ));
        }
        round
    }

    /// Write the starter (never over a file that is there, even one made since the round
    /// asked: that one is graded as it is), then grade the file now and on every save.
    pub fn start(&mut self) {
        if !self.asking() {
            return;
        }
        let shown = shown_path(&self.file);
        let text = drill_starter(self.lang, self.function);
        let note = match crate::safe_file::write(&self.file, text.as_bytes(), false) {
            Ok(()) => format!(
                "A starter is at {shown}: fill in {}.",
                self.function.name(self.lang.is_js())
            ),
            Err(WriteError::Exists { link: false }) => {
                format!("Your file {shown} is already there: it is graded as it is.")
            }
            Err(WriteError::Exists { link: true }) => format!(
                "{shown} is a symbolic link: no starter is written through it, and it is graded as it is."
            ),
            Err(e) => format!("Could not write a starter at {shown}: {e}"),
        };
        self.grade(note);
    }

    /// Grade the file from now on, saying `note` about it.
    fn grade(&mut self, note: String) {
        if self.asking() {
            self.stage.grade(self.file.clone(), self.lang);
            self.note = note;
        }
    }

    /// Does the round ask before writing a starter?
    pub fn asking(&self) -> bool {
        self.stage.asking()
    }

    /// The grader, once the round grades a file (not while it asks before a starter).
    pub fn grader(&self) -> Option<&LiveGrader> {
        self.stage.grader()
    }

    pub(crate) fn grader_mut(&mut self) -> Option<&mut LiveGrader> {
        self.stage.grader_mut()
    }

    /// The round as handed in: rows passed of rows graded, the report in lines (for the
    /// transcript), and the rows that failed, with the trap each wrong answer fell into or
    /// how the function failed to answer.
    pub fn written(&self) -> Given {
        let Some(grader) = self.grader() else {
            return Given::Written {
                passed: 0,
                total: 0,
                report: vec!["not graded".to_owned()],
                failing: Vec::new(),
            };
        };
        let (passed, total) = grader.counts();
        let failing = grader
            .report()
            .map(|r| {
                r.rows
                    .iter()
                    .filter(|row| !row.passed())
                    .map(|row| Failing {
                        id: row.id.clone(),
                        trap: row.trap,
                        no_answer: row.status.tag().map(no_answer_words),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Given::Written {
            passed,
            total,
            report: grader.report_lines(),
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
        // Once the file passes, what the round did about it is old news.
        let passes = self
            .grader()
            .is_some_and(|g| g.all_passed().contains(&self.function));
        let note = if passes {
            format!(
                "Your {name} in {} passes every row.",
                shown_path(&self.file)
            )
        } else {
            self.note.clone()
        };
        out.extend(wrap(&note, w).into_iter().map(|l| Line::styled(l, t.base)));
        if let Grading::Ask(pending) = &self.stage {
            let file = (self.file.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text = drill_starter(self.lang, self.function);
            out.extend(starter_lines(
                &pending.rows,
                self.lang,
                (&file, &text),
                t,
                w,
            ));
        }
        let Some(grader) = self.grader() else {
            return out;
        };
        out.push(Line::styled(
            "Save the file to grade it again; Enter hands it in as it stands.",
            t.dim,
        ));
        if let Some(why) = grader.unwatched() {
            out.push(Line::styled(why.to_owned(), t.warn));
        }
        out.push(Line::default());
        out.extend(status_lines(grader, t, w));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::drill_starter;
    use crate::practice::{Function, Lang};

    #[test]
    fn the_drill_starter_names_the_one_function_graded_and_holds_no_other() {
        for (lang, function, other) in [
            (Lang::Python, Function::Execute, "def validate_tool_args"),
            (Lang::Python, Function::Validate, "def execute_tool"),
            (Lang::Js, Function::Execute, "function validate"),
        ] {
            let text = drill_starter(lang, function);
            let name = function.name(lang.is_js());
            let head: Vec<&str> = text.lines().take(2).collect();
            assert!(head[0].contains(&format!("the drill grades {name} and nothing else")));
            assert!(head[1].contains("Save this file and the drill grades it again"));
            assert!(!text.contains("tooldojo practice"), "{text}");
            assert!(!text.contains("THIS_FILE"), "{text}");
            assert!(!text.contains(other), "{text}");
            assert!(
                text.contains(&format!("function {name}("))
                    || text.contains(&format!("def {name}("))
            );
            assert!(text.ends_with("\n") && !text.ends_with("\n\n"));
        }
        let py = drill_starter(Lang::Python, Function::Execute);
        assert!(
            py.contains("\n\n\ndef execute_tool(name, args, context, records):\n"),
            "{py}"
        );
        assert!(py.contains("raise NotImplementedError(\"execute_tool\")"));
        let js = drill_starter(Lang::Js, Function::Execute);
        assert!(js.contains("module.exports = { executeTool };"), "{js}");
    }
}
