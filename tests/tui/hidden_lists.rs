//! A list a narrow window has no room for says so in one short line, with the key that
//! shows it: the lesson list below 100 columns (`s`), the drill's column of questions
//! below its width (`?`, whose keys popup then lists them).

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, options, press, screen};

fn build(name: &str, w: u16, h: u16, demo: bool) -> tooldojo::tui::app::App {
    let mut opts = options(ThemeName::Default, false);
    opts.demo = demo;
    opts.present = demo;
    screens::build(
        name,
        opts,
        env(),
        tooldojo::course::load_lessons(&Content::embedded()),
        Rect::new(0, 0, w, h),
    )
    .unwrap()
}

#[test]
fn a_lesson_list_hidden_by_a_narrow_window_names_the_key_that_shows_it() {
    for demo in [false, true] {
        let mut app = build("lesson:03-json-traps#2", 80, 24, demo);
        let text = screen(&app);
        assert!(text.contains(" lessons hidden: s "), "{text}");
        // Shown, it needs no note; nor at 120 columns, where it shows by itself.
        let _ = press(&mut app, "s");
        assert!(app.sidebar_visible());
        assert!(!screen(&app).contains("lessons hidden"));
    }
    let app = build("lesson:03-json-traps#2", 120, 35, false);
    assert!(!screen(&app).contains("lessons hidden"));
    insta::assert_snapshot!(
        "lesson_list_hidden_80x24",
        screen(&build("lesson:03-json-traps#2", 80, 24, false))
    );
}

#[test]
fn a_drill_too_narrow_for_its_side_column_lists_the_questions_behind_help() {
    let mut app = build("rehearse", 80, 24, false);
    let text = screen(&app);
    let head = text.lines().next().unwrap_or_default();
    assert!(head.contains("? questions, keys"), "{text}");
    let _ = press(&mut app, "?");
    let text = screen(&app);
    assert!(text.contains("Q1 predict now"), "{text}");
    assert!(text.contains("Q2 predict"), "{text}");
    // Wide enough, the column is there and the head says nothing of it.
    let app = build("rehearse", 160, 45, false);
    let text = screen(&app);
    assert!(text.contains("This drill"), "{text}");
    assert!(!text.contains("? questions, keys"), "{text}");
}
