//! Writing a file the user named, safely: the bytes go to a temporary file in the same
//! directory, which then takes the name in one step (a reader sees the old file or the new
//! one, never half of one); the name is never followed if it is a symbolic link, dangling
//! or not (the link itself is what gets replaced); and an existing file is replaced only
//! when the caller says so.

use std::fmt;
use std::io::Write;
use std::path::Path;

/// Why a file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// Something is already there (a file, or a link) and replacing was not asked for.
    Exists {
        link: bool,
    },
    /// A directory has the name.
    Directory,
    Io(std::io::Error),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Exists { link: false } => {
                f.write_str("already exists, so it was not overwritten (--force replaces it)")
            }
            WriteError::Exists { link: true } => f.write_str(
                "is a symbolic link, which is never written through (--force replaces the link itself)",
            ),
            WriteError::Directory => f.write_str("is a directory"),
            WriteError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WriteError {}

impl From<std::io::Error> for WriteError {
    fn from(e: std::io::Error) -> Self {
        WriteError::Io(e)
    }
}

/// What is at `path` now, without following a link: `Ok(())` when `path` may be written.
pub fn check(path: &Path, replace: bool) -> Result<(), WriteError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e.into()),
        Ok(meta) if meta.is_dir() => Err(WriteError::Directory),
        Ok(_) if replace => Ok(()),
        Ok(meta) => Err(WriteError::Exists {
            link: meta.file_type().is_symlink(),
        }),
    }
}

/// Write `bytes` to `path` atomically. Without `replace`, anything already at `path` (a
/// file, a link, a dangling link) is left alone and the write fails, even if it appeared
/// after a check; with it, what is there is replaced (a link, not what it points to).
pub fn write(path: &Path, bytes: &[u8], replace: bool) -> Result<(), WriteError> {
    check(path, replace)?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // What a new file would get under the usual umask; the temporary one starts private.
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    let done = if replace {
        tmp.persist(path).map(drop)
    } else {
        tmp.persist_noclobber(path).map(drop)
    };
    done.map_err(|e| {
        if e.error.kind() == std::io::ErrorKind::AlreadyExists {
            let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
            WriteError::Exists { link }
        } else {
            WriteError::Io(e.error)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn a_new_file_is_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.md");
        write(&path, b"hello", false).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn an_existing_file_is_kept_without_replace() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.md");
        std::fs::write(&path, "mine").unwrap();
        let err = write(&path, b"new", false).unwrap_err();
        assert!(matches!(err, WriteError::Exists { link: false }), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
        write(&path, b"new", true).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_never_followed_dangling_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.txt");
        std::fs::write(&target, "precious").unwrap();
        let link = dir.path().join("t.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = write(&link, b"x", false).unwrap_err();
        assert!(matches!(err, WriteError::Exists { link: true }), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        // With replace, the link itself is replaced; its target is untouched.
        write(&link, b"x", true).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        assert!(
            !std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // A dangling link is not followed either: nothing is created where it points.
        let nowhere = dir.path().join("made-by-the-link.txt");
        let dangling = dir.path().join("d.md");
        std::os::unix::fs::symlink(&nowhere, &dangling).unwrap();
        assert!(write(&dangling, b"x", false).is_err());
        assert!(!nowhere.exists());
    }

    #[test]
    fn a_file_that_appears_after_the_check_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.md");
        check(&path, false).unwrap();
        std::fs::write(&path, "raced").unwrap();
        assert!(write(&path, b"new", false).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "raced");
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            write(dir.path(), b"x", true),
            Err(WriteError::Directory)
        ));
    }
}
