//! The shell both playgrounds share: which pane has the focus, Tab and the rule switches,
//! typing into the engine's editors, the rules-and-flips panel (under the inputs, or in
//! the side column of a wide playground, where the rows that flip scroll), clicks, and
//! save/restore.

use std::cell::Cell;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use serde_json::Value;

use super::side::{self, SideView};
use super::{Engine, KeyEffect, Panel, RuleSwitch};
use crate::switches::Switch;
use crate::tui::blocks::common::{frame, is_char, is_down, is_up, plain};
use crate::tui::blocks::editor::{EditResult, Editor};
use crate::tui::blocks::panels::{self, Flip, RulesPanel};
use crate::tui::blocks::{BlockOutcome, BlockWidget, KeyHint, Pasted, RenderCtx};
use crate::tui::theme::Theme;

/// The rules' labels and what each checks, in switch order.
type Words = (Vec<&'static str>, Vec<&'static str>);

/// The state every playground keeps besides its engine's inputs.
pub struct Shell<R> {
    /// Where the last draw put the block (x, y) and the rule switches (absolute), for clicks.
    drawn: Cell<((u16, u16), Rect)>,
    focus: Panel,
    editing: bool,
    off: Option<R>,
    rule_cursor: usize,
    flips: Vec<Flip>,
    flip_total: usize,
    /// The first of the rows that flip the side column shows.
    flip_top: usize,
    /// What the side column showed of the rows that flip at the last draw (nothing when
    /// the rules were drawn under the inputs).
    side_view: Cell<SideView>,
    /// The block was entered at the last draw (its keys work).
    entered: Cell<bool>,
    /// The last draw's marks were ASCII.
    ascii: Cell<bool>,
    /// The rows the page offered the block at its last layout (0: none yet).
    room: Cell<u16>,
    /// What the rows the switches are tried on are called ("fixture rows").
    rows: &'static str,
    edited: bool,
    switched: bool,
}

impl<R: RuleSwitch> Shell<R> {
    fn new(rows: &'static str) -> Shell<R> {
        Shell {
            drawn: Cell::new(((0, 0), Rect::default())),
            focus: Panel::Args,
            editing: false,
            off: None,
            rule_cursor: 0,
            flips: Vec::new(),
            flip_total: 0,
            flip_top: 0,
            side_view: Cell::new(SideView::default()),
            entered: Cell::new(false),
            ascii: Cell::new(false),
            room: Cell::new(0),
            rows,
            edited: false,
            switched: false,
        }
    }

    pub fn focus(&self) -> Panel {
        self.focus
    }

    pub fn editing(&self) -> bool {
        self.editing
    }

    pub fn off(&self) -> Option<R> {
        self.off
    }

    /// The rows the page offered the block at its last layout (0: none yet): the focus
    /// line is found in the layout the block then took.
    pub fn room(&self) -> u16 {
        self.room.get()
    }

    /// `panel` has the focus and the block is shown as focused.
    pub fn shows(&self, panel: Panel, show: bool) -> bool {
        show && self.focus == panel
    }

    /// The learner is typing into `panel`.
    pub fn edits(&self, panel: Panel) -> bool {
        self.editing && self.focus == panel
    }

    fn words() -> Words {
        R::ALL.iter().map(|r| (r.label(), r.about())).unzip()
    }

    fn rules_panel<'a>(&'a self, words: &'a Words, cursor: Option<usize>) -> RulesPanel<'a> {
        RulesPanel {
            labels: &words.0,
            about: &words.1,
            off: self.off.map(|r| r.index()),
            cursor,
            flips: &self.flips,
            flip_total: self.flip_total,
            rows: self.rows,
        }
    }

    /// Lines the rules beside the rows that flip need under a narrow playground's inputs
    /// when they are `width` cells wide, in the marks of the last draw (the rows that
    /// flip take more lines in ASCII).
    pub fn under_height(&self, width: u16) -> u16 {
        self.under_rows(&self.drawn_theme(), width)
    }

