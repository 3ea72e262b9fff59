//! Stage paths that need the real binary in a real terminal (tmux): `P` grading a correct
//! solution ticks every checklist item it earns on its first run, and a failing row names
//! its lesson by the title the `--lessons` directory gives it. Skipped without tmux or
//! python3.

use crate::tui_tmux::{have_tmux, launch};

/// The reference solution, shared with the other practice and drill tests.
const SOLUTION: &str = include_str!("../data/practice/solution.py");

fn have_tmux_and_python() -> bool {
    if !have_tmux()
        || std::process::Command::new("python3")
            .arg("-V")
            .output()
            .is_err()
    {
        eprintln!("SKIPPED: tmux or python3 is not installed");
        return false;
    }
    true
}

#[test]
fn p_ticks_every_item_a_pass_earns_on_the_first_run() {
    if !have_tmux_and_python() {
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

#[test]
fn p_names_a_failing_rows_lesson_by_its_title_in_the_lessons_dir() {
    if !have_tmux_and_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Every lesson a grading row can send the learner back to, under a title of its own
    // (the shipped lessons with these ids are called something else).
    let lessons = dir.path().join("course");
    std::fs::create_dir(&lessons).unwrap();
    for id in [
        "02-validate-tool-args",
        "03-json-traps",
        "04-value-constraints",
        "05-executor-boundary",
        "06-get-ticket-contract",
        "07-tenant-scope-and-copies",
    ] {
        let number = &id[..2];
        let text = format!("# Our lesson {number}\n\n*About 5 minutes*\n\n## One page\n\nText.\n");
        std::fs::write(lessons.join(format!("{id}.md")), text).unwrap();
    }
    // Accepts every call and runs none: the first row that must be refused fails.
    std::fs::write(
        dir.path().join("solution.py"),
        "def validate_tool_args(schema, required, args):\n    return (True, \"\")\n\n\n\
         def execute_tool(name, args, context, records):\n    return {\"ok\": False, \"code\": \"forbidden\"}\n",
    )
    .unwrap();
    let cmd = format!(
        "cd '{}' && TOOLDOJO_STATE_DIR='{}' '{}' --lessons '{}'; echo EXITED=$?; sleep 60",
        dir.path().display(),
        dir.path().join("state").display(),
        env!("CARGO_BIN_EXE_tooldojo"),
        lessons.display()
    );
    let tmux = launch("ptitle", &cmd, 120, 40);
    tmux.wait_for("? help");
    tmux.keys(&["P"]);
    let shown = tmux.wait_for("lesson: ");
    let lesson = shown
        .lines()
        .find_map(|l| l.find("lesson: ").map(|at| l[at..].trim_end()))
        .unwrap_or_default();
    assert!(lesson.starts_with("lesson: Our lesson 0"), "{shown}");
    tmux.keys(&["q"]);
    tmux.wait_for("EXITED=0");
}
