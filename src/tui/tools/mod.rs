//! The "Your tools" screen: the declarations of a tools file with their marks (honoured,
//! strict-ready, traps let through), the selected one's schema as an outline with its weak
//! spots, its trap table, strict readiness and hygiene; and four things to do with it:
//! predict its traps (the predict table on its generated rows), the playground on it, the
//! fix list (and a fixed copy written beside the file), and a generated run in the trace
//! player. Everything shown is computed by the core (`crate::tools`) once per declaration,
//! when it first comes into view.
//!
//! - `draw.rs`: the browse view and the fix list;
//! - `list.rs`: the list of declarations and its legend;
//! - `table.rs`: the trap table of the detail;
//! - `help.rs`: the keys of each view, for the key bar and the help;
//! - `engine.rs`: the playground's engine on one declaration;
//! - `run.rs`: the generated scenario as a run the player plays.

mod draw;
pub mod engine;
mod fixed_view;
mod help;
mod list;
pub mod run;
mod table;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::course::tools_progress::{ToolsProgress, tool_key};
use crate::tools::hygiene::{self, Note};
use crate::tools::outline;
use crate::tools::strict::{Provider, Readiness};
use crate::tools::traps::{self, Fix, TrapReport};
use crate::tools::{Tool, ToolsFile};
use crate::tui::blocks::predict::PredictWidget;
use crate::tui::blocks::{BlockOutcome, BlockWidget};
use crate::tui::keys::{is_char, is_down, is_up, plain};
use crate::tui::theme::Theme;
use crate::validate::Validator;

use engine::ToolPlayground;

/// What the screen asks of the app after a key.
#[must_use]
pub enum ToolsUpdate {
    None,
    Redraw,
    /// Redraw and keep the screen's progress.
    Save,
    Leave,
    Quit,
    Suspend,
    /// Open this player (on a generated run) full screen.
    Play(Box<crate::tui::player::Player>),
}

/// Everything the core says of one declaration, computed once.
pub struct Analysis {
    pub traps: TrapReport,
    pub strict: Readiness,
    pub hygiene: Vec<Note>,
    pub outline: Vec<outline::Row>,
    pub validator: Option<Arc<Validator>>,
    /// The strict modes the declaration asks for: the fixed copy keeps them.
    pub asked: Vec<Provider>,
}

impl Analysis {
    fn of(tool: &Tool) -> Analysis {
        let traps = traps::report(tool);
        Analysis {
            strict: crate::tools::report::strict_of(tool),
            hygiene: hygiene::notes(tool, &traps),
            outline: outline::rows(tool.schema(), &traps),
            validator: tool.validator().cloned().map(Arc::new),
            asked: traps::cost::asked(tool),
            traps,
        }
    }

    /// The distinct fixes of what gets through, in the order the traps list them.
    pub fn fixes(&self) -> Vec<&Fix> {
        let mut out: Vec<&Fix> = Vec::new();
        for f in self.traps.traps.iter().filter_map(|t| t.fix.as_ref()) {
            if !out.iter().any(|o| o.at == f.at && o.key == f.key) {
                out.push(f);
            }
        }
        out
    }

    /// Does the fixed copy leave `fix` out: would it cost a strict mode the declaration
    /// asks for?
    pub fn left_out(&self, fix: &Fix) -> bool {
        fix.costs.iter().any(|p| self.asked.contains(p))
    }
}

/// What the screen shows besides the browse view.
enum Mode {
    Browse,
    Predict(Box<PredictWidget>),
    Play(Box<ToolPlayground>),
    Fixes,
}

impl Mode {
    /// The block hosted in the body (the predict table or the playground), if one is.
    fn hosted(&self) -> Option<&dyn BlockWidget> {
        match self {
            Mode::Predict(w) => Some(w.as_ref()),
            Mode::Play(p) => Some(p.as_ref()),
            Mode::Browse | Mode::Fixes => None,
        }
    }
}

