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
    use tooldojo::tui::app::App;
    use tooldojo::tui::theme::Theme;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lessons");
    let content = Content::new(Some(&dir), None);
    let lessons = tooldojo::course::load_lessons(&content);
    let records = tooldojo::executor::cases::tickets(&Content::embedded()).unwrap();
    let mut opts = tooldojo::tui::app::Options::new(Theme::new(ThemeName::Default, false));
    opts.demo = demo;
    opts.lesson = Some(lesson.to_owned());
    App::new(
        opts,
        tooldojo::course::BlockEnv::new(content, records, 0),
        lessons,
        tooldojo::course::progress::Progress::default(),
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

fn home_app(
    progress: tooldojo::course::progress::Progress,
    w: u16,
    h: u16,
) -> tooldojo::tui::app::App {
    use tooldojo::content::Content;
    use tooldojo::tui::app::App;
    let content = Content::embedded();
    let lessons = tooldojo::course::load_lessons(&content);
    let records = tooldojo::executor::cases::tickets(&content).unwrap();
    let mut opts = options(ThemeName::Default, false);
    opts.home = true;
    App::new(
        opts,
        tooldojo::course::BlockEnv::new(content, records, 0),
        lessons,
        progress,
        Rect::new(0, 0, w, h),
    )
}

#[test]
fn continue_after_a_finished_lesson_points_at_the_next_unfinished_one() {
    use tooldojo::tui::app::HomeEntry;
    let progress: tooldojo::course::progress::Progress = serde_json::from_str(
        r#"{"version": 1, "current": {"lesson": "02-validate-tool-args", "page": 4},
            "lessons": {"02-validate-tool-args": {"done": true, "pages_seen": [0, 1, 2, 3, 4]},
                        "03-json-traps": {"done": true, "pages_seen": [0]}}}"#,
    )
    .unwrap();
    let app = home_app(progress, 80, 24);
    assert_eq!(
        app.home_entries()[0],
        HomeEntry::Continue(3),
        "04, past 02 and 03"
    );
    let text = screen(&app);
    assert!(text.contains("Continue   04 Value constraints"), "{text}");
}

#[test]
fn home_uses_a_tall_window_and_never_cuts_its_key_hint_mid_word() {
    // At 160x45 the whole course is listed, nothing below the fold.
    let app = home_app(tooldojo::course::progress::Progress::default(), 160, 45);
    let text = screen(&app);
    assert!(text.contains("17 Checklist, interview"), "{text}");
    assert!(!text.contains("more below"), "{text}");
    // A window tall enough for two rows a lesson (the head, the lessons and the keys)
    // shows every lesson with its pages under it.
    let n = tooldojo::course::load_lessons(&tooldojo::content::Content::embedded())
        .unwrap()
        .len();
    let tall = u16::try_from(2 * n + 14).unwrap().max(45);
    let app = home_app(tooldojo::course::progress::Progress::default(), 160, tall);
    let text = screen(&app);
    assert!(text.contains("What a tool call is"), "{text}");
    assert!(text.contains("17 Checklist, interview"), "{text}");
    let blank = text
        .lines()
        .filter(|l| l.trim_matches(|c| c == '│' || c == ' ').is_empty())
        .count();
    assert!(blank <= 8, "{blank} blank rows at 160x{tall}:\n{text}");
    for (w, h) in [(40, 12), (52, 14), (64, 16), (80, 24)] {
        let app = home_app(tooldojo::course::progress::Progress::default(), w, h);
        let text = screen(&app);
        let lines: Vec<&str> = text.lines().collect();
        // The line above the frame's bottom border.
        let hint = lines[lines.len() - 3].trim_matches(|c| c == '│' || c == ' ');
        assert!(
            [
                "Tab moves  Enter opens  Esc goes back (from a lesson, here)  ? every key",
                "Tab moves  Enter opens  Esc back  ? keys",
                "Tab moves  Enter opens  ? keys",
                "Tab moves  Enter opens",
            ]
            .contains(&hint),
            "{w}x{h}: {hint:?}\n{text}"
        );
        assert!(
            !lines[0].contains("a m╮"),
            "the title is not cut: {}",
            lines[0]
        );
    }
}

