//! The lesson file's shape: title, study time, pages at `## ` headings, prose, and fenced
//! blocks told apart from ordinary code by their info string.

use super::body::{check_options, parse_body};
use super::{Block, BlockKind, Item, KINDS, Lesson, Page};
use crate::content::TextFile;
use crate::error::{UserError, UserResult};

pub(super) fn err(file: &TextFile, line: usize, what: impl std::fmt::Display) -> UserError {
    UserError::new(format!("{}:{line}: {what}", file.display))
}

/// A fence opening: the fence character, its length and the info string.
fn fence_open(line: &str) -> Option<(char, usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let ch = rest.chars().next()?;
    if ch != '`' && ch != '~' {
        return None;
    }
    let n = rest.chars().take_while(|&c| c == ch).count();
    if n < 3 {
        return None;
    }
    let info = rest[n..].trim();
    if ch == '`' && info.contains('`') {
        return None;
    }
    Some((ch, n, info))
}

fn fence_closes(line: &str, ch: char, n: usize) -> bool {
    let t = line.trim();
    let indent = line.len() - line.trim_start_matches(' ').len();
    indent <= 3 && t.len() >= n && t.chars().all(|c| c == ch)
}

/// The study-time header: `*About 10 minutes*` (also `_About 10 minutes_`, `minute`).
fn minutes_header(line: &str) -> Option<u32> {
    let t = line.trim();
    let inner = t
        .strip_prefix('*')
        .and_then(|s| s.strip_suffix('*'))
        .or_else(|| t.strip_prefix('_').and_then(|s| s.strip_suffix('_')))?;
    let rest = inner.trim().strip_prefix("About ")?;
    let (num, unit) = rest.trim().split_once(' ')?;
    if unit.trim() != "minutes" && unit.trim() != "minute" {
        return None;
    }
    num.parse().ok()
}

/// Parse one lesson file. Errors name the file and line.
///
/// Format (see `lessons/README.md`): `# Title` first, `*About N minutes*` before the first
/// page, pages split at `## ` headings, interactive blocks as fenced blocks whose info string
/// starts with a kind from [`KINDS`].
pub fn parse_lesson(file: &TextFile) -> UserResult<Lesson> {
    let name = file.rel.rsplit('/').next().unwrap_or(&file.rel);
    let id = name.strip_suffix(".md").unwrap_or(name).to_owned();
    let lines: Vec<&str> = file.text.lines().collect();

    let mut idx = 0;
    while idx < lines.len() && lines[idx].trim().is_empty() {
        idx += 1;
    }
    let title = match lines.get(idx).and_then(|l| l.strip_prefix("# ")) {
        Some(t) if !t.trim().is_empty() => t.trim().to_owned(),
        _ => {
            return Err(err(
                file,
                idx + 1,
                "a lesson starts with its title: `# Title`",
            ));
        }
    };
    idx += 1;

    let mut minutes = 0;
    let mut pages: Vec<Page> = Vec::new();
    let mut page = Page {
        title: title.clone(),
        items: Vec::new(),
    };
    let mut prose: Vec<&str> = Vec::new();

    fn flush(prose: &mut Vec<&str>, items: &mut Vec<Item>) {
        let text = prose.join("\n");
        let text = text.trim_matches('\n');
        if !text.trim().is_empty() {
            items.push(Item::Markdown(text.to_owned()));
        }
        prose.clear();
    }

    let mut first_page_seen = false;
    while idx < lines.len() {
        let line = lines[idx];
        let lineno = idx + 1;
        if let Some(h) = line.strip_prefix("## ") {
            flush(&mut prose, &mut page.items);
            let done = std::mem::replace(
                &mut page,
                Page {
                    title: h.trim().to_owned(),
                    items: Vec::new(),
                },
            );
            // An intro with nothing in it (title and study time only) is not a page.
            if first_page_seen || !done.items.is_empty() {
                pages.push(done);
            }
            first_page_seen = true;
            idx += 1;
            continue;
        }
        if !first_page_seen {
            if let Some(m) = minutes_header(line) {
                if minutes != 0 {
                    return Err(err(file, lineno, "a second study-time line"));
                }
                if m == 0 {
                    return Err(err(file, lineno, "study time must be at least 1 minute"));
                }
                minutes = m;
                idx += 1;
                continue;
            }
        }
        if let Some((ch, n, info)) = fence_open(line) {
            // Find the closing fence.
            let close = (idx + 1..lines.len()).find(|&j| fence_closes(lines[j], ch, n));
            let Some(close) = close else {
                return Err(err(file, lineno, "code fence is never closed"));
            };
            match classify(file, lineno, info)? {
                None => {
                    prose.extend_from_slice(&lines[idx..=close]);
                }
                Some((kind, options)) => {
                    flush(&mut prose, &mut page.items);
                    let body_lines = &lines[idx + 1..close];
                    let body = body_lines.join("\n");
                    check_options(file, lineno, &kind, &options)?;
                    let spec = parse_body(file, &kind, lineno + 1, body_lines)?;
                    page.items.push(Item::Block(Block {
                        kind,
                        options,
                        body,
                        line: lineno,
                        spec,
                    }));
                }
            }
            idx = close + 1;
            continue;
        }
        prose.push(line);
        idx += 1;
    }
    flush(&mut prose, &mut page.items);
    if first_page_seen || !page.items.is_empty() {
        pages.push(page);
    }
    if pages.is_empty() {
        return Err(err(file, lines.len().max(1), "the lesson has no content"));
    }
    Ok(Lesson {
        id,
        title,
        minutes,
        file: file.display.clone(),
        pages,
    })
}

