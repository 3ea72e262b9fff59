//! A run as the trace player plays it, whatever made it. A source builds a [`Run`]: its
//! lanes (model turns and tool calls, in order), segments, results, events, warnings and,
//! when it had them, budgets, with the indexes that keep a frame's cost to what is on screen.
//! The player draws a `Run` and nothing else, so a new source plugs in without touching the
//! drawing.
//!
//! - [`run`]: the `Run` and its queries at a time T; [`lanes`]: its turns and calls and
//!   their state at T; [`index`]: the lookups built with it;
//! - [`source`]: what a run source is;
//! - [`scenario`]: today's source, a scenario run by the orchestrator ([`ScenarioSource`]);
//! - [`build`]: a run put together a turn and a call at a time, for any other source;
//! - [`warn`]: what a reviewer wants marked, and how a scenario's are found;
//! - [`playback`]: the cursor over the run's time;
//! - [`knobs`], [`rerun`]: changing a scenario run's scenario and running it again.

pub mod build;
pub(crate) mod index;
pub mod knobs;
pub mod lanes;
pub mod playback;
pub mod rerun;
pub mod run;
pub mod scenario;
pub mod source;
pub mod warn;

/// What came back for a call, in the words a run uses (a source builds its results with it).
pub use crate::orchestrator::Category;
pub use build::{CallSpec, ResultSpec, RunBuilder, TurnSpec};
pub use run::{Clock, Origin, Run, ScenarioRun, Validation};
pub use scenario::ScenarioSource;
pub use source::{ReplayError, RunSource};
