//! The drill's questions: fixture rows to predict (answered by running the real validator
//! or executor), explain questions taken from the lessons' explain blocks, and the write-it
//! round. A seeded draw picks a mix; the same seed and the same due cards give the same
//! questions every time.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::content::lessons::{BlockKind, BlockSpec, Item};
use crate::course::lab::{ArgsInput, executor_run, validator_run};
use crate::course::{BlockEnv, LessonEntry};
use crate::json_text::json_compact;

use super::predict::{Predict, Source, rule_tested};
use crate::practice::{Function, Lang, cases};
use crate::sanitize::clean;

/// An explain question from a lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct Explain {
    /// `explain/LESSON#N` (N counts the lesson's explain blocks from 1).
    pub id: String,
    pub lesson: String,
    pub question: String,
    pub model_answer: String,
    pub points: Vec<String>,
    /// The time the lesson gives the answer ("in two minutes"), if it names one.
    pub budget_ms: Option<u64>,
}

/// One question of a drill.
#[derive(Debug, Clone, PartialEq)]
pub enum Question {
    Predict(Predict),
    Explain(Explain),
    /// Write `function` in the learner's own editor; the grader marks it.
    Write {
        lesson: String,
        function: crate::practice::Function,
    },
}

impl Question {
    pub fn id(&self) -> &str {
        match self {
            Question::Predict(p) => &p.id,
            Question::Explain(e) => &e.id,
            Question::Write { function, .. } => function.name(false),
        }
    }

    pub fn lesson(&self) -> &str {
        match self {
            Question::Predict(p) => &p.lesson,
            Question::Explain(e) => &e.lesson,
            Question::Write { lesson, .. } => lesson,
        }
    }

    /// A short name of the kind, for the scorecard and the transcript.
    pub fn kind(&self) -> &'static str {
        match self {
            Question::Predict(_) => "predict",
            Question::Explain(_) => "explain",
            Question::Write { .. } => "write it",
        }
    }
}

/// How many questions of each kind a drill asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mix {
    pub predict: usize,
    pub explain: usize,
    /// End with the write-it round.
    pub write: bool,
}

impl Default for Mix {
    fn default() -> Self {
        Mix {
            predict: 6,
            explain: 2,
            write: true,
        }
    }
}

/// Everything a drill may ask.
#[derive(Debug, Clone, Default)]
pub struct Pool {
    pub predict: Vec<Predict>,
    pub explain: Vec<Explain>,
    /// Every grading row (the write-it round grades one function's rows).
    pub grading: Vec<crate::practice::Row>,
}

/// The lesson that shows each predict row, keyed `FIXTURE/ID`, plus the first lesson with a
/// predict block of each fixture (for rows no block names).
fn row_lessons(lessons: &[LessonEntry]) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let mut by_row = BTreeMap::new();
    let mut by_group = BTreeMap::new();
    for entry in lessons {
        let Ok(lesson) = &entry.parsed else { continue };
        for item in lesson.pages.iter().flat_map(|p| &p.items) {
            let Item::Block(b) = item else { continue };
            if b.kind != BlockKind::Predict {
                continue;
            }
            let fixture = b.option("fixture").unwrap_or_default();
            for id in b.option("rows").unwrap_or_default().split(',') {
                by_row
                    .entry(format!("{fixture}/{}", id.trim()))
                    .or_insert_with(|| entry.id.clone());
            }
            let group = b.option("group").unwrap_or("*");
            by_group
                .entry(format!("{fixture}/{group}"))
                .or_insert_with(|| entry.id.clone());
            by_group
                .entry(format!("{fixture}/*"))
                .or_insert_with(|| entry.id.clone());
        }
    }
    (by_row, by_group)
}

/// The lesson that shows a fixture row: the block naming it, else one of its group, else
/// the first of its fixture.
fn lesson_of(maps: &(BTreeMap<String, String>, BTreeMap<String, String>), key: &str) -> String {
    let (fixture, id, group) = {
        let mut parts = key.splitn(3, '/');
        (
            parts.next().unwrap_or_default(),
            parts.next().unwrap_or_default(),
            parts.next().unwrap_or_default(),
        )
    };
    maps.0
        .get(&format!("{fixture}/{id}"))
        .or_else(|| maps.1.get(&format!("{fixture}/{group}")))
        .or_else(|| maps.1.get(&format!("{fixture}/*")))
        .cloned()
        .unwrap_or_default()
}

/// Every fixture row as a prediction, answered by the real code. Broken rows are left out
/// (`tooldojo check` names them).
fn fixture_rows(env: &BlockEnv, lessons: &[LessonEntry]) -> Vec<Predict> {
    let maps = row_lessons(lessons);
    let mut out = Vec::new();
    let named = validator_run::load_named_schemas(&env.content).unwrap_or_default();
    let cases = crate::validate::cases::validator_cases(&env.content).unwrap_or_default();
    for case in cases {
        let lesson = lesson_of(&maps, &format!("validator/{}/{}", case.id, case.group));
        out.extend(super::real::validator_predict(
            &case,
            &named,
            lesson,
            Source::Fixture,
        ));
    }
    for case in crate::course::lab::wire::wire_cases(&env.content).unwrap_or_default() {
        let lesson = lesson_of(&maps, &format!("wire/{}/{}", case.id, case.group));
        out.extend(super::real::wire_predict(&case, lesson, Source::Fixture));
    }
    let cases = crate::executor::cases::get_ticket_cases(&env.content).unwrap_or_default();
    for case in cases {
        let Ok(run) = executor_run::run_exec_case(&case, &env.records, None) else {
            continue;
        };
        let args = ArgsInput::from_case(&case.args, &case.args_text).display();
        let mut prompt = vec![
            ("tool", clean(&case.tool, false)),
            ("args", clean(&args, false)),
            ("session", executor_run::context_words(&case.context)),
        ];
        if case.mutate_result {
            prompt.push(("then", "the caller edits the returned ticket".to_owned()));
        }
        out.push(Predict {
            id: format!("get_ticket/{}", case.id),
            source: Source::Fixture,
            lesson: lesson_of(&maps, &format!("get_ticket/{}/{}", case.id, case.group)),
            who: "the real executor",
            prompt,
            choices: vec![
                "ok",
                "unknown_tool",
                "invalid_arguments",
                "forbidden",
                "not_found",
            ],
            tests: rule_tested(&run.outcome()).to_owned(),
            answer: run.outcome(),
            result: clean(&json_compact(&run.contract_envelope()), false),
            reason: clean(&case.reason, false),
        });
    }
    out
}

