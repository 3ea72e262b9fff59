//! What a passing grade ticks: a checklist names, with its `grader=` option, which of its
//! items each graded function earns (`grader=execute:1,validate:2`). When every row of a
//! function passes, those items are ticked in the progress, whether the grade came from
//! the app or from `tooldojo practice` on the command line.

use serde_json::{Value, json};

use crate::content::lessons::{BlockKind, Item};
use crate::course::LessonEntry;
use crate::course::progress::{self, Progress, Store, state_dir};
use crate::practice::{Function, Report, RowResult};

/// A newly ticked checklist: lesson index, page, block index on the page, its new state.
pub type Ticked = (usize, usize, usize, Value);

/// The functions of `report` whose every row passed.
pub fn passed_functions(report: &Report) -> Vec<Function> {
    report
        .graded
        .iter()
        .copied()
        .filter(|f| {
            let mine: Vec<&RowResult> = report.rows.iter().filter(|x| x.function == *f).collect();
            !mine.is_empty() && mine.iter().all(|x| x.passed())
        })
        .collect()
}

/// Tick, in `progress`, every checklist item a `grader=` option hands to `function`.
/// `live` gives the state of a block that is on screen (it wins over the saved one).
pub fn tick_graded(
    lessons: &[LessonEntry],
    progress: &mut Progress,
    function: Function,
    live: impl Fn(usize, usize, usize) -> Option<Value>,
) -> Vec<Ticked> {
    let word = match function {
        Function::Validate => "validate",
        Function::Execute => "execute",
    };
    let mut out = Vec::new();
    for (l, entry) in lessons.iter().enumerate() {
        let Ok(lesson) = &entry.parsed else { continue };
        for (p, page) in lesson.pages.iter().enumerate() {
            let blocks = page.items.iter().filter_map(|i| match i {
                Item::Block(b) => Some(b),
                _ => None,
            });
            for (b, block) in blocks.enumerate() {
                if block.kind != BlockKind::Checklist {
                    continue;
                }
                for (_, item) in block.grader_items().into_iter().filter(|(f, _)| f == word) {
                    let key = progress::block_key(p, b);
                    let lp = progress.lessons.entry(entry.id.clone()).or_default();
                    let state = live(l, p, b)
                        .or_else(|| lp.blocks.get(&key).cloned())
                        .unwrap_or(Value::Null);
                    if let Some(state) = tick(state, item) {
                        lp.blocks.insert(key, state.clone());
                        out.push((l, p, b, state));
                    }
                }
            }
        }
    }
    out
}

/// A checklist's saved state with item `item` ticked, or `None` when it already was.
fn tick(state: Value, item: usize) -> Option<Value> {
    let mut ticked: Vec<bool> = state
        .get("ticked")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|v| v.as_bool().unwrap_or(false)).collect())
        .unwrap_or_default();
    if ticked.get(item) == Some(&true) {
        return None;
    }
    if ticked.len() <= item {
        ticked.resize(item + 1, false);
    }
    ticked[item] = true;
    Some(json!({ "ticked": ticked }))
}

/// What a pass recorded outside the app: the functions that passed and the lessons whose
/// checklists were ticked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// As the learner's language names them (`validate_tool_args`, `executeTool`).
    pub functions: Vec<&'static str>,
    /// The ticked lessons, by number where the file name has one (else by id).
    pub lessons: Vec<String>,
}

impl Recorded {
    /// The line `tooldojo practice` prints.
    pub fn line(&self) -> String {
        let plural = if self.lessons.len() == 1 { "" } else { "s" };
        format!(
            "Every row of your {} passed: ticked on the course checklist (lesson{plural} {}).",
            self.functions.join(" and "),
            self.lessons.join(", ")
        )
    }
}

