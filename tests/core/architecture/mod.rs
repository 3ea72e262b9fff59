//! The import arrows of the crate, checked over the source: every `.rs` file under `src/`
//! is read, the top-level modules it refers to (`use crate::X`, `crate::X::` paths, grouped
//! `use crate::{X, Y}`, and `super::` chains that climb to the crate root) are collected,
//! and each one must be allowed by [`ARROWS`].

mod cycles;
mod faces;
mod scan;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use scan::{code_only, tokens};

/// Which top-level modules each module may use. `None` means any module.
const ARROWS: &[(&str, Option<&[&str]>)] = &[
    ("cli", None),
    (
        "tui",
        Some(&[
            "course",
            "replay",
            "orchestrator",
            "executor",
            "validate",
            "content",
            "practice",
            "tools",
            "audit",
        ]),
    ),
    ("replay", Some(&["orchestrator"])),
    ("audit", Some(&["tools", "validate", "replay"])),
    ("tools", Some(&["validate"])),
    (
        "course",
        Some(&["content", "validate", "executor", "practice"]),
    ),
    (
        "check",
        Some(&["orchestrator", "course", "executor", "validate", "content"]),
    ),
    ("practice", Some(&["content", "validate", "executor"])),
    ("orchestrator", Some(&["executor", "validate", "content"])),
    ("executor", Some(&["validate", "content"])),
    ("validate", Some(&["content"])),
    ("content", Some(&[])),
];

/// Helpers every module may use; they may use each other and nothing else.
const LEAVES: &[&str] = &[
    "error",
    "input",
    "json_text",
    "safe_file",
    "sanitize",
    "switches",
    "text",
    "watch",
];

/// A source file: its path for messages, its module path and its text.
pub(crate) struct Source {
    pub(crate) display: String,
    pub(crate) module: Vec<String>,
    pub(crate) text: String,
}

/// The module path of a file under `src/` (`cli/check.rs` -> `[cli, check]`), or `None` for
/// the crate roots and the build script, which are no module's code.
fn module_path(rel: &Path) -> Option<Vec<String>> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    if parts.is_empty() && matches!(stem, "lib" | "main" | "build") {
        return None;
    }
    if stem != "mod" {
        parts.push(stem.to_owned());
    }
    Some(parts)
}

