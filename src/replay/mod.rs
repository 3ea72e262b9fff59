//! A run as the trace player plays it, whatever made it. A source builds a [`Run`]: its
//! lanes (model turns and tool calls, in order), segments, results, events, warnings and,
//! when it had them, budgets, with the indexes that keep a frame's cost to what is on screen.
//! The player draws a `Run` and nothing else, so a new source plugs in without touching the
//! drawing.
//!
//! - [`run`]: the `Run` and its queries at a time T; [`index`]: the lookups built with it;
//! - [`scenario`]: today's source, a scenario run by the orchestrator ([`ScenarioSource`]);
//! - [`build`]: a run put together a turn and a call at a time, for any other source;
//! - [`warn`]: what a reviewer wants marked, and how a scenario's are found;
//! - [`playback`]: the cursor over the run's time;
//! - [`knobs`], [`rerun`]: changing a scenario run's scenario and running it again.

pub mod build;
pub(crate) mod index;
pub mod knobs;
pub mod playback;
pub mod rerun;
pub mod run;
pub mod scenario;
pub mod warn;

pub use build::{CallSpec, ResultSpec, RunBuilder, TurnSpec};
pub use run::{Clock, Run, Validation};
pub use scenario::{ScenarioRun, ScenarioSource};

/// Anything the player can play: it builds a run.
pub trait RunSource {
    /// What the run is called, for messages (a scenario's name, a file's).
    fn name(&self) -> String;
    /// Make the run (run the orchestrator, read the record).
    fn build(&self) -> Result<Run, ReplayError>;
}

/// Where a run came from, and what that offers besides playing it.
#[derive(Debug, Clone)]
pub enum Origin {
    /// A scenario run by the orchestrator: the knobs change it and run it again, and its
    /// trace can be written as a Chrome trace.
    Scenario(Box<ScenarioRun>),
    /// Anything else (a recorded conversation): played as it is.
    Fixed,
}

impl Origin {
    /// The scenario and trace behind a scenario run.
    pub fn scenario(&self) -> Option<&ScenarioRun> {
        match self {
            Origin::Scenario(s) => Some(s),
            Origin::Fixed => None,
        }
    }
}

/// Why a source could not make its run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The record could not be read or does not hold a run (its name and what is wrong).
    #[error("{source_name}: {message}")]
    Unreadable {
        source_name: String,
        message: String,
    },
}
