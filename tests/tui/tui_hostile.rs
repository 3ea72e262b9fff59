//! A lesson written to attack the terminal (OSC 52 clipboard writes, CSI, C1 controls, bidi
//! overrides and invisible format characters in its title, a heading, a page title, a
//! block's options and body) is drawn
//! through the app's own renderer: no cell may hold a character that steers a terminal.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use tooldojo::content::Content;
use tooldojo::course::progress::Progress;
use tooldojo::tui::app::{App, Input};
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::options;

const OSC52: &str = "\u{1b}]52;c;aGVsbG8=\u{7}";
const CSI: &str = "\u{1b}[2J\u{1b}[31m";
const C1: &str = "\u{9b}1;1H\u{9d}0;t\u{9c}";
const BIDI: &str = "\u{202e}\u{2066}";
/// Invisible format characters and separators: tag characters, the line and paragraph
/// separators, interlinear annotation marks, the soft hyphen, the Mongolian vowel separator.
const INVISIBLE: &str = "\u{e0041}\u{e007f}\u{fff9}\u{fffb}\u{ad}\u{180e}";
/// The separators count as white space, so they go where white space is harmless.
const SEPARATORS: &str = "\u{2028}\u{2029}";

/// The hostile lesson: valid Markdown, so every part of it is drawn.
pub(crate) fn hostile_lesson() -> String {
    let evil = format!("{OSC52}{CSI}{C1}{BIDI}{INVISIBLE}");
    format!(
        "# Evil title {evil}{SEPARATORS}end\n\n\
         Body text {evil}{SEPARATORS} here.\n\n\
         ## A heading {evil}{SEPARATORS}\n\n\
         More text.\n\n\
         ```quiz\nWhich one {evil}?\n- [x] yes {evil} :: right {evil}\n- [ ] no :: wrong\n```\n\n\
         ```trace scenario=no-such-{evil}\n```\n\n\
         ```checklist\n- an item {evil}\n```\n\n\
         ---\n\n\
         ## Second page {evil}\n\n\
         ```playground mode=validator schema=nope{evil}\n```\n"
    )
}

/// Every cell's text that could steer a terminal, with its position.
fn steering_cells(buf: &Buffer) -> Vec<(u16, u16, String)> {
    let area = buf.area;
    let mut bad = Vec::new();
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let sym = buf[(x, y)].symbol();
            if sym
                .chars()
                .any(|c| c.is_control() || tooldojo::sanitize::steers_terminal(c))
            {
                bad.push((x, y, format!("{sym:?}")));
            }
        }
    }
    bad
}

#[test]
fn a_hostile_lesson_draws_no_raw_control_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("01-evil.md"), hostile_lesson()).unwrap();
    let content = Content::new(Some(dir.path()), None);
    let lessons = tooldojo::course::load_lessons(&content);
    assert!(lessons.as_ref().is_ok_and(|l| l.len() == 1));
    // It parses, so its title, headings and text are drawn (not only an error).
    let parsed = &lessons.as_ref().unwrap()[0].parsed;
    assert!(parsed.is_ok(), "{parsed:?}");
    let env = tooldojo::course::BlockEnv::new(content, Vec::new(), 0);
    let mut app = App::new(
        options(ThemeName::Default, false),
        env,
        lessons,
        Progress::default(),
        Rect::new(0, 0, 100, 40),
    );
    let mut drawn = 0;
    // Every page, with focus moved through the blocks and the help overlay opened.
    for keys in ["", "\t", "\t", "\t", "n", "\t", "?"] {
        for ch in keys.chars() {
            let code = match ch {
                '\t' => KeyCode::Tab,
                c => KeyCode::Char(c),
            };
            let _ = app.update(Input::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        }
        let buf = tooldojo::tui::screens::draw_to_buffer(&app);
        let bad = steering_cells(&buf);
        assert!(
            bad.is_empty(),
            "after {keys:?}: {bad:?}\n{}",
            tooldojo::text::screen_text(&buf)
        );
        drawn += 1;
    }
    assert_eq!(drawn, 7);
}
