//! Snapshots of every screen at 80x24 and 120x40 after scripted keys, drawn off-screen
//! by the app's own drawing code (the same code `tooldojo render` and the terminal use).

use crate::tui_common;

use ratatui::layout::Rect;
use tooldojo::tui::app::{App, Input};
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;
use tui_common::*;

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

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
fn reader_first_page() {
    scripted("reader", ThemeName::Default, false, "");
}

#[test]
fn reader_next_page() {
    scripted("reader_page2", ThemeName::Default, false, "n");
}

#[test]
fn sidebar_focused() {
    scripted("sidebar", ThemeName::Default, false, "hj");
}

#[test]
fn help_overlay() {
    scripted("help", ThemeName::Default, false, "?");
}

#[test]
fn block_focused() {
    scripted("block_focused", ThemeName::Default, false, "<Tab>");
}

#[test]
fn broken_lesson() {
    scripted("broken_lesson", ThemeName::Default, false, "nn");
}

#[test]
fn projector() {
    scripted("projector", ThemeName::Projector, false, "");
}

#[test]
fn ascii_mono() {
    scripted("ascii_mono", ThemeName::Mono, true, "j");
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
            "trace:partial-success@300",
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
fn predict_block_after_keys() {
    // Focus the table, enter it, pick an outcome for the first row.
    scripted(
        "predict_entered",
        ThemeName::Default,
        false,
        "<Tab><Enter>1",
    );
}

#[test]
fn trace_after_steps() {
    for (w, h) in SIZES {
        let mut app = screens::build(
            "trace:retry-read",
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
