//! Lessons: Markdown files with interactive fenced blocks (the format is described in lessons/README.md).
//!
//! This file holds the lesson types and loads a tree of lessons; `parse` reads a file's pages,
//! prose and fences, `body` checks a block's options and parses its body.

mod body;
mod parse;
#[cfg(test)]
mod tests;

pub use parse::parse_lesson;

use crate::content::Content;
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

/// The interactive kinds, as written in an info string.
pub(crate) const KINDS: &[(&str, BlockKind)] = &[
    ("predict", BlockKind::Predict),
    ("playground", BlockKind::Playground),
    ("trace", BlockKind::Trace),
    ("quiz", BlockKind::Quiz),
    ("explain", BlockKind::Explain),
    ("checklist", BlockKind::Checklist),
];

impl BlockKind {
    /// The word used in lesson files (`predict`, `trace`, ...).
    pub fn name(&self) -> &'static str {
        KINDS
            .iter()
            .find(|(_, k)| k == self)
            .map(|(n, _)| *n)
            .unwrap_or("?")
    }

    pub(crate) fn from_word(word: &str) -> Option<BlockKind> {
        KINDS
            .iter()
            .find(|(n, _)| *n == word)
            .map(|(_, k)| k.clone())
    }

    /// The word capitalized, as a title begins (`Predict`).
    pub fn title(&self) -> String {
        let name = self.name();
        let mut chars = name.chars();
        chars
            .next()
            .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
            .unwrap_or_default()
    }

    /// How the page names a block of this kind that has nothing more precise to say of
    /// what is left of it ("to do: the checklist").
    pub fn noun(&self) -> &'static str {
        match self {
            BlockKind::Predict => "the predict table",
            BlockKind::Playground => "the playground",
            BlockKind::Trace => "the trace",
            BlockKind::Quiz => "the quiz",
            BlockKind::Explain => "the explain question",
            BlockKind::Checklist => "the checklist",
        }
    }

    /// The option keys this kind accepts.
    pub(crate) fn allowed_options(&self) -> &'static [&'static str] {
        match self {
            BlockKind::Predict => &["fixture", "group", "rows"],
            BlockKind::Playground => &["mode", "schema", "tool", "tenant", "read"],
            BlockKind::Trace => &["scenario", "seed"],
            BlockKind::Checklist => &["grader"],
            BlockKind::Quiz | BlockKind::Explain => &[],
        }
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
