//! `explain`: the learner answers in their own words (a `ratatui-textarea` editor), then
//! compares with the model answer, ticks the key points they covered, and sees an honest
//! word-overlap hint (labelled as such: shared words are not understanding). Shown to a
//! room (presenter mode) nothing is written: the presenter shows the model answer and may
//! tick its key points.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use serde_json::{Value, json};

use crate::content::lessons::Explain;
use crate::tui::blocks::common::{self, frame, is_char, is_down, is_up, plain, wrap_prefixed};
use crate::tui::blocks::editor::Editor;
use crate::tui::blocks::overlap;
use crate::tui::blocks::{BlockOutcome, BlockWidget, KeyHint, Pasted, RenderCtx};
use crate::tui::theme::{Theme, ThemeName};

/// Inner width from which the model answer goes beside the learner's answer.
const WIDE: u16 = 96;

/// The comparison panel's width beside the answer box in a block `inner` wide (at least
/// [`WIDE`]): the right half, less a column of space. Heights are measured at this width.
fn compare_width(inner: u16) -> u16 {
    (inner - inner / 2).saturating_sub(1)
}
const EDITOR_MIN: u16 = 5;

pub struct ExplainWidget {
    question: String,
    model_answer: String,
    key_points: Vec<String>,
    editor: Editor,
    editing: bool,
    /// Compared at least once (the block is done).
    compared: bool,
    /// The comparison panel is open (`c` toggles it).
    showing: bool,
    ticked: Vec<bool>,
    kp_cursor: usize,
    /// Shown to a room (presenter mode): no answer is written or compared.
    room: bool,
}

impl ExplainWidget {
    pub fn new(spec: &Explain) -> Result<ExplainWidget, String> {
        if spec.question.trim().is_empty() {
            return Err("explain block has no question".to_owned());
        }
        if spec.model_answer.trim().is_empty() {
            return Err("explain block has no model answer".to_owned());
        }
        Ok(ExplainWidget {
            question: common::prose(&spec.question),
            model_answer: common::prose(&spec.model_answer),
            key_points: spec.key_points.iter().map(|k| common::prose(k)).collect(),
            editor: Editor::new(""),
            editing: false,
            compared: false,
            showing: false,
            ticked: vec![false; spec.key_points.len()],
            kp_cursor: 0,
            room: false,
        })
    }

    pub fn answer(&self) -> String {
        self.editor.text()
    }

    pub fn compared(&self) -> bool {
        self.compared
    }

    /// The comparison panel is open.
    pub fn showing(&self) -> bool {
        self.showing
    }

    pub fn ticked(&self) -> &[bool] {
        &self.ticked
    }

    /// For each key point, its content words whose stem the learner's answer shares (in
    /// the key point's own form: `claim` for an answer that says `claims`).
    pub fn overlap(&self) -> Vec<Vec<String>> {
        let mine = overlap::stems(&self.answer());
        self.key_points
            .iter()
            .map(|k| overlap::shared(k, &mine))
            .collect()
    }

    /// Rows of the answer box at inner width `inner`: the wrapped answer, at least
    /// [`EDITOR_MIN`]; at most 10 unless `grow` (the page has room for all of it).
    fn editor_height(&self, inner: u16, grow: bool) -> u16 {
        if self.room {
            // Shown to a room nothing is written: no answer box.
            return 0;
        }
        let bw = if self.showing && inner >= WIDE {
            inner / 2
        } else {
            inner
        };
        let full = self.editor.full_height(bw).max(EDITOR_MIN);
        if grow { full } else { full.min(10) }
    }

