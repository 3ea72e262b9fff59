//! Reading a whole JSON file the user wrote (a scenario, a records file) into a type,
//! with errors in the order a person fixes them: text that is not JSON, then a top level
//! of the wrong kind, then the fields.

use super::{Json, ParseError};
use crate::error::{UserError, UserResult};

/// What a JSON file holds at its top level, in words for its errors.
pub(crate) struct JsonFile {
    /// An object (`true`) or an array (`false`).
    pub(crate) object: bool,
    /// What the file is, said when its top level is of another kind
    /// (`a scenario file is one JSON object ({"title", "context", "turns", ...})`).
    pub(crate) is: &'static str,
}

/// Read `text`, the file `display`, as a `T`, checking in the order a person would: text
/// that is not JSON first (a file that ends early included), worded as the tools loader
/// words it (`FILE:LINE:COL: not JSON: what`); then a top level of the wrong kind
/// (`FILE:LINE:COL: <what the file is>, not an array`); then the fields, where serde finds
/// a problem (`FILE:LINE:COL: what`). A repeated key is left to the fields' reading. A
/// file that reads is read once; only one that does not is read again to word why.
pub(crate) fn parse_json_file<T: serde::de::DeserializeOwned>(
    text: &str,
    display: &str,
    shape: &JsonFile,
) -> UserResult<T> {
    let opens = if shape.object { '{' } else { '[' };
    let first_error = match serde_json::from_str(text) {
        Ok(v) if text.trim_start_matches(WHITESPACE).starts_with(opens) => return Ok(v),
        Ok(_) => None,
        Err(e) => Some(e),
    };
    let top = match super::parse_allowing_duplicates(text) {
        Ok(top) => top,
        Err(ParseError::Syntax { what, line, column }) => {
            return Err(UserError::new(crate::input::not_json(
                display, line, column, &what,
            )));
        }
        Err(ParseError::Duplicate { .. }) => unreachable!("repeated keys are let through"),
    };
    let found = match top {
        Json::Object(_) if shape.object => None,
        Json::Array(_) if !shape.object => None,
        other => Some(super::kind_words(super::kind_of(&other))),
    };
    if let Some(found) = found {
        let (line, column) = start_of_value(text);
        return Err(UserError::new(format!(
            "{display}:{line}:{column}: {}, not {found}",
            shape.is
        )));
    }
    match first_error {
        Some(e) => Err(UserError::json(display, &e)),
        None => serde_json::from_str(text).map_err(|e| UserError::json(display, &e)),
    }
}

/// JSON's whitespace.
const WHITESPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// The line and column (from 1, columns in characters) where the first value of `text`
/// starts, past JSON's whitespace.
fn start_of_value(text: &str) -> (usize, usize) {
    let lead = &text[..text.len() - text.trim_start_matches(WHITESPACE).len()];
    let line = lead.matches('\n').count() + 1;
    let column = lead.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_file_is_checked_for_syntax_then_its_top_level_then_its_fields() {
        #[derive(Debug, serde::Deserialize)]
        struct Thing {
            name: String,
        }
        let shape = JsonFile {
            object: true,
            is: "a thing is one JSON object ({\"name\"})",
        };
        let err = |text: &str| parse_json_file::<Thing>(text, "f.json", &shape).unwrap_err();
        // Cut short inside the first member: serde would call it the wrong type.
        assert_eq!(
            err("[{\"name\": \"a\",").message,
            "f.json:1:15: not JSON: unterminated object, expected a key"
        );
        assert_eq!(
            err("\n  [1, 2]\n").message,
            "f.json:2:3: a thing is one JSON object ({\"name\"}), not an array"
        );
        assert_eq!(
            err("{\"name\": 1}").message,
            "f.json:1:10: invalid type: integer `1`, expected a string"
        );
        let ok: Thing = parse_json_file("{\"name\": \"a\"}", "f", &shape).unwrap();
        assert_eq!(ok.name, "a");
    }
}
