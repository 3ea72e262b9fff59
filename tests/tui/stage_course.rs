//! The whole shipped course can be finished: every block of every lesson reaches its done
//! rule through the keys a learner has (the rules are listed in the README).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use tooldojo::content::Content;
use tooldojo::content::lessons::{BlockKind, Item};
use tooldojo::tui::blocks::{self, BlockWidget};

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn ch(c: char) -> KeyEvent {
    key(KeyCode::Char(c))
}

/// Press `keys` on an entered block.
fn keys(w: &mut dyn BlockWidget, keys: &[KeyEvent]) {
    for k in keys {
        let _ = w.handle_key(*k, true);
    }
}

/// Use a block the way a learner would, until it is done (or the keys run out).
fn finish(kind: &BlockKind, w: &mut dyn BlockWidget) {
    let _ = w.handle_key(key(KeyCode::Enter), false);
    for _ in 0..80 {
        if w.is_done() {
            return;
        }
        match kind {
            // Pick the first outcome, lock, reveal, next row.
            BlockKind::Predict => keys(
                w,
                &[
                    ch('1'),
                    key(KeyCode::Enter),
                    key(KeyCode::Enter),
                    key(KeyCode::Down),
                ],
            ),
            // Each choice in turn, retrying after a wrong one.
            BlockKind::Quiz => {
                for d in '1'..='9' {
                    keys(w, &[ch(d)]);
                    if w.is_done() {
                        return;
                    }
                    keys(w, &[ch('r')]);
                }
            }
            BlockKind::Checklist => keys(w, &[ch(' '), key(KeyCode::Down)]),
            BlockKind::Explain => keys(
                w,
                &[key(KeyCode::Enter), ch('x'), key(KeyCode::Esc), ch('c')],
            ),
            BlockKind::Trace => {
                keys(w, &[key(KeyCode::End)]);
                while w.tick() {}
            }
            // Edit the arguments, then look for the rule switches panel.
            BlockKind::Playground => keys(
                w,
                &[
                    key(KeyCode::Enter),
                    ch(' '),
                    key(KeyCode::Esc),
                    key(KeyCode::Tab),
                    ch(' '),
                ],
            ),
        }
    }
}

#[test]
fn every_block_of_every_shipped_lesson_can_be_finished() {
    let content = Content::embedded();
    let records = tooldojo::executor::cases::tickets(&content).unwrap();
    let env = tooldojo::course::BlockEnv::new(content.clone(), records, 0);
    let lessons = tooldojo::course::load_lessons(&content).unwrap();
    let mut blocks_seen = 0;
    for entry in &lessons {
        let lesson = entry.parsed.as_ref().expect("shipped lessons parse");
        for (p, page) in lesson.pages.iter().enumerate() {
            for item in &page.items {
                let Item::Block(block) = item else { continue };
                let mut w = blocks::build(block, &env).expect("shipped blocks build");
                finish(&block.kind, w.as_mut());
                assert!(
                    w.is_done(),
                    "{} page {} line {}: {:?} block not done; left: {:?}",
                    entry.id,
                    p + 1,
                    block.line,
                    block.kind,
                    w.remaining()
                );
                assert!(w.remaining().is_empty(), "done means nothing is left");
                blocks_seen += 1;
            }
        }
    }
    assert!(
        blocks_seen > 20,
        "the course has its blocks ({blocks_seen})"
    );
}
