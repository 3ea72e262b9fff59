//! The grader: runs a learner's own `validate_tool_args` / `execute_tool` (Python) or
//! `executeTool` (JavaScript) against every fixture row and a set of held-back edge cases,
//! under the machine's own interpreter, in a sandbox with time and output limits.
//!
//! - [`cases`]: the rows and their expected results (computed by the real code);
//! - [`harness`]: the embedded harness programs and the JSON-lines exchange;
//! - [`sandbox`]: process group, fresh directory, scrubbed environment, no network, limits;
//! - [`judge`]: one answer against one expected result;
//! - [`starter`]: the starter files; [`watch`]: re-grading on every save;
//! - this file: the report types and [`grade`], which reports progress as it goes.

pub mod cases;
pub mod harness;
pub mod judge;
pub mod sandbox;
pub mod starter;
pub mod watch;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use cases::{Function, Origin, Row};
use harness::{Harness, Trouble};
pub use sandbox::Network;

/// The learner's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    Python,
    Js,
}

impl Lang {
    /// The language a file's extension says, if any.
    pub fn of_path(path: &Path) -> Option<Lang> {
        match path.extension()?.to_str()? {
            "py" => Some(Lang::Python),
            "js" | "mjs" | "cjs" => Some(Lang::Js),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "Python",
            Lang::Js => "JavaScript",
        }
    }

    pub fn is_js(self) -> bool {
        self == Lang::Js
    }

    /// The functions a file in this language may define.
    pub fn functions(self) -> &'static [Function] {
        match self {
            Lang::Python => &Function::ALL,
            Lang::Js => &[Function::Execute],
        }
    }
}

/// How long and how loud the learner's code may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// One row (one call of the learner's function).
    pub row: Duration,
    /// Loading the file (interpreter start included).
    pub load: Duration,
    /// The whole run, every row and every restart.
    pub run: Duration,
    /// Bytes the code may print while answering one row (or while loading).
    pub output_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            row: Duration::from_secs(2),
            load: Duration::from_secs(5),
            run: Duration::from_secs(30),
            output_bytes: 64 * 1024,
        }
    }
}

/// How a row ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pass,
    /// The function returned, but not what the real code returns.
    Fail,
    /// It raised, crashed, or the file did not load.
    Error,
    /// It ran past the row's time limit and was stopped.
    TimedOut,
    /// It printed more than the output cap and was stopped.
    Flood,
    /// Not run: the file did not load, or the run's time was used up.
    NotRun,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Error => "ERROR",
            Status::TimedOut => "TIMEOUT",
            Status::Flood => "FLOOD",
            Status::NotRun => "NOT RUN",
        }
    }
}

/// The result of one row.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RowResult {
    pub id: String,
    pub function: Function,
    pub origin: Origin,
    pub status: Status,
    /// The call, as the learner would write it.
    pub call: String,
    pub expected: String,
    pub actual: String,
    /// Why the row failed, in a sentence.
    pub note: Option<String>,
    /// The lesson to revisit when the row fails.
    pub lesson: String,
    /// What the code printed while answering (cut at the cap; terminal controls are not
    /// cleaned here, callers clean it where they show it).
    pub output: String,
    pub elapsed_ms: u64,
}

impl RowResult {
    pub fn passed(&self) -> bool {
        self.status == Status::Pass
    }
}

/// The whole grading run.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Report {
    pub file: PathBuf,
    pub lang: Lang,
    /// The functions graded.
    pub graded: Vec<Function>,
    pub rows: Vec<RowResult>,
    pub network: Network,
    /// Set when the file did not load at all.
    pub load_error: Option<String>,
}

impl Report {
    pub fn passed(&self) -> usize {
        self.rows.iter().filter(|r| r.passed()).count()
    }

    pub fn failed(&self) -> usize {
        self.rows.len() - self.passed()
    }

    pub fn first_failure(&self) -> Option<&RowResult> {
        self.rows.iter().find(|r| !r.passed())
    }

    /// The last line of the report: `N passed, N failed`.
    pub fn summary(&self) -> String {
        format!("{} passed, {} failed", self.passed(), self.failed())
    }

    /// Functions the language allows but the file does not define.
    pub fn not_defined(&self) -> Vec<Function> {
        self.lang
            .functions()
            .iter()
            .copied()
            .filter(|f| !self.graded.contains(f))
            .collect()
    }
}

/// Progress while grading, for the CLI's watch screen or a TUI panel.
#[derive(Debug, Clone, PartialEq)]
pub enum GradeEvent {
    /// The file loaded (or did not); `total` rows will be reported.
    Started { total: usize, graded: Vec<Function> },
    /// One more row is done.
    Row {
        index: usize,
        total: usize,
        result: RowResult,
    },
}

