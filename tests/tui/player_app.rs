//! The player inside the app: `f` on a lesson's trace block opens it full screen at the
//! block's time, it plays on ticks, clicks on the axis seek, Esc gives the lesson back, and
//! `render trace:NAME@T` is the player while `trace-block:NAME@T` is the inline block.

use crate::tui_common::*;
use ratatui::layout::Rect;
use tooldojo::tui::app::{Input, Update};
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;

fn block_screen(name: &str, w: u16, h: u16) -> tooldojo::tui::app::App {
    block_screen_in(name, false, w, h)
}

/// [`block_screen`], in presenter mode when `demo`.
fn block_screen_in(name: &str, demo: bool, w: u16, h: u16) -> tooldojo::tui::app::App {
    let mut opts = options(ThemeName::Default, false);
    opts.demo = demo;
    screens::build(
        &format!("trace-block:{name}"),
        opts,
        env(),
        Ok(lessons()),
        Rect::new(0, 0, w, h),
    )
    .expect("the block screen builds")
}

#[test]
fn f_opens_the_block_full_screen_and_esc_comes_back() {
    let mut app = block_screen("partial-success", 120, 36);
    let inline = screen(&app);
    assert!(inline.contains("f full screen"), "{inline}");
    press(&mut app, "<Enter>");
    press(&mut app, "<Left>");
    for _ in 0..8 {
        let _ = app.update(Input::Key(crossterm::event::KeyEvent::from(
            crossterm::event::KeyCode::Right,
        )));
    }
    press(&mut app, "f");
    let p = app.player().expect("the player is open");
    assert!(p.t_ms() > 0, "it opens at the block's time");
    let full = screen(&app);
    assert!(full.contains("Trace · partial-success"), "{full}");
    assert!(full.contains("Budgets"), "{full}");
    // Space plays; ticks move the cursor; nothing moves while paused.
    let t0 = app.player().unwrap().t_ms();
    assert_eq!(app.update(Input::Tick), Update::Redraw);
    assert_eq!(
        app.player().unwrap().t_ms(),
        t0,
        "paused: a stray tick changes nothing"
    );
    press(&mut app, " ");
    let _ = app.update(Input::Tick);
    assert!(app.player().unwrap().t_ms() > t0);
    press(&mut app, "<Esc>");
    assert!(app.player().is_none(), "Esc leaves the player");
    assert!(screen(&app).contains("Trace: partial-success"));
}

#[test]
fn q_quits_from_the_player_and_ctrl_c_too() {
    let mut app = block_screen("happy-path", 100, 30);
    press(&mut app, "f");
    assert!(app.player().is_some());
    assert_eq!(press(&mut app, "q"), [Update::Quit]);
    assert_eq!(press(&mut app, "<C-c>"), [Update::Quit]);
}

#[test]
fn a_click_on_the_axis_seeks_and_a_click_on_a_lane_selects() {
    let mut app = block_screen("partial-success", 120, 36);
    press(&mut app, "f");
    let _ = screen(&app);
    let geo = app.player().unwrap().geometry.borrow().clone();
    let x = geo.plot_x + geo.plot_w / 2;
    let click = |col, row| {
        Input::Mouse(crossterm::event::MouseEvent {
            kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
            column: col,
            row,
            modifiers: crossterm::event::KeyModifiers::NONE,
        })
    };
    let _ = app.update(click(x, geo.axis.y));
    let t = app.player().unwrap().t_ms();
    assert!(t > 0 && t < app.player().unwrap().tl.end_ms, "{t}");
    let (row, lane) = geo.rows[1];
    let _ = app.update(click(2, row));
    assert_eq!(app.player().unwrap().pb.selected, Some(lane));
}

#[test]
fn render_names_the_player_and_the_block_apart() {
    let app = screens::build(
        "trace:deadline@1200",
        options(ThemeName::Projector, false),
        env(),
        Ok(lessons()),
        Rect::new(0, 0, 80, 24),
    )
    .unwrap();
    let full = screen(&app);
    assert!(full.contains("Trace · deadline"), "{full}");
    assert!(full.contains("STOPPED"), "{full}");
    let block = screen(&block_screen("deadline", 80, 24));
    assert!(block.contains("Trace: deadline"), "{block}");
    let names = screens::names(&lessons(), &["deadline".to_owned()]);
    assert!(names.contains(&"trace:deadline".to_owned()));
    assert!(names.contains(&"trace-block:deadline".to_owned()));
}

