//! `tooldojo check`'s rows: every fixture row, scenario and lesson run through the real code
//! (the validator, the executor, the orchestrator and the lesson lint), each compared with
//! what its fixture expects. Printing and exit codes are the command line's job.

pub mod lint;
pub mod prose;
pub mod rows;

use crate::content::Content;
use crate::error::UserResult;

/// One row of `tooldojo check`: a fixture, scenario or lesson checked against the real code.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CheckRow {
    /// Which table the row belongs to: `validator`, `get_ticket`, `wire`, `tickets`, `scenario`, `lessons`.
    pub suite: String,
    /// The row's name, unique within its suite.
    pub name: String,
    pub expected: serde_json::Value,
    pub actual: serde_json::Value,
    pub pass: bool,
}

/// Every row `check` runs, in order: validator, get_ticket, wire, tickets (one ticket
/// world), scenarios, lessons.
/// `commands` are the binary's subcommand names, which lessons may name in prose.
pub(crate) fn all_rows(content: &Content, commands: &[String]) -> UserResult<Vec<CheckRow>> {
    let mut rows = rows::validator_rows(content)?;
    rows.extend(rows::get_ticket_rows(content)?);
    rows.extend(rows::wire_rows(content)?);
    rows.extend(rows::ticket_rows(content)?);
    rows.extend(rows::scenario_rows(content)?);
    rows.extend(lint::lint(content, commands)?);
    Ok(rows)
}
