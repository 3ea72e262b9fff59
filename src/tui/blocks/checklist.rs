//! `checklist`: items the learner ticks; ticks are remembered through save/restore.

use crate::tui::draw::keybar::pick_keys;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use serde_json::{Value, json};

use crate::content::lessons::Checklist;
use crate::tui::blocks::common::{self, is_char, plain};
use crate::tui::blocks::list::{ListLines, ListView, list_key};
use crate::tui::blocks::{BlockOutcome, BlockWidget, KeyHint, RenderCtx};
use crate::tui::theme::Theme;

pub struct ChecklistWidget {
    items: Vec<String>,
    ticked: Vec<bool>,
    cursor: usize,
    /// Where the list was last drawn, to map a mouse click to an item.
    view: ListView,
    /// The ticked items in the order they were ticked (by hand or by a presenter's step),
    /// so presenter mode's `h` takes back the last tick and no other.
    order: Vec<usize>,
}

impl ChecklistWidget {
    pub fn new(spec: &Checklist) -> Result<ChecklistWidget, String> {
        if spec.items.is_empty() {
            return Err("checklist has no items".to_owned());
        }
        Ok(ChecklistWidget {
            items: spec.items.iter().map(|s| common::prose(s)).collect(),
            ticked: vec![false; spec.items.len()],
            cursor: 0,
            view: ListView::default(),
            order: Vec::new(),
        })
    }

    /// Tick item `i`, or untick it.
    fn toggle(&mut self, i: usize) {
        self.ticked[i] = !self.ticked[i];
        self.order.retain(|&t| t != i);
        if self.ticked[i] {
            self.order.push(i);
        }
    }

    pub fn ticked(&self) -> &[bool] {
        &self.ticked
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The lines, the line of the selected item, and which item each line belongs to.
    fn lines(&self, theme: &Theme, width: usize, show_cursor: bool) -> ListLines {
        let mut out = Vec::new();
        let mut owners = vec![None];
        let mut focus = 0;
        let done = self.ticked.iter().filter(|t| **t).count();
        out.push(Line::from(Span::styled(
            format!("{done} of {} ticked", self.items.len()),
            theme.dim,
        )));
        for (i, item) in self.items.iter().enumerate() {
            let here = show_cursor && i == self.cursor;
            if here {
                focus = out.len();
            }
            let pointer = if here { theme.sym.pointer } else { " " };
            let (mark, mark_style) = if self.ticked[i] {
                (theme.sym.checked, theme.ok)
            } else {
                (theme.sym.unchecked, theme.dim)
            };
            let style = if here { theme.selected } else { theme.base };
            let prefix = vec![
                Span::styled(format!("{pointer} "), theme.focus),
                Span::styled(format!("{mark} "), mark_style),
            ];
            let lines = common::wrap_rich(prefix, item, width, style, theme);
            owners.extend(std::iter::repeat_n(Some(i), lines.len()));
            out.extend(lines);
        }
        (out, focus, owners)
    }
}

impl BlockWidget for ChecklistWidget {
    fn title(&self) -> String {
        "Checklist".to_owned()
    }

    fn height(&self, width: u16) -> u16 {
        let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
        let (lines, _, _) = self.lines(&theme, width.saturating_sub(2) as usize, false);
        (lines.len() + 2).min(u16::MAX as usize) as u16
    }

    fn render(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx) {
        let done = self.ticked.iter().all(|t| *t);
        let status = if done {
            format!("{} done", ctx.theme.sym.ok)
        } else {
            String::new()
        };
        let title = self.title();
        self.view
            .render(area, buf, ctx, (&title, &status), |t, w, c| {
                self.lines(t, w, c)
            });
    }

    fn handle_key(&mut self, key: KeyEvent, active: bool) -> BlockOutcome {
        if let Some(outcome) = list_key(&key, active, &mut self.cursor, self.items.len()) {
            return outcome;
        }
        if let Some(i) = common::digit(&key)
            && i < self.items.len()
        {
            self.cursor = i;
            self.toggle(i);
            return BlockOutcome::Changed;
        }
        if is_char(&key, ' ') || plain(&key, KeyCode::Enter) || is_char(&key, 'x') {
            self.toggle(self.cursor);
            return BlockOutcome::Changed;
        }
        BlockOutcome::Ignored
    }

