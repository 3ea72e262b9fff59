//! The command line: one file per subcommand. Each prints its results and returns an exit
//! code; errors that are the user's to fix (`UserError`) print one line and exit 2.

pub(crate) mod audit;
pub(crate) mod check;
pub(crate) mod exec;
pub(crate) mod play;
pub(crate) mod practice;
pub(crate) mod rehearse;
pub(crate) mod render;
mod spelling;
pub(crate) mod tools;
pub(crate) mod trace;
pub(crate) mod validate;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::content::Content;
use crate::error::UserError;
pub(crate) use spelling::{LangArg, SafeguardArg, ThemeArg};

#[derive(Debug, Parser)]
#[command(
    name = "tooldojo",
    version,
    about = "A terminal dojo for one skill: never trust a tool call a model proposes.",
    long_about = None
)]
pub struct Cli {
    #[command(flatten)]
    pub(crate) content: ContentArgs,
    #[command(flatten)]
    pub(crate) tui: TuiArgs,
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

/// The names of the subcommands, read from the command-line definition (for the lesson
/// lint, which checks every `tooldojo NAME` a lesson writes).
pub fn command_names() -> Vec<String> {
    use clap::CommandFactory;
    Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .collect()
}

/// Where lessons and fixtures come from (every subcommand).
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct ContentArgs {
    /// Read lessons from this directory instead of the built-in ones (authoring: the app
    /// reloads a lesson when its file changes).
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) lessons: Option<PathBuf>,
    /// Read fixtures from this directory instead of the built-in ones.
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) fixtures: Option<PathBuf>,
}

impl ContentArgs {
    pub(crate) fn content(&self) -> Content {
        Content::new(self.lessons.as_deref(), self.fixtures.as_deref())
    }
}

/// How the app looks: every command that draws it takes these.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct ViewArgs {
    /// Colour theme; NO_COLOR in the environment implies mono.
    #[arg(long, value_enum)]
    pub(crate) theme: Option<ThemeArg>,
    /// Draw with ASCII only (borders, marks, bars).
    #[arg(long)]
    pub(crate) ascii: bool,
    /// Presenter mode: the big-screen layout, in the projector theme unless one is named
    /// (render draws the layout only); the app saves nothing and pages go a step at a time
    /// (Space), x/X reset.
    #[arg(long)]
    pub(crate) present: bool,
}

/// Options of the interactive app (no subcommand).
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct TuiArgs {
    #[command(flatten)]
    pub(crate) view: ViewArgs,
    /// Open this lesson (its id, e.g. 03-json-traps) where it was left, instead of the home screen.
    #[arg(long, value_name = "ID")]
    pub(crate) lesson: Option<String>,
    /// Use this ticket store (@FILE, the fixtures/tickets.json format).
    #[arg(long, value_name = "@FILE")]
    pub(crate) records: Option<String>,
    /// Forget all saved progress and start over.
    #[arg(long)]
    pub(crate) reset_progress: bool,
    /// A recorded log to audit from the home screen (A), as `tooldojo audit FILE --tui`
    /// plays it (repeat for more files).
    #[arg(long, value_name = "FILE")]
    pub(crate) audit: Vec<std::path::PathBuf>,
    /// Open on the Your tools screen with this tools file loaded (any shape `tools` reads).
    #[arg(long, value_name = "FILE")]
    pub(crate) tools: Option<PathBuf>,
    /// Name the shape of --tools where two read alike.
    #[arg(long, value_name = "F", requires = "tools", value_parser = tools::format_flag())]
    pub(crate) tools_format: Option<crate::tools::ToolsFormat>,
}

impl TuiArgs {
    /// The first flag set here, by name: these flags open the app, so beside a subcommand
    /// they are a mistake to name (`--lessons` and `--fixtures` go anywhere).
    fn first_set(&self) -> Option<&'static str> {
        [
            ("--theme", self.view.theme.is_some()),
            ("--ascii", self.view.ascii),
            ("--present", self.view.present),
            ("--lesson", self.lesson.is_some()),
            ("--records", self.records.is_some()),
            ("--reset-progress", self.reset_progress),
            ("--audit", !self.audit.is_empty()),
            ("--tools", self.tools.is_some()),
        ]
        .into_iter()
        .find_map(|(name, set)| set.then_some(name))
    }

    /// The app's plain config: what was parsed, plus where content comes from.
    pub(crate) fn config(&self, content: Content) -> crate::tui::Config {
        crate::tui::Config {
            theme: self.view.theme.map(Into::into),
            ascii: self.view.ascii,
            present: self.view.present,
            lesson: self.lesson.clone(),
            records: self.records.clone(),
            reset_progress: self.reset_progress,
            drill: None,
            content,
            play: None,
            audit: None,
            open_audit: false,
            tools: None,
        }
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the validator on one set of arguments or on JSON lines.
    Validate(validate::ValidateArgs),
    /// Run the get_ticket executor on one call or on JSON lines.
    Exec(exec::ExecArgs),
    /// Run every fixture row, scenario and lesson through the real code.
    Check(check::CheckArgs),
    /// Run the orchestrator headless on a scenario and print its trace.
    Trace(trace::TraceArgs),
    /// Draw one screen of the app as plain text.
    Render(render::RenderArgs),
    /// Open the app straight in the full-screen trace player on a scenario.
    Play(play::PlayArgs),
    /// Grade your own validate_tool_args / execute_tool (Python) or executeTool (JavaScript),
    /// or write a starter file to fill in.
    Practice(practice::PracticeArgs),
    /// Open the app in a timed rehearsal drill (predict, explain, write it; then a scorecard).
    Rehearse(rehearse::RehearseArgs),
    /// Check every tool call in recorded conversations again (Anthropic, OpenAI, MCP logs).
    Audit(audit::AuditArgs),
    /// Your own tools file: each declaration honoured or refused, strict readiness, the traps
    /// a model could slip through and the fix for each.
    Tools(tools::ToolsArgs),
}

