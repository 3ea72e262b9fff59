//! Drawing helpers in one place, below the blocks, the player and every screen: lines for
//! a width (wrapped, prose, verdicts) and drawn from a scroll offset, names cut in the middle, the one JSON
//! highlighter, the frames (a bordered box, a popup over the screen, a full screen's head,
//! body and key bar), and the key bar itself. Nothing here knows the app or a block.

mod frame;
mod json;
pub mod keybar;
mod lines;
mod names;

pub use frame::{ScreenAreas, bordered, centered, popup, screen, text_popup};
pub use json::{highlight_json_line, highlight_json_text, wrap_json};
pub use lines::{
    above_mark, below_mark, dot, draw_lines, draw_scrolled, mark_cut, scroll_to, verdict_line,
    verdict_lines, wrap_prefixed, wrap_prefixed_with, wrap_rich,
};
pub use names::{Shared, cut_middle, shared};
