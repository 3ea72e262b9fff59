//! The real binary in a real terminal (tmux): help, paging, a resize to 12x4 and back,
//! quitting with q, and the alternate screen switched off again afterwards.
//! Skipped, with a message, when tmux is not installed.

use std::process::Command;
use std::time::{Duration, Instant};

pub(crate) struct Tmux {
    socket: String,
}

impl Tmux {
    pub(crate) fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub(crate) fn capture(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "dojo"])
    }

    /// Whether the pane is on the alternate screen ("1") or not ("0").
    pub(crate) fn alternate_on(&self) -> String {
        self.run(&["display", "-p", "-t", "dojo", "#{alternate_on}"])
            .trim()
            .to_owned()
    }

    /// The app's process id (the child of the pane's shell).
    pub(crate) fn app_pid(&self) -> String {
        let shell = self.run(&["display", "-p", "-t", "dojo", "#{pane_pid}"]);
        let child = Command::new("pgrep")
            .args(["-P", shell.trim()])
            .output()
            .expect("pgrep runs");
        String::from_utf8_lossy(&child.stdout).trim().to_owned()
    }

    /// Wait until the pane shows `needle` (or fail with what it shows).
    /// The screen once it shows `needle` and has settled: a capture can fall between two
    /// of the app's writes of one frame (the top new, the bottom old), so the screen is
    /// taken again until two captures agree, or for at most a second while it animates.
    pub(crate) fn wait_for(&self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let text = self.capture();
            if text.contains(needle) {
                return self.settled(text, needle);
            }
            if start.elapsed() > Duration::from_secs(15) {
                panic!("timed out waiting for {needle:?}; the pane shows:\n{text}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn settled(&self, mut text: String, needle: &str) -> String {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(1) {
            std::thread::sleep(Duration::from_millis(20));
            let again = self.capture();
            if again == text || !again.contains(needle) {
                break;
            }
            text = again;
        }
        text
    }

    pub(crate) fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "dojo"];
        args.extend_from_slice(keys);
        self.run(&args);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        // Only the server on our own socket.
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

pub(crate) fn have_tmux() -> bool {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed (the CI script installs it)");
        return false;
    }
    true
}

/// Start the app in an 80x24 tmux window with an isolated state directory.
fn start(tag: &str, state: &std::path::Path) -> Tmux {
    start_with(tag, state, "")
}

/// Start the app with extra arguments (already quoted for `sh`) in an 80x24 window.
fn start_with(tag: &str, state: &std::path::Path, args: &str) -> Tmux {
    start_in(tag, &state.display().to_string(), "", args)
}

/// The general start: the state directory as text, `NAME=value` settings put before the
/// command, and extra arguments (already quoted for `sh`) after it.
pub(crate) fn start_in(tag: &str, state: &str, env: &str, args: &str) -> Tmux {
    let bin = env!("CARGO_BIN_EXE_tooldojo");
    let cmd = format!(
        "{env} TOOLDOJO_STATE_DIR='{}' '{}' {args}; echo EXITED=$?; sleep 60",
        state, bin
    );
    launch(tag, &cmd, 80, 24)
}

/// Run the shell command `cmd` in a `w`x`h` tmux window of its own server (socket named
/// after `tag` and this process), in a session called `dojo`.
pub(crate) fn launch(tag: &str, cmd: &str, w: u16, h: u16) -> Tmux {
    let tmux = Tmux {
        socket: format!("tooldojo-test-{tag}-{}", std::process::id()),
    };
    let (w, h) = (w.to_string(), h.to_string());
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "dojo",
        "-x",
        &w,
        "-y",
        &h,
        "sh",
        "-c",
        cmd,
    ]);
    tmux
}

