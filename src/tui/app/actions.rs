//! Input: keys and mouse become actions, and actions change the state. A key goes first to
//! an entered block, then to the key table of the context on top.

use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::{App, Focus, Overlay, Update};
use crate::tui::blocks::BlockOutcome;
use crate::tui::keys::{self, Action, Context};

/// Rows one turn of the mouse wheel scrolls.
const WHEEL_ROWS: usize = 3;

impl App {
    pub(super) fn on_key(&mut self, key: KeyEvent) -> Update {
        let ctx = self.context();
        if self.demo
            && matches!(ctx, Context::Reader | Context::BlockFocused)
            && let Some(c) = keys::present_lookup(&key)
        {
            return self.apply(c.action);
        }
        if matches!(ctx, Context::BlockActive | Context::BlockFocused)
            && let Some(u) = self.open_block_player(&key)
        {
            return u;
        }
        if ctx == Context::BlockActive
            && let Focus::Block(i) = self.focus
        {
            return self.key_to_entered_block(i, key);
        }
        if matches!(ctx, Context::Home | Context::Reader | Context::Sidebar)
            && let Some(u) = self.audit_key(&key, ctx == Context::Home)
        {
            return u;
        }
        if let Some(c) = keys::lookup(ctx, &key) {
            return self.apply(c.action);
        }
        if ctx == Context::BlockFocused
            && let Focus::Block(i) = self.focus
        {
            return self.key_to_focused_block(i, key);
        }
        Update::None
    }

    /// `A`: the log the app was given, audited; on the home screen without one, the shipped
    /// example (elsewhere `A` is a key only when there is a log).
    fn audit_key(&mut self, key: &KeyEvent, home: bool) -> Option<Update> {
        let offered = self.has_audit_log() || home;
        (offered && keys::is_char(key, 'A')).then(|| self.open_audit())
    }

    /// A page key a block left alone (scrolling, turning the page, `A`).
    fn page_key(&mut self, key: &KeyEvent) -> Update {
        match keys::lookup(Context::Reader, key) {
            Some(c) => self.apply(c.action),
            None => self.audit_key(key, false).unwrap_or(Update::None),
        }
    }

    /// Pasted text: into the entered block when it takes text, as one edit; anywhere else
    /// it is dropped, never read as keys.
    pub(super) fn on_paste(&mut self, text: &str) -> Update {
        let Focus::Block(i) = self.focus else {
            return Update::None;
        };
        if !self.active || self.context() != Context::BlockActive {
            return Update::None;
        }
        let (slot_h, width) = self.focused_height();
        let pasted = match self.widget_mut(i) {
            Some(w) if w.captures_text() => w.handle_paste(text),
            _ => return Update::None,
        };
        if pasted.cut {
            self.status = Some(crate::tui::blocks::editor::cut_notice());
        }
        match pasted.outcome {
            BlockOutcome::Changed => {
                let out = self.after_block_change();
                self.keep_focus_line(slot_h, width);
                out
            }
            BlockOutcome::Ignored => Update::None,
            _ => Update::Redraw,
        }
    }

    /// A key while block `i` is entered: the block's own keys first, page keys after.
    fn key_to_entered_block(&mut self, i: usize, key: KeyEvent) -> Update {
        // A block that takes text takes Ctrl-Z too: its editor undoes (as Ctrl-U does).
        let typing = self.blocks.widget(i).is_some_and(|w| w.captures_text());
        if let Some(c) = keys::lookup(Context::BlockActive, &key)
            && c.action != Action::Back
            && !(typing && c.action == Action::Suspend)
        {
            return self.apply(c.action);
        }
        let (outcome, captures) = match self.widget_mut(i) {
            Some(w) => (w.handle_key(key, true), w.captures_text()),
            None => (BlockOutcome::Ignored, false),
        };
        match outcome {
            BlockOutcome::Changed => self.after_block_change(),
            BlockOutcome::Consumed => Update::Redraw,
            BlockOutcome::Release => {
                self.active = false;
                self.after_block_change()
            }
            BlockOutcome::Ignored if key.code == KeyCode::Esc => {
                self.active = false;
                Update::Redraw
            }
            BlockOutcome::Ignored if captures => Update::None,
            BlockOutcome::Ignored => {
                // A block that does not take text lets page keys through.
                match keys::lookup(Context::BlockFocused, &key) {
                    // Focus and page moves end the block's turn themselves.
                    Some(c) if c.action != Action::Activate => self.apply(c.action),
                    Some(_) => Update::None,
                    None => self.page_key(&key),
                }
            }
        }
    }

