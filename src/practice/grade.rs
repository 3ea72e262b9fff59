//! The grading run: load the file once to learn what it defines, then ask every row of
//! those functions, starting a fresh interpreter after any row that had to be stopped.
//! Progress goes to a callback as each row finishes; [`spawn`] runs the same on a thread
//! for a screen that wants the results live.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::harness::{self, Harness, Trouble};
use super::sandbox::{LINE_CAP, Spawn};
use super::{
    GradeError, GradeEvent, Isolation, Job, Limits, Report, Row, RowResult, Status, judge,
};
use crate::sanitize::clean;

/// Grade `job.file`, reporting each row to `on_event` as it finishes. `cancel` is polled
/// while the learner's code runs; when it says yes, everything is stopped.
pub(crate) fn grade(
    job: &Job,
    cancel: &dyn Fn() -> bool,
    on_event: &mut dyn FnMut(&GradeEvent),
) -> Result<Report, GradeError> {
    let unreadable =
        |e: std::io::Error| GradeError::Unreadable(format!("{}: {e}", job.file.display()));
    let file = std::fs::canonicalize(&job.file).map_err(unreadable)?;
    let source = std::fs::read_to_string(&file).map_err(unreadable)?;
    let js = job.lang.is_js();
    let spec = harness::spawn_spec(job.lang, &file, &source).map_err(|t| match t {
        Trouble::NoInterpreter(program) => GradeError::NoInterpreter {
            program,
            lang: job.lang,
        },
        other => GradeError::Spawn(format!("{other:?}")),
    })?;
    let started = Instant::now();
    let mut report = Report {
        file: job.file.clone(),
        lang: job.lang,
        graded: Vec::new(),
        rows: Vec::new(),
        isolation: Isolation::none(),
        load_error: None,
    };
    let mut session = first_load(job, &spec, &source, cancel, &mut report)?;
    let rows: Vec<&Row> = job
        .rows
        .iter()
        .filter(|r| report.graded.contains(&r.function))
        .collect();
    let total = rows.len();
    on_event(&GradeEvent::Started {
        total,
        graded: report.graded.clone(),
    });
    for (index, row) in rows.iter().enumerate() {
        let left = job.limits.run.saturating_sub(started.elapsed());
        let result = match &report.load_error {
            Some(err) => unloaded(row, js, index, err),
            None if left.is_zero() => {
                let note = format!(
                    "not run: the run's time limit ({} s) was used up",
                    job.limits.run.as_secs()
                );
                blank(row, js, Status::NotRun, note)
            }
            None => run_row(
                row,
                &spec,
                js,
                &mut session,
                job.limits.row.min(left),
                job.limits,
                cancel,
            )?,
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

/// Start the first harness: it says which functions the file defines. A file that does
/// not load is still graded on the functions its text seems to define (every row then
/// fails, the first one saying why); a file that defines none is an error.
fn first_load(
    job: &Job,
    spec: &Spawn,
    source: &str,
    cancel: &dyn Fn() -> bool,
    report: &mut Report,
) -> Result<Option<Harness>, GradeError> {
    let limits = job.limits;
    let (session, defined) = match Harness::start(
        spec,
        job.lang.is_js(),
        limits.load,
        limits.output_bytes,
        cancel,
    ) {
        Ok((h, hello)) => {
            report.isolation = h.isolation();
            report.graded = hello.functions;
            (Some(h), hello.defined)
        }
        Err(fail) => {
            match fail.trouble {
                Trouble::Cancelled => return Err(GradeError::Cancelled),
                Trouble::Spawn(msg) => return Err(GradeError::Spawn(msg)),
                _ => {}
            }
            report.isolation = fail.isolation.unwrap_or_else(Isolation::none);
            let message = load_message(&fail.trouble);
            // The learner's text (its error, its last line): cleaned once, here, for every
            // place that shows it.
            let error = match fail.output.trim().lines().last() {
                Some(last) => format!("{message}; it printed: {last}"),
                None => message,
            };
            report.load_error = Some(clean(&error, false));
            report.graded = harness::functions_in_source(source, job.lang);
            (None, Vec::new())
        }
    };
    if report.graded.is_empty() {
        return Err(GradeError::NothingToGrade {
            file: job.file.clone(),
            lang: job.lang,
            defined,
            load_error: report.load_error.clone(),
        });
    }
    Ok(session)
}

/// A row of a file that did not load: the first says why, the rest are not run.
fn unloaded(row: &Row, js: bool, index: usize, err: &str) -> RowResult {
    if index > 0 {
        return blank(
            row,
            js,
            Status::NotRun,
            "not run: the file did not load".to_owned(),
        );
    }
    let mut result = blank(
        row,
        js,
        Status::Error,
        "the file did not load, so nothing in it could be graded".to_owned(),
    );
    result.actual = format!("did not load: {err}");
    result
}

/// What a background run reports.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    Event(GradeEvent),
    Done(Result<Report, GradeError>),
}

/// A grading run on its own thread. Dropping it stops the run (the learner's processes
/// are killed) and waits for the thread.
pub(crate) struct Background {
    cancel: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Background {
    /// Stop the run early; `Done(Err(Cancelled))` is then the last message.
    pub(crate) fn cancel(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.cancel();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Grade on a new thread, sending every event and then the outcome to `send` (for a
/// screen's channel). The learner's processes live only as long as that thread.
pub(crate) fn spawn(job: Job, mut send: impl FnMut(Progress) + Send + 'static) -> Background {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let handle = std::thread::spawn(move || {
        let stop = || flag.load(Ordering::SeqCst);
        let outcome = grade(&job, &stop, &mut |ev| send(Progress::Event(ev.clone())));
        send(Progress::Done(outcome));
    });
    Background {
        cancel,
        handle: Some(handle),
    }
}

fn load_message(trouble: &Trouble) -> String {
    match trouble {
        Trouble::Load(msg) => msg.clone(),
        Trouble::TimedOut => {
            "loading it took longer than the time limit (an endless loop at the top level?)"
                .to_owned()
        }
        Trouble::Flood(n) => format!("it printed {n} bytes while loading, more than the cap"),
        Trouble::Overlong(n) => format!(
            "a line of {n}+ bytes on the grader's channel (descriptor 3) while loading, more than its {} KiB",
            LINE_CAP / 1024
        ),
        Trouble::Forged => {
            "an answer the harness did not write came on the grader's channel (descriptor 3)"
                .to_owned()
        }
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
        trap: None,
        lesson: row.lesson.to_owned(),
        output: String::new(),
        elapsed_ms: 0,
        memory_peak: None,
    }
}

/// Run one row, starting a harness first if the last one was stopped.
fn run_row(
    row: &Row,
    spec: &Spawn,
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
    let over = h.overrun();
    let isolation = h.isolation();
    let memory_peak = h.memory_peak();
    let (output, printed) = h.take_output();
    let elapsed_ms = t0.elapsed().as_millis() as u64;
    let mut result = blank(row, js, Status::Error, String::new());
    result.output = output;
    result.elapsed_ms = elapsed_ms;
    result.memory_peak = memory_peak;
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
            result.trap = judged.trap.map(|t| t.name);
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
                Trouble::Overlong(n) => (
                    Status::Error,
                    format!("sent a line of {n}+ bytes on the grader's channel"),
                    format!("a line on descriptor 3 (the grader's channel) may hold at most {} KiB; the row was stopped", LINE_CAP / 1024),
                ),
                Trouble::Forged => (
                    Status::Error,
                    "an answer the harness did not write".to_owned(),
                    "something other than the harness wrote on descriptor 3 (the grader's channel); the row was stopped".to_owned(),
                ),
                other => (Status::Error, load_message(&other), "the harness could not run this row".to_owned()),
            };
            result.status = status;
            result.actual = actual;
            result.note = Some(note);
        }
    }
    mark_overrun(&mut result, over, &isolation);
    if printed > limits.output_bytes && result.status != Status::Flood {
        result.note = Some(format!(
            "{} (output cut at {} KiB)",
            result.note.unwrap_or_default(),
            limits.output_bytes / 1024
        ));
    }
    Ok(result)
}

/// A failed row whose run went over a cap says so: from the cgroup's counters where there
/// is one (processes killed for memory, forks refused), else from the interpreter's own
/// words for a refused allocation or fork.
fn mark_overrun(result: &mut RowResult, (oom_kills, forks_refused): (u64, u64), iso: &Isolation) {
    if result.status == Status::Pass {
        return;
    }
    let said = |words: &[&str]| {
        words
            .iter()
            .any(|w| result.actual.contains(w) || result.output.contains(w))
    };
    let memory = oom_kills > 0
        || said(&[
            "MemoryError",
            "Array buffer allocation failed",
            "heap out of memory",
            "Cannot allocate memory",
        ]);
    let forks = forks_refused > 0
        || said(&[
            "Resource temporarily unavailable",
            "BlockingIOError",
            "EAGAIN",
        ]);
    let cap = iso.limits;
    let (status, note) = if memory {
        let text = if oom_kills > 0 {
            format!(
                "the run went over its memory cap ({} MiB for all its processes together); the kernel stopped a process",
                cap.memory_bytes >> 20
            )
        } else {
            format!(
                "a process went over its own memory cap ({} MiB); the allocation was refused",
                cap.process_memory_bytes >> 20
            )
        };
        (Status::Memory, text)
    } else if forks {
        let text = format!(
            "a new process was refused: the run may have at most {} tasks (processes and threads)",
            cap.tasks
        );
        (Status::Processes, text)
    } else {
        return;
    };
    result.status = status;
    result.note = Some(note);
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;
    use crate::content::Content;
    use crate::practice::{Function, Lang, cases};

    #[test]
    fn a_background_run_reports_rows_then_the_outcome() {
        if super::super::sandbox::find_program("python3").is_none() {
            eprintln!("skipped: python3 is not installed");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("s.py");
        std::fs::write(&file, "def execute_tool(name, args, context, records):\n    return {'ok': False, 'code': 'unknown_tool'}\n").unwrap();
        let job = Job {
            file,
            lang: Lang::Python,
            limits: Limits::default(),
            rows: cases::load(&Content::embedded()).unwrap(),
        };
        let (tx, rx) = mpsc::channel();
        let run = spawn(job, move |p| {
            let _ = tx.send(p);
        });
        let messages: Vec<Progress> = rx.iter().collect();
        drop(run);
        let Some(Progress::Done(Ok(report))) = messages.last() else {
            panic!("{messages:?}")
        };
        assert_eq!(report.graded, vec![Function::Execute]);
        let rows = messages
            .iter()
            .filter(|m| matches!(m, Progress::Event(GradeEvent::Row { .. })))
            .count();
        assert_eq!(rows, report.rows.len());
        assert!(report.rows.iter().any(|r| r.id == "row-5" && r.passed()));
        assert!(report.rows.iter().any(|r| r.id == "row-1" && !r.passed()));
    }
}
