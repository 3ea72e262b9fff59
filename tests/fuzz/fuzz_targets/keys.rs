//! Arbitrary key, mouse, resize and reload sequences fed to `App::update`, as the
//! terminal loop feeds them, with a frame drawn after every update that asks for one.
//! Byte 0 picks the theme and layout, byte 1 the lesson the app opens on.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ratatui::layout::Rect;
use tooldojo::tui::app::Update;
use tooldojo::tui::screens::draw_to_buffer;
use tooldojo_fuzz::{app, decode, shipped};

fuzz_target!(|data: &[u8]| {
    let [style, start, rest @ ..] = data else {
        return;
    };
    let s = shipped();
    let lessons = s.lessons.clone();
    let ids: Vec<String> = lessons.iter().flatten().map(|l| l.id.clone()).collect();
    let lesson = (!ids.is_empty()).then(|| ids[usize::from(*start) % ids.len()].clone());
    let mut a = app(*style, lesson, lessons, Rect::new(0, 0, 80, 24));
    let _ = draw_to_buffer(&a);
    for input in decode(rest, || s.lessons.clone()) {
        // Quit and Suspend leave the app as it was (the loop stops or resumes it): keep going.
        match a.update(input) {
            Update::Redraw | Update::Save => {
                let _ = draw_to_buffer(&a);
                let snapshot = a.progress_snapshot();
                let _ = serde_json::to_string(&snapshot).expect("progress serialises");
            }
            Update::None | Update::Quit | Update::Suspend => {}
        }
    }
    let _ = draw_to_buffer(&a);
});