/// The answer time a text names: "in one minute", "in two minutes", "in 3 minutes".
pub fn time_named(text: &str) -> Option<u64> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(3).find_map(|w| {
        if w[0] != "in" || !w[2].starts_with("minute") {
            return None;
        }
        let n = match w[1] {
            "one" | "a" => 1,
            "two" => 2,
            "three" => 3,
            "four" => 4,
            "five" => 5,
            digits => digits.parse().ok()?,
        };
        Some(n * 60_000)
    })
}

/// Every explain block of every lesson, in course order.
fn explain_questions(lessons: &[LessonEntry]) -> Vec<Explain> {
    let mut out = Vec::new();
    for entry in lessons {
        let Ok(lesson) = &entry.parsed else { continue };
        let blocks = lesson
            .pages
            .iter()
            .flat_map(|p| p.items.iter().map(move |i| (p.title.as_str(), i)));
        let specs = blocks.filter_map(|(page, item)| match item {
            Item::Block(b) => match &b.spec {
                BlockSpec::Explain(e) => Some((page, e)),
                _ => None,
            },
            _ => None,
        });
        for (n, (page, e)) in specs.enumerate() {
            out.push(Explain {
                id: format!("explain/{}#{}", entry.id, n + 1),
                lesson: entry.id.clone(),
                question: crate::text::prose(&e.question),
                model_answer: crate::text::prose(&e.model_answer),
                points: e.key_points.iter().map(|k| crate::text::prose(k)).collect(),
                budget_ms: time_named(&e.question).or_else(|| time_named(page)),
            });
        }
    }
    out
}

impl Pool {
    /// Every question the content offers.
    pub fn build(env: &BlockEnv, lessons: &[LessonEntry]) -> Pool {
        let grading = crate::practice::cases::load(&env.content).unwrap_or_default();
        let mut predict = fixture_rows(env, lessons);
        predict.extend(grading.iter().filter_map(super::held::predict));
        // Held-back rows on nested declarations and protocols, under the lesson that shows
        // their group.
        let maps = row_lessons(lessons);
        let named = validator_run::load_named_schemas(&env.content).unwrap_or_default();
        let lesson = |fixture: &str, id: &str, group: &str| {
            lesson_of(&maps, &format!("{fixture}/{id}/{group}"))
        };
        predict.extend(super::real::held_back(&named, &lesson));
        Pool {
            predict,
            explain: explain_questions(lessons),
            grading,
        }
    }

    /// Add held-back rows to predict.
    pub fn extend_held_back(&mut self, rows: Vec<Predict>) {
        self.predict.extend(rows);
    }

    /// Draw a drill: questions due for review first (at most half of each kind), the rest
    /// shuffled by `seed`; predictions, then explanations, then the write-it round in `lang`.
    pub fn draw(&self, seed: u64, due: &[String], mix: Mix, lang: Lang) -> Vec<Question> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (held, rows): (Vec<Predict>, Vec<Predict>) = self
            .predict
            .iter()
            .cloned()
            .partition(|p| p.source == Source::HeldBack);
        // A third of the predictions are edge cases the lessons never show, when there are any.
        let n_held = (mix.predict / 3).min(held.len());
        let mut predict = pick(&rows, |p| &p.id, due, mix.predict - n_held, &mut rng);
        predict.extend(pick(&held, |p| &p.id, due, n_held, &mut rng));
        predict.shuffle(&mut rng);
        let explain = pick(&self.explain, |e| &e.id, due, mix.explain, &mut rng);
        let mut out: Vec<Question> = predict.into_iter().map(Question::Predict).collect();
        out.extend(explain.into_iter().map(Question::Explain));
        if mix.write {
            // The seed picks the function among those the language can be graded on: the
            // validator or the executor in Python, the executor in JavaScript.
            let functions = lang.functions();
            let n = seed % u64::try_from(functions.len()).unwrap_or(1);
            let function = functions[usize::try_from(n).unwrap_or(0)];
            let lesson = match function {
                Function::Validate => cases::LESSON_VALIDATE,
                Function::Execute => cases::LESSON_CONTRACT,
            };
            out.push(Question::Write {
                lesson: lesson.to_owned(),
                function,
            });
        }
        out
    }
}

/// `n` items: due ones first (up to half, rounded up), then a seeded shuffle of the rest.
fn pick<T: Clone>(
    all: &[T],
    id: impl Fn(&T) -> &String,
    due: &[String],
    n: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<T> {
    let room = n.div_ceil(2);
    let mut chosen: Vec<T> = due
        .iter()
        .filter_map(|d| all.iter().find(|q| id(q) == d))
        .take(room)
        .cloned()
        .collect();
    let mut rest: Vec<&T> = all
        .iter()
        .filter(|q| !chosen.iter().any(|c| id(c) == id(q)))
        .collect();
    rest.shuffle(rng);
    let left = n.saturating_sub(chosen.len());
    chosen.extend(rest.into_iter().take(left).cloned());
    chosen
}
