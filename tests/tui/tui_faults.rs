//! Faults in a real terminal (tmux): bytes that start an escape sequence and never finish it,
//! Ctrl-C, panics while drawing and in a background task, SIGHUP. Each time the app must end
//! and give the terminal back (alternate screen off). Skipped when tmux is not installed.

use std::process::Command;

use crate::tui_tmux::{Tmux, have_tmux, start_in};

fn started(tag: &str, env: &str) -> Option<(Tmux, tempfile::TempDir)> {
    if !have_tmux() {
        return None;
    }
    let state = tempfile::tempdir().unwrap();
    let tmux = start_in(tag, &state.path().display().to_string(), env, "");
    Some((tmux, state))
}

/// Wait for the app to end and check how, and that the terminal is back to normal.
fn ended_with(tmux: &Tmux, code: i32) -> String {
    let after = tmux.wait_for("EXITED=");
    assert!(after.contains(&format!("EXITED={code}")), "{after}");
    assert_eq!(
        tmux.alternate_on(),
        "0",
        "the alternate screen is off again"
    );
    after
}

/// The pane's text with its scrolled-off history (a panic report is long).
fn whole_history(tmux: &Tmux) -> String {
    tmux.run(&["capture-pane", "-p", "-J", "-S", "-", "-t", "dojo"])
}

/// `ESC [ ?` (Alt+[ then ?) starts a control sequence that never ends; q must still quit.
#[test]
fn q_quits_after_an_unfinished_escape_sequence() {
    let Some((tmux, _state)) = started("partial-q", "") else {
        return;
    };
    tmux.wait_for("? help");
    tmux.keys(&["-H", "1b", "5b", "3f"]);
    std::thread::sleep(std::time::Duration::from_millis(150));
    tmux.keys(&["q"]);
    ended_with(&tmux, 0);
}

/// Ctrl-C sent right after the unfinished sequence, in the same burst of bytes.
#[test]
fn ctrl_c_quits_inside_an_unfinished_escape_sequence() {
    let Some((tmux, _state)) = started("partial-c", "") else {
        return;
    };
    tmux.wait_for("? help");
    tmux.keys(&["-H", "1b", "5b", "3f", "03"]);
    ended_with(&tmux, 0);
}

/// Esc still reaches the app after the unfinished sequence: it closes the help overlay.
#[test]
fn esc_closes_help_after_an_unfinished_escape_sequence() {
    let Some((tmux, _state)) = started("partial-esc", "") else {
        return;
    };
    tmux.wait_for("? help");
    tmux.keys(&["?"]);
    tmux.wait_for("Esc or ? closes");
    tmux.keys(&["-H", "1b", "5b", "3f"]);
    std::thread::sleep(std::time::Duration::from_millis(150));
    tmux.keys(&["Escape"]);
    let start = std::time::Instant::now();
    while tmux.capture().contains("Esc or ? closes") {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "help did not close"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    tmux.keys(&["C-c"]);
    ended_with(&tmux, 0);
}

#[test]
fn a_panic_while_drawing_gives_the_terminal_back() {
    let Some((tmux, _state)) = started("panic-draw", "TOOLDOJO_TEST_PANIC=draw") else {
        return;
    };
    ended_with(&tmux, 101);
    let all = whole_history(&tmux);
    assert!(all.contains("a panic while drawing"), "{all}");
}

#[test]
fn a_panic_in_a_background_task_gives_the_terminal_back() {
    let Some((tmux, _state)) = started("panic-task", "TOOLDOJO_TEST_PANIC=task") else {
        return;
    };
    ended_with(&tmux, 101);
    let all = whole_history(&tmux);
    assert!(all.contains("a panic in a background task"), "{all}");
}

#[test]
fn sighup_gives_the_terminal_back_and_saves() {
    let Some((tmux, state)) = started("hup", "") else {
        return;
    };
    tmux.wait_for("? help");
    let pid = tmux.app_pid();
    assert!(!pid.is_empty(), "found the app's pid");
    Command::new("kill").args(["-HUP", &pid]).status().unwrap();
    ended_with(&tmux, 0);
    assert!(state.path().join("progress.json").exists());
}

/// A state directory no one can write in (not even root): the learner is told that progress
/// will not be saved, and the app runs and quits normally.
#[test]
fn a_read_only_state_directory_is_reported_and_the_app_runs() {
    if !have_tmux() {
        return;
    }
    let tmux = start_in("readonly", "/proc/self", "", "");
    let shown = tmux.wait_for("Notice");
    assert!(shown.contains("Cannot write in /proc/self"), "{shown}");
    tmux.keys(&["Enter"]);
    tmux.wait_for("? help");
    tmux.keys(&["n"]);
    tmux.keys(&["q"]);
    ended_with(&tmux, 0);
}

/// SIGKILL (no chance to clean up) while keys make the app save: the progress file left
/// behind is always a whole one.
#[test]
fn a_kill_while_saving_leaves_a_whole_progress_file() {
    let Some((tmux, state)) = started("kill", "") else {
        return;
    };
    tmux.wait_for("? help");
    tmux.keys(&["n", "n", "p", "n", "n", "n", "p", "n"]);
    let pid = tmux.app_pid();
    assert!(!pid.is_empty(), "found the app's pid");
    Command::new("kill").args(["-KILL", &pid]).status().unwrap();
    // Gone once signal 0 can no longer reach it.
    let start = std::time::Instant::now();
    while Command::new("kill")
        .args(["-0", &pid])
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
        .success()
    {
        assert!(start.elapsed().as_secs() < 10, "the app outlived SIGKILL");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let file = state.path().join("progress.json");
    if file.exists() {
        let opened =
            tooldojo::course::progress::Store::open(Some(state.path().to_path_buf()), false);
        assert!(opened.notice.is_none(), "{:?}", opened.notice);
    }
}