/// Which half of the browse view takes the arrows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pane {
    List,
    Detail,
}

pub struct ToolsScreen {
    file: ToolsFile,
    sel: usize,
    pane: Pane,
    /// Rows of the detail pane scrolled away.
    scroll: u16,
    /// The detail's last frame: how far it scrolls (a key moves from the line shown and
    /// stops at the last, whatever size the window had when it was scrolled).
    detail_max: std::cell::Cell<u16>,
    mode: Mode,
    help: bool,
    /// Lines of the help scrolled away.
    help_scroll: usize,
    /// The help's last frame: how far it scrolls, and how many lines it showed.
    help_view: std::cell::Cell<(usize, usize)>,
    /// Rows of the fix list scrolled away (it opens at its top).
    fix_scroll: u16,
    /// The fix list's last frame: how far it scrolls, and how many lines it showed.
    fix_view: std::cell::Cell<(u16, u16)>,
    /// Rows of the hosted view (the predict table or the playground) scrolled away, when
    /// it is taller than the body.
    view_scroll: usize,
    /// The hosted view's last frame: how far it scrolls, how many rows it showed, how wide.
    view_rows: std::cell::Cell<(usize, usize, u16)>,
    /// A line saying what the last action did (a copy written, nothing to predict).
    note: Option<String>,
    cache: RefCell<HashMap<usize, Rc<Analysis>>>,
    /// The first list row drawn at the last frame.
    list_top: std::cell::Cell<usize>,
    /// For each declaration, what its name shares with the most alike other name.
    alike: std::cell::OnceCell<Vec<crate::tui::draw::Shared>>,
    progress: ToolsProgress,
    /// Shown to a room (presenter mode): the predict table asks nothing and shows each
    /// row's verdict, and runs play at a pace a room can follow.
    room: bool,
}

impl ToolsScreen {
    /// The screen on `file`, with the progress kept for it; `room`: shown to a room
    /// (presenter mode).
    pub fn new(file: ToolsFile, progress: Option<ToolsProgress>, room: bool) -> ToolsScreen {
        let mut progress = progress.unwrap_or_default();
        progress.file = file.name.clone();
        ToolsScreen {
            file,
            sel: 0,
            pane: Pane::List,
            scroll: 0,
            detail_max: std::cell::Cell::new(u16::MAX),
            mode: Mode::Browse,
            help: false,
            help_scroll: 0,
            help_view: std::cell::Cell::new((0, 0)),
            fix_scroll: 0,
            fix_view: std::cell::Cell::new((0, 0)),
            view_scroll: 0,
            view_rows: std::cell::Cell::new((0, 0, 0)),
            note: None,
            cache: RefCell::new(HashMap::new()),
            list_top: std::cell::Cell::new(0),
            alike: std::cell::OnceCell::new(),
            progress,
            room,
        }
    }

    /// The key progress on this file is kept under (its content hash, else its name).
    pub fn progress_key(&self) -> String {
        self.file
            .set
            .hash
            .clone()
            .unwrap_or_else(|| self.file.name.clone())
    }

    /// A line under the title until the next key.
    pub fn set_note(&mut self, note: &str) {
        self.note = Some(note.to_owned());
    }

    pub fn progress(&self) -> &ToolsProgress {
        &self.progress
    }

    /// This file's progress as another window left it, laid under this screen's own (the
    /// app merges the two): an open predict table whose saved state came from there is
    /// opened again on it, so that what it shows is what is saved.
    pub fn take_in(&mut self, progress: ToolsProgress) {
        let key = self.key_of();
        let changed =
            key.is_some_and(|k| progress.predict.get(&k) != self.progress.predict.get(&k));
        let file = std::mem::take(&mut self.progress.file);
        self.progress = ToolsProgress { file, ..progress };
        if changed && matches!(self.mode, Mode::Predict(_)) && !self.room {
            self.open_predict();
        }
    }

