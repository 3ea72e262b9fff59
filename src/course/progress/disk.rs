//! Reading the progress file, and telling when another window replaced it. Every save
//! renames a new file into place, so the file's modification time, length and inode say
//! whether it is still the one this session last read or wrote: a look at them costs one
//! `stat`, and the file is read only when they changed.
//!
//! A window that sees another's save takes it in ([`Store::take_in`]) laid under its own
//! changes not saved yet, as a save would lay them over it, so that what it shows is what
//! its next save writes.

use std::io::Read;
use std::path::Path;
use std::time::SystemTime;

use super::{Progress, Store, later_version, merge};

/// Which progress file a session last read or wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum Stamp {
    /// No file (none yet, or moved aside).
    #[default]
    Missing,
    /// A file, told apart from the next one saved in its place.
    File {
        modified: Option<SystemTime>,
        len: u64,
        inode: u64,
    },
    /// Not known to hold what the session holds: the next look reads the file (a save
    /// merged another window's changes the session has not taken in, or a `stat` failed).
    Unknown,
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp::File {
            modified: meta.modified().ok(),
            len: meta.len(),
            inode: meta.ino(),
        }
    }

    /// The stamp of the file at `path` now.
    pub(super) fn now(path: &Path) -> Stamp {
        match std::fs::metadata(path) {
            Ok(meta) => Stamp::of(&meta),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Stamp::Missing,
            Err(_) => Stamp::Unknown,
        }
    }

    /// The stamp of an open file (the one a save is about to rename into place).
    pub(super) fn of_file(file: &std::fs::File) -> Stamp {
        file.metadata()
            .map_or(Stamp::Unknown, |meta| Stamp::of(&meta))
    }
}

/// The progress file as this session last read or wrote it.
#[derive(Debug, Default)]
pub(super) struct Seen {
    /// What it held: a save takes from the session only what changed since.
    pub(super) base: Progress,
    /// Which file that was.
    pub(super) stamp: Stamp,
}

/// What the progress file holds.
pub(super) enum Found {
    Read(Box<Progress>),
    /// No file (none yet, or another window's `--reset-progress` moved it aside).
    Missing,
    /// Written by a later tooldojo: its text, never written over.
    Later(String),
    /// It cannot be read or parsed: why, in words.
    Damaged(String),
}

/// Read the progress file, with the stamp of the file read (taken from the open file, so
/// that a save renamed into place meanwhile is not mistaken for it).
pub(super) fn read(path: &Path) -> (Found, Stamp) {
    let text = std::fs::File::open(path).and_then(|mut file| {
        let stamp = Stamp::of_file(&file);
        let mut text = String::new();
        file.read_to_string(&mut text)?;
        Ok((text, stamp))
    });
    match text {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Found::Missing, Stamp::Missing),
        Err(e) => (
            Found::Damaged(format!("it cannot be read ({e})")),
            Stamp::now(path),
        ),
        Ok((text, stamp)) if later_version(&text).is_some() => (Found::Later(text), stamp),
        Ok((text, stamp)) => match serde_json::from_str::<Progress>(&text) {
            Ok(progress) => (Found::Read(Box::new(progress)), stamp),
            Err(e) => (Found::Damaged(format!("it does not parse ({e})")), stamp),
        },
    }
}

impl Store {
    /// Has the file changed since this session last read or wrote it (one `stat`)? Only
    /// then is there anything for [`Store::take_in`] to take in.
    pub fn changed_on_disk(&self) -> bool {
        self.path
            .as_ref()
            .is_some_and(|path| Stamp::now(path) != self.seen().stamp)
    }

