//! The grader, live, as the practice screen and the drill's write-it round use it: a real
//! Python (or JavaScript) solution graded on a background thread, graded again when the file is saved
//! (through the real file watcher), and the drill's round handed in with its report.
//! Skipped, with a message, when python3 (or node) is not installed.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tooldojo::content::Content;
use tooldojo::course::rehearsal::score::Given;
use tooldojo::course::rehearsal::{DrillConfig, Mix, Pool, Question, Sitting, transcript};
use tooldojo::practice::{Function, Lang, cases};
use tooldojo::tui::grader::{GraderMsg, GraderState, LiveGrader, Notify};
use tooldojo::tui::rehearse::{Drill, DrillUpdate};

use crate::tui_common::env;

/// The reference solution (both functions), shared with the practice tests.
const SOLUTION: &str = include_str!("../data/practice/solution.py");
/// A correct `executeTool` without its export, shared with the practice tests.
const JS_BODY: &str = include_str!("../data/practice/execute_tool.js");

/// `JS_BODY` as a CommonJS module.
fn cjs(body: &str) -> String {
    format!("'use strict';\n{body}\nmodule.exports = {{ executeTool }};\n")
}

fn have(program: &str) -> bool {
    let ok = std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("SKIPPED: {program} is not installed");
    }
    ok
}

fn have_python() -> bool {
    have("python3")
}

fn channel_notify() -> (Notify, Receiver<GraderMsg>) {
    let (tx, rx) = channel();
    let tx = Mutex::new(tx);
    let notify: Notify = Arc::new(move |m| {
        let _ = tx.lock().unwrap().send(m);
    });
    (notify, rx)
}

/// Hand messages to `take` until `done` says so (or fail after a while).
fn pump(rx: &Receiver<GraderMsg>, mut take: impl FnMut(GraderMsg), done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the grader did not finish"
        );
        if let Ok(m) = rx.recv_timeout(Duration::from_millis(100)) {
            take(m);
        }
    }
}

fn validate_rows() -> Vec<tooldojo::practice::Row> {
    cases::load(&Content::embedded())
        .unwrap()
        .into_iter()
        .filter(|r| r.function == Function::Validate)
        .collect()
}

fn finished(g: &LiveGrader) -> bool {
    matches!(g.state(), GraderState::Done(_) | GraderState::Failed(_))
}

#[test]
fn the_live_grader_passes_a_correct_file_and_grades_again_on_save() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("solution.py");
    std::fs::write(&file, SOLUTION).unwrap();
    let (notify, rx) = channel_notify();
    let grader = Mutex::new(LiveGrader::new(
        file.clone(),
        Lang::Python,
        validate_rows(),
        BTreeMap::new(),
        Some(notify),
    ));
    pump(
        &rx,
        |m| {
            grader.lock().unwrap().on_msg(m);
        },
        || finished(&grader.lock().unwrap()),
    );
    {
        let g = grader.lock().unwrap();
        let report = g.report().expect("graded");
        assert_eq!(report.failed(), 0, "{:?}", g.report_lines());
        assert_eq!(g.all_passed(), vec![Function::Validate]);
        assert_eq!(g.runs(), 1);
    }
    // Saving a version without the bool guard grades it again, through the watcher.
    std::fs::write(
        &file,
        SOLUTION.replace("if isinstance(value, bool)", "if False"),
    )
    .unwrap();
    pump(
        &rx,
        |m| {
            grader.lock().unwrap().on_msg(m);
        },
        || {
            let g = grader.lock().unwrap();
            g.runs() >= 2 && finished(&g)
        },
    );
    let g = grader.lock().unwrap();
    let report = g.report().expect("graded again");
    assert!(report.failed() > 0);
    assert!(g.all_passed().is_empty());
    let failing: Vec<&str> = report
        .rows
        .iter()
        .filter(|r| !r.passed())
        .map(|r| r.id.as_str())
        .collect();
    assert!(failing.iter().any(|id| id.contains("bool")), "{failing:?}");
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn write_drill(dir: &Path, lang: Lang, notify: Notify) -> Drill {
    write_drill_with(dir, lang, notify, None)
}

/// A one-question drill (the write-it round) in `dir`, its clock stopped at `clock` if given.
fn write_drill_with(dir: &Path, lang: Lang, notify: Notify, clock: Option<u64>) -> Drill {
    let content = Content::embedded();
    let lessons = tooldojo::course::load_lessons(&content).unwrap();
    let pool = Pool::build(&env(), &lessons);
    let cfg = DrillConfig {
        dir: dir.to_path_buf(),
        mix: Mix {
            predict: 0,
            explain: 0,
            write: true,
        },
        lang,
        fixed_clock: clock,
        ..DrillConfig::new(2, 5)
    };
    Drill::new(cfg, &pool, &[], BTreeMap::new(), Some(notify))
}

