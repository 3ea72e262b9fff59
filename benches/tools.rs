//! The Your tools screen on the largest real tools file (BFCL's 3,522 declarations, from
//! `../shared/realworld/tools/bfcl/`, when it is there) and on the shipped example:
//! opening the screen (its first frame: the marks of every row in view and the selected
//! declaration's analysis), a frame once open, and a move down with the frame it asks for.
//! The aim is a 16 ms frame.

use std::path::PathBuf;
use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use tooldojo::content::Content;
use tooldojo::tools::{ToolSet, ToolsFile};
use tooldojo::tui::app::{App, Input};
use tooldojo::tui::{Config, screens};

fn bfcl() -> Option<ToolsFile> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/realworld/tools/bfcl/bfcl-v4-openai-chat-tools.json");
    let set = ToolSet::read(&path, None).ok()?;
    Some(ToolsFile {
        name: "bfcl".into(),
        set: Arc::new(set),
    })
}

fn example() -> ToolsFile {
    let text = include_str!("../fixtures/tools/issue-tracker.json");
    ToolsFile {
        name: "issue-tracker.json".into(),
        set: Arc::new(ToolSet::from_text(text, None).expect("the example reads")),
    }
}

fn open(file: &ToolsFile, size: Rect) -> App {
    let config = Config::new(Content::embedded());
    let (opts, env) = tooldojo::tui::setup(&config).expect("setup");
    screens::tools_screen(opts, env, Some(file.clone()), &[], size)
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("tools_frame");
    let mut files = vec![("example", example())];
    if let Some(b) = bfcl() {
        files.push(("bfcl", b));
    } else {
        eprintln!("note: ../shared/realworld/tools/bfcl not found; only the example is measured");
    }
    for (name, file) in &files {
        for (w, h) in [(80, 24), (160, 45)] {
            let size = Rect::new(0, 0, w, h);
            group.bench_function(format!("{name} open {w}x{h}"), |b| {
                b.iter_batched(
                    || file.clone(),
                    |f| std::hint::black_box(screens::draw_to_buffer(&open(&f, size))),
                    BatchSize::SmallInput,
                )
            });
            let app = open(file, size);
            let _ = screens::draw_to_buffer(&app);
            group.bench_function(format!("{name} frame {w}x{h}"), |b| {
                b.iter(|| std::hint::black_box(screens::draw_to_buffer(&app)))
            });
        }
        let mut app = open(file, Rect::new(0, 0, 160, 45));
        let n = file.set.tools.len();
        let mut i = 0usize;
        group.bench_function(format!("{name} move down 160x45"), |b| {
            b.iter(|| {
                i += 1;
                let code = if i % n.max(1) == 0 {
                    KeyCode::Home
                } else {
                    KeyCode::Down
                };
                let _ = app.update(Input::Key(KeyEvent::new(code, KeyModifiers::NONE)));
                std::hint::black_box(screens::draw_to_buffer(&app))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
