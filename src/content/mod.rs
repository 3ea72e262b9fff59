//! Content: the lessons and fixtures, embedded in the binary at build time or read
//! from disk (`--lessons DIR`, `--fixtures DIR`) while authoring.
//!
//! Everything here is plain data and parsing; nothing knows about screens or flags. The
//! types a fixture file deserializes into belong to the module that runs it (`validate`,
//! `executor`, `orchestrator`); this module only hands out the text and parses lessons.

pub mod lessons;

use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::error::{UserError, UserResult};

static EMBEDDED_LESSONS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/lessons");
static EMBEDDED_FIXTURES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/fixtures");

/// Where a tree of content files comes from.
#[derive(Debug, Clone)]
pub(crate) enum Tree {
    /// Built into the binary; `root` is the name used in messages (`lessons` or `fixtures`).
    Embedded {
        root: &'static str,
        dir: &'static Dir<'static>,
    },
    /// A directory on disk, named by the user.
    Disk(PathBuf),
}

/// The example tools file shipped among the fixtures (`tooldojo tools --example`, `T`).
pub const TOOLS_EXAMPLE: &str = "tools/issue-tracker.json";
/// The example log shipped among the fixtures (`tooldojo audit --example`, `A`).
pub const AUDIT_EXAMPLE: &str = "audit/support-desk.jsonl";

/// One text file from a tree: the name used in messages and its contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextFile {
    /// `lessons/01-untrusted.md` for embedded files, the real path for files on disk.
    pub display: String,
    /// The path relative to the tree's root, always with `/` separators.
    pub rel: String,
    pub text: String,
}

impl Tree {
    pub(crate) fn embedded_lessons() -> Self {
        Tree::Embedded {
            root: "lessons",
            dir: &EMBEDDED_LESSONS,
        }
    }

    pub(crate) fn embedded_fixtures() -> Self {
        Tree::Embedded {
            root: "fixtures",
            dir: &EMBEDDED_FIXTURES,
        }
    }

    /// The disk directory, if this tree is read from disk (for file watching).
    pub(crate) fn disk_root(&self) -> Option<&Path> {
        match self {
            Tree::Disk(p) => Some(p),
            Tree::Embedded { .. } => None,
        }
    }

    fn display(&self, rel: &str) -> String {
        match self {
            Tree::Embedded { root, .. } => format!("{root}/{rel}"),
            Tree::Disk(p) => p.join(rel).display().to_string(),
        }
    }

    /// Read one file, `rel` relative to the tree's root.
    pub(crate) fn read(&self, rel: &str) -> UserResult<TextFile> {
        let display = self.display(rel);
        let text = match self {
            Tree::Embedded { dir, .. } => dir
                .get_file(rel)
                .and_then(|f| f.contents_utf8())
                .map(str::to_owned)
                .ok_or_else(|| UserError::new(format!("{display}: no such file")))?,
            Tree::Disk(root) => {
                crate::input::read_text(&root.join(rel), crate::input::MAX_FILE_BYTES, &display)?
            }
        };
        Ok(TextFile {
            display,
            rel: rel.to_owned(),
            text,
        })
    }

    /// Does `rel` exist in this tree?
    pub(crate) fn exists(&self, rel: &str) -> bool {
        match self {
            Tree::Embedded { dir, .. } => dir.get_file(rel).is_some(),
            Tree::Disk(root) => root.join(rel).is_file(),
        }
    }

    /// The files directly inside `sub` (use "" for the root) whose names end with `ext`
    /// (e.g. ".md"), sorted by name.
    pub(crate) fn list(&self, sub: &str, ext: &str) -> UserResult<Vec<String>> {
        let mut names: Vec<String> = match self {
            Tree::Embedded { dir, .. } => {
                let files: Vec<&include_dir::File> = if sub.is_empty() {
                    dir.files().collect()
                } else {
                    match dir.get_dir(sub) {
                        Some(d) => d.files().collect(),
                        None => Vec::new(),
                    }
                };
                files
                    .into_iter()
                    .map(|f| f.path().to_string_lossy().replace('\\', "/"))
                    .collect()
            }
            Tree::Disk(root) => {
                let dir = root.join(sub);
                if !dir.is_dir() {
                    if sub.is_empty() {
                        return Err(UserError::new(format!(
                            "{}: not a directory",
                            root.display()
                        )));
                    }
                    return Ok(Vec::new());
                }
                let entries = std::fs::read_dir(&dir)
                    .map_err(|e| UserError::new(format!("{}: {e}", dir.display())))?;
                let mut out = Vec::new();
                for entry in entries.flatten() {
                    if entry.path().is_file() {
                        let name = entry.file_name().to_string_lossy().into_owned();
                        out.push(if sub.is_empty() {
                            name
                        } else {
                            format!("{sub}/{name}")
                        });
                    }
                }
                out
            }
        };
        names.retain(|n| n.ends_with(ext));
        names.sort();
        Ok(names)
    }
}

/// The two content trees a command works from.
#[derive(Debug, Clone)]
pub struct Content {
    pub(crate) lessons: Tree,
    pub(crate) fixtures: Tree,
}

impl Content {
    /// Embedded content, unless a directory is given for either tree.
    pub fn new(lessons: Option<&Path>, fixtures: Option<&Path>) -> Self {
        Content {
            lessons: lessons
                .map(|p| Tree::Disk(p.to_path_buf()))
                .unwrap_or_else(Tree::embedded_lessons),
            fixtures: fixtures
                .map(|p| Tree::Disk(p.to_path_buf()))
                .unwrap_or_else(Tree::embedded_fixtures),
        }
    }

    pub fn embedded() -> Self {
        Self::new(None, None)
    }
}

/// Parse a JSON file into `T`; a failure names the file, line and column.
pub fn parse_json<T: DeserializeOwned>(file: &TextFile) -> UserResult<T> {
    serde_json::from_str(&file.text).map_err(|e| UserError::json(&file.display, &e))
}

/// For `#[serde(default, deserialize_with = "present")]` fields: a field written as `null`
/// is `Some(Value::Null)`, a missing field stays `None`.
pub(crate) fn present<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(d).map(Some)
}
