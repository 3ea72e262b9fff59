//! The practice screen (`P`): the learner's own solution graded live. The learner edits
//! the file in their own editor; every save grades it again and the results show here.
//! With no solution in the directory yet, the screen first asks before it writes a starter
//! there (Enter writes it, Esc goes back with nothing written).

use std::cell::Cell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::practice::{Lang, Row, starter};
use crate::text::wrap;
use crate::tui::draw::keybar::{BarKey, Rank, render_keys};
use crate::tui::draw::{self, text_popup};
use crate::tui::grader::{
    Grading, LiveGrader, Notify, Pending, shown_path, starter_lines, status_lines,
};
use crate::tui::keys::{is_char, is_down, is_up, plain};
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

/// The practice screen's keys, for its help.
const KEYS: [(&str, &str); 7] = [
    ("g", "grade the file now"),
    ("j/k", "scroll the rows a line"),
    ("PgUp/PgDn", "scroll the rows a page"),
    ("Home/End", "the first or the last rows"),
    ("Esc", "back to the lessons"),
    ("q", "quit"),
    ("Ctrl-C", "quit now"),
];

/// The keys while the screen asks before writing a starter, for its help.
const ASK_KEYS: [(&str, &str); 4] = [
    ("Enter", "write the starter and grade it"),
    ("Esc", "back, nothing written"),
    ("q", "quit"),
    ("Ctrl-C", "quit now"),
];

/// The key bar while the screen asks before writing a starter.
const ASK_BAR: [BarKey; 5] = [
    BarKey::new("Enter", "write the starter", Rank::Focus).brief("Enter", "write"),
    BarKey::new("j/k", "scroll", Rank::Scroll),
    BarKey::new("Esc", "cancel", Rank::Focus),
    BarKey::new("q", "quit", Rank::Always),
    BarKey::new("?", "help", Rank::Always),
];

/// The practice screen's key bar.
const BAR: [BarKey; 5] = [
    BarKey::new("g", "grade now", Rank::Focus).brief("g", "grade"),
    BarKey::new("j/k", "scroll", Rank::Scroll),
    BarKey::new("Esc", "back to lessons", Rank::Focus).brief("Esc", "back"),
    BarKey::new("q", "quit", Rank::Always),
    BarKey::new("?", "help", Rank::Always),
];

pub struct PracticeScreen {
    /// The directory the learner's solution is in (or a starter goes).
    dir: PathBuf,
    stage: Grading,
    /// What was done about the file (a starter written, an existing file found), or the
    /// question asked before a starter is written.
    note: String,
    /// The first line shown, at most [`PracticeScreen::max_scroll`].
    scroll: usize,
    /// The lines of the last frame and the rows they were drawn in: how far scrolling goes
    /// and how far a page turns.
    drawn: Cell<(usize, usize)>,
    /// The keys are shown over the screen (`?`).
    help: bool,
}

/// The learner's solution in `dir`, `solution.py` else `solution.js`, with its language
/// and what the screen says about it; `None` when neither is there.
fn find(dir: &Path) -> Option<(PathBuf, Lang, String)> {
    [Lang::Python, Lang::Js].into_iter().find_map(|lang| {
        let path = dir.join(starter::file_name(lang));
        path.exists().then(|| {
            (
                path.clone(),
                lang,
                format!("Grading {}.", shown_path(&path)),
            )
        })
    })
}

/// The learner's solution in `dir`: `solution.py`, else `solution.js`; when neither is
/// there a Python starter is written (a file that is there is never replaced). Returns the
/// file, its language and what was done.
pub fn find_or_start(dir: &Path) -> (PathBuf, Lang, String) {
    if let Some(found) = find(dir) {
        return found;
    }
    match starter::write(dir, Lang::Python) {
        Ok(path) => {
            let note = format!(
                "A starter is at {}: open it in your editor and fill in the functions.",
                shown_path(&path)
            );
            (path, Lang::Python, note)
        }
        Err(e) => (dir.join(starter::file_name(Lang::Python)), Lang::Python, e),
    }
}

/// The question asked before a starter is written into `dir`.
fn ask_note(dir: &Path) -> String {
    let file = dir.join(starter::file_name(Lang::Python));
    format!(
        "There is no solution.py or solution.js in {}.\n\nWrite a starter at {}? Enter writes \
         it, then edit it in your own editor: every save grades it. Esc goes back and writes \
         nothing.",
        shown_path(dir),
        shown_path(&file)
    )
}