    /// Lines of the comparison panel (model answer, key points, hint).
    fn compare_lines(
        &self,
        theme: &Theme,
        width: usize,
        show_cursor: bool,
    ) -> (Vec<Line<'static>>, usize) {
        let mut out = Vec::new();
        let mut focus = 0;
        out.push(Line::from(Span::styled("Model answer", theme.heading)));
        out.extend(common::wrap_rich(
            Vec::new(),
            &self.model_answer,
            width,
            theme.base,
            theme,
        ));
        if self.key_points.is_empty() {
            return (out, focus);
        }
        out.push(Line::default());
        // A room wrote no answer: its key points come without the hints about one.
        let heading = if self.room {
            "Key points"
        } else {
            "Key points: tick the ones your answer covered"
        };
        out.push(Line::from(Span::styled(heading, theme.heading)));
        let overlap = self.overlap();
        let answer_empty = self.answer().trim().is_empty();
        for (i, point) in self.key_points.iter().enumerate() {
            let here = show_cursor && i == self.kp_cursor;
            if here {
                focus = out.len();
            }
            let (mark, st) = if self.ticked[i] {
                (theme.sym.checked, theme.ok)
            } else {
                (theme.sym.unchecked, theme.dim)
            };
            let pointer = if here { theme.sym.pointer } else { " " };
            let prefix = vec![
                Span::styled(format!("{pointer} "), theme.focus),
                Span::styled(format!("{mark} "), st),
            ];
            let style = if here { theme.selected } else { theme.base };
            out.extend(common::wrap_rich(prefix, point, width, style, theme));
            if self.room {
                continue;
            }
            let hint = if answer_empty {
                "no answer written".to_owned()
            } else if overlap[i].is_empty() {
                "no shared words".to_owned()
            } else {
                format!("shares: {}", overlap[i].join(", "))
            };
            out.extend(wrap_prefixed(
                vec![Span::raw("        ")],
                &hint,
                width,
                theme.dim,
            ));
        }
        out.push(Line::default());
        if self.room {
            return (out, focus);
        }
        out.extend(wrap_prefixed(
            Vec::new(),
            "Hint, not a grade: shared words only show where to look; judge the ticks yourself.",
            width,
            theme.dim,
        ));
        (out, focus)
    }

    /// Draw the comparison panel's `lines` into `area`, scrolled so line `at` (the focused
    /// key point's) shows: the first key point with the model answer above it from its top
    /// when it fits, the last with everything under it; with no focus, from the top. A mark
    /// on the first row says how many lines are above, one on the last how many below.
    fn draw_compare(
        &self,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        lines: &[Line],
        at: Option<usize>,
    ) {
        let h = usize::from(area.height);
        let total = lines.len();
        let max = total.saturating_sub(h);
        let last = self.key_points.len().saturating_sub(1);
        let skip = match at {
            None => 0,
            Some(_) if max == 0 => 0,
            Some(_) if self.kp_cursor == last => max,
            Some(focus) if self.kp_cursor == 0 => (focus + 2).saturating_sub(h).min(max),
            Some(focus) => {
                // Centred, and clear of the rows the marks take.
                let centred = common::scroll_to(focus, h, total);
                centred
                    .max((focus + 2).saturating_sub(h))
                    .min(focus.saturating_sub(1))
                    .min(max)
            }
        };
        common::draw_lines(area, buf, lines, skip);
        common::mark_cut(area, buf, theme, (skip, total), ("", ""));
    }