pub(crate) fn read_sources(root: &Path) -> Vec<Source> {
    let mut files = Vec::new();
    collect_rs(root, &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(root).expect("under src");
            let module = module_path(rel)?;
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Some(Source {
                display: format!("src/{}", rel.display()),
                module,
                text,
            })
        })
        .collect()
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a file refers to. `depth` is the length of the file's module path:
/// a chain of that many `super`s (or more) climbs to the crate root.
pub(crate) fn references(text: &str, depth: usize) -> BTreeSet<String> {
    let toks = tokens(&code_only(text));
    let mut found = BTreeSet::new();
    // Brace depths at which inline `mod name {` blocks were opened.
    let mut inline_mods: Vec<usize> = Vec::new();
    let mut braces = 0;
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].as_str();
        match t {
            "{" => {
                if i >= 2 && toks[i - 2] == "mod" {
                    inline_mods.push(braces);
                }
                braces += 1;
            }
            "}" => {
                braces -= 1;
                if inline_mods.last() == Some(&braces) {
                    inline_mods.pop();
                }
            }
            "crate" if toks.get(i + 1).is_some_and(|n| n == "::") => {
                let after_dollar = i > 0 && toks[i - 1] == "$";
                if !after_dollar {
                    first_segments(&toks, i + 2, &mut found);
                }
            }
            "super" if i == 0 || toks[i - 1] != "::" => {
                let mut ups = 0;
                let mut j = i;
                while toks.get(j).is_some_and(|s| s == "super")
                    && toks.get(j + 1).is_some_and(|s| s == "::")
                {
                    ups += 1;
                    j += 2;
                }
                if ups > 0 && ups >= depth + inline_mods.len() {
                    first_segments(&toks, j, &mut found);
                }
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// The first segment of the path at `toks[at]`, or of every item of a `{...}` group there.
fn first_segments(toks: &[String], at: usize, found: &mut BTreeSet<String>) {
    let Some(first) = toks.get(at) else { return };
    if first != "{" {
        found.insert(first.clone());
        return;
    }
    let mut level = 0;
    let mut item_start = true;
    for t in &toks[at + 1..] {
        match t.as_str() {
            "{" => level += 1,
            "}" if level == 0 => return,
            "}" => level -= 1,
            "," if level == 0 => item_start = true,
            word if item_start && level == 0 => {
                if word != "self" {
                    found.insert(word.to_owned());
                }
                item_start = false;
            }
            _ => {}
        }
    }
}

/// Every use of a module the arrows do not allow, as one message each.
fn violations(sources: &[Source]) -> Vec<String> {
    let top: BTreeSet<&str> = sources
        .iter()
        .filter_map(|s| s.module.first().map(String::as_str))
        .collect();
    let mut out = Vec::new();
    for s in sources {
        let Some(from) = s.module.first() else {
            continue;
        };
        for to in references(&s.text, s.module.len()) {
            if to == *from || !top.contains(to.as_str()) {
                continue;
            }
            if let Err(allowed) = allowed(from, &to) {
                out.push(format!(
                    "{}: `{from}` uses `crate::{to}`, against the arrows ({from} may use: {allowed})",
                    s.display
                ));
            }
        }
    }
    out
}

/// `Ok` when `from` may use `to`; otherwise what `from` may use, for the message.
fn allowed(from: &str, to: &str) -> Result<(), String> {
    let leaves = LEAVES.join(", ");
    if LEAVES.contains(&from) {
        return if LEAVES.contains(&to) {
            Ok(())
        } else {
            Err(format!("only the helpers {leaves}"))
        };
    }
    let Some((_, targets)) = ARROWS.iter().find(|(m, _)| *m == from) else {
        return Err(format!(
            "nothing yet: `{from}` is not in the arrow table of tests/core/architecture.rs"
        ));
    };
    match targets {
        None => Ok(()),
        Some(list) if list.contains(&to) || LEAVES.contains(&to) => Ok(()),
        Some([]) => Err(format!("only the helpers {leaves}")),
        Some(list) => Err(format!("{} and the helpers {leaves}", list.join(", "))),
    }
}

pub(crate) fn src_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn every_import_follows_the_arrows() {
    let sources = read_sources(&src_root());
    let bad = violations(&sources);
    assert!(
        bad.is_empty(),
        "{} import(s) against the arrows:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_scan_sees_the_arrows_that_exist() {
    // Guards the scanner itself: arrows known to be in the code must be found.
    let sources = read_sources(&src_root());
    let uses = |from: &str| -> BTreeSet<String> {
        sources
            .iter()
            .filter(|s| s.module.first().is_some_and(|m| m == from))
            .flat_map(|s| references(&s.text, s.module.len()))
            .collect()
    };
    assert!(uses("cli").contains("tui"), "cli -> tui not seen");
    assert!(
        uses("executor").contains("validate"),
        "executor -> validate not seen"
    );
    assert!(
        uses("check").contains("orchestrator"),
        "check -> orchestrator not seen"
    );
    assert!(
        uses("content").contains("error"),
        "content -> error not seen"
    );
}

#[test]
fn every_form_of_path_is_read() {
    let text = r#"
        //! Docs may name crate::tui freely.
        use crate::content::Content;
        use crate::{executor::Store, validate::{self, Schema}, self};
        pub(crate) fn f() -> crate::orchestrator::Run { todo!() }
        fn g() { let s = "crate::cli::run"; let c = '"'; let q = '\''; h::<'static>(); }
        /* crate::practice::x /* nested */ crate::text */
        macro_rules! m { () => { $crate::sanitize::clean } }
        use super::super::error::UserError;
        use super::sibling;
        mod tests {
            use super::super::check::CheckRow;
            use super::super::super::text::wrap;
        }
    "#;
    let found = references(text, 2);
    let want: BTreeSet<String> = [
        "content",
        "executor",
        "validate",
        "orchestrator",
        "error",
        "text",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    assert_eq!(found, want);
}

#[test]
fn a_wrong_way_arrow_is_reported_with_its_file() {
    let source = |display: &str, module: &[&str], text: &str| Source {
        display: display.to_owned(),
        module: module.iter().map(|m| m.to_string()).collect(),
        text: text.to_owned(),
    };
    let sources = [
        source(
            "src/content/fixtures.rs",
            &["content", "fixtures"],
            "use crate::executor::{Context, Record};\nuse crate::error::UserError;",
        ),
        source(
            "src/executor/mod.rs",
            &["executor"],
            "use crate::content::Content;",
        ),
        source("src/tui/mod.rs", &["tui"], "use crate::cli::TuiArgs;"),
        source("src/cli/mod.rs", &["cli"], "use crate::tui::run;"),
        source("src/error.rs", &["error"], ""),
        source(
            "src/newcomer/mod.rs",
            &["newcomer"],
            "use crate::error::UserError;",
        ),
    ];
    let bad = violations(&sources);
    assert_eq!(bad.len(), 3, "{bad:#?}");
    assert!(bad[0].starts_with("src/content/fixtures.rs: `content` uses `crate::executor`"));
    assert!(bad[0].contains(
        "content may use: only the helpers error, input, json_text, safe_file, sanitize, switches, text"
    ));
    assert!(bad[1].starts_with("src/tui/mod.rs: `tui` uses `crate::cli`"));
    assert!(bad[2].contains("`newcomer` is not in the arrow table"));
}
