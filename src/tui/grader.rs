//! The grader, live: watches the learner's file and grades it again on every save, on a
//! background thread that only sends messages into the event loop. The practice screen
//! and the drill's write-it round both show one of these.
//!
//! A save starts a fresh run (the run before it is stopped, its processes killed); every
//! message carries the run's number, so a late message from a stopped run is ignored.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ratatui::text::{Line, Span};
use std::sync::Arc;
use std::time::Duration;

use crate::practice::{
    self, Background, Function, GradeError, GradeEvent, Job, Lang, Limits, Report, Row, RowResult,
};
use crate::sanitize::clean;
use crate::text::{wrap, wrap_exact};
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

/// What grading a file needs, kept while a screen asks before it writes a starter.
#[derive(Default)]
pub(crate) struct Pending {
    pub(crate) rows: Vec<Row>,
    pub(crate) titles: BTreeMap<String, String>,
    pub(crate) notify: Option<Notify>,
}

/// A screen that grades a file it may have to write first: asking before it writes a
/// starter (keeping what grading will need), or grading the file.
pub(crate) enum Grading {
    Ask(Box<Pending>),
    Grade(Box<LiveGrader>),
}

impl Grading {
    /// Does it ask before writing a starter?
    pub(crate) fn asking(&self) -> bool {
        matches!(self, Grading::Ask(_))
    }

    /// Grade `file` in `lang` from now on, now and on every save (nothing when it grades
    /// already).
    pub(crate) fn grade(&mut self, file: PathBuf, lang: Lang) {
        let Grading::Ask(pending) = self else {
            return;
        };
        let Pending {
            rows,
            titles,
            notify,
        } = std::mem::take(pending.as_mut());
        *self = Grading::Grade(Box::new(LiveGrader::new(file, lang, rows, titles, notify)));
    }

    /// What grading will need, while it asks before writing a starter.
    pub(crate) fn pending(&self) -> Option<&Pending> {
        match self {
            Grading::Ask(p) => Some(p),
            Grading::Grade(_) => None,
        }
    }

    /// The grader, once it grades a file.
    pub(crate) fn grader(&self) -> Option<&LiveGrader> {
        match self {
            Grading::Grade(g) => Some(g),
            Grading::Ask(_) => None,
        }
    }

    pub(crate) fn grader_mut(&mut self) -> Option<&mut LiveGrader> {
        match self {
            Grading::Grade(g) => Some(g),
            Grading::Ask(_) => None,
        }
    }
}

/// Under the question a grading screen asks before it writes a starter: how many rows every
/// save will grade, for each function, and the starter itself (`file`, `text`) as the file
/// will hold it, so the learner knows what Enter writes before it is written. Code lines keep
/// every space; one too long for `width` goes on under its indent.
pub(crate) fn starter_lines(
    rows: &[Row],
    lang: Lang,
    (file, text): (&str, &str),
    t: &Theme,
    width: usize,
) -> Vec<Line<'static>> {
    let per: Vec<(usize, &str)> = (Function::ALL.iter())
        .map(|&f| {
            (
                rows.iter().filter(|r| r.function == f).count(),
                f.name(lang.is_js()),
            )
        })
        .filter(|&(n, _)| n > 0)
        .collect();
    let graded = match per.as_slice() {
        [] => "There are no rows to grade it on.".to_owned(),
        [(n, name)] => format!("Then every save grades it on {n} rows for {name}."),
        many => {
            let each: Vec<String> = many.iter().map(|(n, f)| format!("{n} for {f}")).collect();
            format!(
                "Then every save grades it on {} rows: {}. A function you delete is not graded.",
                rows.len(),
                each.join(" and ")
            )
        }
    };
    let mut out = vec![Line::default()];
    out.extend(
        wrap(&graded, width)
            .into_iter()
            .map(|l| Line::styled(l, t.base)),
    );
    out.push(Line::default());
    out.push(Line::styled(format!("The starter, {file}:"), t.heading));
    // A line too long for the width goes on under itself, marked in the gutter, so that
    // the rest of a comment never reads as code.
    let more = format!("{:<2}", t.sym.arrow);
    for line in text.lines() {
        let indent = " ".repeat(line.len() - line.trim_start().len());
        let room = width.saturating_sub(2 + indent.len()).max(8);
        for (i, piece) in wrap_exact(line.trim_start(), room).into_iter().enumerate() {
            let gutter = if i == 0 { "  " } else { more.as_str() };
            out.push(Line::from(vec![
                Span::styled(gutter.to_owned(), t.base),
                Span::styled(format!("{indent}{piece}"), t.dim),
            ]));
        }
    }
    out
}

