//! The grader, live: watches the learner's file and grades it again on every save, on a
//! background thread that only sends messages into the event loop. The practice screen
//! and the drill's write-it round both show one of these.
//!
//! A save starts a fresh run (the run before it is stopped, its processes killed); every
//! message carries the run's number, so a late message from a stopped run is ignored.

use std::path::{Path, PathBuf};

use ratatui::text::Line;
use std::sync::Arc;
use std::time::Duration;

use crate::practice::{
    self, Background, Function, GradeError, GradeEvent, Job, Lang, Limits, Report, Row, RowResult,
};
use crate::text::wrap;
use crate::tui::theme::Theme;

/// What background work sends back.
#[derive(Debug, Clone, PartialEq)]
pub enum GraderMsg {
    /// The watched file was saved.
    Saved(PathBuf),
    /// Progress of run number `run`.
    Run(u64, Box<practice::Progress>),
}

/// How background work reaches the event loop.
pub type Notify = Arc<dyn Fn(GraderMsg) + Send + Sync>;

/// Where the grading stands.
#[derive(Debug, Clone, PartialEq)]
pub enum GraderState {
    /// Nothing graded yet.
    Waiting,
    /// A run is going: rows done so far (of `total`, once known).
    Running {
        done: Vec<RowResult>,
        total: usize,
    },
    Done(Report),
    /// The file could not be graded at all (no interpreter, defines nothing, ...).
    Failed(String),
}

pub struct LiveGrader {
    file: PathBuf,
    lang: Lang,
    rows: Vec<Row>,
    state: GraderState,
    /// Number of the current run; messages of other runs are stale.
    run: u64,
    runs: u32,
    notify: Option<Notify>,
    background: Option<Background>,
    _watcher: Option<notify::RecommendedWatcher>,
    /// Why the file is not watched, when it is not.
    unwatched: Option<String>,
}

impl LiveGrader {
    /// Grade `file` against `rows`; with `notify`, watch it and grade now and on every save.
    pub fn new(file: PathBuf, lang: Lang, rows: Vec<Row>, notify: Option<Notify>) -> LiveGrader {
        let (watcher, unwatched) = match &notify {
            Some(n) => match watch(&file, Arc::clone(n)) {
                Ok(w) => (Some(w), None),
                Err(e) => (None, Some(format!("not watching the file: {e}"))),
            },
            None => (None, Some("not watching the file".to_owned())),
        };
        let mut g = LiveGrader {
            file,
            lang,
            rows,
            state: GraderState::Waiting,
            run: 0,
            runs: 0,
            notify,
            background: None,
            _watcher: watcher,
            unwatched,
        };
        g.grade();
        g
    }

