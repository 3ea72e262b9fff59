//! Errors that are the user's to fix (bad flags, a malformed file): the CLI prints
//! them on one line, without a backtrace, and exits with code 2.
use std::fmt;

/// A problem with the user's input: a file that does not parse, a flag that makes no sense.
/// `message` should already name the file and, where known, the line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserError {
    pub message: String,
}

impl UserError {
    /// The message is cleaned here, once (it quotes the user's own text: a lesson's line, a
    /// file name), so every place that shows it shows it safely.
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self {
            message: crate::sanitize::clean(&message.into(), true),
        }
    }

    /// `file:line:column: what` for a serde_json error found while reading `file`. Columns
    /// count from 1: serde_json says 0 when it stops before the line's first character (a
    /// top-level value of the wrong type, an end of input after a newline), which is column 1.
    pub(crate) fn json(file: &str, err: &serde_json::Error) -> Self {
        Self::new(format!(
            "{file}:{}:{}: {}",
            err.line().max(1),
            err.column().max(1),
            strip_position(&err.to_string())
        ))
    }
}

/// serde_json appends " at line L column C" to its messages; we put the position first instead.
fn strip_position(msg: &str) -> &str {
    match msg.rfind(" at line ") {
        Some(i) => &msg[..i],
        None => msg,
    }
}

impl fmt::Display for UserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UserError {}

impl From<String> for UserError {
    fn from(message: String) -> Self {
        Self::new(message)
    }
}

impl From<&str> for UserError {
    fn from(message: &str) -> Self {
        Self::new(message)
    }
}

/// Shorthand for results whose error is the user's to fix.
pub type UserResult<T> = Result<T, UserError>;
