use std::collections::BTreeMap;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::questions::Source;
use super::*;
use crate::content::Content;
use crate::tui::app::{block_env, load_lessons};

fn pool() -> Pool {
    let content = Content::new(None, None);
    let records = crate::executor::cases::tickets(&content).unwrap();
    let lessons = load_lessons(&content).unwrap();
    Pool::build(&block_env(content, records, 0), &lessons)
}

fn cfg(seed: u64) -> DrillConfig {
    DrillConfig {
        fixed_clock: Some(0),
        day: 1000,
        mix: Mix {
            predict: 4,
            explain: 1,
            write: false,
        },
        ..DrillConfig::new(seed, 2)
    }
}

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

fn enter() -> KeyEvent {
    KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)
}

fn esc() -> KeyEvent {
    KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)
}

fn ids(qs: &[Question]) -> Vec<String> {
    qs.iter().map(|q| q.id().to_owned()).collect()
}

#[test]
fn the_pool_holds_every_fixture_row_with_a_lesson_and_every_explain_block() {
    let p = pool();
    assert!(p.predict.len() > 40, "{}", p.predict.len());
    assert!(
        p.predict.iter().all(|q| !q.lesson.is_empty()),
        "every row links a lesson"
    );
    assert!(
        p.predict
            .iter()
            .all(|q| q.choices.contains(&q.answer.as_str()))
    );
    assert!(p.explain.len() >= 3);
    assert!(p.explain.iter().any(|e| e.lesson.starts_with("14-")));
}

#[test]
fn explain_questions_keep_the_time_their_lesson_names() {
    use super::questions::time_named;
    assert_eq!(
        time_named("Practice: the adapter in two minutes"),
        Some(120_000)
    );
    assert_eq!(time_named("In one minute: what does it mean"), Some(60_000));
    assert_eq!(time_named("Walk through it in 3 minutes."), Some(180_000));
    assert_eq!(time_named("Take a minute"), None);
    let p = pool();
    let timed: Vec<(&str, Option<u64>)> = p
        .explain
        .iter()
        .filter(|e| e.lesson.starts_with("14-"))
        .map(|e| (e.id.as_str(), e.budget_ms))
        .collect();
    assert!(timed.iter().any(|(_, b)| *b == Some(120_000)), "{timed:?}");
    assert!(timed.iter().any(|(_, b)| *b == Some(60_000)), "{timed:?}");
}

#[test]
fn held_back_edge_cases_are_asked_with_the_real_outcome() {
    let p = pool();
    let held: Vec<&super::questions::Predict> = p
        .predict
        .iter()
        .filter(|q| q.source == Source::HeldBack)
        .collect();
    assert!(held.len() >= 10, "{}", held.len());
    for q in &held {
        assert!(q.id.starts_with("held/"), "{}", q.id);
        assert!(q.choices.contains(&q.answer.as_str()), "{q:?}");
        assert!(!q.lesson.is_empty());
    }
    let by_id = |id: &str| held.iter().find(|q| q.id == id).map(|q| q.answer.as_str());
    // The bool/int trap, and a caller editing the returned copy.
    assert_eq!(by_id("held/held-bool-count"), Some("type"));
    assert_eq!(
        by_id("held/held-caller-edits-copy"),
        Some("store unchanged")
    );
    assert_eq!(
        by_id("held/held-trailing-newline"),
        Some("invalid_arguments")
    );
}

#[test]
fn the_same_seed_draws_the_same_questions() {
    let p = pool();
    let mix = Mix::default();
    let a = p.draw(7, &[], mix, Lang::Python);
    assert_eq!(ids(&a), ids(&p.draw(7, &[], mix, Lang::Python)));
    assert_eq!(a.len(), mix.predict + mix.explain + 1);
    let others: Vec<Vec<String>> = (8..12)
        .map(|s| ids(&p.draw(s, &[], mix, Lang::Python)))
        .collect();
    assert!(
        others.iter().any(|o| *o != ids(&a)),
        "other seeds draw others"
    );
}

