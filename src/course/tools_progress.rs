//! Progress on your own tools, kept beside the course's in the same progress file: per
//! tools file, by the SHA-256 of its text (an edited file is a new file, so predictions
//! made on the old schema are never shown against the new one), the predict table of
//! each declaration and which ones were tried in the playground and the player.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One tools file's progress.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolsProgress {
    /// The file's name when last opened (for people reading the progress file).
    #[serde(default)]
    pub file: String,
    /// The saved predict table of each declaration, keyed by its place in the file and name
    /// (`tools[0] search_issues`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub predict: BTreeMap<String, Value>,
    /// Declarations whose playground had a rule switched or arguments edited.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub played: BTreeSet<String>,
    /// Declarations whose generated scenario was opened in the trace player.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub traced: BTreeSet<String>,
}

/// The key a declaration's progress is kept under.
pub fn tool_key(at: &str, name: &str) -> String {
    if at.is_empty() {
        name.to_owned()
    } else {
        format!("{at} {name}")
    }
}
