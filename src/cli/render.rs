//! `tooldojo render`.

use std::process::ExitCode;

use super::ContentArgs;

#[derive(Debug, clap::Args)]
pub struct RenderArgs {}

pub fn run(args: RenderArgs, content: &ContentArgs) -> color_eyre::Result<ExitCode> {
    let _ = (args, content);
    Err(crate::error::UserError::new("`render` is not built yet").into())
}
