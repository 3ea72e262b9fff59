//! The small types of the app's state: which screen is on top (each screen owning its own
//! state), where the focus is, what covers the page, one block's place on the page, and how
//! far a lesson is.

use crate::content::lessons::BlockKind;
use crate::tui::blocks::BlockWidget;
use crate::tui::player::Player;
use crate::tui::practice_screen::PracticeScreen;
use crate::tui::rehearse::Drill;
use crate::tui::tools::ToolsScreen;

/// What fills the terminal. Each screen owns its own state; the open lesson (its page, its
/// blocks, the lesson list) is the app's, because the home screen's Continue and every
/// other screen's way back lead to it.
///
/// The app keeps a stack: `Home` or `Lesson` at the bottom, any other screen opened over
/// them and closed again with Esc (see `App::open_screen` and `App::close_screen`).
pub enum Screen {
    /// The course map; `sel` is the selected row (an index into `App::home_entries`).
    Home { sel: usize },
    /// A lesson's pages, the lesson list beside them.
    Lesson,
    /// The full-screen trace player.
    Player(Box<Player>),
    /// The timed rehearsal drill.
    Drill(Box<Drill>),
    /// The learner's own solution, graded on every save.
    Practice(Box<PracticeScreen>),
    /// Your own tools file: its declarations, traps, strict readiness and fixes.
    Tools(Box<ToolsScreen>),
}

impl Screen {
    /// The screen's name, for messages and tests.
    pub fn name(&self) -> &'static str {
        match self {
            Screen::Home { .. } => "home",
            Screen::Lesson => "lesson",
            Screen::Player(_) => "player",
            Screen::Drill(_) => "drill",
            Screen::Practice(_) => "practice",
            Screen::Tools(_) => "tools",
        }
    }
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
