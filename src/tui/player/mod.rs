//! The full-screen trace player: a real orchestrator run as a timeline with its budgets,
//! attempts, timeouts and partial successes, played over virtual time. Opened with `f` on a
//! lesson's trace block, by `tooldojo play`, and drawn by `tooldojo render trace:NAME@T`.
//!
//! `model` turns a `Run` into lanes once; `state` moves the cursor; `frame` draws the
//! frame at the cursor time (a pure function of the run and that time); `knobs` changes the
//! scenario and re-runs the real orchestrator, keeping the previous run for comparison.

pub mod frame;
pub mod glyphs;
mod index;
pub mod inline;
pub mod knobs;
pub mod model;
pub mod notes;
pub mod panes;
pub mod rerun;
pub mod rows;
pub mod state;
pub mod timeline;
pub mod warn;

use std::cell::RefCell;
use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::orchestrator::{Scenario, chrome_trace, run_blocking};

use rerun::Pending;

use knobs::Knobs;
use model::Timeline;
use state::{Moved, Playback};
use timeline::Geometry;

/// What a key or click did. `#[must_use]`: the app decides whether to redraw or leave.
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerOutcome {
    /// Not a key the player uses.
    Ignored,
    /// Nothing visible changed.
    Same,
    Changed,
    /// Esc with nothing to close: leave the player.
    Exit,
}

impl From<Moved> for PlayerOutcome {
    fn from(m: Moved) -> Self {
        match m {
            Moved::Same => PlayerOutcome::Same,
            Moved::Changed => PlayerOutcome::Changed,
        }
    }
}

/// An overlay inside the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    None,
    Legend,
    Knobs,
}

#[derive(Clone)]
pub struct Player {
    pub tl: Timeline,
    /// The run before the last re-run, on the same axis.
    pub before: Option<Timeline>,
    pub show_before: bool,
    pub pb: Playback,
    pub knobs: Knobs,
    pub panel: Panel,
    /// Rows the detail pane is scrolled by.
    pub detail_scroll: u16,
    /// A one-line message (where the Chrome trace went, a re-run's result).
    pub status: Option<String>,
    /// Where `x` writes the Chrome trace.
    pub export_dir: PathBuf,
    /// Where the last frame put the axis and lanes (for clicks).
    pub geometry: RefCell<Geometry>,
    /// Re-runs go to whoever calls `take_job` instead of running on the spot (the
    /// interactive app runs them off its event loop).
    pub background: bool,
    pending: Pending,
}

impl Player {
    /// Run the real orchestrator on `scenario` and open the player at time 0.
    pub fn new(scenario: Scenario, seed: u64) -> Player {
        let run = run_blocking(&scenario, seed);
        Player::from_run(scenario, seed, run)
    }

    /// Open the player on a run already made from `scenario` and `seed`.
    pub fn from_run(scenario: Scenario, seed: u64, run: crate::orchestrator::Run) -> Player {
        let tl = Timeline::build(&scenario, run);
        Player {
            tl,
            before: None,
            show_before: true,
            pb: Playback::default(),
            knobs: Knobs::new(scenario, seed),
            panel: Panel::None,
            detail_scroll: 0,
            status: None,
            export_dir: std::env::current_dir().unwrap_or_else(|_| std::env::temp_dir()),
            geometry: RefCell::new(Geometry::default()),
            background: false,
            pending: Pending::default(),
        }
    }

    pub fn t_ms(&self) -> u64 {
        self.pb.t_ms()
    }

    pub fn seek(&mut self, t: u64) {
        let _ = self.pb.seek(&self.tl, t);
    }

    pub fn playing(&self) -> bool {
        self.pb.playing
    }

    /// One frame of play; true while still playing.
    pub fn tick(&mut self) -> bool {
        self.pb.tick(&self.tl)
    }

    /// The previous run, when it is to be shown.
    pub fn compare(&self) -> Option<&Timeline> {
        self.before.as_ref().filter(|_| self.show_before)
    }

    /// Write the run on screen as a Chrome trace and say where.
    pub fn export(&mut self) {
        let name = format!(
            "tooldojo-{}-seed{}.trace.json",
            self.tl.scenario, self.tl.run.seed
        );
        let path = self.export_dir.join(name);
        let text = serde_json::to_string(&chrome_trace(&self.tl.run)).unwrap_or_default();
        self.status = Some(match std::fs::write(&path, text + "\n") {
            Ok(()) => format!(
                "Chrome trace written to {} (open it in Perfetto)",
                crate::sanitize::clean(&path.display().to_string(), false)
            ),
            Err(e) => format!("Could not write {}: {e}", path.display()),
        });
    }

