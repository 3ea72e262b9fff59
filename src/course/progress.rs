//! The learner's progress: where they left off, what they finished, and each block's saved
//! state. Kept as JSON in the platform state directory (XDG on Linux), or in
//! `$TOOLDOJO_STATE_DIR` when set (tests point it at a temporary directory).
//!
//! Writes are atomic: a temporary file in the same directory, fsync, rename. A file that
//! cannot be read or parsed is moved aside under a new name and the learner is told; it is
//! never silently overwritten.
//!
//! Several windows may share the file (a lesson in one, a drill in another): a save reads
//! the file again and writes back what it holds with only this session's changes laid over
//! it (see [`merge`]), so that no window undoes another's work.

mod disk;
mod merge;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::course::review::Rehearsal;

/// Environment variable that overrides the state directory.
pub(crate) const STATE_DIR_ENV: &str = "TOOLDOJO_STATE_DIR";
const FILE_NAME: &str = "progress.json";
/// Temporary files of a save are named `.progress.json-XXXXXX.tmp` until renamed over the file.
const TEMP_PREFIX: &str = ".progress.json-";
const TEMP_SUFFIX: &str = ".tmp";
/// A temporary file older than this belongs to no save in progress: a crash left it.
const STRAY_AFTER: std::time::Duration = std::time::Duration::from_secs(60);
/// How long a save waits for another window's save to finish before going ahead.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(1);
const VERSION: u32 = 1;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    #[serde(default)]
    pub version: u32,
    /// Where the learner was when they last left.
    #[serde(default)]
    pub current: Option<Position>,
    /// Per lesson id.
    #[serde(default)]
    pub lessons: BTreeMap<String, LessonProgress>,
    /// The learner hid the lesson list with `s` in a window wide enough for it to show by
    /// itself (a narrower window shows it only when asked, in that session).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sidebar_hidden: bool,
    /// Spaced review cards and past drills (absent from files written before rehearsal).
    #[serde(default, skip_serializing_if = "Rehearsal::is_empty")]
    pub rehearsal: Rehearsal,
    /// Your own tools files, by the SHA-256 of their text.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tools: BTreeMap<String, crate::course::tools_progress::ToolsProgress>,
    /// Members this version does not know (a later tooldojo wrote them), kept as they were so
    /// that a save here loses none of them.
    #[serde(flatten)]
    pub unknown: serde_json::Map<String, Value>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub lesson: String,
    #[serde(default)]
    pub page: usize,
    /// Index of the focused block on that page, if one had focus.
    #[serde(default)]
    pub block: Option<usize>,
    #[serde(default)]
    pub scroll: u16,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LessonProgress {
    #[serde(default)]
    pub done: bool,
    /// Pages the learner has opened.
    #[serde(default)]
    pub pages_seen: BTreeSet<usize>,
    /// Saved block states, keyed `"PAGE/BLOCK"` (indices of the block among the page's blocks).
    #[serde(default)]
    pub blocks: BTreeMap<String, Value>,
    /// Blocks met on a seen page that are not finished yet.
    #[serde(default)]
    pub pending: BTreeSet<String>,
    /// For each pending block, what is left of it in words ("predict rows 4-8").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub left: BTreeMap<String, String>,
    /// The page the learner was last on in this lesson (opening it again resumes there).
    #[serde(default)]
    pub last_page: usize,
}

impl LessonProgress {
    pub fn started(&self) -> bool {
        !self.pages_seen.is_empty()
    }
}

/// The part of a lesson id after its number (`checklist-and-interview` of
/// `17-checklist-and-interview`); `None` for an id without one.
fn slug(id: &str) -> Option<&str> {
    let (number, rest) = id.split_once('-')?;
    (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) && !rest.is_empty())
        .then_some(rest)
}

impl LessonProgress {
    /// Take in what an older copy of the same lesson holds: its block states where this one
    /// has none, its pages and unfinished blocks, done if either was.
    fn absorb(&mut self, old: LessonProgress) {
        for (k, v) in old.blocks {
            self.blocks.entry(k).or_insert(v);
        }
        self.pages_seen.extend(old.pages_seen);
        self.pending.extend(old.pending);
        for (k, v) in old.left {
            self.left.entry(k).or_insert(v);
        }
        self.done |= old.done;
        self.last_page = self.last_page.max(old.last_page);
    }
}

