//! The learner's help (`?`) lists every key that works on the screen under it: the home
//! screen, the page, the lesson list, and each kind of block, focused and entered (an
//! entered block in presenter mode too). A key an entered block leaves alone goes on to the
//! page and is listed there; the keys a block names for itself do something; Ctrl-F and
//! Ctrl-B are listed where they scroll; `A` where it opens the audit of the log.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use tooldojo::audit::Limits;
use tooldojo::audit::listing::Listing;
use tooldojo::content::Content;
use tooldojo::course::progress::Progress;
use tooldojo::tui::app::{App, Input, Options};
use tooldojo::tui::theme::{Theme, ThemeName};

use crate::present_app::{every_plain_key, key_works, keys_named};
use crate::tui_common::{press, screen};

/// The test lessons at 80x24, on the home screen or in `lesson`, given the shipped log.
fn app(lesson: Option<&str>, demo: bool, audit: bool) -> App {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lessons");
    let content = Content::new(Some(&dir), None);
    let lessons = tooldojo::course::load_lessons(&content);
    let records = tooldojo::executor::cases::tickets(&Content::embedded()).unwrap();
    let mut opts = Options::new(Theme::new(ThemeName::Default, false));
    opts.home = lesson.is_none();
    opts.demo = demo;
    opts.lesson = lesson.map(str::to_owned);
    let mut app = App::new(
        opts,
        tooldojo::course::BlockEnv::new(content, records, 0),
        lessons,
        Progress::default(),
        Rect::new(0, 0, 80, 24),
    );
    if audit {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/audit/support-desk.jsonl");
        let log = std::fs::read_to_string(path).expect("the shipped log");
        app.set_audit_log(Listing::from_text(
            "support-desk.jsonl",
            Arc::from(log),
            Limits::default(),
        ));
    }
    app
}

/// The screen after Ctrl with `c`, or after `key`, from the app `open` builds.
fn after(open: &dyn Fn() -> App, key: KeyEvent) -> String {
    let mut app = open();
    let _ = app.update(Input::Key(key));
    screen(&app)
}

