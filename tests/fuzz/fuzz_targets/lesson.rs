//! A lesson file: parsed as the app reads `lessons/`, linted against the shipped fixtures,
//! and, when it parses, every page drawn by the app at a size picked from the text length.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ratatui::layout::Rect;
use tooldojo::check::lint::lint_lessons;
use tooldojo::content::TextFile;
use tooldojo::content::lessons::parse_lesson;
use tooldojo::course::LessonEntry;
use tooldojo::tui::screens;
use tooldojo_fuzz::{env, options, shipped};

const SIZES: [(u16, u16); 5] = [(80, 24), (40, 12), (200, 60), (1, 1), (300, 100)];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = TextFile {
        display: "lessons/99-fuzz.md".into(),
        rel: "99-fuzz.md".into(),
        text: text.to_owned(),
    };
    let parsed = parse_lesson(&file);
    if let Ok(lesson) = &parsed {
        let _ = lint_lessons(std::slice::from_ref(lesson), &shipped().tables);
    }
    let pages = parsed.as_ref().map_or(1, |l| l.pages.len().max(1));
    let entry = LessonEntry {
        id: "99-fuzz".into(),
        file: file.display.clone(),
        source: file.text.clone(),
        parsed,
    };
    let (w, h) = SIZES[text.len() % SIZES.len()];
    let style = (text.len() / SIZES.len()) as u8;
    // Each page as `tooldojo render lesson:ID#N` builds it.
    for page in 1..=pages.min(16) {
        let app = screens::build(
            &format!("lesson:99-fuzz#{page}"),
            options(style),
            env(),
            Ok(vec![entry.clone()]),
            Rect::new(0, 0, w, h),
        )
        .expect("the lesson is in the list");
        let _ = screens::draw_to_buffer(&app);
    }
});
