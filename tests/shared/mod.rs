//! Where the test data from outside this repository lives: the official JSON Schema Test
//! Suite and the real-world tool declarations, calls and conversations. They sit in a
//! `shared/` folder beside the checkout (`../shared` from the crate root), or wherever
//! `TOOLDOJO_SHARED_DIR` points. They are never copied into the repository.
//!
//! A test that needs them asks [`shared_dir`] and skips (saying so) when the folder is not
//! there, as in a user's own clone. CI sets `TOOLDOJO_REQUIRE_SHARED=1` (`.ci/run`), and then
//! a missing folder fails the test instead of skipping it.

#![allow(dead_code)]

use std::path::PathBuf;

/// The shared data folder, or `None` (with a note on stderr) when it is absent and not required.
/// Panics when `TOOLDOJO_REQUIRE_SHARED=1` and the folder is missing.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("TOOLDOJO_SHARED_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    };
    if dir.join("realworld").is_dir() || dir.join("json-schema-test-suite").is_dir() {
        return Some(dir);
    }
    if std::env::var("TOOLDOJO_REQUIRE_SHARED").as_deref() == Ok("1") {
        panic!(
            "TOOLDOJO_REQUIRE_SHARED=1 but the shared test data is not at {} \
             (set TOOLDOJO_SHARED_DIR)",
            dir.display()
        );
    }
    eprintln!(
        "note: shared test data not found at {}; skipping (set TOOLDOJO_SHARED_DIR)",
        dir.display()
    );
    None
}

/// A folder under the shared data (`"realworld/tools"`, `"json-schema-test-suite"`), or
/// `None` as [`shared_dir`] says. Panics when required and that folder is missing.
pub fn shared(sub: &str) -> Option<PathBuf> {
    let dir = shared_dir()?.join(sub);
    if dir.exists() {
        return Some(dir);
    }
    if std::env::var("TOOLDOJO_REQUIRE_SHARED").as_deref() == Ok("1") {
        panic!("TOOLDOJO_REQUIRE_SHARED=1 but {} is missing", dir.display());
    }
    eprintln!("note: {} not found; skipping", dir.display());
    None
}

/// Every `.json` file under `dir`, at any depth, in path order.
pub fn json_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