    pub fn selected(&self) -> usize {
        self.sel
    }

    /// The name of what the screen shows (`browse`, `predict`, `playground`, `fixes`).
    pub fn mode_name(&self) -> &'static str {
        match self.mode {
            Mode::Browse => "browse",
            Mode::Predict(_) => "predict",
            Mode::Play(_) => "playground",
            Mode::Fixes => "fixes",
        }
    }

    /// The analysis of declaration `i`, made on first use.
    pub fn analysis(&self, i: usize) -> Option<Rc<Analysis>> {
        let tool = self.file.set.tools.get(i)?;
        Some(
            self.cache
                .borrow_mut()
                .entry(i)
                .or_insert_with(|| Rc::new(Analysis::of(tool)))
                .clone(),
        )
    }

    fn tool(&self) -> Option<&Tool> {
        self.file.set.tools.get(self.sel)
    }

    /// Does a plain key type text now (the playground's arguments editor)?
    pub fn takes_text(&self) -> bool {
        matches!(&self.mode, Mode::Play(p) if p.captures_text() && p.editing())
    }

    /// Pasted text: into the playground's arguments while it is being edited.
    pub fn on_paste(&mut self, text: &str) -> ToolsUpdate {
        match &mut self.mode {
            Mode::Play(p) => match p.handle_paste(text).outcome {
                BlockOutcome::Changed => {
                    self.keep_block();
                    ToolsUpdate::Save
                }
                BlockOutcome::Consumed => ToolsUpdate::Redraw,
                _ => ToolsUpdate::None,
            },
            _ => ToolsUpdate::None,
        }
    }

    fn key_of(&self) -> Option<String> {
        self.tool().map(|t| tool_key(&t.at, &t.name))
    }

    pub fn on_key(&mut self, key: KeyEvent) -> ToolsUpdate {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('c') if ctrl => return ToolsUpdate::Quit,
            // While the arguments are being typed, Ctrl-Z undoes (as Ctrl-U does).
            KeyCode::Char('z') if ctrl && !self.takes_text() => return ToolsUpdate::Suspend,
            _ => {}
        }
        if self.help {
            return self.help_key(&key);
        }
        match &mut self.mode {
            Mode::Predict(w) => {
                let out = w.handle_key(key, true);
                return self.after_hosted(out, &key);
            }
            Mode::Play(p) => {
                let out = p.handle_key(key, true);
                return self.after_hosted(out, &key);
            }
            Mode::Fixes => return self.fixes_key(&key),
            Mode::Browse => {}
        }
        self.browse_key(&key)
    }

    /// A key the predict table or the playground handled (or gave back).
    fn after_block(&mut self, out: BlockOutcome, key: &KeyEvent) -> ToolsUpdate {
        match out {
            BlockOutcome::Changed => {
                self.keep_block();
                ToolsUpdate::Save
            }
            BlockOutcome::Consumed => ToolsUpdate::Redraw,
            BlockOutcome::Release => self.back_to_browse(),
            BlockOutcome::Ignored if plain(key, KeyCode::Esc) => self.back_to_browse(),
            BlockOutcome::Ignored if is_char(key, 'q') => ToolsUpdate::Quit,
            BlockOutcome::Ignored if is_char(key, '?') => {
                self.open_help();
                ToolsUpdate::Redraw
            }
            BlockOutcome::Ignored => ToolsUpdate::None,
        }
    }

    /// A key the predict table or the playground handled or gave back: the scroll keys it
    /// gave back scroll it when it is taller than the body, and after one it handled, the
    /// row it works on (its focus line) is kept in view.
    fn after_hosted(&mut self, out: BlockOutcome, key: &KeyEvent) -> ToolsUpdate {
        let (max, shown, width) = self.view_rows.get();
        let at = self.view_scroll.min(max);
        if out == BlockOutcome::Ignored && max > 0 {
            let page = shown.saturating_sub(3).max(1);
            let to = if is_down(key) {
                Some(at + 1)
            } else if is_up(key) {
                Some(at.saturating_sub(1))
            } else if plain(key, KeyCode::PageDown) {
                Some(at + page)
            } else if plain(key, KeyCode::PageUp) {
                Some(at.saturating_sub(page))
            } else {
                None
            };
            if let Some(to) = to {
                self.view_scroll = to.min(max);
                return ToolsUpdate::Redraw;
            }
        }
        if let (Some(w), BlockOutcome::Changed | BlockOutcome::Consumed) = (self.mode.hosted(), out)
        {
            let focus = usize::from(w.focus_line(width).unwrap_or(0));
            self.view_scroll = in_view(focus, at, max, shown);
        }
        self.after_block(out, key)
    }

    /// Keep what the open block did in the file's progress.
    fn keep_block(&mut self) {
        let Some(key) = self.key_of() else { return };
        match &self.mode {
            Mode::Predict(w) => {
                self.progress.predict.insert(key, w.save());
            }
            Mode::Play(p) if !p.flips().is_empty() || p.is_done() => {
                self.progress.played.insert(key);
            }
            _ => {}
        }
    }

    fn back_to_browse(&mut self) -> ToolsUpdate {
        self.keep_block();
        self.mode = Mode::Browse;
        ToolsUpdate::Save
    }

    fn browse_key(&mut self, key: &KeyEvent) -> ToolsUpdate {
        let n = self.file.set.tools.len();
        self.note = None;
        if is_char(key, 'q') {
            return ToolsUpdate::Quit;
        }
        if plain(key, KeyCode::Esc) {
            return ToolsUpdate::Leave;
        }
        if is_char(key, '?') {
            self.open_help();
        } else if plain(key, KeyCode::Tab) || plain(key, KeyCode::BackTab) {
            self.pane = match self.pane {
                Pane::List => Pane::Detail,
                Pane::Detail => Pane::List,
            };
        } else if is_down(key) && self.pane == Pane::List {
            self.select((self.sel + 1).min(n.saturating_sub(1)));
        } else if is_up(key) && self.pane == Pane::List {
            self.select(self.sel.saturating_sub(1));
        } else if is_down(key) || plain(key, KeyCode::PageDown) {
            let by = if plain(key, KeyCode::PageDown) { 10 } else { 1 };
            let max = self.detail_max.get();
            self.scroll = self.scroll.min(max).saturating_add(by).min(max);
        } else if is_up(key) || plain(key, KeyCode::PageUp) {
            let by = if plain(key, KeyCode::PageUp) { 10 } else { 1 };
            self.scroll = self.scroll.min(self.detail_max.get()).saturating_sub(by);
        } else if plain(key, KeyCode::Home) || is_char(key, 'g') {
            // The focused pane's top: the detail's, or the list's first declaration.
            match self.pane {
                Pane::Detail => self.scroll = 0,
                Pane::List => self.select(0),
            }
        } else if plain(key, KeyCode::End) || is_char(key, 'G') {
            match self.pane {
                Pane::Detail => self.scroll = self.detail_max.get(),
                Pane::List => self.select(n.saturating_sub(1)),
            }
        } else if plain(key, KeyCode::Enter) {
            self.open_predict();
        } else if is_char(key, 'p') {
            self.open_playground();
        } else if is_char(key, 'f') {
            if self.tool().is_some() {
                self.mode = Mode::Fixes;
                self.fix_scroll = 0;
                self.fix_view.set((u16::MAX, 0));
            }
        } else if is_char(key, 't') {
            return self.open_trace();
        } else {
            return ToolsUpdate::None;
        }
        ToolsUpdate::Redraw
    }

    fn select(&mut self, i: usize) {
        if i != self.sel {
            self.sel = i;
            self.scroll = 0;
            // Until it is drawn, the scroll keys scroll (the frame then says how far).
            self.detail_max.set(u16::MAX);
        }
    }

    fn open_predict(&mut self) {
        let (Some(a), Some(key)) = (self.analysis(self.sel), self.key_of()) else {
            return;
        };
        let Some(v) = a.validator.clone() else {
            self.note =
                Some("The validator refuses this declaration: there is nothing to predict.".into());
            return;
        };
        if a.traps.traps.is_empty() {
            self.note = Some("This declaration has no traps to predict.".into());
            return;
        }
        let mut w = PredictWidget::for_traps(&a.traps.traps, v);
        // A room is shown the table from its start, as a lesson's.
        if self.room {
            w.show_to_room();
        } else if let Some(saved) = self.progress.predict.get(&key) {
            w.restore(saved);
        }
        self.mode = Mode::Predict(Box::new(w));
        self.view_scroll = 0;
    }

    fn open_playground(&mut self) {
        let (Some(a), Some(tool)) = (self.analysis(self.sel), self.tool()) else {
            return;
        };
        let Some(v) = a.validator.clone() else {
            self.note =
                Some("The validator refuses this declaration: there is nothing to run.".into());
            return;
        };
        let args = a
            .traps
            .baseline
            .clone()
            .unwrap_or_else(|| serde_json::json!({}));
        let mut p = engine::playground(&tool.name, v, a.traps.traps.clone(), &args);
        if self.room {
            p.show_to_room();
        }
        self.mode = Mode::Play(Box::new(p));
        self.view_scroll = 0;
    }

    fn open_trace(&mut self) -> ToolsUpdate {
        let (Some(a), Some(tool)) = (self.analysis(self.sel), self.tool()) else {
            return ToolsUpdate::None;
        };
        match crate::tools::scenario::plan(tool, &a.traps) {
            Some(plan) => {
                if let Some(key) = self.key_of() {
                    self.progress.traced.insert(key);
                }
                let mut player = crate::tui::player::Player::new(run::build(&plan));
                if self.room {
                    // In front of a room: slow enough to tell as it plays.
                    let speed = crate::replay::playback::room_speed(player.tl.end_ms);
                    player.pb.set_speed(speed);
                    player.demo = true;
                }
                ToolsUpdate::Play(Box::new(player))
            }
            None => {
                self.note = Some(if a.validator.is_none() {
                    "The validator refuses this declaration: there is no run to play.".into()
                } else {
                    "No valid arguments could be made for this declaration, so there is no run \
                     to play."
                        .into()
                });
                ToolsUpdate::Redraw
            }
        }
    }

    fn fixes_key(&mut self, key: &KeyEvent) -> ToolsUpdate {
        if is_char(key, 'q') {
            return ToolsUpdate::Quit;
        }
        if is_char(key, '?') {
            self.open_help();
            return ToolsUpdate::Redraw;
        }
        if plain(key, KeyCode::Esc) || is_char(key, 'f') {
            // What `w` said is about this view: it goes with it.
            self.note = None;
            self.mode = Mode::Browse;
            return ToolsUpdate::Redraw;
        }
        if is_char(key, 'w') {
            self.note = Some(self.write_fixed());
            return ToolsUpdate::Redraw;
        }
        // The pages overlap by a line, so the reader keeps their place: the first and last
        // rows of a cut list are its marks of what lies above and below.
        let (max, shown) = self.fix_view.get();
        let page = shown.saturating_sub(3).max(1);
        let at = self.fix_scroll.min(max);
        let to = if is_down(key) {
            at.saturating_add(1)
        } else if is_up(key) {
            at.saturating_sub(1)
        } else if plain(key, KeyCode::PageDown) {
            at.saturating_add(page)
        } else if plain(key, KeyCode::PageUp) {
            at.saturating_sub(page)
        } else if plain(key, KeyCode::Home) || is_char(key, 'g') {
            0
        } else if plain(key, KeyCode::End) || is_char(key, 'G') {
            max
        } else {
            return ToolsUpdate::None;
        };
        self.fix_scroll = to.min(max);
        ToolsUpdate::Redraw
    }

    fn open_help(&mut self) {
        self.help = true;
        self.help_scroll = 0;
        // Until it is drawn, the scroll keys scroll (the frame then clamps them).
        self.help_view.set((usize::MAX, 0));
    }

    /// A key while the help is open: when it is taller than its window, the scroll keys
    /// scroll it; any other key closes it.
    fn help_key(&mut self, key: &KeyEvent) -> ToolsUpdate {
        let (max, shown) = self.help_view.get();
        let page = shown.saturating_sub(1).max(1);
        let at = self.help_scroll.min(max);
        let to = if max == 0 {
            None
        } else if is_down(key) {
            Some(at.saturating_add(1))
        } else if is_up(key) {
            Some(at.saturating_sub(1))
        } else if plain(key, KeyCode::PageDown) {
            Some(at.saturating_add(page))
        } else if plain(key, KeyCode::PageUp) {
            Some(at.saturating_sub(page))
        } else if plain(key, KeyCode::Home) || is_char(key, 'g') {
            Some(0)
        } else if plain(key, KeyCode::End) || is_char(key, 'G') {
            Some(max)
        } else {
            None
        };
        match to {
            Some(to) => self.help_scroll = to.min(max),
            None => self.help = false,
        }
        ToolsUpdate::Redraw
    }

    /// The selected declaration with every fix applied, but those that would cost a strict
    /// mode it asks for.
    pub fn fixed_declaration(&self) -> Option<serde_json::Value> {
        let tool = self.tool()?;
        let a = self.analysis(self.sel)?;
        let fixes: Vec<&Fix> = a.fixes().into_iter().filter(|f| !a.left_out(f)).collect();
        Some(traps::apply_fixes(
            &tool.declaration,
            tool.format.form(),
            &fixes,
        ))
    }

    /// Write the selected declaration, fixed, into the working directory as
    /// `NAME.fixed.json` (never over a file that is there).
    fn write_fixed(&self) -> String {
        let (Some(tool), Some(fixed)) = (self.tool(), self.fixed_declaration()) else {
            return "Nothing to write.".into();
        };
        let safe: String = tool
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let path = std::path::PathBuf::from(format!("{safe}.fixed.json"));
        let text = serde_json::to_string_pretty(&fixed).unwrap_or_default() + "\n";
        let name = crate::sanitize::clean(&path.display().to_string(), false);
        match crate::safe_file::write(&path, text.as_bytes(), false) {
            Ok(()) => format!("Wrote the fixed declaration to {name}."),
            Err(crate::safe_file::WriteError::Exists { .. }) => {
                format!("Not replaced: {name} exists. Delete or rename it, then press w again.")
            }
            Err(crate::safe_file::WriteError::Directory) => {
                format!("Not written: {name} is a directory. Rename it, then press w again.")
            }
            Err(e) => format!("Not written to {name}: {e}"),
        }
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, t: &Theme, present: bool) {
        draw::render(self, area, buf, t, present);
    }
}

/// Where a view scrolled to `at` (at most `max`, `shown` rows tall, a row of it taken by
/// the mark of the lines above when it is scrolled, and one by that of the lines below
/// when it does not reach the end) scrolls to for row `row` to show.
fn in_view(row: usize, at: usize, max: usize, shown: usize) -> usize {
    if max == 0 {
        return 0;
    }
    let first = at + usize::from(at > 0);
    let last = (at + shown).saturating_sub(1 + usize::from(at < max));
    let to = if row < first {
        row.saturating_sub(1)
    } else if row > last {
        (row + 2).saturating_sub(shown)
    } else {
        at
    };
    to.min(max)
}

/// The separator of a title's parts.
fn dot(t: &Theme) -> &'static str {
    if t.ascii { "-" } else { "·" }
}

#[cfg(test)]
mod tests;