    /// Lines the same rules take drawn in `theme`.
    pub fn under_rows(&self, theme: &Theme, width: u16) -> u16 {
        side::beside_height(&self.rules_panel(&Self::words(), None), theme, width)
    }

    /// A theme that measures text as the last draw showed it (in ASCII marks or not;
    /// Unicode before the first draw).
    pub fn drawn_theme(&self) -> Theme {
        Theme::new(crate::tui::theme::ThemeName::Mono, self.ascii.get())
    }

    /// Draw the rules beside the rows that flip under a narrow playground's inputs, and
    /// remember where the switches went.
    pub fn draw_under(&self, theme: &Theme, area: Rect, buf: &mut Buffer, show: bool) {
        let words = Self::words();
        let cursor = self.shows(Panel::Rules, show).then_some(self.rule_cursor);
        let ra = side::render_beside(&self.rules_panel(&words, cursor), theme, area, buf);
        let (origin, _) = self.drawn.get();
        self.drawn.set((origin, ra));
        self.side_view.set(SideView::default());
    }

    /// Rows the side column needs at `width` to show every row that flips.
    pub fn side_height(&self, width: u16) -> u16 {
        side::height(&self.rules_panel(&Self::words(), None), width)
    }

    /// Rows the side column needs at least at `width` (the rows that flip then scroll).
    pub fn side_least(&self, width: u16) -> u16 {
        side::least(&self.rules_panel(&Self::words(), None), width)
    }

    /// The row of the rule cursor, counted from the switches' heading (row 0).
    pub fn rule_row(&self) -> u16 {
        u16::try_from(self.rule_cursor + 1).unwrap_or(u16::MAX)
    }

    /// Draw the side column of a wide playground (the switches over the rows that flip,
    /// which go on in `spill`, the room under the verdict, when the column cannot hold
    /// them all) and remember where its switches went and how much of the rows it showed.
    pub fn draw_side(
        &self,
        theme: &Theme,
        (area, spill): (Rect, Rect),
        buf: &mut Buffer,
        show: bool,
    ) {
        let words = Self::words();
        let cursor = self.shows(Panel::Rules, show).then_some(self.rule_cursor);
        // Until the block is entered, PgUp and PgDn move the page, not the rows.
        let keys = if self.entered.get() {
            ("PgUp", "PgDn")
        } else {
            ("Enter, then PgUp", "Enter, then PgDn")
        };
        let panel = self.rules_panel(&words, cursor);
        let (ra, view) = side::render(&panel, theme, (area, buf), spill, self.flip_top, keys);
        let (origin, _) = self.drawn.get();
        self.drawn.set((origin, ra));
        self.side_view.set(view);
    }

    /// PgUp and PgDn page through the rows that flip while the side column cuts them.
    fn page_flips(&mut self, key: &KeyEvent) -> Option<BlockOutcome> {
        let down = plain(key, KeyCode::PageDown);
        if !(down || plain(key, KeyCode::PageUp)) {
            return None;
        }
        let view = self.side_view.get();
        if !view.cut() {
            return None;
        }
        self.flip_top = view.paged(self.flip_top, down);
        Some(BlockOutcome::Consumed)
    }
}

/// What an engine draws with: the shell's state, the theme, and whether the block shows
/// its focus (focused or entered).
pub struct Canvas<'a, R> {
    pub shell: &'a Shell<R>,
    pub theme: &'a Theme,
    pub show: bool,
}

impl<R> Clone for Canvas<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Canvas<'_, R> {}

/// A playground: the shared shell around one engine.
pub struct Playground<E: Engine> {
    engine: E,
    shell: Shell<E::Rule>,
    /// The engine's inputs as the lesson set them (what `reset` goes back to).
    initial: Value,
}

impl<E: Engine> Playground<E> {
    /// A playground on `engine`'s inputs, run once with every rule on.
    pub fn with_engine(engine: E) -> Playground<E> {
        let initial = Value::Object(engine.save());
        let mut p = Playground {
            engine,
            shell: Shell::new(E::ROWS),
            initial,
        };
        p.refresh();
        p
    }

