//! `tooldojo tools FILE|--example [--json] [--tools-format F]`: your own tools file (or the
//! shipped example), every declaration
//! with its shape, whether the validator honours it, strict readiness for OpenAI and
//! Anthropic, the trap report (rejected or let through, with the fix) and hygiene notes.
//! Exit 0 when the file was read (findings are results), 2 when it could not be; with
//! `--fail-on-traps`, 1 when a declaration is refused or lets a trap through.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::error::UserError;
use crate::sanitize::quote;
use crate::text::{plural, thousands};
use crate::tools::report::{self, Report};
use crate::tools::strict::{Provider, StrictRule, Verdict};
use crate::tools::{ToolSet, ToolsFormat};
use crate::validate::json::dumps;

/// How wide the arguments of a trap that got through are printed, at most.
const ARGS_WIDTH: usize = 100;

/// `--tools-format`'s words.
pub(crate) fn format_flag() -> impl clap::builder::TypedValueParser<Value = ToolsFormat> {
    use clap::builder::TypedValueParser as _;
    let names: Vec<&'static str> = ToolsFormat::ALL.iter().map(|f| f.name()).collect();
    clap::builder::PossibleValuesParser::new(names)
        .map(|s: String| s.parse::<ToolsFormat>().unwrap_or(ToolsFormat::Mcp))
}

#[derive(Debug, clap::Args)]
pub(crate) struct ToolsArgs {
    /// The tools file: an MCP tools/list result (or its JSON-RPC response, or one Tool), an
    /// OpenAI Chat or Responses tools array, an Anthropic tools array, one declaration, or
    /// an API request body holding tools.
    #[arg(value_name = "FILE", required_unless_present = "example")]
    pub(crate) file: Option<PathBuf>,
    /// Read the example shipped with tooldojo (fixtures/tools/issue-tracker.json: three tools
    /// of an issue tracker, an MCP tools/list result) instead of a file.
    #[arg(long, conflicts_with = "file")]
    pub(crate) example: bool,
    /// One JSON object a line: each declaration (and each skipped entry) in file order.
    #[arg(long)]
    pub(crate) json: bool,
    /// Name the declarations' shape where two read alike (mcp, openai-chat,
    /// openai-responses, anthropic).
    #[arg(long, value_name = "F", value_parser = format_flag())]
    pub(crate) tools_format: Option<ToolsFormat>,
    /// Exit 1 when a declaration is refused by the validator or lets a trap through (a gate
    /// for CI); without it the exit is 0 whenever the file was read.
    #[arg(long)]
    pub(crate) fail_on_traps: bool,
}

/// Load a tools file for any command, its error as the command line says it.
pub(crate) fn load(
    file: &std::path::Path,
    format: Option<ToolsFormat>,
) -> Result<ToolSet, UserError> {
    ToolSet::read(file, format).map_err(|e| UserError::new(e.to_string()))
}

/// The shipped example tools file: its name (as the fixtures show it) and its declarations.
fn example(
    content: &super::ContentArgs,
    format: Option<ToolsFormat>,
) -> Result<(String, ToolSet), UserError> {
    let file = content
        .content()
        .fixtures
        .read(crate::content::TOOLS_EXAMPLE)?;
    let set = ToolSet::from_text(&file.text, format)
        .map_err(|e| UserError::new(format!("{}: {e}", file.display)))?;
    Ok((file.display, set))
}

