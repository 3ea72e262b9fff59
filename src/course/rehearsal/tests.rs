use super::questions::time_named;
use super::*;
use crate::content::Content;
use crate::course::{BlockEnv, load_lessons};
use crate::practice::Function;

fn pool() -> Pool {
    let content = Content::new(None, None);
    let records = crate::executor::cases::tickets(&content).unwrap();
    let lessons = load_lessons(&content).unwrap();
    Pool::build(&BlockEnv::new(content, records, 0), &lessons)
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
    assert!(p.explain.iter().any(|e| e.lesson.starts_with("17-")));
    // Every wire row, under the lesson that predicts it; the nested and protocol rows held
    // back from the lessons go to the lessons that show their groups.
    let wire: Vec<&Predict> = p
        .predict
        .iter()
        .filter(|q| q.id.starts_with("wire/"))
        .collect();
    let content = Content::new(None, None);
    let rows = crate::course::lab::wire::wire_cases(&content).unwrap();
    assert_eq!(wire.len(), rows.len());
    assert!(wire.iter().all(|q| q.lesson.starts_with("15-")), "{wire:?}");
    let held = |prefix: &str| {
        p.predict
            .iter()
            .filter(|q| q.id.starts_with(prefix))
            .map(|q| q.lesson.as_str())
            .collect::<Vec<_>>()
    };
    let nested = held("held/held-nested-");
    let recorded = held("held/held-wire-");
    assert!(
        nested.len() >= 5 && nested.iter().all(|l| l.starts_with("14-")),
        "{nested:?}"
    );
    assert!(
        recorded.len() >= 5 && recorded.iter().all(|l| l.starts_with("15-")),
        "{recorded:?}"
    );
    // Lesson 16's material: its fixture rows, the rows held back from it and its explain
    // question, each under lesson 16.
    for prefix in [
        "validator/yours-",
        "validator/fixed-",
        "validator/log-",
        "held/held-yours-",
        "held/held-fixed-",
        "held/held-log-",
    ] {
        let lessons = held(prefix);
        assert!(
            lessons.len() >= 2 && lessons.iter().all(|l| *l == "16-your-tools-and-logs"),
            "{prefix}: {lessons:?}"
        );
    }
    assert!(
        p.explain
            .iter()
            .any(|e| e.id == "explain/16-your-tools-and-logs#1"),
        "lesson 16's explain question is in the pool"
    );
}

#[test]
fn explain_questions_keep_the_time_their_lesson_names() {
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
        .filter(|e| e.lesson.starts_with("17-"))
        .map(|e| (e.id.as_str(), e.budget_ms))
        .collect();
    assert!(timed.iter().any(|(_, b)| *b == Some(120_000)), "{timed:?}");
    assert!(timed.iter().any(|(_, b)| *b == Some(60_000)), "{timed:?}");
}

#[test]
fn held_back_edge_cases_are_asked_with_the_real_outcome() {
    let p = pool();
    let held: Vec<&Predict> = p
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
    // Lesson 16's held rows: the shipped tools file's gaps and its fixed copy.
    assert_eq!(by_id("held/held-yours-negative-page"), Some("value"));
    assert_eq!(by_id("held/held-fixed-missing-first"), Some("missing"));
    assert_eq!(by_id("held/held-fixed-page-one"), Some("ok"));
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
    let mut cfg = DrillConfig::new(4, 10);
    cfg.lang = Lang::Js;
    assert!(cfg.write_file().ends_with("tooldojo-rehearsal-4.js"));
    cfg.lang = Lang::Python;
    assert!(cfg.write_file().ends_with("tooldojo-rehearsal-4.py"));
}

#[test]
fn r_drills_in_the_language_of_the_practice_file_in_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(lang_in(dir.path()), Lang::Python, "no file: Python");
    std::fs::write(dir.path().join("solution.js"), "").unwrap();
    assert_eq!(lang_in(dir.path()), Lang::Js);
    std::fs::write(dir.path().join("solution.py"), "").unwrap();
    assert_eq!(lang_in(dir.path()), Lang::Python, "solution.py first, as P");
}

#[test]
fn a_type_row_names_the_trap_its_data_shows_and_no_other() {
    let p = pool();
    let typed: Vec<&Predict> = p.predict.iter().filter(|q| q.answer == "type").collect();
    assert!(typed.len() >= 10, "{}", typed.len());
    for q in &p.predict {
        let tests = q.tests.to_lowercase();
        assert!(!tests.contains("float apart"), "{}: {}", q.id, q.tests);
        if q.answer != "type" {
            assert!(!tests.contains("type check"), "{}: {}", q.id, q.tests);
            continue;
        }
        // The real code's message says what was declared and what came.
        let got = |t: &str| q.result.contains(&format!("got {t}"));
        let declared = |t: &str| q.result.contains(&format!("expected {t}"));
        assert!(
            tests.starts_with("the type check") || q.source == Source::HeldBack,
            "{}: {}",
            q.id,
            q.tests
        );
        assert_eq!(tests.contains("bool"), got("bool"), "{}: {}", q.id, q.tests);
        assert_eq!(
            tests.contains("null"),
            got("NoneType"),
            "{}: {}",
            q.id,
            q.tests
        );
        assert_eq!(
            tests.contains("float"),
            got("bool") && declared("float") || got("float") || got("int") && declared("float"),
            "{}: {} for {}",
            q.id,
            q.tests,
            q.result
        );
        assert_eq!(
            tests.contains("list"),
            declared("list") && !got("list"),
            "{}: {}",
            q.id,
            q.tests
        );
    }
    // The row the drill asks as Q6 of seed 3: null in an optional string.
    let state = p
        .predict
        .iter()
        .find(|q| q.id == "held/held-fixed-state-null")
        .expect("asked");
    assert_eq!(
        state.tests,
        "the type check: null for an optional field (leave the field out instead)"
    );
    let lone = p
        .predict
        .iter()
        .find(|q| q.id == "validator/yours-labels-lone")
        .expect("asked");
    assert_eq!(
        lone.tests,
        "the type check: a lone item where a list is declared"
    );
}
