//! `--watch`: grade, show the first failing row, wait for the next save, grade again.
//! A save that lands while a run is going stops that run and starts a fresh one.

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::{GradeError, GradeEvent, Job, Report, RowResult, grade};
use crate::sanitize::clean;

const CLEAR: &str = "\x1b[2J\x1b[H";

/// Re-grade `job` on every save of its file until `stop` is set (Ctrl-C). `title` gives a
/// lesson's title from its id.
pub(crate) fn watch(
    job: &Job,
    title: &dyn Fn(&str) -> Option<String>,
    out: &mut dyn Write,
    stop: &AtomicBool,
) -> io::Result<()> {
    let changed = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<()>();
    let _watcher = watch_file(&job.file, Arc::clone(&changed), tx)?;
    let watching = Instant::now();
    let mut run = 0;
    loop {
        changed.store(false, Ordering::SeqCst);
        let cancel = || stop.load(Ordering::SeqCst) || changed.load(Ordering::SeqCst);
        run += 1;
        let began = Instant::now();
        write!(out, "{CLEAR}{}\n\ngrading... (run {run})", header(job))?;
        out.flush()?;
        let mut on_event = |ev: &GradeEvent| {
            if let GradeEvent::Row { index, total, .. } = ev {
                let _ = write!(out, "\rgrading... (run {run}) {}/{total}", index + 1);
                let _ = out.flush();
            }
        };
        match grade(job, &cancel, &mut on_event) {
            Ok(report) => {
                let when = run_line(run, began - watching, began.elapsed());
                let shown = screen(&report, title);
                write!(out, "{CLEAR}{}\n{when}\n\n{shown}", header(job))?
            }
            Err(GradeError::Cancelled) if stop.load(Ordering::SeqCst) => break,
            Err(GradeError::Cancelled) => continue,
            Err(e) => write!(
                out,
                "{CLEAR}{}\n\ncannot grade it: {e}\n\nwaiting for the next save...\n",
                header(job)
            )?,
        }
        out.flush()?;
        if !wait_for_save(&rx, stop) {
            break;
        }
    }
    writeln!(out, "\nstopped watching.")?;
    Ok(())
}

/// `run 3 · graded at 2:14 of watching, in 1.8 s`: which run this is and when it was made,
/// so a save that changed nothing still shows a fresh run.
fn run_line(run: u32, at: Duration, took: Duration) -> String {
    let s = at.as_secs();
    format!(
        "run {run} \u{b7} graded at {}:{:02} of watching, in {:.1} s",
        s / 60,
        s % 60,
        took.as_secs_f64()
    )
}

fn header(job: &Job) -> String {
    format!(
        "tooldojo practice: {} ({}), re-graded on every save; Ctrl-C stops",
        clean(&job.file.display().to_string(), false),
        job.lang.name()
    )
}

/// Block until the file is saved (true) or `stop` is set (false). Editors save in bursts
/// (write, rename, chmod), so a short quiet spell ends the wait.
fn wait_for_save(rx: &mpsc::Receiver<()>, stop: &AtomicBool) -> bool {
    loop {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(()) => {
                std::thread::sleep(Duration::from_millis(100));
                while rx.try_recv().is_ok() {}
                return true;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return false,
        }
    }
}

/// Watch the file's directory (editors often replace a file rather than write it) and ping
/// on any change to a file of the same name.
fn watch_file(
    file: &Path,
    changed: Arc<AtomicBool>,
    tx: mpsc::Sender<()>,
) -> io::Result<notify::RecommendedWatcher> {
    let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    let (dir, wanted) = crate::watch::file_in_dir(&file);
    crate::watch::watch_dir(&dir, wanted, move || {
        changed.store(true, Ordering::SeqCst);
        let _ = tx.send(());
    })
    .map_err(io::Error::other)
}

/// The watch screen for one report: the progress count, the first failing row in full,
/// the other failing rows by id.
pub(crate) fn screen(report: &Report, title: &dyn Fn(&str) -> Option<String>) -> String {
    let total = report.rows.len();
    let passed = report.passed();
    let width = 30;
    let filled = (passed * width).checked_div(total).unwrap_or(0);
    let mut s = format!(
        "{passed}/{total} rows pass  [{}{}]\n",
        "#".repeat(filled),
        "-".repeat(width - filled)
    );
    let js = report.lang.is_js();
    for f in report.not_defined() {
        s.push_str(&format!(
            "({} is not defined, so its rows are not graded)\n",
            f.name(js)
        ));
    }
    for notice in report.notices() {
        s.push_str(&notice);
        s.push('\n');
    }
    let Some(first) = report.first_failure() else {
        s.push_str(&format!("\nAll {total} rows pass. Well done.\n"));
        return s;
    };
    s.push('\n');
    s.push_str(&failure_block(first, title));
    let others: Vec<&str> = report
        .rows
        .iter()
        .filter(|r| !r.passed() && r.id != first.id)
        .map(|r| r.id.as_str())
        .collect();
    if !others.is_empty() {
        let shown = others
            .iter()
            .take(12)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        let more = others.len().saturating_sub(12);
        s.push_str(&format!("\nAlso failing ({}): {shown}", others.len()));
        if more > 0 {
            s.push_str(&format!(" and {more} more"));
        }
        s.push('\n');
    }
    s
}

/// At most this many characters of one printed line are shown in a text report.
const PRINTED_LINE_CHARS: usize = 200;

/// At most this many lines of what a failing row printed are shown.
pub(crate) const PRINTED_LINES: usize = 8;

/// One line the code printed, cleaned, cut at [`PRINTED_LINE_CHARS`] with how much was cut.
pub(crate) fn printed_line(line: &str) -> String {
    let line = clean(line, false);
    match line.char_indices().nth(PRINTED_LINE_CHARS) {
        None => line,
        Some((at, _)) => {
            let more = line[at..].chars().count();
            format!("{}... ({more} more characters on this line)", &line[..at])
        }
    }
}

/// One failing row in full: call, expected, actual, why, lesson, output.
pub(crate) fn failure_block(row: &RowResult, title: &dyn Fn(&str) -> Option<String>) -> String {
    let origin = match row.origin {
        super::Origin::Fixture => "a fixture row",
        super::Origin::HeldBack => "a held-back edge case",
    };
    let lesson = match title(&row.lesson) {
        Some(t) => format!("{} ({t})", row.lesson),
        None => row.lesson.clone(),
    };
    let mut s = format!(
        "First failing row: {} [{}], {origin}\n  call      {}\n  expected  {}\n  actual    {}\n",
        row.id,
        row.status.tag().unwrap_or("wrong result"),
        clean(&row.call, false),
        clean(&row.expected, false),
        clean(&row.actual, false)
    );
    if let Some(note) = &row.note {
        s.push_str(&format!("  why       {}\n", clean(note, false)));
    }
    s.push_str(&format!("  revisit   lesson {lesson}\n"));
    let lines: Vec<&str> = row.output.lines().collect();
    if !lines.is_empty() {
        s.push_str("  printed\n");
        for line in lines.iter().take(PRINTED_LINES) {
            s.push_str(&format!("    | {}\n", printed_line(line)));
        }
        if lines.len() > PRINTED_LINES {
            s.push_str(&format!(
                "    | ... {} more lines\n",
                lines.len() - PRINTED_LINES
            ));
        }
    }
    s
}
