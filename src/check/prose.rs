//! The prose half of the lesson lint: what a lesson names in its text must exist.
//!
//! - a `tooldojo WORD` command written as code (in backticks or a code block) names a real
//!   subcommand (the caller passes the names, read from the command-line definition);
//! - a lesson id (`NN-word-word`, or any `NN-word` in backticks) is a shipped lesson, and
//!   "lesson N" is a lesson's number;
//! - a scenario named in prose (the argument of `tooldojo trace NAME` or `tooldojo play NAME`,
//!   or a backticked name next to the word "scenario") is a shipped scenario;
//! - "page N" (or "lesson N, page M") exists, "the next page" and "the previous page" exist
//!   from where they are written, "the last page" is not merely the recap, and a page title
//!   quoted beside a reference (`the page "Title"`, `page 3 ("Title")`) is that page's title;
//! - a backticked event name is one the trace can emit. A backticked snake_case word counts
//!   as an event name when the word "event" or "line" stands next to it, or when it begins
//!   and ends like the trace's own event names (`call_...`, `..._started`).

use std::sync::OnceLock;

use regex::Regex;

use crate::content::lessons::{Item, Lesson};

/// What the prose may refer to.
#[derive(Debug, Clone, Default)]
pub struct Known {
    /// Subcommand names of the binary.
    pub commands: Vec<String>,
    /// Lesson ids, in course order.
    pub lessons: Vec<String>,
    pub scenarios: Vec<String>,
    /// Every event name the trace can emit.
    pub events: Vec<String>,
}

/// One page's text: prose (with its backticks) and the code written in it.
struct PageText {
    /// Everything on the page: Markdown and the bodies of its blocks.
    all: String,
    /// Inline code spans and the lines of ordinary code blocks.
    code: Vec<String>,
}

fn page_text(items: &[Item]) -> PageText {
    let mut all = String::new();
    let mut code = Vec::new();
    for item in items {
        let text = match item {
            Item::Markdown(s) => s.as_str(),
            Item::Block(b) => b.body.as_str(),
        };
        all.push_str(text);
        all.push('\n');
        let mut fenced = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
            } else if fenced {
                code.push(line.to_owned());
            } else {
                code.extend(spans(line).map(str::to_owned));
            }
        }
    }
    PageText { all, code }
}

/// The inline code spans of one line.
fn spans(line: &str) -> impl Iterator<Item = &str> {
    line.split('`').skip(1).step_by(2)
}

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("a valid built-in pattern"))
}

/// Every problem in one lesson's prose, each as one line naming its page.
pub fn problems(lesson: &Lesson, known: &Known) -> Vec<String> {
    let mut out = Vec::new();
    for (i, page) in lesson.pages.iter().enumerate() {
        let text = page_text(&page.items);
        let mut found = Vec::new();
        commands(&text, known, &mut found);
        lesson_ids(&text, known, &mut found);
        scenarios(&text, known, &mut found);
        pages(&text, lesson, i, known, &mut found);
        events(&text, known, &mut found);
        let title = if page.title.is_empty() {
            "the introduction".to_owned()
        } else {
            format!("page {} \"{}\"", i + 1, page.title)
        };
        out.extend(found.into_iter().map(|p| format!("{title}: {p}")));
    }
    out
}

/// `tooldojo WORD` in code: WORD is a subcommand (a flag or a path is not a command).
fn commands(text: &PageText, known: &Known, out: &mut Vec<String>) {
    static CMD: OnceLock<Regex> = OnceLock::new();
    let cmd = re(&CMD, r"\btooldojo\s+([a-z][a-z0-9-]*)");
    for code in &text.code {
        for c in cmd.captures_iter(code) {
            let word = &c[1];
            if !known.commands.iter().any(|k| k == word) {
                out.push(format!(
                    "`tooldojo {word}` is not a command (commands: {})",
                    known.commands.join(", ")
                ));
            }
        }
    }
}

/// Lesson ids and "lesson N".
fn lesson_ids(text: &PageText, known: &Known, out: &mut Vec<String>) {
    static LONG_ID: OnceLock<Regex> = OnceLock::new();
    static SHORT_ID: OnceLock<Regex> = OnceLock::new();
    static NUMBER: OnceLock<Regex> = OnceLock::new();
    let long_id = re(&LONG_ID, r"\b[0-9]{2}-[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b");
    let short_id = re(&SHORT_ID, r"^[0-9]{2}-[a-z][a-z0-9-]*$");
    let number = re(&NUMBER, r"(?i)\blessons? ([0-9]+)\b");
    let mut ids: Vec<&str> = long_id.find_iter(&text.all).map(|m| m.as_str()).collect();
    ids.extend(
        text.code
            .iter()
            .flat_map(|c| c.split_whitespace())
            .filter(|w| short_id.is_match(w)),
    );
    for id in ids {
        if !known.lessons.iter().any(|l| l == id) {
            out.push(format!("lesson id `{id}` does not exist"));
        }
    }
    for c in number.captures_iter(&text.all) {
        if lesson_by_number(known, &c[1]).is_none() {
            out.push(format!("lesson {} does not exist", &c[1]));
        }
    }
}

/// The id of the lesson whose file starts with the number `n`.
fn lesson_by_number<'k>(known: &'k Known, n: &str) -> Option<&'k str> {
    let n: u32 = n.parse().ok()?;
    known
        .lessons
        .iter()
        .find(|id| id.split('-').next().and_then(|p| p.parse().ok()) == Some(n))
        .map(String::as_str)
}

