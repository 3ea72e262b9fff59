//! The stage driven by scripted keys over the test lesson set: the home screen, where
//! `--lesson` opens, what is left of a lesson, and presenter mode's steps and resets.

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::course::progress::Progress;
use tooldojo::tui::app::{App, Focus, HomeEntry, Options};
use tooldojo::tui::theme::{Theme, ThemeName};

use crate::tui_common::{press, screen};

pub(crate) fn app_with(progress: Progress, lesson: Option<&str>, home: bool, demo: bool) -> App {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lessons");
    let content = Content::new(Some(&dir), None);
    let lessons = tooldojo::course::load_lessons(&content);
    let records = tooldojo::executor::cases::tickets(&Content::embedded()).unwrap();
    let mut opts = Options::new(Theme::new(ThemeName::Default, false));
    opts.home = home;
    opts.demo = demo;
    opts.lesson = lesson.map(str::to_owned);
    App::new(
        opts,
        tooldojo::course::BlockEnv::new(content, records, 0),
        lessons,
        progress,
        Rect::new(0, 0, 80, 24),
    )
}

#[test]
fn the_app_opens_home_and_esc_from_a_page_comes_back() {
    let mut app = app_with(Progress::default(), None, true, false);
    assert_eq!(app.screen().name(), "home");
    assert_eq!(
        app.home_entries()[..2],
        [HomeEntry::Continue(0), HomeEntry::Lesson(0)]
    );
    assert!(
        app.progress_snapshot()
            .lessons
            .values()
            .all(|l| !l.started()),
        "looking at home starts nothing"
    );
    // Down twice, to the second lesson, and open it.
    let _ = press(&mut app, "jj<Enter>");
    assert_eq!((app.screen().name(), app.lesson()), ("lesson", 1));
    let _ = press(&mut app, "<Tab>");
    assert!(matches!(app.focus(), Focus::Block(_)));
    let _ = press(&mut app, "<Esc>");
    assert_eq!(app.screen().name(), "lesson", "Esc first leaves the block");
    let _ = press(&mut app, "<Esc>");
    assert_eq!(app.screen().name(), "home");
    assert!(screen(&app).contains("Continue   02 Trying the real code"));
}

#[test]
fn lesson_id_opens_the_page_where_the_lesson_was_left() {
    let mut app = app_with(Progress::default(), None, false, false);
    let _ = press(&mut app, "n");
    assert_eq!(app.page(), 1);
    let _ = press(&mut app, "nn");
    assert_eq!(app.lesson(), 1, "on to the second lesson");
    let saved = app.progress_snapshot();
    let again = app_with(saved, Some("01-reading"), true, false);
    assert_eq!(
        again.screen().name(),
        "lesson",
        "--lesson skips the home screen"
    );
    assert_eq!((again.lesson(), again.page()), (0, 1));
}

#[test]
fn the_home_screen_says_what_is_left_of_a_started_lesson() {
    let mut app = app_with(Progress::default(), None, true, false);
    let _ = press(
        &mut app,
        "<Enter><Tab><Enter>1<Enter><Enter><Esc><Esc><Esc>",
    );
    assert_eq!(app.screen().name(), "home");
    assert_eq!(
        app.left_summary(0).as_deref(),
        Some("2 left: predict rows 2-3, unread (page 2)")
    );
    let text = screen(&app);
    assert!(text.contains("◐ 2 left: predict rows 2-3"), "{text}");
    assert!(text.contains("1 started"), "{text}");
}

