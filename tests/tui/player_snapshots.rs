//! Snapshots of the trace player: several scenarios at several times, at 80x24 and 160x45,
//! in the default, projector (with ASCII) and mono themes.

use crate::player_support::{open, text};
use tooldojo::tui::theme::ThemeName;

fn snap(
    name: &str,
    t: u64,
    w: u16,
    h: u16,
    theme: ThemeName,
    ascii: bool,
    select: Option<usize>,
) -> String {
    let mut p = open(name);
    p.pb.selected = select;
    p.seek(t);
    text(&p, w, h, theme, ascii)
}

macro_rules! frames {
    ($($test:ident: $name:expr, $t:expr, $w:expr, $h:expr, $theme:expr, $ascii:expr, $sel:expr;)*) => {$(
        #[test]
        fn $test() {
            insta::assert_snapshot!(snap($name, $t, $w, $h, $theme, $ascii, $sel));
        }
    )*};
}

frames! {
    partial_success_820_80x24: "partial-success", 820, 80, 24, ThemeName::Default, false, None;
    partial_success_820_160x45_c2: "partial-success", 820, 160, 45, ThemeName::Default, false, Some(1);
    partial_success_end_80x24_projector: "partial-success", u64::MAX, 80, 24, ThemeName::Projector, false, None;
    partial_success_end_160x45: "partial-success", u64::MAX, 160, 45, ThemeName::Default, false, None;
    race_vs_cancel_800_80x24: "race-vs-cancel", 800, 80, 24, ThemeName::Default, false, None;
    race_vs_cancel_800_160x45_c1: "race-vs-cancel", 800, 160, 45, ThemeName::Default, false, Some(0);
    bounded_concurrency_150_80x24_ascii: "bounded-concurrency", 150, 80, 24, ThemeName::Projector, true, None;
    deadline_end_80x24_mono: "deadline", u64::MAX, 80, 24, ThemeName::Mono, false, None;
    injection_end_160x45_c1: "injection", u64::MAX, 160, 45, ThemeName::Default, false, Some(0);
    write_unknown_outcome_end_160x45: "write-unknown-outcome", u64::MAX, 160, 45, ThemeName::Default, false, None;
    repair_limit_end_80x24: "repair-limit", u64::MAX, 80, 24, ThemeName::Projector, false, None;
    truncation_end_80x24_c1: "truncation", u64::MAX, 80, 24, ThemeName::Default, false, Some(0);
}

#[test]
fn race_vs_cancel_compared_after_switching_to_cancel_160x45() {
    let mut p = open("race-vs-cancel");
    let _ = p.handle_key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Char('m'),
    ));
    insta::assert_snapshot!(text(&p, 160, 45, ThemeName::Default, false));
}

#[test]
fn legend_80x24() {
    let mut p = open("partial-success");
    let _ = p.handle_key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Char('?'),
    ));
    insta::assert_snapshot!(text(&p, 80, 24, ThemeName::Default, false));
}

#[test]
fn knobs_80x24() {
    let mut p = open("partial-success");
    let _ = p.handle_key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Char('r'),
    ));
    insta::assert_snapshot!(text(&p, 80, 24, ThemeName::Default, false));
}
