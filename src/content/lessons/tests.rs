use super::*;
use crate::content::TextFile;
use crate::error::UserResult;

fn file(text: &str) -> TextFile {
    TextFile {
        display: "lessons/01-demo.md".into(),
        rel: "01-demo.md".into(),
        text: text.into(),
    }
}

fn parse(text: &str) -> UserResult<Lesson> {
    parse_lesson(&file(text))
}

fn err_of(text: &str) -> String {
    parse(text).expect_err("should fail").message
}

const GOOD: &str = "\
# Demo lesson
*About 12 minutes*

Intro prose.

## First page
Some text.

```json
{\"a\": 1}
## not a heading
```

```predict fixture=get_ticket group=row
```

## Second page
```quiz
Which check runs first?
- [ ] unknown arg :: it runs second
- [x] missing required arg :: nothing else makes sense
  without the required names
```

```explain
Why?
---
Because.
---
- point one
- point two
```

```checklist
- item one
- item two
```

```playground mode=executor tenant=beta read=deny
{\"ticket_id\": \"TKT-104\"}
```

```trace scenario=happy-path seed=7
```
";

#[test]
fn parses_a_whole_lesson() {
    let l = parse(GOOD).unwrap();
    assert_eq!(l.id, "01-demo");
    assert_eq!(l.title, "Demo lesson");
    assert_eq!(l.minutes, 12);
    assert_eq!(l.file, "lessons/01-demo.md");
    let titles: Vec<&str> = l.pages.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(titles, ["Demo lesson", "First page", "Second page"]);
    assert_eq!(
        l.pages[0].items,
        vec![Item::Markdown("Intro prose.".into())]
    );
    // The json fence and its `## ` line stay prose on the first page.
    match &l.pages[1].items[0] {
        Item::Markdown(m) => {
            assert!(m.contains("```json") && m.contains("## not a heading"));
        }
        other => panic!("{other:?}"),
    }
    let blocks: Vec<&Block> = l.blocks().collect();
    let kinds: Vec<&str> = blocks.iter().map(|b| b.kind.name()).collect();
    assert_eq!(
        kinds,
        [
            "predict",
            "quiz",
            "explain",
            "checklist",
            "playground",
            "trace"
        ]
    );
    let lines: Vec<usize> = blocks.iter().map(|b| b.line).collect();
    assert_eq!(lines, [14, 18, 25, 34, 39, 43]);
    assert_eq!(blocks[0].option("group"), Some("row"));
    assert_eq!(blocks[0].option("fixture"), Some("get_ticket"));
    match &blocks[1].spec {
        BlockSpec::Quiz(q) => {
            assert_eq!(q.question, "Which check runs first?");
            assert_eq!(q.choices.len(), 2);
            assert!(!q.choices[0].correct && q.choices[1].correct);
            assert_eq!(
                q.choices[1].why,
                "nothing else makes sense without the required names"
            );
        }
        other => panic!("{other:?}"),
    }
    match &blocks[2].spec {
        BlockSpec::Explain(e) => {
            assert_eq!(e.question, "Why?");
            assert_eq!(e.model_answer, "Because.");
            assert_eq!(e.key_points, ["point one", "point two"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        blocks[3].spec,
        BlockSpec::Checklist(Checklist {
            items: vec!["item one".into(), "item two".into()]
        })
    );
    assert_eq!(blocks[4].body, "{\"ticket_id\": \"TKT-104\"}");
    assert_eq!(blocks[4].option("read"), Some("deny"));
    assert_eq!(blocks[5].option("seed"), Some("7"));
}

#[test]
fn rows_option_splits_ids() {
    let l = parse("# T\n*About 1 minute*\n```predict fixture=validator rows=a,b\n```\n").unwrap();
    let b = l.blocks().next().unwrap();
    assert_eq!(b.rows(), ["a", "b"]);
    assert_eq!(l.minutes, 1);
}

#[test]
fn missing_minutes_is_zero_for_the_lint() {
    let l = parse("# T\ntext\n").unwrap();
    assert_eq!(l.minutes, 0);
    assert_eq!(l.pages.len(), 1);
}

#[test]
fn empty_intro_is_dropped() {
    let l = parse("# T\n*About 3 minutes*\n\n## Only\nx\n").unwrap();
    assert_eq!(l.pages.len(), 1);
    assert_eq!(l.pages[0].title, "Only");
}

/// Malformed lessons and the start of the error each must give (after the file name).
const ERROR_CASES: &[(&str, &str)] = &[
    ("no title\n", "lessons/01-demo.md:1: a lesson starts"),
    ("\n\n#Title\n", "lessons/01-demo.md:3: a lesson starts"),
    (
        "# T\n\n```predcit fixture=x\n```\n",
        "lessons/01-demo.md:3: unknown block kind `predcit`",
    ),
    (
        "# T\n```trace scenario\n```\n",
        "lessons/01-demo.md:2: malformed option `scenario`",
    ),
    (
        "# T\n```trace scenario=\n```\n",
        "lessons/01-demo.md:2: malformed option",
    ),
    (
        "# T\n```trace scenario=a scenario=b\n```\n",
        ":2: option `scenario` given twice",
    ),
    ("# T\n\n\n```quiz\nQ\n", ":4: code fence is never closed"),
    (
        "# T\n```quiz\nQ?\n- [ ] a :: no\n- [ ] b :: no\n```\n",
        ":2: a quiz needs at least one `- [x]`",
    ),
    (
        "# T\n```quiz\nQ?\n- [x] a :: yes\n- [ ] b\n```\n",
        ":5: a quiz choice needs ` :: why`",
    ),
    (
        "# T\n```quiz\n- [x] a :: yes\n- [ ] b :: no\n```\n",
        ":2: a quiz starts",
    ),
    (
        "# T\n```quiz\nQ?\n- [x] a :: yes\n```\n",
        ":2: a quiz needs at least two",
    ),
    (
        "# T\n```quiz\nQ?\n- [x] a :: yes\nstray\n```\n",
        ":5: expected a `- [x] choice :: why` line",
    ),
    (
        "# T\n```explain\nQ\n---\nA\n```\n",
        ":2: an explain block is",
    ),
    (
        "# T\n```explain\nQ\n---\n---\n- p\n```\n",
        ":4: an explain block needs a model",
    ),
    (
        "# T\n```explain\nQ\n---\nA\n---\n```\n",
        ":6: an explain block needs `- key",
    ),
    (
        "# T\n```explain\nQ\n---\nA\n---\nnot a point\n```\n",
        ":7: expected a `- key point`",
    ),
    ("# T\n```checklist\n```\n", ":2: a checklist needs"),
    (
        "# T\n```checklist\n- a\nb\n```\n",
        ":4: expected a `- item` line",
    ),
    (
        "# T\n```predict group=row\n```\n",
        ":2: a predict block needs fixture=",
    ),
    (
        "# T\n```predict fixture=weather\n```\n",
        ":2: predict option fixture=weather",
    ),
    (
        "# T\n```predict fixture=validator colour=red\n```\n",
        ":2: unknown option `colour`",
    ),
    (
        "# T\n```predict fixture=validator rows=a,,b\n```\n",
        ":2: malformed option rows",
    ),
    (
        "# T\n```predict fixture=validator\nbody\n```\n",
        ":3: a predict block takes no body",
    ),
    (
        "# T\n```checklist grader=run:1\n- a\n```\n",
        ":2: checklist option grader=run:1",
    ),
    (
        "# T\n```checklist grader=execute:0\n- a\n```\n",
        ":2: checklist option grader=execute:0",
    ),
    (
        "# T\n```quiz x=1\nQ\n```\n",
        ":2: a quiz block takes no options",
    ),
    (
        "# T\n```playground schema=weather\n```\n",
        ":2: a playground block needs mode=",
    ),
    (
        "# T\n```playground mode=validator\n```\n",
        ":2: a playground block needs schema=",
    ),
    (
        "# T\n```playground mode=validator schema=w tenant=alpha\n```\n",
        ":2: option `tenant` is for mode=executor",
    ),
    (
        "# T\n```playground mode=executor schema=w\n```\n",
        ":2: option `schema` is for",
    ),
    (
        "# T\n```playground mode=executor tenant=delta\n```\n",
        ":2: playground option tenant=delta",
    ),
    (
        "# T\n```playground mode=executor read=maybe\n```\n",
        ":2: playground option read=maybe",
    ),
    (
        "# T\n```trace seed=1\n```\n",
        ":2: a trace block needs scenario=",
    ),
    (
        "# T\n```trace scenario=a seed=x\n```\n",
        ":2: trace option seed=x",
    ),
    (
        "# T\n*About 5 minutes*\n*About 6 minutes*\n",
        ":3: a second study-time line",
    ),
    (
        "# T\n*About 0 minutes*\n",
        ":2: study time must be at least",
    ),
    ("# T\n", ":1: the lesson has no content"),
];

#[test]
fn error_cases_name_file_and_line() {
    for (text, want) in ERROR_CASES {
        let got = err_of(text);
        assert!(
            got.contains(want),
            "for {text:?}\n got: {got}\nwant: {want}"
        );
        assert!(got.starts_with("lessons/01-demo.md:"), "{got}");
    }
}

#[test]
fn typos_of_kinds_are_errors_even_without_options() {
    for (text, want) in [
        (
            "# T\n```quizz\nQ\n```\n",
            ":2: unknown block kind `quizz`: did you mean `quiz`?",
        ),
        ("# T\n```predcit\n```\n", "did you mean `predict`?"),
        ("# T\n```checklst\n```\n", "did you mean `checklist`?"),
        ("# T\n```Trace\n```\n", "did you mean `trace`?"),
    ] {
        let got = err_of(text);
        assert!(got.contains(want), "{got}");
    }
    // Real languages stay code.
    for lang in [
        "json", "python", "rust", "text", "sh", "js", "ts", "yaml", "toml", "diff",
    ] {
        let l = parse(&format!("# T\n```{lang}\nx\n```\n")).unwrap();
        assert_eq!(l.blocks().count(), 0, "{lang}");
    }
}

#[test]
fn plain_code_fences_are_prose() {
    let l = parse("# T\n```python\nx = 1\n```\n```\nplain\n```\n~~~~\n```quiz\n~~~~\n").unwrap();
    assert_eq!(l.blocks().count(), 0);
}

#[test]
fn longer_fences_nest_shorter_ones() {
    let l = parse("# T\n````markdown\n```quiz\nnot a block\n```\n````\n```checklist\n- a\n```\n")
        .unwrap();
    let b: Vec<&Block> = l.blocks().collect();
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].line, 7);
}