#[test]
fn the_write_it_round_writes_a_starter_grades_each_save_and_hands_in_the_report() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (notify, rx) = channel_notify();
    let drill = Mutex::new(write_drill(dir.path(), Lang::Python, notify));
    let file = dir.path().join("tooldojo-rehearsal-2.py");
    {
        let d = drill.lock().unwrap();
        assert!(matches!(
            d.questions()[0],
            Question::Write {
                function: Function::Validate,
                ..
            }
        ));
        assert!(!file.exists(), "the round asks first");
    }
    let _ = drill.lock().unwrap().on_key(key(KeyCode::Enter));
    assert!(file.exists(), "Enter wrote a starter");
    let graded = |runs: u32| {
        let d = drill.lock().unwrap();
        let g = d.write_round().unwrap().grader().unwrap();
        g.runs() >= runs && finished(g)
    };
    // The starter solves nothing: it fails (or defines nothing that passes).
    pump(
        &rx,
        |m| {
            drill.lock().unwrap().grader_msg(m);
        },
        || graded(1),
    );
    assert!(drill.lock().unwrap().write_passed().is_empty());
    let draw = |d: &Drill| {
        let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 80, 24));
        let theme = tooldojo::tui::theme::Theme::new(tooldojo::tui::theme::ThemeName::Mono, false);
        d.render(buf.area, &mut buf, &theme, false);
        tooldojo::text::screen_text(&buf)
    };
    let failing = draw(&drill.lock().unwrap());
    assert!(failing.contains("A starter is at"), "{failing}");
    {
        // The report is longer than the window: PgDn pages it, the result line goes out of view.
        let mut d = drill.lock().unwrap();
        let top = draw(&d);
        assert!(top.contains("(run 1)"), "{top}");
        let _ = d.on_key(key(KeyCode::PageDown));
        let paged = draw(&d);
        assert!(!paged.contains("(run 1)"), "a page down:\n{paged}");
    }
    std::fs::write(&file, SOLUTION).unwrap();
    pump(
        &rx,
        |m| {
            drill.lock().unwrap().grader_msg(m);
        },
        || graded(2),
    );
    let mut d = drill.into_inner().unwrap();
    let regraded = draw(&d);
    assert!(
        regraded.contains("(run 2)"),
        "a re-grade shows its result line:\n{regraded}"
    );
    assert_eq!(d.write_passed(), vec![Function::Validate]);
    // Passing, the round says so rather than what to fill in.
    let words = regraded.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!words.contains("A starter is at"), "{regraded}");
    assert!(words.contains("Your validate_tool_args in"), "{regraded}");
    assert!(words.contains("passes every row."), "{regraded}");
    let _ = d.on_key(key(KeyCode::Enter));
    assert!(d.running(), "handing in shows the round's outcome first");
    let _ = d.on_key(key(KeyCode::Enter));
    assert!(!d.running(), "then the one-question drill ends");
    let Given::Written {
        passed,
        total,
        report,
        failing,
    } = &d.answers()[0].given
    else {
        panic!("the round was handed in");
    };
    assert!(*total > 0 && passed == total && failing.is_empty());
    assert!(
        d.answers()[0].right(),
        "every row passed: the round is passed"
    );
    let md = transcript::markdown(&d);
    assert!(md.contains(&format!("Grader: {passed} of {total} rows passed.")));
    assert!(
        md.contains(report.last().unwrap()),
        "the summary line is in the transcript"
    );
}

