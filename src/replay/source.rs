//! What a run source is: anything that builds a [`Run`].

use super::run::Run;

/// Anything the player can play: it builds a run.
pub trait RunSource {
    /// What the run is called, for messages (a scenario's name, a file's).
    fn name(&self) -> String;
    /// Make the run (run the orchestrator, read the record).
    fn build(&self) -> Result<Run, ReplayError>;
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
