//! Numbers a lesson states about the real declarations under `../shared/realworld/` hold for
//! that data (read through `tests/shared/mod.rs`; skipped when it is absent). A lesson that
//! says how many MCP declarations leave their objects open is checked against a count made
//! here, so the sentence cannot drift from the data.

use std::path::Path;

use regex::Regex;

use super::shared;
use tooldojo::tools::ToolSet;

fn lesson(id: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("lessons/{id}.md"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_open_object_count_of_real_mcp_declarations_is_the_lessons() {
    let Some(dir) = shared::shared("realworld/tools/mcp") else {
        return;
    };
    let (mut all, mut open) = (0, 0);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for path in files {
        let set = ToolSet::read(&path, None).unwrap_or_else(|e| panic!("{e}"));
        for tool in &set.tools {
            all += 1;
            let closed = tool
                .schema()
                .and_then(|s| s.get("additionalProperties"))
                .is_some_and(|v| v == &serde_json::Value::Bool(false));
            if !closed {
                open += 1;
            }
        }
    }
    let text = lesson("14-real-declarations")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let said = Regex::new(r"of the ([0-9,]+) MCP tool declarations in tooldojo's test data, ([0-9,]+) leave their top-level object open")
        .unwrap();
    let c = said
        .captures(&text)
        .expect("lesson 14 states the count of open MCP declarations");
    let number = |i: usize| c[i].replace(',', "").parse::<usize>().unwrap();
    assert_eq!(
        (number(1), number(2)),
        (all, open),
        "MCP declarations, and the open ones"
    );
}
