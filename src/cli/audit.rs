//! `tooldojo audit FILE...|--example [--tools FILE] [--format F]
//! [--limits turns=N,calls=N,repairs=N] [--json]`: every tool call in recorded
//! conversations, checked again. Every file is opened before anything is printed, so a
//! missing one exits 2 with nothing half written; a record that cannot be read is reported
//! with its line and the run goes on.

use std::io::{self, Read};
use std::process::ExitCode;
use std::sync::Arc;

use clap::builder::TypedValueParser as _;

use crate::audit::jsonl::JsonSink;
use crate::audit::listing::Listing;
use crate::audit::report::Report;
use crate::audit::{self, Audit, Catalog, Conversation, Format, Limits, Place, Sink, Totals};
use crate::error::UserError;
use crate::tools::ToolsFormat;

fn format_flag() -> impl clap::builder::TypedValueParser<Value = Format> {
    let names: Vec<&'static str> = Format::ALL.iter().map(|f| f.name()).collect();
    clap::builder::PossibleValuesParser::new(names)
        .map(|s: String| Format::parse(&s).unwrap_or(Format::OpenaiChat))
}

#[derive(Debug, clap::Args)]
pub(crate) struct AuditArgs {
    /// Recorded conversations: files of one record or JSON Lines of records (`-` for stdin).
    #[arg(required_unless_present = "example", value_name = "FILE")]
    pub(crate) files: Vec<String>,
    /// Audit the log shipped with tooldojo (fixtures/audit/support-desk.jsonl: four
    /// conversations of a support agent) instead of files.
    #[arg(long, conflicts_with = "files")]
    pub(crate) example: bool,
    /// Declarations for records that carry none (an MCP tools/list result, an OpenAI or
    /// Anthropic tools array, a request body holding one); give it again for more files
    /// (a name declared twice is judged by its first declaration).
    #[arg(long, value_name = "FILE")]
    pub(crate) tools: Vec<String>,
    /// The shape of the --tools file's declarations, where two shapes read alike (mcp,
    /// openai-chat, openai-responses, anthropic).
    #[arg(long, value_name = "F", value_parser = super::tools::format_flag(), requires = "tools")]
    pub(crate) tools_format: Option<ToolsFormat>,
    /// The format of every record, instead of recognising each one.
    #[arg(long, value_name = "F", value_parser = format_flag())]
    pub(crate) format: Option<Format>,
    /// Budgets each conversation is held to, e.g. turns=20,calls=40,repairs=2.
    #[arg(long, value_name = "turns=N,calls=N,repairs=N", value_parser = limits_flag)]
    pub(crate) limits: Option<Limits>,
    /// JSON lines: one a call, one a conversation, then a summary.
    #[arg(long, conflicts_with = "tui")]
    pub(crate) json: bool,
    /// Open the app on the log: its conversations listed, each played in the trace player.
    #[arg(long)]
    pub(crate) tui: bool,
    #[command(flatten)]
    pub(crate) view: super::ViewArgs,
}

fn limits_flag(s: &str) -> Result<Limits, String> {
    s.parse()
}

/// An input opened: its name for places, and its reader.
struct Input {
    name: String,
    reader: Box<dyn Read>,
}

fn open(files: &[String]) -> Result<Vec<Input>, UserError> {
    let mut out = Vec::new();
    let mut stdin_taken = false;
    for f in files {
        if f == "-" {
            if stdin_taken {
                return Err(UserError::new("`-` (stdin) is named twice"));
            }
            stdin_taken = true;
            out.push(Input {
                name: "<stdin>".to_owned(),
                reader: Box::new(io::stdin()),
            });
            continue;
        }
        let file = std::fs::File::open(f).map_err(|e| UserError::new(format!("{f}: {e}")))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(UserError::new(format!(
                "{f}: is a directory, not a file of records"
            )));
        }
        out.push(Input {
            name: f.clone(),
            reader: Box::new(file),
        });
    }
    Ok(out)
}

/// The `--tools` files, read by the tool loader, as one list (`None` when none is given).
fn tools(paths: &[String], format: Option<ToolsFormat>) -> Result<Option<Catalog>, UserError> {
    if paths.is_empty() {
        return Ok(None);
    }
    let paths: Vec<&std::path::Path> = paths.iter().map(std::path::Path::new).collect();
    Catalog::read_all(&paths, format)
        .map(Some)
        .map_err(UserError::new)
}

/// A sink that also says on stderr which records could not be read.
struct Noting<'a, S: Sink>(&'a mut S);

impl<S: Sink> Sink for Noting<'_, S> {
    fn conversation(&mut self, conv: &Conversation) -> io::Result<()> {
        self.0.conversation(conv)
    }

    fn bad_record(&mut self, place: Place, why: String) -> io::Result<()> {
        say_bad(&place, &why);
        self.0.bad_record(place, why)
    }

    fn not_json(&mut self, place: Place, at: (usize, usize), what: String) -> io::Result<()> {
        // `FILE:LINE:COL: not JSON: what`, as every loader says it.
        let said = crate::input::not_json(&place.file, at.0, at.1, &what);
        super::print_err(&format!(
            "tooldojo: {}",
            crate::sanitize::clean(&said, false)
        ));
        self.0.not_json(place, at, what)
    }
}