    pub fn handle_key(&mut self, key: KeyEvent) -> PlayerOutcome {
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return PlayerOutcome::Ignored;
        }
        match self.panel {
            Panel::Legend => {
                return match key.code {
                    KeyCode::Esc | KeyCode::Char('?') => {
                        self.panel = Panel::None;
                        PlayerOutcome::Changed
                    }
                    _ => PlayerOutcome::Same,
                };
            }
            Panel::Knobs => {
                if let Some(o) = self.knob_key(key) {
                    return o;
                }
            }
            Panel::None => {}
        }
        self.play_key(key)
    }

    /// Keys of the open knobs panel; `None` lets playback keys through.
    fn knob_key(&mut self, key: KeyEvent) -> Option<PlayerOutcome> {
        let changed = PlayerOutcome::Changed;
        Some(match key.code {
            KeyCode::Esc | KeyCode::Char('r') => {
                self.panel = Panel::None;
                changed
            }
            KeyCode::Up | KeyCode::Char('k') => {
                self.knobs.move_cursor(false);
                changed
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.knobs.move_cursor(true);
                changed
            }
            KeyCode::Left | KeyCode::Char('-') | KeyCode::Char('h') => {
                let _ = self.knobs.step(false);
                changed
            }
            KeyCode::Right | KeyCode::Char('+') | KeyCode::Char('=') | KeyCode::Char('l') => {
                let _ = self.knobs.step(true);
                changed
            }
            KeyCode::Enter => {
                self.rerun();
                self.panel = Panel::None;
                changed
            }
            _ => return None,
        })
    }

    fn play_key(&mut self, key: KeyEvent) -> PlayerOutcome {
        let tl = &self.tl;
        let pb = &mut self.pb;
        let out: PlayerOutcome = match key.code {
            KeyCode::Char(' ') => pb.toggle(tl).into(),
            KeyCode::Right | KeyCode::Char('l') => pb.step_forward(tl).into(),
            KeyCode::Left | KeyCode::Char('h') => pb.step_back(tl).into(),
            KeyCode::Char(']') => pb.scrub(tl, 1).into(),
            KeyCode::Char('[') => pb.scrub(tl, -1).into(),
            KeyCode::Char('.') => pb.call_event(tl, true).into(),
            KeyCode::Char(',') => pb.call_event(tl, false).into(),
            KeyCode::Char('+') | KeyCode::Char('=') => pb.faster().into(),
            KeyCode::Char('-') => pb.slower().into(),
            KeyCode::Home | KeyCode::Char('g') => pb.seek(tl, 0).into(),
            KeyCode::End | KeyCode::Char('G') => pb.seek(tl, tl.end_ms).into(),
            KeyCode::Tab | KeyCode::Down | KeyCode::Char('j') => pb.select_next(tl, true).into(),
            KeyCode::BackTab | KeyCode::Up | KeyCode::Char('k') => pb.select_next(tl, false).into(),
            KeyCode::PageDown => {
                self.detail_scroll = self.detail_scroll.saturating_add(5);
                PlayerOutcome::Changed
            }
            KeyCode::PageUp => {
                self.detail_scroll = self.detail_scroll.saturating_sub(5);
                PlayerOutcome::Changed
            }
            KeyCode::Char('?') => {
                self.panel = Panel::Legend;
                PlayerOutcome::Changed
            }
            KeyCode::Char('r') => {
                self.panel = Panel::Knobs;
                PlayerOutcome::Changed
            }
            KeyCode::Char('m') => {
                self.knobs.call = self.selected_call_id();
                self.knobs.toggle_mode();
                self.rerun();
                PlayerOutcome::Changed
            }
            KeyCode::Char('b') if self.before.is_some() => {
                self.show_before = !self.show_before;
                PlayerOutcome::Changed
            }
            KeyCode::Char('x') => {
                self.export();
                PlayerOutcome::Changed
            }
            KeyCode::Esc if self.pb.selected.is_some() => {
                self.pb.selected = None;
                PlayerOutcome::Changed
            }
            KeyCode::Esc => PlayerOutcome::Exit,
            _ => PlayerOutcome::Ignored,
        };
        if matches!(
            key.code,
            KeyCode::Tab | KeyCode::BackTab | KeyCode::Up | KeyCode::Down
        ) || matches!(key.code, KeyCode::Char('j' | 'k'))
        {
            self.detail_scroll = 0;
            self.knobs.call = self.selected_call_id();
        }
        out
    }

    fn selected_call_id(&self) -> Option<String> {
        self.pb
            .selected
            .and_then(|i| self.tl.calls.get(i))
            .map(|c| c.id.clone())
    }

    /// A click at screen position (`x`, `y`): on the axis it seeks, on a lane it selects.
    pub fn handle_click(&mut self, x: u16, y: u16) -> PlayerOutcome {
        let geo = self.geometry.borrow().clone();
        if geo.axis.contains(ratatui::layout::Position::new(x, y))
            && let Some(t) = geo.time_at(x)
        {
            self.pb.playing = false;
            return self.pb.seek(&self.tl, t).into();
        }
        if let Some(&(_, lane)) = geo.rows.iter().find(|(row, _)| *row == y) {
            self.pb.selected = Some(lane);
            self.detail_scroll = 0;
            self.knobs.call = self.selected_call_id();
            return PlayerOutcome::Changed;
        }
        PlayerOutcome::Ignored
    }
}
