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

/// In one column (under 110 columns) the arguments box takes the rows the verdict and the
/// rules leave: no blank rows under the rules.
#[test]
fn tools_playground_100x30_fills_its_screen() {
    let text = render("tools:playground", 100, 30, None, false);
    let lines: Vec<&str> = text.lines().collect();
    let bottom = lines.iter().rposition(|l| l.contains('╰')).unwrap();
    let above = lines[bottom - 1];
    assert!(above.contains("value constraints"), "{text}");
    // The box holds the arguments and more than the least rows to type in.
    let top = lines
        .iter()
        .position(|l| l.contains("╭ arguments"))
        .unwrap();
    let end = lines
        .iter()
        .skip(top)
        .position(|l| l.contains("╰─"))
        .unwrap();
    assert!(end > 8, "{text}");
    insta::assert_snapshot!(text);
}

/// A wide window lays the fixed declaration out to its width: the whole of it shows,
/// each line a fix added or changed marked `+`.
#[test]
fn tools_fixes_160x45_shows_the_whole_declaration() {
    let text = render("tools:fixes", 160, 45, None, false);
    assert!(!text.contains("more lines below"), "{text}");
    assert!(
        text.contains(r#" +     "additionalProperties": false"#),
        "{text}"
    );
    assert!(
        text.contains(r#"       "required": ["repo", "query"],"#),
        "{text}"
    );
    insta::assert_snapshot!(text);
}