impl PracticeScreen {
    /// Grade the learner's solution in `dir` against `rows`; a failing row names its
    /// lesson by its title in `titles` (the lessons the app was started with). With no
    /// solution there yet, the screen asks before it writes a starter.
    pub fn open(
        dir: &Path,
        rows: Vec<Row>,
        titles: BTreeMap<String, String>,
        notify: Option<Notify>,
    ) -> PracticeScreen {
        let pending = Pending {
            rows,
            titles,
            notify,
        };
        let mut screen = PracticeScreen {
            dir: dir.to_path_buf(),
            stage: Grading::Ask(Box::new(pending)),
            note: ask_note(dir),
            scroll: 0,
            drawn: Cell::new((0, 0)),
            help: false,
        };
        if let Some((file, lang, note)) = find(dir) {
            screen.stage.grade(file, lang);
            screen.note = note;
        }
        screen
    }

    /// Grade the solution in the directory, writing the starter first when there is none
    /// (a file that appeared meanwhile is graded as it is).
    fn start(&mut self) {
        if !self.asking() {
            return;
        }
        let (file, lang, note) = find_or_start(&self.dir);
        self.stage.grade(file, lang);
        self.note = note;
        self.scroll = 0;
    }

    /// The grader, once the screen grades a file (not while it asks before a starter).
    pub fn grader(&self) -> Option<&LiveGrader> {
        self.stage.grader()
    }

    pub(crate) fn grader_mut(&mut self) -> Option<&mut LiveGrader> {
        self.stage.grader_mut()
    }

    /// Does the screen ask before writing a starter?
    pub fn asking(&self) -> bool {
        self.stage.asking()
    }

    /// The furthest the rows scroll: the last line at the bottom of the last frame.
    fn max_scroll(&self) -> usize {
        let (total, h) = self.drawn.get();
        total.saturating_sub(h)
    }

    /// The first line shown now (the rows may have shrunk since the last key, after a new
    /// grade or a taller window).
    fn top(&self) -> usize {
        self.scroll.min(self.max_scroll())
    }

    /// Scroll to `to`, kept within the rows.
    fn scroll_to(&mut self, to: usize) -> PracticeUpdate {
        self.scroll = to.min(self.max_scroll());
        PracticeUpdate::Redraw
    }