/// What is wrong with the help of the app `open` builds: keys among `checked` that work but
/// are not listed, keys the help lists in `section` that do nothing anywhere, Ctrl-F and Ctrl-B not
/// listed with PgDn and PgUp or doing something else, `A` listed where it does nothing or
/// left out where it works, `P` left out where the page has the keys.
fn help_problems(
    name: &str,
    open: &dyn Fn() -> App,
    checked: &dyn Fn(KeyCode) -> bool,
    section: &str,
) -> Vec<String> {
    let app = open();
    let help = tooldojo::tui::help::help_lines(&app);
    let listed: Vec<KeyCode> = help.iter().flat_map(|(k, _, _)| keys_named(k)).collect();
    // Typed into an editor, a plain character is text, not a key of the screen.
    let typing = app.takes_text();
    let mut out = Vec::new();
    let unlisted: Vec<KeyCode> = every_plain_key()
        .into_iter()
        // `P` writes a starter into the current directory: it is checked below.
        .filter(|k| !(typing && matches!(k, KeyCode::Char(_))) && *k != KeyCode::Char('P'))
        .filter(|k| checked(*k) && !listed.contains(k) && key_works(open, *k))
        .collect();
    if !unlisted.is_empty() {
        out.push(format!("{name}: {unlisted:?} work but are not in the help"));
    }
    // Scrolling depends on where the page is, and the lesson list on whether it shows: the
    // page's other keys do something wherever they are listed.
    let anywhere: Vec<KeyCode> = "nps?qRA"
        .chars()
        .map(KeyCode::Char)
        .chain([KeyCode::Tab, KeyCode::BackTab])
        .collect();
    let idle: Vec<KeyCode> = help
        .iter()
        .filter(|(_, _, s)| *s == Some(section))
        .flat_map(|(k, _, _)| keys_named(k))
        .filter(|k| anywhere.contains(k) && !key_works(open, *k))
        .collect();
    if !idle.is_empty() {
        out.push(format!(
            "{name}: the help gives {idle:?} under {section}, which do nothing"
        ));
    }
    let named = |label: &str| {
        help.iter()
            .any(|(k, _, _)| k.split('/').any(|p| p == label))
    };
    for (c, label, code, page) in [
        ('f', "Ctrl-F", KeyCode::PageDown, "PgDn"),
        ('b', "Ctrl-B", KeyCode::PageUp, "PgUp"),
    ] {
        let ctrl = after(open, KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
        let plain = after(open, KeyEvent::new(code, KeyModifiers::NONE));
        if named(label) != named(page) || ctrl != plain {
            out.push(format!(
                "{name}: {label} is not listed and working as {page} is"
            ));
        }
    }
    if !typing && !listed.contains(&KeyCode::Char('P')) {
        out.push(format!("{name}: P is not in the help"));
    }
    let audit = listed.contains(&KeyCode::Char('A'));
    if audit != key_works(open, KeyCode::Char('A')) {
        out.push(format!("{name}: A listed {audit}"));
    }
    if !out.is_empty() {
        out.push(format!("{help:?}\n{}", screen(&app)));
    }
    out
}

/// The states the help is checked on: (name, lesson, presenter, keys to the state, entered).
const STATES: [(&str, Option<&str>, bool, &str, bool); 18] = [
    ("home", None, false, "", false),
    ("page", Some("01-reading"), false, "", false),
    ("lesson list", Some("01-reading"), false, "sh", false),
    ("predict", Some("01-reading"), false, "<Tab>", false),
    (
        "predict entered",
        Some("01-reading"),
        false,
        "<Tab><Enter>",
        true,
    ),
    ("quiz", Some("01-reading"), false, "n<Tab>", false),
    (
        "quiz entered",
        Some("01-reading"),
        false,
        "n<Tab><Enter>",
        true,
    ),
    ("validator", Some("02-trying"), false, "<Tab>", false),
    (
        "validator entered",
        Some("02-trying"),
        false,
        "<Tab><Enter>",
        true,
    ),
    ("executor", Some("02-trying"), false, "<Tab><Tab>", false),
    (
        "executor entered",
        Some("02-trying"),
        false,
        "<Tab><Tab><Enter>",
        true,
    ),
    ("trace", Some("02-trying"), false, "n<Tab>", false),
    (
        "trace entered",
        Some("02-trying"),
        false,
        "n<Tab><Enter>",
        true,
    ),
    (
        "explain entered",
        Some("02-trying"),
        false,
        "n<Tab><Tab><Enter>",
        true,
    ),
    (
        "checklist",
        Some("02-trying"),
        false,
        "n<Tab><Tab><Tab>",
        false,
    ),
    (
        "checklist entered",
        Some("02-trying"),
        false,
        "n<Tab><Tab><Tab><Enter>",
        true,
    ),
    (
        "presenter table entered",
        Some("01-reading"),
        true,
        "  <Enter>",
        true,
    ),
    (
        "presenter trace entered",
        Some("02-trying"),
        true,
        "n<Enter>",
        true,
    ),
];

#[test]
fn the_help_names_every_key_that_works_on_each_screen_and_block() {
    // The keys of the page; and the letters a block may take as arrows.
    let page = tooldojo::tui::help::help_lines(&app(Some("01-reading"), false, true));
    let mut page_keys: Vec<KeyCode> = page.iter().flat_map(|(k, _, _)| keys_named(k)).collect();
    page_keys.extend("hjkl".chars().map(KeyCode::Char));
    let mut problems = Vec::new();
    for (name, lesson, demo, script, entered) in STATES {
        let open = || {
            let mut app = app(lesson, demo, true);
            let _ = press(&mut app, script);
            app
        };
        assert_eq!(open().active(), entered, "{name}:\n{}", screen(&open()));
        // On a block, the page's keys (a block's own keys are the block's to name; Enter
        // and Esc never reach the page from an entered block).
        let block = !matches!(name, "home" | "page" | "lesson list");
        let own = [KeyCode::Enter, KeyCode::Esc];
        let checked =
            |k: KeyCode| !block || (page_keys.contains(&k) && !(entered && own.contains(&k)));
        // What the help lists for the page under an entered block does something; on the
        // page, the home screen and the lesson list, everything it lists.
        let section = match name {
            "home" => "Home",
            "page" => "Reading",
            "lesson list" => "Lesson list",
            _ if entered => "Reading",
            _ => "",
        };
        problems.extend(help_problems(name, &open, &checked, section));
    }
    // Without a log `A` does nothing, and the help does not name it.
    let open = || app(Some("01-reading"), false, false);
    problems.extend(help_problems(
        "page without a log",
        &open,
        &|_| true,
        "Reading",
    ));
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