    /// Look whether another window saved since this session last read or wrote the file
    /// and, if so, take that in: returns `mine` (the session's progress) with only what it
    /// changed since laid over what the file holds now, as the next save would write it.
    /// `None`: nothing to take in (the same file, a memory store, or a file that cannot be
    /// used, which is left as it is for the next save to deal with and tell).
    pub fn take_in(&self, mine: &Progress) -> Option<Progress> {
        let path = self.path.as_ref()?;
        let mut seen = self.seen();
        if Stamp::now(path) == seen.stamp {
            return None;
        }
        let (found, stamp) = read(path);
        seen.stamp = stamp;
        let disk = match found {
            Found::Read(disk) => *disk,
            Found::Missing => Progress::fresh(),
            Found::Later(_) | Found::Damaged(_) => return None,
        };
        let merged = merge::merge(&seen.base, mine, &disk);
        seen.base = disk;
        Some(merged)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::course::progress::{FILE_NAME, Opened};

    /// Two windows opened on one progress file.
    fn two_windows(dir: &Path) -> (Opened, Opened) {
        let a = Store::open(Some(dir.to_path_buf()), false);
        let b = Store::open(Some(dir.to_path_buf()), false);
        assert!(a.notice.is_none() && b.notice.is_none());
        (a, b)
    }

    /// `p` with block `key` of lesson `id` answered `state` (its page seen).
    fn answered(p: &Progress, id: &str, key: &str, state: Value) -> Progress {
        let mut p = p.clone();
        let lp = p.lessons.entry(id.into()).or_default();
        lp.pages_seen
            .insert(key[..key.find('/').unwrap()].parse().unwrap());
        lp.blocks.insert(key.into(), state);
        p
    }

    #[test]
    fn a_lesson_finished_in_another_window_is_taken_in_with_this_ones_unsaved_answers() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = two_windows(dir.path());
        assert_eq!(b.store.take_in(&b.progress), None, "nothing saved yet");
        let mut done = answered(&a.progress, "01-x", "3/0", json!({"pick": 1}));
        done.lessons.get_mut("01-x").unwrap().done = true;
        a.store.save(&done).unwrap();
        // The other window answered a block of another lesson and one of the same lesson,
        // and saved neither yet.
        let mine = answered(&b.progress, "02-y", "0/0", json!({"pick": 2}));
        let mine = answered(&mine, "01-x", "1/0", json!({"pick": 3}));
        let seen = b.store.take_in(&mine).expect("the other window's save");
        assert!(seen.lessons["01-x"].done);
        assert_eq!(seen.lessons["01-x"].blocks["3/0"], json!({"pick": 1}));
        assert_eq!(seen.lessons["01-x"].blocks["1/0"], json!({"pick": 3}));
        assert_eq!(seen.lessons["02-y"].blocks["0/0"], json!({"pick": 2}));
        // Taken in once: the next look reads nothing.
        assert_eq!(b.store.take_in(&seen), None);
        // Its answers are still this window's to save, and the other's stay.
        b.store.save(&seen).unwrap();
        let on_file = Store::open(Some(dir.path().to_path_buf()), false).progress;
        assert_eq!(on_file.lessons, seen.lessons);
    }

    #[test]
    fn the_same_block_changed_in_both_keeps_this_windows_unsaved_answer() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = two_windows(dir.path());
        a.store
            .save(&answered(&a.progress, "01-x", "2/1", json!("theirs")))
            .unwrap();
        let mine = answered(&b.progress, "01-x", "2/1", json!("mine"));
        let seen = b.store.take_in(&mine).expect("the other window's save");
        // Saved later, this window's answer is the newer one.
        assert_eq!(seen.lessons["01-x"].blocks["2/1"], "mine");
    }

    #[test]
    fn a_save_that_merged_another_windows_work_leaves_it_for_the_next_look() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = two_windows(dir.path());
        let theirs = answered(&a.progress, "01-x", "0/0", json!(1));
        a.store.save(&theirs).unwrap();
        // This window saves before it looked: the file holds both, this window only its own.
        let mine = answered(&b.progress, "02-y", "0/0", json!(2));
        b.store.save(&mine).unwrap();
        let seen = b.store.take_in(&mine).expect("what the save merged");
        assert_eq!(seen.lessons.keys().collect::<Vec<_>>(), ["01-x", "02-y"]);
        // A save that merged nothing leaves nothing to look at.
        let more = answered(&seen, "02-y", "1/0", json!(3));
        b.store.save(&more).unwrap();
        assert_eq!(b.store.take_in(&more), None);
    }

    #[test]
    fn a_damaged_or_later_file_seen_while_running_is_left_alone_and_nothing_taken_in() {
        for text in ["{not json", r#"{"version": 9, "lessons": []}"#] {
            let dir = tempfile::tempdir().unwrap();
            let (_a, b) = two_windows(dir.path());
            let file = dir.path().join(FILE_NAME);
            std::fs::write(&file, text).unwrap();
            let mine = answered(&b.progress, "01-x", "0/0", json!(1));
            assert_eq!(b.store.take_in(&mine), None, "{text}");
            assert_eq!(b.store.take_in(&mine), None, "{text}");
            assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
            // The save tells, as before: a damaged file is moved aside, a later one refused.
            match b.store.save(&mine) {
                Ok(notice) => assert!(notice.unwrap().contains("moved to"), "{text}"),
                Err(e) => assert!(e.to_string().contains("later tooldojo"), "{e}"),
            }
        }
    }

    #[test]
    fn a_memory_store_has_nothing_to_take_in() {
        assert_eq!(Store::memory().take_in(&Progress::default()), None);
    }
}
