//! Taking one session's changes into the progress file as another window left it. Two
//! tooldojo windows (or a lesson in one and a drill in another) share one progress file;
//! each save reads the file again and writes back what is on disk with only what this
//! session changed since it last read or wrote the file laid over it. What the session did
//! not touch stays as the other window saved it.
//!
//! Changes are taken per lesson, per block, per review card and per tools declaration, so
//! two windows working on different lessons, or different blocks of one, keep both. Where
//! both changed the same block, the later save wins: its answer is the newer one. A lesson
//! once done stays done and a page once seen stays seen, whichever window saw it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{LessonProgress, Progress};
use crate::course::review::{DrillRecord, Rehearsal};
use crate::course::tools_progress::ToolsProgress;

/// `disk` with the changes `mine` made to `base` (the progress this session last read or
/// wrote) laid over it.
pub(super) fn merge(base: &Progress, mine: &Progress, disk: &Progress) -> Progress {
    Progress {
        version: mine.version.max(disk.version),
        current: pick(&base.current, &mine.current, &disk.current),
        lessons: merge_lessons(&base.lessons, &mine.lessons, &disk.lessons),
        sidebar_hidden: pick(
            &base.sidebar_hidden,
            &mine.sidebar_hidden,
            &disk.sidebar_hidden,
        ),
        rehearsal: merge_rehearsal(&base.rehearsal, &mine.rehearsal, &disk.rehearsal),
        tools: merge_tools(&base.tools, &mine.tools, &disk.tools),
        unknown: merge_members(&base.unknown, &mine.unknown, &disk.unknown),
    }
}

/// Mine where this session changed it, else what is on disk.
fn pick<T: PartialEq + Clone>(base: &T, mine: &T, disk: &T) -> T {
    if mine == base { disk } else { mine }.clone()
}

/// The keys this session set, changed or removed against `base`, each with its value in
/// `mine` (`None`: removed), for any map read through `base` and `mine`.
fn changes<'a, V: PartialEq + 'a>(
    keys: impl Iterator<Item = &'a String>,
    base: impl Fn(&str) -> Option<&'a V>,
    mine: impl Fn(&str) -> Option<&'a V>,
) -> Vec<(&'a String, Option<&'a V>)> {
    keys.filter_map(|key| match (base(key), mine(key)) {
        (b, Some(m)) if b != Some(m) => Some((key, Some(m))),
        (Some(_), None) => Some((key, None)),
        _ => None,
    })
    .collect()
}

/// A map merged key by key: a key this session set, changed or removed is taken from
/// `mine`, every other key from `disk`.
fn merge_map<V: PartialEq + Clone>(
    base: &BTreeMap<String, V>,
    mine: &BTreeMap<String, V>,
    disk: &BTreeMap<String, V>,
) -> BTreeMap<String, V> {
    let mut out = disk.clone();
    for (key, value) in changes(
        base.keys().chain(mine.keys()),
        |k| base.get(k),
        |k| mine.get(k),
    ) {
        match value {
            Some(m) => out.insert(key.clone(), m.clone()),
            None => out.remove(key),
        };
    }
    out
}

/// A set merged member by member, as [`merge_map`] does.
fn merge_set<T: Ord + Clone>(
    base: &BTreeSet<T>,
    mine: &BTreeSet<T>,
    disk: &BTreeSet<T>,
) -> BTreeSet<T> {
    let mut out = disk.clone();
    out.extend(mine.difference(base).cloned());
    for gone in base.difference(mine) {
        out.remove(gone);
    }
    out
}

/// The members of the file this version does not know, merged key by key as
/// [`merge_map`] does (in the order the file has them).
fn merge_members(
    base: &Map<String, Value>,
    mine: &Map<String, Value>,
    disk: &Map<String, Value>,
) -> Map<String, Value> {
    let mut out = disk.clone();
    for (key, value) in changes(
        base.keys().chain(mine.keys()),
        |k| base.get(k),
        |k| mine.get(k),
    ) {
        match value {
            Some(m) => out.insert(key.clone(), m.clone()),
            None => out.shift_remove(key),
        };
    }
    out
}