/// Why a file could not be graded at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GradeError {
    NoInterpreter {
        program: &'static str,
        lang: Lang,
    },
    Unreadable(String),
    /// The file defines none of the graded functions.
    NothingToGrade {
        file: PathBuf,
        lang: Lang,
        defined: Vec<String>,
        load_error: Option<String>,
    },
    Spawn(String),
    Cancelled,
}

impl std::fmt::Display for GradeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GradeError::NoInterpreter { program, lang } => {
                write!(
                    f,
                    "{program} was not found on PATH; install it to grade {} files",
                    lang.name()
                )
            }
            GradeError::Unreadable(msg) | GradeError::Spawn(msg) => f.write_str(msg),
            GradeError::NothingToGrade {
                file,
                lang,
                defined,
                load_error,
            } => {
                let wanted: Vec<&str> = lang
                    .functions()
                    .iter()
                    .map(|fun| fun.name(lang.is_js()))
                    .collect();
                write!(
                    f,
                    "{}: defines none of {}",
                    file.display(),
                    wanted.join(", ")
                )?;
                if let Some(err) = load_error {
                    write!(f, " (it did not load: {err})")?;
                } else if !defined.is_empty() {
                    write!(
                        f,
                        " (it {} {})",
                        if lang.is_js() { "exports" } else { "defines" },
                        defined.join(", ")
                    )?;
                }
                Ok(())
            }
            GradeError::Cancelled => f.write_str("stopped before the grading finished"),
        }
    }
}

impl std::error::Error for GradeError {}

/// What to grade.
#[derive(Debug, Clone)]
pub struct Job {
    pub file: PathBuf,
    pub lang: Lang,
    pub limits: Limits,
    /// Usually [`cases::load`]; only the rows of functions the file defines are run.
    pub rows: Vec<Row>,
}

/// Grade `job.file`, reporting each row to `on_event` as it finishes. `cancel` is polled
/// while the learner's code runs; when it says yes, everything is stopped.
pub fn grade(
    job: &Job,
    cancel: &dyn Fn() -> bool,
    on_event: &mut dyn FnMut(&GradeEvent),
) -> Result<Report, GradeError> {
    let file = std::fs::canonicalize(&job.file)
        .map_err(|e| GradeError::Unreadable(format!("{}: {e}", job.file.display())))?;
    let source = std::fs::read_to_string(&file)
        .map_err(|e| GradeError::Unreadable(format!("{}: {e}", job.file.display())))?;
    let js = job.lang.is_js();
    let spec = harness::spawn_spec(job.lang, &file).map_err(|t| match t {
        Trouble::NoInterpreter(program) => GradeError::NoInterpreter {
            program,
            lang: job.lang,
        },
        other => GradeError::Spawn(format!("{other:?}")),
    })?;
    let limits = job.limits;
    let started = Instant::now();
    let mut report = Report {
        file: job.file.clone(),
        lang: job.lang,
        graded: Vec::new(),
        rows: Vec::new(),
        network: Network::Unsupported,
        load_error: None,
    };
    let first = Harness::start(&spec, js, limits.load, limits.output_bytes, cancel);
    let mut defined = Vec::new();
    let (mut session, graded) = match first {
        Ok((h, hello)) => {
            report.network = h.network();
            defined = hello.defined;
            (Some(h), hello.functions)
        }
        Err(fail) => {
            match fail.trouble {
                Trouble::Cancelled => return Err(GradeError::Cancelled),
                Trouble::Spawn(msg) => return Err(GradeError::Spawn(msg)),
                _ => {}
            }
            let output = fail.output;
            report.network = fail.network.unwrap_or(Network::Unsupported);
            let message = load_message(&fail.trouble);
            report.load_error = Some(if output.trim().is_empty() {
                message
            } else {
                format!(
                    "{message}; it printed: {}",
                    output.trim().lines().last().unwrap_or("")
                )
            });
            (None, harness::functions_in_source(&source, job.lang))
        }
    };
    if graded.is_empty() {
        return Err(GradeError::NothingToGrade {
            file: job.file.clone(),
            lang: job.lang,
            defined,
            load_error: report.load_error.clone(),
        });
    }
    report.graded = graded.clone();
    let rows: Vec<&Row> = job
        .rows
        .iter()
        .filter(|r| graded.contains(&r.function))
        .collect();
    let total = rows.len();
    on_event(&GradeEvent::Started { total, graded });
    for (index, row) in rows.iter().enumerate() {
        let result = if let Some(err) = &report.load_error {
            let note = if index == 0 {
                "the file did not load, so nothing in it could be graded".to_owned()
            } else {
                "not run: the file did not load".to_owned()
            };
            let status = if index == 0 {
                Status::Error
            } else {
                Status::NotRun
            };
            let mut result = blank(row, js, status, note);
            if index == 0 {
                result.actual = format!("did not load: {err}");
            }
            result
        } else {
            let left = limits.run.saturating_sub(started.elapsed());
            if left.is_zero() {
                let note = format!(
                    "not run: the run's time limit ({} s) was used up",
                    limits.run.as_secs()
                );
                blank(row, js, Status::NotRun, note)
            } else {
                run_row(
                    row,
                    &spec,
                    js,
                    &mut session,
                    limits.row.min(left),
                    limits,
                    cancel,
                )?
            }
        };
        report.rows.push(result.clone());
        on_event(&GradeEvent::Row {
            index,
            total,
            result,
        });
    }
    Ok(report)
}

