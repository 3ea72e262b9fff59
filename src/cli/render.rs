//! `tooldojo render SCREEN`: draw one screen of the app, with the app's own drawing code,
//! into an off-screen buffer and print it as plain text (one line per row, no escapes).

use std::process::ExitCode;

use ratatui::layout::Rect;

use super::ContentArgs;
use crate::error::UserError;
use crate::tui::theme::ThemeName;
use crate::tui::{app, screens};

#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// The screen to draw (see --list), e.g. `lesson:01-untrusted-input#2` or `trace:deadline@1200`.
    #[arg(required_unless_present = "list")]
    pub screen: Option<String>,
    /// List the screen names and exit.
    #[arg(long)]
    pub list: bool,
    /// Width x height in cells.
    #[arg(long, value_name = "WxH", default_value = "80x24")]
    pub size: String,
    #[arg(long, value_enum)]
    pub theme: Option<ThemeName>,
    /// Draw with ASCII only.
    #[arg(long)]
    pub ascii: bool,
    /// Presenter layout (implied by --theme projector).
    #[arg(long)]
    pub present: bool,
    /// Ticket store for predict tables and the executor playground (@FILE).
    #[arg(long, value_name = "@FILE")]
    pub records: Option<String>,
}

/// Parse `WxH`.
pub(crate) fn parse_size(s: &str) -> Result<(u16, u16), UserError> {
    let bad = || UserError::new(format!("--size {s:?}: expected WIDTHxHEIGHT, e.g. 80x24"));
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u16 = w.trim().parse().map_err(|_| bad())?;
    let h: u16 = h.trim().parse().map_err(|_| bad())?;
    if w == 0 || h == 0 || u32::from(w) * u32::from(h) > 1_000_000 {
        return Err(bad());
    }
    Ok((w, h))
}

pub fn run(args: RenderArgs, content: &ContentArgs) -> super::CliResult {
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
    let lessons = app::load_lessons(&env.content);
    if args.list {
        let scenarios = screens::scenario_names(&env);
        for name in screens::names(&lessons.clone().unwrap_or_default(), &scenarios) {
            println!("{name}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (w, h) = parse_size(&args.size)?;
    let screen = args.screen.unwrap_or_default();
    let app = screens::build(&screen, opts, env, lessons, Rect::new(0, 0, w, h))?;
    let text = crate::text::screen_text(&screens::draw_to_buffer(&app));
    print!("{}", crate::sanitize::clean(&text, true));
    Ok(ExitCode::SUCCESS)
}
