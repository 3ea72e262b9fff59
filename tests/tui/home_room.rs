//! A big window shows more of the home screen, never less: the chosen lesson's pages whole
//! under it where the room holds them, the rows left over naming other lessons' pages whole
//! (and those still cut saying how many more), titles as wide as they are, a list that
//! scrolls saying what it scrolled past on both sides, and the lesson list of a page keeping
//! a column free inside its border; what is left of a lesson wraps before a bracket, never
//! inside.

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::content::lessons::{Lesson, Page};
use tooldojo::course::LessonEntry;
use tooldojo::course::progress::Progress;
use tooldojo::tui::app::App;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, md, options, press, screen};

/// The shipped course with lesson 6 begun: Continue opens it, so it is the chosen lesson.
fn begun() -> Progress {
    crate::tui_common::lesson_six_begun()
}

fn home(w: u16, h: u16, lessons: Vec<LessonEntry>) -> App {
    let mut opts = options(ThemeName::Default, false);
    opts.home = true;
    App::new(opts, env(), Ok(lessons), begun(), Rect::new(0, 0, w, h))
}

fn shipped() -> Vec<LessonEntry> {
    tooldojo::course::load_lessons(&Content::embedded()).expect("shipped lessons")
}

/// The screen's text with runs of spaces and the frame's bars folded to one space.
fn folded(text: &str) -> String {
    text.replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_tall_window_names_every_page_of_the_chosen_lesson_whole() {
    for (w, h) in [(160, 50), (200, 50)] {
        let app = home(w, h, shipped());
        let text = screen(&app);
        let at = text
            .lines()
            .position(|l| l.contains("06 get_ticket contract   30 min"))
            .expect("lesson 6's row");
        let next = text
            .lines()
            .position(|l| l.contains("07 Tenant scope"))
            .expect("lesson 7's row");
        // Its pages, on the rows between it and the next lesson.
        let pages: String = (text.lines().skip(at + 1).take(next - at - 1))
            .collect::<Vec<_>>()
            .join(" ");
        let pages = folded(&pages);
        assert!(!pages.contains('…'), "{w}x{h}:\n{text}");
        for title in [
            "The contract",
            "JavaScript's shape traps",
            "Try your own",
            "Recap",
        ] {
            assert!(pages.contains(title), "{w}x{h}: {title}:\n{text}");
        }
        insta::assert_snapshot!(format!("home_chosen_pages_{w}x{h}"), text);
    }
}

/// The rows from the "Lessons" heading down to the keys, without the guide beside them
/// in a wide window.
fn list_rows(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let top = (lines.iter().position(|l| l.contains("Lessons"))).expect("the heading");
    let keys = (lines.iter().rposition(|l| l.contains("Tab moves"))).expect("the keys");
    // The guide's first column and its last row.
    let guide =
        (lines.iter()).find_map(|l| l.find("How a lesson works").map(|b| l[..b].chars().count()));
    let guide_end = (lines.iter()).position(|l| l.contains("every block is done."));
    (top + 1..keys)
        .map(|y| match (guide, guide_end) {
            (Some(g), Some(end)) if y <= end => lines[y].chars().take(g - 2).collect(),
            _ => lines[y].to_owned(),
        })
        .collect()
}

#[test]
fn a_tall_narrow_window_shares_its_spare_rows_among_the_lessons_pages() {
    let lessons = shipped();
    for (w, h) in [
        (80, 60),
        (100, 60),
        (80, 50),
        (80, 48),
        (160, 48),
        (160, 50),
    ] {
        let mut app = home(w, h, shipped());
        // The chosen lesson first (the one Continue opens), then each lesson chosen in turn.
        for step in 0..=lessons.len() {
            if step > 0 {
                let _ = press(&mut app, "<Tab>");
            }
            let text = screen(&app);
            let rows = list_rows(&text);
            let blank = rows.iter().filter(|l| folded(l).is_empty()).count();
            let cut: Vec<&String> = rows.iter().filter(|l| l.contains('…')).collect();
            // The rows the window has to spare hold pages: only the one above the keys
            // is blank while some lesson's pages are not named whole.
            if !cut.is_empty() {
                assert_eq!(blank, 1, "{w}x{h}, step {step}:\n{text}");
            }
            // A lesson whose pages are not all named says how many more it has.
            for l in &cut {
                let (_, after) = l.split_once("… ").expect("the count");
                let n: String = after.chars().take_while(char::is_ascii_digit).collect();
                assert!(
                    !n.is_empty() && after[n.len()..].starts_with(" more"),
                    "{w}x{h}: {l}\n{text}"
                );
            }
            // The chosen lesson names every page whole.
            let i = if step == 0 { 5 } else { step - 1 };
            let lesson = lessons[i].parsed.as_ref().expect("a shipped lesson");
            let head: String = format!("{} {}", &lessons[i].id[..2], lesson.title)
                .chars()
                .take(14)
                .collect();
            let at = (rows.iter())
                .position(|l| l.contains(&head) && l.contains(" min "))
                .expect("the chosen lesson's row");
            let under: Vec<&str> = (rows[at + 1..].iter())
                .take_while(|l| !l.contains(" min  ") && !folded(l).is_empty())
                .map(String::as_str)
                .collect();
            let pages = folded(&under.join(" "));
            assert!(!pages.contains('…'), "{w}x{h}, lesson {i}:\n{text}");
            let named = |p: &&Page| !p.title.eq_ignore_ascii_case(&lesson.title);
            for p in lesson.pages.iter().filter(named) {
                assert!(pages.contains(&p.title), "{w}x{h}: {}:\n{text}", p.title);
            }
        }
    }
}

#[test]
fn the_pages_under_a_short_list_take_the_width_below_the_guide() {
    let app = home(120, 35, shipped());
    let text = folded(&screen(&app));
    let at = text.find("Pages of 06").expect("the chosen lesson's pages");
    assert!(!text[at..].contains('…'), "{text}");
    assert!(text[at..].contains("9 Recap"), "{text}");
}

#[test]
fn a_scrolled_lesson_list_says_how_many_lessons_are_above() {
    let mut app = home(80, 24, shipped());
    let _ = press(&mut app, "<S-Tab>");
    let text = screen(&app);
    assert!(text.contains("17 Checklist, interview"), "{text}");
    assert!(text.contains("Lessons  7 more above → Shift-Tab"), "{text}");
    let _ = press(&mut app, &"<S-Tab>".repeat(4));
    let text = screen(&app);
    assert!(
        text.contains("more above, ") && text.contains(" more below"),
        "{text}"
    );
    insta::assert_snapshot!("home_scrolled_80x24", text);
}

#[test]
fn the_blank_row_above_the_keys_goes_to_the_list_when_it_is_all_the_list_lacks() {
    // At 100x30 the list is one row short of the 17 lessons: the blank row holds lesson 17.
    let text = screen(&home(100, 30, shipped()));
    assert!(text.contains("17 Checklist, interview"), "{text}");
    assert!(!text.contains("more below"), "{text}");
    let rows: Vec<&str> = text.lines().collect();
    let last = rows
        .iter()
        .position(|l| l.contains("17 Checklist"))
        .unwrap();
    assert!(rows[last + 1].contains("Tab moves"), "{text}");
    // Shorter still, the blank row stays and the list says what is below.
    let text = screen(&home(100, 29, shipped()));
    assert!(text.contains(" more below"), "{text}");
    let rows: Vec<&str> = text.lines().collect();
    let keys = rows.iter().position(|l| l.contains("Tab moves")).unwrap();
    assert_eq!(
        rows[keys - 1].trim_matches(|c| c == '│' || c == ' '),
        "",
        "{text}"
    );
}

/// A lesson of one page, ten minutes long.
fn one_page(id: &str, title: &str) -> LessonEntry {
    LessonEntry::from_lesson(Lesson {
        id: id.into(),
        title: title.into(),
        minutes: 10,
        file: format!("lessons/{id}.md"),
        pages: vec![Page {
            title: "One".into(),
            items: vec![md("Text.\n")],
        }],
    })
}

/// The row of lesson 02 in the list.
fn row_of_02(text: &str) -> &str {
    (text.lines())
        .find(|l| l.contains(" 02 ") && l.contains(" min "))
        .expect("lesson 2's row")
}

#[test]
fn a_long_lesson_title_takes_the_room_a_wide_window_has() {
    // The long title is the second lesson's, so only its own row can name it (Start names
    // the first).
    let long = "Validating what a model proposes, field by field";
    let lessons = || vec![one_page("01-intro", "Intro"), one_page("02-long", long)];
    for (w, h) in [(160, 45), (200, 50)] {
        let text = screen(&home(w, h, lessons()));
        let row: Vec<char> = row_of_02(&text).chars().collect();
        // The guide beside the map starts here; the two columns before it are the gap.
        let guide = (text.lines())
            .find_map(|l| l.find("How a lesson works").map(|b| l[..b].chars().count()))
            .expect("the guide beside the map");
        let map: String = row[..guide - 2].iter().collect();
        let gap: String = row[guide - 2..guide].iter().collect();
        // Whole, with what is left of it beside it, inside the map's column.
        let whole = format!("02 {long}  10 min  ○ to do");
        assert!(map.contains(&whole), "{w}x{h}: {map:?}\n{text}");
        assert_eq!(gap, "  ", "{w}x{h}:\n{text}");
        assert!(!map.contains('…'), "{w}x{h}:\n{text}");
    }
    // In a narrower window it is cut, but what is left of it keeps room beside it and the
    // row stays inside the frame.
    for (w, h) in [(120, 35), (80, 24)] {
        let text = screen(&home(w, h, lessons()));
        let row = row_of_02(&text);
        assert!(
            row.contains("02 Validating what a model"),
            "{w}x{h}:\n{text}"
        );
        assert!(row.contains("…  10 min  ○ to do"), "{w}x{h}:\n{text}");
        assert!(row.ends_with('│'), "{w}x{h}:\n{text}");
        assert_eq!(row.chars().count(), usize::from(w), "{w}x{h}:\n{text}");
    }
}

#[test]
fn the_lesson_list_of_a_page_keeps_a_column_free_inside_its_border() {
    for (w, h) in [(120, 35), (160, 45)] {
        let mut app = home(w, h, shipped());
        let _ = press(&mut app, "<Enter>");
        assert!(app.sidebar_visible(), "{w}x{h}");
        let text = screen(&app);
        let right = text
            .lines()
            .next()
            .and_then(|l| l.chars().position(|c| c == '╮'))
            .expect("the list's top right corner");
        for line in text.lines().skip(1).take(usize::from(h) - 3) {
            let chars: Vec<char> = line.chars().collect();
            assert_eq!(chars[right], '│', "{w}x{h}:\n{text}");
            assert_eq!(chars[right - 1], ' ', "{w}x{h}: {line}\n{text}");
        }
    }
}

#[test]
fn what_is_left_wraps_before_a_bracket_not_inside_it() {
    // Lesson 6 with its page 2 unread and a quiz left on page 4: at 120 columns the words
    // wrap, and "(page 2)" goes to the next line whole.
    let progress: Progress = serde_json::from_value(serde_json::json!({
        "version": 1,
        "current": {"lesson": "06-get-ticket-contract", "page": 2},
        "lessons": {"06-get-ticket-contract": {
            "pages_seen": [0, 2, 3, 4, 5, 6, 7, 8], "last_page": 2,
            "pending": ["3/0"], "left": {"3/0": "the quiz"}}}
    }))
    .expect("a progress file");
    let mut opts = options(ThemeName::Default, false);
    opts.home = true;
    let app = App::new(
        opts,
        env(),
        Ok(shipped()),
        progress,
        Rect::new(0, 0, 120, 35),
    );
    let text = screen(&app);
    let at = text
        .lines()
        .position(|l| l.contains("2 left: the quiz (page 4), unread"))
        .expect("lesson 6's row");
    let row = text.lines().nth(at).unwrap();
    assert!(!row.contains("unread (page"), "{text}");
    let next = text.lines().nth(at + 1).unwrap();
    assert!(
        next.trim_start_matches('│')
            .trim_start()
            .starts_with("(page 2)"),
        "{text}"
    );
}

#[test]
fn a_tall_window_shows_how_the_chosen_lesson_begins_in_the_rows_its_pages_leave() {
    // At 160x45 the chosen lesson (6, begun) has its pages named whole and rows to spare.
    let text = screen(&home(160, 45, shipped()));
    let flat = folded(&text);
    let at = flat
        .find("How it begins")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        flat[at..].contains("Time to put the pieces together in one small, complete tool."),
        "{text}"
    );
    assert!(flat.find("Pages of 06").is_some_and(|p| p < at), "{text}");
    // Where the pages take the room, the opening is not squeezed in.
    for (w, h) in [(120, 35), (100, 30), (80, 24)] {
        let text = screen(&home(w, h, shipped()));
        assert!(!text.contains("How it begins"), "{w}x{h}:\n{text}");
    }
}
