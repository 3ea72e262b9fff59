//! What every block is to the page: the `BlockWidget` trait, what a key did to a block,
//! a key hint for the key bar, and what a block may read while drawing.

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::tui::theme::Theme;

/// Everything a block may read while drawing.
pub struct RenderCtx<'a> {
    pub theme: &'a Theme,
    /// The block has keyboard focus (draw the focus border, the cursor).
    pub focused: bool,
    /// The block is "entered": keys go to it (an editor is typing).
    pub active: bool,
    /// Presenter mode: shown to a room, nothing asked or scored (no score, no guesses).
    pub demo: bool,
}

/// What a key did to a block. `#[must_use]`: the reader decides what to redraw / save.
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockOutcome {
    /// Not a key this block handles; the reader may use it.
    Ignored,
    /// Handled; state changed; redraw (and save progress).
    Changed,
    /// Handled but nothing to save (cursor moves inside an editor count as Changed too).
    Consumed,
    /// The block gives focus back to the page (Esc inside a block).
    Release,
}

/// What a paste did to a block.
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pasted {
    pub outcome: BlockOutcome,
    /// The text was longer than the editor takes: only its start went in.
    pub cut: bool,
}

impl Pasted {
    pub const IGNORED: Pasted = Pasted {
        outcome: BlockOutcome::Ignored,
        cut: false,
    };
}

/// One key and what it does, for the key bar and the help overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyHint {
    pub keys: &'static str,
    pub what: &'static str,
}

impl KeyHint {
    pub const fn new(keys: &'static str, what: &'static str) -> KeyHint {
        KeyHint { keys, what }
    }
}

pub trait BlockWidget {
    /// Short title for the block's border ("Predict: get_ticket").
    fn title(&self) -> String;
    /// The height this block wants at `width` columns when drawn inline in a page.
    fn height(&self, width: u16) -> u16;
    fn render(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx);
    /// Only key presses reach here. `active` says whether the block was entered with Enter.
    fn handle_key(&mut self, key: KeyEvent, active: bool) -> BlockOutcome;
    /// Keys for the key bar while this block has focus.
    fn key_hints(&self, active: bool) -> Vec<KeyHint>;
    /// Pasted text while the block is entered: blocks that take text insert it as one edit.
    fn handle_paste(&mut self, text: &str) -> Pasted {
        let _ = text;
        Pasted::IGNORED
    }
    /// True when the block takes typed text while active (then `q`, `n`, `?` type).
    fn captures_text(&self) -> bool {
        false
    }
    /// Progress to persist (predictions, ticks, editor text...).
    fn save(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    fn restore(&mut self, state: &serde_json::Value) {
        let _ = state;
    }
    /// The learner finished it (every row revealed, quiz answered, ...).
    fn is_done(&self) -> bool {
        false
    }
    /// What is still to do before `is_done` holds, each entry a phrase that reads on its
    /// own in a list of several blocks (`"predict rows 4-8"`, `"2 checklist items"`,
    /// `"the playground (switch a rule)"`), for the lesson list and the block's done mark.
    /// Empty when done, or when the block has nothing more precise to say than its kind
    /// (the reader then names the block: "the checklist").
    fn remaining(&self) -> Vec<String> {
        Vec::new()
    }
    /// Presenter mode: from now on the block is shown to a room (its keys and hints as
    /// presenter mode has them). Told once, when the app builds it.
    fn show_to_room(&mut self) {}
    /// Presenter mode: show the next step without asking the learner anything (the next
    /// row's real verdict, with no prediction and no score). Returns false when there is
    /// nothing more to show, so the presenter's key moves on past the block.
    fn present_step(&mut self) -> bool {
        false
    }
    /// Presenter mode: take back the last step `present_step` took (hide the row it showed,
    /// put a played trace back at its start, untick the item ticked last, by hand or by a
    /// step), leaving everything else as it is (rows looked at, a schema shown whole, items
    /// ticked before). False when there is none.
    fn present_unstep(&mut self) -> bool {
        false
    }
    /// Presenter mode: the steps `present_step` has taken and the steps it has in all
    /// (table rows, checklist items, a trace played, paused or not), for the step counter.
    fn present_progress(&self) -> (usize, usize) {
        (0, 0)
    }
    /// The height this block wants at `width` columns when the page's view is
    /// `available_rows` tall: a block that can use more room (a longer pane, a wider
    /// detail) may grow into it, and one that would not fit may shrink to scroll inside.
    /// The default is `height(width)`.
    fn height_for(&self, width: u16, available_rows: u16) -> u16 {
        let _ = available_rows;
        self.height(width)
    }
    /// Alone on a page shorter than the view, the block may take the rows left over (it
    /// draws into whatever height it is given).
    fn fills_room(&self) -> bool {
        false
    }
    /// Is the block animating (the loop ticks only while a block on screen says so)?
    fn animating(&self) -> bool {
        false
    }
    /// Advance an animation; return true while still animating.
    fn tick(&mut self) -> bool {
        false
    }
    /// Trace blocks: move the playback cursor to virtual time `t_ms` (used by
    /// `tooldojo render trace:NAME@T` and the future scrubber). Others ignore it.
    fn seek_ms(&mut self, t_ms: u64) {
        let _ = t_ms;
    }
    /// The row, counted from the block's top border at `width` columns (as in `height` and
    /// `handle_click`), that must stay in view after a key: the row under the cursor, the
    /// just-revealed verdict, the editor cursor. The reader scrolls to keep it visible (and,
    /// when the block grew, shows its new bottom as far as that row allows). `None`: keep
    /// the block's top in view.
    fn focus_line(&self, width: u16) -> Option<u16> {
        let _ = width;
        None
    }
    /// Trace blocks: the full-screen player on the block's run, at the block's time (`f`).
    fn full_screen(&self) -> Option<crate::tui::player::Player> {
        None
    }
    /// A mouse click at `row`, `col`, relative to the block's area (the top border is row 0).
    /// Blocks map it to the row / choice / switch they last drew there.
    fn handle_click(&mut self, row: u16, col: u16) -> BlockOutcome {
        let _ = (row, col);
        BlockOutcome::Ignored
    }
    /// Back to the block's initial state (a new class, a fresh try).
    fn reset(&mut self) {}
}
