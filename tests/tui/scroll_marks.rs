//! A pane scrolled down says what is above it and the key back, as it says what is below;
//! the key bar offers scrolling down only while there is more below, and the drill's side
//! column names its scrolling keys only when something scrolls.

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, options, press, screen};

fn build(name: &str, w: u16, h: u16) -> tooldojo::tui::app::App {
    screens::build(
        name,
        options(ThemeName::Default, false),
        env(),
        tooldojo::course::load_lessons(&Content::embedded()),
        Rect::new(0, 0, w, h),
    )
    .unwrap()
}

fn bar(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

#[test]
fn a_page_scrolled_down_marks_the_lines_above_and_offers_the_way_back_at_its_end() {
    let mut app = build("lesson:03-json-traps#2", 80, 24);
    let text = screen(&app);
    assert!(!text.contains("above: k/PgUp"), "{text}");
    assert!(bar(&text).contains("j/Down scroll down"), "{text}");
    let _ = press(&mut app, "j");
    let text = screen(&app);
    let top = text.lines().next().unwrap_or_default();
    assert!(top.contains("… 1 line above: k/PgUp"), "{text}");
    let _ = press(&mut app, "G");
    let text = screen(&app);
    assert!(text.contains("end of page"), "{text}");
    assert!(!bar(&text).contains("scroll down"), "{text}");
    assert!(bar(&text).contains("k/Up scroll up"), "{text}");
    insta::assert_snapshot!("page_scrolled_to_end_80x24", text);
}

#[test]
fn the_drill_side_column_names_no_scrolling_keys_when_nothing_scrolls() {
    let app = build("rehearse", 160, 45);
    let text = screen(&app);
    assert!(text.contains("This drill"), "{text}");
    assert!(!text.contains("PgUp/PgDn"), "{text}");
}

#[test]
fn with_a_block_focused_the_bar_offers_only_the_page_key_that_moves_at_the_end() {
    let mut app = build("lesson:04-value-constraints#2", 80, 24);
    let _ = press(&mut app, "<Tab>");
    let text = screen(&app);
    assert!(bar(&text).contains("PgDn"), "{text}");
    let _ = press(&mut app, "<PgDn><PgDn><PgDn><PgDn><PgDn><PgDn><PgDn><PgDn>");
    let text = screen(&app);
    assert!(text.contains("end of page"), "{text}");
    assert!(!bar(&text).contains("PgDn"), "{text}");
    assert!(bar(&text).contains("PgUp"), "{text}");
}
