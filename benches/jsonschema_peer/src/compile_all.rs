//! `--compile-all DIR [--runs N]`: compile every declaration under DIR with jsonschema-rs, and
//! time it in CPU (this process's user + system time) and wall time.
//!
//! Every `.json` file under DIR (in path order) is read in its own shape
//! ([`shape::file_declarations`]), and each declaration's schema is found as a case's would be
//! ([`shape::extract`]) and compiled with formats asserted. Two loops are timed, each the best
//! of N runs:
//! - `compile`: `build` on every schema, already parsed into a `Value`;
//! - `parse_and_compile`: from each declaration's JSON text: parse, find the schema, `build`.
//!
//! A declaration jsonschema-rs refuses is counted and named on stderr; it is timed like the rest.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::shape;

pub fn run(args: &[String]) -> Result<(), String> {
    let (dir, runs) = match args {
        [dir] => (dir, 5),
        [dir, flag, n] if flag == "--runs" => (
            dir,
            n.parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or("--runs takes a positive number")?,
        ),
        _ => return Err("usage: jsonschema-peer --compile-all DIR [--runs N]".into()),
    };
    let mut files = Vec::new();
    walk(std::path::Path::new(dir), &mut files).map_err(|e| format!("{dir}: {e}"))?;
    files.sort();
    let mut texts = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let doc: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for decl in shape::file_declarations(&doc) {
            let name = decl
                .get("name")
                .or_else(|| decl.get("function").and_then(|f| f.get("name")))
                .and_then(Value::as_str)
                .unwrap_or("?");
            texts.push((format!("{}#{name}", path.display()), decl.to_string()));
        }
    }
    let mut schemas = Vec::with_capacity(texts.len());
    for (source, text) in &texts {
        let decl: Value = serde_json::from_str(text).expect("written by serde_json");
        let found = shape::extract(&decl, &[], None, &|_| Err("no named schemas".into()))
            .map_err(|e| format!("{source}: {e}"))?;
        schemas.push(found);
    }

    let refused: Vec<(usize, String)> = schemas
        .iter()
        .enumerate()
        .filter_map(|(i, f)| crate::build(f, true).err().map(|e| (i, e)))
        .collect();
    for (i, e) in &refused {
        eprintln!("refused: {}: {e}", texts[*i].0);
    }

    let compile = best_of(runs, || {
        schemas
            .iter()
            .filter(|f| crate::build(f, true).is_ok())
            .count()
    });
    let parse_and_compile = best_of(runs, || {
        texts
            .iter()
            .filter(|(_, text)| {
                let decl: Value = serde_json::from_str(text).expect("written by serde_json");
                shape::extract(&decl, &[], None, &|_| Err(String::new()))
                    .is_ok_and(|f| crate::build(&f, true).is_ok())
            })
            .count()
    });
    let report = serde_json::json!({
        "files": files.len(),
        "declarations": schemas.len(),
        "compiled": schemas.len() - refused.len(),
        "refused": refused.len(),
        "runs": runs,
        "bytes": texts.iter().map(|(_, t)| t.len()).sum::<usize>(),
        "compile": compile.report(),
        "parse_and_compile": parse_and_compile.report(),
    });
    println!("{report}");
    Ok(())
}

fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}

/// The best and worst CPU and wall times of `runs` runs of `f`.
struct Timing {
    cpu: Vec<Duration>,
    wall: Vec<Duration>,
}

impl Timing {
    fn report(&self) -> Value {
        let ms = |d: &Duration| (d.as_secs_f64() * 1e6).round() / 1e3;
        let span = |v: &[Duration]| {
            let lo = v.iter().min().expect("at least one run");
            let hi = v.iter().max().expect("at least one run");
            serde_json::json!([ms(lo), ms(hi)])
        };
        serde_json::json!({"cpu_ms": span(&self.cpu), "wall_ms": span(&self.wall)})
    }
}

fn best_of(runs: usize, mut f: impl FnMut() -> usize) -> Timing {
    let mut t = Timing {
        cpu: Vec::new(),
        wall: Vec::new(),
    };
    for _ in 0..runs {
        let (c0, w0) = (cpu_time(), Instant::now());
        std::hint::black_box(f());
        t.wall.push(w0.elapsed());
        t.cpu.push(cpu_time().saturating_sub(c0));
    }
    t
}

/// CPU time of this process so far (user + system).
fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
