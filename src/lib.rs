//! tooldojo: a terminal dojo that teaches one skill of agent engineering:
//! never trust a tool call that a language model proposes.
//!
//! The core (`validate`, `executor`, `orchestrator`, `content`) knows nothing of
//! screens or flags; `tui` draws it and `cli` wires both to the command line.

pub mod cli;
pub mod content;
pub mod error;
pub mod executor;
pub mod orchestrator;
pub mod sanitize;
pub mod switches;
pub mod text;
pub mod tui;
pub mod validate;