/// `--lessons` pointing at the small lesson set kept for tests.
fn test_lessons() -> String {
    format!(
        "--lessons '{}/tests/data/lessons'",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn sigterm_restores_the_terminal() {
    if !have_tmux() {
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let tmux = start("term", state.path());
    tmux.wait_for("? help");
    let shell = tmux.run(&["display", "-p", "-t", "dojo", "#{pane_pid}"]);
    let child = Command::new("pgrep")
        .args(["-P", shell.trim()])
        .output()
        .expect("pgrep runs");
    let pid = String::from_utf8_lossy(&child.stdout).trim().to_owned();
    assert!(!pid.is_empty(), "found the app's pid");
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let after = tmux.wait_for("EXITED=");
    assert!(after.contains("EXITED=0"), "{after}");
    assert_eq!(
        tmux.run(&["display", "-p", "-t", "dojo", "#{alternate_on}"])
            .trim(),
        "0"
    );
}

#[test]
fn a_damaged_progress_file_is_set_aside_and_reported() {
    if !have_tmux() {
        return;
    }
    let state = tempfile::tempdir().unwrap();
    std::fs::write(state.path().join("progress.json"), "{\"lessons\": [1,").unwrap();
    let tmux = start("damaged", state.path());
    let shown = tmux.wait_for("Notice");
    assert!(shown.contains("moved to"), "{shown}");
    tmux.keys(&["Enter"]);
    tmux.keys(&["q"]);
    tmux.wait_for("EXITED=0");
    let names: Vec<String> = std::fs::read_dir(state.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .any(|n| n.starts_with("progress.json.damaged-")),
        "{names:?}"
    );
    assert!(names.iter().any(|n| n == "progress.json"), "{names:?}");
}

#[test]
fn help_page_resize_and_quit_in_a_real_terminal() {
    if !have_tmux() {
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let tmux = start("main", state.path());
    tmux.wait_for("? help");
    assert_eq!(
        tmux.run(&["display", "-p", "-t", "dojo", "#{alternate_on}"])
            .trim(),
        "1"
    );

    tmux.keys(&["?"]);
    tmux.wait_for("Esc or ? closes");
    tmux.keys(&["Escape"]);
    let start = Instant::now();
    while tmux.capture().contains("Esc or ? closes") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "help did not close"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    tmux.keys(&["n"]);
    tmux.keys(&["p"]);

    tmux.run(&["resize-window", "-t", "dojo", "-x", "12", "-y", "4"]);
    tmux.wait_for("Need 40x12");
    tmux.run(&["resize-window", "-t", "dojo", "-x", "80", "-y", "24"]);
    tmux.wait_for("? help");

    tmux.keys(&["q"]);
    let after = tmux.wait_for("EXITED=");
    assert!(after.contains("EXITED=0"), "{after}");
    assert_eq!(
        tmux.run(&["display", "-p", "-t", "dojo", "#{alternate_on}"])
            .trim(),
        "0",
        "the alternate screen is off again"
    );
    assert!(
        state.path().join("progress.json").exists(),
        "progress was written to the isolated state dir"
    );
}

#[test]
fn a_learner_finishes_a_lesson_and_sees_it_done() {
    if !have_tmux() {
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let tmux = start_with("finish", state.path(), &test_lessons());
    let home = tmux.wait_for("Start      01 Reading a proposal");
    assert!(home.contains("2 lessons"), "{home}");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Text and a table");
    tmux.keys(&["Tab"]);
    tmux.wait_for("to do: predict rows 1-3");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Up/Down row");
    for n in 1..=3 {
        // Pick the first outcome, lock it, reveal it, then the next row.
        tmux.keys(&["1"]);
        tmux.keys(&["Enter"]);
        tmux.keys(&["Enter"]);
        tmux.wait_for(&format!("{n} of 3 revealed"));
        tmux.keys(&["Down"]);
    }
    tmux.wait_for("✓ done");
    tmux.keys(&["Escape"]);
    tmux.wait_for("Tab next block");
    tmux.keys(&["n"]);
    tmux.wait_for("A quiz");
    tmux.keys(&["Tab"]);
    tmux.wait_for("to do: the quiz");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Enter/1-4 pick");
    tmux.keys(&["2"]);
    tmux.wait_for("Correct");
    tmux.keys(&["Escape"]);
    tmux.wait_for("Tab next block");
    // Two Esc bytes read together parse as Alt-Esc: give each its own read.
    std::thread::sleep(Duration::from_millis(200));
    tmux.keys(&["Escape"]);
    tmux.wait_for("Tab next block");
    std::thread::sleep(Duration::from_millis(200));
    tmux.keys(&["Escape"]);
    let home = tmux.wait_for("01 Reading a proposal");
    let row = home
        .lines()
        .find(|l| l.contains("01 Reading a proposal"))
        .unwrap_or_else(|| panic!("{home}"));
    assert!(row.contains("done"), "{row}");
    assert!(home.contains("1 done"), "{home}");
    tmux.keys(&["q"]);
    tmux.wait_for("EXITED=0");
    let saved = std::fs::read_to_string(state.path().join("progress.json")).unwrap();
    let saved: serde_json::Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(saved["lessons"]["01-reading"]["done"], true, "{saved}");
}

#[test]
fn presenter_mode_steps_a_table_and_leaves_progress_alone() {
    if !have_tmux() {
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let file = state.path().join("progress.json");
    let before = br#"{"version": 1, "current": {"lesson": "02-trying", "page": 1},
 "lessons": {"01-reading": {"done": false, "pages_seen": [0], "last_page": 0}}}
"#;
    std::fs::write(&file, before).unwrap();
    let args = format!("--present --lesson 01-reading {}", test_lessons());
    let tmux = start_with("present", state.path(), &args);
    // Two paragraphs, the table, and each of its three rows: six steps.
    tmux.wait_for("step 1/6");
    tmux.keys(&["Space"]);
    tmux.wait_for("step 2/6");
    tmux.keys(&["Space"]);
    tmux.wait_for("step 3/6");
    tmux.wait_for("Predict: get_ticket");
    for (n, real) in [(1, "ok"), (2, "ok"), (3, "not_found")] {
        tmux.keys(&["Space"]);
        tmux.wait_for(&format!("step {}/6", 3 + n));
        tmux.wait_for(&format!("Row {n}:"));
        let shown = tmux.wait_for(&format!("{real:<9}"));
        let shown = if shown.contains("shown    the real") {
            shown
        } else {
            tmux.wait_for("shown    the real")
        };
        assert!(
            shown.contains(&format!("shown    the real executor returned {real}")),
            "row {n} shown without a prediction:\n{shown}"
        );
        assert!(
            shown.contains(&format!("{n} of 3 rows shown")) && !shown.contains("score"),
            "nothing scored:\n{shown}"
        );
    }
    tmux.keys(&["x"]);
    tmux.wait_for("Block reset.");
    tmux.keys(&["q"]);
    tmux.wait_for("EXITED=0");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "the learner's progress file is byte for byte unchanged"
    );
    let names: Vec<String> = std::fs::read_dir(state.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        vec!["progress.json".to_owned()],
        "nothing else written"
    );
}
