//! `tooldojo render SCREEN`: draw one screen of the app, with the app's own drawing code,
//! into an off-screen buffer and print it as plain text (one line per row, no escapes).

use std::process::ExitCode;

use super::{ContentArgs, ViewArgs};
use crate::error::UserError;

#[derive(Debug, clap::Args)]
pub(crate) struct RenderArgs {
    /// The screen to draw (see --list), e.g. `lesson:01-untrusted-input#2` or `trace:deadline@1200`.
    #[arg(required_unless_present = "list")]
    pub(crate) screen: Option<String>,
    /// List the screen names and exit.
    #[arg(long)]
    pub(crate) list: bool,
    /// Width x height in cells.
    #[arg(long, value_name = "WxH", default_value = "80x24")]
    pub(crate) size: String,
    #[command(flatten)]
    pub(crate) view: ViewArgs,
    /// Ticket store for predict tables and the executor playground (@FILE).
    #[arg(long, value_name = "@FILE")]
    pub(crate) records: Option<String>,
}

/// The largest screen `render` draws: a side fits a terminal's `u16`, the whole stays small.
const MAX_SIDE: u64 = u16::MAX as u64;
const MAX_CELLS: u64 = 1_000_000;

/// Parse `WxH`.
pub(crate) fn parse_size(s: &str) -> Result<(u16, u16), UserError> {
    let bad = || {
        UserError::new(format!(
            "--size {}: expected WIDTHxHEIGHT, e.g. 80x24",
            crate::sanitize::quote(s)
        ))
    };
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let number = |t: &str| -> Result<u64, UserError> {
        let t = t.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        // Digits only: a number too long for u64 is simply too large.
        Ok(t.parse().unwrap_or(u64::MAX))
    };
    let (w, h) = (number(w)?, number(h)?);
    if w == 0 || h == 0 {
        return Err(UserError::new(format!(
            "--size {s:?}: the width and the height must be at least 1"
        )));
    }
    let too_large = || {
        UserError::new(format!(
            "--size {s:?} is too large: at most {MAX_SIDE} cells a side and {MAX_CELLS} cells in all (e.g. 1000x1000)"
        ))
    };
    if w > MAX_SIDE || h > MAX_SIDE || w * h > MAX_CELLS {
        return Err(too_large());
    }
    Ok((w as u16, h as u16))
}

pub(crate) fn run(args: RenderArgs, content: &ContentArgs) -> super::CliResult {
    let config = crate::tui::Config {
        theme: args.view.theme.map(Into::into),
        ascii: args.view.ascii,
        present: args.view.present,
        records: args.records.clone(),
        ..crate::tui::Config::new(content.content())
    };
    if args.list {
        let mut list = String::new();
        for name in crate::tui::render::names(&config)? {
            list.push_str(&name);
            list.push('\n');
        }
        super::print_out(&list)?;
        return Ok(ExitCode::SUCCESS);
    }
    let (w, h) = parse_size(&args.size)?;
    let screen = args.screen.unwrap_or_default();
    super::print_out(&crate::tui::render::screen(&config, &screen, w, h)?)?;
    Ok(ExitCode::SUCCESS)
}
