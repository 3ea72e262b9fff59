//! The trace player: the busiest frame (the generated 10,000-call run in mid-flight, every
//! lane group and a full events pane) at 80x24 and 200x60, a shipped scenario's frame, and
//! the time to open the 10,000-call run (the real orchestrator run plus the timeline).
//!
//! Wall time by default; with `PLAYER_BENCH_CPU=1` in the environment, the CPU time of the
//! measuring thread instead, which other programs on a busy machine do not inflate.

use std::time::Duration;

use criterion::Criterion;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use tooldojo::content::Content;
use tooldojo::orchestrator::{load_scenario, load_scenario_generated, run_blocking};
use tooldojo::tui::player::model::Timeline;
use tooldojo::tui::player::{Player, frame};
use tooldojo::tui::theme::{Theme, ThemeName};

/// One frame into `buf`, cleared first: the terminal keeps its buffers from frame to frame
/// and clears the back one before each draw, so a frame never pays for allocating one.
fn draw(p: &Player, buf: &mut Buffer, th: &Theme) {
    buf.reset();
    frame::render(p, buf.area, buf, th, false);
}

fn frames<M: Measurement>(c: &mut Criterion<M>) {
    let th = Theme::new(ThemeName::Default, false);
    let mut big = Player::new(load_scenario_generated(10_000, 64), 0);
    big.seek(2_000);
    big.pb.selected = Some(10);
    let scenario = load_scenario(&Content::embedded(), "partial-success").expect("shipped");
    let mut small = Player::new(scenario, 0);
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

fn open<M: Measurement>(c: &mut Criterion<M>) {
    let scenario = load_scenario_generated(10_000, 64);
    let run = run_blocking(&scenario, 0);
    let mut group = c.benchmark_group("player_open");
    group.sample_size(10);
    group.bench_function("generated-10000 run + timeline", |b| {
        b.iter(|| std::hint::black_box(Player::new(scenario.clone(), 0)))
    });
    group.bench_function("generated-10000 timeline only", |b| {
        b.iter(|| std::hint::black_box(Timeline::build(&scenario, run.clone())))
    });
    group.finish();
}

/// The CPU time the measuring thread has used (the orchestrator's own threads not
/// included), read from /proc/thread-self/schedstat in nanoseconds. Criterion reads it once
/// per sample, around a batch of iterations.
struct ThreadCpu;

fn thread_cpu() -> Duration {
    // The kernel brings a running thread's count up to date when it next schedules; a yield
    // makes that now, so short samples are not read as zero.
    std::thread::yield_now();
    let text = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("PLAYER_BENCH_CPU needs /proc/thread-self/schedstat (Linux)");
    let ns = text
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("schedstat starts with the thread's CPU time in ns");
    Duration::from_nanos(ns)
}

impl Measurement for ThreadCpu {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        thread_cpu()
    }
    fn end(&self, from: Duration) -> Duration {
        thread_cpu().saturating_sub(from)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Both measure durations in nanoseconds: the same units and words fit.
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}

fn run_all<M: Measurement>(mut c: Criterion<M>) {
    frames(&mut c);
    open(&mut c);
    c.final_summary();
}

fn main() {
    if std::env::var_os("PLAYER_BENCH_CPU").is_some() {
        run_all(
            Criterion::default()
                .with_measurement(ThreadCpu)
                .configure_from_args(),
        );
    } else {
        run_all(Criterion::default().configure_from_args());
    }
}
