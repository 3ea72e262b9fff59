//! Criterion: compiling real tool declarations. With the shared test data beside the
//! checkout (`../shared`, or `TOOLDOJO_SHARED_DIR`), every one of the 4,242 declarations under
//! `realworld/tools/` in its own shape; without it, the shipped fixtures' schemas.
//!
//! ```text
//! cargo bench --bench compile -- --warm-up-time 1 --measurement-time 5
//! ```
//! `compile/all` reads and compiles each declaration from its text; `compile/from_parsed`
//! compiles each from its parsed value (the reader's `Json`).
//!
//! Both are measured in this thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), as the peer
//! `jsonschema-peer --compile-all` measures its own, so that the two compare alike on a
//! machine where other work takes turns with the benchmark; where that clock cannot be
//! read, in wall time (and the run says so).

#[path = "../tests/shared/mod.rs"]
mod shared;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;
use tooldojo::validate::{Json, Validator, json};

/// The text of every real declaration, one string each (empty without the shared data).
fn real_declarations() -> Vec<String> {
    let Some(dir) = shared::shared("realworld/tools") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for p in shared::json_files(&dir) {
        let rel = p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&p).unwrap();
        let doc = json::parse(&text).unwrap();
        let list = match &doc {
            Json::Array(items) => items.clone(),
            other => match other.get("tools") {
                Some(Json::Array(items)) => items.clone(),
                _ => Vec::new(),
            },
        };
        for t in list {
            let function = matches!(t.get("type"), Some(Json::Str(s)) if s == "function");
            let keep = if rel.starts_with("openai-responses") {
                function
            } else if rel.starts_with("anthropic") {
                t.get("input_schema").is_some()
            } else {
                true
            };
            if keep {
                out.push(t.to_text());
            }
        }
    }
    out
}

/// The CPU time this thread has run, in nanoseconds (`None` where the system does not say).
fn thread_cpu_ns() -> Option<u64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` only writes the `timespec` it is given, which lives here.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0).then(|| t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64)
}

/// Criterion's measurement in this thread's CPU time (wall time where it cannot be read).
struct CpuTime {
    cpu: bool,
}

impl CpuTime {
    fn new() -> CpuTime {
        let cpu = thread_cpu_ns().is_some();
        if !cpu {
            eprintln!("note: no thread CPU clock; measuring wall time instead");
        }
        CpuTime { cpu }
    }
}

impl Measurement for CpuTime {
    type Intermediate = (Instant, u64);
    type Value = f64;

    fn start(&self) -> Self::Intermediate {
        (Instant::now(), thread_cpu_ns().unwrap_or(0))
    }
    fn end(&self, (wall, cpu): Self::Intermediate) -> f64 {
        match thread_cpu_ns() {
            Some(now) if self.cpu => now.saturating_sub(cpu) as f64,
            _ => wall.elapsed().as_nanos() as f64,
        }
    }
    fn add(&self, a: &f64, b: &f64) -> f64 {
        a + b
    }
    fn zero(&self) -> f64 {
        0.0
    }
    fn to_f64(&self, v: &f64) -> f64 {
        *v
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Nanoseconds, as wall time's are: its formatter scales them alike.
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}

fn bench(c: &mut Criterion<CpuTime>) {
    let mut texts = real_declarations();
    if texts.is_empty() {
        eprintln!("note: no shared data; compiling the shipped declarations instead");
        texts = tooldojo::validate::tools::declarations()
            .iter()
            .map(|d| d.to_string())
            .collect();
    }
    let parsed: Vec<Json<'_>> = texts.iter().map(|t| json::parse(t).unwrap()).collect();
    let opts = Validator::options();
    eprintln!("compiling {} declarations a run", parsed.len());
    let mut group = c.benchmark_group("compile");
    // From each declaration's text, as a peer reading the files would: the aim's measure.
    group.bench_function("all", |b| {
        b.iter(|| {
            let mut ok = 0;
            for t in &texts {
                ok += usize::from(opts.compile_text(black_box(t)).is_ok());
            }
            ok
        })
    });
    group.bench_function("from_parsed", |b| {
        b.iter(|| {
            let mut ok = 0;
            for d in &parsed {
                ok += usize::from(opts.compile(black_box(d)).is_ok());
            }
            ok
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime::new());
    targets = bench
}
criterion_main!(benches);
