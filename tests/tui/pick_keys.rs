//! A block or screen that takes a digit names only the digits that pick something: `1-4
//! pick` on a quiz of four choices, `1-5/Left/Right` on a predict row of five outcomes,
//! `1-2` on a checklist of two items, and in the drill as many as the question offers.

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, options, press, screen};

/// The test lessons' page `name` at 160x45, after `keys`; returns the key bar.
fn bar_after(name: &str, keys: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lessons");
    let lessons = tooldojo::course::load_lessons(&Content::new(Some(&dir), None));
    let mut app = screens::build(
        name,
        options(ThemeName::Default, false),
        env(),
        lessons,
        Rect::new(0, 0, 160, 45),
    )
    .unwrap();
    let _ = press(&mut app, keys);
    let text = screen(&app);
    text.lines().last().unwrap_or_default().to_owned()
}

#[test]
fn a_quiz_of_four_choices_offers_the_digits_one_to_four() {
    let bar = bar_after("lesson:01-reading#2", "<Tab>");
    assert!(bar.contains("1-4 pick"), "{bar}");
    let bar = bar_after("lesson:01-reading#2", "<Tab><Enter>");
    assert!(bar.contains("Enter/1-4 pick"), "{bar}");
    assert!(!bar.contains("1-9"), "{bar}");
}

#[test]
fn a_predict_row_offers_as_many_digits_as_it_has_outcomes() {
    let bar = bar_after("lesson:01-reading#1", "<Tab><Enter>");
    assert!(bar.contains("1-5/Left/Right pick"), "{bar}");
}

#[test]
fn a_checklist_of_two_items_offers_two_digits() {
    let bar = bar_after("lesson:02-trying#2", "<Tab><Tab><Tab><Enter>");
    assert!(bar.contains("1-2 tick item N"), "{bar}");
}

#[test]
fn the_drill_offers_as_many_digits_as_the_question_has_choices() {
    let app = screens::build(
        "rehearse",
        options(ThemeName::Default, false),
        env(),
        tooldojo::course::load_lessons(&Content::embedded()),
        Rect::new(0, 0, 120, 35),
    )
    .unwrap();
    let text = screen(&app);
    let choices = text
        .lines()
        .filter(|l| {
            let l = l.trim_start_matches([' ', '▶']).trim_start();
            l.len() > 2 && l.as_bytes()[0].is_ascii_digit() && l.as_bytes()[1] == b' '
        })
        .count();
    assert!(choices >= 2, "{text}");
    let bar = text.lines().last().unwrap_or_default();
    assert!(
        bar.contains(&format!("1-{choices} pick")),
        "{choices}: {bar}"
    );
}