    fn key_hints(&self, active: bool) -> Vec<KeyHint> {
        if !active {
            return vec![KeyHint::new("Enter", "open checklist")];
        }
        let mut v = vec![
            KeyHint::new("Up/Down", "move"),
            KeyHint::new("Space/Enter/x", "tick"),
        ];
        match self.items.len() {
            1 => v.push(KeyHint::new("1", "tick the item")),
            n => v.push(KeyHint::new(pick_keys!(n), "tick item N")),
        }
        v.push(KeyHint::new("Esc", "back to page"));
        v
    }

    fn save(&self) -> Value {
        json!({ "ticked": self.ticked, "cursor": self.cursor })
    }

    fn restore(&mut self, state: &Value) {
        if let Some(arr) = state.get("ticked").and_then(Value::as_array) {
            for (i, v) in arr.iter().enumerate().take(self.ticked.len()) {
                self.ticked[i] = v.as_bool().unwrap_or(false);
            }
        }
        self.order = (0..self.ticked.len()).filter(|&i| self.ticked[i]).collect();
        if let Some(c) = state.get("cursor").and_then(Value::as_u64) {
            let last = self.ticked.len().saturating_sub(1);
            self.cursor = usize::try_from(c).unwrap_or(0).min(last);
        }
    }

    fn is_done(&self) -> bool {
        self.ticked.iter().all(|t| *t)
    }

    /// Presenter mode: tick the next item.
    fn present_step(&mut self) -> bool {
        let Some(i) = self.ticked.iter().position(|t| !t) else {
            return false;
        };
        self.toggle(i);
        self.cursor = i;
        true
    }

    /// Presenter mode: untick the item ticked last.
    fn present_unstep(&mut self) -> bool {
        let Some(i) = self.order.last().copied() else {
            return false;
        };
        self.toggle(i);
        true
    }

    fn present_progress(&self) -> (usize, usize) {
        let ticked = self.ticked.iter().filter(|t| **t).count();
        (ticked, self.ticked.len())
    }

    fn reset(&mut self) {
        self.ticked.iter_mut().for_each(|t| *t = false);
        self.order.clear();
        self.cursor = 0;
    }

    fn remaining(&self) -> Vec<String> {
        match self.ticked.iter().filter(|t| !**t).count() {
            0 => Vec::new(),
            1 => vec!["1 checklist item".to_owned()],
            n => vec![format!("{n} checklist items")],
        }
    }

    fn focus_line(&self, width: u16) -> Option<u16> {
        Some(ListView::focus_line(width, |t, w, c| self.lines(t, w, c)))
    }

    fn handle_click(&mut self, row: u16, _col: u16) -> BlockOutcome {
        match self.view.clicked(row, |t, w, c| self.lines(t, w, c)) {
            Some(i) => {
                self.cursor = i;
                self.toggle(i);
                BlockOutcome::Changed
            }
            None => BlockOutcome::Ignored,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(n: usize) -> ChecklistWidget {
        let items = (1..=n).map(|i| format!("item {i}")).collect();
        ChecklistWidget::new(&Checklist { items }).unwrap()
    }

    /// The key bar's words for an entered checklist.
    fn offered(w: &ChecklistWidget) -> String {
        w.key_hints(true)
            .iter()
            .map(|h| format!("{} {}", h.keys, h.what))
            .collect::<Vec<_>>()
            .join(" | ")
    }

    #[test]
    fn every_key_that_ticks_is_named_and_the_digits_go_as_far_as_the_items() {
        for (n, digits) in [
            (1, "1 tick the item"),
            (3, "1-3 tick item N"),
            (12, "1-9 tick item N"),
        ] {
            let mut w = list(n);
            let bar = offered(&w);
            assert!(bar.contains("Space/Enter/x tick"), "{bar}");
            assert!(bar.contains(digits), "{n}: {bar}");
            for key in [KeyCode::Char(' '), KeyCode::Enter, KeyCode::Char('x')] {
                let _ = w.handle_key(KeyEvent::from(key), true);
                assert!(w.ticked()[0], "{key:?} ticks");
                let _ = w.handle_key(KeyEvent::from(key), true);
            }
            let last = n.min(9);
            let digit = char::from_digit(u32::try_from(last).unwrap(), 10).unwrap();
            let _ = w.handle_key(KeyEvent::from(KeyCode::Char(digit)), true);
            assert!(w.ticked()[last - 1], "{digit} ticks item {last}");
        }
    }
}
