//! `tooldojo trace SCENARIO [--json] [--seed N] [--chrome FILE]`: run the real orchestrator
//! headless on virtual time and print its trace.

use std::io::Write;
use std::process::ExitCode;

use super::ContentArgs;
use crate::error::UserError;
use crate::orchestrator::{chrome_trace, load_scenario, run_blocking};

#[derive(Debug, clap::Args)]
pub(crate) struct TraceArgs {
    /// A scenario name (see fixtures/scenarios/) or a path to a scenario file.
    pub(crate) scenario: String,
    /// Print JSON Lines (one event per line) instead of the human timeline.
    #[arg(long)]
    pub(crate) json: bool,
    /// Seed for the retry jitter; the same scenario and seed print the same bytes.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Also write the run in the Chrome trace event format (open it in Perfetto).
    #[arg(long, value_name = "FILE")]
    pub(crate) chrome: Option<std::path::PathBuf>,
}

pub(crate) fn run(args: TraceArgs, content: &ContentArgs) -> super::CliResult {
    let content = content.content();
    let scenario = load_scenario(&content, &args.scenario)?;
    let run = run_blocking(&scenario, args.seed);
    if let Some(path) = &args.chrome {
        let doc = chrome_trace(&run);
        let text = crate::sanitize::escape_json_controls(serde_json::to_string(&doc)?);
        std::fs::write(path, text + "\n")
            .map_err(|e| UserError::new(format!("{}: {e}", path.display())))?;
    }
    // Scenario titles, notes, arguments and results are untrusted text: the human timeline
    // shows control and bidi characters as visible stand-ins (JSON escapes them itself).
    let text = if args.json {
        run.to_jsonl()
    } else {
        crate::sanitize::clean(&run.timeline(), true)
    };
    let mut out = std::io::stdout().lock();
    // A closed pipe (`| head`) is not an error worth a message.
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(e.into());
    }
    Ok(ExitCode::SUCCESS)
}
