//! The small types of the app's state: where the focus is, what covers the page, one
//! block's place on the page, and how far a lesson is.

use crate::content::lessons::BlockKind;
use crate::tui::blocks::BlockWidget;

/// The two screens of the app: the course map, and a lesson's pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Home,
    Lesson,
}

/// What a row of the home screen opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HomeEntry {
    /// Back to where the learner left off (lesson index).
    Continue(usize),
    /// A lesson of the course map, at the page the learner left it.
    Lesson(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Sidebar,
    Page,
    Block(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    Help,
    /// Something the learner must read (a progress file set aside).
    Notice(String),
}

/// One interactive block on the current page.
pub(crate) struct Slot {
    pub kind: BlockKind,
    pub line: usize,
    pub widget: Result<Box<dyn BlockWidget>, String>,
}

/// How far the learner is in a lesson, for the lesson list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LessonState {
    Done,
    Started,
    Todo,
    Broken,
}
