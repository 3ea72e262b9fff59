//! `tooldojo render`: one named screen drawn with the app's own drawing code into an
//! off-screen buffer, as plain text (one line per row, no escapes), and the names it knows.

use ratatui::layout::Rect;

use super::Config;
use super::screens;
use super::theme::{Theme, ThemeName};
use crate::error::UserError;

/// Every screen name `screen` accepts with this config's lessons and scenarios.
pub fn names(config: &Config) -> Result<Vec<String>, UserError> {
    let (_, env) = super::setup(config)?;
    let lessons = crate::course::load_lessons(&env.content).unwrap_or_default();
    let scenarios = screens::scenario_names(&env);
    Ok(screens::names(&lessons, &scenarios))
}

/// The screen `name` at `width` x `height` cells as text. The text has no colours, so the
/// theme is taken as named (`NO_COLOR` changes nothing); `--present` or the projector theme
/// give the presenter layout.
pub fn screen(config: &Config, name: &str, width: u16, height: u16) -> Result<String, UserError> {
    let (mut opts, env) = super::setup(config)?;
    let theme = config.theme.unwrap_or_default();
    opts.theme = Theme::new(theme, config.ascii);
    opts.present = config.present || theme == ThemeName::Projector;
    let lessons = crate::course::load_lessons(&env.content);
    let app = screens::build(name, opts, env, lessons, Rect::new(0, 0, width, height))?;
    let text = crate::text::screen_text(&screens::draw_to_buffer(&app));
    Ok(crate::sanitize::clean(&text, true))
}
