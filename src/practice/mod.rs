//! The grader: runs a learner's own `validate_tool_args` / `execute_tool` (Python) or
//! `executeTool` (JavaScript) against every fixture row and a set of held-back edge cases,
//! under the machine's own interpreter, in a sandbox with time and output limits.
//!
//! - [`cases`]: the rows and their expected results (computed by the real code);
//! - [`harness`]: the embedded harness programs and the JSON-lines exchange;
//! - [`sandbox`]: process group, fresh directory, scrubbed environment, no network, its own
//!   process-id namespace, limits;
//! - [`judge`]: one answer against one expected result; [`show`]: rows written for the learner;
//! - [`starter`]: the starter files; [`watch`]: re-grading on every save;
//! - [`grade`](mod@grade): the run itself, with progress as it goes, here or on a thread;
//! - this file: the types of a run and its report.

pub mod cases;
pub(crate) mod grade;
pub(crate) mod harness;
pub(crate) mod judge;
pub(crate) mod sandbox;
pub(crate) mod show;
pub(crate) mod starter;
pub(crate) mod trap;
pub(crate) mod watch;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::sanitize::clean;

pub use cases::{Function, Origin, Row};
pub(crate) use grade::{Background, Progress, grade, spawn};
pub(crate) use sandbox::Isolation;

/// The learner's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    Python,
    Js,
}

impl Lang {
    /// The language a file's extension says, if any.
    pub(crate) fn of_path(path: &Path) -> Option<Lang> {
        match path.extension()?.to_str()? {
            "py" => Some(Lang::Python),
            "js" | "mjs" | "cjs" => Some(Lang::Js),
            _ => None,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Lang::Python => "Python",
            Lang::Js => "JavaScript",
        }
    }

    pub(crate) fn is_js(self) -> bool {
        self == Lang::Js
    }

    /// The functions a file in this language may define.
    pub(crate) fn functions(self) -> &'static [Function] {
        match self {
            Lang::Python => &Function::ALL,
            Lang::Js => &[Function::Execute],
        }
    }
}

/// How long and how loud the learner's code may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// One row (one call of the learner's function).
    pub(crate) row: Duration,
    /// Loading the file (interpreter start included).
    pub(crate) load: Duration,
    /// The whole run, every row and every restart.
    pub(crate) run: Duration,
    /// Bytes the code may print while answering one row (or while loading).
    pub(crate) output_bytes: usize,
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
pub(crate) enum Status {
    Pass,
    /// The function returned, but not what the real code returns.
    Fail,
    /// It raised, crashed, or the file did not load.
    Error,
    /// It ran past the row's time limit and was stopped.
    TimedOut,
    /// It printed more than the output cap and was stopped.
    Flood,
    /// The run went over its memory cap (the kernel stopped a process, or an allocation
    /// was refused).
    Memory,
    /// The run went over its cap on processes (a fork was refused).
    Processes,
    /// Not run: the file did not load, or the run's time was used up.
    NotRun,
}

impl Status {
    /// `PASS` or `FAIL`: every row is one or the other.
    pub(crate) fn word(self) -> &'static str {
        if self == Status::Pass { "PASS" } else { "FAIL" }
    }

    /// What kind of failure, when the function gave no answer to judge.
    pub(crate) fn tag(self) -> Option<&'static str> {
        match self {
            Status::Pass | Status::Fail => None,
            Status::Error => Some("error"),
            Status::TimedOut => Some("timeout"),
            Status::Flood => Some("flood"),
            Status::Memory => Some("memory"),
            Status::Processes => Some("processes"),
            Status::NotRun => Some("not-run"),
        }
    }
}

/// The result of one row.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RowResult {
    pub id: String,
    pub(crate) function: Function,
    pub(crate) origin: Origin,
    pub(crate) status: Status,
    /// The call, as the learner would write it.
    pub(crate) call: String,
    pub(crate) expected: String,
    pub(crate) actual: String,
    /// Why the row failed, in a sentence.
    pub(crate) note: Option<String>,
    /// The trap the wrong answer fell into, in a few words (`not anchored`): set when the row
    /// tests a named one and the answer shows it, as the note's last sentence says.
    pub(crate) trap: Option<&'static str>,
    /// The lesson to revisit when the row fails.
    pub(crate) lesson: String,
    /// What the code printed while answering (cut at the cap; terminal controls are not
    /// cleaned here, callers clean it where they show it).
    pub(crate) output: String,
    pub(crate) elapsed_ms: u64,
    /// The most memory the run's processes held together by the end of this row, where a
    /// cgroup kept count (bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) memory_peak: Option<u64>,
}

impl RowResult {
    pub fn passed(&self) -> bool {
        self.status == Status::Pass
    }
}

/// The whole grading run.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Report {
    pub(crate) file: PathBuf,
    pub(crate) lang: Lang,
    /// The functions graded.
    pub(crate) graded: Vec<Function>,
    pub rows: Vec<RowResult>,
    /// What held on this machine: `network`, `net_isolated`, `pids_isolated`,
    /// `fs_isolated`, `caps_dropped`, `uid`, `landlock` and `limits`, side by side.
    #[serde(flatten)]
    pub(crate) isolation: Isolation,
    /// Set when the file did not load at all.
    pub(crate) load_error: Option<String>,
}

impl Report {
    /// What the learner should know about how their code was contained, one line each
    /// (only the network, when no row ran).
    pub(crate) fn notices(&self) -> Vec<String> {
        if self.load_error.is_some() || self.rows.is_empty() {
            let network = self.isolation.network.notice();
            return network.into_iter().map(str::to_owned).collect();
        }
        self.isolation.notices()
    }

    pub(crate) fn passed(&self) -> usize {
        self.rows.iter().filter(|r| r.passed()).count()
    }

    pub fn failed(&self) -> usize {
        self.rows.len() - self.passed()
    }

    pub(crate) fn first_failure(&self) -> Option<&RowResult> {
        self.rows.iter().find(|r| !r.passed())
    }

    /// The last line of the report: `N passed, N failed`.
    pub(crate) fn summary(&self) -> String {
        format!("{} passed, {} failed", self.passed(), self.failed())
    }

    /// Functions the language allows but the file does not define.
    pub(crate) fn not_defined(&self) -> Vec<Function> {
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
            GradeError::Unreadable(msg) | GradeError::Spawn(msg) => f.write_str(&clean(msg, false)),
            GradeError::NothingToGrade {
                file,
                lang,
                defined,
                load_error,
            } => {
                // The file's name, its names and its load error are the learner's text.
                let wanted: Vec<&str> = lang
                    .functions()
                    .iter()
                    .map(|fun| fun.name(lang.is_js()))
                    .collect();
                let file = clean(&file.display().to_string(), false);
                write!(f, "{file}: defines none of {}", wanted.join(", "))?;
                if let Some(err) = load_error {
                    write!(f, " (it did not load: {})", clean(err, false))?;
                } else if !defined.is_empty() {
                    let names: Vec<String> = defined.iter().map(|n| clean(n, false)).collect();
                    write!(
                        f,
                        " (it {} {})",
                        if lang.is_js() { "exports" } else { "defines" },
                        names.join(", ")
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
pub(crate) struct Job {
    pub(crate) file: PathBuf,
    pub(crate) lang: Lang,
    pub(crate) limits: Limits,
    /// Usually [`cases::load`]; only the rows of functions the file defines are run.
    pub(crate) rows: Vec<Row>,
}