#[test]
fn play_with_a_bad_scenario_exits_2_before_the_terminal_is_touched() {
    let bin = env!("CARGO_BIN_EXE_tooldojo");
    for args in [
        vec!["play", "no-such-scenario"],
        vec!["play", "./missing.json"],
        vec!["play", "happy-path", "--speed", "9"],
    ] {
        let out = std::process::Command::new(bin)
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("the binary runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("tooldojo: "), "{args:?}: {stderr}");
        // Nothing was drawn: no escape sequences on stdout.
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn render_list_names_the_player_and_the_inline_block() {
    let bin = env!("CARGO_BIN_EXE_tooldojo");
    let out = std::process::Command::new(bin)
        .args(["render", "--list"])
        .output()
        .unwrap();
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(list.lines().any(|l| l == "trace:race-vs-cancel"), "{list}");
    assert!(
        list.lines().any(|l| l == "trace-block:race-vs-cancel"),
        "{list}"
    );
    let out = std::process::Command::new(bin)
        .args(["render", "trace:race-vs-cancel@800", "--size", "160x45"])
        .output()
        .unwrap();
    let frame = String::from_utf8_lossy(&out.stdout);
    assert!(frame.contains("handler"), "{frame}");
    assert!(frame.contains("t = 800 / 1300 ms"), "{frame}");
}

#[test]
fn in_the_app_a_rerun_is_left_to_the_loop_and_comes_back_as_a_message() {
    let mut app = block_screen("race-vs-cancel", 120, 36);
    app.run_jobs_in_background();
    press(&mut app, "f");
    assert!(app.player().is_some());
    press(&mut app, "m");
    let p = app.player().unwrap();
    assert!(
        p.rerunning().is_some() && p.before.is_none(),
        "nothing ran yet"
    );
    assert!(screen(&app).contains("re-running the real orchestrator"));
    let job = app.take_player_job().expect("the loop finds the job");
    assert!(app.take_player_job().is_none());
    assert_eq!(
        app.update(Input::Rerun(Box::new(job.run()))),
        Update::Redraw
    );
    let shown = screen(&app);
    assert!(shown.contains("compared with the run before"), "{shown}");
    assert!(!shown.contains("re-running"), "{shown}");
    // A result for a player that has since closed changes nothing.
    press(&mut app, "m");
    let job = app.take_player_job().unwrap();
    press(&mut app, "<Esc>");
    press(&mut app, "<Esc>");
    assert!(app.player().is_none());
    assert_eq!(app.update(Input::Rerun(Box::new(job.run()))), Update::None);
}

#[test]
fn f_in_presenter_mode_opens_the_player_at_a_speed_a_room_can_follow() {
    let mut app = block_screen_in("partial-success", true, 80, 24);
    let _ = app.update(Input::Key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Char('f'),
    )));
    let player = app.player().expect("f opens the player");
    assert_eq!(player.pb.speed_label(), "0.25x");
    assert!(screen(&app).contains("0.25x"), "{}", screen(&app));
}

/// `x` in the player, in presenter mode and out of it, with the export going to `dir`.
fn x_in_the_player(demo: bool, dir: &std::path::Path) -> (tooldojo::tui::app::App, String) {
    let mut app = block_screen_in("happy-path", demo, 160, 45);
    // The block as the room sees it, then full screen at its end.
    let _ = screen(&app);
    press(&mut app, "f");
    let p = app.player_mut().expect("f opens the player");
    p.export_dir = dir.to_path_buf();
    press(&mut app, "G");
    assert!(app.player().unwrap().t_ms() > 0);
    let bar = screen(&app);
    press(&mut app, "x");
    (app, bar)
}

#[test]
fn x_in_the_player_resets_the_run_in_presenter_mode_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (app, bar) = x_in_the_player(true, dir.path());
    let p = app.player().expect("x does not leave the player");
    assert_eq!(p.t_ms(), 0, "back at the start");
    assert!(!p.playing());
    assert!(!p.can_export());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
    let after = screen(&app);
    assert!(!after.contains("Chrome trace"), "{after}");
    assert!(!bar.contains("export"), "the export is not offered:\n{bar}");
    assert!(bar.contains("x reset"), "{bar}");
    // Nor in the legend.
    let mut app = app;
    press(&mut app, "?");
    let legend = screen(&app);
    assert!(!legend.contains("export"), "{legend}");
    assert!(legend.contains("reset to the start"), "{legend}");
}

#[test]
fn x_in_the_player_still_exports_outside_presenter_mode() {
    let dir = tempfile::tempdir().unwrap();
    let (app, bar) = x_in_the_player(false, dir.path());
    assert!(bar.contains("x export"), "{bar}");
    let p = app.player().unwrap();
    assert!(p.t_ms() > 0, "the cursor stays where it was");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    assert!(screen(&app).contains("Chrome trace written to"));
}

#[test]
fn play_in_presenter_mode_opens_the_player_for_a_room() {
    let scenario = tooldojo::orchestrator::load_scenario(
        &tooldojo::content::Content::embedded(),
        "happy-path",
    )
    .unwrap();
    let play = tooldojo::tui::Play {
        source: std::sync::Arc::new(tooldojo::replay::ScenarioSource::new(scenario, 0)),
        speed: None,
    };
    assert!(!play.player(true).unwrap().can_export());
    assert!(play.player(false).unwrap().can_export());
}

#[test]
fn a_player_opened_in_presenter_mode_before_any_frame_still_resets_on_x() {
    let mut app = block_screen_in("happy-path", true, 80, 24);
    // No frame drawn yet: the mode comes from the app, not from a draw.
    press(&mut app, "f");
    let p = app.player().expect("f opens the player");
    assert!(p.demo, "the app's presenter mode reaches the player");
    assert!(!p.can_export());
}
