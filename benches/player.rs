//! The trace player: the busiest frame (the generated 10,000-call run in mid-flight, every
//! lane group and a full events pane) at 80x24 and 200x60, a shipped scenario's frame, and
//! the time to open the 10,000-call run (the real orchestrator run plus the timeline).

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use tooldojo::content::Content;
use tooldojo::orchestrator::{load_scenario, load_scenario_generated, run_blocking};
use tooldojo::replay::{Run, ScenarioSource};
use tooldojo::tui::player::{Player, frame};
use tooldojo::tui::theme::{Theme, ThemeName};

/// One frame into `buf`, cleared first: the terminal keeps its buffers from frame to frame
/// and clears the back one before each draw, so a frame never pays for allocating one.
fn draw(p: &Player, buf: &mut Buffer, th: &Theme) {
    buf.reset();
    frame::render(p, buf.area, buf, th, false);
}

fn frames(c: &mut Criterion) {
    let th = Theme::new(ThemeName::Default, false);
    let mut big = Player::new(ScenarioSource::new(load_scenario_generated(10_000, 64), 0).run());
    big.seek(2_000);
    big.pb.selected = Some(10);
    let scenario = load_scenario(&Content::embedded(), "partial-success").expect("shipped");
    let mut small = Player::new(ScenarioSource::new(scenario, 0).run());
    small.seek(820);
    small.pb.selected = Some(1);
    let mut group = c.benchmark_group("player_frame");
    for (w, h) in [(80, 24), (200, 60)] {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        group.bench_function(format!("generated-10000 {w}x{h}"), |b| {
            b.iter(|| draw(&big, std::hint::black_box(&mut buf), &th))
        });
        group.bench_function(format!("partial-success {w}x{h}"), |b| {
            b.iter(|| draw(&small, std::hint::black_box(&mut buf), &th))
        });
    }
    group.finish();
}

fn open(c: &mut Criterion) {
    let scenario = load_scenario_generated(10_000, 64);
    let run = run_blocking(&scenario, 0);
    let mut group = c.benchmark_group("player_open");
    group.sample_size(10);
    group.bench_function("generated-10000 run + timeline", |b| {
        b.iter(|| std::hint::black_box(Player::new(ScenarioSource::new(scenario.clone(), 0).run())))
    });
    group.bench_function("generated-10000 timeline only", |b| {
        b.iter(|| std::hint::black_box(Run::from_trace(&scenario, run.clone())))
    });
    group.finish();
}

criterion_group!(benches, frames, open);
criterion_main!(benches);
