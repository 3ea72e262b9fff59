//! The text editor blocks embed: `ratatui-textarea` underneath (soft wrapping, undo),
//! themed, with the learner's text cleaned of control characters. Besides typing it can
//! clear, go back to its original text, and format JSON, each undoable.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};
use ratatui_textarea::{CursorMove, TextArea, WrapMode};

use crate::sanitize::clean;
use crate::tui::theme::Theme;

/// The most text an editor holds, in bytes of UTF-8: far more than any tool call's
/// arguments, little enough that every key and frame stays quick.
pub const MAX_BYTES: usize = 16 * 1024;

/// What the learner is told when a paste did not fit.
pub fn cut_notice() -> String {
    format!("Paste cut: an editor holds {} KiB.", MAX_BYTES / 1024)
}

/// The start of `text` that fits in `room` bytes, cut at a character boundary.
fn fitting(text: &str, room: usize) -> &str {
    if text.len() <= room {
        return text;
    }
    let mut end = room;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// What an editor with no text says in its box.
const EMPTY: &str = "(empty)";

/// A themed text editor: `ratatui-textarea` underneath, never our own editing code.
#[derive(Clone)]
pub struct Editor {
    pub ta: TextArea<'static>,
    /// One-line field: Enter does not insert a newline.
    pub single_line: bool,
    /// The text the editor was made with (what `reset` goes back to).
    original: String,
    /// The last edit replaced the whole text in two steps (cut, insert): undo takes both.
    paired: bool,
    /// The last paste did not fit and was cut (the border says so until the next edit).
    cut: bool,
    /// First display row shown while not typing (Up/Down on a focused box move it).
    pub top: usize,
    /// Display rows and text rows the box had at the last draw (to bound `top`).
    drawn: std::cell::Cell<(usize, usize)>,
}

impl std::fmt::Debug for Editor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Editor")
            .field("text", &self.text())
            .finish()
    }
}

/// What an editor's own command did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditResult {
    Changed,
    Unchanged,
    /// `format` on text that is not JSON: nothing changed.
    NotJson,
}

impl Editor {
    /// Text enters cleaned (lesson bodies and saved progress are not trusted either):
    /// control characters and bidi overrides become visible stand-ins. The cursor starts
    /// at the end of the text, where typing goes on.
    pub fn new(text: &str) -> Editor {
        let text = clean(fitting(text, MAX_BYTES), true);
        let text = fitting(&text, MAX_BYTES).to_owned();
        let mut e = Editor {
            ta: Editor::area(&text),
            single_line: false,
            original: text,
            paired: false,
            cut: false,
            top: 0,
            drawn: std::cell::Cell::new((0, 0)),
        };
        e.to_end();
        e
    }

    pub fn single(text: &str) -> Editor {
        let mut e = Editor::new(&clean(text, false).replace('\u{240a}', " "));
        e.single_line = true;
        // One row that scrolls sideways.
        e.ta.set_wrap_mode(WrapMode::None);
        e
    }

