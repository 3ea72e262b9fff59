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

#[test]
fn the_course_takes_two_to_three_hours() {
    let total: u32 = load_all(&Content::embedded())
        .unwrap()
        .iter()
        .map(|l| l.minutes)
        .sum();
    assert!((120..=180).contains(&total), "course takes {total} minutes");
}
