//! Behaviour of the app driven by scripted keys against an off-screen buffer.

mod tui_common;

use ratatui::layout::Rect;
use tooldojo::tui::app::{App, Focus, Input, LessonState, Overlay, Update};
use tooldojo::tui::progress::Progress;
use tooldojo::tui::theme::ThemeName;
use tui_common::*;

#[test]
fn no_size_panics_and_small_sizes_say_so() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    for w in 0..=50u16 {
        for h in 0..=16u16 {
            let _ = app.update(Input::Resize(w, h));
            let text = screen(&app);
            if (1..40).contains(&w) && (1..12).contains(&h) && w >= 10 && h >= 1 {
                assert!(
                    text.to_lowercase().contains("need") || text.contains("40x12"),
                    "{w}x{h}: {text}"
                );
            }
        }
    }
    let _ = app.update(Input::Resize(1, 1));
    assert_eq!(screen(&app).lines().count(), 1);
    let _ = app.update(Input::Resize(39, 12));
    assert!(screen(&app).contains("need 40x12"), "{}", screen(&app));
}

#[test]
fn pages_move_across_lessons_and_back() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    assert_eq!((app.lesson, app.page), (0, 0));
    let _ = press(&mut app, "n");
    assert_eq!((app.lesson, app.page), (0, 1));
    let _ = press(&mut app, "n");
    assert_eq!(
        (app.lesson, app.page),
        (1, 0),
        "next lesson at the end of one"
    );
    assert!(screen(&app).contains("does not parse"));
    let _ = press(&mut app, "n");
    assert_eq!(app.lesson, 2);
    let _ = press(&mut app, "n");
    assert_eq!(app.lesson, 2, "stays on the last page");
    assert!(screen(&app).contains("last page"));
    let _ = press(&mut app, "pp");
    assert_eq!(
        (app.lesson, app.page),
        (0, 1),
        "p goes to the last page of the previous lesson"
    );
}

#[test]
fn q_quits_and_ctrl_c_quits() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    assert_eq!(press(&mut app, "q"), vec![Update::Quit]);
    let mut app = new_app(80, 24, ThemeName::Default, false);
    assert_eq!(press(&mut app, "<C-c>"), vec![Update::Quit]);
}

#[test]
fn help_toggles_and_esc_closes() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    let _ = press(&mut app, "?");
    assert_eq!(app.overlay, Some(Overlay::Help));
    assert!(screen(&app).contains("next page"));
    let _ = press(&mut app, "<Esc>");
    assert_eq!(app.overlay, None);
    let _ = press(&mut app, "??");
    assert_eq!(app.overlay, None);
}

#[test]
fn text_blocks_take_q_n_and_question_mark_until_esc() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.slots[0].widget = Ok(Fake::boxed(6, true));
    let _ = press(&mut app, "<Tab>");
    assert_eq!(app.focus, Focus::Block(0));
    assert!(
        screen(&app).contains("start"),
        "key bar shows the block's hints"
    );
    let _ = press(&mut app, "<Enter>");
    assert!(app.active);
    let ups = press(&mut app, "qn?p");
    assert!(!ups.contains(&Update::Quit));
    assert_eq!((app.lesson, app.page), (0, 0));
    assert_eq!(app.overlay, None);
    assert!(screen(&app).contains("typed=qn?p"));
    let _ = press(&mut app, "<Esc>");
    assert!(!app.active);
    assert_eq!(app.focus, Focus::Block(0));
    let _ = press(&mut app, "<Esc>");
    assert_eq!(app.focus, Focus::Page);
    assert_eq!(press(&mut app, "q"), vec![Update::Quit]);
}

#[test]
fn ctrl_c_quits_even_inside_a_text_block() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.slots[0].widget = Ok(Fake::boxed(6, true));
    let _ = press(&mut app, "<Tab><Enter>");
    assert!(app.active);
    assert_eq!(press(&mut app, "<C-c>"), vec![Update::Quit]);
}

#[test]
fn tall_blocks_scroll_through_the_view() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.slots[0].widget = Ok(Fake::boxed(60, false));
    let _ = press(&mut app, "<Tab>");
    let top = screen(&app);
    assert!(top.contains("typed= focused=true active=false"), "{top}");
    assert!(top.contains("more below"));
    let _ = press(&mut app, "<Esc><PgDn><PgDn>");
    let lower = screen(&app);
    assert!(lower.contains("fake row"), "{lower}");
    assert!(!lower.contains("typed="), "{lower}");
    let _ = press(&mut app, "G");
    assert!(screen(&app).contains("end of page"));
}

