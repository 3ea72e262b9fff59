//! What the course walk at 80x24, 120x35 and 160x45 asked of the screens: wide tables
//! keep their cells whole, presenter mode counts every step and scores nothing, the
//! home screen points on and uses the window, Tab never jumps up.

use ratatui::layout::Rect;
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::*;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 35), (160, 45)];

fn drawn(name: &str, w: u16, h: u16) -> String {
    let app = screens::build(
        name,
        options(ThemeName::Default, false),
        env(),
        Ok(lessons()),
        Rect::new(0, 0, w, h),
    )
    .unwrap();
    screen(&app)
}

#[test]
fn wide_predict_tables_keep_the_arguments_whole() {
    for (w, h) in SIZES {
        let text = drawn("predict:validator", w, h);
        for args in [
            r#"{"city": "Paris", "days": true}"#,
            r#"{"city": "Paris", "days": 1e2}"#,
        ] {
            assert!(text.contains(args), "{w}x{h}: {args} whole:\n{text}");
        }
        if w > 80 {
            // Rows further down, in view at the wider sizes.
            for args in [
                r#"{"query": "crash", "page_size": true}"#,
                r#"{"query": "crash", "page_size": 99999999}"#,
            ] {
                assert!(text.contains(args), "{w}x{h}: {args} whole:\n{text}");
            }
        }
        let calls = drawn("predict:get_ticket", w, h);
        if w > 80 {
            assert!(
                calls.contains("TKT-104, then edit the result")
                    && calls.contains("TKT-108 (long description)"),
                "{w}x{h}:\n{calls}"
            );
        }
    }
}

/// The test lesson set opened at `lesson`, in presenter mode or not, at `w`x`h`.
fn lesson_app(lesson: &str, demo: bool, w: u16, h: u16) -> tooldojo::tui::app::App {
    use tooldojo::content::Content;
    use tooldojo::tui::app::{self, App};
    use tooldojo::tui::theme::Theme;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lessons");
    let content = Content::new(Some(&dir), None);
    let lessons = app::load_lessons(&content);
    let records = tooldojo::executor::cases::tickets(&Content::embedded()).unwrap();
    let mut opts = tooldojo::tui::app::Options::new(Theme::new(ThemeName::Default, false));
    opts.demo = demo;
    opts.lesson = Some(lesson.to_owned());
    App::new(
        opts,
        app::block_env(content, records, 0),
        lessons,
        tooldojo::tui::progress::Progress::default(),
        Rect::new(0, 0, w, h),
    )
}

#[test]
fn space_plays_a_trace_to_its_end_before_it_moves_on() {
    use tooldojo::tui::app::{Focus, Input};
    let mut app = lesson_app("02-trying", true, 80, 24);
    let _ = press(&mut app, "n");
    // The page opens on its first step, the trace block, not yet played.
    assert!(screen(&app).contains("step 1/"), "{}", screen(&app));
    let _ = press(&mut app, " ");
    assert!(app.animating(), "Space plays the trace");
    assert_eq!(app.focus(), Focus::Block(0), "and stays on it");
    let _ = press(&mut app, " ");
    assert!(!app.animating(), "Space again pauses");
    let _ = press(&mut app, " ");
    let mut ticks = 0;
    while app.animating() {
        let _ = app.update(Input::Tick);
        ticks += 1;
        assert!(ticks < 10_000, "the run ends");
    }
    let text = screen(&app);
    assert!(text.contains("step 2/"), "the played trace counts: {text}");
    assert!(text.contains("STOPPED"), "{text}");
    let _ = press(&mut app, " ");
    assert_eq!(app.focus(), Focus::Block(1), "then the next step");
}
