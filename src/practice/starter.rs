//! Starter files: the signatures and one comment per rule, nothing solved.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Lang;

const PYTHON: &str = r#"# tooldojo practice: fill in one or both functions, then run
#   tooldojo practice THIS_FILE          (add --watch to re-grade on every save)
# Whatever this file defines is graded; delete a function you do not want graded.


def validate_tool_args(schema, required, args):
    """schema maps each allowed name to a Python type (str, int, float, bool, list, dict);
    required is a set of names; args is the dict the model wrote.
    Return (True, "") or (False, "<the first problem>")."""
    # Rule 1: every required name must be in args -> "missing required arg: NAME"
    # Rule 2: every key of args must be in schema -> "unknown arg: NAME"
    # Rule 3: every value must have its declared type -> "type error: NAME expected T, got U"
    # Rule 4: the first failure wins, in the order of the rules above
    # Rule 5: True and False are not ints here, even though Python says they are
    raise NotImplementedError("validate_tool_args")


def execute_tool(name, args, context, records):
    """name and args come from the model; context ({"tenant": str, "canReadTickets": bool})
    comes from the session; records is a dict keyed "tenant:TKT-104".
    Return {"ok": True, "ticket": {...}} or {"ok": False, "code": "..."}."""
    # Rule 1: only get_ticket is registered -> "unknown_tool"
    # Rule 2: args must be a dict with exactly one key, ticket_id -> "invalid_arguments"
    # Rule 3: ticket_id must be a str, "TKT-" and exactly three ASCII digits -> "invalid_arguments"
    # Rule 4: the context must allow reading -> "forbidden"
    # Rule 5: look the ticket up under the context's tenant, never any other -> "not_found"
    # Rule 6: return a new dict with only id, title and status, never the stored one
    # Rule 7: check in this order and stop at the first failure
    raise NotImplementedError("execute_tool")
"#;

const JAVASCRIPT: &str = r#"// tooldojo practice: fill in executeTool, then run
//   tooldojo practice THIS_FILE          (add --watch to re-grade on every save)
// CommonJS as written; an ES module with `export function executeTool` works too.
'use strict';

/**
 * name and args come from the model; context ({tenant, canReadTickets}) comes from the
 * session; records is a Map keyed "tenant:TKT-104".
 * Return {ok: true, ticket: {id, title, status}} or {ok: false, code: "..."}.
 */
function executeTool(name, args, context, records) {
  // Rule 1: only get_ticket is registered -> "unknown_tool"
  // Rule 2: args must be a plain object (not null, not an array) with exactly one key, ticket_id -> "invalid_arguments"
  // Rule 3: ticket_id must be a string, "TKT-" and exactly three ASCII digits -> "invalid_arguments"
  // Rule 4: the context must allow reading -> "forbidden"
  // Rule 5: look the ticket up under the context's tenant, never any other -> "not_found"
  // Rule 6: return a new object with only id, title and status, never the stored one
  // Rule 7: check in this order and stop at the first failure
  throw new Error('executeTool is not written yet');
}

module.exports = { executeTool };
"#;

/// The starter text for `lang`.
pub(crate) fn text(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => PYTHON,
        Lang::Js => JAVASCRIPT,
    }
}

/// The starter's file name.
pub(crate) fn file_name(lang: Lang) -> &'static str {
    match lang {
        Lang::Python => "solution.py",
        Lang::Js => "solution.js",
    }
}

/// Write the starter into `dir`; refuses to replace a file that is already there.
pub(crate) fn write(dir: &Path, lang: Lang) -> Result<PathBuf, String> {
    let path = dir.join(file_name(lang));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => format!(
                "{} already exists; grade it with `tooldojo practice {}`, or choose another --dir",
                path.display(),
                path.display()
            ),
            _ => format!("{}: {e}", path.display()),
        })?;
    file.write_all(text(lang).as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starters_name_every_function_and_solve_nothing() {
        assert!(PYTHON.contains("def validate_tool_args(schema, required, args):"));
        assert!(PYTHON.contains("def execute_tool(name, args, context, records):"));
        assert!(JAVASCRIPT.contains("function executeTool(name, args, context, records)"));
        assert!(!PYTHON.contains("return (True"));
        assert!(!JAVASCRIPT.contains("return {"));
    }

    #[test]
    fn never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), Lang::Python).unwrap();
        assert!(path.ends_with("solution.py"));
        let err = write(dir.path(), Lang::Python).unwrap_err();
        assert!(err.contains("already exists"));
    }
}