/// A path as a grading screen shows it: whole, cleaned for the terminal.
pub(crate) fn shown_path(path: &Path) -> String {
    clean(&path.display().to_string(), false)
}

pub struct LiveGrader {
    file: PathBuf,
    lang: Lang,
    rows: Vec<Row>,
    /// Lesson titles by id: a failing row names the lesson to go back to by its title.
    titles: BTreeMap<String, String>,
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
    /// `titles` names the lessons the app was started with, by id.
    pub fn new(
        file: PathBuf,
        lang: Lang,
        rows: Vec<Row>,
        titles: BTreeMap<String, String>,
        notify: Option<Notify>,
    ) -> LiveGrader {
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
            titles,
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

    /// The title of lesson `id`, or the id itself for a lesson the app does not have.
    fn lesson_title<'a>(&'a self, id: &'a str) -> &'a str {
        self.titles.get(id).map_or(id, String::as_str)
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
    row_text(r, &str::to_owned)
}

/// [`row_line`], with the expected and actual results passed through `show` first.
fn row_text(r: &RowResult, show: &dyn Fn(&str) -> String) -> String {
    let tag = r
        .status
        .tag()
        .map(|t| format!(" [{t}]"))
        .unwrap_or_default();
    let line = if r.passed() {
        format!("PASS {}: {}", r.id, show(&r.expected))
    } else {
        format!(
            "FAIL{tag} {}: expected {}, got {}",
            r.id,
            show(&r.expected),
            show(&r.actual)
        )
    };
    clean(&line, false)
}

/// Which blanks of a text a reader must be able to count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blanks {
    /// A result compared with another (expected, actual, the call): a space in a run of
    /// two or more, at either end, or just inside a string's quotes.
    Compared,
    /// A line the code printed: spaces at its end.
    Printed,
}

/// The mark for a space and for a tab (readable in ASCII too).
fn marks(ascii: bool) -> (char, &'static str) {
    if ascii {
        ('~', "\\t")
    } else {
        ('\u{b7}', "\u{2409}")
    }
}

/// `text` with the blanks that would not show marked: every tab, and the spaces [`Blanks`]
/// names, so two results that differ only in their whitespace look different on screen.
fn show_blanks(text: &str, which: Blanks, ascii: bool) -> String {
    let (space, tab) = marks(ascii);
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    // Where the string being read opened, while inside one (after an unescaped `"`).
    let mut open: Option<usize> = None;
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if ch != ' ' {
            match ch {
                '\t' => out.push_str(tab),
                '\\' if open.is_some() && i + 1 < chars.len() => {
                    out.push(ch);
                    i += 1;
                    out.push(chars[i]);
                }
                '"' => {
                    open = if open.is_some() { None } else { Some(i) };
                    out.push(ch);
                }
                '\n' => {
                    open = None;
                    out.push(ch);
                }
                _ => out.push(ch),
            }
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i] == ' ' {
            i += 1;
        }
        let edge = |at: Option<&char>| matches!(at, None | Some('\t' | '\n'));
        let at_end = edge(chars.get(i));
        let marked = match which {
            Blanks::Printed => at_end,
            Blanks::Compared => {
                let in_quotes = open.is_some_and(|o| o + 1 == start)
                    || (open.is_some() && chars.get(i) == Some(&'"'));
                at_end
                    || i - start > 1
                    || edge(start.checked_sub(1).and_then(|p| chars.get(p)))
                    || in_quotes
            }
        };
        let fill = if marked { space } else { ' ' };
        out.extend(std::iter::repeat_n(fill, i - start));
    }
    out
}

