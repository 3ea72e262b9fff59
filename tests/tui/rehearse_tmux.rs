//! A short rehearsal drill in a real terminal: every question answered quickly, through the
//! quit question once, to the scorecard; the transcript is on disk, the review cards and the
//! trend are in the progress file.

use std::time::{Duration, Instant};

use crate::tui_tmux::{Tmux, have_tmux, start_in};

/// The kind of question the pane shows (`predict`, `explain`, `write it`), or `None` on the
/// scorecard.
fn showing(tmux: &Tmux, n: usize) -> Option<String> {
    let start = Instant::now();
    loop {
        let text = tmux.capture();
        if text.contains("Rehearsal scorecard") {
            return None;
        }
        let head = format!("Q{n} of ");
        if let Some(line) = text.lines().find(|l| l.contains(&head)) {
            for kind in ["predict", "explain", "write it"] {
                if line.contains(kind) {
                    return Some(kind.to_owned());
                }
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "waiting for question {n}; the pane shows:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_two_minute_drill_runs_to_its_scorecard_and_saves_the_transcript() {
    if !have_tmux() {
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let transcript = cwd.path().join("drill.md");
    let args = format!(
        "rehearse --seed 3 --minutes 2 --transcript '{}'",
        transcript.display()
    );
    // The drill writes its write-it file in the current directory: a fresh one.
    let cd = format!("cd '{}' &&", cwd.path().display());
    let tmux = start_in("rehearse", &state.path().display().to_string(), &cd, &args);
    tmux.wait_for("Q1 of ");
    // q asks first; any other key carries on.
    tmux.keys(&["q"]);
    tmux.wait_for("Quit the drill?");
    tmux.keys(&["x"]);
    let mut n = 1;
    while let Some(kind) = showing(&tmux, n) {
        match kind.as_str() {
            "predict" => {
                // Alone, each answer shows its real outcome before the next question.
                tmux.keys(&["1", "Enter"]);
                let shown = tmux.wait_for("Enter: the next question.");
                assert!(shown.contains("Tests: "), "{shown}");
                tmux.keys(&["Enter"]);
            }
            "explain" => {
                // The editor has the keys: q types, Esc leaves it.
                tmux.keys(&["-l", "quick answer"]);
                tmux.keys(&["Escape"]);
                tmux.wait_for("Enter compare");
                tmux.keys(&["Enter"]);
                tmux.wait_for("Model answer");
                tmux.keys(&["Space", "Enter"]);
            }
            _ => {
                // The round asks before it writes a starter beside the learner; Enter
                // writes it and grades it at once.
                tmux.wait_for("Write it: execute_tool");
                tmux.wait_for("Enter writes it");
                assert!(!cwd.path().join("tooldojo-rehearsal-3.py").exists());
                tmux.keys(&["Enter"]);
                tmux.wait_for("A starter is at");
                assert!(cwd.path().join("tooldojo-rehearsal-3.py").exists());
                let python = std::process::Command::new("python3")
                    .arg("--version")
                    .output()
                    .is_ok_and(|o| o.status.success());
                tmux.wait_for(if python {
                    " failed (run 1)"
                } else {
                    "Cannot grade it"
                });
                tmux.keys(&["Enter"]);
                let shown = tmux.wait_for("Handed in: ");
                assert!(
                    shown.contains("not passed"),
                    "the starter passes nothing:\n{shown}"
                );
                tmux.keys(&["Enter"]);
            }
        }
        n += 1;
    }
    let card = tmux.wait_for("Transcript saved to");
    assert!(
        card.contains(" right, ") && card.contains("% of points"),
        "{card}"
    );
    let text = std::fs::read_to_string(&transcript).expect("the transcript is on disk");
    assert!(text.starts_with("# tooldojo rehearsal, seed 3"), "{text}");
    assert!(text.contains("quick answer"), "{text}");
    assert!(
        text.contains("of 100 (not passed)"),
        "the starter's round: {text}"
    );
    assert_eq!(text.matches("- Time: ").count(), n - 1);
    assert!(
        text.contains("Grader: "),
        "the grader's report is in the transcript"
    );
    tmux.keys(&["q"]);
    let after = tmux.wait_for("EXITED=");
    assert!(after.contains("EXITED=0"), "{after}");
    let progress = std::fs::read_to_string(state.path().join("progress.json")).unwrap();
    assert!(progress.contains("\"drills\""), "{progress}");
}