#[test]
fn questions_due_for_review_are_drawn_first() {
    let p = pool();
    let due = vec![p.predict[3].id.clone(), p.explain[0].id.clone()];
    for seed in 0..5 {
        let drawn = ids(&p.draw(seed, &due, Mix::default(), Lang::Python));
        assert!(
            drawn.contains(&due[0]) && drawn.contains(&due[1]),
            "{drawn:?}"
        );
    }
}

#[test]
fn held_back_rows_take_a_third_of_the_predictions() {
    let mut p = pool();
    let mut held = p.predict[0].clone();
    held.id = "held/x".into();
    held.source = Source::HeldBack;
    let mut other = held.clone();
    other.id = "held/y".into();
    p.extend_held_back(vec![held, other]);
    let drawn = p.draw(3, &[], Mix::default(), Lang::Python);
    let n = drawn
        .iter()
        .filter(|q| matches!(q, Question::Predict(p) if p.source == Source::HeldBack))
        .count();
    assert_eq!(n, 2);
}

/// Answer every question: predictions with their first choice, explanations with words
/// and the first rubric point.
fn run_through(d: &mut Drill) {
    while d.running() {
        match d.questions()[d.current()].clone() {
            Question::Predict(_) => {
                let _ = d.on_key(key('1'));
                if d.phase() == Phase::Locked {
                    let _ = d.on_key(key('r'));
                }
                let _ = d.on_key(enter());
            }
            Question::Explain(_) => {
                for c in "q budgets first".chars() {
                    let _ = d.on_key(key(c));
                }
                let _ = d.on_key(esc());
                let _ = d.on_key(enter());
                if d.phase() == Phase::Locked {
                    let _ = d.on_key(key('r'));
                }
                let _ = d.on_key(key(' '));
                let _ = d.on_key(enter());
            }
            Question::Write { .. } => {
                let _ = d.on_key(enter());
            }
        }
    }
}

#[test]
fn a_drill_runs_to_its_scorecard_and_the_transcript_says_everything() {
    let p = pool();
    let mut d = Drill::new(cfg(11), &p, &[], BTreeMap::new(), None);
    run_through(&mut d);
    assert_eq!(d.answers().len(), 5);
    let card = d.scorecard();
    assert_eq!(card.asked, 5);
    let md = transcript::markdown(&d);
    assert!(md.contains("seed 11"), "{md}");
    assert!(md.contains("tooldojo rehearse --seed 11 --minutes 2"));
    for (i, q) in d.questions().iter().enumerate() {
        assert!(md.contains(&format!("## Q{}: {} (`{}`)", i + 1, q.kind(), q.id())));
        assert!(md.contains(q.lesson()));
        if let Question::Predict(p) = q {
            assert!(md.contains(&format!("Prediction: **{}**", p.choices[0])));
            assert!(md.contains(&format!("real outcome: **{}**", p.answer)));
        }
    }
    // The explanation: the words typed (`q` typed, not quit) and the rubric, first ticked.
    assert!(md.contains("q budgets first"));
    assert!(md.contains("- [x] "));
    assert!(md.contains(&format!("{} of {} right", card.right, card.asked)));
    assert_eq!(md.matches("- Time: ").count(), 5);
}

#[test]
fn q_asks_once_before_quitting_a_running_drill() {
    let p = pool();
    let mut d = Drill::new(cfg(2), &p, &[], BTreeMap::new(), None);
    assert_eq!(d.on_key(key('q')), DrillUpdate::Redraw);
    assert!(d.confirming_quit());
    assert_eq!(
        d.on_key(key('x')),
        DrillUpdate::Redraw,
        "any other key goes on"
    );
    assert!(!d.confirming_quit() && d.running());
    let _ = d.on_key(key('q'));
    assert_eq!(d.on_key(key('q')), DrillUpdate::Quit);
}

#[test]
fn interviewer_mode_hides_the_answer_until_revealed() {
    let p = pool();
    let mut c = cfg(5);
    c.interviewer = true;
    let mut d = Drill::new(c, &p, &[], BTreeMap::new(), None);
    let _ = d.on_key(key('2'));
    assert_eq!(d.phase(), Phase::Locked);
    assert_eq!(
        d.on_key(enter()),
        DrillUpdate::None,
        "Enter does not reveal"
    );
    let _ = d.on_key(key('r'));
    assert_eq!(d.phase(), Phase::Reveal);
}