/// The line under the summary that says what the marks stand for.
fn marks_legend(ascii: bool) -> String {
    let (space, tab) = marks(ascii);
    format!("{space} marks a space, {tab} a tab, that would not show otherwise")
}

/// The first failing row in full: its call, expected and actual results and what it
/// printed with every blank kept (passed through `show`), the rest wrapped; the lesson to
/// go back to is named by its title (`lesson`).
fn failure_lines(
    f: &RowResult,
    lesson: &str,
    t: &Theme,
    w: usize,
    show: &dyn Fn(&str, Blanks) -> String,
) -> Vec<Line<'static>> {
    use crate::practice::watch::{PRINTED_LINES, printed_line};
    let mut out = vec![Line::styled("First failing row:", t.heading)];
    let compared = |s: &str| show(s, Blanks::Compared);
    for (label, text, exact) in [
        ("row", f.id.clone(), false),
        ("call", compared(&f.call), true),
        ("expected", compared(&f.expected), true),
        ("actual", compared(&f.actual), true),
        ("why", f.note.clone().unwrap_or_default(), false),
        ("lesson", lesson.to_owned(), false),
    ] {
        if text.is_empty() {
            continue;
        }
        let text = clean(&format!("{label}: {text}"), false);
        let lines = if exact {
            wrap_exact(&text, w)
        } else {
            wrap(&text, w)
        };
        out.extend(lines.into_iter().map(|l| Line::styled(l, t.code)));
    }
    let printed: Vec<&str> = f.output.lines().collect();
    if !printed.is_empty() {
        out.push(Line::styled("printed:", t.code));
    }
    for line in printed.iter().take(PRINTED_LINES) {
        let shown = printed_line(&show(line, Blanks::Printed));
        for (i, part) in wrap_exact(&shown, w.saturating_sub(2).max(1))
            .into_iter()
            .enumerate()
        {
            let bar = if i == 0 { "| " } else { "  " };
            out.push(Line::styled(format!("{bar}{part}"), t.dim));
        }
    }
    if printed.len() > PRINTED_LINES {
        let more = printed.len() - PRINTED_LINES;
        out.push(Line::styled(format!("| ... {more} more lines"), t.dim));
    }
    out
}