#[test]
fn the_write_it_round_in_javascript_passes_a_correct_execute_tool_and_fails_a_planted_bug() {
    if !have("node") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (notify, rx) = channel_notify();
    let drill = Mutex::new(write_drill(dir.path(), Lang::Js, notify));
    let file = dir.path().join("tooldojo-rehearsal-2.js");
    {
        let d = drill.lock().unwrap();
        // The seed that asks for the validator in Python asks for the executor here: it
        // is the one function a JavaScript file is graded on.
        assert!(matches!(
            d.questions()[0],
            Question::Write {
                function: Function::Execute,
                ..
            }
        ));
        assert!(!file.exists(), "the round asks first");
    }
    let _ = drill.lock().unwrap().on_key(key(KeyCode::Enter));
    {
        assert!(file.exists(), "a JavaScript starter was written");
        let starter = std::fs::read_to_string(&file).unwrap();
        assert!(starter.contains("executeTool"), "{starter}");
        assert!(!dir.path().join("tooldojo-rehearsal-2.py").exists());
    }
    let graded = |runs: u32| {
        let d = drill.lock().unwrap();
        let g = d.write_round().unwrap().grader().unwrap();
        g.runs() >= runs && finished(g)
    };
    let wait = |runs: u32| {
        pump(
            &rx,
            |m| {
                drill.lock().unwrap().grader_msg(m);
            },
            || graded(runs),
        );
    };
    wait(1);
    assert!(drill.lock().unwrap().write_passed().is_empty());
    std::fs::write(&file, cjs(JS_BODY)).unwrap();
    wait(2);
    assert_eq!(
        drill.lock().unwrap().write_passed(),
        vec![Function::Execute]
    );
    // A planted bug: the id pattern without its anchors lets padded ids through.
    let planted = JS_BODY.replace("/^TKT-[0-9]{3}$/", "/TKT-\\d{3}/");
    assert_ne!(planted, JS_BODY, "the bug must apply");
    std::fs::write(&file, cjs(&planted)).unwrap();
    wait(3);
    let mut d = drill.into_inner().unwrap();
    assert!(d.write_passed().is_empty());
    let failing: Vec<String> = {
        let report = d
            .write_round()
            .unwrap()
            .grader()
            .unwrap()
            .report()
            .expect("graded");
        report
            .rows
            .iter()
            .filter(|r| !r.passed())
            .map(|r| r.id.clone())
            .collect()
    };
    assert!(
        failing.iter().any(|id| id.contains("unanchored")),
        "{failing:?}"
    );
    let _ = d.on_key(key(KeyCode::Enter));
    // Handed in: not passed, and each failing row says the trap it tests.
    let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 120, 40));
    let theme = tooldojo::tui::theme::Theme::new(tooldojo::tui::theme::ThemeName::Mono, false);
    d.render(buf.area, &mut buf, &theme, false);
    let shown = tooldojo::text::screen_text(&buf);
    assert!(shown.contains("rows pass: not passed."), "{shown}");
    assert!(shown.contains("(not anchored)"), "{shown}");
    let _ = d.on_key(key(KeyCode::Enter));
    let Given::Written {
        passed,
        total,
        failing,
        ..
    } = &d.answers()[0].given
    else {
        panic!("the round was handed in");
    };
    assert!(*total > 0 && passed < total);
    assert!(!d.answers()[0].right(), "a failing row: not passed");
    assert!(
        failing
            .iter()
            .any(|f| f.id.contains("unanchored") && f.trap == Some("not anchored")),
        "{failing:?}"
    );
    let md = transcript::markdown(&d);
    assert!(
        md.contains("(not anchored)`"),
        "the transcript lists the traps: {md}"
    );
    assert!(md.contains("(not passed)"), "{md}");
    assert!(md.contains("--lang js"), "{md}");
    assert!(md.contains("`executeTool` in JavaScript"), "{md}");
}

#[test]
fn the_transcript_never_overwrites_a_file_nor_writes_through_a_link() {
    use tooldojo::tui::rehearse::Saved;
    let dir = tempfile::tempdir().unwrap();
    let (notify, _rx) = channel_notify();
    let mut d = write_drill(dir.path(), Lang::Python, notify);
    let failed = |d: &Drill| match d.saved() {
        Some(Saved::Failed(e)) => e.clone(),
        other => panic!("written: {:?}", other.map(|_| "saved")),
    };
    // An existing file: refused with its name, left as it was.
    let kept = dir.path().join("kept.md");
    std::fs::write(&kept, "mine").unwrap();
    d.save_transcript(kept.clone());
    let e = failed(&d);
    assert!(e.contains("kept.md") && e.contains("already exists"), "{e}");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "mine");
    // A link, and a dangling link: never followed.
    let target = dir.path().join("target.txt");
    std::fs::write(&target, "precious").unwrap();
    let link = dir.path().join("link.md");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    d.save_transcript(link.clone());
    assert!(failed(&d).contains("symbolic link"));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    let nowhere = dir.path().join("nowhere.md");
    let dangling = dir.path().join("dangling.md");
    std::os::unix::fs::symlink(&nowhere, &dangling).unwrap();
    d.save_transcript(dangling);
    assert!(failed(&d).contains("symbolic link"));
    assert!(!nowhere.exists(), "the dangling link's target was created");
    // A new name is written whole, with no temporary file left beside it.
    let fresh = dir.path().join("fresh.md");
    d.save_transcript(fresh.clone());
    assert!(matches!(d.saved(), Some(Saved::To(_))));
    assert!(std::fs::read_to_string(&fresh).unwrap().contains('#'));
    let tmp: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(tmp.is_empty());
}

