//! `quiz`: one question, choices with radio marks, an explanation per choice.
//! Pick with arrows + Enter or a number key; a wrong pick shows why and allows a retry;
//! once the right choice is picked every explanation is shown. Shown to a room
//! (presenter mode) it asks nothing: the options, then on the presenter's step the right
//! one and its explanation.

use crate::tui::draw::keybar::pick_keys;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use serde_json::{Value, json};

use crate::content::lessons::Quiz;
use crate::tui::blocks::common::{self, is_char, plain, verdict_lines, wrap_prefixed};
use crate::tui::blocks::list::{ListLines, ListView, list_key};
use crate::tui::blocks::{BlockOutcome, BlockWidget, KeyHint, RenderCtx};
use crate::tui::theme::{Theme, ThemeName};

struct QChoice {
    text: String,
    correct: bool,
    why: String,
}

pub struct QuizWidget {
    /// Inner width and scroll of the last draw, to map a mouse click to a choice.
    view: ListView,
    question: String,
    choices: Vec<QChoice>,
    cursor: usize,
    /// The current answer, if any.
    picked: Option<usize>,
    /// Every choice tried so far, in order (for "first try" and the explanations).
    tried: Vec<usize>,
    /// Shown to a room (presenter mode): no choice is asked for, the answer is only shown.
    room: bool,
}

/// A choice's explanation without a leading "Right." or "Wrong." (the mark beside it
/// says that already); the reason is what is left.
fn without_verdict_word(why: &str) -> &str {
    for word in ["Right.", "Correct.", "Wrong.", "Incorrect.", "Yes.", "No."] {
        if let Some(rest) = why.strip_prefix(word)
            && !rest.trim().is_empty()
        {
            return rest.trim_start();
        }
    }
    why
}

impl QuizWidget {
    pub fn new(spec: &Quiz) -> Result<QuizWidget, String> {
        if spec.choices.len() < 2 {
            return Err("quiz needs at least two choices".to_owned());
        }
        if !spec.choices.iter().any(|c| c.correct) {
            return Err("quiz has no correct choice".to_owned());
        }
        if spec.choices.len() > 9 {
            return Err("quiz has more than nine choices".to_owned());
        }
        Ok(QuizWidget {
            view: ListView::default(),
            question: common::prose(&spec.question),
            choices: spec
                .choices
                .iter()
                .map(|c| QChoice {
                    text: common::prose(&c.text),
                    correct: c.correct,
                    why: common::prose(&c.why),
                })
                .collect(),
            cursor: 0,
            picked: None,
            tried: Vec::new(),
            room: false,
        })
    }