fn load_message(trouble: &Trouble) -> String {
    match trouble {
        Trouble::Load(msg) => msg.clone(),
        Trouble::TimedOut => {
            "loading it took longer than the time limit (an endless loop at the top level?)"
                .to_owned()
        }
        Trouble::Flood(n) => format!("it printed {n} bytes while loading, more than the cap"),
        Trouble::Exited(how) => format!("{how} while loading"),
        Trouble::NoInterpreter(p) => format!("{p} was not found"),
        Trouble::Spawn(msg) => msg.clone(),
        Trouble::Cancelled => "stopped".to_owned(),
    }
}

/// A result for a row that produced no answer.
fn blank(row: &Row, js: bool, status: Status, note: String) -> RowResult {
    RowResult {
        id: row.id.clone(),
        function: row.function,
        origin: row.origin,
        status,
        call: row.show_call(js),
        expected: row.show_expected(js),
        actual: match status {
            Status::NotRun => "not run".to_owned(),
            _ => "no answer".to_owned(),
        },
        note: Some(note),
        lesson: row.lesson.to_owned(),
        output: String::new(),
        elapsed_ms: 0,
    }
}

/// Run one row, starting a harness first if the last one was stopped.
fn run_row(
    row: &Row,
    spec: &sandbox::Spawn,
    js: bool,
    session: &mut Option<Harness>,
    limit: Duration,
    limits: Limits,
    cancel: &dyn Fn() -> bool,
) -> Result<RowResult, GradeError> {
    let t0 = Instant::now();
    if session.is_none() {
        match Harness::start(spec, js, limits.load, limits.output_bytes, cancel) {
            Ok((h, _)) => *session = Some(h),
            Err(fail) if fail.trouble == Trouble::Cancelled => return Err(GradeError::Cancelled),
            Err(fail) => {
                let note = format!(
                    "the file did not load again: {}",
                    load_message(&fail.trouble)
                );
                return Ok(blank(row, js, Status::Error, note));
            }
        }
    }
    let Some(h) = session.as_mut() else {
        return Err(GradeError::Spawn("no harness".into()));
    };
    let answer = h.ask(row, limit, limits.output_bytes, cancel);
    let (output, printed) = h.take_output();
    let elapsed_ms = t0.elapsed().as_millis() as u64;
    let mut result = blank(row, js, Status::Error, String::new());
    result.output = output;
    result.elapsed_ms = elapsed_ms;
    match answer {
        Ok(value) => {
            let judged = judge::judge(row, &value, js);
            result.status = if judged.pass {
                Status::Pass
            } else if value.get("error").is_some() {
                Status::Error
            } else {
                Status::Fail
            };
            result.actual = judged.actual;
            result.note = judged.note;
        }
        Err(trouble) => {
            *session = None;
            let (status, actual, note) = match trouble {
                Trouble::Cancelled => return Err(GradeError::Cancelled),
                Trouble::TimedOut => (
                    Status::TimedOut,
                    format!("no answer within {} ms", limit.as_millis()),
                    "stopped after the time limit (an endless loop?); the whole process group was killed".to_owned(),
                ),
                Trouble::Flood(n) => (
                    Status::Flood,
                    format!("printed {n}+ bytes"),
                    format!("printed more than {} KiB while answering; stopped, output cut", limits.output_bytes / 1024),
                ),
                Trouble::Exited(how) => (Status::Error, how, "the program crashed while answering".to_owned()),
                other => (Status::Error, load_message(&other), "the harness could not run this row".to_owned()),
            };
            result.status = status;
            result.actual = actual;
            result.note = Some(note);
        }
    }
    if printed > limits.output_bytes && result.status != Status::Flood {
        result.note = Some(format!(
            "{} (output cut at {} KiB)",
            result.note.unwrap_or_default(),
            limits.output_bytes / 1024
        ));
    }
    Ok(result)
}
