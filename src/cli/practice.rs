//! `tooldojo practice`: grade the learner's own solution, or write a starter file.
//!
//! One line per row on stdout as rows finish, then `N passed, N failed`; notices (network,
//! functions not defined, what a failing row printed) go to stderr. Exit 0 when every row
//! passes, 1 when any fails, 2 when the file cannot be graded at all.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{ContentArgs, LangArg, print_err, print_out};
use crate::error::UserError;
use crate::practice::{self, GradeError, GradeEvent, Job, Lang, Limits, RowResult, starter};
use crate::sanitize::clean;

#[derive(Debug, clap::Args)]
pub(crate) struct PracticeArgs {
    /// The solution to grade (.py, .js, .mjs, .cjs). Without it, a starter file is written.
    #[arg(value_name = "FILE")]
    pub(crate) file: Option<PathBuf>,
    /// The language, when the file's extension does not say it (default for a starter: python).
    #[arg(long, value_enum)]
    pub(crate) lang: Option<LangArg>,
    /// Grade again on every save of FILE (Ctrl-C stops).
    #[arg(long)]
    pub(crate) watch: bool,
    /// Print the whole report as one JSON document (rows, and what the sandbox held on this
    /// machine) instead of one line per row.
    #[arg(long, conflicts_with = "watch")]
    pub(crate) json: bool,
    /// Where to write the starter file (default: the current directory).
    #[arg(long, value_name = "DIR", conflicts_with = "file")]
    pub(crate) dir: Option<PathBuf>,
    /// Time limit for one row, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    pub(crate) time_limit_ms: u64,
    /// Time limit for the whole run, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    pub(crate) run_limit_ms: u64,
}

/// The shortest time limits that mean anything: starting a call takes the harness a few
/// milliseconds, so a smaller limit would fail every row as an endless loop.
const MIN_TIME_LIMIT_MS: u64 = 100;