impl Command {
    /// The subcommand's name as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Validate(_) => "validate",
            Command::Exec(_) => "exec",
            Command::Check(_) => "check",
            Command::Trace(_) => "trace",
            Command::Render(_) => "render",
            Command::Play(_) => "play",
            Command::Practice(_) => "practice",
            Command::Rehearse(_) => "rehearse",
            Command::Audit(_) => "audit",
            Command::Tools(_) => "tools",
        }
    }
}

/// Parse flags, run, and turn the outcome into an exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(Failure::User(user)) => {
            print_err(&format!(
                "tooldojo: {}",
                crate::sanitize::clean(&user.message, false)
            ));
            ExitCode::from(2)
        }
        Err(Failure::Internal(err)) => {
            print_err(&format!("tooldojo: {err:?}"));
            ExitCode::from(2)
        }
    }
}

/// Why a command could not do its job. A user error (a bad flag, a file that does not parse,
/// input that cannot be read) is one line and never a crash, so it carries no backtrace: only
/// an internal failure goes through color-eyre, which captures one when `RUST_BACKTRACE` asks.
#[derive(Debug)]
pub(crate) enum Failure {
    User(UserError),
    Internal(color_eyre::Report),
}

/// What every subcommand returns: its exit code, or why it could not run.
pub(crate) type CliResult = Result<ExitCode, Failure>;

impl From<UserError> for Failure {
    fn from(err: UserError) -> Self {
        Failure::User(err)
    }
}

/// A report whose cause is the user's to fix (say, `--lesson` naming no lesson, found
/// inside the app's start) is still one line without a backtrace.
impl From<color_eyre::Report> for Failure {
    fn from(err: color_eyre::Report) -> Self {
        match err.downcast::<UserError>() {
            Ok(user) => Failure::User(user),
            Err(err) => Failure::Internal(err),
        }
    }
}

/// Reading input or writing output failed (an unreadable file, invalid UTF-8 on stdin, a
/// closed pipe): the user's to fix, said in one line.
impl From<std::io::Error> for Failure {
    fn from(err: std::io::Error) -> Self {
        Failure::User(UserError::new(err.to_string()))
    }
}

impl From<serde_json::Error> for Failure {
    fn from(err: serde_json::Error) -> Self {
        Failure::Internal(err.into())
    }
}

pub(crate) fn run(cli: Cli) -> CliResult {
    let content = cli.content.clone();
    if let (Some(command), Some(flag)) = (&cli.command, cli.tui.first_set()) {
        return Err(UserError::new(format!(
            "{flag} before a subcommand is not read: put it after `tooldojo {0}` if that \
             subcommand takes it (see `tooldojo {0} --help`)",
            command.name()
        ))
        .into());
    }
    match cli.command {
        Some(Command::Validate(args)) => validate::run(args, &content),
        Some(Command::Exec(args)) => exec::run(args, &content),
        Some(Command::Check(args)) => check::run(args, &content),
        Some(Command::Trace(args)) => trace::run(args, &content),
        Some(Command::Render(args)) => render::run(args, &content),
        Some(Command::Play(args)) => play::run(args, &content),
        Some(Command::Practice(args)) => practice::run(args, &content),
        Some(Command::Rehearse(args)) => rehearse::run(args, &content),
        Some(Command::Audit(args)) => audit::run(args, &content),
        Some(Command::Tools(args)) => tools::run(args, &content),
        None => {
            let mut config = cli.tui.config(content.content());
            if let Some(path) = &cli.tui.tools {
                let file = crate::tools::ToolsFile::read(path, cli.tui.tools_format)
                    .map_err(|e| UserError::new(e.to_string()))?;
                config.tools = Some(file);
            }
            if !cli.tui.audit.is_empty() {
                config.audit = Some(audit::log(&cli.tui.audit)?);
            }
            Ok(crate::tui::run(config)?)
        }
    }
}

/// Write `text` to stdout. A reader that closed the pipe early (`| head`) is not an error:
/// the command has done its job for it.
pub(crate) fn print_out(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// Write `text` and a newline to stderr. A stderr that is closed or full (`2>&1 | true`) has
/// no one left to tell, so it is never a reason to fail or crash: the exit code says the rest.
pub(crate) fn print_err(text: &str) {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    let _ = err
        .write_all(text.as_bytes())
        .and_then(|()| err.write_all(b"\n"));
}

/// Read `@path` as a file or take the text inline.
pub(crate) fn inline_or_file(value: &str) -> Result<(String, String), UserError> {
    match value.strip_prefix('@') {
        Some(path) => crate::input::read_text(
            std::path::Path::new(path),
            crate::input::MAX_FILE_BYTES,
            path,
        )
        .map(|t| (path.to_owned(), t)),
        None => Ok(("<inline>".to_owned(), value.to_owned())),
    }
}
