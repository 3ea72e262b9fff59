//! tooldojo: a terminal dojo that teaches one skill of agent engineering:
//! never trust a tool call that a language model proposes.
//!
//! The core (`validate`, `executor`, `orchestrator`, `content`) knows nothing of
//! screens or flags; `check` runs the shipped fixtures, scenarios and lessons through it,
//! `tui` draws it and `cli` wires them all to the command line. `tests/core/architecture.rs`
//! holds the import arrows between these modules.

pub mod audit;
pub mod check;
pub mod cli;
pub mod content;
pub mod course;
pub mod error;
pub mod executor;
pub mod input;
pub mod json_text;
pub mod orchestrator;
pub mod practice;
pub mod replay;
pub mod safe_file;
pub mod sanitize;
pub mod switches;
pub mod text;
pub mod tools;
pub mod tui;
pub mod validate;
pub mod watch;
