//! Helpers for the trace player tests: open a shipped scenario in the player and draw a
//! frame as text.

#![allow(dead_code)]

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::orchestrator::{load_scenario, scenario_names};
use tooldojo::tui::player::{Player, frame};
use tooldojo::tui::theme::{Theme, ThemeName};

pub fn names() -> Vec<String> {
    scenario_names(&Content::embedded()).expect("the shipped scenarios list")
}

pub fn open(name: &str) -> Player {
    let scenario = load_scenario(&Content::embedded(), name).expect("a shipped scenario");
    let mut p = Player::new(tooldojo::replay::ScenarioSource::new(scenario, 0).run());
    p.export_dir = std::env::temp_dir();
    p
}

/// The frame as text, one line per row, trailing spaces kept off.
pub fn text(p: &Player, w: u16, h: u16, theme: ThemeName, ascii: bool) -> String {
    let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    let th = Theme::new(theme, ascii);
    frame::render(p, buf.area, &mut buf, &th, theme == ThemeName::Projector);
    tooldojo::text::screen_text(&buf)
}

pub fn at(name: &str, t: u64, w: u16, h: u16) -> String {
    let mut p = open(name);
    p.seek(t);
    text(&p, w, h, ThemeName::Default, false)
}