    pub fn file(&self) -> &Path {
        &self.file
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    pub fn state(&self) -> &GraderState {
        &self.state
    }

    /// Runs started so far.
    pub fn runs(&self) -> u32 {
        self.runs
    }

    pub fn unwatched(&self) -> Option<&str> {
        self.unwatched.as_deref()
    }

    /// The last finished report.
    pub fn report(&self) -> Option<&Report> {
        match &self.state {
            GraderState::Done(r) => Some(r),
            _ => None,
        }
    }

    /// Functions whose every row passed in the last report.
    pub fn all_passed(&self) -> Vec<Function> {
        self.report()
            .map(crate::course::graded::passed_functions)
            .unwrap_or_default()
    }

    /// Start a run now (stopping the one going, if any). Without a way to report back
    /// nothing runs.
    pub fn grade(&mut self) {
        let Some(notify) = self.notify.clone() else {
            return;
        };
        // Dropping the old run stops it and kills what it started.
        self.background = None;
        self.run += 1;
        self.runs += 1;
        let run = self.run;
        self.state = GraderState::Running {
            done: Vec::new(),
            total: 0,
        };
        let job = Job {
            file: self.file.clone(),
            lang: self.lang,
            limits: Limits::default(),
            rows: self.rows.clone(),
        };
        self.background = Some(practice::spawn(job, move |p| {
            notify(GraderMsg::Run(run, Box::new(p)))
        }));
    }

    /// A message from the watcher or a run. Returns true when something shown changed.
    pub fn on_msg(&mut self, msg: GraderMsg) -> bool {
        match msg {
            GraderMsg::Saved(path) if path == self.file => {
                self.grade();
                true
            }
            GraderMsg::Saved(_) => false,
            GraderMsg::Run(run, _) if run != self.run => false,
            GraderMsg::Run(_, progress) => self.on_progress(*progress),
        }
    }

    /// Progress of the current run.
    fn on_progress(&mut self, progress: practice::Progress) -> bool {
        match progress {
            practice::Progress::Event(ev) => {
                if let GraderState::Running { done, total } = &mut self.state {
                    match ev {
                        GradeEvent::Started { total: t, .. } => *total = t,
                        GradeEvent::Row {
                            result, total: t, ..
                        } => {
                            *total = t;
                            done.push(result);
                        }
                    }
                }
                true
            }
            practice::Progress::Done(outcome) => {
                self.state = match outcome {
                    Ok(report) => GraderState::Done(report),
                    // A stopped run is followed by a fresh one; keep showing progress.
                    Err(GradeError::Cancelled) => return false,
                    Err(e) => GraderState::Failed(e.to_string()),
                };
                true
            }
        }
    }

    /// Rows passed and rows graded, in the last report (or so far).
    pub fn counts(&self) -> (usize, usize) {
        match &self.state {
            GraderState::Done(r) => (r.passed(), r.rows.len()),
            GraderState::Running { done, total } => {
                (done.iter().filter(|r| r.passed()).count(), *total)
            }
            _ => (0, 0),
        }
    }

    /// The report as lines: one per row, then the summary (for transcripts).
    pub fn report_lines(&self) -> Vec<String> {
        match &self.state {
            GraderState::Done(r) => {
                let mut out: Vec<String> = r.rows.iter().map(row_line).collect();
                if let Some(e) = &r.load_error {
                    out.insert(0, format!("did not load: {e}"));
                }
                out.push(r.summary());
                out
            }
            GraderState::Failed(e) => vec![format!("cannot grade it: {e}")],
            GraderState::Running { .. } => vec!["still grading".to_owned()],
            GraderState::Waiting => vec!["not graded: the file was never saved".to_owned()],
        }
    }
}

/// `PASS held-bool-id: expected ..., got ...`: one row of a report in one line.
pub fn row_line(r: &RowResult) -> String {
    let tag = r
        .status
        .tag()
        .map(|t| format!(" [{t}]"))
        .unwrap_or_default();
    let line = if r.passed() {
        format!("PASS {}: {}", r.id, r.expected)
    } else {
        format!(
            "FAIL{tag} {}: expected {}, got {}",
            r.id, r.expected, r.actual
        )
    };
    crate::sanitize::clean(&line, false)
}

/// The grader's state in lines: progress, the summary, the first failing row in full, and
/// every row, wrapped (the screens that show them scroll).
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
            // Every row whole: a failing row's own result is often past the 80th column.
            for row in &r.rows {
                let style = if row.passed() { t.ok } else { t.bad };
                for (i, part) in wrap(&row_line(row), w.saturating_sub(2).max(1))
                    .into_iter()
                    .enumerate()
                {
                    let indent = if i == 0 { "" } else { "  " };
                    out.push(Line::styled(format!("{indent}{part}"), style));
                }
            }
        }
    }
    out
}

/// Watch the file's directory (editors replace files on save) and report saves of it,
/// a burst of events as one save.
fn watch(file: &Path, notify: Notify) -> notify::Result<notify::RecommendedWatcher> {
    let (dir, wanted) = crate::watch::file_in_dir(file);
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let watcher = crate::watch::watch_dir(&dir, wanted, move || {
        let _ = tx.send(());
    })?;
    let path = file.to_path_buf();
    std::thread::spawn(move || {
        // Ends when the watcher (and with it the sender) is dropped.
        while rx.recv().is_ok() {
            std::thread::sleep(Duration::from_millis(100));
            while rx.try_recv().is_ok() {}
            notify(GraderMsg::Saved(path.clone()));
        }
    });
    Ok(watcher)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::practice::{Isolation, Origin, Status};
    use crate::tui::theme::ThemeName;

    fn failing_row(id: &str, actual: &str) -> RowResult {
        RowResult {
            id: id.to_owned(),
            function: Function::Validate,
            origin: Origin::Fixture,
            status: Status::Fail,
            call: "validate_tool_args(...)".to_owned(),
            expected: "(False, \"type error: days expected int, got bool\")".to_owned(),
            actual: actual.to_owned(),
            note: Some("these args break the contract".to_owned()),
            trap: None,
            lesson: "03-json-traps".to_owned(),
            output: String::new(),
            elapsed_ms: 1,
            memory_peak: None,
        }
    }

    #[test]
    fn every_failing_row_is_shown_whole_at_80_columns() {
        let mut g = LiveGrader::new(PathBuf::from("s.py"), Lang::Python, Vec::new(), None);
        let rows = vec![
            failing_row("trap-false-as-int", "(True, \"\") the end of the first"),
            failing_row("trap-true-as-int", "(True, \"\") the end of the second"),
        ];
        g.state = GraderState::Done(Report {
            file: PathBuf::from("s.py"),
            lang: Lang::Python,
            graded: vec![Function::Validate],
            rows,
            isolation: Isolation::none(),
            load_error: None,
        });
        let t = Theme::new(ThemeName::Default, false);
        let lines: Vec<String> = status_lines(&g, &t, 80)
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        assert!(
            lines.iter().all(|l| crate::text::width(l) <= 80),
            "{lines:#?}"
        );
        let text = lines
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for end in ["the end of the first", "the end of the second"] {
            assert!(text.contains(end), "{end} is shown:\n{lines:#?}");
        }
    }
}
