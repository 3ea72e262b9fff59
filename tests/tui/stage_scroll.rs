//! The page scrolls where its keys say, even with a predict block that keeps its focus
//! line in view; a predict row names a long schema, so the row, its arguments and its
//! choices fit together at 80x24.

use ratatui::layout::Rect;
use tooldojo::tui::app::App;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::*;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 35), (160, 45)];

/// The shipped course opened at `lesson`, in presenter mode or not, at `w`x`h`.
fn course_at(lesson: &str, demo: bool, w: u16, h: u16) -> App {
    use tooldojo::content::Content;
    let content = Content::embedded();
    let records = tooldojo::executor::cases::tickets(&content).unwrap();
    let mut opts = options(ThemeName::Default, false);
    opts.lesson = Some(lesson.into());
    opts.demo = demo;
    App::new(
        opts,
        tooldojo::course::BlockEnv::new(content.clone(), records, 0),
        tooldojo::course::load_lessons(&content),
        tooldojo::course::progress::Progress::default(),
        Rect::new(0, 0, w, h),
    )
}

/// The lesson 16 page of the predict block on the original `search_issues`.
const YOURS: &str = "16-your-tools-and-logs";

#[test]
fn the_presenter_scrolls_back_up_past_revealed_rows() {
    for (w, h) in SIZES {
        let mut app = course_at(YOURS, true, w, h);
        // The predict block's two steps of text, the block, then two rows revealed.
        let _ = press(&mut app, "nn       ");
        let text = screen(&app);
        assert!(text.contains("2 of 8 rows shown"), "{w}x{h}:\n{text}");
        let bottom = app.scroll();
        if h >= 45 {
            assert_eq!(bottom, 0, "{w}x{h}: the page fits");
            continue;
        }
        assert!(bottom > 3, "{w}x{h}: the page scrolled to the rows");
        let _ = press(&mut app, "<PgUp>");
        assert!(app.scroll() < bottom, "{w}x{h}: PgUp scrolls up");
        let _ = press(&mut app, "<PgUp><PgUp><PgUp><PgUp><PgUp>");
        assert_eq!(app.scroll(), 0, "{w}x{h}: PgUp reaches the top");
        let _ = press(&mut app, "<PgDn>");
        assert!(app.scroll() > 0, "{w}x{h}: PgDn scrolls down");
        let _ = press(&mut app, "g");
        assert_eq!(app.scroll(), 0, "{w}x{h}: g goes to the top");
        let _ = press(&mut app, "G");
        assert_eq!(app.scroll(), bottom, "{w}x{h}: G to the end");
        for _ in 0..3 {
            let _ = press(&mut app, "k");
        }
        assert_eq!(app.scroll(), bottom - 3, "{w}x{h}: k scrolls a line each");
    }
}

#[test]
fn the_learner_scrolls_away_from_an_entered_predict_block() {
    let mut app = course_at(YOURS, false, 80, 24);
    let _ = press(&mut app, "nn<Tab><Enter><Down>");
    let at = app.scroll();
    assert!(at > 0, "the block is below the page's start");
    let _ = press(&mut app, "<PgUp><PgUp><PgUp><PgUp><PgUp>");
    assert_eq!(
        app.scroll(),
        0,
        "PgUp scrolls the page from inside the block"
    );
    // A key the block takes brings its row back into view.
    let _ = press(&mut app, "<Down>");
    assert!(app.scroll() > 0, "{}", screen(&app));
}