    /// The line under the answer: what the keys do now. Until the block is entered its keys
    /// do nothing, so the line says to enter it first. Once the model answer is out
    /// (compared, or shown by the presenter) it says what is left: ticking key points,
    /// hiding or showing the answer.
    fn status_lines(&self, theme: &Theme, width: usize, active: bool) -> Vec<Line<'static>> {
        if self.editing {
            return wrap_prefixed(
                Vec::new(),
                "Typing: Esc stops editing; Ctrl-U (or Ctrl-Z) undoes.",
                width,
                theme.dim,
            );
        }
        let enter = if active { "" } else { "Enter, then " };
        if self.room && !self.showing {
            let text = if active {
                "Space or c shows the model answer."
            } else {
                "Space shows the model answer."
            };
            return wrap_prefixed(Vec::new(), text, width, theme.dim);
        }
        if self.compared || self.showing {
            let n = self.ticked.iter().filter(|t| **t).count();
            let more = match (self.showing, self.key_points.is_empty()) {
                (true, false) => "Space ticks a key point; c hides the model answer",
                (true, true) => "c hides the model answer",
                (false, _) => "c shows the model answer again",
            };
            let ticked = if self.key_points.is_empty() {
                String::new()
            } else {
                format!("{n} of {} key points ticked; ", self.key_points.len())
            };
            let mark = if self.compared {
                vec![Span::styled(
                    format!("{} compared  ", theme.sym.ok),
                    theme.ok,
                )]
            } else {
                Vec::new()
            };
            return wrap_prefixed(mark, &format!("{ticked}{enter}{more}."), width, theme.dim);
        }
        let text = match (self.answer().trim().is_empty(), active) {
            (true, true) => "Enter or e: write your answer; c: compare with the model answer.",
            (true, false) => {
                "Enter twice: write your answer; Enter, then c: compare with the model answer."
            }
            (false, true) => "c: compare with the model answer; Enter or e: keep editing.",
            (false, false) => {
                "Enter, then c: compare with the model answer; Enter twice: keep editing."
            }
        };
        wrap_prefixed(Vec::new(), text, width, theme.dim)
    }

    /// Keys on the key points while the model answer shows: move, tick (Space, Enter, x),
    /// or tick one by its number.
    fn key_point_key(&mut self, key: &KeyEvent) -> BlockOutcome {
        if !self.showing || self.key_points.is_empty() {
            return BlockOutcome::Ignored;
        }
        if is_up(key) {
            self.kp_cursor = self.kp_cursor.saturating_sub(1);
            return BlockOutcome::Consumed;
        }
        if is_down(key) {
            if self.kp_cursor + 1 < self.key_points.len() {
                self.kp_cursor += 1;
            }
            return BlockOutcome::Consumed;
        }
        if is_char(key, ' ') || plain(key, KeyCode::Enter) || is_char(key, 'x') {
            self.ticked[self.kp_cursor] = !self.ticked[self.kp_cursor];
            return BlockOutcome::Changed;
        }
        if let Some(i) = common::digit(key)
            && i < self.key_points.len()
        {
            self.kp_cursor = i;
            self.ticked[i] = !self.ticked[i];
            return BlockOutcome::Changed;
        }
        BlockOutcome::Ignored
    }

    /// Presenter mode, the block entered: nothing is written or compared. Space, Enter or
    /// `c` show the model answer, `c` hides it again; the key points tick as they do out of
    /// presenter mode.
    fn room_key(&mut self, key: &KeyEvent) -> BlockOutcome {
        if is_char(key, 'c') {
            self.showing = !self.showing;
            return BlockOutcome::Changed;
        }
        if !self.showing && (is_char(key, ' ') || plain(key, KeyCode::Enter)) {
            self.showing = true;
            return BlockOutcome::Changed;
        }
        self.key_point_key(key)
    }

    /// The keys that tick a key point: the one under the cursor, or one by its number.
    fn tick_keys(&self) -> &'static str {
        crate::tui::draw::keybar::pick_keys!("Space/Enter/", self.key_points.len(), "")
    }

    /// Presenter mode: only what is left to do with the model answer (nothing to write).
    fn room_hints(&self, active: bool) -> Vec<KeyHint> {
        let points = !self.key_points.is_empty();
        if !active {
            return if self.showing && points {
                vec![KeyHint::new("Enter", "tick key points")]
            } else {
                Vec::new()
            };
        }
        let mut v = Vec::new();
        if !self.showing {
            v.push(KeyHint::new("Space/Enter/c", "show answer"));
        } else {
            if points {
                v.push(KeyHint::new("Up/Down", "key point"));
                v.push(KeyHint::new(self.tick_keys(), "tick"));
            }
            v.push(KeyHint::new("c", "hide answer"));
        }
        v.push(KeyHint::new("Esc", "back to page"));
        v
    }
}

impl ExplainWidget {
    /// Shown to a room, under the question: once shown, a blank line, the model answer
    /// and its key points; the presenter's keys at the bottom.
    fn render_room(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx) {
        let theme = ctx.theme;
        let st = self.status_lines(theme, area.width as usize, ctx.active);
        let sh = (st.len() as u16).min(area.height);
        let [body, status_area] = area.layout(&Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(sh),
        ]));
        common::draw_lines(status_area, buf, &st, 0);
        if !self.showing || body.is_empty() {
            return;
        }
        let show_cursor = ctx.active || ctx.focused;
        let (lines, focus) = self.compare_lines(theme, body.width as usize, show_cursor);
        let lines: Vec<Line> = std::iter::once(Line::default()).chain(lines).collect();
        let at = (show_cursor && !self.key_points.is_empty()).then_some(focus + 1);
        self.draw_compare(body, buf, theme, &lines, at);
    }
}

