//! A paste in a real terminal (tmux): one megabyte into the validator playground's
//! arguments goes in as one edit, is cut to what an editor holds (and says so), and the
//! app still leaves the editor and quits at once. Skipped when tmux is not installed.

use std::time::{Duration, Instant};

use crate::tui_tmux::{Tmux, have_tmux, start_in};

/// CPU time (user + system) the process has used so far, from `/proc`.
fn cpu_time(pid: &str) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // Linux counts in 100ths of a second for user space (USER_HZ).
    Some(Duration::from_millis(ticks * 10))
}

/// Open the test lessons' validator playground and start typing into its arguments.
fn open_the_arguments(tag: &str, state: &std::path::Path) -> Tmux {
    let args = format!(
        "--lesson 02-trying --lessons '{}/tests/data/lessons'",
        env!("CARGO_MANIFEST_DIR")
    );
    let tmux = start_in(tag, &state.display().to_string(), "", &args);
    tmux.wait_for("Playground: validator");
    tmux.keys(&["Tab"]);
    tmux.wait_for("Enter open the playground");
    tmux.keys(&["Enter"]);
    tmux.wait_for("c clear");
    tmux.keys(&["c"]);
    tmux.wait_for("(empty)");
    tmux.keys(&["Enter"]);
    tmux.wait_for("Esc stop editing");
    tmux
}

fn one_megabyte(dir: &std::path::Path) -> std::path::PathBuf {
    let text = format!(
        "{{\"city\": \"Paris\", \"days\": 3, \"note\": \"{}\"}}",
        "x".repeat(1 << 20)
    );
    let path = dir.join("paste.txt");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_megabyte_paste_is_cut_said_and_the_app_quits_at_once() {
    if !have_tmux() {
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let tmux = open_the_arguments("paste", state.path());
    let pid = tmux.app_pid();
    let cpu_before = cpu_time(&pid);
    let paste = one_megabyte(state.path());
    tmux.run(&["load-buffer", &paste.display().to_string()]);
    let start = Instant::now();
    // -p: as a terminal pastes, wrapped in the bracketed-paste markers the app asked for.
    tmux.run(&["paste-buffer", "-p", "-t", "dojo"]);
    let shown = tmux.wait_for("Paste cut: an editor holds 16 KiB.");
    let pasted = start.elapsed();
    assert!(
        shown.contains("Paste cut: an editor holds 16 KiB."),
        "the status line says so:\n{shown}"
    );
    // The start went in and was validated: the string the cut left open.
    assert!(
        shown.contains("unterminated string at"),
        "the cut text is validated:\n{shown}"
    );
    // The work the paste cost the app itself, whatever else the machine is doing.
    let cpu = cpu_time(&pid)
        .zip(cpu_before)
        .map(|(after, before)| after - before);
    if let Some(cpu) = cpu {
        assert!(
            cpu < Duration::from_secs(1),
            "the paste took {cpu:?} of CPU"
        );
    }
    // Esc leaves the editor, Esc the block, q quits: each is a key of its own.
    tmux.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(60));
    tmux.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(60));
    tmux.keys(&["q"]);
    let after = tmux.wait_for("EXITED=");
    let quit = start.elapsed();
    assert!(after.contains("EXITED=0"), "{after}");
    eprintln!("1 MB paste: shown after {pasted:?}, quit after {quit:?}, CPU {cpu:?}");
    // A second on a quiet machine (about half of it, debug build); the bound leaves room
    // for a machine busy with other builds (the freeze it guards against took minutes).
    assert!(
        quit < Duration::from_secs(4),
        "paste to exit took {quit:?} (shown after {pasted:?}, CPU {cpu:?})"
    );
}

#[test]
fn typed_text_without_bracketed_paste_is_one_edit_and_esc_still_works() {
    if !have_tmux() {
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let tmux = open_the_arguments("typed", state.path());
    let paste = one_megabyte(state.path());
    tmux.run(&["load-buffer", &paste.display().to_string()]);
    let start = Instant::now();
    // Without -p the text arrives as if typed, a key at a time.
    tmux.run(&["paste-buffer", "-t", "dojo"]);
    tmux.wait_for("cut: holds 16 KiB");
    tmux.keys(&["Escape"]);
    tmux.wait_for("Enter/e edit arguments");
    let left = start.elapsed();
    tmux.keys(&["C-c"]);
    let after = tmux.wait_for("EXITED=");
    assert!(after.contains("EXITED=0"), "{after}");
    assert!(
        left < Duration::from_secs(4),
        "typing a megabyte, then Esc, took {left:?}"
    );
}

/// The test lessons' app, opened on the playgrounds page.
fn playground_app() -> tooldojo::tui::app::App {
    use tooldojo::content::Content;
    use tooldojo::course::progress::Progress;
    use tooldojo::tui::app::{App, Options};
    use tooldojo::tui::theme::{Theme, ThemeName};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lessons");
    let content = Content::new(Some(&dir), None);
    let lessons = tooldojo::course::load_lessons(&content);
    let records = tooldojo::executor::cases::tickets(&Content::embedded()).unwrap();
    let mut opts = Options::new(Theme::new(ThemeName::Default, false));
    opts.lesson = Some("02-trying".into());
    App::new(
        opts,
        tooldojo::course::BlockEnv::new(content, records, 0),
        lessons,
        Progress::default(),
        ratatui::layout::Rect::new(0, 0, 80, 24),
    )
}

#[test]
fn a_paste_goes_into_the_editor_being_typed_in_and_nowhere_else() {
    use crate::tui_common::{press, screen};
    use tooldojo::tui::app::{Input, Update};
    let mut app = playground_app();
    // On the page, not typing: a pasted `q` is dropped, never read as the quit key.
    assert_eq!(app.update(Input::Paste("q".into())), Update::None);
    let _ = press(&mut app, "<Tab><Enter>");
    assert_eq!(
        app.update(Input::Paste("qqq".into())),
        Update::None,
        "entered, not typing"
    );
    let _ = press(&mut app, "c<Enter>");
    assert!(app.takes_text());
    let out = app.update(Input::Paste("{\"city\": \"Oslo\",\n \"days\": 2}".into()));
    assert_eq!(out, Update::Save);
    let shown = screen(&app);
    assert!(shown.contains("\"city\": \"Oslo\""), "{shown}");
    assert!(shown.contains("✓ accepted"), "validated at once:\n{shown}");
    assert!(!shown.contains("cut: holds"), "{shown}");
    // Too much: cut, and said twice (the editor's border and the status line).
    let _ = app.update(Input::Paste("y".repeat(40_000)));
    let shown = screen(&app);
    assert!(shown.contains("cut: holds 16 KiB"), "{shown}");
    assert!(
        shown.contains("Paste cut: an editor holds 16 KiB."),
        "{shown}"
    );
}