#[test]
fn finishing_blocks_and_pages_marks_a_lesson_done() {
    let mut app = new_app(100, 30, ThemeName::Default, false);
    app.slots[0].widget = Ok(Fake::boxed(5, false));
    let _ = press(&mut app, "<Tab><Enter>");
    assert_eq!(app.lesson_state(0), LessonState::Started);
    let ups = press(&mut app, "x");
    assert_eq!(ups, vec![Update::Save]);
    assert_eq!(
        app.lesson_state(0),
        LessonState::Started,
        "page 2 not seen yet"
    );
    let _ = press(&mut app, "<Esc><Esc>n");
    assert_eq!(app.lesson_state(0), LessonState::Done);
    assert!(screen(&app).contains("done"));
}

#[test]
fn an_unfinished_block_keeps_the_lesson_open() {
    let mut app = new_app(100, 30, ThemeName::Default, false);
    app.slots[0].widget = Ok(Fake::boxed(5, false));
    let _ = press(&mut app, "<Tab><Esc>n");
    assert_eq!(app.page, 1);
    assert_eq!(app.lesson_state(0), LessonState::Started);
}

#[test]
fn progress_resumes_at_lesson_page_and_block() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    let _ = press(&mut app, "nnn");
    assert_eq!(app.lesson, 2);
    let saved: Progress = app.progress_snapshot();
    let again = App::new(
        options(ThemeName::Default, false),
        env(),
        Ok(lessons()),
        saved.clone(),
        Rect::new(0, 0, 80, 24),
    );
    assert_eq!((again.lesson, again.page), (2, 0));
    // --lesson wins over the saved position.
    let mut opts = options(ThemeName::Default, false);
    opts.lesson = Some("01-untrusted-input".into());
    let chosen = App::new(opts, env(), Ok(lessons()), saved, Rect::new(0, 0, 80, 24));
    assert_eq!(chosen.lesson, 0);
}

#[test]
fn sidebar_marks_use_a_word_and_a_click_opens_a_lesson() {
    let app0 = new_app(100, 30, ThemeName::Default, true);
    let mut app = app0;
    let text = screen(&app);
    assert!(text.contains("started"), "{text}");
    assert!(text.contains("to do"));
    assert!(text.contains("error"));
    // Click the third lesson's title row (rows: border, then two lines per lesson).
    let click = crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
        column: 3,
        row: 5,
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    let _ = app.update(Input::Mouse(click));
    assert_eq!(app.lesson, 2);
    assert!(text.is_ascii(), "--ascii draws only ASCII");
}

#[test]
fn reloading_keeps_the_page_and_shows_a_parse_error() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    let _ = press(&mut app, "n");
    let _ = app.update(Input::Lessons(Ok(lessons())));
    assert_eq!((app.lesson, app.page), (0, 1));
    let mut broken = lessons();
    broken[0].parsed = Err("lessons/01-untrusted-input.md:3: a fence is never closed".into());
    broken[0].source = "changed".into();
    let _ = app.update(Input::Lessons(Ok(broken)));
    assert_eq!(app.lesson, 0);
    let text = screen(&app);
    assert!(text.contains("a fence is never"), "{text}");
    let _ = app.update(Input::Lessons(Ok(lessons())));
    assert_eq!(
        (app.lesson, app.page),
        (0, 1),
        "back on the page the learner had"
    );
    assert!(screen(&app).contains("The order of checks"));
}

#[test]
fn wheel_scrolls_and_click_focuses_a_block() {
    let mut app = new_app(80, 24, ThemeName::Default, false);
    app.slots[0].widget = Ok(Fake::boxed(30, false));
    let wheel = crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::ScrollDown,
        column: 40,
        row: 10,
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    let _ = app.update(Input::Mouse(wheel));
    assert_eq!(app.scroll, 3);
    let _ = press(&mut app, "G");
    let click = crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
        column: 40,
        row: 5,
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    let _ = app.update(Input::Mouse(click));
    assert_eq!(app.focus, Focus::Block(0));
}
