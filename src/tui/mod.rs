//! The terminal app. `App` owns all UI state; keys become actions; drawing reads `&App`.
//!
//! OWNER: TUI helper (frame, loop, reader, progress, render); `blocks/` belongs to the
//! blocks helper.

pub mod blocks;
pub mod theme;

use std::process::ExitCode;

use crate::cli::{ContentArgs, TuiArgs};

/// Run the interactive app until the learner quits.
pub fn run_app(args: TuiArgs, content: &ContentArgs) -> color_eyre::Result<ExitCode> {
    let _ = (args, content);
    Err(crate::error::UserError::new("the app is not built yet").into())
}
