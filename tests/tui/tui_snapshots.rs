//! Snapshots of the screens that do not come from lessons (the fixed block screens, the
//! trace player, the help over a page, a lesson that does not parse, a window too small),
//! drawn off-screen by the app's own drawing code at 80x24, 120x35 and 160x45. Lesson
//! pages are pinned in `stage_snapshots` from the test lesson set.

use crate::tui_common;

use ratatui::layout::Rect;
use tooldojo::tui::app::{App, Input};
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;
use tui_common::*;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 35), (160, 45)];

fn snap(name: &str, app: &App) {
    let (w, h) = (app.size().width, app.size().height);
    insta::assert_snapshot!(format!("{name}_{w}x{h}"), screen(app));
}

fn scripted(name: &str, theme: ThemeName, ascii: bool, keys: &str) {
    for (w, h) in SIZES {
        let mut app = new_app(w, h, theme, ascii);
        let _ = press(&mut app, keys);
        snap(name, &app);
    }
}

#[test]
fn help_overlay() {
    scripted("help", ThemeName::Default, false, "?");
}

#[test]
fn broken_lesson() {
    scripted("broken_lesson", ThemeName::Default, false, "nn");
}

#[test]
fn too_small() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    let _ = app.update(Input::Resize(30, 10));
    snap("too_small", &app);
}

#[test]
fn block_screens() {
    for name in [
        "predict:get_ticket",
        "predict:validator",
        "playground:validator",
        "playground:executor",
    ] {
        for (w, h) in SIZES {
            let app = screens::build(
                name,
                options(ThemeName::Default, false),
                env(),
                Ok(lessons()),
                Rect::new(0, 0, w, h),
            )
            .unwrap();
            snap(&name.replace(':', "_"), &app);
        }
    }
}

#[test]
fn trace_screen() {
    // A scenario the contract promises to ship.
    for (w, h) in SIZES {
        let app = screens::build(
            "trace-block:partial-success@300",
            options(ThemeName::Default, false),
            env(),
            Ok(lessons()),
            Rect::new(0, 0, w, h),
        )
        .unwrap();
        snap("trace_partial_success_300ms", &app);
    }
}

#[test]
fn trace_after_steps() {
    for (w, h) in SIZES {
        let mut app = screens::build(
            "trace-block:retry-read",
            options(ThemeName::Default, false),
            env(),
            Ok(lessons()),
            Rect::new(0, 0, w, h),
        )
        .unwrap();
        let _ = press(&mut app, "<Enter>");
        for _ in 0..4 {
            let _ = app.update(Input::Key(crossterm::event::KeyEvent::new(
                crossterm::event::KeyCode::Right,
                crossterm::event::KeyModifiers::NONE,
            )));
        }
        snap("trace_retry_read_4_steps", &app);
    }
}

#[test]
fn the_shipped_course_on_the_home_screen() {
    // The shipped lessons' titles and study times are the point of this one.
    let content = tooldojo::content::Content::embedded();
    let lessons = tooldojo::course::load_lessons(&content);
    let app = screens::build(
        "home",
        options(ThemeName::Default, false),
        env(),
        lessons,
        Rect::new(0, 0, 80, 24),
    )
    .unwrap();
    snap("shipped_home", &app);
}
