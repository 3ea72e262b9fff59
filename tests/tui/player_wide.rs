//! The trace player in a big window and at a run's end: the lane notes take a wider column
//! past 130 cells, a run whose refused call was repaired says so, a gauge flags only a
//! budget really hit; and the help over a lesson page sits in the page's pane.

use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::tui::Config;
use tooldojo::tui::theme::ThemeName;

use crate::tui_common::{env, lessons, options, press, screen};

fn render(name: &str, w: u16, h: u16) -> String {
    let config = Config::new(Content::embedded());
    tooldojo::tui::render::screen(&config, name, w, h).unwrap()
}

/// The column where the first lane's note starts.
fn note_column(text: &str) -> usize {
    let line = text
        .lines()
        .find(|l| l.contains("proposes c1"))
        .unwrap_or_else(|| panic!("{text}"));
    line[..line.find("proposes c1").unwrap()].chars().count()
}

#[test]
fn the_lane_notes_widen_past_130_columns() {
    // Cells from the note's start to the right edge: the column, and the border.
    let mut last = 0;
    for (w, least, most) in [(120, 26, 28), (160, 48, 52), (200, 63, 66), (240, 63, 66)] {
        let text = render("trace:partial-success@600", w, 45);
        let note = usize::from(w) - note_column(&text);
        assert!(note >= least && note <= most, "{w}: {note}\n{text}");
        assert!(note >= last, "{w}");
        last = note;
    }
}

#[test]
fn a_refused_call_repaired_reads_so_and_an_unhit_budget_has_no_flag() {
    let text = render("trace:repair@99999", 160, 45);
    assert!(text.contains("1 refused, then repaired: c1"), "{text}");
    let repairs = text.lines().find(|l| l.contains("repairs ")).unwrap();
    assert!(
        repairs.contains("1 of 1") && !repairs.contains('⚑'),
        "{repairs}"
    );
    insta::assert_snapshot!("repair_end_160x45", text);
    let text = render("trace:tool-budget@99999", 160, 45);
    let calls = text.lines().find(|l| l.contains("tool calls ")).unwrap();
    assert!(calls.contains("⚑ STOP"), "{calls}");
}

#[test]
fn the_help_over_a_page_sits_in_the_middle_of_the_page_pane() {
    let mut app = tooldojo::tui::app::App::new(
        options(ThemeName::Default, false),
        env(),
        Ok(lessons()),
        tooldojo::course::progress::Progress::default(),
        Rect::new(0, 0, 160, 45),
    );
    assert!(app.sidebar_visible());
    let _ = press(&mut app, "?");
    let text = screen(&app);
    let top = text.lines().next().unwrap();
    // The page pane starts where the list's border ends.
    let pane = top.chars().position(|c| c == '╮').unwrap() + 1;
    let line = text.lines().find(|l| l.contains("╭ Keys")).unwrap();
    let left = line[..line.find("╭ Keys").unwrap()].chars().count();
    let width = line.chars().skip(left).take_while(|c| *c != '╮').count() + 1;
    let centre = left + width / 2;
    let pane_centre = pane + (160 - pane) / 2;
    assert!(
        centre.abs_diff(pane_centre) <= 1,
        "{centre} vs {pane_centre}:\n{text}"
    );
}
