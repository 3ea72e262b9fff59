//! The faces modules show each other: only `tui` and `cli` know the screens, the command
//! line reaches the app only through `tui::run(Config)` and `tui::render`, and only the
//! command line knows clap.

use super::scan::{code_only, module_uses, tokens};
use super::{Source, read_sources, references, src_root};

/// Who may use `crate::tui`.
const TUI_USERS: &[&str] = &["tui", "cli"];

/// What of `tui` the command line may name: the two ways in and the plain values a
/// `Config` is made of.
const CLI_FACE: &[&str] = &["run", "render", "Config", "Play", "ThemeName"];

/// Modules still deriving clap themselves, in the middle of their own rewrite: allowed
/// while they do (the check fails once one is clean, to be taken off this list).
const CLAP_PENDING: &[&str] = &[];

fn top(s: &Source) -> Option<&str> {
    s.module.first().map(String::as_str)
}

/// Files outside `tui` and `cli` that use `tui`.
fn tui_users(sources: &[Source]) -> Vec<String> {
    sources
        .iter()
        .filter(|s| top(s).is_some_and(|m| !TUI_USERS.contains(&m)))
        .filter(|s| references(&s.text, s.module.len()).contains("tui"))
        .map(|s| {
            format!(
                "{}: uses crate::tui; only {} may (the screens sit on top of the core)",
                s.display,
                TUI_USERS.join(" and ")
            )
        })
        .collect()
}

/// Paths from `cli` into `tui` past its face.
fn past_the_face(sources: &[Source]) -> Vec<String> {
    let is_module = |p: &[String]| sources.iter().any(|s| s.module == p);
    let mut out = Vec::new();
    for s in sources.iter().filter(|s| top(s) == Some("cli")) {
        for path in module_uses(&s.text, &s.module, &is_module) {
            if path.first().is_none_or(|m| m != "tui") {
                continue;
            }
            let ok = path.get(1).is_some_and(|n| CLI_FACE.contains(&n.as_str()));
            if !ok {
                out.push(format!(
                    "{}: reaches crate::{} past the app's face (tui::{})",
                    s.display,
                    path.join("::"),
                    CLI_FACE.join(", tui::")
                ));
            }
        }
    }
    out
}

/// Files outside `cli` that name clap.
fn clap_users(sources: &[Source]) -> Vec<(String, String)> {
    sources
        .iter()
        .filter(|s| top(s).is_some_and(|m| m != "cli"))
        .filter(|s| tokens(&code_only(&s.text)).iter().any(|t| t == "clap"))
        .map(|s| {
            (
                top(s).unwrap_or_default().to_owned(),
                format!(
                    "{}: names clap; only src/cli/ knows flags (spell a core enum for the command line in cli/spelling.rs)",
                    s.display
                ),
            )
        })
        .collect()
}

#[test]
fn only_the_app_and_the_command_line_know_the_screens() {
    let bad = tui_users(&read_sources(&src_root()));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_command_line_reaches_the_app_only_through_run_and_render() {
    let bad = past_the_face(&read_sources(&src_root()));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn only_the_command_line_knows_clap() {
    let mut bad = clap_users(&read_sources(&src_root()));
    for pending in CLAP_PENDING {
        let before = bad.len();
        bad.retain(|(m, _)| m != pending);
        assert!(
            bad.len() < before,
            "{pending} no longer names clap: take it off CLAP_PENDING in tests/core/architecture/faces.rs"
        );
    }
    let bad: Vec<String> = bad.into_iter().map(|(_, m)| m).collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn source(display: &str, module: &[&str], text: &str) -> Source {
    Source {
        display: display.to_owned(),
        module: module.iter().map(|m| m.to_string()).collect(),
        text: text.to_owned(),
    }
}

#[test]
fn planted_violations_of_the_faces_are_reported() {
    let sources = [
        source("src/tui/mod.rs", &["tui"], "pub fn run() {}"),
        source("src/tui/screens.rs", &["tui", "screens"], ""),
        source("src/tui/render.rs", &["tui", "render"], ""),
        source(
            "src/course/done.rs",
            &["course", "done"],
            "use crate::tui::theme::Theme;",
        ),
        source(
            "src/cli/render.rs",
            &["cli", "render"],
            "use crate::tui::render;\nfn f() { crate::tui::run(c); let a = crate::tui::screens::build(); }",
        ),
        source(
            "src/cli/play.rs",
            &["cli", "play"],
            "use crate::tui::{Config, app::App};",
        ),
        source(
            "src/replay/run.rs",
            &["replay", "run"],
            "#[derive(clap::ValueEnum)] enum X {}",
        ),
        source("src/cli/mod.rs", &["cli"], "use clap::Parser;"),
        source(
            "src/content/mod.rs",
            &["content"],
            "// clap in a comment is fine\nconst S: &str = \"clap\";",
        ),
    ];
    let users = tui_users(&sources);
    assert_eq!(users.len(), 1, "{users:#?}");
    assert!(users[0].starts_with("src/course/done.rs: uses crate::tui"));
    let past = past_the_face(&sources);
    assert_eq!(past.len(), 2, "{past:#?}");
    assert!(past[0].contains("crate::tui::screens::build"), "{past:#?}");
    assert!(
        past[1].starts_with("src/cli/play.rs: reaches crate::tui::app::App"),
        "{past:#?}"
    );
    let clap = clap_users(&sources);
    assert_eq!(clap.len(), 1, "{clap:#?}");
    assert!(clap[0].1.starts_with("src/replay/run.rs: names clap"));
}