impl BlockWidget for ExplainWidget {
    fn title(&self) -> String {
        "Explain in your own words".to_owned()
    }

    fn height(&self, width: u16) -> u16 {
        let theme = Theme::new(ThemeName::Mono, false);
        let w = width.saturating_sub(2);
        let q = common::wrap_rich(Vec::new(), &self.question, w as usize, theme.base, &theme).len()
            as u16;
        // Entering the block changes the status line; the block keeps the taller one's height.
        let st = [false, true]
            .map(|active| self.status_lines(&theme, w as usize, active).len() as u16)
            .into_iter()
            .max()
            .unwrap_or(0);
        if self.room {
            // The question, then (shown) a blank line, the model answer and its points.
            let shown = if self.showing {
                1 + self.compare_lines(&theme, w as usize, false).0.len() as u16
            } else {
                0
            };
            return 2 + q + st + shown;
        }
        let mut h = 2 + q + st + self.editor_height(w, false) + 1;
        if self.showing {
            let cw = if w >= WIDE { compare_width(w) } else { w };
            let (cl, _) = self.compare_lines(&theme, cw as usize, false);
            if w >= WIDE {
                h = h.max(2 + q + st + cl.len() as u16);
            } else {
                h += cl.len() as u16 + 1;
            }
        }
        h
    }

