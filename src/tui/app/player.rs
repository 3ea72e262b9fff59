//! The full-screen trace player as a screen of the app: opened with `f` from a lesson's
//! trace block or straight from `tooldojo play`; while it is on top it takes the keys, the
//! clicks and the ticks, and Esc closes it. `q` and Ctrl-C still quit, Ctrl-Z still suspends.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use super::{App, Focus, Screen, Update};
use crate::tui::player::rerun::{RerunDone, RerunJob};
use crate::tui::player::{Player, PlayerOutcome};

impl App {
    /// Open `player` over the screen on top; Esc comes back there.
    pub fn open_player(&mut self, mut player: Player) {
        player.background = self.background_jobs;
        // In presenter mode `x` resets rather than writes a file, however the player opened
        // (a trace block's `f`, the Your tools screen, before any frame was drawn).
        player.demo |= self.demo;
        self.open_screen(Screen::Player(Box::new(player)));
    }

    /// From now on the player's re-runs wait for the event loop to take them with
    /// `take_player_job` and run them off the loop, instead of running inside a key press.
    pub fn run_jobs_in_background(&mut self) {
        self.background_jobs = true;
        if let Some(p) = self.player_mut() {
            p.background = true;
        }
    }

    /// A re-run the open player asked for and nobody runs yet.
    pub fn take_player_job(&mut self) -> Option<RerunJob> {
        self.player_mut()?.take_job()
    }

    /// A re-run is back: on screen if the player still waits for it.
    pub(super) fn player_rerun_done(&mut self, done: RerunDone) -> Update {
        let shown = self.player_mut().is_some_and(|p| p.finish_rerun(done));
        if shown { Update::Redraw } else { Update::None }
    }

    /// The player, when it is the screen on top.
    pub fn player(&self) -> Option<&Player> {
        match &self.screen {
            Screen::Player(p) => Some(p),
            _ => None,
        }
    }

    pub fn player_mut(&mut self) -> Option<&mut Player> {
        match &mut self.screen {
            Screen::Player(p) => Some(p),
            _ => None,
        }
    }

    /// `f` on a focused trace block: its run, full screen, at the block's time.
    pub(super) fn open_block_player(&mut self, key: &KeyEvent) -> Option<Update> {
        if key.code != KeyCode::Char('f') || !key.modifiers.is_empty() {
            return None;
        }
        let Focus::Block(i) = self.focus else {
            return None;
        };
        let mut player = self.blocks.widget(i).and_then(|w| w.full_screen())?;
        if self.demo {
            // In front of a room: slow enough to tell as it plays.
            let speed = crate::replay::playback::room_speed(player.tl.end_ms);
            player.pb.set_speed(speed);
        }
        self.open_player(player);
        Some(Update::Redraw)
    }

    /// A key while the player is on top.
    pub(super) fn key_to_player(&mut self, key: KeyEvent) -> Update {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('c') if ctrl => return Update::Quit,
            KeyCode::Char('z') if ctrl => return Update::Suspend,
            _ => {}
        }
        let Some(p) = self.player_mut() else {
            return Update::None;
        };
        match p.handle_key(key) {
            PlayerOutcome::Exit => {
                self.close_screen();
                Update::Redraw
            }
            PlayerOutcome::Changed => Update::Redraw,
            PlayerOutcome::Same => Update::None,
            PlayerOutcome::Ignored if key.code == KeyCode::Char('q') => Update::Quit,
            PlayerOutcome::Ignored => Update::None,
        }
    }

    /// A click while the player is on top (the player fills the screen).
    pub(super) fn mouse_to_player(&mut self, m: MouseEvent) -> Update {
        let Some(p) = self.player_mut() else {
            return Update::None;
        };
        if m.kind != MouseEventKind::Down(MouseButton::Left) {
            return Update::None;
        }
        match p.handle_click(m.column, m.row) {
            PlayerOutcome::Changed => Update::Redraw,
            _ => Update::None,
        }
    }
}