#[test]
fn resume_keeps_the_row_cursor() {
    let mut app = lesson_app("01-reading", false, 80, 24);
    let _ = press(&mut app, "<Tab><Enter><Down><Down>");
    assert!(screen(&app).contains("▶ 3 TKT-999"), "{}", screen(&app));
    let saved = app.progress_snapshot();
    // Opened afresh from what was saved, as a new session would.
    let mut again = {
        use tooldojo::content::Content;
        use tooldojo::tui::app::App;
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lessons");
        let content = Content::new(Some(&dir), None);
        let records = tooldojo::executor::cases::tickets(&Content::embedded()).unwrap();
        let mut opts = options(ThemeName::Default, false);
        opts.lesson = Some("01-reading".into());
        App::new(
            opts,
            tooldojo::course::BlockEnv::new(content.clone(), records, 0),
            tooldojo::course::load_lessons(&content),
            saved,
            Rect::new(0, 0, 80, 24),
        )
    };
    let text = screen(&again);
    assert!(text.contains("▶ 3 TKT-999"), "back on row 3:\n{text}");
    let _ = press(&mut again, "<Enter>");
    assert!(screen(&again).contains("Row 3:"), "{}", screen(&again));
}

/// The shipped course opened at `lesson`, at 80x24.
fn shipped_at(lesson: &str) -> tooldojo::tui::app::App {
    use tooldojo::content::Content;
    use tooldojo::tui::app::App;
    let content = Content::embedded();
    let records = tooldojo::executor::cases::tickets(&content).unwrap();
    let mut opts = options(ThemeName::Default, false);
    opts.lesson = Some(lesson.into());
    App::new(
        opts,
        tooldojo::course::BlockEnv::new(content.clone(), records, 0),
        tooldojo::course::load_lessons(&content),
        tooldojo::course::progress::Progress::default(),
        Rect::new(0, 0, 80, 24),
    )
}

#[test]
fn tab_from_the_bottom_takes_the_block_in_view_never_one_above() {
    use tooldojo::tui::app::Focus;
    for (lesson, kind) in [
        ("01-untrusted-input", "Explain in your own words"),
        ("07-tenant-scope-and-copies", "Quiz"),
    ] {
        let mut app = shipped_at(lesson);
        let _ = press(&mut app, "nnnnG");
        let before = app.scroll();
        let _ = press(&mut app, "<Tab>");
        assert_eq!(app.scroll(), before, "{lesson}: Tab does not scroll up");
        assert!(
            matches!(app.focus(), Focus::Block(b) if b > 0),
            "{lesson}: the block in view, not the playground half above it"
        );
        assert!(screen(&app).contains(kind), "{}", screen(&app));
    }
}

#[test]
fn typing_in_a_playground_keeps_its_schema_line_in_view() {
    let mut app = shipped_at("01-untrusted-input");
    let _ = press(&mut app, "nnnn<Tab><Enter><Enter>");
    assert!(
        screen(&app).contains("Schema < weather"),
        "{}",
        screen(&app)
    );
    for c in "xyz, more text".chars() {
        let _ = press(&mut app, &c.to_string());
        let text = screen(&app);
        assert!(text.contains("Schema < weather"), "after {c:?}:\n{text}");
    }
}

#[test]
fn a_block_alone_on_a_page_grows_into_the_room() {
    for name in [
        "trace-block:partial-success",
        "playground:validator",
        "playground:executor",
    ] {
        for (w, h) in [(120, 35), (160, 45)] {
            let text = drawn(name, w, h);
            let lines: Vec<&str> = text.lines().collect();
            // The block's bottom border sits on the last row of the page, above the
            // pane's own bottom border and the key bar.
            let last = lines[lines.len() - 3];
            assert!(last.starts_with("│ ╰"), "{name} at {w}x{h}:\n{text}");
        }
    }
}

#[test]
fn home_names_the_chosen_lessons_pages_in_the_room_under_the_list() {
    use tooldojo::course::progress::Progress;
    // At 160x45 the list leaves rows free: the chosen lesson's pages, one a line.
    let mut app = home_app(Progress::default(), 160, 45);
    let text = screen(&app);
    assert!(text.contains("Pages of 01 Untrusted input"), "{text}");
    assert!(
        text.lines().any(|l| l.contains("  2 What a tool call is")),
        "one page a line:\n{text}"
    );
    // Another lesson chosen: its pages.
    let _ = press(&mut app, "<Tab><Tab>");
    let text = screen(&app);
    assert!(text.contains("Pages of 02 validate_tool_args"), "{text}");
    // With less room, the pages one after another, cut at the end.
    let app = home_app(Progress::default(), 120, 35);
    let text = screen(&app);
    assert!(text.contains("Pages of 01 Untrusted input"), "{text}");
    assert!(
        text.contains("1 Untrusted input • 2 What a tool call is"),
        "{text}"
    );
}