fn draw_text(d: &Drill, w: u16, h: u16) -> String {
    let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, w, h));
    let theme = tooldojo::tui::theme::Theme::new(tooldojo::tui::theme::ThemeName::Mono, false);
    d.render(buf.area, &mut buf, &theme, false);
    tooldojo::text::screen_text(&buf)
}

#[test]
fn the_write_it_round_asks_with_the_whole_path_and_a_skip_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (notify, _rx) = channel_notify();
    let mut d = write_drill(dir.path(), Lang::Python, notify);
    let file = dir.path().join("tooldojo-rehearsal-2.py");
    let round = d.write_round().unwrap();
    assert!(round.asking() && round.grader().is_none());
    assert!(!file.exists(), "nothing is written before Enter");
    let whole = std::path::absolute(&file).unwrap().display().to_string();
    assert!(
        round.note.contains(&format!("at {whole}?")),
        "{}",
        round.note
    );
    let shown = draw_text(&d, 120, 35);
    assert!(shown.contains(&whole), "{shown}");
    assert!(shown.contains("Enter write the starter"), "{shown}");
    // Under the question: what every save grades, and the starter as the file would hold it.
    let tall = draw_text(&d, 120, 60);
    assert!(tall.contains("rows for validate_tool_args."), "{tall}");
    assert!(
        tall.contains("The starter, tooldojo-rehearsal-2.py:"),
        "{tall}"
    );
    assert!(
        tall.contains("  def validate_tool_args(schema, required, args):"),
        "{tall}"
    );
    assert!(!tall.contains("def execute_tool"), "one function: {tall}");
    // Esc asks before leaving the drill; carrying on, the question is still there.
    let _ = d.on_key(key(KeyCode::Esc));
    assert!(d.confirming_quit());
    let _ = d.on_key(key(KeyCode::Char('x')));
    assert!(d.write_round().unwrap().asking() && !file.exists());
    // s skips the round: nothing written, the drill goes on (here to its scorecard).
    let _ = d.on_key(key(KeyCode::Char('s')));
    assert!(!d.running());
    assert_eq!(d.answers()[0].status(), "skipped");
    assert!(!file.exists(), "a skip writes nothing");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn enter_writes_the_drill_starter_and_grades_it() {
    let dir = tempfile::tempdir().unwrap();
    let (notify, _rx) = channel_notify();
    let mut d = write_drill(dir.path(), Lang::Python, notify);
    let file = dir.path().join("tooldojo-rehearsal-2.py");
    assert_eq!(d.on_key(key(KeyCode::Enter)), DrillUpdate::Redraw);
    assert!(
        d.running(),
        "Enter wrote the starter; it did not hand the round in"
    );
    assert!(d.answers().is_empty());
    let round = d.write_round().unwrap();
    assert!(!round.asking());
    assert_eq!(round.grader().unwrap().file(), file.as_path());
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        text,
        tooldojo::tui::rehearse::write::drill_starter(Lang::Python, Function::Validate)
    );
    assert!(round.note.starts_with("A starter is at "), "{}", round.note);
    assert!(draw_text(&d, 80, 24).contains("Enter hand in"));
}

#[test]
fn a_file_made_while_the_round_asks_is_kept_and_graded_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let (notify, _rx) = channel_notify();
    let mut d = write_drill(dir.path(), Lang::Python, notify);
    let file = dir.path().join("tooldojo-rehearsal-2.py");
    assert!(d.write_round().unwrap().asking());
    std::fs::write(&file, "mine\n").unwrap();
    let _ = d.on_key(key(KeyCode::Enter));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine\n");
    let round = d.write_round().unwrap();
    assert!(
        round
            .note
            .contains("is already there: it is graded as it is"),
        "{}",
        round.note
    );
    assert_eq!(round.grader().unwrap().file(), file.as_path());
    // A file there when the round opens is graded at once, without a question.
    let (notify, _rx) = channel_notify();
    let d = write_drill(dir.path(), Lang::Python, notify);
    let round = d.write_round().unwrap();
    assert!(!round.asking() && round.grader().is_some());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine\n");
}

#[test]
fn the_clock_runs_out_on_the_question_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (notify, _rx) = channel_notify();
    let mut d = write_drill_with(dir.path(), Lang::Python, notify, Some(5 * 60_000));
    assert!(d.write_round().unwrap().asking());
    assert_eq!(d.tick(), DrillUpdate::Finished);
    assert!(!d.running() && d.time_up());
    assert_eq!(d.answers()[0].status(), "time's up");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