/// The grader's state in lines: progress, the summary, the first failing row in full, and
/// every row, wrapped (the screens that show them scroll). Results keep every blank, and
/// the blanks that would not show are marked.
pub fn status_lines(g: &LiveGrader, t: &Theme, w: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let r = match g.state() {
        GraderState::Done(r) => r,
        GraderState::Waiting => return vec![Line::styled("Not graded yet.", t.dim)],
        GraderState::Running { done, total } => {
            return vec![Line::styled(
                format!("Grading... {} of {total} rows", done.len()),
                t.accent,
            )];
        }
        GraderState::Failed(e) => {
            return wrap(&format!("Cannot grade it: {e}"), w)
                .into_iter()
                .map(|l| Line::styled(l, t.bad))
                .collect();
        }
    };
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
    let marked = Cell::new(false);
    let show = |text: &str, which: Blanks| {
        let shown = show_blanks(text, which, t.ascii);
        marked.set(marked.get() || shown != text);
        shown
    };
    let first = r
        .first_failure()
        .map(|f| failure_lines(f, g.lesson_title(&f.lesson), t, w, &show));
    // Every row whole: a failing row's own result is often past the 80th column.
    let mut rows = Vec::new();
    for row in &r.rows {
        let style = if row.passed() { t.ok } else { t.bad };
        let text = row_text(row, &|s: &str| show(s, Blanks::Compared));
        for (i, part) in wrap_exact(&text, w.saturating_sub(2).max(1))
            .into_iter()
            .enumerate()
        {
            let indent = if i == 0 { "" } else { "  " };
            rows.push(Line::styled(format!("{indent}{part}"), style));
        }
    }
    if marked.get() {
        let legend = wrap(&marks_legend(t.ascii), w);
        out.extend(legend.into_iter().map(|l| Line::styled(l, t.dim)));
    }
    out.extend(first.into_iter().flatten());
    out.push(Line::default());
    out.extend(rows);
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

    /// A grader whose last run reported `rows`.
    fn graded(rows: Vec<RowResult>) -> LiveGrader {
        let mut g = LiveGrader::new(
            PathBuf::from("s.py"),
            Lang::Python,
            Vec::new(),
            BTreeMap::new(),
            None,
        );
        g.state = GraderState::Done(Report {
            file: PathBuf::from("s.py"),
            lang: Lang::Python,
            graded: vec![Function::Validate],
            rows,
            isolation: Isolation::none(),
            load_error: None,
        });
        g
    }

    fn shown(g: &LiveGrader, ascii: bool, w: usize) -> Vec<String> {
        let t = Theme::new(ThemeName::Default, ascii);
        status_lines(g, &t, w)
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn every_failing_row_is_shown_whole_at_80_columns() {
        let rows = vec![
            failing_row("trap-false-as-int", "(True, \"\") the end of the first"),
            failing_row("trap-true-as-int", "(True, \"\") the end of the second"),
        ];
        let lines = shown(&graded(rows), false, 80);
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

    #[test]
    fn the_first_failing_row_names_its_lesson_by_the_title_it_was_given() {
        let mut g = graded(vec![failing_row("row-1", "(True, \"\")")]);
        let lesson = |g: &LiveGrader| {
            let lines = shown(g, false, 80);
            lines
                .iter()
                .filter(|l| l.starts_with("lesson: "))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(lesson(&g), ["lesson: 03-json-traps"], "no title: the id");
        g.titles = BTreeMap::from([(
            "03-json-traps".to_owned(),
            "Type and JSON traps, as this course calls them".to_owned(),
        )]);
        assert_eq!(
            lesson(&g),
            ["lesson: Type and JSON traps, as this course calls them"]
        );
    }

    /// The lines from the one starting with `from` to the next field (or a blank line),
    /// joined back into one without the `indent` of each continuation.
    fn field(lines: &[String], from: &str, indent: &str) -> String {
        let at = lines
            .iter()
            .position(|l| l.starts_with(from))
            .unwrap_or_else(|| panic!("no {from} in {lines:#?}"));
        let fields = [
            "row: ",
            "call: ",
            "expected: ",
            "actual: ",
            "why: ",
            "lesson: ",
            "printed:",
            "| ",
            "FAIL ",
            "PASS ",
        ];
        let mut text = lines[at].clone();
        for l in &lines[at + 1..] {
            if l.is_empty() || fields.iter().any(|f| l.starts_with(f)) {
                break;
            }
            text.push_str(l.strip_prefix(indent).unwrap_or(l));
        }
        text
    }

    /// Marks read back as the blanks they stand for.
    fn unmarked(text: &str, ascii: bool) -> String {
        let (space, tab) = marks(ascii);
        text.replace(space, " ").replace(tab, "\t")
    }

    #[test]
    fn a_row_that_fails_by_its_blanks_alone_shows_them_at_any_width() {
        let expected = "(False, \"missing required arg: city\")";
        let cases = [
            ("double", "(False, \"missing required arg:  city\")", "  "),
            (
                "trailing",
                "(False, \"missing required arg: city \")",
                " \"",
            ),
            ("leading", "(False, \" missing required arg: city\")", "\" "),
            ("tab", "(False, missing required arg:\tcity)", "\t"),
        ];
        for (name, actual, blank) in cases {
            let mut row = failing_row(name, actual);
            row.expected = expected.to_owned();
            let g = graded(vec![row]);
            for ascii in [false, true] {
                let (space, tab) = marks(ascii);
                let mark = blank.replace(' ', &space.to_string()).replace('\t', tab);
                for w in 32..=90 {
                    let lines = shown(&g, ascii, w);
                    let why = format!("{name}, ascii {ascii}, {w} columns:\n{lines:#?}");
                    assert!(lines.iter().all(|l| crate::text::width(l) <= w), "{why}");
                    if ascii {
                        assert!(lines.iter().all(|l| l.is_ascii()), "{why}");
                    }
                    // Every blank is on screen, and the one that differs is marked.
                    let got = field(&lines, "actual: ", "");
                    assert_eq!(unmarked(&got, ascii), format!("actual: {actual}"), "{why}");
                    assert!(got.contains(&mark), "{why}");
                    assert_eq!(
                        field(&lines, "expected: ", ""),
                        format!("expected: {expected}")
                    );
                    let listed = field(&lines, &format!("FAIL {name}: "), "  ");
                    let whole = format!("FAIL {name}: expected {expected}, got {actual}");
                    assert_eq!(unmarked(&listed, ascii), whole, "{why}");
                    assert!(listed.contains(&mark), "{why}");
                    let legend = wrap(&marks_legend(ascii), w).join(" ");
                    assert!(lines[1..].join(" ").starts_with(&legend), "{why}");
                }
            }
        }
    }

    #[test]
    fn what_the_first_failing_row_printed_keeps_its_blanks() {
        let mut row = failing_row("row-1", "(True, \"\")");
        row.output = "debug  two\tspaces   \n    indented\n".to_owned();
        let g = graded(vec![row]);
        for ascii in [false, true] {
            let lines = shown(&g, ascii, 80);
            let (space, tab) = marks(ascii);
            let first = format!("| debug  two{tab}spaces{0}{0}{0}", space);
            assert!(lines.contains(&first), "{lines:#?}");
            assert!(lines.contains(&"|     indented".to_owned()), "{lines:#?}");
        }
    }

    #[test]
    fn ordinary_spaces_are_left_as_they_are() {
        let text = "(False, \"type error: days expected int, got bool\") or \"x\"";
        assert_eq!(show_blanks(text, Blanks::Compared, false), text);
        let g = graded(vec![failing_row("row-1", "(True, \"\")")]);
        let lines = shown(&g, false, 80);
        assert!(lines.iter().all(|l| !l.contains('\u{b7}')), "{lines:#?}");
        assert!(!lines.contains(&marks_legend(false)), "{lines:#?}");
    }

    #[test]
    fn a_starter_line_too_long_goes_on_under_itself_marked_in_the_gutter() {
        let text = "def f():\n    # run it with tooldojo practice THIS_FILE (add --watch to re-grade)\n    return 1\n";
        for ascii in [false, true] {
            let t = Theme::new(ThemeName::Mono, ascii);
            let lines: Vec<String> = starter_lines(&[], Lang::Python, ("s.py", text), &t, 40)
                .iter()
                .map(|l| l.to_string())
                .collect();
            let at = lines.iter().position(|l| l == "  def f():").unwrap();
            let code = &lines[at..];
            assert_eq!(
                code[1], "      # run it with tooldojo practice ",
                "{code:?}"
            );
            // The rest of the comment: the gutter says it goes on, the indent is kept.
            let mark = if ascii { "->" } else { "→ " };
            assert_eq!(
                code[2],
                format!("{mark}    THIS_FILE (add --watch to "),
                "{code:?}"
            );
            assert!(code[3].starts_with(mark), "{code:?}");
            assert_eq!(code[4], "      return 1", "{code:?}");
            assert!(
                lines.iter().all(|l| crate::text::width(l) <= 40),
                "{lines:?}"
            );
        }
    }
}
