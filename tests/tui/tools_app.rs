//! The Your tools screen inside the app: opened with T from home, predictions on a
//! declaration kept in the progress under the tools file's content hash and shown again
//! when the same file is opened later, the generated run opened in the player over it.

use std::sync::Arc;

use ratatui::layout::Rect;
use tooldojo::course::progress::Progress;
use tooldojo::tools::{ToolSet, ToolsFile};
use tooldojo::tui::app::{App, Update};
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, lessons, options, press, screen};

fn example() -> ToolsFile {
    let text = include_str!("../../fixtures/tools/issue-tracker.json");
    ToolsFile {
        name: "issue-tracker.json".into(),
        set: Arc::new(ToolSet::from_text(text, None).unwrap()),
    }
}

fn app(progress: Progress) -> App {
    let mut opts = options(ThemeName::Default, false);
    opts.home = true;
    App::new(
        opts,
        env(),
        Ok(lessons()),
        progress,
        Rect::new(0, 0, 120, 35),
    )
}

#[test]
fn t_from_home_opens_the_example_and_esc_comes_back() {
    let mut a = app(Progress::default());
    assert_eq!(a.screen().name(), "home");
    press(&mut a, "T");
    assert_eq!(a.screen().name(), "tools");
    assert!(screen(&a).contains("An example file"), "{}", screen(&a));
    press(&mut a, "<Esc>");
    assert_eq!(a.screen().name(), "home");
}

#[test]
fn predictions_are_kept_per_file_by_content_hash() {
    let file = example();
    let hash = file.set.hash.clone().unwrap();
    let mut a = app(Progress::default());
    a.start_tools(file.clone());
    let out = press(&mut a, "<Enter>1<Enter><Enter><Esc>");
    assert!(out.contains(&Update::Save));
    let saved = a.progress_snapshot();
    let kept = &saved.tools[&hash];
    assert_eq!(kept.file, "issue-tracker.json");
    assert!(
        kept.predict.contains_key("tools[0] search_issues"),
        "{kept:?}"
    );
    // A later session on the same file shows the revealed row again.
    let mut b = app(saved);
    b.start_tools(file);
    press(&mut b, "<Enter>");
    let text = screen(&b);
    assert!(text.contains("1 of 36 revealed"), "{text}");
}

#[test]
fn t_plays_the_generated_run_over_the_screen() {
    let mut a = app(Progress::default());
    a.start_tools(example());
    press(&mut a, "t");
    assert_eq!(a.screen().name(), "player");
    assert!(screen(&a).contains("search_issues"));
    // At the end, the trap that got through is marked once, with its fix.
    press(&mut a, &"l".repeat(40));
    let text = screen(&a);
    assert!(
        text.contains("let through: extra key: note; fix:"),
        "{text}"
    );
    assert!(!text.contains("let through: let through"), "{text}");
    press(&mut a, "<Esc>");
    assert_eq!(a.screen().name(), "tools");
}
