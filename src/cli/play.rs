//! `tooldojo play SCENARIO|FILE [--seed N] [--speed X] [--theme T] [--present]`: open the app
//! straight in the full-screen trace player on a real orchestrator run. The scenario is read
//! before the terminal is touched, so a bad name or file exits 2 with a plain message.

use super::{ContentArgs, ViewArgs};
use crate::error::UserError;
use crate::orchestrator::load_scenario;
use crate::replay::ScenarioSource;

#[derive(Debug, clap::Args)]
pub(crate) struct PlayArgs {
    /// A scenario name (see fixtures/scenarios/) or a path to a scenario file.
    pub(crate) scenario: String,
    /// Seed for the retry jitter (the same seed replays the same run).
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Playback speed: 0.25, 0.5, 1, 2, 4 or 8 (others go to the nearest). Default 1, or
    /// with --present the speed that makes the run last about ten seconds.
    #[arg(long)]
    pub(crate) speed: Option<f64>,
    #[command(flatten)]
    pub(crate) view: ViewArgs,
}

pub(crate) fn run(args: PlayArgs, content: &ContentArgs) -> super::CliResult {
    if let Some(speed) = args.speed
        && !(0.25..=8.0).contains(&speed)
    {
        return Err(UserError::new(format!(
            "--speed {speed}: choose from 0.25 to 8 (0.25, 0.5, 1, 2, 4, 8)"
        ))
        .into());
    }
    let content = content.content();
    let scenario = load_scenario(&content, &args.scenario)?;
    let config = crate::tui::Config {
        theme: args.view.theme.map(Into::into),
        ascii: args.view.ascii,
        present: args.view.present,
        play: Some(crate::tui::Play {
            source: std::sync::Arc::new(ScenarioSource::new(scenario, args.seed)),
            speed: args.speed,
        }),
        ..crate::tui::Config::new(content)
    };
    Ok(crate::tui::run(config)?)
}