pub(super) type Options = Vec<(String, String)>;

/// `None` for ordinary code (a language or nothing), the kind and options for a block.
fn classify(file: &TextFile, line: usize, info: &str) -> UserResult<Option<(BlockKind, Options)>> {
    let mut words = info.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let kind = match BlockKind::from_word(first) {
        Some(k) => k,
        None => {
            if first.contains('=') || rest.iter().any(|w| w.contains('=')) {
                let known: Vec<&str> = KINDS.iter().map(|(n, _)| *n).collect();
                return Err(err(
                    file,
                    line,
                    format!("unknown block kind `{first}` (kinds: {})", known.join(", ")),
                ));
            }
            if let Some((near, _)) = KINDS.iter().find(|(n, _)| near_miss(first, n)) {
                return Err(err(
                    file,
                    line,
                    format!("unknown block kind `{first}`: did you mean `{near}`?"),
                ));
            }
            return Ok(None);
        }
    };
    let mut options: Options = Vec::new();
    for w in rest {
        let Some((k, v)) = w.split_once('=') else {
            return Err(err(
                file,
                line,
                format!("malformed option `{w}` in a {first} block: write key=value"),
            ));
        };
        if k.is_empty() || v.is_empty() {
            return Err(err(
                file,
                line,
                format!(
                    "malformed option `{w}` in a {first} block: key and value must not be empty"
                ),
            ));
        }
        if options.iter().any(|(ok, _)| ok == k) {
            return Err(err(file, line, format!("option `{k}` given twice")));
        }
        options.push((k.to_owned(), v.to_owned()));
    }
    Ok(Some((kind, options)))
}

/// A word one edit away from a kind (two for the longer kinds): a typo, not a language.
fn near_miss(word: &str, kind: &str) -> bool {
    let w: Vec<char> = word.to_lowercase().chars().collect();
    let k: Vec<char> = kind.chars().collect();
    let limit = if k.len() >= 7 { 2 } else { 1 };
    if w == k || w.len().abs_diff(k.len()) > limit {
        return w == k; // `Quiz` and `QUIZ` are kinds in the wrong case
    }
    let mut prev: Vec<usize> = (0..=k.len()).collect();
    for (i, wc) in w.iter().enumerate() {
        let mut cur = vec![i + 1; k.len() + 1];
        for (j, kc) in k.iter().enumerate() {
            let cost = usize::from(wc != kc);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[k.len()] <= limit
}
