//! The Your tools screen's detail pane: it marks the lines it cuts below (and above, once
//! scrolled) with the keys that scroll it, its key bar says `j/k scroll` while it has the
//! focus, its trap table gives the arguments a share of a wide window, and it scrolls no further
//! than its last line, whatever the window was when it was scrolled.

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::tui::app::Input;
use tooldojo::tui::screens;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, options, press, screen};

fn tools(w: u16, h: u16) -> tooldojo::tui::app::App {
    screens::build(
        "tools",
        options(ThemeName::Default, false),
        env(),
        tooldojo::course::load_lessons(&Content::embedded()),
        Rect::new(0, 0, w, h),
    )
    .unwrap()
}

#[test]
fn the_detail_pane_marks_what_it_cuts_and_its_focus_changes_the_bar() {
    for (w, h) in [(80, 24), (120, 35), (160, 45)] {
        let mut app = tools(w, h);
        let text = screen(&app);
        assert!(text.contains("more lines below: PgDn"), "{w}x{h}:\n{text}");
        assert!(text.lines().last().unwrap().contains("j/k tool"), "{text}");
        let _ = press(&mut app, "<Tab>");
        let text = screen(&app);
        let bar = text.lines().last().unwrap();
        assert!(bar.contains("j/k scroll"), "{w}x{h}: {bar}");
        assert!(!bar.contains("j/k tool"), "{w}x{h}: {bar}");
        assert!(
            text.contains("more lines below: j/PgDn"),
            "{w}x{h}:\n{text}"
        );
        let _ = press(&mut app, "jj");
        let text = screen(&app);
        assert!(text.contains("2 lines above: k/PgUp"), "{w}x{h}:\n{text}");
    }
}

#[test]
fn the_trap_arguments_take_a_share_of_a_wide_window() {
    let text = screen(&tools(160, 45));
    let row = text
        .lines()
        .find(|l| l.contains("  1 extra key: note"))
        .expect("the first trap");
    assert!(row.contains(r#"{…, "note": "added by the mo"#), "{row}");
}

/// The "N lines above" count on the detail's border, if it shows.
fn above(text: &str) -> Option<usize> {
    let at = text.find(" lines above: ")?;
    let head = &text[..at];
    let n = head.rsplit(' ').next()?;
    n.parse().ok()
}

#[test]
fn the_detail_stops_at_its_last_line_so_k_moves_at_once() {
    for (w, h) in [(80, 24), (120, 35), (160, 45)] {
        let mut app = tools(w, h);
        let _ = press(&mut app, "<Tab>");
        // Scroll well past the end, drawing as the terminal would between keys.
        for _ in 0..200 {
            let _ = screen(&app);
            let _ = press(&mut app, "j");
        }
        let end = above(&screen(&app)).expect("scrolled");
        let _ = press(&mut app, "<PgDn>");
        assert_eq!(above(&screen(&app)), Some(end), "{w}x{h}");
        let _ = press(&mut app, "k");
        assert_eq!(above(&screen(&app)), Some(end - 1), "{w}x{h}");
    }
}

#[test]
fn a_taller_window_keeps_the_detail_at_its_new_last_line() {
    let mut app = tools(80, 24);
    let _ = press(&mut app, "<Tab>");
    for _ in 0..200 {
        let _ = screen(&app);
        let _ = press(&mut app, "j");
    }
    let small = above(&screen(&app)).expect("scrolled at 80x24");
    let _ = app.update(Input::Resize(120, 35));
    let end = above(&screen(&app)).expect("scrolled at 120x35");
    assert!(end < small, "{end} {small}");
    let _ = press(&mut app, "k");
    assert_eq!(above(&screen(&app)), Some(end - 1));
    // Back to the small window, the view is where it was left, not where it had been.
    let _ = app.update(Input::Resize(80, 24));
    let _ = screen(&app);
    let _ = press(&mut app, "k");
    assert_eq!(above(&screen(&app)), Some(end - 2));
}