    /// A key the focused (not entered) block may take before the page does.
    fn key_to_focused_block(&mut self, i: usize, key: KeyEvent) -> Update {
        let outcome = match self.widget_mut(i) {
            Some(w) => w.handle_key(key, false),
            None => BlockOutcome::Ignored,
        };
        match outcome {
            BlockOutcome::Changed => return self.after_block_change(),
            BlockOutcome::Consumed => return Update::Redraw,
            BlockOutcome::Release => {
                self.focus = Focus::Page;
                return Update::Redraw;
            }
            BlockOutcome::Ignored => {}
        }
        self.page_key(&key)
    }

    fn after_block_change(&mut self) -> Update {
        self.note_progress();
        self.clamp_scroll();
        Update::Save
    }

    /// Carry out one command.
    pub(super) fn apply(&mut self, action: Action) -> Update {
        if matches!(self.screen, super::Screen::Home { .. })
            && self.overlay.is_none()
            && let Some(done) = self.apply_home(action)
        {
            return done;
        }
        match action {
            Action::Quit => return Update::Quit,
            Action::Suspend => return Update::Suspend,
            Action::ToggleHelp => {
                self.overlay = match self.overlay {
                    Some(Overlay::Help) => None,
                    _ => Some(Overlay::Help),
                };
            }
            Action::Back => self.back(),
            Action::FocusNext => self.move_focus(true),
            Action::FocusPrev => self.move_focus(false),
            Action::Up | Action::Down | Action::PageUp | Action::PageDown => {
                self.move_in_view(action)
            }
            Action::Top => {
                self.scroll = 0;
                self.view_moved = true;
            }
            Action::Bottom => {
                self.scroll = self.max_scroll();
                self.view_moved = true;
            }
            Action::NextPage => return self.next_page(),
            Action::PrevPage => return self.prev_page(),
            Action::Left => {
                if self.sidebar_visible() {
                    self.focus = Focus::Sidebar;
                    self.sidebar_sel = self.lesson;
                } else {
                    self.status = Some("The lesson list is hidden: press s to show it.".into());
                }
            }
            Action::Right => {}
            Action::ToggleSidebar => return self.toggle_sidebar(),
            Action::Activate => return self.activate(),
            Action::Rehearse => return self.open_drill_now(),
            Action::Practice => return self.open_practice(),
            Action::Tools => return self.open_tools(),
            Action::Step => return self.step(),
            Action::StepBack => self.step_back(),
            Action::ResetBlock => return self.reset_focused_block(),
            Action::ResetPage => return self.reset_page(),
        }
        Update::Redraw
    }

    /// Esc: close the overlay, else leave the block, else give the focus to the page,
    /// else (the page already has it) go back to the home screen, or to the audit from a
    /// finding's lesson opened there.
    fn back(&mut self) {
        if self.overlay.is_some() {
            self.overlay = None;
        } else if self.active {
            self.active = false;
        } else if self.focus != Focus::Page {
            self.focus = Focus::Page;
        } else if matches!(self.screen, super::Screen::Lesson) {
            if self.peeking() {
                let _ = self.open_audit();
            } else {
                self.go_home();
            }
        }
    }

