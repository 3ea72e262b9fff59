//! `tooldojo practice FILE` passing every row ticks the checklist items that wait for the
//! grader, in the learner's progress file. Skipped, with a message, without python3.

use std::process::Command;

/// The reference solution, shared with the other practice and drill tests.
const SOLUTION: &str = include_str!("../data/practice/solution.py");

#[test]
fn a_full_pass_ticks_the_course_checklist_in_the_progress_file() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIPPED: python3 is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("solution.py");
    std::fs::write(&file, SOLUTION).unwrap();
    let state = dir.path().join("state");
    let out = Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .arg("practice")
        .arg(&file)
        .env("TOOLDOJO_STATE_DIR", &state)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("ticked on the course checklist"),
        "{stderr}"
    );
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
    let blocks = lesson["blocks"].as_object().unwrap();
    assert!(
        blocks
            .values()
            .any(|b| b["ticked"] == serde_json::json!([true, true])),
        "{blocks:?}"
    );
    // A failing file ticks nothing (and leaves the ticks already earned).
    let broken = dir.path().join("broken.py");
    std::fs::write(&broken, SOLUTION.replace("is not True", "is None")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .arg("practice")
        .arg(&broken)
        .env("TOOLDOJO_STATE_DIR", &state)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("ticked on the course checklist"));
}
