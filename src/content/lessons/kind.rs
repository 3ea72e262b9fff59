//! The kinds of interactive block and every fact about each: the word a lesson writes, the
//! names the screens use, the options it takes and their values, and its body (quiz,
//! explain and checklist have one). A new block kind is a variant here, its widget, and its
//! arm in `tui::blocks::build`.

use super::{Options, err};
use crate::content::TextFile;
use crate::error::{UserError, UserResult};

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
pub(crate) const KINDS: &[(&str, BlockKind)] = &[
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

    pub(crate) fn from_word(word: &str) -> Option<BlockKind> {
        KINDS
            .iter()
            .find(|(n, _)| *n == word)
            .map(|(_, k)| k.clone())
    }

    /// The word capitalized, as a title begins (`Predict`).
    pub fn title(&self) -> String {
        let name = self.name();
        let mut chars = name.chars();
        chars
            .next()
            .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
            .unwrap_or_default()
    }

    /// How the page names a block of this kind that has nothing more precise to say of
    /// what is left of it ("to do: the checklist").
    pub fn noun(&self) -> &'static str {
        match self {
            BlockKind::Predict => "the predict table",
            BlockKind::Playground => "the playground",
            BlockKind::Trace => "the trace",
            BlockKind::Quiz => "the quiz",
            BlockKind::Explain => "the explain question",
            BlockKind::Checklist => "the checklist",
        }
    }

    /// The option keys this kind accepts.
    pub(crate) fn allowed_options(&self) -> &'static [&'static str] {
        match self {
            BlockKind::Predict => &["fixture", "group", "rows"],
            BlockKind::Playground => &["mode", "schema", "tool", "tenant", "read"],
            BlockKind::Trace => &["scenario", "seed"],
            BlockKind::Checklist => &["grader"],
            BlockKind::Quiz | BlockKind::Explain => &[],
        }
    }
}

/// Option keys and closed value sets; names that live in fixtures are the lint's job.
pub(super) fn check_options(
    file: &TextFile,
    line: usize,
    kind: &BlockKind,
    options: &Options,
) -> UserResult<()> {
    let opts = BlockOptions {
        file,
        line,
        name: kind.name(),
        options,
    };
    opts.only_allowed(kind.allowed_options())?;
    match kind {
        BlockKind::Predict => opts.predict(),
        BlockKind::Playground => opts.playground(),
        BlockKind::Trace => opts.trace(),
        BlockKind::Checklist => opts.checklist(),
        BlockKind::Quiz | BlockKind::Explain => Ok(()),
    }
}

/// The options of one block, with the place its fence opens for messages.
struct BlockOptions<'a> {
    file: &'a TextFile,
    line: usize,
    /// The block's kind as written (`predict`, ...).
    name: &'static str,
    options: &'a Options,
}