impl Progress {
    /// Progress of a learner starting out, in this version's format.
    fn fresh() -> Progress {
        Progress {
            version: VERSION,
            ..Progress::default()
        }
    }

    /// A lesson that changed its number keeps its progress: an entry saved under an id that
    /// is not among `ids` moves to the one lesson of `ids` with the same name after the
    /// number (`14-checklist-and-interview` to `17-checklist-and-interview`), and so do the
    /// position and the review cards of its explain questions. Returns how many entries
    /// moved.
    pub fn follow_renames(&mut self, ids: &[String]) -> usize {
        let renamed: Vec<(String, String)> = self
            .lessons
            .keys()
            .filter(|old| !ids.contains(old))
            .filter_map(|old| {
                let s = slug(old)?;
                let mut same = ids.iter().filter(|id| slug(id) == Some(s));
                match (same.next(), same.next()) {
                    (Some(new), None) => Some((old.clone(), new.clone())),
                    _ => None,
                }
            })
            .collect();
        for (old, new) in &renamed {
            if let Some(moved) = self.lessons.remove(old) {
                self.lessons.entry(new.clone()).or_default().absorb(moved);
            }
            if let Some(at) = self.current.as_mut().filter(|at| &at.lesson == old) {
                at.lesson = new.clone();
            }
            let prefix = format!("explain/{old}#");
            let cards: Vec<String> = self
                .rehearsal
                .cards
                .keys()
                .filter(|k| k.starts_with(&prefix))
                .cloned()
                .collect();
            for key in cards {
                if let Some(card) = self.rehearsal.cards.remove(&key) {
                    let moved = format!("explain/{new}#{}", &key[prefix.len()..]);
                    self.rehearsal.cards.entry(moved).or_insert(card);
                }
            }
        }
        renamed.len()
    }
}

/// Key of a block's state inside `LessonProgress::blocks`.
pub(crate) fn block_key(page: usize, block: usize) -> String {
    format!("{page}/{block}")
}

/// Where progress is read from and written to. `path: None` keeps progress in memory only
/// (render, tests, or a state directory that could not be found).
#[derive(Debug, Clone)]
pub struct Store {
    pub path: Option<PathBuf>,
    /// False when the existing file could not be moved aside: we then never write over it.
    pub writable: bool,
    /// The progress file as this session last read or wrote it.
    seen: Arc<Mutex<disk::Seen>>,
}

/// What opening the store found.
#[derive(Debug)]
pub struct Opened {
    pub store: Store,
    pub progress: Progress,
    /// Something the learner must be told (a file set aside, a directory that is missing).
    pub notice: Option<String>,
}

/// The directory progress lives in: `$TOOLDOJO_STATE_DIR`, else the platform state dir.
pub(crate) fn state_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(STATE_DIR_ENV).filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let dirs = directories::ProjectDirs::from("", "", "tooldojo")?;
    Some(
        dirs.state_dir()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| dirs.data_local_dir().to_path_buf()),
    )
}

/// A progress file that cannot be used: move it aside under a name not taken yet and
/// start fresh (or, when it cannot be moved, keep it untouched and save nothing).
fn set_aside(store: Store, dir: &Path, path: &Path, problem: &str) -> Opened {
    let aside = aside_path(dir, "damaged");
    match std::fs::rename(path, &aside) {
        Ok(()) => Opened {
            store,
            progress: Progress::fresh(),
            notice: Some(format!(
                "Your progress file {} could not be used: {problem}. It was moved to {} and a fresh one started.",
                show(path),
                show(&aside)
            )),
        },
        Err(e) => Opened {
            store: Store {
                path: Some(path.to_path_buf()),
                writable: false,
                ..store
            },
            progress: Progress::fresh(),
            notice: Some(format!(
                "Your progress file {} could not be used: {problem}; moving it aside failed too ({e}). It is left untouched and this session's progress will not be saved.",
                show(path)
            )),
        },
    }
}