    pub fn engine(&self) -> &E {
        &self.engine
    }

    pub fn focus(&self) -> Panel {
        self.shell.focus
    }

    pub fn editing(&self) -> bool {
        self.shell.editing
    }

    pub fn off(&self) -> Option<E::Rule> {
        self.shell.off
    }

    pub fn flips(&self) -> &[Flip] {
        &self.shell.flips
    }

    fn refresh(&mut self) {
        self.engine.refresh(self.shell.off);
    }

    /// Run every fixture row with all rules on and with the chosen rule off.
    fn refresh_flips(&mut self) {
        self.shell.flips.clear();
        self.shell.flip_total = 0;
        let Some(rule) = self.shell.off else {
            return;
        };
        for i in 0..self.engine.row_count() {
            if let Some(flip) = self.engine.compare_row(i, rule) {
                self.shell.flip_total += 1;
                self.shell.flips.extend(flip);
            }
        }
    }

    fn set_off(&mut self, rule: Option<E::Rule>) {
        self.shell.off = rule;
        self.shell.flip_top = 0;
        self.shell.switched = true;
        self.refresh();
        self.refresh_flips();
    }

    fn toggle_rule(&mut self, idx: usize) {
        self.shell.rule_cursor = idx;
        let rule = E::Rule::ALL[idx];
        self.set_off(panels::toggled(self.shell.off, rule));
    }

    fn jump_to_error(&mut self) -> bool {
        let Some((panel, line, column)) = self.engine.error_spot() else {
            return false;
        };
        let Some(editor) = self.engine.editor_mut(panel) else {
            return false;
        };
        editor.jump_to(line, column);
        self.shell.focus = panel;
        self.shell.editing = true;
        true
    }

    fn cycle_focus(&mut self, forward: bool) {
        let order = E::PANELS;
        let n = order.len();
        let i = order
            .iter()
            .position(|p| *p == self.shell.focus)
            .unwrap_or(0);
        self.shell.focus = order[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }];
    }

    /// Keys while the learner types into an editor.
    fn editing_key(&mut self, key: KeyEvent) -> BlockOutcome {
        let focus = self.shell.focus;
        let Some(editor) = self.engine.editor_mut(focus) else {
            return BlockOutcome::Consumed;
        };
        if plain(&key, KeyCode::Esc) || (editor.single_line && plain(&key, KeyCode::Enter)) {
            self.shell.editing = false;
            return BlockOutcome::Changed;
        }
        if !editor.input(key) {
            return BlockOutcome::Consumed;
        }
        self.engine.typed(focus);
        self.shell.edited = true;
        self.refresh();
        BlockOutcome::Changed
    }

    /// Pasted text into the editor being typed in, as one edit.
    fn paste(&mut self, text: &str) -> Pasted {
        let focus = self.shell.focus;
        let Some(editor) = self.engine.editor_mut(focus) else {
            return Pasted::IGNORED;
        };
        let (changed, cut) = editor.paste(text);
        if changed {
            self.engine.typed(focus);
            self.shell.edited = true;
            self.refresh();
        }
        let outcome = if changed {
            BlockOutcome::Changed
        } else {
            BlockOutcome::Consumed
        };
        Pasted { outcome, cut }
    }

    /// Keys of the focused pane when nobody is typing.
    fn pane_key(&mut self, key: KeyEvent) -> BlockOutcome {
        if let Some(outcome) = self.shell.page_flips(&key) {
            return outcome;
        }
        let focus = self.shell.focus;
        if let Some(effect) = self.engine.key(focus, &key) {
            if effect == KeyEffect::Edited {
                self.shell.edited = true;
            }
            self.refresh();
            return BlockOutcome::Changed;
        }
        if focus == Panel::Rules {
            return self.rules_key(key);
        }
        let Some(editor) = self.engine.editor_mut(focus) else {
            return BlockOutcome::Ignored;
        };
        if plain(&key, KeyCode::Enter) || is_char(&key, 'e') {
            self.shell.editing = true;
            return BlockOutcome::Changed;
        }
        if is_up(&key) || is_down(&key) {
            // Scroll a box too small for its text; otherwise the page moves.
            return if editor.scroll_rows(if is_up(&key) { -1 } else { 1 }) {
                BlockOutcome::Consumed
            } else {
                BlockOutcome::Ignored
            };
        }
        match editor_command(editor, &key) {
            Some(true) => {
                self.engine.typed(focus);
                self.shell.edited = true;
                self.refresh();
                BlockOutcome::Changed
            }
            Some(false) => BlockOutcome::Consumed,
            None => BlockOutcome::Ignored,
        }
    }

    fn rules_key(&mut self, key: KeyEvent) -> BlockOutcome {
        if is_up(&key) {
            self.shell.rule_cursor = self.shell.rule_cursor.saturating_sub(1);
            return BlockOutcome::Consumed;
        }
        if is_down(&key) {
            self.shell.rule_cursor = (self.shell.rule_cursor + 1).min(E::Rule::ALL.len() - 1);
            return BlockOutcome::Consumed;
        }
        if is_char(&key, ' ') || plain(&key, KeyCode::Enter) {
            self.toggle_rule(self.shell.rule_cursor);
            return BlockOutcome::Changed;
        }
        BlockOutcome::Ignored
    }
}