#[test]
fn the_clock_redraws_once_a_second() {
    let p = pool();
    let mut d = Drill::new(cfg(4), &p, &[], BTreeMap::new(), None);
    d.cfg.fixed_clock = Some(1_200);
    assert_eq!(d.tick(), DrillUpdate::Redraw);
    d.cfg.fixed_clock = Some(1_250);
    assert_eq!(
        d.tick(),
        DrillUpdate::None,
        "the same second is not drawn again"
    );
    d.cfg.fixed_clock = Some(2_000);
    assert_eq!(d.tick(), DrillUpdate::Redraw);
}

#[test]
fn time_running_out_ends_the_drill_and_marks_the_rest() {
    let p = pool();
    let mut d = Drill::new(cfg(4), &p, &[], BTreeMap::new(), None);
    let _ = d.on_key(key('1'));
    let _ = d.on_key(enter());
    d.cfg.fixed_clock = Some(2 * 60_000);
    assert_eq!(d.tick(), DrillUpdate::Finished);
    assert!(!d.running());
    let out: Vec<_> = d.answers().iter().map(|a| a.given.clone()).collect();
    assert_eq!(out.len(), 5);
    assert!(out[1..].iter().all(|g| *g == score::Given::OutOfTime));
}

#[test]
fn a_finished_drill_feeds_the_review_cards_and_the_trend() {
    let p = pool();
    let mut d = Drill::new(cfg(9), &p, &[], BTreeMap::new(), None);
    run_through(&mut d);
    let mut r = review::Rehearsal::default();
    d.record(&mut r);
    let missed: Vec<&str> = d
        .answers()
        .iter()
        .filter(|a| !a.right())
        .map(|a| d.questions()[a.index].id())
        .collect();
    assert_eq!(r.cards.len(), missed.len());
    assert_eq!(r.due_on(1001).len(), missed.len());
    assert_eq!(r.drills.len(), 1);
    assert_eq!(r.drills[0].percent(), d.scorecard().percent());
}

#[test]
fn the_transcript_is_written_where_asked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("drill.md");
    let p = pool();
    let mut c = cfg(1);
    c.transcript = Some(path.clone());
    let mut d = Drill::new(c, &p, &[], BTreeMap::new(), None);
    run_through(&mut d);
    assert!(matches!(d.saved(), Some(Saved::To(_))));
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.starts_with("# tooldojo rehearsal, seed 1"));
}

#[test]
fn the_write_it_round_asks_what_the_language_can_be_graded_on() {
    let p = pool();
    let write_of = |seed: u64, lang: Lang| {
        p.draw(seed, &[], Mix::default(), lang)
            .into_iter()
            .find_map(|q| match q {
                Question::Write { function, .. } => Some(function),
                _ => None,
            })
            .expect("a write-it round")
    };
    // Python: the seed picks either function; JavaScript: always the executor.
    let py: Vec<Function> = (0..6).map(|s| write_of(s, Lang::Python)).collect();
    assert!(py.contains(&Function::Validate) && py.contains(&Function::Execute));
    assert!((0..6).all(|s| write_of(s, Lang::Js) == Function::Execute));
    let dir = std::path::Path::new("/d");
    assert!(write::file_for(dir, 4, Lang::Js).ends_with("tooldojo-rehearsal-4.js"));
    assert!(write::file_for(dir, 4, Lang::Python).ends_with("tooldojo-rehearsal-4.py"));
}

#[test]
fn r_drills_in_the_language_of_the_practice_file_in_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(write::lang_in(dir.path()), Lang::Python, "no file: Python");
    std::fs::write(dir.path().join("solution.js"), "").unwrap();
    assert_eq!(write::lang_in(dir.path()), Lang::Js);
    std::fs::write(dir.path().join("solution.py"), "").unwrap();
    assert_eq!(
        write::lang_in(dir.path()),
        Lang::Python,
        "solution.py first, as P"
    );
}
