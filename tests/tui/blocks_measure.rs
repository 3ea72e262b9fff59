//! Timings of the blocks (run with `cargo test --release --test tui blocks_measure -- --ignored --nocapture`).

use crate::blocks_support;

use std::time::Instant;

use blocks_support::*;
use crossterm::event::KeyCode;
use tooldojo::content::lessons::{BlockKind, BlockSpec};
use tooldojo::tui::blocks::{BlockWidget, build};

fn time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed().as_secs_f64() * 1000.0)
}

#[test]
#[ignore]
fn measure() {
    let env = env();
    type Spec<'a> = (&'a str, BlockKind, Vec<(&'a str, &'a str)>);
    let specs: Vec<Spec> = vec![
        (
            "predict get_ticket (23 rows)",
            BlockKind::Predict,
            vec![("fixture", "get_ticket")],
        ),
        (
            "predict validator (52 rows)",
            BlockKind::Predict,
            vec![("fixture", "validator")],
        ),
        (
            "playground validator",
            BlockKind::Playground,
            vec![("mode", "validator")],
        ),
        (
            "playground executor",
            BlockKind::Playground,
            vec![("mode", "executor")],
        ),
        (
            "trace bounded-concurrency",
            BlockKind::Trace,
            vec![("scenario", "bounded-concurrency")],
        ),
    ];
    for (name, kind, opts) in specs {
        let b = block(kind.clone(), &opts, "", BlockSpec::None);
        let (w, build_ms) = time(|| build(&b, &env).unwrap());
        let mut w: Box<dyn BlockWidget> = w;
        let (_, draw_ms) = time(|| {
            for _ in 0..100 {
                let _ = render(w.as_ref(), 200, 60);
            }
        });
        // A key that re-runs the real code: reveal all / a rule switch / step.
        let keys = match kind {
            BlockKind::Predict => vec![ch('1'), key(KeyCode::Enter), key(KeyCode::Enter)],
            BlockKind::Playground => vec![key(KeyCode::Tab), ch(' ')],
            _ => vec![key(KeyCode::End)],
        };
        let (_, key_ms) = time(|| press(w.as_mut(), &keys));
        println!(
            "{name:32} build {build_ms:7.2} ms   draw 200x60 {:6.3} ms   re-run key {key_ms:7.2} ms",
            draw_ms / 100.0
        );
    }
}
