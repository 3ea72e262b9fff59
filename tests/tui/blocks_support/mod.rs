//! Helpers shared by the blocks test files: keys, envs, off-screen rendering.
#![allow(dead_code)]

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use tooldojo::content::Content;
use tooldojo::content::lessons::{Block, BlockKind, BlockSpec};
use tooldojo::text::cell_text as buffer_text;
use tooldojo::tui::blocks::{BlockEnv, BlockOutcome, BlockWidget, RenderCtx};
use tooldojo::tui::theme::{Theme, ThemeName};

pub fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

pub fn ch(c: char) -> KeyEvent {
    key(KeyCode::Char(c))
}

/// Press keys with the block active.
pub fn press(w: &mut dyn BlockWidget, keys: &[KeyEvent]) {
    let _ = press_out(w, keys);
}

/// Press keys with the block active; returns the last outcome.
pub fn press_out(w: &mut dyn BlockWidget, keys: &[KeyEvent]) -> BlockOutcome {
    let mut last = BlockOutcome::Ignored;
    for k in keys {
        last = w.handle_key(*k, true);
    }
    last
}

/// Type text into whatever editor is active.
pub fn type_text(w: &mut dyn BlockWidget, text: &str) {
    for c in text.chars() {
        let k = if c == '\n' {
            key(KeyCode::Enter)
        } else {
            ch(c)
        };
        let _ = w.handle_key(k, true);
    }
}

pub fn env() -> BlockEnv {
    let content = Content::embedded();
    let records = tooldojo::executor::cases::tickets(&content).unwrap_or_default();
    BlockEnv {
        content: Arc::new(content),
        records: Arc::new(records),
        seed: 0,
    }
}

pub fn block(kind: BlockKind, options: &[(&str, &str)], body: &str, spec: BlockSpec) -> Block {
    Block {
        kind,
        options: options
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
        body: body.to_owned(),
        line: 7,
        spec,
    }
}

pub fn render_with(w: &dyn BlockWidget, width: u16, height: u16, theme: &Theme) -> String {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    w.render(
        area,
        &mut buf,
        &RenderCtx {
            theme,
            focused: true,
            active: true,
            demo: false,
        },
    );
    buffer_text(&buf)
}

/// Render at `width` x `height` with the default theme.
pub fn render(w: &dyn BlockWidget, width: u16, height: u16) -> String {
    render_with(w, width, height, &Theme::new(ThemeName::Default, false))
}

/// Every size from 1x1 up to a few small ones, in every theme: nothing may panic.
pub fn render_tiny_sizes(w: &dyn BlockWidget) {
    for theme in [
        Theme::new(ThemeName::Default, false),
        Theme::new(ThemeName::Mono, true),
    ] {
        for (x, y) in [
            (1, 1),
            (2, 1),
            (1, 3),
            (5, 2),
            (10, 3),
            (20, 5),
            (30, 8),
            (0, 0),
        ] {
            let area = Rect::new(0, 0, x, y);
            let mut buf = Buffer::empty(area);
            w.render(
                area,
                &mut buf,
                &RenderCtx {
                    theme: &theme,
                    focused: true,
                    active: true,
                    demo: false,
                },
            );
        }
        // An area larger than the buffer must be clipped, not panic.
        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 4));
        w.render(
            Rect::new(5, 2, 80, 24),
            &mut buf,
            &RenderCtx {
                theme: &theme,
                focused: false,
                active: false,
                demo: false,
            },
        );
    }
}
