//! The lesson lint of `tooldojo check`, on small lesson and fixture trees in a tempdir.

use std::path::Path;

use tooldojo::check::CheckRow;
use tooldojo::content::Content;
use tooldojo::error::UserResult;

/// The lint as `tooldojo check` runs it, with the binary's own command names.
fn lint(content: &Content) -> UserResult<Vec<CheckRow>> {
    tooldojo::check::lint::lint(content, &tooldojo::cli::command_names())
}

fn case(id: &str, group: &str) -> String {
    format!(
        r#"{{"id": "{id}", "group": "{group}", "label": "l", "tool": "get_ticket",
            "args": {{"ticket_id": "TKT-104"}},
            "context": {{"tenant": "alpha", "can_read_tickets": true}},
            "expected": {{"ok": false, "code": "not_found"}}, "reason": "r"}}"#
    )
}

fn write_fixtures(dir: &Path) {
    let rows = [
        case("row-1", "row"),
        case("row-2", "row"),
        case("edge-a", "edge"),
    ];
    std::fs::write(
        dir.join("get_ticket_cases.json"),
        format!("[{}]", rows.join(",")),
    )
    .unwrap();
    std::fs::write(
        dir.join("validator_cases.json"),
        r#"[{"id": "seed-ok", "group": "seed", "schema": "weather",
             "args": {"city": "Paris"}, "expected": {"ok": true}, "reason": "r"},
            {"id": "trap-bool", "group": "trap", "schema": "weather",
             "args": {"city": true}, "expected": {"ok": false,
             "error": "type error: city expected str, got bool"}, "reason": "r"}]"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("schemas.json"),
        r#"{"weather": {"schema": {"city": "str"}, "required": ["city"]}}"#,
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("scenarios")).unwrap();
    std::fs::write(dir.join("scenarios/happy-path.json"), "{}").unwrap();
}

const GOOD: &str = "# Good
*About 5 minutes*

## Page
```predict fixture=get_ticket
```

```predict fixture=validator group=seed
```

```predict fixture=validator rows=trap-bool
```

```playground mode=validator schema=weather
{\"city\": \"Paris\"}
```

```playground mode=executor tenant=beta
```

```trace scenario=happy-path
```
";

struct Tree {
    _tmp: tempfile::TempDir,
    content: Content,
}

fn tree(lessons: &[(&str, &str)]) -> Tree {
    let tmp = tempfile::tempdir().unwrap();
    let ld = tmp.path().join("lessons");
    let fd = tmp.path().join("fixtures");
    std::fs::create_dir_all(&ld).unwrap();
    std::fs::create_dir_all(&fd).unwrap();
    write_fixtures(&fd);
    std::fs::write(ld.join("README.md"), "not a lesson").unwrap();
    for (name, text) in lessons {
        std::fs::write(ld.join(name), text).unwrap();
    }
    let content = Content::new(Some(&ld), Some(&fd));
    Tree { _tmp: tmp, content }
}

fn failing(rows: &[CheckRow]) -> Vec<String> {
    rows.iter()
        .filter(|r| !r.pass)
        .map(|r| format!("{} => {}", r.name, r.actual.as_str().unwrap_or("")))
        .collect()
}

#[test]
fn a_complete_course_passes() {
    let t = tree(&[("01-good.md", GOOD)]);
    let rows = lint(&t.content).unwrap();
    assert!(rows.iter().all(|r| r.suite == "lessons"));
    assert_eq!(failing(&rows), Vec::<String>::new());
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    for want in [
        "01-good.md lesson",
        "01-good.md:5 predict",
        "01-good.md:14 playground",
        "01-good.md:21 trace",
        "predicted get_ticket row-1",
        "predicted get_ticket edge-a",
        "predicted validator trap-bool",
        "traced happy-path",
        "playground validator",
        "playground executor",
    ] {
        assert!(names.contains(&want), "no row {want:?} in {names:?}");
    }
    let seen = rows
        .iter()
        .find(|r| r.name == "predicted validator seed-ok")
        .unwrap();
    assert_eq!(seen.actual, "01-good.md:8");
}

#[test]
fn a_lesson_that_does_not_parse_is_an_error_naming_file_and_line() {
    let broken = "# Broken\n*About 3 minutes*\n\ntext\n```predcit fixture=get_ticket\n```\n";
    let t = tree(&[("01-good.md", GOOD), ("02-broken.md", broken)]);
    let err = lint(&t.content).unwrap_err().message;
    assert!(
        err.contains("02-broken.md:5: unknown block kind `predcit`"),
        "{err}"
    );

    let bad_quiz = "# Q\n*About 3 minutes*\n```quiz\nWhy?\n- [x] a :: yes\n- [ ] b\n```\n";
    let t = tree(&[("01-q.md", bad_quiz)]);
    let err = lint(&t.content).unwrap_err().message;
    assert!(err.contains("01-q.md:6: a quiz choice needs"), "{err}");
}

#[test]
fn names_that_do_not_exist_fail_their_block_row() {
    let text = "# Missing
*About 5 minutes*

```predict fixture=get_ticket group=nope
```

```predict fixture=get_ticket group=row rows=row-1,edge-a,row-9
```

```playground mode=validator schema=wether
```

```trace scenario=no-such
```
";
    let t = tree(&[("01-good.md", GOOD), ("03-missing.md", text)]);
    let rows = lint(&t.content).unwrap();
    let fails = failing(&rows);
    assert_eq!(fails.len(), 4, "{fails:#?}");
    assert!(fails[0].starts_with("03-missing.md:4 predict => missing: group `nope`"));
    assert!(fails[1].starts_with("03-missing.md:7 predict => missing:"));
    assert!(fails[1].contains("row `edge-a` in group `row` (it is in `edge`)"));
    assert!(fails[1].contains("row `row-9` in fixtures/get_ticket_cases.json"));
    assert!(fails[2].contains("03-missing.md:10 playground => missing: schema `wether`"));
    assert!(
        fails[3].contains("03-missing.md:13 trace => missing: fixtures/scenarios/no-such.json")
    );
}