/// The editor commands of a focused pane: `c` clears, `o` goes back to the original,
/// `f` formats the JSON, `u` undoes. `Some(changed)` when the key was one of them.
pub(crate) fn editor_command(editor: &mut Editor, key: &KeyEvent) -> Option<bool> {
    if is_char(key, 'c') {
        Some(editor.clear())
    } else if is_char(key, 'o') {
        Some(editor.reset())
    } else if is_char(key, 'f') {
        Some(editor.format_json() == EditResult::Changed)
    } else if is_char(key, 'u') {
        Some(editor.undo())
    } else {
        None
    }
}

/// Key hints for a focused editor pane (not typing).
pub(crate) fn editor_hints(json: bool) -> Vec<KeyHint> {
    let mut v = vec![KeyHint::new("c", "clear"), KeyHint::new("o", "original")];
    if json {
        v.push(KeyHint::new("f", "format JSON"));
    }
    v.push(KeyHint::new("u", "undo"));
    v
}

impl<E: Engine> BlockWidget for Playground<E> {
    fn title(&self) -> String {
        E::TITLE.to_owned()
    }

    fn height(&self, width: u16) -> u16 {
        self.engine.height(&self.shell, width, 0)
    }

    fn height_for(&self, width: u16, available: u16) -> u16 {
        self.shell.room.set(available);
        self.engine.height(&self.shell, width, available)
    }

    fn render(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx) {
        let theme = ctx.theme;
        let status = self.engine.status(theme);
        let inner = frame(area, buf, ctx, E::TITLE, &status);
        if inner.is_empty() {
            return;
        }
        self.shell.drawn.set(((area.x, area.y), Rect::default()));
        self.shell.entered.set(ctx.active);
        self.shell.ascii.set(theme.ascii);
        let canvas = Canvas {
            shell: &self.shell,
            theme,
            show: ctx.focused || ctx.active,
        };
        self.engine.render(&canvas, inner, buf);
    }

    fn handle_key(&mut self, key: KeyEvent, active: bool) -> BlockOutcome {
        if !active {
            self.shell.editing = false;
            return BlockOutcome::Ignored;
        }
        let tab = plain(&key, KeyCode::Tab);
        let backtab = key.code == KeyCode::BackTab
            || (key.code == KeyCode::Tab && key.modifiers.contains(KeyModifiers::SHIFT));
        if tab || backtab {
            self.shell.editing = false;
            self.cycle_focus(tab);
            return BlockOutcome::Consumed;
        }
        if self.shell.editing {
            return self.editing_key(key);
        }
        if plain(&key, KeyCode::Esc) {
            return BlockOutcome::Release;
        }
        if is_char(&key, 'g') {
            return if self.jump_to_error() {
                BlockOutcome::Changed
            } else {
                BlockOutcome::Consumed
            };
        }
        self.pane_key(key)
    }

