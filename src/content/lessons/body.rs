//! The inside of an interactive block: its `key=value` options and, for quiz, explain and
//! checklist, its body.

use super::parse::{Options, err};
use super::{BlockKind, BlockSpec, Checklist, Choice, Explain, Quiz};
use crate::content::TextFile;
use crate::error::UserResult;

/// Option keys and closed value sets; names that live in fixtures are the lint's job.
pub(super) fn check_options(
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
pub(super) fn parse_body(
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