    /// Tab and Shift-Tab: the page, its blocks, then the lesson list, round and round.
    /// Tab never jumps to a block above the view: from the page, or from a block out of
    /// view above, it takes the first block that reaches into the view or lies below it.
    fn move_focus(&mut self, forward: bool) {
        let mut order: Vec<Focus> = vec![Focus::Page];
        // Presenter mode: only the blocks already stepped to.
        order.extend((0..self.blocks_shown()).map(Focus::Block));
        if self.sidebar_visible() {
            order.push(Focus::Sidebar);
        }
        let at = order.iter().position(|f| *f == self.focus).unwrap_or(0);
        let next = if forward {
            let view = self.page_view(self.content_area().width);
            let below = view.first_slot_below(self.scroll);
            // With every block above the view: on to the list, or the page.
            let past_blocks = order.len() - usize::from(self.sidebar_visible());
            // The first block below the view, if it is in the order (a block not yet
            // stepped to is not, nor any after it).
            let block_at = |i| {
                order
                    .iter()
                    .position(|f| *f == Focus::Block(i))
                    .unwrap_or(past_blocks)
            };
            match (self.focus, below) {
                (Focus::Page, Some(i)) => block_at(i),
                (Focus::Page | Focus::Block(_), None) => past_blocks,
                (Focus::Block(b), Some(i)) if i > b => block_at(i),
                _ => (at + 1) % order.len(),
            }
        } else {
            (at + order.len() - 1) % order.len()
        };
        self.focus = order[next % order.len()];
        self.active = false;
        if self.focus == Focus::Sidebar {
            self.sidebar_sel = self.lesson;
        }
        self.reveal_focus();
        self.note_progress();
    }

    /// Up and down: a row in the lesson list, or the page's scroll by a line or a screen.
    fn move_in_view(&mut self, action: Action) {
        let view_h = usize::from(self.content_area().height.max(1));
        let screen = view_h.saturating_sub(1).max(1);
        self.view_moved = self.focus != Focus::Sidebar;
        match (action, self.focus) {
            (Action::Up, Focus::Sidebar) => self.sidebar_sel = self.sidebar_sel.saturating_sub(1),
            (Action::Down, Focus::Sidebar) => {
                self.sidebar_sel = (self.sidebar_sel + 1).min(self.lessons.len().saturating_sub(1))
            }
            (Action::Up, _) => self.scroll = self.scroll.saturating_sub(1),
            (Action::Down, _) => {
                self.scroll += 1;
                self.clamp_scroll();
            }
            (Action::PageUp, _) => self.scroll = self.scroll.saturating_sub(screen),
            (Action::PageDown, _) => {
                self.scroll += screen;
                self.clamp_scroll();
            }
            _ => {}
        }
    }

    /// `s`: show or hide the lesson list for windows of this width class. Only a choice
    /// made where the list shows by itself (`NARROW_WIDTH` columns and more) is kept for
    /// the next session: hiding it in a narrow window only undoes an `s` made there.
    fn toggle_sidebar(&mut self) -> Update {
        let show = !self.sidebar_visible();
        if self.size.width >= super::NARROW_WIDTH {
            self.sidebar_wide = show;
            // The projector hides the list by itself: only the learner's own choice is kept.
            if !self.present {
                self.progress.sidebar_hidden = !show;
            }
        } else {
            self.sidebar_narrow = show;
        }
        if !self.sidebar_visible() && self.focus == Focus::Sidebar {
            self.focus = Focus::Page;
        }
        if show && !self.sidebar_visible() {
            self.status = Some("The lesson list needs a window at least 80 columns wide.".into());
        } else if show {
            // The list shows what other windows finished meanwhile.
            let _ = self.look_at_progress();
        }
        self.reveal_focus();
        Update::Save
    }

