//! Draws every screen of the app at 200x60 (the size of a large terminal) and measures one
//! frame: page layout, Markdown wrapping, blocks drawn off-screen and copied, overlays.

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::layout::Rect;

use tooldojo::content::Content;
use tooldojo::tui::{Config, app, screens};

fn frames(c: &mut Criterion) {
    let config = Config::new(Content::embedded());
    let (opts, env) = tooldojo::tui::setup(&config).expect("setup");
    let lessons = app::load_lessons(&env.content);
    let names = screens::names(
        &lessons.clone().unwrap_or_default(),
        &screens::scenario_names(&env),
    );
    let size = Rect::new(0, 0, 200, 60);
    let mut group = c.benchmark_group("frame_200x60");
    for name in names {
        let app = screens::build(&name, opts.clone(), env.clone(), lessons.clone(), size)
            .expect("screen builds");
        group.bench_function(&name, |b| {
            b.iter(|| std::hint::black_box(screens::draw_to_buffer(&app)))
        });
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
