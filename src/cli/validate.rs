//! `tooldojo validate`.

use std::process::ExitCode;

use super::ContentArgs;

#[derive(Debug, clap::Args)]
pub struct ValidateArgs {}

pub fn run(args: ValidateArgs, content: &ContentArgs) -> color_eyre::Result<ExitCode> {
    let _ = (args, content);
    Err(crate::error::UserError::new("`validate` is not built yet").into())
}
