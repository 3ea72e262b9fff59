//! Every tools file under `../shared/realworld/tools/` loaded as `--tools FILE` loads it
//! (read through `tests/shared/mod.rs`): the shape the loader names, the declarations it
//! reads, their names in order, the entries it skips and the duplicate names, each checked
//! against a count made here independently, by the data README's own rules (which folder
//! holds which shape; a Responses entry whose `type` is not `"function"` and an Anthropic
//! entry without `input_schema` are built-in or server tools).
//!
//! ```text
//! cargo test --test core realworld_tools -- --nocapture     # prints the counts
//! ```

use std::collections::HashMap;

use serde_json::Value;

use super::shared;
use tooldojo::tools::{Container, ToolSet, ToolsFormat};

/// What the data README says a file is: its shape, and whether an entry is a function tool.
fn expected_shape(rel: &str) -> (Container, ToolsFormat) {
    let top = rel.split('/').next().unwrap();
    match top {
        "mcp" => (Container::ToolsList, ToolsFormat::Mcp),
        "openai-chat" | "bfcl" => (Container::Array, ToolsFormat::OpenaiChat),
        "openai-responses" => (Container::Array, ToolsFormat::OpenaiResponses),
        "anthropic" => (Container::Array, ToolsFormat::Anthropic),
        other => panic!("{rel}: a folder the data README does not list: {other}"),
    }
}

fn is_function(format: ToolsFormat, entry: &Value) -> bool {
    match format {
        ToolsFormat::OpenaiResponses => entry["type"] == "function",
        ToolsFormat::Anthropic => entry.get("input_schema").is_some(),
        _ => true,
    }
}

fn name_of(format: ToolsFormat, entry: &Value) -> String {
    let holder = if format == ToolsFormat::OpenaiChat {
        &entry["function"]
    } else {
        entry
    };
    holder["name"].as_str().unwrap().to_owned()
}

#[derive(Default)]
struct Totals {
    files: usize,
    declarations: usize,
    honoured: usize,
    skipped: usize,
    duplicates: usize,
    by_format: HashMap<&'static str, usize>,
}

#[test]
fn every_real_tools_file_loads_in_its_shape() {
    let Some(dir) = shared::shared("realworld/tools") else {
        return;
    };
    let mut t = Totals::default();
    for path in shared::json_files(&dir) {
        let rel = path
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let set = ToolSet::read(&path, None).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let (container, format) = expected_shape(&rel);
        assert_eq!(set.shape.container, container, "{rel}");
        assert_eq!(set.shape.format, Some(format), "{rel}");

        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let entries = match &doc {
            Value::Object(m) => m["tools"].as_array().unwrap(),
            other => other.as_array().unwrap(),
        };
        let functions: Vec<&Value> = entries.iter().filter(|e| is_function(format, e)).collect();
        let names: Vec<String> = functions.iter().map(|e| name_of(format, e)).collect();
        let got: Vec<&str> = set.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(got, names, "{rel}: names in file order");
        assert_eq!(set.entries, entries.len(), "{rel}");
        assert_eq!(set.skipped.len(), entries.len() - functions.len(), "{rel}");
        for s in &set.skipped {
            let written = entries[s.entry]["type"].as_str().unwrap();
            assert_eq!(s.kind, written, "{rel}: skipped {}", s.at);
        }
        for (tool, entry) in set.tools.iter().zip(&functions) {
            assert_eq!(&tool.declaration, *entry, "{rel}: {} as written", tool.name);
        }
        let mut seen = HashMap::new();
        let mut dups = 0;
        for n in &names {
            *seen.entry(n.as_str()).or_insert(0) += 1;
            if seen[n.as_str()] > 1 {
                dups += 1;
            }
        }
        assert_eq!(set.duplicates.len(), dups, "{rel}: duplicate names");
        for d in &set.duplicates {
            assert_eq!(set.tools[d.first].name, set.tools[d.again].name);
            assert!(d.first < d.again);
        }
        t.files += 1;
        t.declarations += set.tools.len();
        t.honoured += set.honoured();
        t.skipped += set.skipped.len();
        t.duplicates += set.duplicates.len();
        *t.by_format.entry(format.name()).or_insert(0) += set.tools.len();
    }
    eprintln!(
        "{} files, {} declarations ({:?}), {} honoured, {} skipped, {} duplicate names",
        t.files, t.declarations, t.by_format, t.honoured, t.skipped, t.duplicates
    );
    // The data README's own counts: 23 MCP files (413 tools), 2 + 50 Chat files (30 + 111),
    // BFCL's 3,522, 42 Responses files (68 function tools of 69 with parameters, 59 typed
    // "function"), 10 + 50 Anthropic files (23 + 95, of which 84 declare input_schema).
    assert_eq!(t.files, 23 + 2 + 50 + 1 + 42 + 10 + 50);
    assert_eq!(t.by_format["mcp"], 413);
    assert_eq!(t.by_format["openai-chat"], 30 + 111 + 3522);
    assert_eq!(t.by_format["openai-responses"], 59);
    assert_eq!(t.by_format["anthropic"], 23 + 84);
    // BFCL: 2,038 distinct names among 3,522 declarations.
    assert!(t.duplicates >= 3522 - 2038, "{}", t.duplicates);
    assert!(
        t.honoured * 1000 >= t.declarations * 995,
        "{} of {}",
        t.honoured,
        t.declarations
    );
}
