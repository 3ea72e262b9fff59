//! The course's lessons as the app holds them: every lesson file read and parsed, a file
//! that does not parse kept as an entry with its error, so the rest of the course still opens.

use crate::content::Content;
use crate::content::lessons::Lesson;
use crate::error::{UserError, UserResult};

/// One lesson file: parsed, or the error that stopped it.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonEntry {
    /// The file name without `.md`; progress is keyed by it.
    pub id: String,
    /// The name used in messages.
    pub file: String,
    /// The file's text (a reload only rebuilds a lesson whose text changed).
    pub source: String,
    pub parsed: Result<Lesson, UserError>,
}

impl LessonEntry {
    pub fn from_lesson(lesson: Lesson) -> LessonEntry {
        LessonEntry {
            id: lesson.id.clone(),
            file: lesson.file.clone(),
            source: String::new(),
            parsed: Ok(lesson),
        }
    }

    /// The lesson's title, cleaned for the screen (it comes from a file).
    pub fn title(&self) -> String {
        match &self.parsed {
            Ok(l) => crate::sanitize::clean(&l.title, false),
            Err(_) => self.id.clone(),
        }
    }

    pub fn page_count(&self) -> usize {
        match &self.parsed {
            Ok(l) => l.pages.len().max(1),
            Err(_) => 1,
        }
    }

    /// The lesson's number, as its file name starts (`17-checklist` is 17).
    pub fn number(&self) -> Option<u32> {
        let digits: String = self.id.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    }
}

/// Read and parse every lesson; a file that does not parse becomes an entry with its error.
/// `Err` only when the lesson directory itself cannot be listed.
pub fn load_lessons(content: &Content) -> UserResult<Vec<LessonEntry>> {
    let names = content.lessons.list("", ".md")?;
    let mut out = Vec::new();
    for rel in names {
        if rel.eq_ignore_ascii_case("README.md") {
            continue;
        }
        let id = crate::sanitize::clean(rel.trim_end_matches(".md"), false);
        match content.lessons.read(&rel) {
            Ok(file) => {
                let parsed = crate::content::lessons::parse_lesson(&file);
                out.push(LessonEntry {
                    id,
                    file: crate::sanitize::clean(&file.display, false),
                    source: file.text,
                    parsed,
                });
            }
            Err(e) => out.push(LessonEntry {
                id,
                file: crate::sanitize::clean(&rel, false),
                source: String::new(),
                parsed: Err(e),
            }),
        }
    }
    Ok(out)
}