#[test]
fn rows_nobody_predicts_fail_by_id() {
    let text = "# Part
*About 5 minutes*

```predict fixture=get_ticket rows=row-1
```
";
    let t = tree(&[("01-part.md", text)]);
    let fails = failing(&lint(&t.content).unwrap());
    let joined = fails.join("\n");
    for id in ["row-2", "edge-a", "seed-ok", "trap-bool"] {
        assert!(
            joined.contains(&format!("{id} => row {id} is not predicted")),
            "{joined}"
        );
    }
    assert!(!joined.contains("row-1 =>"), "{joined}");
    assert!(joined.contains("traced happy-path => scenario happy-path has no trace"));
    assert!(joined.contains("playground validator => no lesson"));
}

#[test]
fn lessons_need_a_study_time_and_an_interactive_block() {
    let t = tree(&[
        ("01-good.md", GOOD),
        (
            "02-bare.md",
            "# Bare\n\nJust prose, and\n\n```json\n{}\n```\n",
        ),
    ]);
    let fails = failing(&lint(&t.content).unwrap());
    assert_eq!(fails.len(), 1, "{fails:#?}");
    assert!(fails[0].starts_with("02-bare.md lesson => no study-time line"));
    assert!(fails[0].contains("no interactive block"));
}

/// The prose row of `file` when `text` is linted beside the good lesson.
fn prose_of(file: &str, text: &str) -> CheckRow {
    let t = tree(&[("01-good.md", GOOD), (file, text)]);
    let rows = lint(&t.content).unwrap();
    rows.into_iter()
        .find(|r| r.name == format!("{file} prose"))
        .expect("a prose row")
}

fn prose_fails(file: &str, text: &str, wanted: &str) {
    let r = prose_of(file, text);
    assert!(!r.pass, "{file} passed: {r:?}");
    let actual = r.actual.as_str().unwrap_or_default();
    assert!(actual.contains(wanted), "{actual}");
}

const HEAD: &str = "# Prose\n*About 5 minutes*\n\n```checklist\n- one\n```\n";

#[test]
fn the_good_lesson_has_a_passing_prose_row() {
    let r = prose_of(
        "02-ok.md",
        &format!(
            "{HEAD}\nRun `tooldojo trace happy-path` and `tooldojo check`, as lesson 1 and \
             `01-good` say; the `happy-path` scenario ends with a `stopped` event, and \
             the `call_result` line names the category. Open it with \
             `tooldojo --lesson 01-good`.\n\n## Two\nSee page 1 and the page \"Two\".\n"
        ),
    );
    assert!(r.pass, "{r:?}");
}

#[test]
fn a_command_that_does_not_exist_fails() {
    prose_fails(
        "02-cmd.md",
        &format!("{HEAD}\nGrade it with `tooldojo grade mine.py`.\n"),
        "`tooldojo grade` is not a command",
    );
    // In a code block too.
    prose_fails(
        "02-cmd.md",
        &format!("{HEAD}\n```\ntooldojo replay x\n```\n"),
        "`tooldojo replay` is not a command",
    );
}

#[test]
fn a_lesson_that_does_not_exist_fails() {
    prose_fails(
        "02-id.md",
        &format!("{HEAD}\nOpen `--lesson 03-bool-int-trap` next.\n"),
        "lesson id `03-bool-int-trap` does not exist",
    );
    prose_fails(
        "02-id.md",
        &format!("{HEAD}\nAs lesson 7 shows.\n"),
        "lesson 7 does not exist",
    );
}

#[test]
fn a_scenario_that_does_not_exist_fails() {
    prose_fails(
        "02-sc.md",
        &format!("{HEAD}\nTry `tooldojo trace sad-path`.\n"),
        "scenario `sad-path` does not exist",
    );
    prose_fails(
        "02-sc.md",
        &format!("{HEAD}\nThe `sad-path` scenario shows it.\n"),
        "scenario `sad-path` does not exist",
    );
}

#[test]
fn page_references_must_resolve() {
    prose_fails(
        "02-pg.md",
        &format!("{HEAD}\nSee page 3.\n\n## Two\ntext\n"),
        "page 3 does not exist (this lesson has 2 pages)",
    );
    prose_fails(
        "02-pg.md",
        &format!("{HEAD}\n\n## Two\nAs the next page shows.\n"),
        "there is no next page",
    );
    prose_fails(
        "02-pg.md",
        &format!("{HEAD}\nThe last page weighs it.\n\n## Weighing\nt\n\n## Recap\nr\n"),
        "\"the last page\" is the recap here",
    );
    prose_fails(
        "02-pg.md",
        &format!("{HEAD}\nSee page 2 (\"Weighing\").\n\n## Weighting\nt\n"),
        "no page is titled \"Weighing\"",
    );
}

#[test]
fn an_event_the_trace_cannot_emit_fails() {
    prose_fails(
        "02-ev.md",
        &format!("{HEAD}\nWatch for the `call_started` event.\n"),
        "`call_started` is not an event the trace emits",
    );
    // Shaped like an event name, even without the word "event".
    prose_fails(
        "02-ev.md",
        &format!("{HEAD}\nThen `attempt_scheduled` follows.\n"),
        "`attempt_scheduled` is not an event",
    );
}