/// On stderr, a record that could not be read and why.
fn say_bad(place: &Place, why: &str) {
    super::print_err(&format!(
        "tooldojo: {}",
        crate::sanitize::clean(&format!("{place}: {why}"), false)
    ));
}

/// The log of `files` listed for the app, read before the terminal is touched.
pub(crate) fn log(files: &[std::path::PathBuf]) -> Result<Listing, UserError> {
    log_with(files, None, Limits::default(), None)
}

fn log_with(
    files: &[std::path::PathBuf],
    format: Option<Format>,
    limits: Limits,
    tools: Option<Arc<Catalog>>,
) -> Result<Listing, UserError> {
    if files.iter().any(|f| f.as_os_str() == "-") {
        return Err(UserError::new(
            "the app reads the log again to play a conversation: name a file, not - (stdin)",
        ));
    }
    let listing = Listing::read(files, format, limits, tools).map_err(UserError::new)?;
    if listing.totals.records == 0 && listing.totals.bad_records > 0 {
        // Why, as `tooldojo audit` says it, for the records the listing kept.
        for (place, why) in &listing.bad {
            say_bad(place, why);
        }
        let unsaid = listing.totals.bad_records.saturating_sub(listing.bad.len());
        if unsaid > 0 {
            super::print_err(&format!(
                "tooldojo: ... and {} more records that could not be read",
                crate::text::thousands(unsaid)
            ));
        }
        return Err(UserError::new(format!(
            "no record could be read ({} bad)",
            listing.totals.bad_records
        )));
    }
    Ok(listing)
}

/// The shipped example log: its name (as the fixtures show it) and its text.
fn example(content: &super::ContentArgs) -> Result<(String, String), UserError> {
    let file = content
        .content()
        .fixtures
        .read(crate::content::AUDIT_EXAMPLE)?;
    Ok((file.display, file.text))
}

pub(crate) fn run(args: AuditArgs, content: &super::ContentArgs) -> super::CliResult {
    let catalog = tools(&args.tools, args.tools_format)?.map(Arc::new);
    let example = args.example.then(|| example(content)).transpose()?;
    if args.tui {
        let files: Vec<std::path::PathBuf> = args.files.iter().map(Into::into).collect();
        let limits = args.limits.unwrap_or_default();
        let log = match example {
            Some((name, text)) => {
                Listing::from_text_with(&name, text.into(), args.format, limits, catalog)
            }
            None => log_with(&files, args.format, limits, catalog)?,
        };
        let config = crate::tui::Config {
            theme: args.view.theme.map(Into::into),
            ascii: args.view.ascii,
            present: args.view.present,
            audit: Some(log),
            open_audit: true,
            ..crate::tui::Config::new(content.content())
        };
        return Ok(crate::tui::run(config)?);
    }
    let inputs = match example {
        Some((name, text)) => vec![Input {
            name,
            reader: Box::new(io::Cursor::new(text.into_bytes())),
        }],
        None => open(&args.files)?,
    };
    let opts = audit::Options {
        format: args.format,
        limits: args.limits.unwrap_or_default(),
        keep: false,
        excerpts: !args.json,
    };
    let totals = if args.json {
        let out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
        let mut sink = JsonSink::new(out);
        let totals = each(inputs, opts, catalog, &mut Noting(&mut sink))?;
        quiet_pipe(sink.finish(&totals).map(|_| ()))?;
        totals
    } else {
        let names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
        let mut report = Report::new(&names);
        let totals = each(inputs, opts, catalog, &mut Noting(&mut report))?;
        let mut text = Vec::new();
        report.write(&totals, &mut text)?;
        super::print_out(&String::from_utf8_lossy(&text))?;
        totals
    };
    if totals.records == 0 && totals.bad_records > 0 {
        return Err(UserError::new(format!(
            "no record could be read ({} bad)",
            totals.bad_records
        ))
        .into());
    }
    Ok(ExitCode::SUCCESS)
}

/// Audit every input into `sink`.
fn each(
    inputs: Vec<Input>,
    opts: audit::Options,
    catalog: Option<Arc<Catalog>>,
    sink: &mut dyn Sink,
) -> Result<Totals, super::Failure> {
    let mut run = Audit::new(opts, catalog, sink);
    for input in inputs {
        let result = run.read(&input.name, input.reader);
        quiet_pipe(result.map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => e,
            _ => io::Error::new(e.kind(), format!("{}: {e}", input.name)),
        }))?;
    }
    Ok(run.totals)
}

/// A reader that closed the pipe early (`| head`) is no error.
fn quiet_pipe(r: io::Result<()>) -> Result<(), super::Failure> {
    match r {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(e.into()),
        Ok(()) => Ok(()),
    }
}
