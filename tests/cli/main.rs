//! Tests that run the built `tooldojo` binary, one module per subcommand.

#[path = "../shared/mod.rs"]
mod shared;
mod support;

mod audit_cli;
mod audit_realworld;
mod audit_review;
mod check_cli;
mod exec_cli;
mod hostile;
mod limits_cli;
mod practice_cli;
mod practice_sandbox;
mod practice_ticks;
mod rehearse_cli;
mod render_cli;
mod tools_cli;
mod trace_cli;
mod user_errors;
mod validate_cli;