    fn focus_line(&self, width: u16) -> Option<u16> {
        Some(self.engine.focus_line(&self.shell, width))
    }

    fn handle_click(&mut self, row: u16, col: u16) -> BlockOutcome {
        // A click on a rule switch selects it and flips it, as Space would.
        let Some((idx, _)) = panels::clicked_rule(self.shell.drawn.get(), row, col, E::Rule::ALL)
        else {
            return BlockOutcome::Ignored;
        };
        self.shell.editing = false;
        self.shell.focus = Panel::Rules;
        self.toggle_rule(idx);
        BlockOutcome::Changed
    }

    fn key_hints(&self, active: bool) -> Vec<KeyHint> {
        if !active {
            return vec![KeyHint::new("Enter", "open the playground")];
        }
        if self.shell.editing {
            return vec![
                KeyHint::new("Esc", "stop editing"),
                KeyHint::new("Ctrl-U", "undo"),
                KeyHint::new("Tab", "next panel"),
            ];
        }
        let mut v = vec![KeyHint::new("Tab", E::TAB_HINT)];
        if self.shell.focus == Panel::Rules {
            v.push(KeyHint::new("Up/Down", "rule"));
            v.push(KeyHint::new("Space", "switch off/on"));
        } else {
            v.extend(self.engine.panel_hints(self.shell.focus));
            if E::PANELS.contains(&self.shell.focus) && self.shell.focus != Panel::Context {
                v.extend(editor_hints(self.shell.focus != Panel::Tool));
            }
        }
        v.extend(self.engine.extra_hints());
        if self.engine.error_spot().is_some() {
            v.push(KeyHint::new("g", "go to JSON error"));
        }
        if self.shell.side_view.get().cut() {
            v.push(KeyHint::new("PgUp/PgDn", "rows that flip"));
        }
        v.push(KeyHint::new("Esc", "back to page"));
        v
    }

    fn captures_text(&self) -> bool {
        self.shell.editing
    }

    /// More room makes the editors taller, or shows more of the rows that flip.
    fn fills_room(&self) -> bool {
        true
    }

    fn handle_paste(&mut self, text: &str) -> Pasted {
        if !self.shell.editing {
            return Pasted::IGNORED;
        }
        self.paste(text)
    }

    fn save(&self) -> Value {
        let mut state = self.engine.save();
        let off = self
            .shell
            .off
            .map(|r| serde_json::to_value(r).unwrap_or(Value::Null));
        state.insert("off".into(), off.unwrap_or(Value::Null));
        state.insert("edited".into(), Value::Bool(self.shell.edited));
        state.insert("switched".into(), Value::Bool(self.shell.switched));
        Value::Object(state)
    }

    fn restore(&mut self, state: &Value) {
        self.engine.restore(state);
        let flag = |name: &str| state.get(name).and_then(Value::as_bool).unwrap_or(false);
        self.shell.edited = flag("edited");
        self.shell.switched = flag("switched");
        self.shell.off = state
            .get("off")
            .and_then(|v| serde_json::from_value(v.clone()).ok());
        self.refresh();
        self.refresh_flips();
    }

    /// Explored: the learner edited something and tried a rule switch.
    fn is_done(&self) -> bool {
        self.shell.edited && self.shell.switched
    }

    /// The lesson's inputs again, every rule on, nothing explored yet.
    fn reset(&mut self) {
        let initial = self.initial.clone();
        self.engine.restore(&initial);
        self.shell = Shell::new(E::ROWS);
        self.refresh();
    }

    fn remaining(&self) -> Vec<String> {
        let todo: Vec<&str> = [
            (!self.shell.edited).then_some("edit the arguments"),
            (!self.shell.switched).then_some("switch a rule"),
        ]
        .into_iter()
        .flatten()
        .collect();
        if todo.is_empty() {
            return Vec::new();
        }
        vec![format!("the playground ({})", todo.join(", "))]
    }
}
