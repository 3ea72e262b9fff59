//! The trace player in a real terminal (tmux): `tooldojo play race-vs-cancel` opens straight in
//! the player, plays to the end, switches to cancel mode and re-runs, and shows the two runs
//! compared; while paused the process uses no CPU. Skipped, with a message, without tmux.

use std::time::Duration;

use crate::tui_tmux::{Tmux, have_tmux, launch};

/// The app started in `state` (its working directory and state directory) with `args`, in a
/// `w`x`h` window.
fn start(tag: &str, state: &std::path::Path, args: &str, w: u16, h: u16) -> Tmux {
    let cmd = format!(
        "cd '{}' && TOOLDOJO_STATE_DIR='{}' '{}' {args}; echo EXITED=$?; sleep 60",
        state.display(),
        state.display(),
        env!("CARGO_BIN_EXE_tooldojo")
    );
    launch(&format!("player-{tag}"), &cmd, w, h)
}

/// CPU time (user + system) the process has used, in clock ticks.
fn cpu_ticks(pid: &str) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc stat");
    let after = &stat[stat.rfind(')').expect("comm ends") + 2..];
    let f: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 of stat(5), counted after the command name.
    f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap()
}

#[test]
fn play_switch_to_cancel_rerun_and_compare() {
    if !have_tmux() {
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let tmux = start("cmp", state.path(), "play race-vs-cancel", 120, 36);
    tmux.wait_for("Trace · race-vs-cancel");
    tmux.wait_for("paused");
    tmux.keys(&["Space"]);
    let end = tmux.wait_for("end 1x · t = 1300 / 1300 ms");
    assert!(end.contains("STOPPED"), "{end}");
    assert!(
        end.contains("handler"),
        "the raced handler has its row:\n{end}"
    );
    tmux.keys(&["m"]);
    let cmp = tmux.wait_for("compared with the run before");
    assert!(
        cmp.contains("Re-ran the real orchestrator (cancel"),
        "{cmp}"
    );
    assert!(cmp.contains("before"), "{cmp}");
    assert!(cmp.contains("(was 1300 ms)"), "{cmp}");
    tmux.keys(&["x"]);
    tmux.wait_for("Chrome trace written to");
    assert!(
        std::fs::read_dir(state.path())
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".trace.json")),
        "the Chrome trace is in the working directory"
    );
    tmux.keys(&["q"]);
    let after = tmux.wait_for("EXITED=");
    assert!(after.contains("EXITED=0"), "{after}");
}

#[test]
fn a_paused_player_uses_no_cpu() {
    if !have_tmux() {
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let tmux = start("idle", state.path(), "play partial-success", 100, 30);
    tmux.wait_for("paused");
    let pid = tmux.app_pid();
    assert!(!pid.is_empty(), "found the app's pid");
    // Let start-up settle, then watch it sit paused.
    std::thread::sleep(Duration::from_millis(500));
    let before = cpu_ticks(&pid);
    std::thread::sleep(Duration::from_secs(3));
    let paused = cpu_ticks(&pid) - before;
    eprintln!("CPU while paused: {paused} ticks (1/100 s) in 3 s");
    assert!(paused <= 2, "{paused} ticks of CPU in 3 s while paused");
    tmux.keys(&["q"]);
    tmux.wait_for("EXITED=");
}
