//! `tooldojo exec`.

use std::process::ExitCode;

use super::ContentArgs;

#[derive(Debug, clap::Args)]
pub struct ExecArgs {}

pub fn run(args: ExecArgs, content: &ContentArgs) -> color_eyre::Result<ExitCode> {
    let _ = (args, content);
    Err(crate::error::UserError::new("`exec` is not built yet").into())
}
