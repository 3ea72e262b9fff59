//! The course without a screen: the lessons as the app holds them, the learner's progress
//! and its store, what "done" means, what a passing grade ticks, the rehearsal drill's
//! questions, scoring and transcript, and the spaced-review schedule. The real validator
//! and executor run on a row or on the learner's input in [`lab`], as the lessons'
//! playgrounds, predict tables and drill questions show them.
//!
//! Nothing here draws or reads a key: the app and the command line both call it.

pub mod done;
pub mod graded;
pub mod lab;
pub mod lessons;
pub mod progress;
pub mod rehearsal;
pub mod review;
pub mod tools_progress;

use std::sync::Arc;

use crate::content::Content;

pub use done::{Left, LessonState};
pub use lessons::{LessonEntry, load_lessons};
pub use progress::{Progress, Store};

/// Shared, read-only data the lessons' blocks and the drill's questions are made from.
#[derive(Clone)]
pub struct BlockEnv {
    pub content: Arc<Content>,
    /// The ticket store the executor playground and predict tables run against
    /// (`fixtures/tickets.json`, or `--records @FILE`).
    pub records: Arc<Vec<crate::executor::Record>>,
    /// Seed for orchestrator runs of `trace` blocks (default 0).
    pub seed: u64,
}

impl BlockEnv {
    /// The environment for `content` and the ticket store `records`.
    pub fn new(content: Content, records: Vec<crate::executor::Record>, seed: u64) -> BlockEnv {
        BlockEnv {
            content: Arc::new(content),
            records: Arc::new(records),
            seed,
        }
    }
}