pub(crate) fn run(args: PracticeArgs, content: &ContentArgs) -> super::CliResult {
    refuse_short_limits(&args)?;
    let file = match args.file.clone() {
        Some(file) => file,
        None => {
            let path = write_starter(&args)?;
            if !args.watch {
                return Ok(ExitCode::SUCCESS);
            }
            path
        }
    };
    let lang = lang_of(&args, &file)?;
    let content = content.content();
    let row = Duration::from_millis(args.time_limit_ms);
    let limits = Limits {
        row,
        run: Duration::from_millis(args.run_limit_ms),
        // Starting an interpreter is not the learner's doing: never less than the default.
        load: Limits::default().load.max(row),
        ..Limits::default()
    };
    let job = Job {
        file,
        lang,
        limits,
        rows: practice::cases::load(&content)?,
    };
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    let titles = lesson_titles(&content);
    let title = |id: &str| titles.get(id).cloned();
    if args.watch {
        practice::watch::watch(&job, &title, &mut std::io::stdout(), &stop)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut on_event = |ev: &GradeEvent| match ev {
        GradeEvent::Started { total, .. } => {
            print_err(&format!(
                "grading {} ({}): {total} rows",
                job.file.display(),
                lang.name()
            ));
        }
        GradeEvent::Row { result, .. } if !args.json => {
            // A reader gone away (`| head`) stops nothing: the grade is still recorded.
            let _ = print_out(&format!("{}\n", row_line(result, lang.is_js())));
        }
        GradeEvent::Row { .. } => {}
    };
    let report = match practice::grade(&job, &|| stop.load(Ordering::SeqCst), &mut on_event) {
        Ok(report) => report,
        Err(GradeError::Cancelled) => {
            print_err("tooldojo: stopped: the grading was interrupted");
            return Ok(ExitCode::from(2));
        }
        Err(e) => {
            print_err(&format!("tooldojo: {e}"));
            return Ok(ExitCode::from(2));
        }
    };
    if args.json {
        let text = serde_json::to_string_pretty(&report).map_err(std::io::Error::other)?;
        print_out(&format!(
            "{}\n",
            crate::sanitize::escape_json_controls(text)
        ))?;
        let lessons = crate::course::load_lessons(&content).unwrap_or_default();
        if let Some(recorded) = crate::course::graded::record_pass(&lessons, &report) {
            print_err(&recorded.line());
        }
        return Ok(if report.failed() == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    for f in report.not_defined() {
        print_err(&format!(
            "note: {} is not defined, so its rows were not graded",
            f.name(lang.is_js())
        ));
    }
    for notice in report.notices() {
        print_err(&notice.to_string());
    }
    if let Some(first) = report.first_failure() {
        let block = practice::watch::failure_block(first, &title);
        print_err(&format!("\n{}", block.strip_suffix('\n').unwrap_or(&block)));
    }
    print_out(&format!("{}\n", report.summary()))?;
    let lessons = crate::course::load_lessons(&content).unwrap_or_default();
    if let Some(recorded) = crate::course::graded::record_pass(&lessons, &report) {
        print_err(&recorded.line());
    }
    Ok(if report.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Time limits too short to mean anything are refused, not stretched.
fn refuse_short_limits(args: &PracticeArgs) -> Result<(), UserError> {
    for (flag, ms) in [
        ("--time-limit-ms", args.time_limit_ms),
        ("--run-limit-ms", args.run_limit_ms),
    ] {
        if ms < MIN_TIME_LIMIT_MS {
            return Err(UserError::new(format!(
                "{flag} {ms}: too short to answer in; give at least {MIN_TIME_LIMIT_MS} (milliseconds)"
            )));
        }
    }
    Ok(())
}

/// The language to grade `file` in: `--lang`, else its extension. A file that is not there
/// is said to be missing first (the language of a file that is not there is no question),
/// except when watching for a file still to be written whose language is known.
fn lang_of(args: &PracticeArgs, file: &std::path::Path) -> Result<Lang, UserError> {
    let lang = args.lang.map(Lang::from).or_else(|| Lang::of_path(file));
    match std::fs::metadata(file) {
        Ok(meta) if meta.is_dir() => {
            return Err(UserError::new(format!(
                "{}: is a directory; give the solution file to grade (.py or .js)",
                file.display()
            )));
        }
        Err(e) if !(args.watch && lang.is_some()) => {
            return Err(UserError::new(format!("{}: {e}", file.display())));
        }
        _ => {}
    }
    lang.ok_or_else(|| {
        UserError::new(format!(
            "{}: cannot tell the language from the file name; add --lang python or --lang js",
            file.display()
        ))
    })
}

fn write_starter(args: &PracticeArgs) -> Result<PathBuf, UserError> {
    let lang = args.lang.map_or(Lang::Python, Lang::from);
    let dir = args.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    if !dir.exists() {
        std::fs::create_dir_all(&dir)
            .map_err(|e| UserError::new(format!("{}: cannot create it: {e}", dir.display())))?;
        let _ = print_out(&format!("Created the directory {}\n", dir.display()));
    } else if !dir.is_dir() {
        return Err(UserError::new(format!(
            "{}: not a directory; --dir names the directory to write the starter in",
            dir.display()
        )));
    }
    let path = starter::write(&dir, lang).map_err(UserError::new)?;
    let shown = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
    let _ = print_out(&format!(
        "Wrote a {} starter: {}\nFill it in, then grade it with: tooldojo practice {} (add --watch to re-grade on every save)\n",
        lang.name(),
        shown.display(),
        shown.display()
    ));
    Ok(path)
}

/// One row: PASS or FAIL, function, id (a failure with no answer adds `[timeout]`, `[flood]`,
/// `[error]` or `[not-run]`), expected, actual; failing rows add the call, why, and the
/// lesson to revisit.
pub(crate) fn row_line(r: &RowResult, js: bool) -> String {
    let tag = r
        .status
        .tag()
        .map(|t| format!("  [{t}]"))
        .unwrap_or_default();
    let head = format!(
        "{} {:<18} {}{tag}",
        r.status.word(),
        r.function.name(js),
        r.id
    );
    let body = format!(
        "expected {}  actual {}",
        clean(&r.expected, false),
        clean(&r.actual, false)
    );
    if r.passed() {
        return format!("{head}  {body}");
    }
    let why = r
        .note
        .as_deref()
        .map(|n| format!("; {}", clean(n, false)))
        .unwrap_or_default();
    format!(
        "{head}  {}  {body}  (revisit lesson {}{why})",
        clean(&r.call, false),
        r.lesson
    )
}

fn lesson_titles(content: &crate::content::Content) -> HashMap<String, String> {
    crate::content::lessons::load_all(content)
        .map(|ls| ls.into_iter().map(|l| (l.id, l.title)).collect())
        .unwrap_or_default()
}
