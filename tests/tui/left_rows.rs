//! What is left of a lesson is read whole where there is room: on the home screen the chosen
//! lesson's row (or every row, when all fit so) wraps it under itself, and the lesson list
//! does the same for the open lesson, at 80x24, 120x35 and 160x45.

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::course::progress::Progress;
use tooldojo::tui::app::App;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, options, press, screen};

const LESSON: &str = "12-parallel-and-partial";

/// Lesson 12 left at page 5 with blocks to do on three pages and page 6 unread.
fn progress() -> Progress {
    serde_json::from_value(serde_json::json!({
        "version": 1,
        "current": {"lesson": LESSON, "page": 4},
        "lessons": {LESSON: {
            "pages_seen": [0, 1, 2, 3, 4],
            "pending": ["1/0", "2/0", "2/1", "4/0", "4/1"],
            "left": {
                "1/0": "the trace (play it to the end)",
                "2/0": "the trace (play it to the end)",
                "2/1": "the quiz (the right answer)",
                "4/0": "the trace (play it to the end)",
                "4/1": "the explain question (compare with c)"
            },
            "last_page": 4
        }}
    }))
    .expect("a progress file")
}

fn home(w: u16, h: u16) -> App {
    let lessons = tooldojo::course::load_lessons(&Content::embedded()).expect("shipped lessons");
    let mut opts = options(ThemeName::Default, false);
    opts.home = true;
    App::new(opts, env(), Ok(lessons), progress(), Rect::new(0, 0, w, h))
}

/// The text from the first `mark` of the row `down` rows under the one of `title`, with the
/// rows it wraps onto (rows with nothing but the frame before that column) up to the one
/// that holds `stop`, each cut at the first double space or border.
fn wrapped_from(text: &str, title: &str, down: usize, mark: char, stop: &str) -> String {
    let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let at = lines
        .iter()
        .position(|l| l.iter().collect::<String>().contains(title))
        .unwrap_or_else(|| panic!("{title}:\n{text}"));
    let row = at + down;
    let col = lines[row]
        .iter()
        .position(|c| *c == mark)
        .unwrap_or_else(|| panic!("{mark}:\n{text}"));
    let mut parts = Vec::new();
    for (k, line) in lines[row..].iter().enumerate() {
        let before: String = line[..col].iter().collect();
        if k > 0 && before.chars().any(|c| !c.is_whitespace() && c != '│') {
            break;
        }
        let rest: String = line[col..].iter().collect();
        let part = rest.split("  ").next().unwrap_or_default();
        let part = part.split('│').next().unwrap_or_default().trim().to_owned();
        if part.is_empty() {
            break;
        }
        let last = part.contains(stop);
        parts.push(part);
        if last {
            break;
        }
    }
    parts.join(" ")
}

#[test]
fn the_home_screen_shows_all_that_is_left_of_the_chosen_lesson() {
    for (w, h) in [(80, 24), (120, 35), (160, 45)] {
        let app = home(w, h);
        let summary = app.left_summary(11).expect("lesson 12 is started");
        assert!(summary.ends_with("unread (page 6)"), "{summary}");
        let text = screen(&app);
        let row = wrapped_from(&text, "12 Parallel and partial  ", 0, '◐', "6)");
        assert_eq!(row, format!("◐ {summary}"), "{w}x{h}:\n{text}");
        // Chosen by moving to it from another row, too.
        let mut app = home(w, h);
        let _ = press(&mut app, "<Tab><S-Tab>");
        assert_eq!(app.home_sel(), 0, "back on Continue");
        let _ = press(&mut app, &"<Tab>".repeat(12));
        let text = screen(&app);
        let row = wrapped_from(&text, "12 Parallel and partial  ", 0, '◐', "6)");
        assert_eq!(row, format!("◐ {summary}"), "{w}x{h} selected:\n{text}");
    }
}

#[test]
fn the_lesson_list_shows_all_that_is_left_of_the_open_lesson() {
    for (w, h) in [(80, 24), (120, 35), (160, 45)] {
        let mut app = home(w, h);
        let _ = press(&mut app, "<Enter>");
        if w < 100 {
            let _ = press(&mut app, "s");
        }
        assert!(app.sidebar_visible(), "{w}x{h}");
        let summary = app.left_summary(11).expect("lesson 12 is started");
        let text = screen(&app);
        let status = wrapped_from(&text, "│▶ Parallel and partial", 1, '◐', "min");
        // The study time ends the last row, or takes one of its own.
        assert_eq!(
            status.replace(" • ", " "),
            format!("◐ {summary} 15 min"),
            "{w}x{h}:\n{text}"
        );
    }
}

#[test]
fn a_click_on_a_wrapped_line_of_a_lesson_row_opens_that_lesson() {
    let mut app = home(80, 24);
    let text = screen(&app);
    let row = text
        .lines()
        .position(|l| l.contains("12 Parallel and partial  "))
        .expect("lesson 12's row");
    let click = crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
        column: 50,
        row: u16::try_from(row + 2).unwrap(),
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    let _ = app.update(tooldojo::tui::app::Input::Mouse(click));
    assert_eq!((app.screen().name(), app.lesson()), ("lesson", 11));
}
