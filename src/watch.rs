//! Watching for a file to change. Editors save by writing, by renaming a new file over the
//! old one, or by replacing it, so the file's directory is watched (not the file) and each
//! event is matched against what was asked for; reads (access events) are not changes.

use std::path::{Path, PathBuf};

use notify::{EventKind, RecursiveMode, Watcher};

/// Call `changed` on every change in `dir` to a path `wanted` accepts, until the returned
/// watcher is dropped. `changed` runs on the watcher's own thread: it should only send
/// a message on.
pub fn watch_dir(
    dir: &Path,
    wanted: impl Fn(&Path) -> bool + Send + 'static,
    changed: impl Fn() + Send + 'static,
) -> notify::Result<notify::RecommendedWatcher> {
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(ev) = res
            && !matches!(ev.kind, EventKind::Access(_))
            && ev.paths.iter().any(|p| wanted(p))
        {
            changed();
        }
    })?;
    watcher.watch(dir, RecursiveMode::NonRecursive)?;
    Ok(watcher)
}

/// The directory to watch for `file` (its parent, or the current directory for a bare
/// name) and a test for events about it (any path with its file name).
pub fn file_in_dir(file: &Path) -> (PathBuf, impl Fn(&Path) -> bool + Send + 'static) {
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let name = file.file_name().map(ToOwned::to_owned);
    (dir, move |p: &Path| p.file_name() == name.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_watched_through_its_directory_by_name() {
        let (dir, wanted) = file_in_dir(Path::new("work/solution.py"));
        assert_eq!(dir, Path::new("work"));
        assert!(wanted(Path::new("/elsewhere/work/solution.py")));
        assert!(!wanted(Path::new("work/solution.js")));
        let (dir, _) = file_in_dir(Path::new("solution.py"));
        assert_eq!(dir, Path::new("."));
    }

    #[test]
    fn a_save_in_the_directory_is_reported() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("a.txt");
        let (dir, wanted) = file_in_dir(&file);
        let (tx, rx) = std::sync::mpsc::channel();
        let _w = watch_dir(&dir, wanted, move || {
            let _ = tx.send(());
        })
        .unwrap();
        std::fs::write(tmp.path().join("other.txt"), "x").unwrap();
        std::fs::write(&file, "saved").unwrap();
        assert!(
            rx.recv_timeout(std::time::Duration::from_secs(10)).is_ok(),
            "the save is seen"
        );
    }
}
