//! A prediction fits the window it is drawn in: at 80x24 the question, the call's arguments
//! and every choice are in view while the clock runs, and a schema too tall for the rows
//! they leave scrolls on its own, marked; a bigger window shows more of it.

use std::collections::BTreeMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::content::Content;
use crate::course::rehearsal::Predict;
use crate::course::{BlockEnv, load_lessons};
use crate::tui::theme::{Theme, ThemeName};

fn pool() -> Pool {
    let content = Content::new(None, None);
    let records = crate::executor::cases::tickets(&content).unwrap();
    let lessons = load_lessons(&content).unwrap();
    Pool::build(&BlockEnv::new(content, records, 0), &lessons)
}

/// The drill `tooldojo rehearse --seed SEED` opens, its clock stopped.
fn drill(p: &Pool, seed: u64) -> Drill {
    let cfg = DrillConfig {
        fixed_clock: Some(0),
        day: 1000,
        quits_app: true,
        ..DrillConfig::new(seed, 10)
    };
    Drill::new(cfg, p, &[], BTreeMap::new(), None)
}

fn draw(d: &Drill, (w, h): (u16, u16), present: bool, ascii: bool) -> String {
    let area = ratatui::layout::Rect::new(0, 0, w, h);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    d.render(area, &mut buf, &Theme::new(ThemeName::Mono, ascii), present);
    crate::text::screen_text(&buf)
}

fn page(d: &mut Drill, code: KeyCode) {
    let _ = d.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

/// Skip the open question (Ctrl-S: an explanation opens in its editor, where `s` types).
fn skip(d: &mut Drill) {
    let _ = d.on_key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL));
}

/// Each prediction of the drill drawn with `seed`, the drill opened at it.
fn each_prediction(p: &Pool, seed: u64, mut f: impl FnMut(&mut Drill, &Predict)) {
    let mut d = drill(p, seed);
    while d.running() {
        if let Question::Predict(q) = d.questions()[d.current()].clone() {
            f(&mut d, &q);
        }
        skip(&mut d);
    }
}

/// The choices as drawn: ` 1 ok`, `2 missing`, ...
fn choice_rows(q: &Predict) -> Vec<String> {
    (q.choices.iter().enumerate())
        .map(|(i, c)| format!("{} {c}", i + 1))
        .collect()
}

#[test]
fn at_80x24_every_choice_of_every_prediction_is_in_view() {
    let p = pool();
    let mut seen = 0;
    for seed in [1, 2, 3, 4, 5, 7, 11, 42] {
        each_prediction(&p, seed, |d, q| {
            seen += 1;
            for (present, ascii) in [(false, false), (true, false), (false, true)] {
                let text = draw(d, (80, 24), present, ascii);
                let at = format!("seed {seed}, Q{} ({present}, {ascii})", d.current() + 1);
                assert!(
                    text.contains(&format!("What does {} say?", q.who)),
                    "{at}:\n{text}"
                );
                for row in choice_rows(q) {
                    assert!(text.contains(&row), "{row:?} at {at}:\n{text}");
                }
                // The arguments stay in view: they are what the question is about.
                if q.prompt.iter().any(|(l, _)| *l == "args") {
                    assert!(text.contains(" args: "), "{at}:\n{text}");
                }
            }
        });
    }
    assert!(seen > 20, "{seen} predictions");
}

#[test]
fn a_tall_schema_scrolls_alone_with_a_mark_and_the_choices_stay() {
    let p = pool();
    let mut tall = 0;
    each_prediction(&p, 3, |d, q| {
        let text = draw(d, (80, 24), false, false);
        if !text.contains("more lines of the schema below: PgDn") {
            assert!(!text.contains("more lines"), "{text}");
            return;
        }
        tall += 1;
        // The key bar and the help name what PgUp/PgDn do here.
        assert!(text.contains("PgUp/PgDn scroll"), "{text}");
        page(d, KeyCode::PageDown);
        let down = draw(d, (80, 24), false, false);
        assert!(down.contains("lines of the schema above: PgUp"), "{down}");
        for row in choice_rows(q) {
            assert!(down.contains(&row), "{row:?} after PgDn:\n{down}");
        }
        for _ in 0..20 {
            page(d, KeyCode::PageDown);
        }
        let end = draw(d, (80, 24), false, false);
        assert!(!end.contains("of the schema below"), "at its end:\n{end}");
        let _ = d.on_key(KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE));
        let help = draw(d, (80, 24), false, false);
        assert!(help.contains("scroll the schema"), "{help}");
        let _ = d.on_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
        page(d, KeyCode::PageUp);
        page(d, KeyCode::PageUp);
        page(d, KeyCode::PageUp);
        assert_eq!(draw(d, (80, 24), false, false), text, "back at its top");
    });
    assert!(tall >= 2, "seed 3 has big schemas: {tall}");
}

#[test]
fn a_bigger_window_shows_more_of_the_schema_and_a_big_enough_one_all_of_it() {
    let p = pool();
    let mut d = drill(&p, 3);
    // Q6 of seed 3: search_issues, the tallest schema of the drill.
    while d.current() < 5 {
        skip(&mut d);
    }
    let shown = |text: &str| text.lines().filter(|l| l.contains('"')).count();
    let small = draw(&d, (80, 24), false, false);
    let middle = draw(&d, (120, 35), false, false);
    let big = draw(&d, (160, 45), false, false);
    assert!(small.contains("search_issues_fixed {"), "{small}");
    assert!(shown(&middle) > shown(&small), "{small}\n{middle}");
    assert!(!big.contains("more lines"), "{big}");
    assert!(big.contains(r#""additionalProperties": false}}"#), "{big}");
    assert!(!big.contains("PgUp/PgDn"), "nothing to scroll: {big}");
}

#[test]
fn once_answered_the_outcome_shows_under_the_choices() {
    let p = pool();
    let mut d = drill(&p, 3);
    while d.current() < 5 {
        skip(&mut d);
    }
    let _ = d.on_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    assert_eq!(d.phase(), Phase::Reveal);
    let text = draw(&d, (80, 24), false, false);
    assert!(
        text.contains("wrong: the real validator answered"),
        "{text}"
    );
    assert!(text.contains("Enter: the next question."), "{text}");
    assert!(text.contains("6 parse"), "{text}");
    assert!(text.contains("of the schema below: PgDn"), "{text}");
}
