//! Lessons: Markdown files with interactive fenced blocks (the format is described in lessons/README.md).

use crate::content::{Content, TextFile};
use crate::error::{UserError, UserResult};

/// One lesson file.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    /// Stable id: the file name without `.md` (e.g. `01-untrusted-input`); progress is keyed by it.
    pub id: String,
    pub title: String,
    /// Rough study time the header promises, in minutes.
    pub minutes: u32,
    /// The file name used in messages (`lessons/01-untrusted-input.md`).
    pub file: String,
    /// Pages, shown one at a time and moved with `n` / `p`.
    pub pages: Vec<Page>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub title: String,
    pub items: Vec<Item>,
}

/// A page is Markdown prose interleaved with interactive blocks.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Markdown(String),
    Block(Block),
}

/// A fenced interactive block: ```` ```predict fixture=get_ticket ````.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub kind: BlockKind,
    /// `key=value` options in the order written.
    pub options: Vec<(String, String)>,
    /// The raw text between the fences.
    pub body: String,
    /// 1-based line of the opening fence in `file`.
    pub line: usize,
    /// Parsed body for the kinds that have one.
    pub spec: BlockSpec,
}

impl Block {
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockKind {
    Predict,
    Playground,
    Trace,
    Quiz,
    Explain,
    Checklist,
}

#[derive(Debug, Clone, PartialEq)]
pub enum BlockSpec {
    /// predict / playground / trace: everything is in the options.
    None,
    Quiz(Quiz),
    Explain(Explain),
    Checklist(Checklist),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Quiz {
    pub question: String,
    pub choices: Vec<Choice>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub text: String,
    pub correct: bool,
    /// Why this choice is right or wrong, shown once the learner picks it.
    pub why: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Explain {
    pub question: String,
    pub model_answer: String,
    /// Points a good answer mentions; the learner ticks the ones they covered.
    pub key_points: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Checklist {
    pub items: Vec<String>,
}

/// The interactive kinds, as written in an info string.
pub const KINDS: &[(&str, BlockKind)] = &[
    ("predict", BlockKind::Predict),
    ("playground", BlockKind::Playground),
    ("trace", BlockKind::Trace),
    ("quiz", BlockKind::Quiz),
    ("explain", BlockKind::Explain),
    ("checklist", BlockKind::Checklist),
];

impl BlockKind {
    /// The word used in lesson files (`predict`, `trace`, ...).
    pub fn name(&self) -> &'static str {
        KINDS
            .iter()
            .find(|(_, k)| k == self)
            .map(|(n, _)| *n)
            .unwrap_or("?")
    }

    fn from_word(word: &str) -> Option<BlockKind> {
        KINDS
            .iter()
            .find(|(n, _)| *n == word)
            .map(|(_, k)| k.clone())
    }

    /// The option keys this kind accepts.
    pub fn allowed_options(&self) -> &'static [&'static str] {
        match self {
            BlockKind::Predict => &["fixture", "group", "rows"],
            BlockKind::Playground => &["mode", "schema", "tool", "tenant", "read"],
            BlockKind::Trace => &["scenario", "seed"],
            BlockKind::Quiz | BlockKind::Explain | BlockKind::Checklist => &[],
        }
    }
}

impl Block {
    /// `rows=a,b,c` split into ids (empty when the option is absent).
    pub fn rows(&self) -> Vec<String> {
        self.option("rows")
            .map(|v| {
                v.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Lesson {
    /// Every interactive block of the lesson, in reading order.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        self.pages.iter().flat_map(|p| {
            p.items.iter().filter_map(|i| match i {
                Item::Block(b) => Some(b),
                Item::Markdown(_) => None,
            })
        })
    }
}

fn err(file: &TextFile, line: usize, what: impl std::fmt::Display) -> UserError {
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

type Options = Vec<(String, String)>;

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

/// Option keys and closed value sets; names that live in fixtures are the lint's job.
fn check_options(
    file: &TextFile,
    line: usize,
    kind: &BlockKind,
    options: &Options,
) -> UserResult<()> {
    let name = kind.name();
    let allowed = kind.allowed_options();
    for (k, _) in options {
        if !allowed.contains(&k.as_str()) {
            let what = if allowed.is_empty() {
                format!("a {name} block takes no options (got `{k}`)")
            } else {
                format!(
                    "unknown option `{k}` for a {name} block (allowed: {})",
                    allowed.join(", ")
                )
            };
            return Err(err(file, line, what));
        }
    }
    let get = |k: &str| {
        options
            .iter()
            .find(|(ok, _)| ok == k)
            .map(|(_, v)| v.as_str())
    };
    let one_of = |k: &str, vals: &[&str]| -> UserResult<()> {
        match get(k) {
            Some(v) if !vals.contains(&v) => Err(err(
                file,
                line,
                format!("{name} option {k}={v}: expected one of {}", vals.join(", ")),
            )),
            _ => Ok(()),
        }
    };
    let need = |k: &str| -> UserResult<()> {
        if get(k).is_none() {
            Err(err(file, line, format!("a {name} block needs {k}=...")))
        } else {
            Ok(())
        }
    };
    match kind {
        BlockKind::Predict => {
            need("fixture")?;
            one_of("fixture", &["get_ticket", "validator"])?;
            if let Some(rows) = get("rows") {
                if rows.split(',').any(|r| r.trim().is_empty()) {
                    return Err(err(
                        file,
                        line,
                        format!("malformed option rows={rows}: an empty row id"),
                    ));
                }
            }
        }
        BlockKind::Playground => {
            need("mode")?;
            one_of("mode", &["validator", "executor"])?;
            let exec_only = ["tool", "tenant", "read"];
            if get("mode") == Some("validator") {
                need("schema")?;
                if let Some(k) = exec_only.iter().find(|k| get(k).is_some()) {
                    return Err(err(
                        file,
                        line,
                        format!("option `{k}` is for mode=executor"),
                    ));
                }
            } else {
                if get("schema").is_some() {
                    return Err(err(file, line, "option `schema` is for mode=validator"));
                }
                one_of("tenant", &["alpha", "beta", "gamma"])?;
                one_of("read", &["allow", "deny"])?;
            }
        }
        BlockKind::Trace => {
            need("scenario")?;
            if let Some(s) = get("seed") {
                if s.parse::<u64>().is_err() {
                    return Err(err(
                        file,
                        line,
                        format!("trace option seed={s}: expected a whole number"),
                    ));
                }
            }
        }
        BlockKind::Quiz | BlockKind::Explain | BlockKind::Checklist => {}
    }
    Ok(())
}

/// `- text` list items with indented continuation lines; `first` is the 1-based line of
/// `lines[0]`. Returns (line, text) per item.
fn list_items(
    file: &TextFile,
    first: usize,
    lines: &[&str],
    what: &str,
) -> UserResult<Vec<(usize, String)>> {
    let mut items: Vec<(usize, String)> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let lineno = first + i;
        if l.trim().is_empty() {
            continue;
        }
        if let Some(t) = l.strip_prefix("- ") {
            items.push((lineno, t.trim().to_owned()));
        } else if l.starts_with(' ') && !items.is_empty() {
            let last = items.last_mut().expect("checked non-empty");
            last.1.push(' ');
            last.1.push_str(l.trim());
        } else {
            return Err(err(
                file,
                lineno,
                format!("expected a `- {what}` line, got `{}`", l.trim()),
            ));
        }
    }
    Ok(items)
}

fn para(lines: &[&str]) -> String {
    lines.join("\n").trim_matches('\n').trim().to_owned()
}

/// Parse the body of quiz / explain / checklist blocks. `first` is the line of the body's
/// first line.
fn parse_body(
    file: &TextFile,
    kind: &BlockKind,
    first: usize,
    body: &[&str],
) -> UserResult<BlockSpec> {
    let fence = first - 1;
    match kind {
        BlockKind::Quiz => {
            let split = body
                .iter()
                .position(|l| {
                    l.starts_with("- [x]") || l.starts_with("- [ ]") || l.starts_with("- [X]")
                })
                .unwrap_or(body.len());
            let question = para(&body[..split]);
            if question.is_empty() {
                return Err(err(file, fence, "a quiz starts with its question"));
            }
            let mut choices = Vec::new();
            for (lineno, text) in
                list_items(file, first + split, &body[split..], "[x] choice :: why")?
            {
                let (correct, rest) = if let Some(r) = text
                    .strip_prefix("[x]")
                    .or_else(|| text.strip_prefix("[X]"))
                {
                    (true, r)
                } else if let Some(r) = text.strip_prefix("[ ]") {
                    (false, r)
                } else {
                    return Err(err(
                        file,
                        lineno,
                        "a quiz choice starts with `- [x]` (right) or `- [ ]` (wrong)",
                    ));
                };
                let Some((t, why)) = rest.split_once("::") else {
                    return Err(err(
                        file,
                        lineno,
                        "a quiz choice needs ` :: why` after its text",
                    ));
                };
                let (t, why) = (t.trim(), why.trim());
                if t.is_empty() || why.is_empty() {
                    return Err(err(
                        file,
                        lineno,
                        "a quiz choice needs both a text and a why",
                    ));
                }
                choices.push(Choice {
                    text: t.to_owned(),
                    correct,
                    why: why.to_owned(),
                });
            }
            if choices.len() < 2 {
                return Err(err(file, fence, "a quiz needs at least two choices"));
            }
            if !choices.iter().any(|c| c.correct) {
                return Err(err(file, fence, "a quiz needs at least one `- [x]` choice"));
            }
            Ok(BlockSpec::Quiz(Quiz { question, choices }))
        }
        BlockKind::Explain => {
            let seps: Vec<usize> = body
                .iter()
                .enumerate()
                .filter(|(_, l)| l.trim() == "---")
                .map(|(i, _)| i)
                .collect();
            if seps.len() != 2 {
                return Err(err(
                    file,
                    seps.get(2).map(|i| first + i).unwrap_or(fence),
                    "an explain block is: question, a `---` line, the model answer, a `---` line, `- key point` lines",
                ));
            }
            let question = para(&body[..seps[0]]);
            let model_answer = para(&body[seps[0] + 1..seps[1]]);
            if question.is_empty() {
                return Err(err(
                    file,
                    fence,
                    "an explain block starts with its question",
                ));
            }
            if model_answer.is_empty() {
                return Err(err(
                    file,
                    first + seps[0],
                    "an explain block needs a model answer after the first `---`",
                ));
            }
            let points = list_items(file, first + seps[1] + 1, &body[seps[1] + 1..], "key point")?;
            if points.is_empty() {
                return Err(err(
                    file,
                    first + seps[1],
                    "an explain block needs `- key point` lines after the second `---`",
                ));
            }
            Ok(BlockSpec::Explain(Explain {
                question,
                model_answer,
                key_points: points.into_iter().map(|(_, t)| t).collect(),
            }))
        }
        BlockKind::Checklist => {
            let items = list_items(file, first, body, "item")?;
            if items.is_empty() {
                return Err(err(file, fence, "a checklist needs `- item` lines"));
            }
            Ok(BlockSpec::Checklist(Checklist {
                items: items.into_iter().map(|(_, t)| t).collect(),
            }))
        }
        BlockKind::Predict | BlockKind::Trace => {
            if let Some((i, l)) = body.iter().enumerate().find(|(_, l)| !l.trim().is_empty()) {
                return Err(err(
                    file,
                    first + i,
                    format!("a {} block takes no body (got `{}`)", kind.name(), l.trim()),
                ));
            }
            Ok(BlockSpec::None)
        }
        BlockKind::Playground => Ok(BlockSpec::None),
    }
}

/// Load every `*.md` lesson of the content, in file-name order (`README.md` is skipped).
pub fn load_all(content: &Content) -> UserResult<Vec<Lesson>> {
    let mut out = Vec::new();
    for rel in content.lessons.list("", ".md")? {
        if rel.eq_ignore_ascii_case("README.md") {
            continue;
        }
        out.push(parse_lesson(&content.lessons.read(&rel)?)?);
    }
    Ok(out)
}

/// The names the lint checks blocks against, read from the fixtures.
#[derive(Debug, Clone, Default)]
pub struct LintTables {
    /// get_ticket rows: (id, group), in file order.
    pub get_ticket: Vec<(String, String)>,
    /// validator rows: (id, group), in file order.
    pub validator: Vec<(String, String)>,
    pub schemas: Vec<String>,
    pub scenarios: Vec<String>,
}

impl LintTables {
    /// Read the fixture tables of `content`. A fixture that does not parse is an error.
    pub fn load(content: &Content) -> UserResult<LintTables> {
        use crate::content::fixtures;
        let get_ticket = fixtures::get_ticket_cases(content)?
            .into_iter()
            .map(|c| (c.id, c.group))
            .collect();
        let validator = fixtures::validator_cases(content)?
            .into_iter()
            .map(|c| (c.id, c.group))
            .collect();
        let schemas = fixtures::schemas(content)?
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        let scenarios = content
            .fixtures
            .list("scenarios", ".json")?
            .into_iter()
            .filter_map(|rel| {
                let name = rel.rsplit('/').next()?;
                name.strip_suffix(".json").map(str::to_owned)
            })
            .collect();
        Ok(LintTables {
            get_ticket,
            validator,
            schemas,
            scenarios,
        })
    }