/// After a grading run outside the app (`tooldojo practice FILE`): tick, in the saved
/// progress, the checklist items the passing functions earn. `None` when nothing was newly
/// ticked. A progress file that does not parse is left alone (the app reports it).
pub fn record_pass(lessons: &[LessonEntry], report: &Report) -> Option<Recorded> {
    let passed = passed_functions(report);
    if passed.is_empty() {
        return None;
    }
    let dir = state_dir()?;
    let path = dir.join("progress.json");
    if path.exists() {
        let text = std::fs::read_to_string(&path).ok()?;
        serde_json::from_str::<Progress>(&text).ok()?;
    }
    let opened = Store::open(Some(dir), false);
    if !opened.store.writable {
        // Nothing would be saved (a file from a later version, a directory not writable):
        // claim no tick.
        return None;
    }
    let mut progress = opened.progress;
    let ids: Vec<String> = lessons.iter().map(|l| l.id.clone()).collect();
    progress.follow_renames(&ids);
    let mut ticked: Vec<usize> = Vec::new();
    for &f in &passed {
        let newly = tick_graded(lessons, &mut progress, f, |_, _, _| None);
        ticked.extend(newly.iter().map(|(l, ..)| *l));
    }
    if ticked.is_empty() {
        return None;
    }
    ticked.sort_unstable();
    ticked.dedup();
    opened.store.save(&progress).ok()?;
    Some(Recorded {
        functions: passed.iter().map(|f| f.name(report.lang.is_js())).collect(),
        lessons: ticked
            .iter()
            .map(|&l| {
                let entry = &lessons[l];
                entry
                    .number()
                    .map_or_else(|| entry.id.clone(), |n| n.to_string())
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::course::load_lessons;

    #[test]
    fn ticking_keeps_the_other_items() {
        assert_eq!(
            tick(json!({"ticked": [false, true, false]}), 0),
            Some(json!({"ticked": [true, true, false]}))
        );
        assert_eq!(tick(json!({"ticked": [true]}), 0), None);
        assert_eq!(tick(json!(null), 1), Some(json!({"ticked": [false, true]})));
    }

    #[test]
    fn a_passing_grade_ticks_the_items_its_checklist_hands_to_the_grader() {
        let lessons = load_lessons(&Content::new(None, None)).unwrap();
        let mut progress = Progress::default();
        let ticked = tick_graded(&lessons, &mut progress, Function::Execute, |_, _, _| None);
        assert_eq!(ticked.len(), 1, "one checklist names execute:1");
        let (l, p, b, state) = &ticked[0];
        let id = &lessons[*l].id;
        assert!(id.starts_with("17-"), "{id}");
        assert_eq!(state, &json!({"ticked": [true]}));
        assert_eq!(
            progress.lessons[id].blocks[&progress::block_key(*p, *b)],
            json!({"ticked": [true]})
        );
        // Once ticked, a second pass changes nothing; the validator's pass ticks item 2.
        assert!(tick_graded(&lessons, &mut progress, Function::Execute, |_, _, _| None).is_empty());
        let more = tick_graded(&lessons, &mut progress, Function::Validate, |_, _, _| None);
        assert_eq!(more[0].3, json!({"ticked": [true, true]}));
    }

    #[test]
    fn the_line_names_the_lessons_whose_checklist_was_ticked() {
        let one = Recorded {
            functions: vec!["execute_tool"],
            lessons: vec!["17".into()],
        };
        assert_eq!(
            one.line(),
            "Every row of your execute_tool passed: ticked on the course checklist (lesson 17)."
        );
        let two = Recorded {
            functions: vec!["validate_tool_args", "execute_tool"],
            lessons: vec!["3".into(), "17".into()],
        };
        assert!(two.line().ends_with("(lessons 3, 17)."), "{}", two.line());
    }

    /// A pass graded on the command line while the app is open in another window: the
    /// app's next save keeps the tick (it writes only what changed in the app).
    #[test]
    fn a_tick_recorded_while_the_app_is_open_survives_the_apps_save() {
        let lessons = load_lessons(&Content::new(None, None)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let open = |dir: &tempfile::TempDir| Store::open(Some(dir.path().to_path_buf()), false);
        let app = open(&dir);
        let practice = open(&dir);
        let mut ticked = practice.progress.clone();
        let newly = tick_graded(&lessons, &mut ticked, Function::Execute, |_, _, _| None);
        assert_eq!(newly.len(), 1);
        practice.store.save(&ticked).unwrap();
        let mut mine = app.progress.clone();
        mine.sidebar_hidden = true;
        app.store.save(&mine).unwrap();
        let saved = open(&dir).progress;
        let (l, p, b, state) = &newly[0];
        assert_eq!(
            &saved.lessons[&lessons[*l].id].blocks[&progress::block_key(*p, *b)],
            state
        );
        assert!(saved.sidebar_hidden);
    }
}
