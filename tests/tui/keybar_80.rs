//! The key bar at 80x24, the smallest usual terminal and a projector's: every screen names
//! how to quit and how to reach the help (or, inside an entered block, the way back to
//! where `?` works), and a page that scrolls names how to scroll. Every named screen is
//! drawn, and every page and block of the shipped course, focused and entered.

use crate::tui_common;

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::course::load_lessons;
use tooldojo::tui::app::{App, Focus, Options};
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;
use tui_common::*;

const W: u16 = 80;
const H: u16 = 24;

/// The looks a class may use: the usual one, plain ASCII without colour, the presenter's.
fn looks() -> Vec<(&'static str, Options)> {
    let mut demo = options(ThemeName::Projector, false);
    demo.demo = true;
    vec![
        ("default", options(ThemeName::Default, false)),
        ("ascii mono", options(ThemeName::Mono, true)),
        ("present", demo),
    ]
}

/// The bar's rows: the last two lines of the screen (a bar takes one or two).
fn bar_of(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(2)..].join("\n")
}

/// Check the bar of `app`; `what` names the screen in a failure.
fn check(app: &App, what: &str) {
    let text = screen(app);
    let bar = bar_of(&text);
    let quits = bar.contains(" q quit ") || bar.contains(" Ctrl-C quit ");
    assert!(quits, "{what}: no way to quit in the key bar\n{text}");
    let help = bar.contains(" ? help")
        || bar.contains(" Esc/? close help")
        || (bar.contains(" Ctrl-C quit ") && bar.contains(" Esc "));
    assert!(help, "{what}: no way to the help in the key bar\n{text}");
    // The page's own border says when it scrolls ("lines 1-21 of 30 → more below"); with
    // the lesson list or an entered block holding the keys, scrolling is not theirs to offer.
    let scrolls = text
        .lines()
        .any(|l| l.contains(" lines ") && l.contains("more below"));
    let page_keys = matches!(app.focus(), Focus::Page | Focus::Block(_)) && !app.active();
    if scrolls && page_keys {
        assert!(
            bar.contains("scroll"),
            "{what}: the page scrolls but the key bar does not say how\n{text}"
        );
    }
}

#[test]
fn every_named_screen_names_quit_and_help_at_80_columns() {
    let content = Content::embedded();
    let lessons = load_lessons(&content).expect("shipped lessons");
    let names = screens::names(&lessons, &screens::scenario_names(&env()));
    assert!(names.len() > 20, "{names:?}");
    for (look, opts) in looks() {
        // The full-screen trace player draws its own keys along its frame.
        for name in names.iter().filter(|n| !n.starts_with("trace:")) {
            let app = screens::build(
                name,
                opts.clone(),
                env(),
                Ok(lessons.clone()),
                Rect::new(0, 0, W, H),
            )
            .unwrap();
            check(&app, &format!("{name} ({look})"));
        }
    }
}

#[test]
fn every_page_and_block_of_the_course_names_quit_and_help_at_80_columns() {
    let content = Content::embedded();
    let lessons = load_lessons(&content).expect("shipped lessons");
    for (look, opts) in looks() {
        for lesson in &lessons {
            let pages = lesson.parsed.as_ref().map_or(1, |l| l.pages.len());
            for page in 1..=pages {
                let name = format!("lesson:{}#{page}", lesson.id);
                let mut app = screens::build(
                    &name,
                    opts.clone(),
                    env(),
                    Ok(lessons.clone()),
                    Rect::new(0, 0, W, H),
                )
                .unwrap();
                check(&app, &format!("{name} ({look})"));
                // Each block in turn: focused, then entered.
                let mut seen = Vec::new();
                for _ in 0..30 {
                    let _ = press(&mut app, "<Tab>");
                    let Focus::Block(n) = app.focus() else { break };
                    if seen.contains(&n) {
                        break;
                    }
                    seen.push(n);
                    check(&app, &format!("{name} block {n} focused ({look})"));
                    let _ = press(&mut app, "<Enter>");
                    check(&app, &format!("{name} block {n} entered ({look})"));
                    let _ = press(&mut app, "<Esc>");
                }
            }
        }
    }
}

#[test]
fn the_lesson_list_and_the_help_name_quit_and_help_at_80_columns() {
    for (look, opts) in looks() {
        let mut app = App::new(
            opts,
            env(),
            Ok(lessons()),
            tooldojo::course::progress::Progress::default(),
            Rect::new(0, 0, W, H),
        );
        let _ = press(&mut app, "s");
        check(&app, &format!("lesson list shown ({look})"));
        let _ = press(&mut app, "h");
        check(&app, &format!("lesson list focused ({look})"));
        let _ = press(&mut app, "?");
        check(&app, &format!("help ({look})"));
    }
}
