//! `tooldojo trace`.

use std::process::ExitCode;

use super::ContentArgs;

#[derive(Debug, clap::Args)]
pub struct TraceArgs {}

pub fn run(args: TraceArgs, content: &ContentArgs) -> color_eyre::Result<ExitCode> {
    let _ = (args, content);
    Err(crate::error::UserError::new("`trace` is not built yet").into())
}
