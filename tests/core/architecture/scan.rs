//! Reading Rust source as tokens for the house checks: comments and the insides of literals
//! blanked out, then identifiers, `::` and single punctuation characters.

/// The source with comments and the insides of string and char literals blanked out, so a
/// path named in a doc comment or a message is not taken for a use.
pub(crate) fn code_only(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i = skip_block_comment(&chars, i);
            out.push(' ');
        } else if c == 'r'
            && matches!(next, Some('"' | '#'))
            && !ident_char(chars.get(i.wrapping_sub(1)))
        {
            i = skip_raw_string(&chars, i);
            out.push_str("\"\"");
        } else if c == '"' {
            i = skip_string(&chars, i);
            out.push_str("\"\"");
        } else if c == '\'' {
            i = skip_char_or_lifetime(&chars, i, &mut out);
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_char(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

fn skip_block_comment(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                break;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// `i` is at the `r` of `r"..."` or `r#"..."#`; returns the index after the literal.
fn skip_raw_string(chars: &[char], mut i: usize) -> usize {
    i += 1;
    let mut hashes = 0;
    while chars.get(i) == Some(&'#') {
        hashes += 1;
        i += 1;
    }
    if chars.get(i) != Some(&'"') {
        return i; // `r#ident`, a raw identifier
    }
    i += 1;
    while i < chars.len() {
        if chars[i] == '"' && (1..=hashes).all(|h| chars.get(i + h) == Some(&'#')) {
            return i + 1 + hashes;
        }
        i += 1;
    }
    i
}

/// `i` is at an opening `"`; returns the index after the closing one.
fn skip_string(chars: &[char], mut i: usize) -> usize {
    i += 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// `i` is at a `'`: a char literal (`'x'`, `'\n'`, `'\''`) is skipped, a lifetime is kept.
fn skip_char_or_lifetime(chars: &[char], i: usize, out: &mut String) -> usize {
    if chars.get(i + 1) == Some(&'\\') {
        let mut j = i + 2;
        while j < chars.len() && !(chars[j] == '\'' && j > i + 2) {
            j += 1;
        }
        out.push_str("' '");
        return j + 1;
    }
    if chars.get(i + 2) == Some(&'\'') {
        out.push_str("' '");
        return i + 3;
    }
    out.push('\'');
    i + 1
}

/// Identifiers, `::` and single punctuation characters.
pub(crate) fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".to_owned());
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
            i += 1;
        }
    }
    out
}

/// The part of a file before its unit tests (its first top-level `#[cfg(test)]`).
pub(crate) fn product_part(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The module paths (from the crate root, without `crate`) a file of module `module`
/// refers to: `crate::`, `super::` and `self::` paths, paths that start with a child module
/// of the file (`is_module` says which paths are modules), and every leaf of a grouped
/// `use a::{b, c::{d, e}}`. Inline `mod x { ... }` blocks are followed, so `super` inside one
/// climbs from it.
pub(crate) fn module_uses(
    text: &str,
    module: &[String],
    is_module: &dyn Fn(&[String]) -> bool,
) -> Vec<Vec<String>> {
    let toks = tokens(&code_only(text));
    let mut here: Vec<String> = module.to_vec();
    // Brace depths at which inline `mod name {` blocks were opened.
    let mut inline: Vec<usize> = Vec::new();
    let mut braces = 0;
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].as_str();
        let after_sep = i > 0 && (toks[i - 1] == "::" || toks[i - 1] == "$");
        let starts_path = toks.get(i + 1).is_some_and(|n| n == "::") && !after_sep;
        match t {
            "{" => {
                if i >= 2 && toks[i - 2] == "mod" {
                    inline.push(braces);
                    here.push(toks[i - 1].clone());
                }
                braces += 1;
            }
            "}" => {
                braces -= 1;
                if inline.last() == Some(&braces) {
                    inline.pop();
                    here.pop();
                }
            }
            "crate" | "super" | "self" if starts_path => {
                let mut base = here.clone();
                let mut j = i;
                match t {
                    "crate" => {
                        base.clear();
                        j += 2;
                    }
                    "self" => j += 2,
                    _ => {
                        while toks.get(j).is_some_and(|s| s == "super")
                            && toks.get(j + 1).is_some_and(|s| s == "::")
                        {
                            base.pop();
                            j += 2;
                        }
                    }
                }
                i = tree(&toks, j, base, &mut out);
                continue;
            }
            word if starts_path && ident(word) && {
                let mut child = here.clone();
                child.push(word.to_owned());
                is_module(&child)
            } =>
            {
                i = tree(&toks, i, here.clone(), &mut out);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Read the path (or `use` tree) at `toks[at]` under `prefix` into `out`; returns the index
/// after it.
fn tree(
    toks: &[String],
    mut at: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    loop {
        match toks.get(at).map(String::as_str) {
            Some("{") => {
                at += 1;
                loop {
                    match toks.get(at).map(String::as_str) {
                        None => return at,
                        Some("}") => return at + 1,
                        Some(",") => at += 1,
                        Some("self") => {
                            out.push(prefix.clone());
                            at += 1;
                        }
                        // `*`, `as alias` and the like add nothing; always move on.
                        Some(_) => at = tree(toks, at, prefix.clone(), out).max(at + 1),
                    }
                }
            }
            Some(word) if ident(word) && word != "as" => {
                prefix.push(word.to_owned());
                at += 1;
                if toks.get(at).is_some_and(|t| t == "::") {
                    at += 1;
                    continue;
                }
                out.push(prefix);
                return at;
            }
            _ => {
                out.push(prefix);
                return at;
            }
        }
    }
}

/// The items a file of module `module` re-exports (`pub use ...;`, `pub(crate) use ...;`),
/// each as the path it names from the crate root; names from other crates are left out.
pub(crate) fn reexports(
    text: &str,
    module: &[String],
    is_module: &dyn Fn(&[String]) -> bool,
) -> Vec<Vec<String>> {
    let toks = tokens(&code_only(text));
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] != "pub" {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        if toks.get(j).is_some_and(|t| t == "(") {
            while toks.get(j).is_some_and(|t| t != ")") {
                j += 1;
            }
            j += 1;
        }
        if toks.get(j).is_none_or(|t| t != "use") {
            i += 1;
            continue;
        }
        j += 1;
        // The statement's text, rooted where its first segment says.
        let end = (j..toks.len())
            .find(|&k| toks[k] == ";")
            .unwrap_or(toks.len());
        let stmt: Vec<String> = toks[j..end].to_vec();
        let mut leaves = Vec::new();
        match stmt.first().map(String::as_str) {
            Some("crate") if stmt.get(1).is_some_and(|t| t == "::") => {
                tree(&stmt, 2, Vec::new(), &mut leaves);
            }
            Some("super") | Some("self") => {
                let mut base = module.to_vec();
                let mut k = 0;
                while stmt.get(k).is_some_and(|s| s == "super") {
                    base.pop();
                    k += 2;
                }
                if stmt.get(k).is_some_and(|s| s == "self") {
                    k += 2;
                }
                tree(&stmt, k, base, &mut leaves);
            }
            Some(first) => {
                let mut child = module.to_vec();
                child.push(first.to_owned());
                if is_module(&child) {
                    tree(&stmt, 0, module.to_vec(), &mut leaves);
                }
            }
            None => {}
        }
        out.extend(leaves);
        i = end;
    }
    out
}
