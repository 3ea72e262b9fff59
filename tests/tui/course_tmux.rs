//! The lessons on real tools, finished end to end in a real terminal (tmux, 80x24) through a
//! learner's keys alone: every page turned with `n`, every block reached with `Tab`, entered
//! with `Enter`, used the way its done rule asks (each predict row picked, locked and
//! revealed; the quiz answered until right; the explain answer written and compared; the
//! playground's arguments edited and a rule switched; a trace played to its end; every
//! checklist item ticked) and left with `Esc`. The home screen then marks the lesson done, and so does the progress file.
//! Skipped without tmux.

use std::time::{Duration, Instant};

use regex::Regex;
use tooldojo::content::Content;
use tooldojo::content::lessons::{BlockKind, BlockSpec, Item};

use crate::tui_tmux::{Tmux, have_tmux, launch};

/// Wait until `done` holds for the pane (or fail showing it).
fn wait_until(tmux: &Tmux, what: &str, done: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let text = tmux.capture();
        if done(&text) {
            return text;
        }
        if start.elapsed() > Duration::from_secs(15) {
            panic!("timed out waiting for {what}; the pane shows:\n{text}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Leave an entered block: its `Esc` way out leaves the key bar.
fn leave(tmux: &Tmux) {
    tmux.keys(&["Escape"]);
    wait_until(tmux, "the block left", |t| !t.contains("Esc back to page"));
}

fn predict(tmux: &Tmux) {
    tmux.keys(&["Enter"]);
    let shown = tmux.wait_for("Up/Down row");
    let rows: usize = Regex::new(r"(\d+) of (\d+) revealed")
        .unwrap()
        .captures(&shown)
        .unwrap_or_else(|| panic!("a predict table counts its rows:\n{shown}"))[2]
        .parse()
        .unwrap();
    let revealed = |t: &str| t.contains("✓ Right") || t.contains("✗ Missed");
    for n in 1..=rows {
        // Pick the first outcome, lock it, reveal it, then the next row. The table's
        // count may be scrolled away at 80x24; the row's own verdict is in view.
        wait_until(tmux, &format!("row {n} asked"), |t| !revealed(t));
        tmux.keys(&["1"]);
        tmux.keys(&["Enter"]);
        tmux.keys(&["Enter"]);
        wait_until(tmux, &format!("row {n} revealed"), revealed);
        if n < rows {
            tmux.keys(&["Down"]);
        }
    }
    leave(tmux);
}

fn quiz(tmux: &Tmux) {
    tmux.keys(&["Enter"]);
    // The digits go as far as the quiz has choices: `Enter/1-4 pick`.
    tmux.wait_for("Enter/1-");
    for d in 1..=9 {
        tmux.keys(&[&d.to_string()]);
        std::thread::sleep(Duration::from_millis(250));
        if wait_until(tmux, "the pick's answer", |t| {
            t.contains("Correct") || t.contains("r retry")
        })
        .contains("✓ Correct")
        {
            break;
        }
        // A wrong pick explains itself; try again.
        tmux.keys(&["r"]);
    }
    tmux.wait_for("✓ Correct");
    leave(tmux);
}

fn explain(tmux: &Tmux) {
    tmux.keys(&["Enter"]);
    tmux.wait_for("e edit answer");
    tmux.keys(&["e"]);
    tmux.wait_for("stop editing");
    tmux.keys(&["-l", "The id of the call pairs them."]);
    tmux.keys(&["Escape"]);
    wait_until(tmux, "editing stopped", |t| !t.contains("stop editing"));
    tmux.keys(&["c"]);
    tmux.wait_for("Model answer");
    leave(tmux);
}

fn playground(tmux: &Tmux) {
    tmux.keys(&["Enter"]);
    tmux.wait_for("Enter/e edit arguments");
    tmux.keys(&["Enter"]);
    tmux.wait_for("stop editing");
    tmux.keys(&["Space"]);
    tmux.keys(&["Escape"]);
    wait_until(tmux, "editing stopped", |t| !t.contains("stop editing"));
    tmux.keys(&["Tab"]);
    tmux.wait_for("switch off/on");
    tmux.keys(&["Space"]);
    std::thread::sleep(Duration::from_millis(200));
    leave(tmux);
}

fn trace(tmux: &Tmux) {
    tmux.keys(&["Enter"]);
    std::thread::sleep(Duration::from_millis(200));
    tmux.keys(&["End"]);
    std::thread::sleep(Duration::from_millis(300));
    leave(tmux);
}

fn checklist(tmux: &Tmux, items: usize) {
    tmux.keys(&["Enter"]);
    tmux.wait_for("Space/Enter/x tick");
    for d in 1..=items {
        tmux.keys(&[&d.to_string()]);
    }
    tmux.wait_for(&format!("{items} of {items} ticked"));
    leave(tmux);
}

/// Open lesson `id` and finish every page and block of it with the keys a learner has.
fn finish_in_a_terminal(id: &str) {
    if !have_tmux() {
        return;
    }
    let lessons = tooldojo::course::load_lessons(&Content::embedded()).unwrap();
    let entry = lessons
        .iter()
        .find(|l| l.id == id)
        .expect("a shipped lesson");
    let lesson = entry.parsed.as_ref().expect("it parses");
    let state = tempfile::tempdir().unwrap();
    let cmd = format!(
        "TOOLDOJO_STATE_DIR='{}' '{}' --lesson {id}; echo EXITED=$?; sleep 60",
        state.path().display(),
        env!("CARGO_BIN_EXE_tooldojo")
    );
    let tmux = launch(&format!("course-{}", &id[..2]), &cmd, 80, 24);
    tmux.wait_for("? help");
    let pages = lesson.pages.len();
    for (i, page) in lesson.pages.iter().enumerate() {
        tmux.wait_for(&format!("page {}/{pages}", i + 1));
        for item in &page.items {
            let Item::Block(block) = item else { continue };
            // Tab takes the next block in view or below it.
            tmux.keys(&["Tab"]);
            std::thread::sleep(Duration::from_millis(150));
            match block.kind {
                BlockKind::Predict => predict(&tmux),
                BlockKind::Quiz => quiz(&tmux),
                BlockKind::Explain => explain(&tmux),
                BlockKind::Playground => playground(&tmux),
                BlockKind::Trace => trace(&tmux),
                BlockKind::Checklist => match &block.spec {
                    BlockSpec::Checklist(c) => checklist(&tmux, c.items.len()),
                    other => panic!("{id}: a checklist without items: {other:?}"),
                },
            }
        }
        if i + 1 < pages {
            tmux.keys(&["n"]);
        }
    }
    // Back home: the lesson is done there and in the saved progress.
    tmux.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(200));
    tmux.keys(&["Escape"]);
    // A new learner who finished this one lesson.
    let home = tmux.wait_for("Course");
    assert!(home.contains("• 1 done •"), "{home}");
    tmux.keys(&["q"]);
    tmux.wait_for("EXITED=0");
    let saved = std::fs::read_to_string(state.path().join("progress.json")).unwrap();
    let saved: serde_json::Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(saved["lessons"][id]["done"], true, "{saved}");
}

#[test]
fn real_declarations_can_be_finished_in_a_terminal() {
    finish_in_a_terminal("14-real-declarations");
}

#[test]
fn the_wire_can_be_finished_in_a_terminal() {
    finish_in_a_terminal("15-the-wire");
}

#[test]
fn your_tools_and_logs_can_be_finished_in_a_terminal() {
    finish_in_a_terminal("16-your-tools-and-logs");
}
