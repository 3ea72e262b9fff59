//! Properties of the trace player: the frame at T does not depend on how the cursor got
//! there (playing from 0 or seeking), and a lane's drawing only grows as T grows.

use std::collections::BTreeSet;

use crossterm::event::{KeyCode, KeyEvent};
use proptest::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use tooldojo::tui::player::{Player, frame};
use tooldojo::tui::theme::{Theme, ThemeName};

use crate::player_support::{names, open, text};

fn key(p: &mut Player, c: char) {
    let _ = p.handle_key(KeyEvent::from(KeyCode::Char(c)));
}

/// The cells of every lane row that hold a bar or a mark, inside the plot.
fn lane_cells(p: &Player, w: u16, h: u16) -> BTreeSet<(String, u16)> {
    let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    let th = Theme::new(ThemeName::Default, false);
    frame::render(p, buf.area, &mut buf, &th, false);
    let geo = p.geometry.borrow().clone();
    let marks = "█▓·┄░✓✕⧗⊘∅■";
    let mut out = BTreeSet::new();
    for y in geo.axis.y + geo.axis.height..h {
        let label: String = (1..geo.plot_x)
            .map(|x| buf[(x, y)].symbol().to_owned())
            .collect::<String>()
            .trim()
            .to_owned();
        if !(label.starts_with("turn ") || label.starts_with('c') || label.starts_with('▶')) {
            continue;
        }
        for x in geo.plot_x..geo.plot_x + geo.plot_w {
            if marks.contains(buf[(x, y)].symbol()) {
                out.insert((label.clone(), x));
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn playing_to_t_and_seeking_to_t_draw_the_same_frame(
        which in 0usize..17,
        faster in 0usize..4,
        ticks in 0usize..400,
    ) {
        let names = names();
        let name = &names[which % names.len()];
        let mut played = open(name);
        for _ in 0..faster {
            key(&mut played, '+');
        }
        key(&mut played, ' ');
        for _ in 0..ticks {
            if !played.tick() {
                break;
            }
        }
        if played.playing() {
            key(&mut played, ' ');
        }
        let mut sought = open(name);
        for _ in 0..faster {
            key(&mut sought, '+');
        }
        sought.seek(played.t_ms());
        for (w, h) in [(80, 24), (160, 45)] {
            prop_assert_eq!(
                text(&played, w, h, ThemeName::Default, false),
                text(&sought, w, h, ThemeName::Default, false)
            );
        }
    }

    #[test]
    fn a_lane_never_loses_drawing_as_time_goes_on(
        which in 0usize..17,
        a in 0u64..3000,
        b in 0u64..3000,
    ) {
        let names = names();
        let name = &names[which % names.len()];
        let mut p = open(name);
        let (t1, t2) = (a.min(b), a.max(b));
        p.seek(t1);
        let early = lane_cells(&p, 120, 40);
        p.seek(t2);
        let late = lane_cells(&p, 120, 40);
        prop_assert!(!late.is_empty(), "{} at {}: no lane drawn", name, t2);
        let lost: Vec<_> = early.difference(&late).collect();
        prop_assert!(lost.is_empty(), "{} {}..{}: lost {:?}", name, t1, t2, lost);
    }
}
