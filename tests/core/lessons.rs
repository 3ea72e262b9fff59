//! The shipped course: every lesson parses and has what the course promises.

use tooldojo::content::Content;
use tooldojo::content::lessons::{BlockKind, load_all};

#[test]
fn every_shipped_lesson_parses() {
    let lessons = load_all(&Content::embedded()).expect("lessons parse");
    assert!(lessons.len() >= 2, "got {} lessons", lessons.len());
    let mut ids: Vec<&str> = lessons.iter().map(|l| l.id.as_str()).collect();
    let sorted = {
        let mut v = ids.clone();
        v.sort();
        v
    };
    assert_eq!(ids, sorted, "lessons load in file-name order");
    ids.dedup();
    assert_eq!(ids.len(), lessons.len());
    for l in &lessons {
        assert!(l.minutes > 0, "{} has no study time", l.file);
        assert!(
            l.blocks().count() > 0,
            "{} has no interactive block",
            l.file
        );
        assert!(!l.pages.is_empty());
        assert!(l.file.starts_with("lessons/"), "{}", l.file);
    }
}

#[test]
fn the_disk_tree_matches_the_embedded_one() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let disk = load_all(&Content::new(Some(&dir), None)).expect("disk lessons parse");
    let embedded = load_all(&Content::embedded()).expect("embedded lessons parse");
    assert_eq!(disk.len(), embedded.len());
    for (d, e) in disk.iter().zip(&embedded) {
        assert_eq!(d.id, e.id);
        assert_eq!(d.pages, e.pages);
    }
}

#[test]
fn quizzes_give_a_why_for_every_choice() {
    for l in load_all(&Content::embedded()).unwrap() {
        for b in l.blocks().filter(|b| b.kind == BlockKind::Quiz) {
            if let tooldojo::content::lessons::BlockSpec::Quiz(q) = &b.spec {
                assert!(q.choices.iter().all(|c| !c.why.is_empty()));
            } else {
                panic!("{}:{} quiz without a parsed spec", l.file, b.line);
            }
        }
    }
}

#[test]
fn code_lines_fit_an_80_column_page() {
    use tooldojo::content::lessons::Item;
    for l in load_all(&Content::embedded()).unwrap() {
        for p in &l.pages {
            for item in &p.items {
                let text = match item {
                    Item::Markdown(m) => m.clone(),
                    Item::Block(b) if b.kind == BlockKind::Playground => {
                        format!("```\n{}\n```", b.body)
                    }
                    Item::Block(_) => continue,
                };
                let mut in_code = false;
                for line in text.lines() {
                    if line.trim_start().starts_with("```") {
                        in_code = !in_code;
                        continue;
                    }
                    assert!(
                        !in_code || line.chars().count() <= 50,
                        "{} page {:?}: code line wider than 50 columns (the 80-column reader has about 52): {line}",
                        l.file,
                        p.title
                    );
                }
            }
        }
    }
}

/// The README's course table gives every lesson the time on its own `*About N minutes*` line,
/// and its total in hours is the one the home screen shows.
#[test]
fn the_readme_course_table_matches_the_lessons() {
    let lessons = load_all(&Content::embedded()).unwrap();
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let section = readme
        .split("\n## The course\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("README has a section \"The course\"");
    let rows: Vec<(String, u32)> = section
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let num = cells.get(1)?.get(..2)?;
            let minutes = cells.get(2)?.parse().ok()?;
            num.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| (num.to_owned(), minutes))
        })
        .collect();
    assert_eq!(rows.len(), lessons.len(), "one row per lesson: {rows:?}");
    for (l, (num, minutes)) in lessons.iter().zip(&rows) {
        assert!(l.id.starts_with(num.as_str()), "row {num} is not {}", l.id);
        assert_eq!(*minutes, l.minutes, "README's time for {}", l.id);
    }
    let total: u32 = lessons.iter().map(|l| l.minutes).sum();
    let words = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    let hours = words[((total + 30) / 60) as usize - 1];
    assert!(
        section.contains(&format!("about {hours} hours in all")),
        "the course takes {total} minutes: the README should say about {hours} hours"
    );
}

