//! A playground in a big window: the arguments editor about ten rows beside the verdict,
//! and the rules with the rows that flip across the whole width beneath them, not in a
//! side column: the Your tools playground and a lesson's validator playground at 160x45.

use ratatui::layout::Rect;
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, lessons, options, press, screen};

fn app(name: &str, keys: &str) -> String {
    let mut app = screens::build(
        name,
        options(ThemeName::Default, false),
        env(),
        Ok(lessons()),
        Rect::new(0, 0, 160, 45),
    )
    .unwrap();
    let _ = press(&mut app, keys);
    screen(&app)
}

/// The column where `what` starts on the row that holds it.
fn column_of(text: &str, what: &str) -> usize {
    let line = text
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("{what}:\n{text}"));
    line[..line.find(what).unwrap()].chars().count()
}

#[test]
fn the_tools_playground_puts_the_rules_and_flips_under_the_editor() {
    let text = app("tools:playground", "<Tab><Down><Down> ");
    let rules = column_of(&text, "Rules (Space");
    let editor = column_of(&text, "╭ arguments");
    assert!(rules <= editor + 1, "rules under the editor:\n{text}");
    let rows = text
        .lines()
        .position(|l| l.contains("Rules (Space"))
        .unwrap();
    let ed_top = text
        .lines()
        .position(|l| l.contains("╭ arguments"))
        .unwrap();
    assert!(rows - ed_top <= 14, "an editor of about ten rows:\n{text}");
    insta::assert_snapshot!("tools_playground_rule_off_160x45", text);
}

#[test]
fn the_validator_playground_gives_the_flips_the_whole_width() {
    let text = app("playground:validator", "<Enter><Tab><Down><Down> ");
    let flips = column_of(&text, "Without the type check");
    assert!(
        flips < 40,
        "the flips beside the rules, from the left:\n{text}"
    );
    insta::assert_snapshot!("validator_playground_rule_off_160x45", text);
}
