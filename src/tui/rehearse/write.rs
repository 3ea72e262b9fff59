//! The write-it round: the learner writes one function in their own editor, in a file the
//! drill names (a starter is written when the file is not there yet), and the grader runs
//! on every save of it, over that function's rows only.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ratatui::text::Line;

use crate::course::rehearsal::{Failing, Given};
use crate::practice::{Function, Lang, Row, starter};
use crate::text::wrap;
use crate::tui::grader::{LiveGrader, Notify, status_lines};
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
    pub grader: LiveGrader,
    /// What the round did about the file ("wrote a starter to ...").
    pub note: String,
}

impl WriteRound {
    /// Open the round: make sure the file exists, then grade it now and on every save
    /// (a failing row names its lesson by its title in `titles`).
    pub fn open(
        file: PathBuf,
        function: Function,
        lang: Lang,
        rows: &[Row],
        titles: BTreeMap<String, String>,
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
            match std::fs::write(&file, drill_starter(lang, function)) {
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
            grader: LiveGrader::new(file, lang, rows, titles, notify),
            note,
        }
    }

    /// The round as handed in: rows passed of rows graded, the report in lines (for the
    /// transcript), and the rows that failed, with the trap each wrong answer fell into or
    /// how the function failed to answer.
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
                        no_answer: row.status.tag().map(no_answer_words),
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