/// Lessons merged one by one. A lesson this session removed (its progress moved to the
/// lesson's new number) goes only when no other window changed it meanwhile.
fn merge_lessons(
    base: &BTreeMap<String, LessonProgress>,
    mine: &BTreeMap<String, LessonProgress>,
    disk: &BTreeMap<String, LessonProgress>,
) -> BTreeMap<String, LessonProgress> {
    let mut out = disk.clone();
    let none = LessonProgress::default();
    for (id, m) in mine {
        let b = base.get(id);
        if b == Some(m) {
            continue;
        }
        let d = disk.get(id).unwrap_or(&none);
        out.insert(id.clone(), merge_lesson(b.unwrap_or(&none), m, d));
    }
    for (id, b) in base {
        if !mine.contains_key(id) && disk.get(id) == Some(b) {
            out.remove(id);
        }
    }
    out
}

/// One lesson: its blocks and what is left of them one by one; seen pages and being done
/// are never lost.
fn merge_lesson(
    base: &LessonProgress,
    mine: &LessonProgress,
    disk: &LessonProgress,
) -> LessonProgress {
    LessonProgress {
        done: mine.done || disk.done,
        pages_seen: mine.pages_seen.union(&disk.pages_seen).copied().collect(),
        blocks: merge_map(&base.blocks, &mine.blocks, &disk.blocks),
        pending: merge_set(&base.pending, &mine.pending, &disk.pending),
        left: merge_map(&base.left, &mine.left, &disk.left),
        last_page: pick(&base.last_page, &mine.last_page, &disk.last_page),
    }
}

/// Review cards one by one; drills this session finished are added to those on disk.
fn merge_rehearsal(base: &Rehearsal, mine: &Rehearsal, disk: &Rehearsal) -> Rehearsal {
    let mut out = Rehearsal {
        cards: merge_map(&base.cards, &mine.cards, &disk.cards),
        drills: disk.drills.clone(),
    };
    for drill in new_drills(&base.drills, &mine.drills) {
        out.finish(drill);
    }
    out
}

/// The drills in `mine` that `base` does not hold (each of `base` matches one of `mine`).
fn new_drills(base: &[DrillRecord], mine: &[DrillRecord]) -> Vec<DrillRecord> {
    let mut unmatched: Vec<&DrillRecord> = base.iter().collect();
    mine.iter()
        .filter(|d| match unmatched.iter().position(|b| b == d) {
            Some(i) => {
                unmatched.remove(i);
                false
            }
            None => true,
        })
        .cloned()
        .collect()
}

