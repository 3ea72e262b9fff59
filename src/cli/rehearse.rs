//! `tooldojo rehearse`: open the app straight in the timed rehearsal drill.

use std::path::PathBuf;

use super::{ContentArgs, LangArg, TuiArgs};
use crate::course::rehearsal::DrillConfig;
use crate::error::UserError;

#[derive(Debug, clap::Args)]
pub(crate) struct RehearseArgs {
    /// Draw the questions with this seed (the same seed asks the same questions; default: from the clock).
    #[arg(long, value_name = "N")]
    pub(crate) seed: Option<u64>,
    /// Minutes on the countdown.
    #[arg(long, value_name = "M", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=240))]
    pub(crate) minutes: u32,
    /// Save the Markdown transcript here when the drill ends (never over an existing file
    /// or through a symbolic link, unless --force).
    #[arg(long, value_name = "FILE")]
    pub(crate) transcript: Option<PathBuf>,
    /// Let the transcript replace a file (or a link: the link itself) already at FILE.
    #[arg(long, requires = "transcript")]
    pub(crate) force: bool,
    /// Live rehearsal with a second person: answers and rubric stay hidden until the
    /// interviewer reveals them (r), and the interviewer scores.
    #[arg(long)]
    pub(crate) interviewer: bool,
    /// Alone, "let me think" mode: keep each answer's real outcome for the scorecard
    /// instead of showing it after the answer (v switches it during the drill).
    #[arg(long)]
    pub(crate) reveal_at_end: bool,
    /// The language of the write-it round: Python (validate_tool_args or execute_tool, as
    /// the seed picks) or JavaScript (executeTool).
    #[arg(long, value_enum, default_value = "python", value_name = "LANG")]
    pub(crate) lang: LangArg,
    #[command(flatten)]
    pub(crate) tui: TuiArgs,
}

pub(crate) fn run(args: RehearseArgs, content: &ContentArgs) -> super::CliResult {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() % 100_000)
            .unwrap_or(0)
    });
    // A transcript that could never be written is a bad flag: say so before the drill starts.
    if let Some(path) = &args.transcript {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        if !dir.is_dir() {
            return Err(UserError::new(format!(
                "--transcript {}: the directory {} does not exist",
                path.display(),
                dir.display()
            ))
            .into());
        }
        if let Err(e) = crate::safe_file::check(path, args.force) {
            return Err(UserError::new(format!("--transcript {}: {e}", path.display())).into());
        }
    }
    let mut drill = DrillConfig::new(seed, args.minutes);
    drill.transcript = args.transcript;
    drill.force = args.force;
    drill.interviewer = args.interviewer;
    drill.reveal_at_end = args.reveal_at_end;
    drill.lang = args.lang.into();
    drill.quits_app = true;
    let mut config = args.tui.config(content.content());
    config.drill = Some(drill);
    Ok(crate::tui::run(config)?)
}
