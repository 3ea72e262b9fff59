//! Your own tools: a tools file in any shape real stacks write, each declaration compiled by
//! the validator, and what a model could slip through each one.
//!
//! ```
//! use tooldojo::tools::{ToolSet, ToolsFormat};
//! let file = serde_json::json!({"tools": [
//!     {"name": "get_issue", "description": "Read one issue.",
//!      "inputSchema": {"type": "object", "properties": {"number": {"type": "integer"}},
//!                      "required": ["number"]}},
//!     {"name": "get_issue", "inputSchema": {"type": "object"}}
//! ]});
//! let set = ToolSet::from_value(&file, None).unwrap();
//! assert_eq!(set.shape.format, Some(ToolsFormat::Mcp));
//! assert_eq!(set.tools.len(), 2);
//! assert_eq!(set.duplicates.len(), 1);
//! let tool = set.get("get_issue").unwrap();
//! assert!(tool.validator().unwrap().validate(&serde_json::json!({"number": 7})).is_ok());
//! ```
//!
//! - [`load`]: the file level: which container holds the entries (an MCP `tools/list`
//!   result or its JSON-RPC response, a provider's `tools` array, a recorded request body,
//!   one declaration), which provider's shape they are in, entries that are not function
//!   tools (skipped, with their type), duplicate names. Each declaration is compiled by the
//!   validator in that shape ([`crate::validate::Options`]); one it cannot honour keeps its
//!   reason.

pub mod example;
pub mod hygiene;
pub mod load;
pub mod outline;
pub mod report;
pub mod scenario;
pub mod schema;
pub mod strict;
pub mod traps;

/// A tools file opened for the app: its name for titles and the declarations read from it.
#[derive(Debug, Clone)]
pub struct ToolsFile {
    pub name: String,
    pub set: std::sync::Arc<ToolSet>,
}

impl ToolsFile {
    /// Read `path` as `tooldojo --tools` does.
    pub fn read(
        path: &std::path::Path,
        format: Option<ToolsFormat>,
    ) -> Result<ToolsFile, LoadError> {
        let set = ToolSet::read(path, format)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Ok(ToolsFile {
            name,
            set: std::sync::Arc::new(set),
        })
    }
}

pub use load::{
    Container, Duplicate, LoadError, MixedShapes, Shape, Skipped, Tool, ToolSet, ToolsFormat,
    content_hash,
};
