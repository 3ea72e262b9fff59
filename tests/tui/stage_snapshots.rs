//! Layout snapshots drawn from the small lesson set in `tests/data/lessons` (every block
//! kind), loaded the way `--lessons DIR` loads lessons, so editing a shipped lesson does
//! not change them. Sizes: 80x24, 120x35, 160x45.

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::course::progress::Progress;
use tooldojo::tui::app::{App, Options};
use tooldojo::tui::theme::{Theme, ThemeName};

use crate::tui_common::{press, screen};

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 35), (160, 45)];

fn content() -> Content {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lessons");
    Content::new(Some(&dir), None)
}

/// The app over the test lessons: `home` opens the home screen, `demo` presenter mode.
fn stage(size: (u16, u16), theme: ThemeName, ascii: bool, home: bool, demo: bool) -> App {
    let content = content();
    let lessons = tooldojo::course::load_lessons(&content);
    let records = tooldojo::executor::cases::tickets(&Content::embedded()).unwrap();
    let mut opts = Options::new(Theme::new(theme, ascii));
    opts.home = home;
    opts.demo = demo;
    opts.present = demo;
    let env = tooldojo::course::BlockEnv::new(content, records, 0);
    App::new(
        opts,
        env,
        lessons,
        Progress::default(),
        Rect::new(0, 0, size.0, size.1),
    )
}

fn snap(name: &str, app: &App) {
    let (w, h) = (app.size().width, app.size().height);
    insta::assert_snapshot!(format!("stage_{name}_{w}x{h}"), screen(app));
}

#[test]
fn home_of_a_new_learner() {
    for size in SIZES {
        snap("home", &stage(size, ThemeName::Default, false, true, false));
    }
}

#[test]
fn home_after_part_of_a_lesson_says_what_is_left() {
    for size in SIZES {
        let mut app = stage(size, ThemeName::Default, false, true, false);
        // Open lesson 1, predict and reveal its first row, go home.
        let _ = press(
            &mut app,
            "<Enter><Tab><Enter>1<Enter><Enter><Esc><Esc><Esc>",
        );
        snap("home_started", &app);
    }
}

#[test]
fn a_page_with_a_predict_table_and_its_done_mark() {
    for size in SIZES {
        let mut app = stage(size, ThemeName::Default, false, false, false);
        let _ = press(&mut app, "<Tab>");
        snap("predict_page", &app);
    }
}

#[test]
fn the_playground_page() {
    for size in SIZES {
        let mut app = stage(size, ThemeName::Default, false, false, false);
        let _ = press(&mut app, "nn");
        snap("playgrounds", &app);
    }
}

#[test]
fn the_trace_explain_and_checklist_page() {
    for size in SIZES {
        let mut app = stage(size, ThemeName::Default, false, false, false);
        let _ = press(&mut app, "nnn");
        snap("trace_explain_checklist", &app);
    }
}

#[test]
fn presenter_mode_after_three_steps_and_a_row() {
    for size in SIZES {
        let mut app = stage(size, ThemeName::Projector, false, false, true);
        let _ = press(&mut app, "    ");
        snap("present", &app);
    }
}

#[test]
fn ascii_and_mono_with_the_lesson_list() {
    for size in SIZES {
        let mut app = stage(size, ThemeName::Mono, true, false, false);
        let _ = press(&mut app, "s<Tab>");
        snap("ascii_mono", &app);
    }
}

#[test]
fn help_over_the_home_screen() {
    for size in SIZES {
        let mut app = stage(size, ThemeName::Default, false, true, false);
        let _ = press(&mut app, "?");
        snap("home_help", &app);
    }
}

#[test]
fn at_80_columns_the_key_bar_keeps_a_blocks_own_keys() {
    let mut app = stage((80, 24), ThemeName::Default, false, false, false);
    let _ = press(&mut app, "<Tab><Enter>");
    let text = screen(&app);
    let bar: Vec<&str> = text.lines().rev().take(2).collect();
    let bar = format!("{}\n{}", bar[1], bar[0]);
    for key in [" u unlock", " a reveal locked", "Esc back to page"] {
        assert!(bar.contains(key), "{key:?} in the bar:\n{bar}");
    }
    snap("predict_entered", &app);
}

#[test]
fn scrolling_is_offered_only_on_a_page_that_scrolls() {
    let mut app = stage((160, 45), ThemeName::Default, false, false, false);
    let _ = press(&mut app, "n");
    assert!(!screen(&app).contains("scroll down"), "{}", screen(&app));
    let mut small = stage((120, 24), ThemeName::Default, false, false, false);
    let _ = press(&mut small, "nnn");
    assert!(
        screen(&small).contains("j/Down scroll down"),
        "{}",
        screen(&small)
    );
}

#[test]
fn tab_from_the_bottom_of_a_page_never_jumps_to_a_block_above() {
    let mut app = stage((80, 24), ThemeName::Default, false, false, false);
    let _ = press(&mut app, "nn");
    // Scroll to the end: the first playground is above the view, the second in it.
    let _ = press(&mut app, "G<Tab>");
    assert_eq!(app.focus(), tooldojo::tui::app::Focus::Block(1));
    let _ = press(&mut app, "<Tab>");
    assert_eq!(
        app.focus(),
        tooldojo::tui::app::Focus::Page,
        "past the last block, back to the page, not up to the first"
    );
}

#[test]
fn a_focused_predict_table_says_enter_comes_before_the_number_keys() {
    let mut app = stage((80, 24), ThemeName::Default, false, false, false);
    let _ = press(&mut app, "<Tab>");
    let focused = screen(&app);
    assert!(
        focused.contains("Enter, then pick an outcome: 1-5 or left/right."),
        "{focused}"
    );
    // A number is not taken until the table is entered, as the words say.
    let _ = press(&mut app, "1");
    assert_eq!(screen(&app), focused);
    let _ = press(&mut app, "<Enter>");
    let entered = screen(&app);
    assert!(
        entered.contains("Pick an outcome: 1-5 or left/right."),
        "{entered}"
    );
    assert!(!entered.contains("Enter, then pick"), "{entered}");
    let _ = press(&mut app, "1");
    assert!(
        screen(&app).contains("Enter locks your prediction."),
        "{}",
        screen(&app)
    );
    // Back on the page with a pick not locked: Enter first, then Enter again locks.
    let _ = press(&mut app, "<Esc>");
    assert!(
        screen(&app).contains("Enter, then Enter again locks your prediction."),
        "{}",
        screen(&app)
    );
}
