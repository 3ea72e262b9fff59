//! Snapshots of the Your tools screen on our own small tools file (the shipped example,
//! `fixtures/tools/issue-tracker.json`): the browse view at 80x24, 120x35 and 160x45, the
//! projector theme in ASCII, and its predict, playground and fix views.

use tooldojo::content::Content;
use tooldojo::tui::Config;
use tooldojo::tui::theme::ThemeName;

fn render(name: &str, w: u16, h: u16, theme: Option<ThemeName>, ascii: bool) -> String {
    let mut config = Config::new(Content::embedded());
    config.theme = theme;
    config.ascii = ascii;
    tooldojo::tui::render::screen(&config, name, w, h).unwrap()
}

#[test]
fn tools_80x24() {
    insta::assert_snapshot!(render("tools", 80, 24, None, false));
}

#[test]
fn tools_120x35() {
    insta::assert_snapshot!(render("tools", 120, 35, None, false));
}

#[test]
fn tools_160x45() {
    insta::assert_snapshot!(render("tools", 160, 45, None, false));
}

#[test]
fn tools_80x24_projector_ascii() {
    insta::assert_snapshot!(render("tools", 80, 24, Some(ThemeName::Projector), true));
}

#[test]
fn tools_predict_120x35() {
    insta::assert_snapshot!(render("tools:predict", 120, 35, None, false));
}

#[test]
fn tools_playground_120x35() {
    insta::assert_snapshot!(render("tools:playground", 120, 35, None, false));
}

#[test]
fn tools_fixes_80x24() {
    insta::assert_snapshot!(render("tools:fixes", 80, 24, None, false));
}
