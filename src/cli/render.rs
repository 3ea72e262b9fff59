//! `tooldojo render SCREEN`: draw one screen of the app, with the app's own drawing code,
//! into an off-screen buffer and print it as plain text (one line per row, no escapes).

use std::process::ExitCode;

use ratatui::layout::Rect;

use super::ContentArgs;
use crate::error::UserError;
use crate::tui::screens;
use crate::tui::theme::ThemeName;

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
    #[arg(long, value_enum)]
    pub(crate) theme: Option<ThemeName>,
    /// Draw with ASCII only.
    #[arg(long)]
    pub(crate) ascii: bool,
    /// Presenter layout (implied by --theme projector).
    #[arg(long)]
    pub(crate) present: bool,
    /// Ticket store for predict tables and the executor playground (@FILE).
    #[arg(long, value_name = "@FILE")]
    pub(crate) records: Option<String>,
}

/// The largest screen `render` draws: a side fits a terminal's `u16`, the whole stays small.
const MAX_SIDE: u64 = u16::MAX as u64;
const MAX_CELLS: u64 = 1_000_000;

/// Parse `WxH`.
pub(crate) fn parse_size(s: &str) -> Result<(u16, u16), UserError> {
    let bad = || UserError::new(format!("--size {s:?}: expected WIDTHxHEIGHT, e.g. 80x24"));
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
        // The text output has no colours: NO_COLOR changes nothing, so the theme is taken as named.
        theme: Some(args.theme.unwrap_or_default()),
        ascii: args.ascii,
        present: args.present,
        records: args.records.clone(),
        ..crate::tui::Config::new(content.content())
    };
    let (mut opts, env) = crate::tui::setup(&config)?;
    opts.theme = crate::tui::theme::Theme::new(args.theme.unwrap_or_default(), args.ascii);
    opts.present = args.present || opts.theme.name == ThemeName::Projector;
    let lessons = crate::course::load_lessons(&env.content);
    if args.list {
        let scenarios = screens::scenario_names(&env);
        let mut list = String::new();
        for name in screens::names(&lessons.clone().unwrap_or_default(), &scenarios) {
            list.push_str(&name);
            list.push('\n');
        }
        super::print_out(&list)?;
        return Ok(ExitCode::SUCCESS);
    }
    let (w, h) = parse_size(&args.size)?;
    let screen = args.screen.unwrap_or_default();
    let app = screens::build(&screen, opts, env, lessons, Rect::new(0, 0, w, h))?;
    let text = crate::text::screen_text(&screens::draw_to_buffer(&app));
    super::print_out(&crate::sanitize::clean(&text, true))?;
    Ok(ExitCode::SUCCESS)
}