/// Scenario names: `tooldojo trace NAME`, `tooldojo play NAME`, "the `NAME` scenario",
/// "scenario `NAME`".
fn scenarios(text: &PageText, known: &Known, out: &mut Vec<String>) {
    static RUN: OnceLock<Regex> = OnceLock::new();
    static NEAR: OnceLock<Regex> = OnceLock::new();
    let run = re(
        &RUN,
        r"\btooldojo\s+(?:trace|play)\s+([a-z0-9][a-z0-9-]*)(\S*)",
    );
    let near = re(
        &NEAR,
        r"`([a-z0-9][a-z0-9-]*)`\s+scenarios?\b|\bscenarios?\s+`([a-z0-9][a-z0-9-]*)`",
    );
    let mut names: Vec<String> = Vec::new();
    for code in &text.code {
        for c in run.captures_iter(code) {
            // A path (`./my.json`, `x.json`) is a file, not a shipped name.
            if c[2].is_empty() {
                names.push(c[1].to_owned());
            }
        }
    }
    for c in near.captures_iter(&text.all) {
        if let Some(m) = c.get(1).or(c.get(2)) {
            names.push(m.as_str().to_owned());
        }
    }
    for name in names {
        if !known.scenarios.contains(&name) {
            out.push(format!("scenario `{name}` does not exist"));
        }
    }
}

/// Page references: numbers, next/previous/last, and quoted titles.
fn pages(text: &PageText, lesson: &Lesson, here: usize, known: &Known, out: &mut Vec<String>) {
    static NUMBERED: OnceLock<Regex> = OnceLock::new();
    static RELATIVE: OnceLock<Regex> = OnceLock::new();
    static TITLED: OnceLock<Regex> = OnceLock::new();
    let numbered = re(&NUMBERED, r"(?i)\b(?:lesson ([0-9]+),? )?page ([0-9]+)\b");
    let relative = re(&RELATIVE, r"(?i)\bthe (next|previous|last) page\b");
    let titled = re(&TITLED, r#"(?i)\bpage(?: ([0-9]+))?,? \(?"([^"]+)""#);
    let count = lesson.pages.len();
    for c in numbered.captures_iter(&text.all) {
        let n: usize = c[2].parse().unwrap_or(0);
        match c.get(1) {
            // Another lesson's pages are not known here; its number is checked.
            Some(l) if lesson_by_number(known, l.as_str()).is_none() => {
                out.push(format!("lesson {} does not exist", l.as_str()))
            }
            Some(_) => {}
            None if n == 0 || n > count => out.push(format!(
                "page {n} does not exist (this lesson has {count} pages)"
            )),
            None => {}
        }
    }
    for c in relative.captures_iter(&text.all) {
        let which = c[1].to_lowercase();
        let problem = match which.as_str() {
            "next" if here + 1 >= count => Some("there is no next page".to_owned()),
            "previous" if here == 0 => Some("there is no previous page".to_owned()),
            "last" if is_recap(&lesson.pages[count - 1].title) && here + 1 < count => Some(
                "\"the last page\" is the recap here: name the page meant by its title".to_owned(),
            ),
            _ => None,
        };
        out.extend(problem);
    }
    for c in titled.captures_iter(&text.all) {
        // Prose is wrapped: a quoted title may run over a line break.
        let title = c[2].split_whitespace().collect::<Vec<_>>().join(" ");
        let title = title.as_str();
        let at = lesson.pages.iter().position(|p| p.title == title);
        match (c.get(1).and_then(|n| n.as_str().parse::<usize>().ok()), at) {
            (_, None) => out.push(format!("no page is titled \"{title}\"")),
            (Some(n), Some(i)) if n != i + 1 => {
                out.push(format!("\"{title}\" is page {}, not page {n}", i + 1))
            }
            _ => {}
        }
    }
}

fn is_recap(title: &str) -> bool {
    title.trim().to_lowercase().starts_with("recap")
}

/// Backticked event names.
fn events(text: &PageText, known: &Known, out: &mut Vec<String>) {
    static SNAKE: OnceLock<Regex> = OnceLock::new();
    static NEAR: OnceLock<Regex> = OnceLock::new();
    let snake = re(&SNAKE, r"^[a-z]+(?:_[a-z]+)+$");
    let near = re(
        &NEAR,
        r"`([a-z_]+)`\s+(?:events?|lines?)\b|\bevents?\s+`([a-z_]+)`",
    );
    let firsts: Vec<&str> = known
        .events
        .iter()
        .filter_map(|e| e.split('_').next())
        .collect();
    let lasts: Vec<&str> = known
        .events
        .iter()
        .filter_map(|e| e.rsplit('_').next())
        .collect();
    let mut named: Vec<String> = near
        .captures_iter(&text.all)
        .filter_map(|c| c.get(1).or(c.get(2)).map(|m| m.as_str().to_owned()))
        .collect();
    for line in text.all.lines() {
        for span in spans(line).filter(|s| snake.is_match(s)) {
            let first = span.split('_').next().unwrap_or_default();
            let last = span.rsplit('_').next().unwrap_or_default();
            if firsts.contains(&first) && lasts.contains(&last) {
                named.push(span.to_owned());
            }
        }
    }
    named.sort();
    named.dedup();
    for name in named {
        if !known.events.contains(&name) {
            out.push(format!(
                "`{name}` is not an event the trace emits (events: {})",
                known.events.join(", ")
            ));
        }
    }
}