#[test]
fn a_row_names_a_long_schema_and_keeps_its_choices_in_view() {
    for (lesson, skip, name) in [
        (YOURS, "nn", "search_issues"),
        ("14-real-declarations", "n", "find_tickets"),
    ] {
        for (w, h) in SIZES {
            let mut app = course_at(lesson, false, w, h);
            let _ = press(&mut app, &format!("{skip}<Tab><Enter><Down>"));
            let text = screen(&app);
            let has = |s: &str| text.lines().any(|l| l.contains(s));
            assert!(
                has("▶ 2 ") && has(&format!("schema   {name} (")) && has("args     {"),
                "{lesson} {w}x{h}: the row, its schema's name and its args:\n{text}"
            );
            assert!(
                has("predict  ( ) 1 ok"),
                "{lesson} {w}x{h}: the choices:\n{text}"
            );
            assert!(
                !has("\"required\": ["),
                "{lesson} {w}x{h}: not the whole schema:\n{text}"
            );
            // `v` shows it whole, and again by name.
            let _ = press(&mut app, "v");
            let text = screen(&app);
            assert!(
                text.contains("v schema by name"),
                "{lesson} {w}x{h}:\n{text}"
            );
            let _ = press(&mut app, "<PgDn><PgDn><PgDn>gv");
            assert!(screen(&app).contains("v whole schema"), "{lesson} {w}x{h}");
        }
    }
}

#[test]
fn the_presenter_shows_a_long_schema_whole_with_v() {
    let mut app = course_at(YOURS, true, 80, 24);
    let _ = press(&mut app, "nn      ");
    let text = screen(&app);
    assert!(text.contains("schema   search_issues ("), "{text}");
    let _ = press(&mut app, "v");
    let text = screen(&app);
    assert!(
        text.contains("\"required\": [\"repo\", \"query\"]"),
        "the whole schema:\n{text}"
    );
}

#[test]
fn a_block_without_focus_says_how_to_reach_v() {
    let mut app = course_at("14-real-declarations", false, 120, 35);
    let _ = press(&mut app, "nG");
    let text = screen(&app);
    assert!(
        text.contains("find_tickets (") && text.contains("lines: Tab, then v)"),
        "without focus, the way to `v` starts with Tab:\n{text}"
    );
    let _ = press(&mut app, "<Tab>");
    let text = screen(&app);
    assert!(
        text.contains("lines: v shows it whole)"),
        "with focus, `v` itself:\n{text}"
    );
}

#[test]
fn a_resize_keeps_the_chosen_checklist_item_in_view() {
    let mut app = course_at("17-checklist-and-interview", false, 80, 24);
    while !screen(&app).contains("The completion checklist") {
        let page = app.page();
        let _ = press(&mut app, "n");
        assert_ne!(app.page(), page, "the checklist page is there");
    }
    // Into the checklist, down to its eleventh item.
    let _ = press(&mut app, "<Tab><Enter>");
    let _ = press(&mut app, &"j".repeat(10));
    let chosen = |app: &App| {
        let text = screen(app);
        let row = text.lines().find(|l| l.contains('▶')).map(str::to_owned);
        (text, row)
    };
    let (text, row) = chosen(&app);
    let row = row.unwrap_or_else(|| panic!("the chosen item is marked:\n{text}"));
    for (w, h) in [(40, 12), (60, 16), (120, 35), (80, 24)] {
        let _ = app.update(tooldojo::tui::app::Input::Resize(w, h));
        let (text, now) = chosen(&app);
        assert!(now.is_some(), "{w}x{h}: the chosen item in view:\n{text}");
    }
    assert_eq!(chosen(&app).1.as_deref(), Some(row.as_str()));
}

#[test]
fn a_resize_leaves_the_readers_place_when_a_block_is_only_focused() {
    let mut app = course_at("17-checklist-and-interview", false, 80, 24);
    for _ in 0..10 {
        if screen(&app).contains("The completion checklist") {
            break;
        }
        let _ = press(&mut app, "n");
    }
    // The checklist focused, not entered; the page read on to its end.
    let _ = press(&mut app, "<Tab>");
    let _ = press(&mut app, &"j".repeat(30));
    assert!(screen(&app).contains("end of page"), "{}", screen(&app));
    let _ = app.update(tooldojo::tui::app::Input::Resize(90, 26));
    let text = screen(&app);
    assert!(text.contains("end of page"), "still at the end:\n{text}");
}