    pub fn on_key(&mut self, key: KeyEvent) -> PracticeUpdate {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            return PracticeUpdate::Quit;
        }
        if ctrl && key.code == KeyCode::Char('z') {
            return PracticeUpdate::Suspend;
        }
        if self.help {
            self.help = false;
            return PracticeUpdate::Redraw;
        }
        if is_char(&key, '?') {
            self.help = true;
            PracticeUpdate::Redraw
        } else if is_char(&key, 'q') {
            PracticeUpdate::Quit
        } else if plain(&key, KeyCode::Esc) {
            PracticeUpdate::Leave
        } else if self.asking() && plain(&key, KeyCode::Enter) {
            self.start();
            PracticeUpdate::Redraw
        } else if let Some(g) = self.grader_mut().filter(|_| is_char(&key, 'g')) {
            g.grade();
            PracticeUpdate::Redraw
        } else if is_down(&key) {
            self.scroll_to(self.top() + 1)
        } else if is_up(&key) {
            self.scroll_to(self.top().saturating_sub(1))
        } else if plain(&key, KeyCode::PageDown) {
            let page = self.drawn.get().1.saturating_sub(1).max(1);
            self.scroll_to(self.top() + page)
        } else if plain(&key, KeyCode::PageUp) {
            let page = self.drawn.get().1.saturating_sub(1).max(1);
            self.scroll_to(self.top().saturating_sub(page))
        } else if plain(&key, KeyCode::Home) {
            self.scroll_to(0)
        } else if plain(&key, KeyCode::End) {
            self.scroll_to(usize::MAX)
        } else {
            PracticeUpdate::None
        }
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, t: &Theme, present: bool) {
        let draw::ScreenAreas { head, body, bar } = draw::screen(area, buf, t, present);
        let title = match self.grader() {
            Some(g) => format!(
                " Practice: your own solution ({}), graded on every save",
                g.lang().name()
            ),
            None => " Practice: your own solution, graded on every save".to_owned(),
        };
        buf.set_line(head.x, head.y, &Line::styled(title, t.heading), head.width);
        let w = usize::from(body.width);
        let mut lines: Vec<Line> = wrap(&self.note, w)
            .into_iter()
            .map(|l| Line::styled(l, t.base))
            .collect();
        if let Some(p) = self.stage.pending() {
            let file = starter::file_name(Lang::Python);
            let starter = (file, starter::text(Lang::Python));
            lines.extend(starter_lines(&p.rows, Lang::Python, starter, t, w));
        }
        if let Some(g) = self.grader() {
            if let Some(why) = g.unwatched() {
                lines.push(Line::styled(why.to_owned(), t.warn));
            }
            lines.push(Line::default());
            lines.extend(status_lines(g, t, w));
        }
        let h = usize::from(body.height);
        let total = lines.len();
        self.drawn.set((total, h));
        let top = self.scroll.min(self.max_scroll());
        draw::draw_scrolled(body, buf, &lines, top, (t, "PgDn"));
        let (mut keys, help_keys, about) = if self.asking() {
            (
                ASK_BAR.to_vec(),
                &ASK_KEYS[..],
                "Nothing is written until Enter; a file that is there is never replaced. Any key closes this.",
            )
        } else {
            (
                BAR.to_vec(),
                &KEYS[..],
                "Edit the file in your own editor: every save grades it again. Any key closes this.",
            )
        };
        keys.retain(|k| k.rank != Rank::Scroll || total > h);
        render_keys(&keys, None, t, bar, buf);
        if self.help {
            let mut text: Vec<String> = help_keys
                .iter()
                .map(|(k, w)| format!("{k:<8} {w}"))
                .collect();
            text.push(String::new());
            text.extend(wrap(about, 44));
            text_popup(area, buf, t, " Keys ", &text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    #[test]
    fn a_starter_is_written_once_and_an_existing_solution_is_graded_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let (path, lang, note) = find_or_start(dir.path());
        assert_eq!(lang, Lang::Python);
        assert!(path.ends_with("solution.py") && path.exists());
        assert!(note.contains("A starter is at"), "{note}");
        std::fs::write(
            &path,
            "def execute_tool(name, args, context, records):\n    pass\n",
        )
        .unwrap();
        let (again, _, note) = find_or_start(dir.path());
        assert_eq!(again, path);
        assert!(note.starts_with("Grading "), "{note}");
        assert!(
            std::fs::read_to_string(&path).unwrap().contains("pass"),
            "left as it is"
        );
    }

    #[test]
    fn the_rows_scroll_a_page_at_a_time_and_stop_at_their_end() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = PracticeScreen::open(dir.path(), Vec::new(), BTreeMap::new(), None);
        // As if the last frame drew 50 lines in 10 rows.
        s.drawn.set((50, 10));
        let _ = s.on_key(key(KeyCode::PageDown));
        assert_eq!(s.scroll, 9, "a page, less the line kept for context");
        for _ in 0..40 {
            let _ = s.on_key(key(KeyCode::Char('j')));
        }
        assert_eq!(s.scroll, 40, "no further than the last line at the bottom");
        let _ = s.on_key(key(KeyCode::Char('k')));
        assert_eq!(
            s.scroll, 39,
            "up at once, with no overshoot to use up first"
        );
        let _ = s.on_key(key(KeyCode::PageUp));
        assert_eq!(s.scroll, 30);
        let _ = s.on_key(key(KeyCode::Home));
        assert_eq!(s.scroll, 0);
        let _ = s.on_key(key(KeyCode::End));
        assert_eq!(s.scroll, 40);
        // Fewer rows after a new grade: the first key up moves from what is shown.
        s.drawn.set((20, 10));
        let _ = s.on_key(key(KeyCode::Char('k')));
        assert_eq!(s.scroll, 9);
    }

    #[test]
    fn before_it_writes_a_starter_it_shows_the_starter_and_what_it_will_grade() {
        let dir = tempfile::tempdir().unwrap();
        let rows = crate::practice::cases::load(&crate::content::Content::embedded()).unwrap();
        let validate = rows
            .iter()
            .filter(|r| r.function == crate::practice::Function::Validate)
            .count();
        let s = PracticeScreen::open(dir.path(), rows.clone(), BTreeMap::new(), None);
        assert!(s.asking());
        let mut buf = Buffer::empty(Rect::new(0, 0, 120, 60));
        let theme = Theme::new(crate::tui::theme::ThemeName::Default, false);
        s.render(buf.area, &mut buf, &theme, false);
        let text = crate::text::screen_text(&buf);
        let counts = format!(
            "on {} rows: {validate} for validate_tool_args and {} for execute_tool",
            rows.len(),
            rows.len() - validate
        );
        assert!(text.contains(&counts), "{text}");
        assert!(text.contains("The starter, solution.py:"), "{text}");
        // The code as the file will hold it, spaces and all.
        assert!(
            text.contains("  def execute_tool(name, args, context, records):"),
            "{text}"
        );
        assert!(
            text.contains("#   tooldojo practice THIS_FILE   "),
            "{text}"
        );
        assert!(
            !dir.path().join("solution.py").exists(),
            "nothing written yet"
        );
    }

    #[test]
    fn keys_help_grade_and_leave() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = PracticeScreen::open(dir.path(), Vec::new(), BTreeMap::new(), None);
        assert_eq!(s.on_key(key(KeyCode::Char('?'))), PracticeUpdate::Redraw);
        assert!(s.help);
        assert_eq!(
            s.on_key(key(KeyCode::Esc)),
            PracticeUpdate::Redraw,
            "closes the help"
        );
        assert_eq!(s.on_key(key(KeyCode::Esc)), PracticeUpdate::Leave);
        assert_eq!(s.on_key(key(KeyCode::Char('q'))), PracticeUpdate::Quit);
    }
}
