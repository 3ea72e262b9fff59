//! Draws every screen of the app at 200x60 (the size of a large terminal) and measures one
//! frame: the page and its blocks, the lesson list, the key bar, overlays.
//! Then a few keypresses, each with the frame it asks for: what the learner waits for.

use criterion::{Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use tooldojo::content::Content;
use tooldojo::tui::app::{App, Input};
use tooldojo::tui::{Config, screens};

const SIZE: Rect = Rect::new(0, 0, 200, 60);

/// The app in the state the screen `name` names, at 200x60.
fn screen(name: &str) -> App {
    let config = Config::new(Content::embedded());
    let (opts, env) = tooldojo::tui::setup(&config).expect("setup");
    let lessons = tooldojo::course::load_lessons(&env.content);
    screens::build(name, opts, env, lessons, SIZE).expect("screen builds")
}

fn press(app: &mut App, code: KeyCode) {
    let _ = app.update(Input::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn frames(c: &mut Criterion) {
    let config = Config::new(Content::embedded());
    let (opts, env) = tooldojo::tui::setup(&config).expect("setup");
    let lessons = tooldojo::course::load_lessons(&env.content);
    let names = screens::names(
        &lessons.clone().unwrap_or_default(),
        &screens::scenario_names(&env),
    );
    let mut group = c.benchmark_group("frame_200x60");
    for name in names {
        let app = screens::build(&name, opts.clone(), env.clone(), lessons.clone(), SIZE)
            .expect("screen builds");
        group.bench_function(&name, |b| {
            b.iter(|| std::hint::black_box(screens::draw_to_buffer(&app)))
        });
    }
    group.finish();
}

/// One key (taking turns with the key that undoes it), then the frame.
fn key_then_frame(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    mut app: App,
    keys: [KeyCode; 2],
) {
    let mut turn = 0;
    group.bench_function(name, |b| {
        b.iter(|| {
            press(&mut app, keys[turn]);
            turn = 1 - turn;
            std::hint::black_box(screens::draw_to_buffer(&app))
        })
    });
}

fn keys(c: &mut Criterion) {
    let mut group = c.benchmark_group("key_200x60");
    // Scrolling a long lesson page.
    let mut app = screen("lesson:02-validate-tool-args");
    press(&mut app, KeyCode::Down);
    key_then_frame(
        &mut group,
        "scroll-lesson",
        app,
        [KeyCode::Down, KeyCode::Up],
    );
    // Moving the selection of a predict table on a lesson page (Markdown around it).
    let mut app = screen("lesson:02-validate-tool-args#3");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Enter);
    assert!(app.active(), "the predict block takes keys");
    key_then_frame(
        &mut group,
        "predict-move-on-lesson",
        app,
        [KeyCode::Down, KeyCode::Up],
    );
    // Moving the selection of the long predict table.
    let mut app = screen("predict:validator");
    press(&mut app, KeyCode::Enter);
    key_then_frame(
        &mut group,
        "predict:validator-move",
        app,
        [KeyCode::Down, KeyCode::Up],
    );
    // Typing in a playground editor.
    let mut app = screen("playground:validator");
    press(&mut app, KeyCode::Enter);
    assert!(app.active(), "the playground takes keys");
    key_then_frame(
        &mut group,
        "playground:validator-type",
        app,
        [KeyCode::Char('x'), KeyCode::Backspace],
    );
    group.finish();
}

criterion_group!(benches, frames, keys);
criterion_main!(benches);