    fn rows(&self, fixture: &str) -> (&[(String, String)], &'static str) {
        if fixture == "validator" {
            (&self.validator, "fixtures/validator_cases.json")
        } else {
            (&self.get_ticket, "fixtures/get_ticket_cases.json")
        }
    }
}

/// The fixture rows a predict block shows, or what it names that does not exist.
pub fn predict_rows(block: &Block, tables: &LintTables) -> Result<Vec<String>, String> {
    let fixture = block.option("fixture").unwrap_or("");
    let (rows, file) = tables.rows(fixture);
    let group = block.option("group");
    let mut missing = Vec::new();
    if let Some(g) = group {
        if !rows.iter().any(|(_, rg)| rg == g) {
            missing.push(format!("group `{g}` in {file}"));
        }
    }
    let wanted = block.rows();
    for id in &wanted {
        match rows.iter().find(|(rid, _)| rid == id) {
            None => missing.push(format!("row `{id}` in {file}")),
            Some((_, rg)) => {
                if let Some(g) = group {
                    if rg != g {
                        missing.push(format!("row `{id}` in group `{g}` (it is in `{rg}`)"));
                    }
                }
            }
        }
    }
    if !missing.is_empty() {
        return Err(format!("missing: {}", missing.join(", ")));
    }
    Ok(if !wanted.is_empty() {
        wanted
    } else {
        rows.iter()
            .filter(|(_, rg)| group.is_none_or(|g| rg == g))
            .map(|(id, _)| id.clone())
            .collect()
    })
}

fn short(file: &str) -> &str {
    file.rsplit(['/', '\\']).next().unwrap_or(file)
}

fn row(name: String, expected: &str, actual: String, pass: bool) -> crate::content::CheckRow {
    crate::content::CheckRow {
        suite: "lessons".to_owned(),
        name,
        expected: serde_json::Value::String(expected.to_owned()),
        actual: serde_json::Value::String(actual),
        pass,
    }
}

/// The lint over already-parsed lessons and fixture tables (see [`lint`]).
pub fn lint_lessons(lessons: &[Lesson], tables: &LintTables) -> Vec<crate::content::CheckRow> {
    let mut out = Vec::new();
    // (fixture, row id) -> where it is predicted
    let mut predicted: Vec<(String, String, String)> = Vec::new();
    let mut traced: Vec<(String, String)> = Vec::new();
    let mut playgrounds: Vec<(String, String)> = Vec::new();

    for l in lessons {
        let blocks: Vec<&Block> = l.blocks().collect();
        let mut problems = Vec::new();
        if l.minutes == 0 {
            problems.push("no study-time line (`*About N minutes*` before the first page)");
        }
        if blocks.is_empty() {
            problems.push("no interactive block");
        }
        let actual = if problems.is_empty() {
            format!("{} min, {} interactive blocks", l.minutes, blocks.len())
        } else {
            problems.join("; ")
        };
        out.push(row(
            format!("{} lesson", short(&l.file)),
            "a study time and at least one interactive block",
            actual,
            problems.is_empty(),
        ));

        for b in blocks {
            let at = format!("{}:{}", short(&l.file), b.line);
            let name = format!("{at} {}", b.kind.name());
            let (expected, result): (String, Result<String, String>) = match b.kind {
                BlockKind::Predict => {
                    let fixture = b.option("fixture").unwrap_or("").to_owned();
                    let expected = format!("fixture {fixture} rows exist");
                    let r = predict_rows(b, tables).map(|ids| {
                        let n = ids.len();
                        for id in ids {
                            predicted.push((fixture.clone(), id, at.clone()));
                        }
                        format!("{n} rows")
                    });
                    (expected, r)
                }
                BlockKind::Playground => {
                    let mode = b.option("mode").unwrap_or("").to_owned();
                    playgrounds.push((mode.clone(), at.clone()));
                    if mode == "validator" {
                        let schema = b.option("schema").unwrap_or("");
                        let r = if tables.schemas.iter().any(|s| s == schema) {
                            Ok(format!("schema {schema}"))
                        } else {
                            Err(format!(
                                "missing: schema `{schema}` in fixtures/schemas.json"
                            ))
                        };
                        ("the schema exists".to_owned(), r)
                    } else {
                        ("an executor playground".to_owned(), Ok("ok".to_owned()))
                    }
                }
                BlockKind::Trace => {
                    let sc = b.option("scenario").unwrap_or("");
                    traced.push((sc.to_owned(), at.clone()));
                    let r = if tables.scenarios.iter().any(|s| s == sc) {
                        Ok(format!("scenario {sc}"))
                    } else {
                        Err(format!("missing: fixtures/scenarios/{sc}.json"))
                    };
                    ("the scenario exists".to_owned(), r)
                }
                BlockKind::Quiz | BlockKind::Explain | BlockKind::Checklist => {
                    let what = match &b.spec {
                        BlockSpec::Quiz(q) => format!("{} choices", q.choices.len()),
                        BlockSpec::Explain(e) => format!("{} key points", e.key_points.len()),
                        BlockSpec::Checklist(c) => format!("{} items", c.items.len()),
                        BlockSpec::None => String::new(),
                    };
                    ("parses".to_owned(), Ok(what))
                }
            };
            let pass = result.is_ok();
            out.push(row(name, &expected, result.unwrap_or_else(|e| e), pass));
        }
    }

    for (fixture, rows) in [
        ("get_ticket", &tables.get_ticket),
        ("validator", &tables.validator),
    ] {
        for (id, _) in rows {
            let wher: Vec<&str> = predicted
                .iter()
                .filter(|(f, rid, _)| f == fixture && rid == id)
                .map(|(_, _, at)| at.as_str())
                .collect();
            let pass = !wher.is_empty();
            let actual = if pass {
                wher.join(", ")
            } else {
                format!("row {id} is not predicted by any lesson")
            };
            out.push(row(
                format!("predicted {fixture} {id}"),
                "predicted by a lesson",
                actual,
                pass,
            ));
        }
    }
    for sc in &tables.scenarios {
        let wher: Vec<&str> = traced
            .iter()
            .filter(|(s, _)| s == sc)
            .map(|(_, at)| at.as_str())
            .collect();
        let pass = !wher.is_empty();
        let actual = if pass {
            wher.join(", ")
        } else {
            format!("scenario {sc} has no trace block in any lesson")
        };
        out.push(row(
            format!("traced {sc}"),
            "traced by a lesson",
            actual,
            pass,
        ));
    }
    for mode in ["validator", "executor"] {
        let wher: Vec<&str> = playgrounds
            .iter()
            .filter(|(m, _)| m == mode)
            .map(|(_, at)| at.as_str())
            .collect();
        let pass = !wher.is_empty();
        let actual = if pass {
            wher.join(", ")
        } else {
            format!("no lesson has a {mode} playground")
        };
        out.push(row(
            format!("playground {mode}"),
            "a lesson has one",
            actual,
            pass,
        ));
    }
    out
}

/// `tooldojo check`'s lesson lint: every block parses, every fixture, row, scenario and
/// schema a block names exists, every fixture row is predicted somewhere, every scenario is
/// traced somewhere, every lesson has a study time and an interactive block.
/// Returns rows for the check table (suite `lessons`); a lesson that cannot be parsed at
/// all is an `Err` (exit 2, naming file and line).
pub fn lint(content: &Content) -> UserResult<Vec<crate::content::CheckRow>> {
    let lessons = load_all(content)?;
    let tables = LintTables::load(content)?;
    Ok(lint_lessons(&lessons, &tables))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> TextFile {
        TextFile {
            display: "lessons/01-demo.md".into(),
            rel: "01-demo.md".into(),
            text: text.into(),
        }
    }

    fn parse(text: &str) -> UserResult<Lesson> {
        parse_lesson(&file(text))
    }

    fn err_of(text: &str) -> String {
        parse(text).expect_err("should fail").message
    }

    const GOOD: &str = "\
# Demo lesson
*About 12 minutes*

Intro prose.

## First page
Some text.

```json
{\"a\": 1}
## not a heading
```

```predict fixture=get_ticket group=row
```

## Second page
```quiz
Which check runs first?
- [ ] unknown arg :: it runs second
- [x] missing required arg :: nothing else makes sense
  without the required names
```

```explain
Why?
---
Because.
---
- point one
- point two
```

```checklist
- item one
- item two
```

```playground mode=executor tenant=beta read=deny
{\"ticket_id\": \"TKT-104\"}
```

```trace scenario=happy-path seed=7
```
";

    #[test]
    fn parses_a_whole_lesson() {
        let l = parse(GOOD).unwrap();
        assert_eq!(l.id, "01-demo");
        assert_eq!(l.title, "Demo lesson");
        assert_eq!(l.minutes, 12);
        assert_eq!(l.file, "lessons/01-demo.md");
        let titles: Vec<&str> = l.pages.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(titles, ["Demo lesson", "First page", "Second page"]);
        assert_eq!(
            l.pages[0].items,
            vec![Item::Markdown("Intro prose.".into())]
        );
        // The json fence and its `## ` line stay prose on the first page.
        match &l.pages[1].items[0] {
            Item::Markdown(m) => {
                assert!(m.contains("```json") && m.contains("## not a heading"));
            }
            other => panic!("{other:?}"),
        }
        let blocks: Vec<&Block> = l.blocks().collect();
        let kinds: Vec<&str> = blocks.iter().map(|b| b.kind.name()).collect();
        assert_eq!(
            kinds,
            [
                "predict",
                "quiz",
                "explain",
                "checklist",
                "playground",
                "trace"
            ]
        );
        let lines: Vec<usize> = blocks.iter().map(|b| b.line).collect();
        assert_eq!(lines, [14, 18, 25, 34, 39, 43]);
        assert_eq!(blocks[0].option("group"), Some("row"));
        assert_eq!(blocks[0].option("fixture"), Some("get_ticket"));
        match &blocks[1].spec {
            BlockSpec::Quiz(q) => {
                assert_eq!(q.question, "Which check runs first?");
                assert_eq!(q.choices.len(), 2);
                assert!(!q.choices[0].correct && q.choices[1].correct);
                assert_eq!(
                    q.choices[1].why,
                    "nothing else makes sense without the required names"
                );
            }
            other => panic!("{other:?}"),
        }
        match &blocks[2].spec {
            BlockSpec::Explain(e) => {
                assert_eq!(e.question, "Why?");
                assert_eq!(e.model_answer, "Because.");
                assert_eq!(e.key_points, ["point one", "point two"]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            blocks[3].spec,
            BlockSpec::Checklist(Checklist {
                items: vec!["item one".into(), "item two".into()]
            })
        );
        assert_eq!(blocks[4].body, "{\"ticket_id\": \"TKT-104\"}");
        assert_eq!(blocks[4].option("read"), Some("deny"));
        assert_eq!(blocks[5].option("seed"), Some("7"));
    }

    #[test]
    fn rows_option_splits_ids() {
        let l =
            parse("# T\n*About 1 minute*\n```predict fixture=validator rows=a,b\n```\n").unwrap();
        let b = l.blocks().next().unwrap();
        assert_eq!(b.rows(), ["a", "b"]);
        assert_eq!(l.minutes, 1);
    }

    #[test]
    fn missing_minutes_is_zero_for_the_lint() {
        let l = parse("# T\ntext\n").unwrap();
        assert_eq!(l.minutes, 0);
        assert_eq!(l.pages.len(), 1);
    }

    #[test]
    fn empty_intro_is_dropped() {
        let l = parse("# T\n*About 3 minutes*\n\n## Only\nx\n").unwrap();
        assert_eq!(l.pages.len(), 1);
        assert_eq!(l.pages[0].title, "Only");
    }

    #[test]
    fn error_cases_name_file_and_line() {
        let cases: &[(&str, &str)] = &[
            ("no title\n", "lessons/01-demo.md:1: a lesson starts"),
            ("\n\n#Title\n", "lessons/01-demo.md:3: a lesson starts"),
            (
                "# T\n\n```predcit fixture=x\n```\n",
                "lessons/01-demo.md:3: unknown block kind `predcit`",
            ),
            (
                "# T\n```trace scenario\n```\n",
                "lessons/01-demo.md:2: malformed option `scenario`",
            ),
            (
                "# T\n```trace scenario=\n```\n",
                "lessons/01-demo.md:2: malformed option",
            ),
            (
                "# T\n```trace scenario=a scenario=b\n```\n",
                ":2: option `scenario` given twice",
            ),
            ("# T\n\n\n```quiz\nQ\n", ":4: code fence is never closed"),
            (
                "# T\n```quiz\nQ?\n- [ ] a :: no\n- [ ] b :: no\n```\n",
                ":2: a quiz needs at least one `- [x]`",
            ),
            (
                "# T\n```quiz\nQ?\n- [x] a :: yes\n- [ ] b\n```\n",
                ":5: a quiz choice needs ` :: why`",
            ),
            (
                "# T\n```quiz\n- [x] a :: yes\n- [ ] b :: no\n```\n",
                ":2: a quiz starts",
            ),
            (
                "# T\n```quiz\nQ?\n- [x] a :: yes\n```\n",
                ":2: a quiz needs at least two",
            ),
            (
                "# T\n```quiz\nQ?\n- [x] a :: yes\nstray\n```\n",
                ":5: expected a `- [x] choice :: why` line",
            ),
            (
                "# T\n```explain\nQ\n---\nA\n```\n",
                ":2: an explain block is",
            ),
            (
                "# T\n```explain\nQ\n---\n---\n- p\n```\n",
                ":4: an explain block needs a model",
            ),
            (
                "# T\n```explain\nQ\n---\nA\n---\n```\n",
                ":6: an explain block needs `- key",
            ),
            (
                "# T\n```explain\nQ\n---\nA\n---\nnot a point\n```\n",
                ":7: expected a `- key point`",
            ),
            ("# T\n```checklist\n```\n", ":2: a checklist needs"),
            (
                "# T\n```checklist\n- a\nb\n```\n",
                ":4: expected a `- item` line",
            ),
            (
                "# T\n```predict group=row\n```\n",
                ":2: a predict block needs fixture=",
            ),
            (
                "# T\n```predict fixture=weather\n```\n",
                ":2: predict option fixture=weather",
            ),
            (
                "# T\n```predict fixture=validator colour=red\n```\n",
                ":2: unknown option `colour`",
            ),
            (
                "# T\n```predict fixture=validator rows=a,,b\n```\n",
                ":2: malformed option rows",
            ),
            (
                "# T\n```predict fixture=validator\nbody\n```\n",
                ":3: a predict block takes no body",
            ),
            (
                "# T\n```quiz x=1\nQ\n```\n",
                ":2: a quiz block takes no options",
            ),
            (
                "# T\n```playground schema=weather\n```\n",
                ":2: a playground block needs mode=",
            ),
            (
                "# T\n```playground mode=validator\n```\n",
                ":2: a playground block needs schema=",
            ),
            (
                "# T\n```playground mode=validator schema=w tenant=alpha\n```\n",
                ":2: option `tenant` is for mode=executor",
            ),
            (
                "# T\n```playground mode=executor schema=w\n```\n",
                ":2: option `schema` is for",
            ),
            (
                "# T\n```playground mode=executor tenant=delta\n```\n",
                ":2: playground option tenant=delta",
            ),
            (
                "# T\n```playground mode=executor read=maybe\n```\n",
                ":2: playground option read=maybe",
            ),
            (
                "# T\n```trace seed=1\n```\n",
                ":2: a trace block needs scenario=",
            ),
            (
                "# T\n```trace scenario=a seed=x\n```\n",
                ":2: trace option seed=x",
            ),
            (
                "# T\n*About 5 minutes*\n*About 6 minutes*\n",
                ":3: a second study-time line",
            ),
            (
                "# T\n*About 0 minutes*\n",
                ":2: study time must be at least",
            ),
            ("# T\n", ":1: the lesson has no content"),
        ];
        for (text, want) in cases {
            let got = err_of(text);
            assert!(
                got.contains(want),
                "for {text:?}\n got: {got}\nwant: {want}"
            );
            assert!(got.starts_with("lessons/01-demo.md:"), "{got}");
        }
    }

    #[test]
    fn typos_of_kinds_are_errors_even_without_options() {
        for (text, want) in [
            (
                "# T\n```quizz\nQ\n```\n",
                ":2: unknown block kind `quizz`: did you mean `quiz`?",
            ),
            ("# T\n```predcit\n```\n", "did you mean `predict`?"),
            ("# T\n```checklst\n```\n", "did you mean `checklist`?"),
            ("# T\n```Trace\n```\n", "did you mean `trace`?"),
        ] {
            let got = err_of(text);
            assert!(got.contains(want), "{got}");
        }
        // Real languages stay code.
        for lang in [
            "json", "python", "rust", "text", "sh", "js", "ts", "yaml", "toml", "diff",
        ] {
            let l = parse(&format!("# T\n```{lang}\nx\n```\n")).unwrap();
            assert_eq!(l.blocks().count(), 0, "{lang}");
        }
    }

    #[test]
    fn plain_code_fences_are_prose() {
        let l =
            parse("# T\n```python\nx = 1\n```\n```\nplain\n```\n~~~~\n```quiz\n~~~~\n").unwrap();
        assert_eq!(l.blocks().count(), 0);
    }

    #[test]
    fn longer_fences_nest_shorter_ones() {
        let l =
            parse("# T\n````markdown\n```quiz\nnot a block\n```\n````\n```checklist\n- a\n```\n")
                .unwrap();
        let b: Vec<&Block> = l.blocks().collect();
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].line, 7);
    }
}