    pub fn picked(&self) -> Option<usize> {
        self.picked
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The answer stands and is right.
    pub fn answered_correctly(&self) -> bool {
        self.picked.is_some_and(|i| self.choices[i].correct)
    }

    /// Right on the first pick.
    pub fn first_try(&self) -> Option<bool> {
        self.tried.first().map(|i| self.choices[*i].correct)
    }

    fn pick(&mut self, i: usize) -> BlockOutcome {
        if i >= self.choices.len() || self.answered_correctly() {
            return BlockOutcome::Consumed;
        }
        self.cursor = i;
        self.picked = Some(i);
        if !self.tried.contains(&i) {
            self.tried.push(i);
        }
        BlockOutcome::Changed
    }

    /// The lines, the line to keep in view, and which choice each line belongs to.
    fn lines(&self, theme: &Theme, width: usize, show_cursor: bool) -> ListLines {
        if self.room {
            return self.room_lines(theme, width);
        }
        let mut out = common::wrap_rich(Vec::new(), &self.question, width, theme.heading, theme);
        out.push(Line::default());
        let mut owners = vec![None; out.len()];
        let mut focus = 0;
        let solved = self.answered_correctly();
        for (i, c) in self.choices.iter().enumerate() {
            let here = show_cursor && i == self.cursor;
            if here {
                focus = out.len();
            }
            let chosen = self.picked == Some(i);
            let radio = if chosen {
                theme.sym.radio_on
            } else {
                theme.sym.radio_off
            };
            let pointer = if here { theme.sym.pointer } else { " " };
            let style = if here { theme.selected } else { theme.base };
            let prefix = vec![
                Span::styled(format!("{pointer} "), theme.focus),
                Span::styled(
                    format!("{radio} "),
                    if chosen { theme.accent } else { theme.dim },
                ),
                Span::styled(format!("{}. ", i + 1), theme.key),
            ];
            let first = out.len();
            out.extend(common::wrap_rich(prefix, &c.text, width, style, theme));
            // Explanations: the picked one (and earlier tries) right away, all once solved.
            let show_why = solved || self.tried.contains(&i);
            if show_why && !c.why.is_empty() {
                let (mark, st) = if c.correct {
                    (theme.sym.ok, theme.ok)
                } else {
                    (theme.sym.bad, theme.bad)
                };
                let prefix = vec![Span::raw("        "), Span::styled(format!("{mark} "), st)];
                let why = without_verdict_word(&c.why);
                out.extend(common::wrap_rich(prefix, why, width, theme.dim, theme));
                // The chosen choice's explanation is what the learner must see next.
                if self.picked == Some(i) {
                    focus = out.len() - 1;
                }
            }
            owners.resize(first, None);
            owners.resize(out.len(), Some(i));
        }
        out.push(Line::default());
        match self.picked {
            None => out.extend(wrap_prefixed(
                Vec::new(),
                "Pick an answer: a number key (or Enter, then the arrows and Enter).",
                width,
                theme.dim,
            )),
            Some(i) if self.choices[i].correct => {
                let detail = if self.first_try() == Some(true) {
                    "on the first try."
                } else {
                    "every explanation is shown above."
                };
                out.extend(verdict_lines(theme, true, "Correct", detail, width));
            }
            Some(_) => out.extend(verdict_lines(
                theme,
                false,
                "Incorrect",
                "read why above, then pick again (or r to clear).",
                width,
            )),
        }
        owners.resize(out.len(), None);
        (out, focus, owners)
    }

    /// The lines shown to a room: the question and its numbered options, with no radio
    /// marks and no cursor; once shown, the right option is marked and its explanation
    /// (only its) is under it.
    fn room_lines(&self, theme: &Theme, width: usize) -> ListLines {
        let mut out = common::wrap_rich(Vec::new(), &self.question, width, theme.heading, theme);
        out.push(Line::default());
        let mut owners = vec![None; out.len()];
        let mut focus = 0;
        let shown = self.answered_correctly();
        for (i, c) in self.choices.iter().enumerate() {
            let right = shown && c.correct;
            let mark = if right {
                Span::styled(format!("{} ", theme.sym.ok), theme.ok)
            } else {
                Span::raw("  ")
            };
            let prefix = vec![mark, Span::styled(format!("{}. ", i + 1), theme.key)];
            let style = if right { theme.selected } else { theme.base };
            let first = out.len();
            out.extend(common::wrap_rich(prefix, &c.text, width, style, theme));
            if right && !c.why.is_empty() {
                let why = without_verdict_word(&c.why);
                let indent = vec![Span::raw("     ")];
                out.extend(common::wrap_rich(indent, why, width, theme.dim, theme));
                focus = out.len() - 1;
            }
            owners.resize(first, None);
            owners.resize(out.len(), Some(i));
        }
        if !shown {
            out.push(Line::default());
            out.extend(wrap_prefixed(
                Vec::new(),
                "Space shows the right answer.",
                width,
                theme.dim,
            ));
        }
        owners.resize(out.len(), None);
        (out, focus, owners)
    }

    /// Presenter mode: nothing is picked. Entered, Space or Enter shows the right answer;
    /// Esc gives the focus back; other keys go on to the page.
    fn room_key(&mut self, key: &KeyEvent, active: bool) -> BlockOutcome {
        if !active {
            return BlockOutcome::Ignored;
        }
        if plain(key, KeyCode::Esc) {
            return BlockOutcome::Release;
        }
        if plain(key, KeyCode::Enter) || is_char(key, ' ') {
            return if self.present_step() {
                BlockOutcome::Changed
            } else {
                BlockOutcome::Consumed
            };
        }
        BlockOutcome::Ignored
    }
}

impl BlockWidget for QuizWidget {
    fn title(&self) -> String {
        "Quiz".to_owned()
    }

    fn height(&self, width: u16) -> u16 {
        let theme = Theme::new(ThemeName::Mono, false);
        let (lines, _, _) = self.lines(&theme, width.saturating_sub(2) as usize, false);
        (lines.len() + 2).min(u16::MAX as usize) as u16
    }

    fn show_to_room(&mut self) {
        self.room = true;
    }

