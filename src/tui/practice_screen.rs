//! The practice screen (`P`): the learner's own solution graded live. The learner edits
//! the file in their own editor; every save grades it again and the results show here.

use std::path::{Path, PathBuf};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use crate::practice::{Lang, Row, starter};
use crate::text::wrap;
use crate::tui::blocks::common::{is_char, is_down, is_up, plain};
use crate::tui::grader::{LiveGrader, Notify, status_lines};
use crate::tui::theme::Theme;

/// What the practice screen asks of the app after a key.
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PracticeUpdate {
    None,
    Redraw,
    Leave,
    Quit,
    Suspend,
}

pub struct PracticeScreen {
    pub grader: LiveGrader,
    /// What was done about the file (a starter written, an existing file found).
    note: String,
    scroll: u16,
}

/// The learner's solution in `dir`: `solution.py`, else `solution.js`; when neither is
/// there a Python starter is written. Returns the file, its language and what was done.
pub fn find_or_start(dir: &Path) -> (PathBuf, Lang, String) {
    for lang in [Lang::Python, Lang::Js] {
        let path = dir.join(starter::file_name(lang));
        if path.exists() {
            let shown = crate::sanitize::clean(&path.display().to_string(), false);
            return (path, lang, format!("Grading {shown}."));
        }
    }
    match starter::write(dir, Lang::Python) {
        Ok(path) => {
            let shown = crate::sanitize::clean(&path.display().to_string(), false);
            let note = format!(
                "A starter is at {shown}: open it in your editor and fill in the functions."
            );
            (path, Lang::Python, note)
        }
        Err(e) => (dir.join(starter::file_name(Lang::Python)), Lang::Python, e),
    }
}

impl PracticeScreen {
    pub fn open(dir: &Path, rows: Vec<Row>, notify: Option<Notify>) -> PracticeScreen {
        let (file, lang, note) = find_or_start(dir);
        PracticeScreen {
            grader: LiveGrader::new(file, lang, rows, notify),
            note,
            scroll: 0,
        }
    }

    pub fn on_key(&mut self, key: KeyEvent) -> PracticeUpdate {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            return PracticeUpdate::Quit;
        }
        if ctrl && key.code == KeyCode::Char('z') {
            return PracticeUpdate::Suspend;
        }
        if is_char(&key, 'q') {
            PracticeUpdate::Quit
        } else if plain(&key, KeyCode::Esc) {
            PracticeUpdate::Leave
        } else if is_char(&key, 'g') {
            self.grader.grade();
            PracticeUpdate::Redraw
        } else if is_down(&key) || plain(&key, KeyCode::PageDown) {
            self.scroll = self.scroll.saturating_add(1);
            PracticeUpdate::Redraw
        } else if is_up(&key) || plain(&key, KeyCode::PageUp) {
            self.scroll = self.scroll.saturating_sub(1);
            PracticeUpdate::Redraw
        } else {
            PracticeUpdate::None
        }
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, t: &Theme, present: bool) {
        buf.set_style(area, t.base);
        let pad = if present { 2 } else { 1 };
        let [head, body, bar] = area.layout(&Layout::vertical([
            Constraint::Length(2),
            Constraint::Fill(1),
            Constraint::Length(1),
        ]));
        let title = format!(
            " Practice: your own solution ({}), graded on every save",
            self.grader.lang().name()
        );
        buf.set_line(head.x, head.y, &Line::styled(title, t.heading), head.width);
        let body = Rect {
            x: body.x + pad,
            width: body.width.saturating_sub(2 * pad),
            ..body
        };
        let w = usize::from(body.width);
        let mut lines: Vec<Line> = wrap(&self.note, w)
            .into_iter()
            .map(|l| Line::styled(l, t.base))
            .collect();
        if let Some(why) = self.grader.unwatched() {
            lines.push(Line::styled(why.to_owned(), t.warn));
        }
        lines.push(Line::default());
        lines.extend(status_lines(&self.grader, t, w));
        let h = usize::from(body.height);
        let top = usize::from(self.scroll).min(lines.len().saturating_sub(h));
        Paragraph::new(lines.into_iter().skip(top).take(h).collect::<Vec<_>>()).render(body, buf);
        let keys = " g grade now  j/k scroll  Esc back to lessons  q quit";
        buf.set_style(bar, t.bar);
        buf.set_line(bar.x, bar.y, &Line::styled(keys, t.bar), bar.width);
    }
}
