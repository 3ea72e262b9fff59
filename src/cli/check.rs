//! `tooldojo check`.

use std::process::ExitCode;

use super::ContentArgs;

#[derive(Debug, clap::Args)]
pub struct CheckArgs {}

pub fn run(args: CheckArgs, content: &ContentArgs) -> color_eyre::Result<ExitCode> {
    let _ = (args, content);
    Err(crate::error::UserError::new("`check` is not built yet").into())
}