/// `--reset-progress` with a progress file: it is moved aside (never deleted, a mistyped
/// flag must not cost a learner their evenings) and a fresh one starts.
fn reset_aside(mut store: Store, dir: &Path, path: &Path) -> Opened {
    let aside = aside_path(dir, "reset");
    let notice = match std::fs::rename(path, &aside) {
        Ok(()) => format!(
            "Progress reset: starting over. Your old progress was moved to {} (rename it back to {FILE_NAME} to restore it).",
            show(&aside)
        ),
        // Never replaced unseen: this session is then not saved.
        Err(e) => {
            store.writable = false;
            format!(
                "Progress reset: starting over, but moving the old file aside failed ({e}): it is left untouched and this session's progress will not be saved."
            )
        }
    };
    Opened {
        store,
        progress: Progress::fresh(),
        notice: Some(notice),
    }
}

/// The version of a progress file written by a later tooldojo than this one, if it is one
/// (read on its own: a later version may have changed what the other members hold).
fn later_version(text: &str) -> Option<u32> {
    #[derive(Deserialize)]
    struct Versioned {
        #[serde(default)]
        version: u32,
    }
    serde_json::from_str::<Versioned>(text)
        .ok()
        .map(|v| v.version)
        .filter(|&v| v > VERSION)
}

/// A progress file from a later version: read what this version can (nothing, when its
/// members changed shape), and never move or write over it.
fn read_only_later(mut store: Store, path: &Path, text: &str) -> Opened {
    store.writable = false;
    let version = later_version(text).unwrap_or_default();
    let progress = serde_json::from_str::<Progress>(text).unwrap_or_else(|_| Progress::fresh());
    let notice = format!(
        "Your progress file {} was written by a later tooldojo (its version {version} is newer than this one's {VERSION}). It is left untouched and this session's progress will not be saved.",
        show(path)
    );
    Opened {
        store,
        progress,
        notice: Some(notice),
    }
}

/// A name not taken yet for the progress file moved aside: `progress.json.WHY-TIME`.
fn aside_path(dir: &Path, why: &str) -> PathBuf {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut aside = dir.join(format!("{FILE_NAME}.{why}-{stamp}"));
    let mut n = 1;
    while aside.exists() {
        aside = dir.join(format!("{FILE_NAME}.{why}-{stamp}-{n}"));
        n += 1;
    }
    aside
}

/// A path as a notice shows it.
fn show(p: &Path) -> String {
    crate::sanitize::clean(&p.display().to_string(), false)
}

/// A new temporary file beside the progress file (removed again when dropped unsaved).
fn temp_file(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)
}

/// Remove temporary files that a save interrupted by a crash or a kill left behind (the
/// progress file itself is untouched by such a save: the rename never happened).
fn remove_stray_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= STRAY_AFTER);
        if name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX) && old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

impl Store {
    /// A store that keeps nothing on disk.
    pub(crate) fn memory() -> Store {
        Store {
            path: None,
            writable: false,
            seen: Arc::default(),
        }
    }

    /// Open the progress file in `dir` (created if needed). `reset` starts over without asking.
    pub fn open(dir: Option<PathBuf>, reset: bool) -> Opened {
        let opened = Store::open_file(dir, reset);
        opened.store.seen().base = opened.progress.clone();
        opened
    }

    /// The progress file as this session last read or wrote it.
    fn seen(&self) -> std::sync::MutexGuard<'_, disk::Seen> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// What [`Store::open`] finds, before it remembers it.
    fn open_file(dir: Option<PathBuf>, reset: bool) -> Opened {
        let Some(dir) = dir else {
            return Opened {
                store: Store::memory(),
                progress: Progress::default(),
                notice: Some("No state directory found: progress will not be saved.".into()),
            };
        };
        if let Err(e) = std::fs::create_dir_all(&dir) {
            return Opened {
                store: Store::memory(),
                progress: Progress::default(),
                notice: Some(format!(
                    "Cannot create {}: {e}. Progress will not be saved.",
                    crate::sanitize::clean(&dir.display().to_string(), false)
                )),
            };
        }
        let path = dir.join(FILE_NAME);
        remove_stray_temps(&dir);
        let mut store = Store {
            path: Some(path.clone()),
            writable: true,
            seen: Arc::default(),
        };
        let mut unwritable = None;
        if let Err(e) = temp_file(&dir) {
            store.writable = false;
            // The operating system's reason alone (the error also names the temporary file).
            let why = e.raw_os_error().map_or(e.to_string(), |c| {
                std::io::Error::from_raw_os_error(c).to_string()
            });
            unwritable = Some(format!(
                "Cannot write in {}: {why}. Progress will not be saved this session.",
                crate::sanitize::clean(&dir.display().to_string(), false)
            ));
        }
        if reset && path.exists() && unwritable.is_none() {
            return reset_aside(store, &dir, &path);
        }
        if reset || !path.exists() {
            return Opened {
                store,
                progress: Progress::fresh(),
                notice: unwritable.or(reset.then(|| "Progress reset: starting over.".to_owned())),
            };
        }
        let (found, stamp) = disk::read(&path);
        store.seen().stamp = stamp;
        let problem = match found {
            disk::Found::Read(progress) => {
                return Opened {
                    store,
                    progress: *progress,
                    notice: unwritable,
                };
            }
            disk::Found::Missing => {
                return Opened {
                    store,
                    progress: Progress::fresh(),
                    notice: unwritable,
                };
            }
            disk::Found::Later(text) => return read_only_later(store, &path, &text),
            disk::Found::Damaged(problem) => problem,
        };
        set_aside(store, &dir, &path, &problem)
    }

