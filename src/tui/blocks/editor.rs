//! The text editor blocks embed: `ratatui-textarea` underneath, themed, with the
//! learner's text cleaned of control characters.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders, Widget};
use ratatui_textarea::{CursorMove, TextArea};

use crate::sanitize::clean;
use crate::tui::theme::Theme;

/// A themed text editor: `ratatui-textarea` underneath, never our own editing code.
#[derive(Clone)]
pub struct Editor {
    pub ta: TextArea<'static>,
    /// One-line field: Enter does not insert a newline.
    pub single_line: bool,
}

impl std::fmt::Debug for Editor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Editor")
            .field("text", &self.text())
            .finish()
    }
}

impl Editor {
    /// Text enters cleaned (lesson bodies and saved progress are not trusted either):
    /// control characters and bidi overrides become visible stand-ins.
    pub fn new(text: &str) -> Editor {
        let text = clean(text, true);
        let lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
        let mut ta = TextArea::new(lines);
        ta.set_tab_length(2);
        Editor {
            ta,
            single_line: false,
        }
    }

    pub fn single(text: &str) -> Editor {
        let mut e = Editor::new(&clean(text, false).replace('\u{240a}', " "));
        e.single_line = true;
        e
    }

    pub fn text(&self) -> String {
        self.ta.lines().join("\n")
    }

    pub fn set_text(&mut self, text: &str) {
        let single = self.single_line;
        *self = if single {
            Editor::single(text)
        } else {
            Editor::new(text)
        };
    }

    /// Feed one key press; returns true when the text changed.
    pub fn input(&mut self, key: KeyEvent) -> bool {
        if self.single_line && key.code == KeyCode::Enter {
            return false;
        }
        let before = self.ta.lines().to_vec();
        self.ta.input(key);
        self.ta.lines() != before.as_slice()
    }

    /// Put the cursor at a 1-based line and column (clamped).
    pub fn jump_to(&mut self, line: usize, column: usize) {
        let row = line
            .saturating_sub(1)
            .min(self.ta.lines().len().saturating_sub(1));
        let len = self.ta.lines()[row].chars().count();
        let col = column.saturating_sub(1).min(len);
        self.ta
            .move_cursor(CursorMove::Jump(row as u16, col as u16));
    }

    /// 0-based (row, col) of the cursor.
    pub fn cursor(&self) -> (usize, usize) {
        let c = self.ta.cursor();
        (c.0, c.1)
    }

    /// Draw with the theme; the cursor shows only while `editing`.
    pub fn render(
        &self,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        editing: bool,
        title: &str,
        focused: bool,
    ) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let mut ta = self.ta.clone();
        ta.set_style(theme.code);
        ta.set_cursor_line_style(Style::default());
        if editing {
            ta.set_cursor_style(theme.code.add_modifier(Modifier::REVERSED));
        } else {
            ta.set_cursor_style(theme.code);
        }
        ta.set_placeholder_text("(empty)");
        ta.set_placeholder_style(theme.dim);
        if area.height >= 3 && area.width >= 6 {
            let style = if editing || focused {
                theme.focus
            } else {
                theme.border
            };
            let mark = if editing {
                format!("{} ", theme.sym.pointer)
            } else {
                String::new()
            };
            ta.set_block(
                Block::default()
                    .borders(Borders::ALL)
                    .border_set(theme.sym.border)
                    .border_style(style)
                    .title(Span::styled(format!(" {mark}{title} "), style)),
            );
        }
        (&ta).render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editor_text_is_cleaned() {
        assert_eq!(Editor::new("a\u{1b}[2J\nb").text(), "a\u{241b}[2J\nb");
        assert_eq!(Editor::single("get\nticket").text(), "get ticket");
    }

    #[test]
    fn editor_jump_clamps() {
        let mut e = Editor::new("{\n  \"a\": 1\n}");
        e.jump_to(2, 4);
        assert_eq!(e.cursor(), (1, 3));
        e.jump_to(99, 99);
        assert_eq!(e.cursor(), (2, 1));
    }
}