    /// Enter: open the selected lesson, take the first block in view, or enter the block.
    fn activate(&mut self) -> Update {
        match self.focus {
            Focus::Sidebar => {
                if self.sidebar_sel == self.lesson {
                    // The lesson already open: back to where the learner was.
                    self.focus = Focus::Page;
                } else if self.sidebar_sel < self.lessons.len() {
                    let sel = self.sidebar_sel;
                    self.end_peek_here();
                    self.open(sel, self.resume_page(sel));
                    self.focus = Focus::Page;
                    return Update::Save;
                }
            }
            Focus::Page => {
                let view = self.page_view(self.content_area().width);
                if let Some(i) = view.first_slot_below(self.scroll) {
                    self.focus = Focus::Block(i);
                    self.active = self.blocks.widget(i).is_some();
                    self.reveal_focus();
                }
            }
            Focus::Block(i) => {
                if self.blocks.widget(i).is_some() {
                    self.active = true;
                    self.show_focus_top();
                    self.keep_focus_line(0, 0);
                } else {
                    self.status =
                        Some("This block could not be built; see the message in it.".into());
                }
            }
        }
        Update::Redraw
    }

    pub(super) fn on_mouse(&mut self, m: MouseEvent) -> Update {
        match m.kind {
            MouseEventKind::ScrollDown => {
                self.scroll += WHEEL_ROWS;
                self.clamp_scroll();
                Update::Redraw
            }
            MouseEventKind::ScrollUp => {
                self.scroll = self.scroll.saturating_sub(WHEEL_ROWS);
                Update::Redraw
            }
            MouseEventKind::Down(MouseButton::Left) if self.overlay.is_none() => self.click(m),
            _ => Update::None,
        }
    }

    /// A left click on the lesson list or the page.
    fn click(&mut self, m: MouseEvent) -> Update {
        let areas = self.areas(self.size);
        let pos = Position::new(m.column, m.row);
        if matches!(self.screen, super::Screen::Home { .. }) {
            let rows = crate::tui::home::home_rows(self, areas.main);
            return match rows.iter().find(|(r, _, h)| (*r..r + h).contains(&m.row)) {
                Some(&(_, n, _)) => self.open_home_entry(n),
                None => Update::None,
            };
        }
        if let Some(side) = areas.sidebar
            && side.contains(pos)
        {
            return self.click_sidebar(side, m.row);
        }
        if areas.content.contains(pos) {
            return self.click_page(areas.content, pos);
        }
        Update::None
    }

    fn click_sidebar(&mut self, side: Rect, row: u16) -> Update {
        let rows = crate::tui::ui::sidebar_rows(self, side);
        if let Some(&(_, i)) = rows.iter().find(|(r, _)| *r == row) {
            self.focus = Focus::Sidebar;
            self.sidebar_sel = i;
            if i != self.lesson {
                self.open(i, self.resume_page(i));
                return Update::Save;
            }
        }
        Update::Redraw
    }

    /// Focus what was clicked and hand the click to a block (select a row, pick a choice,
    /// flip a switch), in the block's own coordinates: its top border is row 0.
    fn click_page(&mut self, content: Rect, pos: Position) -> Update {
        let y = self.scroll + usize::from(pos.y - content.y);
        let hit = self.page_view(content.width).slot_at(y);
        let target = hit.map_or(Focus::Page, |(i, _)| Focus::Block(i));
        if target != self.focus {
            self.focus = target;
            self.active = false;
        }
        let Some((i, row)) = hit else {
            return Update::Redraw;
        };
        let row = u16::try_from(row).unwrap_or(u16::MAX);
        let col = pos.x - content.x;
        let outcome = match self.widget_mut(i) {
            Some(w) => w.handle_click(row, col),
            None => return Update::Redraw,
        };
        match outcome {
            BlockOutcome::Changed => self.after_block_change(),
            BlockOutcome::Release => {
                self.active = false;
                self.after_block_change()
            }
            BlockOutcome::Consumed | BlockOutcome::Ignored => Update::Redraw,
        }
    }
}
