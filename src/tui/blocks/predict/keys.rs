//! Keys and mouse clicks: moving between rows, picking, locking, revealing, review.

use crate::tui::draw::keybar::pick_keys;
use crossterm::event::{KeyCode, KeyEvent};

use crate::tui::blocks::common::{self, is_char, is_down, is_left, is_right, is_up, plain};
use crate::tui::blocks::{BlockOutcome, BlockWidget, KeyHint};
use crate::tui::theme::{Theme, ThemeName};

use super::PredictWidget;
use super::detail::Reach;

impl PredictWidget {
    pub(super) fn on_key(&mut self, key: KeyEvent) -> BlockOutcome {
        let had_note = self.note.take().is_some();
        if plain(&key, KeyCode::Esc) {
            return BlockOutcome::Release;
        }
        if let Some(done) = self.move_key(&key) {
            return done;
        }
        if self.room {
            return self.room_key(&key);
        }
        if is_char(&key, 'r') {
            return self.toggle_review();
        }
        if is_char(&key, 'a') {
            return self.reveal_locked();
        }
        match self.current() {
            Some(i) => self.row_key(i, &key),
            None if had_note => BlockOutcome::Consumed,
            None => BlockOutcome::Ignored,
        }
    }

    /// Up, Down, Home and End move the cursor over the visible rows.
    fn move_key(&mut self, key: &KeyEvent) -> Option<BlockOutcome> {
        let n = self.visible().len();
        if is_up(key) {
            self.cursor = self.cursor.saturating_sub(1);
        } else if is_down(key) {
            if self.cursor + 1 < n {
                self.cursor += 1;
            }
        } else if plain(key, KeyCode::Home) {
            self.cursor = 0;
        } else if plain(key, KeyCode::End) {
            self.cursor = n.saturating_sub(1);
        } else {
            return None;
        }
        Some(BlockOutcome::Consumed)
    }

    /// Presenter mode: nothing is predicted. Space, Enter or Right shows the next row's
    /// real verdict and Left takes the last one back, as the presenter's keys do on the
    /// page; the keys that pick, lock or review do nothing.
    fn room_key(&mut self, key: &KeyEvent) -> BlockOutcome {
        let (next, back) = (
            plain(key, KeyCode::Enter) || is_char(key, ' ') || is_right(key),
            is_left(key),
        );
        if next || back {
            let moved = if next {
                self.present_step()
            } else {
                self.present_unstep()
            };
            return if moved {
                BlockOutcome::Changed
            } else {
                BlockOutcome::Consumed
            };
        }
        let picks = common::digit(key).is_some();
        if picks || ['u', 'a', 'r'].iter().any(|c| is_char(key, *c)) {
            return BlockOutcome::Consumed;
        }
        BlockOutcome::Ignored
    }

    /// `v`: show long named schemas and long JSON values whole, or folded again (only
    /// when a row has one to fold).
    pub(super) fn whole_key(&mut self, key: &KeyEvent) -> Option<BlockOutcome> {
        if !is_char(key, 'v') || !self.long_fields().any() {
            return None;
        }
        self.long_whole = !self.long_whole;
        Some(BlockOutcome::Consumed)
    }

    fn toggle_review(&mut self) -> BlockOutcome {
        if self.review {
            self.leave_review();
        } else if self.queue.is_empty() {
            self.note = Some("The review queue is empty: rows you miss land there.".to_owned());
            return BlockOutcome::Consumed;
        } else {
            self.enter_review();
        }
        BlockOutcome::Changed
    }

    /// Reveal every visible row that is locked and not yet revealed.
    fn reveal_locked(&mut self) -> BlockOutcome {
        let locked: Vec<usize> = self
            .visible()
            .into_iter()
            .filter(|&i| self.rows[i].locked && !self.rows[i].revealed)
            .collect();
        if locked.is_empty() {
            self.note =
                Some("No locked rows to reveal: lock a prediction with Enter first.".to_owned());
            return BlockOutcome::Consumed;
        }
        for i in locked {
            self.reveal(i);
        }
        BlockOutcome::Changed
    }

    /// Keys that act on row `i`: pick (number, left/right), unlock, lock then reveal.
    fn row_key(&mut self, i: usize, key: &KeyEvent) -> BlockOutcome {
        let opts = self.rows[i].options().len();
        let row = &mut self.rows[i];
        if let Some(d) = common::digit(key) {
            if row.locked || row.revealed || d >= opts {
                return BlockOutcome::Consumed;
            }
            row.pick = Some(d);
            return BlockOutcome::Changed;
        }
        if is_left(key) || is_right(key) {
            if row.locked || row.revealed {
                return BlockOutcome::Consumed;
            }
            let next = match (row.pick, is_right(key)) {
                (None, true) => 0,
                (None, false) => opts - 1,
                (Some(p), true) => (p + 1) % opts,
                (Some(p), false) => (p + opts - 1) % opts,
            };
            row.pick = Some(next);
            return BlockOutcome::Changed;
        }
        if is_char(key, 'u') {
            if row.locked && !row.revealed {
                row.locked = false;
                return BlockOutcome::Changed;
            }
            return BlockOutcome::Consumed;
        }
        if plain(key, KeyCode::Enter) || is_char(key, ' ') {
            if row.revealed {
                // In review, on to the next row to predict again.
                return match self.next_in_review() {
                    Some(pos) => {
                        self.cursor = pos;
                        BlockOutcome::Changed
                    }
                    None => BlockOutcome::Consumed,
                };
            }
            if row.pick.is_none() {
                self.note = Some(format!("Pick an outcome first: 1-{opts} or left/right."));
                return BlockOutcome::Consumed;
            }
            if !row.locked {
                row.locked = true;
                return BlockOutcome::Changed;
            }
            self.reveal(i);
            return BlockOutcome::Changed;
        }
        BlockOutcome::Ignored
    }