    fn render(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx) {
        let status = match self.picked {
            Some(_) if self.room => "answer shown".to_owned(),
            Some(i) if self.choices[i].correct => format!("{} answered", ctx.theme.sym.ok),
            Some(_) => format!("{} try again", ctx.theme.sym.bad),
            None => String::new(),
        };
        let title = self.title();
        self.view
            .render(area, buf, ctx, (&title, &status), |t, w, c| {
                self.lines(t, w, c)
            });
    }

    fn handle_key(&mut self, key: KeyEvent, active: bool) -> BlockOutcome {
        if self.room {
            return self.room_key(&key, active);
        }
        // A number picks that choice even before the quiz is entered.
        if !active && let Some(i) = common::digit(&key) {
            return if i < self.choices.len() {
                self.pick(i)
            } else {
                BlockOutcome::Ignored
            };
        }
        if let Some(outcome) = list_key(&key, active, &mut self.cursor, self.choices.len()) {
            return outcome;
        }
        if let Some(i) = common::digit(&key) {
            return self.pick(i);
        }
        if plain(&key, KeyCode::Enter) || is_char(&key, ' ') {
            return self.pick(self.cursor);
        }
        if is_char(&key, 'r') {
            // Clearing a wrong answer to try again; a right answer stands.
            if self.picked.is_some() && !self.answered_correctly() {
                self.picked = None;
                return BlockOutcome::Changed;
            }
            return BlockOutcome::Consumed;
        }
        BlockOutcome::Ignored
    }

    fn key_hints(&self, active: bool) -> Vec<KeyHint> {
        if self.room {
            // The presenter's Space shows the answer; entered, Space does too.
            let mut v = Vec::new();
            if active && !self.answered_correctly() {
                v.push(KeyHint::new("Space", "show the answer"));
            }
            if active {
                v.push(KeyHint::new("Esc", "back to page"));
            }
            return v;
        }
        if !active {
            return vec![
                KeyHint::new(pick_keys!(self.choices.len()), "pick"),
                KeyHint::new("Enter", "answer the quiz"),
            ];
        }
        vec![
            KeyHint::new("Up/Down", "move"),
            KeyHint::new(pick_keys!("Enter/", self.choices.len(), ""), "pick"),
            KeyHint::new("r", "retry"),
            KeyHint::new("Esc", "back to page"),
        ]
    }

    fn save(&self) -> Value {
        json!({ "picked": self.picked, "tried": self.tried })
    }

    fn restore(&mut self, state: &Value) {
        let n = self.choices.len();
        if let Some(arr) = state.get("tried").and_then(Value::as_array) {
            self.tried = arr
                .iter()
                .filter_map(Value::as_u64)
                .map(|v| v as usize)
                .filter(|i| *i < n)
                .collect();
        }
        self.picked = state
            .get("picked")
            .and_then(Value::as_u64)
            .map(|v| v as usize)
            .filter(|i| *i < n);
        if let Some(p) = self.picked {
            self.cursor = p;
        }
    }

    fn is_done(&self) -> bool {
        self.answered_correctly()
    }

    /// Presenter mode: show the right answer and its explanation (once).
    fn present_step(&mut self) -> bool {
        if self.answered_correctly() {
            return false;
        }
        let Some(right) = self.choices.iter().position(|c| c.correct) else {
            return false;
        };
        self.cursor = right;
        self.picked = Some(right);
        true
    }

    fn present_unstep(&mut self) -> bool {
        if !self.answered_correctly() {
            return false;
        }
        self.picked = None;
        true
    }

    fn present_progress(&self) -> (usize, usize) {
        (usize::from(self.answered_correctly()), 1)
    }

    fn reset(&mut self) {
        self.picked = None;
        self.tried.clear();
        self.cursor = 0;
    }

    fn remaining(&self) -> Vec<String> {
        if self.answered_correctly() {
            Vec::new()
        } else {
            vec!["the quiz (the right answer)".to_owned()]
        }
    }

    fn focus_line(&self, width: u16) -> Option<u16> {
        Some(ListView::focus_line(width, |t, w, c| self.lines(t, w, c)))
    }

    fn handle_click(&mut self, row: u16, _col: u16) -> BlockOutcome {
        if self.room {
            return BlockOutcome::Ignored;
        }
        match self.view.clicked(row, |t, w, c| self.lines(t, w, c)) {
            Some(i) => self.pick(i),
            None => BlockOutcome::Ignored,
        }
    }
}