    fn render(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx) {
        let theme = ctx.theme;
        let status = if self.compared {
            format!("{} compared", theme.sym.ok)
        } else {
            String::new()
        };
        let inner = frame(area, buf, ctx, &self.title(), &status);
        if inner.is_empty() {
            return;
        }
        let q = common::wrap_rich(
            Vec::new(),
            &self.question,
            inner.width as usize,
            theme.heading,
            theme,
        );
        let qh = (q.len() as u16).min(inner.height);
        let [qa, rest] = inner.layout(&Layout::vertical([
            Constraint::Length(qh),
            Constraint::Fill(1),
        ]));
        common::draw_lines(qa, buf, &q, 0);
        if self.room {
            self.render_room(rest, buf, ctx);
            return;
        }
        if rest.height < 2 {
            return;
        }
        let st = self.status_lines(theme, rest.width as usize, ctx.active);
        let sh = (st.len() as u16).min(rest.height.saturating_sub(1));
        let [body, status_area] = rest.layout(&Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(sh),
        ]));
        common::draw_lines(status_area, buf, &st, 0);
        let show_cursor = (ctx.active || ctx.focused) && !self.editing;
        if self.showing && inner.width >= WIDE {
            let [left, right] = body.layout(&Layout::horizontal([
                Constraint::Length(inner.width / 2),
                Constraint::Fill(1),
            ]));
            self.editor
                .render(left, buf, theme, self.editing, "Your answer", ctx.active);
            let pad = Rect {
                x: right.x + 1,
                width: compare_width(inner.width),
                ..right
            };
            let (lines, focus) = self.compare_lines(theme, pad.width as usize, show_cursor);
            let at = (show_cursor && !self.key_points.is_empty()).then_some(focus);
            self.draw_compare(pad, buf, theme, &lines, at);
        } else {
            let eh = self.editor_height(inner.width, true).min(body.height);
            let [ed, below] = body.layout(&Layout::vertical([
                Constraint::Length(eh),
                Constraint::Fill(1),
            ]));
            self.editor
                .render(ed, buf, theme, self.editing, "Your answer", ctx.active);
            if self.showing {
                let (lines, focus) = self.compare_lines(theme, below.width as usize, show_cursor);
                let at = (show_cursor && !self.key_points.is_empty()).then_some(focus);
                self.draw_compare(below, buf, theme, &lines, at);
            }
        }
    }

    fn handle_key(&mut self, key: KeyEvent, active: bool) -> BlockOutcome {
        if !active {
            self.editing = false;
            return BlockOutcome::Ignored;
        }
        if self.editing {
            if plain(&key, KeyCode::Esc) {
                self.editing = false;
                return BlockOutcome::Changed;
            }
            return if self.editor.input(key) {
                BlockOutcome::Changed
            } else {
                BlockOutcome::Consumed
            };
        }
        if plain(&key, KeyCode::Esc) {
            return BlockOutcome::Release;
        }
        if self.room {
            return self.room_key(&key);
        }
        if is_char(&key, 'e') || (plain(&key, KeyCode::Enter) && !self.showing) {
            self.editing = true;
            return BlockOutcome::Changed;
        }
        if is_char(&key, 'u') || plain(&key, KeyCode::Backspace) {
            // Undo, or clear the answer (undo brings it back).
            let changed = if is_char(&key, 'u') {
                self.editor.undo()
            } else {
                self.editor.clear()
            };
            return if changed {
                BlockOutcome::Changed
            } else {
                BlockOutcome::Consumed
            };
        }
        if is_char(&key, 'c') {
            // Opens the comparison (the block is done from then on); again hides it.
            self.compared = true;
            self.showing = !self.showing;
            return BlockOutcome::Changed;
        }
        self.key_point_key(&key)
    }

    fn key_hints(&self, active: bool) -> Vec<KeyHint> {
        if self.room {
            return self.room_hints(active);
        }
        if !active {
            return vec![KeyHint::new("Enter", "answer in your words")];
        }
        if self.editing {
            return vec![
                KeyHint::new("Esc", "stop editing"),
                KeyHint::new("Ctrl-U", "undo"),
            ];
        }
        let edit = if self.showing { "e" } else { "Enter/e" };
        let mut v = vec![KeyHint::new(edit, "edit answer")];
        if !self.answer().is_empty() {
            v.push(KeyHint::new("Backspace", "clear"));
            v.push(KeyHint::new("u", "undo"));
        }
        if self.showing {
            v.push(KeyHint::new("Up/Down", "key point"));
            v.push(KeyHint::new(self.tick_keys(), "tick"));
            v.push(KeyHint::new("c", "hide answer"));
        } else if self.compared {
            v.push(KeyHint::new("c", "show answer"));
        } else {
            v.push(KeyHint::new("c", "compare"));
        }
        v.push(KeyHint::new("Esc", "back to page"));
        v
    }

    fn captures_text(&self) -> bool {
        self.editing
    }

    fn show_to_room(&mut self) {
        self.room = true;
    }

    fn handle_paste(&mut self, text: &str) -> Pasted {
        if !self.editing {
            return Pasted::IGNORED;
        }
        let (changed, cut) = self.editor.paste(text);
        let outcome = if changed {
            BlockOutcome::Changed
        } else {
            BlockOutcome::Consumed
        };
        Pasted { outcome, cut }
    }

    fn save(&self) -> Value {
        json!({
            "answer": self.answer(),
            "compared": self.compared,
            "hidden": self.compared && !self.showing,
            "ticked": self.ticked,
        })
    }

    fn restore(&mut self, state: &Value) {
        if let Some(a) = state.get("answer").and_then(Value::as_str) {
            self.editor.set_text(a);
        }
        self.compared = state
            .get("compared")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        self.showing = self.compared && state.get("hidden").and_then(Value::as_bool) != Some(true);
        if let Some(arr) = state.get("ticked").and_then(Value::as_array) {
            for (i, v) in arr.iter().enumerate().take(self.ticked.len()) {
                self.ticked[i] = v.as_bool().unwrap_or(false);
            }
        }
    }

    fn is_done(&self) -> bool {
        self.compared
    }

    /// Presenter mode: open the model answer (once).
    fn present_step(&mut self) -> bool {
        if self.showing {
            return false;
        }
        self.editing = false;
        self.showing = true;
        true
    }

    /// Presenter mode: hide the model answer again (key points stay as ticked).
    fn present_unstep(&mut self) -> bool {
        let was = self.showing;
        self.showing = false;
        was
    }

    fn present_progress(&self) -> (usize, usize) {
        (usize::from(self.showing), 1)
    }

    fn reset(&mut self) {
        self.editor = Editor::new("");
        self.editing = false;
        self.compared = false;
        self.showing = false;
        self.ticked.iter_mut().for_each(|t| *t = false);
        self.kp_cursor = 0;
    }

    fn remaining(&self) -> Vec<String> {
        if self.compared {
            Vec::new()
        } else {
            vec!["the explain question (compare with c)".to_owned()]
        }
    }

    fn height_for(&self, width: u16, available: u16) -> u16 {
        let need = self.height(width);
        let inner = width.saturating_sub(2);
        let grown = self.editor_height(inner, true);
        let extra = grown.saturating_sub(self.editor_height(inner, false));
        need + extra.min(available.saturating_sub(need))
    }

    fn focus_line(&self, width: u16) -> Option<u16> {
        let theme = Theme::new(ThemeName::Mono, false);
        let w = width.saturating_sub(2);
        let q = common::wrap_rich(Vec::new(), &self.question, w as usize, theme.base, &theme).len()
            as u16;
        let eh = self.editor_height(w, false);
        if self.room {
            // Under the question: the status line, or the model answer's key points.
            let shown = self.showing.then(|| {
                let (_, focus) = self.compare_lines(&theme, w as usize, true);
                1 + focus as u16
            });
            return Some(1 + q + shown.unwrap_or(0));
        }
        if self.showing && !self.editing {
            let cw = if w >= WIDE { compare_width(w) } else { w };
            let (_, focus) = self.compare_lines(&theme, cw as usize, true);
            let below = if w >= WIDE { 0 } else { eh };
            return Some(1 + q + below + focus as u16);
        }
        // The editor's cursor line (its box has a top border; it scrolls past its height).
        let row = (self.editor.wrapped(w.saturating_sub(2)).1 as u16).min(eh.saturating_sub(3));
        Some(1 + q + 1 + row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widget(key_points: &[&str]) -> ExplainWidget {
        ExplainWidget::new(&Explain {
            question: "Why validate a proposed call at runtime?".into(),
            model_answer: "The schema guides the model; it does not bind it.".into(),
            key_points: key_points.iter().map(|k| (*k).to_owned()).collect(),
        })
        .unwrap()
    }

    fn status(w: &ExplainWidget, active: bool) -> String {
        let theme = Theme::new(ThemeName::Mono, false);
        w.status_lines(&theme, 200, active)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn once_the_model_answer_is_shown_the_line_says_what_is_left() {
        // Presenter mode shows the model answer without a comparison.
        let mut w = widget(&["the schema does not bind the model"]);
        assert!(status(&w, false).contains("c: compare with the model answer"));
        assert!(w.present_step());
        for active in [false, true] {
            let line = status(&w, active);
            assert!(!line.contains("write your answer"), "{line}");
            assert!(!line.contains("compare with"), "{line}");
            assert!(line.contains("c hides the model answer"), "{line}");
            assert!(line.contains("Space ticks a key point"), "{line}");
            assert!(!line.contains("compared"), "nothing was compared: {line}");
        }
        assert!(status(&w, false).contains("Enter, then Space ticks"));
        // With no key points there is nothing to tick.
        let mut bare = widget(&[]);
        assert!(bare.present_step());
        assert_eq!(status(&bare, true), "c hides the model answer.");
        // Out of presenter mode: `c` compares; hidden again, `c` shows it again.
        let mut w = widget(&["the schema does not bind the model"]);
        let c = KeyEvent::from(KeyCode::Char('c'));
        let _ = w.handle_key(c, true);
        let line = status(&w, true);
        assert!(
            line.contains("compared") && line.contains("c hides"),
            "{line}"
        );
        let _ = w.handle_key(c, true);
        assert!(status(&w, false).contains("Enter, then c shows the model answer again."));
    }

    #[test]
    fn the_key_bar_names_enter_where_it_edits_or_ticks() {
        let bar = |w: &ExplainWidget| {
            w.key_hints(true)
                .iter()
                .map(|h| format!("{} {}", h.keys, h.what))
                .collect::<Vec<_>>()
        };
        let mut w = widget(&["the schema does not bind the model"]);
        assert!(
            bar(&w).contains(&"Enter/e edit answer".to_owned()),
            "{:?}",
            bar(&w)
        );
        let _ = w.handle_key(KeyEvent::from(KeyCode::Char('c')), true);
        // Shown, Enter ticks the key point under the cursor; `e` still edits.
        let keys = bar(&w);
        // The digits it names tick a key point by its number.
        assert!(keys.contains(&"Space/Enter/1 tick".to_owned()), "{keys:?}");
        let _ = w.handle_key(KeyEvent::from(KeyCode::Char('1')), true);
        assert_eq!(w.ticked, [true]);
        let _ = w.handle_key(KeyEvent::from(KeyCode::Char('1')), true);
        assert_eq!(w.ticked, [false]);
        assert!(keys.contains(&"e edit answer".to_owned()), "{keys:?}");
        let _ = w.handle_key(KeyEvent::from(KeyCode::Enter), true);
        assert_eq!(w.ticked, [true]);
    }

    /// The comparison panel's text, as drawn at `width`.
    fn compared_text(w: &ExplainWidget, width: usize) -> String {
        let theme = Theme::new(ThemeName::Mono, false);
        w.compare_lines(&theme, width, false)
            .0
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn a_key_point_said_in_other_inflections_shares_its_words() {
        let mut w = widget(&["A cast is a claim, not a validation"]);
        w.editor = Editor::new("Casts are claims, not checks. JSON arrives at runtime untyped.");
        assert_eq!(w.overlap(), [["cast", "claim"]]);
        let text = compared_text(&w, 80);
        assert!(text.contains("shares: cast, claim"), "{text}");
        assert!(!text.contains("no shared words"), "{text}");
    }

    #[test]
    fn beside_the_answer_the_comparison_is_drawn_to_its_last_line_at_every_width() {
        let points = [
            "the schema guides the model but does not bind it",
            "a proposed call is untrusted input",
            "check before the handler runs",
        ];
        for width in WIDE + 2..=180 {
            let mut w = widget(&points);
            w.editor = Editor::new("The schema is a hint to the model, not a guarantee.");
            let _ = w.handle_key(KeyEvent::from(KeyCode::Char('c')), true);
            let text = drawn(&w, width, false);
            let last = compared_text(&w, usize::from(compare_width(width - 2)));
            let last = last.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
            assert!(text.contains(last.trim()), "{width}: {last:?}:\n{text}");
        }
    }

    /// The block drawn whole at `width`, to a room (`demo`) or to a learner.
    fn drawn(w: &ExplainWidget, width: u16, demo: bool) -> String {
        let theme = Theme::new(ThemeName::Mono, false);
        let area = Rect::new(0, 0, width, w.height(width));
        let mut buf = Buffer::empty(area);
        let ctx = RenderCtx {
            theme: &theme,
            focused: true,
            active: false,
            demo,
        };
        w.render(area, &mut buf, &ctx);
        crate::text::cell_text(&buf)
    }

    #[test]
    fn to_a_room_the_block_shows_the_question_then_the_model_answer_and_its_points() {
        let points = ["the schema does not bind the model"];
        for width in [80, 150] {
            let mut w = widget(&points);
            w.show_to_room();
            assert!(w.present_step());
            let text = drawn(&w, width, true);
            for part in [
                "Your answer",
                "(empty)",
                "no answer written",
                "tick the ones your answer covered",
                "Hint, not a grade",
            ] {
                assert!(!text.contains(part), "{width}: {part:?}:\n{text}");
            }
            for part in [
                "Why validate",
                "Model answer",
                "does not bind it",
                "Key points",
            ] {
                assert!(text.contains(part), "{width}: {part:?}:\n{text}");
            }
            // A learner still has the box, the hints and the words to tick by.
            let mut w = widget(&points);
            let _ = w.handle_key(KeyEvent::from(KeyCode::Char('c')), true);
            let text = drawn(&w, width, false);
            for part in [
                "Your answer",
                "no answer written",
                "tick the ones your answer covered",
                "Hint, not a grade",
            ] {
                assert!(text.contains(part), "{width}: {part:?}:\n{text}");
            }
        }
    }
}