pub(crate) fn run(args: ToolsArgs, content: &super::ContentArgs) -> super::CliResult {
    let (name, set) = match &args.file {
        Some(file) => (file.display().to_string(), load(file, args.tools_format)?),
        None => example(content, args.tools_format)?,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut sum = Summary::default();
    let written = if args.json {
        report::json_lines(&set, |r| sum.add(r))
            .try_for_each(|line| writeln!(out, "{}", dumps(&line)))
    } else {
        let mut numbers = false;
        write!(out, "{}", header(&name, &set))
            .and_then(|()| {
                (0..set.tools.len()).try_for_each(|i| {
                    let r = Report::of(&set, i);
                    numbers |= numeric_fix(&r);
                    sum.add(&r);
                    write!(out, "{}", human(&r))
                })
            })
            .and_then(|()| match numbers {
                true => write!(out, "\n{}\n", crate::tools::traps::fix::STAND_IN),
                false => Ok(()),
            })
            .and_then(|()| write!(out, "{}", sum.words(&name)))
    };
    match written.and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ if args.fail_on_traps && sum.failing() => Ok(ExitCode::from(1)),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// The whole file in a few numbers, for the report's last lines and `--fail-on-traps`.
#[derive(Default)]
struct Summary {
    declarations: usize,
    refused: usize,
    tried: usize,
    /// Each declaration that lets traps through: its name and how many.
    through: Vec<(String, usize)>,
    strict_openai: usize,
    strict_anthropic: usize,
}

/// How many declarations the summary names by name, most traps let through first.
const NAMED: usize = 5;

impl Summary {
    fn add(&mut self, r: &Report<'_>) {
        self.declarations += 1;
        self.refused += usize::from(!r.tool.honoured());
        self.tried += r.traps.traps.len();
        if r.traps.through() > 0 {
            self.through.push((r.tool.name.clone(), r.traps.through()));
        }
        self.strict_openai += usize::from(r.strict.openai.ok);
        self.strict_anthropic += usize::from(r.strict.anthropic.ok);
    }

    /// Does the file fail the gate of `--fail-on-traps`?
    fn failing(&self) -> bool {
        self.refused > 0 || !self.through.is_empty()
    }

    /// The summary after the declarations (nothing for a file with none).
    fn words(&self, file: &str) -> String {
        let mut s = String::new();
        if self.declarations == 0 {
            return s;
        }
        let n = self.declarations;
        s.push('\n');
        line(&mut s, &format!("summary of {file}"));
        line(
            &mut s,
            &format!(
                "  {}: {} honoured, {} refused",
                plural(n, "declaration", "declarations"),
                thousands(n - self.refused),
                thousands(self.refused)
            ),
        );
        let let_through: usize = self.through.iter().map(|t| t.1).sum();
        let mut traps = format!(
            "  traps: {} tried, {} let through",
            thousands(self.tried),
            thousands(let_through)
        );
        if !self.through.is_empty() {
            let mut most = self.through.clone();
            most.sort_by_key(|t| std::cmp::Reverse(t.1));
            let named: Vec<String> = most
                .iter()
                .take(NAMED)
                .map(|(name, k)| format!("{name} {}", thousands(*k)))
                .collect();
            let more = match most.len().saturating_sub(NAMED) {
                0 => String::new(),
                more => format!("; {} more", thousands(more)),
            };
            traps.push_str(&format!(
                ", by {} of the {} (the most: {}{more})",
                thousands(self.through.len()),
                thousands(n),
                named.join(", ")
            ));
        }
        line(&mut s, &traps);
        line(
            &mut s,
            &format!(
                "  strict mode ready: OpenAI {} of {}, Anthropic {} of {}",
                thousands(self.strict_openai),
                thousands(n),
                thousands(self.strict_anthropic),
                thousands(n)
            ),
        );
        s
    }
}

/// Does a trap the schema lets through get a fix with a number in it?
fn numeric_fix(r: &Report<'_>) -> bool {
    r.traps
        .traps
        .iter()
        .filter(|t| t.ok)
        .filter_map(|t| t.fix.as_ref())
        .any(|f| f.value.is_number())
}

/// Add `text` to `out` as one line, cleaned: what comes from the file (names, keys, enum
/// values, the validator's words about them) never reaches the terminal raw.
fn line(out: &mut String, text: &str) {
    out.push_str(&crate::sanitize::clean(text, false));
    out.push('\n');
}

/// The file's first lines: its shape and counts, the skipped entries and duplicate names.
fn header(file: &str, set: &ToolSet) -> String {
    let mut s = String::new();
    line(
        &mut s,
        &format!(
            "{file}: {}{}, {}, {} honoured",
            set.shape.describe(),
            if set.shape.named {
                " (named by --tools-format)"
            } else {
                ""
            },
            plural(set.tools.len(), "declaration", "declarations"),
            thousands(set.honoured())
        ),
    );
    for sk in &set.skipped {
        let name = sk
            .name
            .as_deref()
            .map(|n| format!(" {}", quote(n)))
            .unwrap_or_default();
        line(
            &mut s,
            &format!(
                "  skipped {}{name}: a {} tool, not a function",
                // A file of one entry has no place to name: it is the entry.
                if sk.at.is_empty() {
                    "the entry"
                } else {
                    &sk.at
                },
                quote(&sk.kind)
            ),
        );
    }
    for d in &set.duplicates {
        line(
            &mut s,
            &format!(
                "  duplicate name {}: {} and {} (a provider refuses such an array; both are read)",
                quote(&d.name),
                set.tools[d.first].place(),
                set.tools[d.again].place()
            ),
        );
    }
    s
}

fn verdict_line(out: &mut String, p: Provider, v: &Verdict) {
    if v.ok {
        return line(out, &format!("    {:<10} ready", p.label()));
    }
    line(
        out,
        &format!("    {:<10} not ready: {}", p.label(), v.reasons[0].message),
    );
    for r in &v.reasons[1..] {
        line(out, &format!("    {:<10}            {}", "", r.message));
    }
}

/// One declaration in words.
fn human(r: &Report<'_>) -> String {
    let t = r.tool;
    let mut s = String::new();
    let name = if t.name.is_empty() {
        "(no name)"
    } else {
        &t.name
    };
    s.push('\n');
    line(
        &mut s,
        &format!("{name}  ({}, {})", t.place(), t.format.label()),
    );
    if let Some(first) = &r.duplicate_of {
        line(
            &mut s,
            &format!("  the name repeats the declaration at {first}"),
        );
    }
    match t.refusal() {
        Some(why) => line(&mut s, &format!("  refused by the validator: {why}")),
        None => line(&mut s, "  honoured by the validator"),
    }
    let declared = if t.strict_declared() {
        " (the declaration asks for strict)"
    } else {
        ""
    };
    match r.strict.openai.reasons.first() {
        Some(not) if not.rule == StrictRule::NotRead => {
            line(&mut s, &format!("  strict mode{declared} {}", not.message));
        }
        _ => {
            line(&mut s, &format!("  strict mode{declared}"));
            verdict_line(&mut s, Provider::Openai, &r.strict.openai);
            verdict_line(&mut s, Provider::Anthropic, &r.strict.anthropic);
        }
    }
    traps(&mut s, r);
    if !r.hygiene.is_empty() {
        line(&mut s, "  hygiene");
        for n in &r.hygiene {
            line(&mut s, &format!("    {}", n.message));
        }
    }
    s
}

/// The trap report of one declaration: the counts, then each trap with its verdict.
fn traps(s: &mut String, r: &Report<'_>) {
    let traps = &r.traps;
    line(
        s,
        &format!(
            "  traps: {} tried, {} rejected, {} let through",
            traps.traps.len(),
            traps.traps.len() - traps.through(),
            traps.through()
        ),
    );
    if let Some(note) = &traps.note {
        line(s, &format!("    ({note})"));
    }
    for u in &traps.unjudged {
        line(
            s,
            &format!("    (not run on {u}: its valid example fails in place)"),
        );
    }
    for trap in &traps.traps {
        if !trap.ok {
            line(
                s,
                &format!("    rejected     {}: {}", trap.title(), trap.error),
            );
            continue;
        }
        // The whole arguments when they are short; else the member that got through,
        // with the rest abbreviated.
        let whole = dumps(&trap.args);
        let args = if crate::text::width(&whole) <= ARGS_WIDTH {
            whole
        } else {
            trap.short_args(ARGS_WIDTH)
        };
        line(s, &format!("    LET THROUGH  {}: {args}", trap.title()));
        match (&trap.fix, &trap.why) {
            (Some(f), _) => {
                line(s, &format!("                 fix: {}", f.text()));
                if let Some(cost) = f.cost_text() {
                    line(s, &format!("                      ({cost})"));
                }
            }
            (None, Some(w)) => line(s, &format!("                 no fix: {w}")),
            _ => {}
        }
    }
}