    /// Save this session's progress: the file is read again and written back atomically
    /// with what changed in `progress` since this session last read or wrote it laid over
    /// what it holds (another window's saves meanwhile are kept). Returns what the learner
    /// must be told, if anything (a damaged file moved aside). Does nothing for a memory
    /// store.
    pub fn save(&self, progress: &Progress) -> std::io::Result<Option<String>> {
        let Some(path) = self.path.as_ref().filter(|_| self.writable) else {
            return Ok(None);
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        let _turn = lock_dir(dir);
        let mut seen = self.seen();
        let (found, stamp) = disk::read(path);
        let (disk, notice) = match found {
            disk::Found::Read(disk) => (*disk, None),
            disk::Found::Missing => (Progress::fresh(), None),
            disk::Found::Later(_) => {
                return Err(std::io::Error::other(format!(
                    "{} was written by a later tooldojo meanwhile; it is left untouched",
                    show(path)
                )));
            }
            // Nothing to merge into: everything this session knows is written.
            disk::Found::Damaged(problem) => (
                seen.base.clone(),
                Some(set_aside_meanwhile(dir, path, &problem)?),
            ),
        };
        // The file as this session left it (or none to merge into): what is written is
        // then this session's progress, and the session holds what the file does.
        let in_step = stamp == seen.stamp || notice.is_some();
        let written = write_atomically(dir, path, &merge::merge(&seen.base, progress, &disk))?;
        seen.base = progress.clone();
        seen.stamp = if in_step {
            written
        } else {
            disk::Stamp::Unknown
        };
        Ok(notice)
    }
}

/// A progress file found damaged by a save: moved aside as at start-up (the save then
/// writes this session's progress in its place), or, when it cannot be moved, left
/// untouched and the save refused.
fn set_aside_meanwhile(dir: &Path, path: &Path, problem: &str) -> std::io::Result<String> {
    let aside = aside_path(dir, "damaged");
    match std::fs::rename(path, &aside) {
        Ok(()) => Ok(format!(
            "Your progress file {} could not be used: {problem}. It was moved to {} and this session's progress saved in its place.",
            show(path),
            show(&aside)
        )),
        Err(e) => Err(std::io::Error::other(format!(
            "{} could not be used: {problem}; moving it aside failed too ({e}), so it is left untouched",
            show(path)
        ))),
    }
}

/// Write `progress` to `path` atomically: a temporary file beside it, fsync, rename.
/// Returns the stamp of the file written.
fn write_atomically(dir: &Path, path: &Path, progress: &Progress) -> std::io::Result<disk::Stamp> {
    let mut tmp = temp_file(dir)?;
    let text = serde_json::to_string_pretty(progress).map_err(std::io::Error::other)?;
    tmp.write_all(text.as_bytes())?;
    tmp.write_all(b"\n")?;
    tmp.as_file().sync_all()?;
    let stamp = disk::Stamp::of_file(tmp.as_file());
    tmp.persist(path).map_err(|e| e.error)?;
    // Make the rename itself durable.
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(stamp)
}

/// Take the state directory for one save, so that two windows saving at the same moment
/// take turns instead of each merging into the file the other is about to replace. The
/// turn ends when the returned handle is dropped. After waiting [`LOCK_WAIT`] (or where
/// the directory cannot be locked) the save goes ahead anyway: a save is never lost to a
/// window that hangs.
fn lock_dir(dir: &Path) -> Option<std::fs::File> {
    let handle = std::fs::File::open(dir).ok()?;
    let start = std::time::Instant::now();
    loop {
        if try_lock(&handle) {
            return Some(handle);
        }
        if start.elapsed() >= LOCK_WAIT {
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// An exclusive advisory lock on `file`, without waiting.
#[allow(unsafe_code)]
fn try_lock(file: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: `flock` only reads the descriptor, which `file` owns and keeps open for the
    // call; the lock goes when the descriptor is closed.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_resume() {
        let dir = tempfile::tempdir().unwrap();
        let opened = Store::open(Some(dir.path().to_path_buf()), false);
        assert!(opened.notice.is_none());
        let mut p = opened.progress;
        p.current = Some(Position {
            lesson: "01-x".into(),
            page: 2,
            block: Some(1),
            scroll: 3,
        });
        p.lessons.entry("01-x".into()).or_default().done = true;
        opened.store.save(&p).unwrap();
        let again = Store::open(Some(dir.path().to_path_buf()), false);
        assert_eq!(again.progress, p);
        assert!(again.notice.is_none());
    }

    #[test]
    fn corrupt_file_is_set_aside_and_reported() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(FILE_NAME);
        std::fs::write(&file, "{not json").unwrap();
        let opened = Store::open(Some(dir.path().to_path_buf()), false);
        let notice = opened.notice.expect("learner is told");
        assert!(notice.contains("moved to"), "{notice}");
        assert!(
            !file.exists(),
            "the damaged file was moved, not kept in place"
        );
        let aside: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains("damaged"))
            .collect();
        assert_eq!(aside.len(), 1);
        assert_eq!(
            std::fs::read_to_string(aside[0].path()).unwrap(),
            "{not json"
        );
        assert_eq!(opened.progress.lessons.len(), 0);
    }

    #[test]
    fn reset_starts_over_without_reading() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE_NAME), "{not json").unwrap();
        let opened = Store::open(Some(dir.path().to_path_buf()), true);
        assert!(opened.progress.current.is_none());
        opened.store.save(&opened.progress).unwrap();
        let again = Store::open(Some(dir.path().to_path_buf()), false);
        assert!(again.notice.is_none());
    }

    /// The files in `dir` whose name holds `part`.
    fn files_named(dir: &Path, part: &str) -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains(part))
            .map(|e| e.path())
            .collect()
    }

    #[test]
    fn a_reset_moves_the_old_progress_aside_instead_of_losing_it() {
        let dir = tempfile::tempdir().unwrap();
        let old = r#"{"version": 1, "lessons": {"01-x": {"done": true}}}"#;
        std::fs::write(dir.path().join(FILE_NAME), old).unwrap();
        let opened = Store::open(Some(dir.path().to_path_buf()), true);
        assert!(opened.progress.lessons.is_empty());
        let notice = opened.notice.expect("the learner is told");
        let aside = files_named(dir.path(), ".reset-");
        assert_eq!(aside.len(), 1, "{aside:?}");
        assert_eq!(std::fs::read_to_string(&aside[0]).unwrap(), old);
        assert!(notice.contains(&show(&aside[0])), "{notice}");
        opened.store.save(&opened.progress).unwrap();
        assert_eq!(std::fs::read_to_string(&aside[0]).unwrap(), old);
    }

    /// A progress file of `text` from a later version, opened: the learner is told, and a
    /// save leaves the file as it was.
    fn open_later(text: &str) -> (tempfile::TempDir, Opened) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(FILE_NAME);
        std::fs::write(&file, text).unwrap();
        let opened = Store::open(Some(dir.path().to_path_buf()), false);
        let notice = opened.notice.as_deref().expect("the learner is told");
        assert!(notice.contains("later tooldojo"), "{notice}");
        assert!(!opened.store.writable);
        opened.store.save(&Progress::default()).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
        (dir, opened)
    }

    #[test]
    fn a_file_from_a_later_version_is_read_but_never_written_over() {
        let later = r#"{"version": 2, "lessons": {"01-x": {"done": true}}, "decks": [1]}"#;
        let (_dir, opened) = open_later(later);
        assert!(opened.progress.lessons["01-x"].done);
    }

    #[test]
    fn a_later_file_whose_members_changed_shape_is_not_set_aside_or_written_over() {
        let later = r#"{"version": 3, "lessons": [1, 2], "rehearsal": {"cards": []}}"#;
        let (dir, _) = open_later(later);
        assert!(files_named(dir.path(), "damaged").is_empty());
    }

    #[test]
    fn members_this_version_does_not_know_survive_a_save() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(FILE_NAME);
        let text = r#"{"version": 1, "lessons": {}, "streak": {"days": 3}}"#;
        std::fs::write(&file, text).unwrap();
        let opened = Store::open(Some(dir.path().to_path_buf()), false);
        assert!(opened.notice.is_none());
        opened.store.save(&opened.progress).unwrap();
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(saved["streak"]["days"], 3, "{saved}");
    }

    #[test]
    fn unwritable_store_never_writes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store {
            path: Some(dir.path().join(FILE_NAME)),
            writable: false,
            seen: Arc::default(),
        };
        store.save(&Progress::default()).unwrap();
        assert!(!dir.path().join(FILE_NAME).exists());
    }

    #[test]
    fn old_progress_files_load_and_new_ones_round_trip() {
        let old = r#"{"version": 1, "lessons": {"01-x": {"done": true}}}"#;
        let p: Progress = serde_json::from_str(old).unwrap();
        assert!(p.rehearsal.is_empty());
        assert!(p.lessons["01-x"].done);
        let mut p = p;
        p.rehearsal.answer("q", false, 1);
        let text = serde_json::to_string(&p).unwrap();
        let back: Progress = serde_json::from_str(&text).unwrap();
        assert_eq!(back, p);
    }
    #[test]
    fn a_renumbered_lesson_keeps_its_progress() {
        let ids: Vec<String> = ["01-x", "16-y", "17-checklist-and-interview"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut p = Progress::default();
        let old = p
            .lessons
            .entry("14-checklist-and-interview".into())
            .or_default();
        old.done = true;
        old.pages_seen.insert(3);
        old.blocks
            .insert("2/0".into(), serde_json::json!({"ticked": [true]}));
        // The grader already wrote under the new id: its block wins, the rest is merged.
        let new = p
            .lessons
            .entry("17-checklist-and-interview".into())
            .or_default();
        new.blocks
            .insert("2/0".into(), serde_json::json!({"ticked": [true, true]}));
        new.pages_seen.insert(0);
        p.lessons.entry("09-gone".into()).or_default().done = true;
        p.current = Some(Position {
            lesson: "14-checklist-and-interview".into(),
            page: 3,
            ..Position::default()
        });
        p.rehearsal
            .answer("explain/14-checklist-and-interview#2", false, 5);
        assert_eq!(p.follow_renames(&ids), 1);
        let moved = &p.lessons["17-checklist-and-interview"];
        assert!(moved.done);
        assert_eq!(moved.pages_seen, BTreeSet::from([0, 3]));
        assert_eq!(
            moved.blocks["2/0"],
            serde_json::json!({"ticked": [true, true]})
        );
        assert!(!p.lessons.contains_key("14-checklist-and-interview"));
        assert!(
            p.lessons.contains_key("09-gone"),
            "no lesson of that name: kept as it was"
        );
        assert_eq!(p.current.unwrap().lesson, "17-checklist-and-interview");
        assert!(
            p.rehearsal
                .cards
                .contains_key("explain/17-checklist-and-interview#2")
        );
        // Nothing left to move the second time.
        let mut again = Progress::default();
        again.lessons.entry("01-x".into()).or_default();
        assert_eq!(again.follow_renames(&ids), 0);
    }

    /// Two sessions opened on one progress file, as two windows are.
    fn two_windows(dir: &Path) -> (Opened, Opened) {
        let a = Store::open(Some(dir.to_path_buf()), false);
        let b = Store::open(Some(dir.to_path_buf()), false);
        assert!(a.notice.is_none() && b.notice.is_none());
        (a, b)
    }

    /// What the progress file holds now.
    fn on_file(dir: &Path) -> Progress {
        let opened = Store::open(Some(dir.to_path_buf()), false);
        assert!(opened.notice.is_none(), "{:?}", opened.notice);
        opened.progress
    }

    /// A session's progress with block `key` of lesson `id` set to `state` (the page seen).
    fn answered(p: &Progress, id: &str, key: &str, state: Value) -> Progress {
        let mut p = p.clone();
        let lp = p.lessons.entry(id.into()).or_default();
        lp.pages_seen
            .insert(key.split('/').next().unwrap().parse().unwrap());
        lp.blocks.insert(key.into(), state);
        p.current = Some(Position {
            lesson: id.into(),
            ..Position::default()
        });
        p
    }

    #[test]
    fn two_windows_on_different_lessons_keep_both_whichever_saves_first() {
        for a_first in [true, false] {
            let dir = tempfile::tempdir().unwrap();
            let (a, b) = two_windows(dir.path());
            let mine_a = answered(&a.progress, "01-x", "0/0", serde_json::json!({"pick": 1}));
            let mut mine_b = answered(&b.progress, "09-y", "7/0", serde_json::json!({"pick": 2}));
            mine_b.lessons.get_mut("09-y").unwrap().done = true;
            if a_first {
                a.store.save(&mine_a).unwrap();
                b.store.save(&mine_b).unwrap();
            } else {
                b.store.save(&mine_b).unwrap();
                a.store.save(&mine_a).unwrap();
            }
            let saved = on_file(dir.path());
            assert_eq!(
                saved.lessons["01-x"].blocks["0/0"],
                serde_json::json!({"pick": 1})
            );
            assert_eq!(
                saved.lessons["09-y"].blocks["7/0"],
                serde_json::json!({"pick": 2})
            );
            assert!(saved.lessons["09-y"].done, "a_first: {a_first}");
        }
    }

    /// The defect two windows showed: one does nothing, the other answers and quits, then the
    /// first quits and used to write back the file as it read it at start-up.
    #[test]
    fn a_window_that_changed_nothing_does_not_undo_another_on_quitting() {
        let dir = tempfile::tempdir().unwrap();
        let (idle, busy) = two_windows(dir.path());
        let answer = answered(
            &busy.progress,
            "09-y",
            "7/0",
            serde_json::json!({"pick": 2}),
        );
        busy.store.save(&answer).unwrap();
        idle.store.save(&idle.progress).unwrap();
        assert_eq!(on_file(dir.path()).lessons, answer.lessons);
    }

    #[test]
    fn the_same_block_changed_in_both_windows_keeps_the_later_save() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = two_windows(dir.path());
        let older = answered(
            &a.progress,
            "01-x",
            "2/1",
            serde_json::json!({"answer": "old"}),
        );
        let newer = answered(
            &b.progress,
            "01-x",
            "2/1",
            serde_json::json!({"answer": "new"}),
        );
        a.store.save(&older).unwrap();
        b.store.save(&newer).unwrap();
        assert_eq!(
            on_file(dir.path()).lessons["01-x"].blocks["2/1"]["answer"],
            "new"
        );
        // The older window saves again without touching the block: the newer answer stays.
        a.store.save(&older).unwrap();
        assert_eq!(
            on_file(dir.path()).lessons["01-x"].blocks["2/1"]["answer"],
            "new"
        );
        // Once it changes the block again, that answer is the newer one.
        let newest = answered(
            &older,
            "01-x",
            "2/1",
            serde_json::json!({"answer": "newest"}),
        );
        a.store.save(&newest).unwrap();
        assert_eq!(
            on_file(dir.path()).lessons["01-x"].blocks["2/1"]["answer"],
            "newest"
        );
    }

    #[test]
    fn a_drill_saved_in_another_window_keeps_a_compared_explain_answer() {
        let dir = tempfile::tempdir().unwrap();
        let (lesson, drill) = two_windows(dir.path());
        let explained = serde_json::json!({
            "answer": "Check the tenant before the read.",
            "compared": true,
            "hidden": false,
            "ticked": [true, false],
        });
        let mine = answered(&lesson.progress, "05-z", "3/0", explained.clone());
        lesson.store.save(&mine).unwrap();
        let mut drilled = drill.progress.clone();
        drilled.rehearsal.answer("explain/05-z#3", false, 100);
        drilled
            .rehearsal
            .finish(crate::course::review::DrillRecord {
                day: 100,
                seed: 7,
                asked: 4,
                points: 300,
            });
        drill.store.save(&drilled).unwrap();
        let saved = on_file(dir.path());
        assert_eq!(saved.lessons["05-z"].blocks["3/0"], explained);
        assert_eq!(saved.current, mine.current);
        assert!(saved.rehearsal.cards.contains_key("explain/05-z#3"));
        assert_eq!(saved.rehearsal.drills.len(), 1);
        // The lesson window saving again keeps the drill.
        lesson.store.save(&mine).unwrap();
        assert_eq!(on_file(dir.path()).rehearsal, drilled.rehearsal);
    }

    #[test]
    fn a_finished_lesson_stays_finished_and_seen_pages_stay_seen() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = two_windows(dir.path());
        let mut done = answered(&a.progress, "01-x", "4/0", serde_json::json!({"pick": 0}));
        done.lessons.get_mut("01-x").unwrap().done = true;
        a.store.save(&done).unwrap();
        // The other window read the lesson as unfinished and saw another page of it.
        let other = answered(&b.progress, "01-x", "1/0", serde_json::json!({"pick": 3}));
        b.store.save(&other).unwrap();
        let lp = &on_file(dir.path()).lessons["01-x"];
        assert!(lp.done);
        assert_eq!(lp.pages_seen, BTreeSet::from([1, 4]));
        assert_eq!(lp.blocks.len(), 2);
    }

    #[test]
    fn windows_saving_at_the_same_moment_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let windows: Vec<Opened> = (0..4)
            .map(|_| Store::open(Some(dir.path().to_path_buf()), false))
            .collect();
        std::thread::scope(|s| {
            for (w, opened) in windows.iter().enumerate() {
                s.spawn(move || {
                    let mut p = opened.progress.clone();
                    for n in 0..20 {
                        p = answered(&p, &format!("0{w}-w"), &format!("{n}/0"), Value::from(n));
                        opened.store.save(&p).unwrap();
                    }
                });
            }
        });
        let saved = on_file(dir.path());
        for w in 0..4 {
            assert_eq!(
                saved.lessons[&format!("0{w}-w")].blocks.len(),
                20,
                "window {w}"
            );
        }
    }

    #[test]
    fn a_file_damaged_meanwhile_is_set_aside_before_a_save_and_the_learner_told() {
        let dir = tempfile::tempdir().unwrap();
        let opened = Store::open(Some(dir.path().to_path_buf()), false);
        let first = answered(&opened.progress, "01-x", "0/0", Value::from(1));
        opened.store.save(&first).unwrap();
        std::fs::write(dir.path().join(FILE_NAME), "{not json").unwrap();
        let second = answered(&first, "02-y", "0/0", Value::from(2));
        let notice = opened
            .store
            .save(&second)
            .unwrap()
            .expect("the learner is told");
        let aside = files_named(dir.path(), ".damaged-");
        assert_eq!(aside.len(), 1, "{aside:?}");
        assert_eq!(std::fs::read_to_string(&aside[0]).unwrap(), "{not json");
        assert!(notice.contains(&show(&aside[0])), "{notice}");
        // Everything the session knows was written, not only its latest change.
        assert_eq!(on_file(dir.path()).lessons, second.lessons);
    }

    #[test]
    fn a_file_a_later_version_wrote_meanwhile_is_never_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let opened = Store::open(Some(dir.path().to_path_buf()), false);
        let later = r#"{"version": 9, "lessons": []}"#;
        std::fs::write(dir.path().join(FILE_NAME), later).unwrap();
        let err = opened.store.save(&opened.progress).unwrap_err();
        assert!(err.to_string().contains("later tooldojo"), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join(FILE_NAME)).unwrap(),
            later
        );
    }

    #[test]
    fn a_reset_in_another_window_is_not_undone_by_an_older_window() {
        let dir = tempfile::tempdir().unwrap();
        let first = Store::open(Some(dir.path().to_path_buf()), false);
        let old = answered(&first.progress, "01-x", "0/0", Value::from(1));
        first.store.save(&old).unwrap();
        let (older, _) = two_windows(dir.path());
        let reset = Store::open(Some(dir.path().to_path_buf()), true);
        reset.store.save(&reset.progress).unwrap();
        let later = answered(&older.progress, "02-y", "0/0", Value::from(2));
        older.store.save(&later).unwrap();
        let saved = on_file(dir.path());
        assert!(!saved.lessons.contains_key("01-x"), "{saved:?}");
        assert!(saved.lessons.contains_key("02-y"));
    }
}