    pub(super) fn hints(&self, active: bool) -> Vec<KeyHint> {
        let demo = self.room;
        let long = self.long_fields();
        let schema = long.any().then(|| {
            let what = match (long.schema, long.json, self.long_whole) {
                (true, false, true) => "schema by name",
                (true, false, false) => "whole schema",
                (_, _, true) => "fold long values",
                (_, _, false) => "long values whole",
            };
            KeyHint::new("v", what)
        });
        if !active {
            // `v` works here too. Out of presenter mode the detail pane says so and the page
            // keys keep the bar; a presenter is shown it with the keys (and in the help).
            if demo {
                let mut v = vec![KeyHint::new("Enter", "look at a row")];
                v.extend(schema);
                return v;
            }
            return vec![KeyHint::new("Enter", "predict the table")];
        }
        if demo {
            let mut v = vec![
                KeyHint::new("Up/Down", "row"),
                KeyHint::new("Space/Right", "next verdict"),
                KeyHint::new("Left", "take it back"),
            ];
            v.extend(schema);
            v.push(KeyHint::new("Esc", "back to page"));
            return v;
        }
        let answered = self
            .current()
            .map_or(self.review, |i| self.rows[i].revealed);
        if answered {
            return self.answered_hints(schema);
        }
        let n = self.current().map_or(0, |i| self.rows[i].options().len());
        let pick = if n < 2 {
            "Left/Right"
        } else {
            pick_keys!("", n, "/Left/Right")
        };
        let v = vec![
            KeyHint::new("Up/Down", "row"),
            KeyHint::new(pick, "pick"),
            KeyHint::new("Enter", "lock, then reveal"),
            KeyHint::new("u", "unlock"),
            KeyHint::new("a", "reveal locked"),
        ];
        self.leave_hints(v, schema)
    }

    /// On a row already revealed (or a review with none left): no pick, lock or unlock
    /// (they do nothing there), only what moves on or leaves.
    fn answered_hints(&self, schema: Option<KeyHint>) -> Vec<KeyHint> {
        let visible = self.visible();
        let mut v = Vec::new();
        if visible.len() > 1 {
            v.push(KeyHint::new("Up/Down", "row"));
        }
        if self.review && self.next_in_review().is_some() {
            v.push(KeyHint::new("Enter", "next missed row"));
        }
        let locked = visible
            .iter()
            .any(|&i| self.rows[i].locked && !self.rows[i].revealed);
        if locked {
            v.push(KeyHint::new("a", "reveal locked"));
        }
        self.leave_hints(v, schema)
    }

    /// The hints every entered table ends with: `v` (when a schema folds), the review
    /// (to leave it, or to start one when rows were missed) and the way back.
    fn leave_hints(&self, mut v: Vec<KeyHint>, schema: Option<KeyHint>) -> Vec<KeyHint> {
        v.extend(schema);
        if self.review {
            v.push(KeyHint::new("r", "leave review"));
        } else if !self.queue.is_empty() {
            v.push(KeyHint::new("r", "review missed"));
        }
        v.push(KeyHint::new("Esc", "back to page"));
        v
    }

    /// A click on a table row selects it; a click on an outcome in the menu picks it.
    pub(super) fn on_click(&mut self, row: u16, col: u16) -> BlockOutcome {
        let (w, h) = self.drawn.get();
        if w == 0 || row == 0 || col == 0 {
            return BlockOutcome::Ignored;
        }
        let (y, x) = (row - 1, col - 1);
        let g = self.geometry(w, h);
        let in_table = if g.wide { x < g.left_w } else { y < g.table_h };
        if in_table {
            let idx = if g.wide {
                (y as usize + g.row_skip).checked_sub(1)
            } else {
                (y as usize).checked_sub(1).map(|r| r + g.row_skip)
            };
            return match idx {
                Some(i) if i < self.visible().len() => {
                    self.note = None;
                    self.cursor = i;
                    BlockOutcome::Consumed
                }
                _ => BlockOutcome::Ignored,
            };
        }
        let d = g.detail;
        if x < d.x || y < d.y {
            return BlockOutcome::Ignored;
        }
        self.click_menu((y - d.y) as usize, (x - d.x) as usize, d.width as usize)
    }

    /// A click at (line, column) of the detail pane: an outcome picks it, as its number
    /// key would.
    fn click_menu(&mut self, ly: usize, lx: usize, width: usize) -> BlockOutcome {
        let theme = Theme::new(ThemeName::Mono, false);
        let (_, hits) = self.detail_with_menu(&theme, width, (Reach::Entered, self.room));
        let Some(&(_, _, _, opt)) = hits
            .iter()
            .find(|(l, x0, x1, _)| *l == ly && lx >= *x0 && lx < *x1)
        else {
            return BlockOutcome::Ignored;
        };
        let Some(i) = self.current() else {
            return BlockOutcome::Ignored;
        };
        if self.rows[i].locked {
            return BlockOutcome::Consumed;
        }
        self.note = None;
        self.rows[i].pick = Some(opt);
        BlockOutcome::Changed
    }
}
