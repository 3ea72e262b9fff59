//! Lessons: Markdown files with interactive fenced blocks (the format is described in lessons/README.md).
//!
//! This file holds the lesson types and loads a tree of lessons; `parse` reads a file's pages,
//! prose and fences; `kind` holds every block kind's facts (its word and names, its options
//! and its body format), so a new kind is written there.

mod kind;
mod parse;
#[cfg(test)]
mod tests;

pub use kind::{BlockKind, BlockSpec, Checklist, Choice, Explain, Quiz};
pub use parse::parse_lesson;

use crate::content::{Content, TextFile};
use crate::error::{UserError, UserResult};

/// A block's `key=value` options in the order written.
pub(crate) type Options = Vec<(String, String)>;

/// `FILE:LINE: what`, the error for a problem at a line of a lesson file.
pub(crate) fn err(file: &TextFile, line: usize, what: impl std::fmt::Display) -> UserError {
    UserError::new(format!("{}:{line}: {what}", file.display))
}

/// One lesson file.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    /// Stable id: the file name without `.md` (e.g. `01-untrusted-input`); progress is keyed by it.
    pub id: String,
    pub title: String,
    /// Rough study time the header promises, in minutes.
    pub minutes: u32,
    /// The file name used in messages (`lessons/01-untrusted-input.md`).
    pub file: String,
    /// Pages, shown one at a time and moved with `n` / `p`.
    pub pages: Vec<Page>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub title: String,
    pub items: Vec<Item>,
}

/// A page is Markdown prose interleaved with interactive blocks.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Markdown(String),
    Block(Block),
}

/// A fenced interactive block: ```` ```predict fixture=get_ticket ````.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub kind: BlockKind,
    /// `key=value` options in the order written.
    pub options: Vec<(String, String)>,
    /// The raw text between the fences.
    pub body: String,
    /// 1-based line of the opening fence in `file`.
    pub line: usize,
    /// Parsed body for the kinds that have one.
    pub spec: BlockSpec,
}

impl Block {
    /// A checklist's `grader=execute:1,validate:2` as (function, 0-based item) pairs.
    pub(crate) fn grader_items(&self) -> Vec<(String, usize)> {
        self.option("grader")
            .unwrap_or_default()
            .split(',')
            .filter_map(|pair| {
                let (f, n) = pair.split_once(':')?;
                let n: usize = n.trim().parse().ok()?;
                Some((f.trim().to_owned(), n.checked_sub(1)?))
            })
            .collect()
    }

    pub(crate) fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

impl Block {
    /// `rows=a,b,c` split into ids (empty when the option is absent).
    pub(crate) fn rows(&self) -> Vec<String> {
        self.option("rows")
            .map(|v| {
                v.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Lesson {
    /// Every interactive block of the lesson, in reading order.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        self.pages.iter().flat_map(|p| {
            p.items.iter().filter_map(|i| match i {
                Item::Block(b) => Some(b),
                Item::Markdown(_) => None,
            })
        })
    }
}

/// Load every `*.md` lesson of the content, in file-name order (`README.md` is skipped).
pub fn load_all(content: &Content) -> UserResult<Vec<Lesson>> {
    let mut out = Vec::new();
    for rel in content.lessons.list("", ".md")? {
        if rel.eq_ignore_ascii_case("README.md") {
            continue;
        }
        out.push(parse_lesson(&content.lessons.read(&rel)?)?);
    }
    Ok(out)
}
