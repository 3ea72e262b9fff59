//! `tooldojo trace SCENARIO [--json] [--seed N] [--chrome FILE]`: run the real orchestrator
//! headless on virtual time and print its trace.

use std::io::Write;
use std::process::ExitCode;

use super::ContentArgs;
use crate::error::UserError;
use crate::orchestrator::{load_scenario, run_blocking, write_chrome_trace};

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
        // Streamed event by event: memory does not grow with the length of the run.
        let failed = |e: std::io::Error| UserError::new(format!("{}: {e}", path.display()));
        let file = std::fs::File::create(path).map_err(failed)?;
        let mut out = std::io::BufWriter::new(file);
        write_chrome_trace(&run, &mut out)
            .and_then(|()| out.flush())
            .map_err(failed)?;
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if args.json {
        run.write_jsonl(&mut out)
    } else {
        // Scenario titles, notes, arguments and results are untrusted text: the human
        // timeline shows control and bidi characters as visible stand-ins (JSON escapes
        // them itself).
        out.write_all(crate::sanitize::clean(&run.timeline(), true).as_bytes())
    };
    // A closed pipe (`| head`) is not an error worth a message.
    if let Err(e) = written.and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(e.into());
    }
    Ok(ExitCode::SUCCESS)
}