impl BlockOptions<'_> {
    fn fail(&self, what: impl std::fmt::Display) -> UserError {
        err(self.file, self.line, what)
    }

    fn get(&self, k: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(ok, _)| ok == k)
            .map(|(_, v)| v.as_str())
    }

    fn only_allowed(&self, allowed: &[&str]) -> UserResult<()> {
        let name = self.name;
        let Some((k, _)) = self
            .options
            .iter()
            .find(|(k, _)| !allowed.contains(&k.as_str()))
        else {
            return Ok(());
        };
        Err(self.fail(if allowed.is_empty() {
            format!("a {name} block takes no options (got `{k}`)")
        } else {
            format!(
                "unknown option `{k}` for a {name} block (allowed: {})",
                allowed.join(", ")
            )
        }))
    }

    fn need(&self, k: &str) -> UserResult<()> {
        match self.get(k) {
            None => Err(self.fail(format!("a {} block needs {k}=...", self.name))),
            Some(_) => Ok(()),
        }
    }

    fn one_of(&self, k: &str, vals: &[&str]) -> UserResult<()> {
        match self.get(k) {
            Some(v) if !vals.contains(&v) => Err(self.fail(format!(
                "{} option {k}={v}: expected one of {}",
                self.name,
                vals.join(", ")
            ))),
            _ => Ok(()),
        }
    }

    fn predict(&self) -> UserResult<()> {
        self.need("fixture")?;
        self.one_of("fixture", &["get_ticket", "validator", "wire"])?;
        if let Some(rows) = self.get("rows") {
            if rows.split(',').any(|r| r.trim().is_empty()) {
                return Err(self.fail(format!("malformed option rows={rows}: an empty row id")));
            }
        }
        Ok(())
    }

    fn playground(&self) -> UserResult<()> {
        self.need("mode")?;
        self.one_of("mode", &["validator", "executor"])?;
        let exec_only = ["tool", "tenant", "read"];
        if self.get("mode") == Some("validator") {
            self.need("schema")?;
            if let Some(k) = exec_only.iter().find(|k| self.get(k).is_some()) {
                return Err(self.fail(format!("option `{k}` is for mode=executor")));
            }
        } else {
            if self.get("schema").is_some() {
                return Err(self.fail("option `schema` is for mode=validator"));
            }
            self.one_of("tenant", &["alpha", "beta", "gamma"])?;
            self.one_of("read", &["allow", "deny"])?;
        }
        Ok(())
    }

    fn trace(&self) -> UserResult<()> {
        self.need("scenario")?;
        if let Some(s) = self.get("seed") {
            if s.parse::<u64>().is_err() {
                return Err(self.fail(format!("trace option seed={s}: expected a whole number")));
            }
        }
        Ok(())
    }

    /// `grader=execute:1,validate:2`: which items the grader ticks, per graded function.
    fn checklist(&self) -> UserResult<()> {
        let Some(v) = self.get("grader") else {
            return Ok(());
        };
        for pair in v.split(',') {
            let ok = match pair.split_once(':') {
                Some((f, n)) => {
                    matches!(f, "execute" | "validate") && n.parse::<usize>().is_ok_and(|n| n > 0)
                }
                None => false,
            };
            if !ok {
                return Err(self.fail(format!(
                    "checklist option grader={v}: expected FUNCTION:ITEM pairs, e.g. execute:1,validate:2"
                )));
            }
        }
        Ok(())
    }
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
pub(super) fn parse_body(
    file: &TextFile,
    kind: &BlockKind,
    first: usize,
    body: &[&str],
) -> UserResult<BlockSpec> {
    match kind {
        BlockKind::Quiz => parse_quiz(file, first, body).map(BlockSpec::Quiz),
        BlockKind::Explain => parse_explain(file, first, body).map(BlockSpec::Explain),
        BlockKind::Checklist => parse_checklist(file, first, body).map(BlockSpec::Checklist),
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

/// A question paragraph, then `- [x] text :: why` / `- [ ] text :: why` choices.
fn parse_quiz(file: &TextFile, first: usize, body: &[&str]) -> UserResult<Quiz> {
    let fence = first - 1;
    let split = body
        .iter()
        .position(|l| l.starts_with("- [x]") || l.starts_with("- [ ]") || l.starts_with("- [X]"))
        .unwrap_or(body.len());
    let question = para(&body[..split]);
    if question.is_empty() {
        return Err(err(file, fence, "a quiz starts with its question"));
    }
    let mut choices = Vec::new();
    for (lineno, text) in list_items(file, first + split, &body[split..], "[x] choice :: why")? {
        choices.push(quiz_choice(file, lineno, &text)?);
    }
    if choices.len() < 2 {
        return Err(err(file, fence, "a quiz needs at least two choices"));
    }
    if !choices.iter().any(|c| c.correct) {
        return Err(err(file, fence, "a quiz needs at least one `- [x]` choice"));
    }
    Ok(Quiz { question, choices })
}

/// One choice's text after the `- `: `[x] text :: why` or `[ ] text :: why`.
fn quiz_choice(file: &TextFile, lineno: usize, text: &str) -> UserResult<Choice> {
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
    Ok(Choice {
        text: t.to_owned(),
        correct,
        why: why.to_owned(),
    })
}

/// The question, a `---` line, the model answer, a `---` line, `- key point` lines.
fn parse_explain(file: &TextFile, first: usize, body: &[&str]) -> UserResult<Explain> {
    let fence = first - 1;
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
    Ok(Explain {
        question,
        model_answer,
        key_points: points.into_iter().map(|(_, t)| t).collect(),
    })
}

/// `- item` lines.
fn parse_checklist(file: &TextFile, first: usize, body: &[&str]) -> UserResult<Checklist> {
    let items = list_items(file, first, body, "item")?;
    if items.is_empty() {
        return Err(err(file, first - 1, "a checklist needs `- item` lines"));
    }
    Ok(Checklist {
        items: items.into_iter().map(|(_, t)| t).collect(),
    })
}
