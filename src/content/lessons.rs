//! Lessons: Markdown files with interactive fenced blocks (see CONTRACT.md, "Content").
//!
//! OWNER: course helper. The types below are the interface the TUI and `check` rely on;
//! add to them freely, do not rename.

use crate::content::{Content, TextFile};
use crate::error::UserResult;

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
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockKind {
    Predict,
    Playground,
    Trace,
    Quiz,
    Explain,
    Checklist,
}

#[derive(Debug, Clone, PartialEq)]
pub enum BlockSpec {
    /// predict / playground / trace: everything is in the options.
    None,
    Quiz(Quiz),
    Explain(Explain),
    Checklist(Checklist),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Quiz {
    pub question: String,
    pub choices: Vec<Choice>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub text: String,
    pub correct: bool,
    /// Why this choice is right or wrong, shown once the learner picks it.
    pub why: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Explain {
    pub question: String,
    pub model_answer: String,
    /// Points a good answer mentions; the learner ticks the ones they covered.
    pub key_points: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Checklist {
    pub items: Vec<String>,
}

/// Parse one lesson file. Errors name the file and line.
pub fn parse_lesson(file: &TextFile) -> UserResult<Lesson> {
    let _ = file;
    Err(crate::error::UserError::new(
        "lesson parsing is being built (course helper)",
    ))
}

/// Load every `*.md` lesson of the content, in file-name order.
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

/// `tooldojo check`'s lesson lint: every block parses, every fixture, row, scenario and
/// schema a block names exists, every fixture row is predicted somewhere.
/// Returns rows for the check table; a lesson that cannot be parsed at all is an `Err`
/// (exit 2, naming file and line).
pub fn lint(content: &Content) -> UserResult<Vec<crate::content::CheckRow>> {
    let _ = content;
    Ok(Vec::new()) // course helper: replace with the real lint
}
