//! The lesson file's shape: title, study time, pages at `## ` headings, prose, and fenced
//! blocks told apart from ordinary code by their info string.

use super::kind::{BlockKind, KINDS, check_options, parse_body};
use super::{Block, Item, Lesson, Options, Page, err};
use crate::content::TextFile;
use crate::error::UserResult;

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
    let (title, body_start) = title_line(file, &lines)?;
    let mut reader = Reader {
        file,
        lines: &lines,
        minutes: 0,
        pages: Vec::new(),
        page: Page {
            title: title.clone(),
            items: Vec::new(),
        },
        prose: Vec::new(),
        first_page_seen: false,
    };
    let mut idx = body_start;
    while idx < lines.len() {
        idx = reader.line(idx)?;
    }
    let (minutes, pages) = reader.finish()?;
    Ok(Lesson {
        id,
        title,
        minutes,
        file: file.display.clone(),
        pages,
    })
}

/// The `# Title` line (after any blank lines): the title and the index of the next line.
fn title_line(file: &TextFile, lines: &[&str]) -> UserResult<(String, usize)> {
    let idx = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(lines.len());
    match lines.get(idx).and_then(|l| l.strip_prefix("# ")) {
        Some(t) if !t.trim().is_empty() => Ok((t.trim().to_owned(), idx + 1)),
        _ => Err(err(
            file,
            idx + 1,
            "a lesson starts with its title: `# Title`",
        )),
    }
}

/// The state of a lesson read line by line, after its title.
struct Reader<'a> {
    file: &'a TextFile,
    lines: &'a [&'a str],
    minutes: u32,
    pages: Vec<Page>,
    /// The page being filled.
    page: Page,
    /// Prose lines not yet turned into a Markdown item.
    prose: Vec<&'a str>,
    /// Has a `## ` heading been read? Before it, the page is the lesson's intro.
    first_page_seen: bool,
}

impl<'a> Reader<'a> {
    /// Read the line at `idx` (and, for a fence, the lines up to its close); returns the
    /// index of the next unread line.
    fn line(&mut self, idx: usize) -> UserResult<usize> {
        let line = self.lines[idx];
        if let Some(h) = line.strip_prefix("## ") {
            self.heading(h);
            return Ok(idx + 1);
        }
        if !self.first_page_seen {
            if let Some(m) = minutes_header(line) {
                self.study_time(idx + 1, m)?;
                return Ok(idx + 1);
            }
        }
        if let Some((ch, n, info)) = fence_open(line) {
            return self.fence(idx, ch, n, info);
        }
        self.prose.push(line);
        Ok(idx + 1)
    }

    fn flush(&mut self) {
        let text = self.prose.join("\n");
        let text = text.trim_matches('\n');
        if !text.trim().is_empty() {
            self.page.items.push(Item::Markdown(text.to_owned()));
        }
        self.prose.clear();
    }

    /// A `## ` heading closes the page being filled and starts the next.
    fn heading(&mut self, h: &str) {
        self.flush();
        let done = std::mem::replace(
            &mut self.page,
            Page {
                title: h.trim().to_owned(),
                items: Vec::new(),
            },
        );
        // An intro with nothing in it (title and study time only) is not a page.
        if self.first_page_seen || !done.items.is_empty() {
            self.pages.push(done);
        }
        self.first_page_seen = true;
    }

    fn study_time(&mut self, lineno: usize, m: u32) -> UserResult<()> {
        if self.minutes != 0 {
            return Err(err(self.file, lineno, "a second study-time line"));
        }
        if m == 0 {
            return Err(err(
                self.file,
                lineno,
                "study time must be at least 1 minute",
            ));
        }
        self.minutes = m;
        Ok(())
    }

    /// A fence opened at `idx`: ordinary code stays prose, an interactive kind becomes a
    /// block. Returns the index after the closing fence.
    fn fence(&mut self, idx: usize, ch: char, n: usize, info: &str) -> UserResult<usize> {
        let (file, lines, lineno) = (self.file, self.lines, idx + 1);
        let close = (idx + 1..lines.len()).find(|&j| fence_closes(lines[j], ch, n));
        let Some(close) = close else {
            return Err(err(file, lineno, "code fence is never closed"));
        };
        match classify(file, lineno, info)? {
            None => self.prose.extend_from_slice(&lines[idx..=close]),
            Some((kind, options)) => {
                self.flush();
                let body_lines = &lines[idx + 1..close];
                check_options(file, lineno, &kind, &options)?;
                let spec = parse_body(file, &kind, lineno + 1, body_lines)?;
                self.page.items.push(Item::Block(Block {
                    kind,
                    options,
                    body: body_lines.join("\n"),
                    line: lineno,
                    spec,
                }));
            }
        }
        Ok(close + 1)
    }

    /// The study time and the pages, once every line is read.
    fn finish(mut self) -> UserResult<(u32, Vec<Page>)> {
        self.flush();
        if self.first_page_seen || !self.page.items.is_empty() {
            self.pages.push(self.page);
        }
        if self.pages.is_empty() {
            return Err(err(
                self.file,
                self.lines.len().max(1),
                "the lesson has no content",
            ));
        }
        Ok((self.minutes, self.pages))
    }
}

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
