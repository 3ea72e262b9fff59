//! The real binary in a real terminal (tmux): help, paging, a resize to 12x4 and back,
//! quitting with q, and the alternate screen switched off again afterwards.
//! Skipped, with a message, when tmux is not installed.

use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn capture(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "dojo"])
    }

    /// Wait until the pane shows `needle` (or fail with what it shows).
    fn wait_for(&self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let text = self.capture();
            if text.contains(needle) {
                return text;
            }
            if start.elapsed() > Duration::from_secs(10) {
                panic!("timed out waiting for {needle:?}; the pane shows:\n{text}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn keys(&self, keys: &[&str]) {
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

fn have_tmux() -> bool {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed (the CI script installs it)");
        return false;
    }
    true
}

/// Start the app in an 80x24 tmux window with an isolated state directory.
fn start(tag: &str, state: &std::path::Path) -> Tmux {
    let bin = env!("CARGO_BIN_EXE_tooldojo");
    let tmux = Tmux {
        socket: format!("tooldojo-test-{tag}-{}", std::process::id()),
    };
    let cmd = format!(
        "TOOLDOJO_STATE_DIR='{}' '{}'; echo EXITED=$?; sleep 60",
        state.display(),
        bin
    );
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "dojo",
        "-x",
        "80",
        "-y",
        "24",
        "sh",
        "-c",
        &cmd,
    ]);
    tmux
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
