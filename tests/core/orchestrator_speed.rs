//! The orchestrator's own cost per call on the generated 10,000-call scenario at concurrency
//! 64, in real time (wall) and in CPU time, while the scenario runs on virtual time.
//! Slow in a debug build, so ignored by default:
//! `cargo test --release --test core orchestrator_speed -- --ignored --nocapture`.
//!
//! Beside it, the floor: the same number of calls as bare tokio tasks on the same kind of
//! runtime (current thread, paused clock, its own thread), each taking a semaphore permit
//! and waiting out its scripted latency under a timeout, and nothing else.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tooldojo::orchestrator::{StopReason, load_scenario_generated, run_blocking};

/// CPU time of this process (all threads) in ms, from /proc (Linux only; 10 ms ticks).
fn cpu_ms() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    Some((f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?) * 10.0)
}

#[test]
#[ignore]
fn ten_thousand_calls_at_concurrency_64() {
    const CALLS: usize = 10_000;
    const RUNS: usize = 10;
    let s = load_scenario_generated(CALLS, 64);
    let warm = run_blocking(&s, 0);
    assert_eq!(warm.stop_reason, StopReason::FinalAnswer);
    assert_eq!(warm.results.len(), CALLS);
    let (c0, t0) = (cpu_ms(), std::time::Instant::now());
    for seed in 0..RUNS as u64 {
        std::hint::black_box(run_blocking(&s, seed));
    }
    let per = (RUNS * CALLS) as f64;
    let wall = t0.elapsed().as_secs_f64() * 1e6 / per;
    match (c0, cpu_ms()) {
        (Some(a), Some(b)) => eprintln!(
            "{CALLS} calls x {RUNS} runs: wall {wall:.1} us/call, cpu {:.1} us/call, virtual {} ms a run",
            (b - a) * 1e3 / per,
            warm.end_ms
        ),
        _ => eprintln!("{CALLS} calls x {RUNS} runs: wall {wall:.1} us/call"),
    }
    floor(CALLS, RUNS);
}

/// One floor run: `calls` tasks, `concurrency` at a time, each a timeout around a sleep
/// of the generated scenario's latency.
fn floor_run(calls: usize, concurrency: usize) -> usize {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_time()
                    .start_paused(true)
                    .build()
                    .unwrap();
                rt.block_on(async {
                    let permits = Arc::new(Semaphore::new(concurrency));
                    let mut tasks = JoinSet::new();
                    for i in 0..calls {
                        let permits = Arc::clone(&permits);
                        let latency = Duration::from_millis(5 + (i as u64 * 7919) % 60);
                        tasks.spawn(async move {
                            let _permit = permits.acquire_owned().await.unwrap();
                            tokio::time::timeout(
                                Duration::from_secs(1),
                                tokio::time::sleep(latency),
                            )
                            .await
                            .is_ok()
                        });
                    }
                    let mut done = 0;
                    while let Some(ok) = tasks.join_next().await {
                        done += usize::from(ok.unwrap());
                    }
                    done
                })
            })
            .join()
            .unwrap()
    })
}

fn floor(calls: usize, runs: usize) {
    assert_eq!(floor_run(calls, 64), calls);
    let (c0, t0) = (cpu_ms(), std::time::Instant::now());
    for _ in 0..runs {
        std::hint::black_box(floor_run(calls, 64));
    }
    let per = (runs * calls) as f64;
    let wall = t0.elapsed().as_secs_f64() * 1e6 / per;
    if let (Some(a), Some(b)) = (c0, cpu_ms()) {
        eprintln!(
            "floor: wall {wall:.1} us/call, cpu {:.1} us/call",
            (b - a) * 1e3 / per
        );
    }
}