/// Each row of the README's course table names as many quizzes, explain answers, traces,
/// playgrounds and checklists as its lesson holds (a learner plans an evening by it).
#[test]
fn the_readme_course_table_names_each_lessons_blocks() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = readme
        .split("\n## The course\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("README has a section \"The course\"");
    let words = [
        "a", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    let said = regex::Regex::new(
        r"\b(an?|one|two|three|four|five|six|seven|eight|nine|ten) (?:[a-z]+ )?(quiz|explain answer|trace|playground|checklist)(?:zes|s)?\b",
    )
    .unwrap();
    let mut lessons: Vec<_> = std::fs::read_dir(root.join("lessons"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().as_bytes()[0].is_ascii_digit())
        .collect();
    lessons.sort();
    for path in lessons {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let row = section
            .lines()
            .find(|l| l.starts_with(&format!("| {} ", &name[..2])))
            .unwrap_or_else(|| panic!("no README row for {name}"));
        let what = row.rsplit('|').nth(1).unwrap();
        for (kind, fence) in [
            ("quiz", "quiz"),
            ("explain answer", "explain"),
            ("trace", "trace"),
            ("playground", "playground"),
            ("checklist", "checklist"),
        ] {
            let held = text
                .lines()
                .filter(|l| {
                    l.strip_prefix("```")
                        .and_then(|l| l.split_whitespace().next())
                        == Some(fence)
                })
                .count();
            let named: usize = said
                .captures_iter(what)
                .filter(|c| &c[2] == kind)
                .map(|c| {
                    let n = words.iter().position(|w| *w == &c[1]).unwrap_or(0);
                    n.max(1)
                })
                .sum();
            assert_eq!(
                named,
                held,
                "README row {}: how many {kind} blocks {what:?} names",
                &name[..2]
            );
        }
    }
}

#[test]
fn the_shipped_course_passes_its_own_lint() {
    let rows = tooldojo::check::lint::lint(&Content::embedded(), &tooldojo::cli::command_names())
        .expect("lint runs");
    let failing: Vec<String> = rows
        .iter()
        .filter(|r| !r.pass)
        .map(|r| format!("{}: {}", r.name, r.actual))
        .collect();
    assert!(failing.is_empty(), "{failing:#?}");
    // Every row of both fixtures and every scenario got its own row.
    assert!(rows.iter().any(|r| r.name == "predicted get_ticket row-8"));
    assert!(rows.iter().any(|r| r.name == "traced race-vs-cancel"));
}

mod never_panics {
    use proptest::prelude::*;
    use tooldojo::content::TextFile;
    use tooldojo::content::lessons::parse_lesson;

    fn file(text: String) -> TextFile {
        TextFile {
            display: "lessons/99-fuzz.md".into(),
            rel: "99-fuzz.md".into(),
            text,
        }
    }

    // Lines drawn from the pieces the format is made of, in any order.
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("# Title".to_owned()),
            Just("*About 5 minutes*".to_owned()),
            Just("## Page".to_owned()),
            Just("```".to_owned()),
            Just("````".to_owned()),
            Just("~~~".to_owned()),
            Just("```quiz".to_owned()),
            Just("```explain".to_owned()),
            Just("```checklist".to_owned()),
            Just("```predict fixture=get_ticket".to_owned()),
            Just("```trace scenario=x seed=1".to_owned()),
            Just("```playground mode=executor".to_owned()),
            Just("- [x] a :: b".to_owned()),
            Just("- [ ] a".to_owned()),
            Just("- item".to_owned()),
            Just("  more".to_owned()),
            Just("---".to_owned()),
            Just(String::new()),
            "[ -~é`]{0,12}",
        ]
    }

    proptest! {
        #[test]
        fn parse_never_panics(lines in prop::collection::vec(piece(), 0..30)) {
            match parse_lesson(&file(lines.join("\n"))) {
                Ok(l) => prop_assert!(!l.pages.is_empty()),
                Err(e) => prop_assert!(e.message.starts_with("lessons/99-fuzz.md:")),
            }
        }
    }
}

#[test]
#[ignore = "timing, run by hand: cargo test --release --test core lessons:: -- --ignored --nocapture"]
fn time_parse_and_lint() {
    let content = Content::embedded();
    let t = std::time::Instant::now();
    let n = 100;
    let mut lessons = 0;
    for _ in 0..n {
        lessons = load_all(&content).unwrap().len();
    }
    let parse = t.elapsed() / n;
    let t = std::time::Instant::now();
    let rows = tooldojo::check::lint::lint(&content, &tooldojo::cli::command_names()).unwrap();
    eprintln!(
        "parse {lessons} lessons: {parse:?}; lint ({} rows): {:?}",
        rows.len(),
        t.elapsed()
    );
}

