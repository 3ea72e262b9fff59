//! The house rules, checked over the source so they stay true: a file does one job and stays
//! at most [`MAX_FILE_LINES`] lines (its unit tests aside), a function fits on a screen or two
//! (at most [`MAX_FN_LINES`] lines), and the code speaks of the product only (no notes on who
//! owns a module, no pointers to documents outside the repository).

use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 700;
const MAX_FN_LINES: usize = 120;

fn src_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src dir") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn rel(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Unit-test files (`tests.rs`, or anything under a `tests/` folder of `src/`) do not count.
fn is_test_file(path: &Path) -> bool {
    path.file_stem().is_some_and(|s| s == "tests")
        || path.components().any(|c| c.as_os_str() == "tests")
            && path.starts_with(Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// The lines of a file before its first top-level `#[cfg(test)]` (the unit tests at the end).
fn product_lines(text: &str) -> Vec<&str> {
    text.lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .collect()
}

/// Removes string and character literals and comments from one line, so braces inside them
/// are not counted. Good enough for this code base: block comments are not used for code.
fn strip_line(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        if in_str {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '/' if chars.peek() == Some(&'/') => break,
            '\'' => {
                // A char literal such as '{' or '\n'; a lifetime ('a) has no closing quote soon.
                let rest: String = chars.clone().take(3).collect();
                if let Some(end) = rest.find('\'') {
                    for _ in 0..=end {
                        chars.next();
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// Whether a line starts a function item (not a `fn` pointer type or a closure).
fn fn_name(line: &str) -> Option<String> {
    let mut rest = line.trim_start();
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
        "extern \"C\" ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let rest = rest.strip_prefix("fn ")?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Every function of the text with its first line number and its length in lines.
fn functions(lines: &[&str]) -> Vec<(String, usize, usize)> {
    let stripped: Vec<String> = lines.iter().map(|l| strip_line(l)).collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let mut depth = 0i64;
        let mut opened = false;
        for (offset, s) in stripped[start..].iter().enumerate() {
            for c in s.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    ';' if !opened && depth == 0 => break,
                    _ => {}
                }
            }
            if !opened && s.contains(';') && depth == 0 {
                break; // a declaration without a body (trait method)
            }
            if opened && depth <= 0 {
                found.push((name.clone(), start + 1, offset + 1));
                break;
            }
        }
    }
    found
}

#[test]
fn files_and_functions_stay_small() {
    let mut problems = Vec::new();
    for path in src_files() {
        let text = std::fs::read_to_string(&path).expect("read source");
        let lines = product_lines(&text);
        if !is_test_file(&path) && lines.len() > MAX_FILE_LINES {
            problems.push(format!(
                "{}: {} lines (at most {MAX_FILE_LINES} outside its tests): split it by job",
                rel(&path),
                lines.len()
            ));
        }
        for (name, line, len) in functions(&lines) {
            if len > MAX_FN_LINES {
                problems.push(format!(
                    "{}:{line}: fn {name} is {len} lines (at most {MAX_FN_LINES})",
                    rel(&path)
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn code_speaks_of_the_product_only() {
    // Spelled in pieces so this file does not itself contain what it looks for.
    let banned = [
        concat!("OWN", "ER:"),
        concat!("do not ", "rename"),
        concat!("CONTRACT", ".md"),
        concat!("../sha", "red"),
        concat!("seeds", "/"),
    ];
    let mut problems = Vec::new();
    for path in src_files() {
        let text = std::fs::read_to_string(&path).expect("read source");
        for (i, line) in text.lines().enumerate() {
            if let Some(word) = banned.iter().find(|b| line.contains(*b)) {
                problems.push(format!("{}:{}: `{word}`", rel(&path), i + 1));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_function_counter_sees_bodies_and_skips_declarations() {
    let text = "fn a() {\n    let s = \"}\";\n    if x { y }\n}\ntrait T {\n    fn b(&self);\n}\npub(crate) fn c() -> u8 { 1 }\n";
    let lines: Vec<&str> = text.lines().collect();
    let found = functions(&lines);
    assert_eq!(
        found,
        vec![("a".to_string(), 1, 4), ("c".to_string(), 8, 1)]
    );
}

/// The share of `src/`'s lines (every `.rs` file, tests and all) that `src/tui/` may hold:
/// the screens stay thinner than the core they draw.
const MAX_TUI_SHARE: f64 = 0.5;

/// Lines of the files under `dir`, and of all of `src/`.
fn line_share(files: &[PathBuf], dir: &Path) -> (usize, usize) {
    let mut part = 0;
    let mut all = 0;
    for path in files {
        let n = std::fs::read_to_string(path)
            .expect("read source")
            .lines()
            .count();
        all += n;
        if path.starts_with(dir) {
            part += n;
        }
    }
    (part, all)
}

/// The complaint when `part` of `all` lines is too large a share.
fn share_problem(part: usize, all: usize) -> Option<String> {
    let share = part as f64 / all.max(1) as f64;
    (share >= MAX_TUI_SHARE).then(|| {
        format!(
            "src/tui/ holds {part} of src/'s {all} lines ({:.0}%, at most {:.0}%): move what knows no terminal into the core",
            share * 100.0,
            MAX_TUI_SHARE * 100.0
        )
    })
}

#[test]
fn the_screens_hold_less_than_half_of_the_code() {
    let tui = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join("tui");
    let (part, all) = line_share(&src_files(), &tui);
    if let Some(problem) = share_problem(part, all) {
        panic!("{problem}");
    }
}

#[test]
fn the_share_is_counted_per_folder_and_a_planted_excess_is_caught() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = [root.join("lib.rs"), root.join("tui/mod.rs")];
    let (part, all) = line_share(&files, &root.join("tui"));
    let lines = |p: &str| {
        std::fs::read_to_string(root.join(p))
            .unwrap()
            .lines()
            .count()
    };
    assert_eq!(
        (part, all),
        (lines("tui/mod.rs"), lines("tui/mod.rs") + lines("lib.rs"))
    );
    assert!(share_problem(49, 100).is_none());
    let planted = share_problem(22_708, 40_220).expect("59% is over the limit");
    assert!(planted.contains("(56%, at most 50%)"), "{planted}");
}