/// Tools files one by one, and in each its declarations one by one.
fn merge_tools(
    base: &BTreeMap<String, ToolsProgress>,
    mine: &BTreeMap<String, ToolsProgress>,
    disk: &BTreeMap<String, ToolsProgress>,
) -> BTreeMap<String, ToolsProgress> {
    let mut out = disk.clone();
    let none = ToolsProgress::default();
    for (key, m) in mine {
        let b = base.get(key).unwrap_or(&none);
        if b == m {
            continue;
        }
        let d = disk.get(key).unwrap_or(&none);
        let merged = ToolsProgress {
            file: pick(&b.file, &m.file, &d.file),
            predict: merge_map(&b.predict, &m.predict, &d.predict),
            played: merge_set(&b.played, &m.played, &d.played),
            traced: merge_set(&b.traced, &m.traced, &d.traced),
        };
        out.insert(key.clone(), merged);
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::course::progress::Position;

    #[test]
    fn what_this_session_left_alone_comes_from_disk() {
        let mut base = Progress::default();
        base.lessons.entry("01-x".into()).or_default().last_page = 1;
        base.unknown.insert("streak".into(), json!(1));
        let mut mine = base.clone();
        mine.sidebar_hidden = true;
        let mut disk = base.clone();
        disk.lessons.entry("01-x".into()).or_default().last_page = 3;
        disk.unknown.insert("streak".into(), json!(2));
        disk.current = Some(Position {
            lesson: "01-x".into(),
            ..Position::default()
        });
        let merged = merge(&base, &mine, &disk);
        assert!(merged.sidebar_hidden);
        assert_eq!(merged.lessons["01-x"].last_page, 3);
        assert_eq!(merged.unknown["streak"], 2);
        assert_eq!(merged.current, disk.current);
    }

    #[test]
    fn blocks_and_pending_merge_one_by_one() {
        let mut base = LessonProgress::default();
        base.pending.extend(["0/0".to_owned(), "0/1".to_owned()]);
        base.blocks.insert("0/0".into(), json!(0));
        base.blocks.insert("0/1".into(), json!(0));
        // This session finished block 0/0; the other window finished 0/1.
        let mut mine = base.clone();
        mine.pending.remove("0/0");
        mine.blocks.insert("0/0".into(), json!("mine"));
        let mut disk = base.clone();
        disk.pending.remove("0/1");
        disk.blocks.insert("0/1".into(), json!("disk"));
        let merged = merge_lesson(&base, &mine, &disk);
        assert!(merged.pending.is_empty(), "{:?}", merged.pending);
        assert_eq!(merged.blocks["0/0"], "mine");
        assert_eq!(merged.blocks["0/1"], "disk");
    }

    #[test]
    fn a_lesson_moved_to_its_new_number_leaves_its_old_id_unless_changed_meanwhile() {
        let mut base = Progress::default();
        base.lessons.entry("14-a".into()).or_default().done = true;
        let mut mine = base.clone();
        let moved = mine.lessons.remove("14-a").unwrap();
        mine.lessons.insert("17-a".into(), moved);
        let merged = merge(&base, &mine, &base);
        assert_eq!(merged.lessons.keys().collect::<Vec<_>>(), ["17-a"]);
        let mut disk = base.clone();
        disk.lessons.get_mut("14-a").unwrap().pages_seen.insert(2);
        let merged = merge(&base, &mine, &disk);
        assert!(
            merged.lessons.contains_key("14-a"),
            "changed meanwhile: kept"
        );
    }

    #[test]
    fn drills_of_both_windows_are_kept_and_the_trend_stays_short() {
        let drill = |seed| DrillRecord {
            day: 1,
            seed,
            asked: 2,
            points: 100,
        };
        let mut base = Rehearsal::default();
        base.finish(drill(1));
        let mut mine = base.clone();
        mine.finish(drill(2));
        let mut disk = base.clone();
        disk.finish(drill(3));
        let merged = merge_rehearsal(&base, &mine, &disk);
        let seeds: Vec<u64> = merged.drills.iter().map(|d| d.seed).collect();
        assert_eq!(seeds, [1, 3, 2]);
        let mut many = Rehearsal::default();
        for seed in 0..100 {
            many.finish(drill(seed));
        }
        let merged = merge_rehearsal(&base, &mine, &many);
        assert_eq!(merged.drills.len(), many.drills.len());
        assert_eq!(merged.drills.last().map(|d| d.seed), Some(2));
    }

    #[test]
    fn tools_progress_merges_per_declaration() {
        let key = "abc".to_owned();
        let base = BTreeMap::from([(key.clone(), ToolsProgress::default())]);
        let mut mine = base.clone();
        mine.get_mut(&key)
            .unwrap()
            .played
            .insert("tools[0] a".into());
        let mut disk = base.clone();
        disk.get_mut(&key)
            .unwrap()
            .predict
            .insert("tools[1] b".into(), json!([1]));
        let merged = merge_tools(&base, &mine, &disk);
        assert!(merged[&key].played.contains("tools[0] a"));
        assert!(merged[&key].predict.contains_key("tools[1] b"));
    }
}
