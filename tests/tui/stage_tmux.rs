//! Stage paths that need the real binary in a real terminal (tmux): `P` grading a correct
//! solution ticks every checklist item it earns on its first run. Skipped without tmux or
//! python3.

use crate::tui_tmux::{have_tmux, launch};

/// The reference solution, shared with the other practice and drill tests.
const SOLUTION: &str = include_str!("../data/practice/solution.py");

#[test]
fn p_ticks_every_item_a_pass_earns_on_the_first_run() {
    if !have_tmux()
        || std::process::Command::new("python3")
            .arg("-V")
            .output()
            .is_err()
    {
        eprintln!("SKIPPED: tmux or python3 is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("solution.py"), SOLUTION).unwrap();
    let state = dir.path().join("state");
    let cmd = format!(
        "cd '{}' && TOOLDOJO_STATE_DIR='{}' '{}' --lesson 17-checklist-and-interview; echo EXITED=$?; sleep 60",
        dir.path().display(),
        state.display(),
        env!("CARGO_BIN_EXE_tooldojo")
    );
    let tmux = launch("ptick", &cmd, 100, 30);
    tmux.wait_for("? help");
    tmux.keys(&["P"]);
    let shown = tmux.wait_for(" failed (run 1)");
    assert!(shown.contains(", 0 failed (run 1)"), "{shown}");
    // q quits the app from the practice screen too (Esc would go back to the lesson).
    tmux.keys(&["q"]);
    tmux.wait_for("EXITED=0");
    let progress: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(state.join("progress.json")).unwrap())
            .unwrap();
    let lesson = progress["lessons"]
        .as_object()
        .unwrap()
        .iter()
        .find(|(id, _)| id.starts_with("17-"))
        .map(|(_, l)| l)
        .expect("lesson 17 recorded");
    assert!(
        lesson["blocks"]
            .as_object()
            .unwrap()
            .values()
            .any(|b| b["ticked"] == serde_json::json!([true, true])),
        "both items ticked by the first run: {lesson}"
    );
}
