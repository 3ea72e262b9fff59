//! The orchestrator's own cost: real time per call while the scenario runs on virtual time.
//! The generated scenario has 10,000 lookups at concurrency 64 (one model turn), so the
//! number is loop + tokio + trace overhead, not simulated latency.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tooldojo::content::Content;
use tooldojo::orchestrator::{load_scenario, load_scenario_generated, run_blocking};

fn bench(c: &mut Criterion) {
    let big = load_scenario_generated(10_000, 64);
    let mut g = c.benchmark_group("orchestrator");
    g.sample_size(10);
    g.throughput(Throughput::Elements(10_000));
    g.bench_function("10k_calls_concurrency_64", |b| {
        b.iter(|| black_box(run_blocking(black_box(&big), 0)))
    });
    g.finish();

    let content = Content::embedded();
    let small = load_scenario(&content, "partial-success").expect("shipped scenario");
    c.bench_function("partial_success_run", |b| {
        b.iter(|| black_box(run_blocking(black_box(&small), 0)))
    });
    let run = run_blocking(&small, 0);
    c.bench_function("partial_success_jsonl", |b| {
        b.iter(|| black_box(run.to_jsonl()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