    fn area(text: &str) -> TextArea<'static> {
        let lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
        let mut ta = TextArea::new(lines);
        ta.set_tab_length(2);
        ta.set_wrap_mode(WrapMode::WordOrGlyph);
        ta
    }

    pub fn text(&self) -> String {
        self.ta.lines().join("\n")
    }

    /// The text the editor started from.
    pub fn original(&self) -> &str {
        &self.original
    }

    /// Replace the text and make it the new original (a fixture chosen, progress restored).
    pub fn set_text(&mut self, text: &str) {
        let single = self.single_line;
        *self = if single {
            Editor::single(text)
        } else {
            Editor::new(text)
        };
    }

    /// Cells the text takes on its widest line.
    pub fn text_width(&self) -> usize {
        self.ta
            .lines()
            .iter()
            .map(|l| crate::text::width(l))
            .max()
            .unwrap_or(0)
    }

    /// Replace the whole text as one undoable edit; the cursor ends after it.
    fn replace_all(&mut self, text: &str) -> bool {
        if self.text() == text {
            return false;
        }
        self.ta.select_all();
        let cut = self.ta.cut();
        if !cut {
            self.ta.cancel_selection();
        }
        let inserted = !text.is_empty() && self.ta.insert_str(text);
        self.paired = cut && inserted;
        true
    }

    /// Empty the editor (undo brings the text back).
    pub fn clear(&mut self) -> bool {
        self.replace_all("")
    }

    /// Back to the original text (undoable).
    pub fn reset(&mut self) -> bool {
        let original = self.original.clone();
        let changed = self.replace_all(&original);
        self.to_end();
        changed
    }

    /// Pretty-print the text as JSON with two-space indents (undoable); text that does not
    /// parse is left alone.
    pub fn format_json(&mut self) -> EditResult {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(&self.text()) else {
            return EditResult::NotJson;
        };
        let pretty = if self.single_line {
            serde_json::to_string(&value)
        } else {
            serde_json::to_string_pretty(&value)
        };
        match pretty {
            Ok(p) if self.replace_all(&p) => EditResult::Changed,
            _ => EditResult::Unchanged,
        }
    }

    pub fn undo(&mut self) -> bool {
        let undone = self.ta.undo();
        if std::mem::take(&mut self.paired) {
            self.ta.undo();
        }
        undone
    }

    /// Cursor to the end of the text.
    pub fn to_end(&mut self) {
        self.ta.move_cursor(CursorMove::Bottom);
        self.ta.move_cursor(CursorMove::End);
    }

    /// Bytes of text held (each line break counts one).
    pub fn len(&self) -> usize {
        let lines = self.ta.lines();
        lines.iter().map(String::len).sum::<usize>() + lines.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The last paste was cut to fit.
    pub fn was_cut(&self) -> bool {
        self.cut
    }

    /// Feed one key press; returns true when the text changed. Ctrl-Z undoes as Ctrl-U
    /// does. A full editor takes no more characters.
    pub fn input(&mut self, key: KeyEvent) -> bool {
        if self.single_line && key.code == KeyCode::Enter {
            return false;
        }
        let undo_key =
            |c: char| key.code == KeyCode::Char(c) && key.modifiers == KeyModifiers::CONTROL;
        if undo_key('z') || undo_key('u') {
            self.cut = false;
            return self.undo();
        }
        let adds = match key.code {
            KeyCode::Char(c)
                if !key
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                c.len_utf8()
            }
            KeyCode::Enter => 1,
            KeyCode::Tab => 2,
            _ => 0,
        };
        if adds > 0 && self.len() + adds > MAX_BYTES {
            self.cut = true;
            return false;
        }
        self.paired = false;
        let changed = self.ta.input(key);
        if changed {
            self.cut = false;
        }
        changed
    }

    /// Insert pasted text at the cursor as one edit (one undo takes it back), cleaned as
    /// typed text is; what does not fit in [`MAX_BYTES`] is left out, and `was_cut` says
    /// so. Returns (changed, cut).
    pub fn paste(&mut self, text: &str) -> (bool, bool) {
        let room = MAX_BYTES.saturating_sub(self.len());
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        let text = if self.single_line {
            text.replace('\n', " ")
        } else {
            text
        };
        // Cleaning never shortens text, so no more than `room` bytes of it can fit.
        let head = fitting(&text, room);
        let cleaned = clean(head, !self.single_line);
        let kept = fitting(&cleaned, room);
        let cut = kept.len() < cleaned.len() || head.len() < text.len();
        self.paired = false;
        let changed = !kept.is_empty() && self.ta.insert_str(kept);
        self.cut = cut;
        (changed, cut)
    }

    /// Remember the box `other` (a copy laid out differently) was last drawn in.
    pub fn drawn_as(&self, other: &Editor) {
        self.drawn.set(other.drawn.get());
    }

    /// Move the view by `rows` display rows (negative: up) while not typing; false when
    /// it cannot move that way.
    pub fn scroll_rows(&mut self, rows: i32) -> bool {
        let (shown, total) = self.drawn.get();
        let max = total.saturating_sub(shown.max(1));
        let top = if rows < 0 {
            self.top.saturating_sub(rows.unsigned_abs() as usize)
        } else {
            (self.top + rows as usize).min(max)
        };
        let moved = top != self.top;
        self.top = top;
        moved
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

    /// The display row of `ta`'s cursor when wrapped to `width` columns: a one-row draw
    /// of a copy scrolls its view to that row.
    fn display_row(ta: &TextArea<'static>, width: u16) -> usize {
        let ta = ta.clone();
        let area = Rect::new(0, 0, width.max(1), 1);
        let mut scratch = Buffer::empty(area);
        (&ta).render(area, &mut scratch);
        usize::from(ta.scroll_offset().0)
    }

    /// Display rows the text takes when wrapped to `width` columns, and the display row
    /// of the cursor. Only lines wider than the box are measured by the textarea itself.
    pub fn wrapped(&self, width: u16) -> (usize, usize) {
        let (row, col) = self.cursor();
        let probe = |line: &str, at: Option<usize>| {
            let mut one = TextArea::new(vec![line.to_owned()]);
            one.set_tab_length(2);
            one.set_wrap_mode(self.ta.wrap_mode());
            match at {
                Some(c) => one.move_cursor(CursorMove::Jump(0, c as u16)),
                None => one.move_cursor(CursorMove::End),
            }
            Editor::display_row(&one, width)
        };
        let fits = |line: &str| crate::text::width(line) < usize::from(width.max(1));
        let mut total = 0;
        let mut cursor_row = 0;
        for (i, line) in self.ta.lines().iter().enumerate() {
            if i == row {
                cursor_row = total
                    + if fits(line) {
                        0
                    } else {
                        probe(line, Some(col))
                    };
            }
            total += if fits(line) { 1 } else { probe(line, None) + 1 };
        }
        (total.max(1), cursor_row)
    }

    /// The box height (borders included) that shows the whole text at `width` columns.
    pub fn full_height(&self, width: u16) -> u16 {
        let (rows, _) = self.wrapped(width.saturating_sub(2));
        u16::try_from(rows + 2).unwrap_or(u16::MAX)
    }

    /// Draw with the theme; the cursor shows only while `editing`. A box too small for the
    /// text says which display rows it shows (`3-9 of 24`) on its bottom border.
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
        if !editing {
            // Reading: the view starts at `top`, whatever the cursor.
            ta.move_cursor(CursorMove::Top);
        }
        ta.set_style(theme.code);
        ta.set_cursor_line_style(Style::default());
        if editing {
            ta.set_cursor_style(theme.code.add_modifier(Modifier::REVERSED));
        } else {
            ta.set_cursor_style(theme.code);
        }
        ta.set_placeholder_text(EMPTY);
        ta.set_placeholder_style(theme.dim);
        if area.height < 3 || area.width < 6 {
            (&ta).render(area, buf);
            return;
        }
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
        let block = Block::default()
            .borders(Borders::ALL)
            .border_set(theme.sym.border)
            .border_style(style)
            .title(Span::styled(format!(" {mark}{title} "), style));
        let inner = block.inner(area);
        block.render(area, buf);
        let (rows, _) = self.wrapped(inner.width);
        let shown = usize::from(inner.height);
        self.drawn.set((shown, rows));
        if !editing && rows > shown {
            // The view follows the cursor: put it on the last display row to show.
            let top = self.top.min(rows.saturating_sub(shown));
            let last = (top + shown).saturating_sub(1).min(rows.saturating_sub(1));
            while Editor::display_row(&ta, inner.width) < last {
                let before = ta.cursor();
                ta.move_cursor(CursorMove::Down);
                if ta.cursor() == before {
                    break;
                }
            }
        }
        (&ta).render(inner, buf);
        if !editing && ta.is_empty() {
            // The textarea's placeholder follows a cell kept for its cursor; read, not
            // edited, it starts where typed text would.
            let line = Line::from(vec![
                Span::styled(EMPTY, theme.code.patch(theme.dim)),
                Span::styled(" ", theme.code),
            ]);
            buf.set_line(inner.x, inner.y, &line, inner.width);
        }
        // Where the bottom border is free from: the cut note comes first, and the place
        // in the text shows only where it does not run into the note.
        let mut free = area.x + 1;
        if self.cut {
            // Said where the learner looks, until the next edit.
            let note = format!(" cut: holds {} KiB ", MAX_BYTES / 1024);
            let w = crate::text::width(&note) as u16;
            if w + 4 <= area.width {
                buf.set_line(
                    area.x + 2,
                    area.bottom() - 1,
                    &Line::styled(note, theme.warn),
                    w,
                );
                free = area.x + 2 + w;
            }
        }
        if rows > shown {
            let top = usize::from(ta.scroll_offset().0);
            let pos = format!(" {}-{} of {rows} ", top + 1, (top + shown).min(rows));
            let w = crate::text::width(&pos) as u16;
            if w + 4 <= area.width && area.right().saturating_sub(w + 1) > free {
                let x = area.right().saturating_sub(w + 1);
                buf.set_line(x, area.bottom() - 1, &Line::styled(pos, theme.dim), w);
            }
        }
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
    fn a_paste_is_one_edit_cleaned_and_capped() {
        let mut e = Editor::new("{}");
        e.jump_to(1, 2);
        assert_eq!(e.paste("\"a\": 1,\r\n\"b\": \u{1b}2"), (true, false));
        assert_eq!(e.text(), "{\"a\": 1,\n\"b\": \u{241b}2}");
        assert!(e.undo());
        assert_eq!(e.text(), "{}", "one undo takes the whole paste back");
        let big = "x".repeat(3 * MAX_BYTES);
        assert_eq!(e.paste(&big), (true, true));
        assert_eq!(e.len(), MAX_BYTES);
        assert!(e.was_cut());
        let full = e.text();
        assert!(!e.input(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE)));
        assert_eq!(e.text(), full, "a full editor takes no more characters");
        assert!(e.input(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE)));
        assert!(!e.was_cut(), "the note goes with the next edit");
        // A multi-byte character is never split.
        let mut e = Editor::new("");
        assert_eq!(e.paste(&"é".repeat(MAX_BYTES)), (true, true));
        assert_eq!(e.len(), MAX_BYTES);
        let mut one = Editor::single("");
        assert_eq!(one.paste("get\nticket"), (true, false));
        assert_eq!(one.text(), "get ticket");
    }

    #[test]
    fn an_empty_box_read_says_so_where_typed_text_starts() {
        let theme = Theme::new(crate::tui::theme::ThemeName::Default, false);
        let row = |e: &Editor, editing: bool| {
            let area = Rect::new(0, 0, 30, 4);
            let mut buf = Buffer::empty(area);
            e.render(area, &mut buf, &theme, editing, "Your answer", false);
            (0..30)
                .map(|x| buf[(x, 1)].symbol().to_owned())
                .collect::<String>()
        };
        let typed = row(&Editor::new("ab"), false);
        assert!(typed.starts_with("│ab "), "{typed}");
        let empty = row(&Editor::new(""), false);
        assert!(empty.starts_with("│(empty) "), "{empty}");
        // Editing, the cursor's cell comes first.
        let editing = row(&Editor::new(""), true);
        assert!(editing.starts_with("│ (empty)"), "{editing}");
    }

    #[test]
    fn editor_jump_clamps() {
        let mut e = Editor::new("{\n  \"a\": 1\n}");
        e.jump_to(2, 4);
        assert_eq!(e.cursor(), (1, 3));
        e.jump_to(99, 99);
        assert_eq!(e.cursor(), (2, 1));
    }

    #[test]
    fn editor_starts_at_the_end_and_wraps() {
        let e = Editor::new("{\n  \"ticket_id\": \"TKT-104\"\n}");
        assert_eq!(e.cursor(), (2, 1));
        let long = Editor::new(&"word ".repeat(20));
        assert_eq!(long.wrapped(100).0, 1);
        assert!(long.wrapped(20).0 >= 5, "{:?}", long.wrapped(20));
    }

    #[test]
    fn editor_clear_reset_format_and_undo() {
        let mut e = Editor::new("{\"a\": 1}");
        assert!(e.clear());
        assert_eq!(e.text(), "");
        assert!(e.undo());
        assert_eq!(e.text(), "{\"a\": 1}");
        assert_eq!(e.format_json(), EditResult::Changed);
        assert_eq!(e.text(), "{\n  \"a\": 1\n}");
        assert!(e.undo());
        assert_eq!(e.text(), "{\"a\": 1}");
        e.ta.insert_str("xyz");
        assert_eq!(e.format_json(), EditResult::NotJson);
        assert!(e.reset());
        assert_eq!(e.text(), "{\"a\": 1}");
        assert_eq!(e.cursor(), (0, 8));
    }

    #[test]
    fn a_narrow_box_says_it_was_cut_whole_before_it_says_where_it_is() {
        let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
        let mut e = Editor::new("");
        assert_eq!(e.paste(&"x".repeat(2 * MAX_BYTES)), (true, true));
        let bottom = |width: u16| {
            let area = Rect::new(0, 0, width, 6);
            let mut buf = Buffer::empty(area);
            e.render(area, &mut buf, &theme, false, "arguments", false);
            (0..width)
                .map(|x| buf[(x, 5)].symbol().to_owned())
                .collect::<String>()
        };
        // Room for both: the note on the left, the place in the text on the right.
        let wide = bottom(60);
        assert!(
            wide.contains(" cut: holds 16 KiB ") && wide.contains(" of "),
            "{wide}"
        );
        // Room for one: the note, whole.
        let narrow = bottom(34);
        assert!(narrow.contains(" cut: holds 16 KiB "), "{narrow}");
        assert!(!narrow.contains(" of "), "{narrow}");
    }
}