#[test]
fn the_lesson_id_in_the_help_text_exists() {
    use clap::CommandFactory;
    let cmd = tooldojo::cli::Cli::command();
    let help = cmd
        .get_arguments()
        .find(|a| a.get_id() == "lesson")
        .and_then(|a| a.get_help())
        .map(|h| h.to_string())
        .expect("--lesson has a help text");
    let ids: Vec<String> = load_all(&Content::embedded())
        .unwrap()
        .into_iter()
        .map(|l| l.id)
        .collect();
    let named: Vec<&str> = help
        .split(|c: char| c.is_whitespace() || c == ')' || c == ',')
        .filter(|w| w.len() > 3 && w.as_bytes()[..2].iter().all(u8::is_ascii_digit))
        .collect();
    assert!(!named.is_empty(), "{help}");
    for id in named {
        assert!(ids.iter().any(|i| i == id), "--help names {id}");
    }
}

#[test]
fn every_audit_finding_links_a_shipped_lesson_page() {
    use tooldojo::audit::Kind;
    let lessons = load_all(&Content::embedded()).expect("lessons parse");
    for kind in Kind::ALL {
        let link = kind.lesson();
        let lesson = lessons
            .iter()
            .find(|l| l.id == link.id)
            .unwrap_or_else(|| panic!("{kind}: no lesson {}", link.id));
        assert!(
            link.id.starts_with(&format!("{:02}-", link.number)),
            "{kind}: lesson {} is not {}",
            link.number,
            link.id
        );
        assert!(
            lesson.pages.iter().any(|p| p.title == link.page),
            "{kind}: {} has no page {:?}",
            link.id,
            link.page
        );
    }
}

#[test]
fn the_readme_finding_table_names_each_findings_lesson_page() {
    use tooldojo::audit::Kind;
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    for kind in Kind::ALL {
        let link = kind.lesson();
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{}`", kind.name())))
            .unwrap_or_else(|| panic!("README's finding table has no row for {kind}"));
        let taught = format!("| lesson {}, \"{}\" |", link.number, link.page);
        assert!(
            row.ends_with(&taught),
            "{kind}: README says {row:?}, the app {taught:?}"
        );
    }
}

#[test]
fn a_learner_of_the_course_before_lesson_16_keeps_every_tick() {
    use tooldojo::course::Progress;
    let ids: Vec<String> = load_all(&Content::embedded())
        .expect("lessons parse")
        .into_iter()
        .map(|l| l.id)
        .collect();
    assert!(ids.contains(&"16-your-tools-and-logs".to_owned()));
    assert_eq!(
        ids.last().map(String::as_str),
        Some("17-checklist-and-interview"),
        "the capstone stays last"
    );
    // A progress file of the fifteen lessons and the capstone, the capstone's checklist
    // fully ticked when it had nine items.
    let mut p = Progress::default();
    for id in ids.iter().filter(|id| !id.starts_with("16-")) {
        let l = p.lessons.entry(id.clone()).or_default();
        l.done = true;
        l.pages_seen.insert(0);
    }
    p.lessons
        .get_mut("17-checklist-and-interview")
        .unwrap()
        .blocks
        .insert("3/0".into(), serde_json::json!({"ticked": vec![true; 9]}));
    let before = p.lessons.clone();
    assert_eq!(p.follow_renames(&ids), 0, "adding a lesson renames nothing");
    assert_eq!(p.lessons, before);
    assert!(!p.lessons.contains_key("16-your-tools-and-logs"));
    // An older file that still has the capstone under an earlier number moves there, and not
    // onto the new lesson 16.
    let mut old = Progress::default();
    old.lessons
        .entry("16-checklist-and-interview".into())
        .or_default()
        .done = true;
    assert_eq!(old.follow_renames(&ids), 1);
    assert!(old.lessons["17-checklist-and-interview"].done);
    assert!(!old.lessons.contains_key("16-your-tools-and-logs"));
}