#[test]
fn presenter_steps_show_paragraphs_then_rows_then_the_next_page() {
    let mut app = app_with(Progress::default(), Some("01-reading"), false, true);
    // Two paragraphs and a table of three rows: every row is a step of its own.
    assert!(screen(&app).contains("step 1/6"));
    assert!(!screen(&app).contains("Three rows"), "one step at a time");
    let _ = press(&mut app, " ");
    assert!(screen(&app).contains("Three rows"));
    let _ = press(&mut app, " ");
    assert_eq!(app.focus(), Focus::Block(0), "the table appears, focused");
    assert!(screen(&app).contains("step 3/6"));
    let text = screen(&app);
    assert!(text.contains("0 of 3 rows shown"), "{text}");
    let _ = press(&mut app, " ");
    assert!(screen(&app).contains("step 4/6"), "a row is a step");
    let _ = press(&mut app, "  ");
    let text = screen(&app);
    assert!(text.contains("step 6/6"), "{text}");
    assert!(
        text.contains("shown    the real executor returned not_found"),
        "{text}"
    );
    // Nothing scored and nothing guessed: no score, no pending marks, no "You" column.
    assert!(text.contains("3 of 3 rows shown"), "{text}");
    assert!(!text.contains("score"), "{text}");
    let table: Vec<&str> = text.lines().filter(|l| l.contains("TKT-")).collect();
    assert!(table.iter().all(|l| !l.contains('…')), "{text}");
    let header = text
        .lines()
        .find(|l| l.contains("Call"))
        .unwrap_or_default();
    assert!(header.contains("Real") && !header.contains("You"), "{text}");
    let _ = press(&mut app, "x");
    assert!(!screen(&app).contains("shown    the real"), "reset");
    let _ = press(&mut app, "   ");
    assert_eq!(app.page(), 0, "three rows again first");
    assert!(screen(&app).contains("Row 3:"));
    let _ = press(&mut app, " ");
    assert_eq!(app.page(), 1, "then the next page");
    let _ = press(&mut app, "X");
    assert!(screen(&app).contains("step 1/"));
}

#[test]
fn presenter_step_back_hides_the_last_step() {
    let mut app = app_with(Progress::default(), Some("01-reading"), false, true);
    let _ = press(&mut app, "  ");
    assert!(screen(&app).contains("step 3/6"));
    let _ = press(&mut app, "h");
    assert!(screen(&app).contains("step 2/6"));
    assert_eq!(app.focus(), Focus::Page, "the hidden block loses the focus");
}

#[test]
fn a_click_on_a_lesson_row_of_the_home_screen_opens_it() {
    let mut app = app_with(Progress::default(), None, true, false);
    let text = screen(&app);
    let row = text
        .lines()
        .position(|l| l.contains("02 Trying the real code"))
        .expect("the second lesson's row");
    let click = crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
        column: 10,
        row: u16::try_from(row).unwrap(),
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    let _ = app.update(tooldojo::tui::app::Input::Mouse(click));
    assert_eq!((app.screen().name(), app.lesson()), ("lesson", 1));
}

#[test]
fn choosing_a_schema_keeps_the_playgrounds_selector_in_view() {
    let mut app = app_with(Progress::default(), Some("02-trying"), false, false);
    // Into the validator playground, round to its schema panel, then the next schema.
    let _ = press(&mut app, "<Tab><Enter><Tab><Tab>");
    for _ in 0..3 {
        let _ = app.update(tooldojo::tui::app::Input::Key(
            crossterm::event::KeyEvent::new(
                crossterm::event::KeyCode::Right,
                crossterm::event::KeyModifiers::NONE,
            ),
        ));
        let text = screen(&app);
        assert!(text.contains("Schema <"), "the selector in view:\n{text}");
    }
}

#[test]
fn a_trace_played_to_its_end_is_not_saved_as_left() {
    use tooldojo::tui::app::{Input, Update};
    let mut app = app_with(Progress::default(), Some("02-trying"), false, false);
    // Page 2 opens on the trace: enter it and play it, then let the run reach its end.
    let _ = press(&mut app, "n<Tab><Enter> ");
    assert_eq!(app.focus(), Focus::Block(0));
    assert!(app.animating(), "Space plays the trace");
    let mut updates = Vec::new();
    while app.animating() {
        updates.push(app.update(Input::Tick));
        assert!(updates.len() < 20_000, "the run ends");
    }
    assert!(
        updates.contains(&Update::Save),
        "the tick that ends the run asks for a save"
    );
    // What `q` writes (and Ctrl-C, a signal, a suspend): the trace is done, not left.
    let saved = app.progress_snapshot();
    let lp = &saved.lessons["02-trying"];
    assert_eq!(lp.blocks["1/0"]["finished"], true);
    assert!(!lp.pending.contains("1/0"), "{:?}", lp.pending);
    assert!(!lp.left.contains_key("1/0"), "{:?}", lp.left);
    assert!(
        lp.pending.contains("1/1"),
        "the explain block is still to do"
    );
    // Leaving the page by `n` records the same.
    let _ = press(&mut app, "<Esc>n");
    let lp = &app.progress_snapshot().lessons["02-trying"];
    assert!(!lp.pending.contains("1/0") && !lp.left.contains_key("1/0"));
}
