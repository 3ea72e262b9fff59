//! The full-screen trace player: a run (`replay::Run`, from any source) as a timeline with
//! its attempts, timeouts, partial successes and, when it kept them, budgets, played over its
//! own time. Opened with `f` on a lesson's trace block, by `tooldojo play`, and drawn by
//! `tooldojo render trace:NAME@T`.
//!
//! The run and the cursor are the core's (`replay`); `frame` draws the frame at the cursor
//! time (a pure function of the run and that time); a scenario's run also has knobs, which
//! change the scenario and re-run the real orchestrator, keeping the previous run for
//! comparison.

pub mod frame;
pub mod gauges;
pub mod glyphs;
pub mod group;
pub mod inline;
pub mod legend;
pub mod notes;
pub mod panes;
pub mod rerun;
pub mod rows;
pub mod timeline;

use std::cell::{Cell, RefCell};
use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::orchestrator::chrome_trace;
use crate::replay::knobs::Knobs;
use crate::replay::playback::{Moved, Playback};
use crate::replay::rerun::Pending;
use crate::replay::{ReplayError, Run, RunSource};
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
    pub tl: Run,
    /// The run before the last re-run, on the same axis.
    pub before: Option<Run>,
    pub show_before: bool,
    pub pb: Playback,
    /// The knobs of a run that can be changed and run again (a scenario's); none otherwise.
    pub knobs: Option<Knobs>,
    pub panel: Panel,
    /// Rows the detail pane is scrolled by.
    pub detail_scroll: u16,
    /// Rows the legend is scrolled by.
    pub legend_scroll: u16,
    /// The legend's furthest scroll and its height in rows, as the last frame drew it.
    pub legend_view: Cell<(u16, u16)>,
    /// A one-line message (where the Chrome trace went, a re-run's result).
    pub status: Option<String>,
    /// Keys the screen holding the player answers (the audit's next conversation, a
    /// finding's lesson), listed in the legend with the player's own.
    pub host_keys: Vec<(&'static str, &'static str)>,
    /// Where `x` writes the Chrome trace.
    pub export_dir: PathBuf,
    /// Shown to a room (presenter mode), which writes nothing: `x` puts the run back at its
    /// start instead of exporting it.
    pub demo: bool,
    /// Where the last frame put the axis and lanes (for clicks).
    pub geometry: RefCell<Geometry>,
    /// Re-runs go to whoever calls `take_job` instead of running on the spot (the
    /// interactive app runs them off its event loop).
    pub background: bool,
    pending: Pending,
}

impl Player {
    /// The player on `run`, paused at time 0.
    pub fn new(run: Run) -> Player {
        let knobs = run
            .origin
            .scenario()
            .map(|s| Knobs::new(s.scenario.clone(), s.seed));
        Player {
            tl: run,
            before: None,
            show_before: true,
            pb: Playback::default(),
            knobs,
            panel: Panel::None,
            detail_scroll: 0,
            legend_scroll: 0,
            legend_view: Cell::new((0, 0)),
            status: None,
            host_keys: Vec::new(),
            export_dir: std::env::current_dir().unwrap_or_else(|_| std::env::temp_dir()),
            demo: false,
            geometry: RefCell::new(Geometry::default()),
            background: false,
            pending: Pending::default(),
        }
    }

    /// The player on the run `source` builds.
    pub fn open(source: &dyn RunSource) -> Result<Player, ReplayError> {
        source.build().map(Player::new)
    }

    /// The run can be changed and run again (it has knobs).
    pub fn can_rerun(&self) -> bool {
        self.knobs.is_some()
    }

    /// The run on screen can be written as a Chrome trace (never in presenter mode).
    pub fn can_export(&self) -> bool {
        !self.demo && self.tl.origin.scenario().is_some()
    }

    /// Back to the start of the run, paused, no call selected (presenter mode's `x`).
    pub fn restart(&mut self) {
        self.pb.playing = false;
        let _ = self.pb.seek(&self.tl, 0);
        self.pb.selected = None;
        self.detail_scroll = 0;
        self.status = None;
        self.follow_selection();
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
    pub fn compare(&self) -> Option<&Run> {
        self.before.as_ref().filter(|_| self.show_before)
    }

    /// Write the run on screen as a Chrome trace and say where.
    pub fn export(&mut self) {
        let Some(origin) = self.tl.origin.scenario().filter(|_| !self.demo) else {
            return;
        };
        let name = format!("tooldojo-{}-seed{}.trace.json", self.tl.name, origin.seed);
        let path = self.export_dir.join(name);
        let text = serde_json::to_string(&chrome_trace(&origin.trace)).unwrap_or_default();
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
            Panel::Legend => return self.legend_key(key),
            Panel::Knobs => {
                if let Some(o) = self.knob_key(key) {
                    return o;
                }
            }
            Panel::None => {}
        }
        self.play_key(key)
    }

    /// Keys of the open legend: it scrolls, and `?` or Esc closes it.
    fn legend_key(&mut self, key: KeyEvent) -> PlayerOutcome {
        let (max, page) = self.legend_view.get();
        let page = page.saturating_sub(1).max(1);
        let at = self.legend_scroll.min(max);
        let to = match key.code {
            KeyCode::Esc | KeyCode::Char('?') => {
                self.panel = Panel::None;
                return PlayerOutcome::Changed;
            }
            KeyCode::Down | KeyCode::Char('j') => at.saturating_add(1),
            KeyCode::Up | KeyCode::Char('k') => at.saturating_sub(1),
            KeyCode::PageDown | KeyCode::Char(' ') => at.saturating_add(page),
            KeyCode::PageUp => at.saturating_sub(page),
            KeyCode::Home | KeyCode::Char('g') => 0,
            KeyCode::End | KeyCode::Char('G') => max,
            // `q` still quits.
            _ => return PlayerOutcome::Ignored,
        }
        .min(max);
        if to == self.legend_scroll {
            return PlayerOutcome::Same;
        }
        self.legend_scroll = to;
        PlayerOutcome::Changed
    }

    /// Keys of the open knobs panel; `None` lets playback keys through.
    fn knob_key(&mut self, key: KeyEvent) -> Option<PlayerOutcome> {
        let changed = PlayerOutcome::Changed;
        let knobs = self.knobs.as_mut()?;
        Some(match key.code {
            KeyCode::Esc | KeyCode::Char('r') => {
                self.panel = Panel::None;
                changed
            }
            KeyCode::Up | KeyCode::Char('k') => {
                knobs.move_cursor(false);
                changed
            }
            KeyCode::Down | KeyCode::Char('j') => {
                knobs.move_cursor(true);
                changed
            }
            KeyCode::Left | KeyCode::Char('-') | KeyCode::Char('h') => {
                let _ = knobs.step(false);
                changed
            }
            KeyCode::Right | KeyCode::Char('+') | KeyCode::Char('=') | KeyCode::Char('l') => {
                let _ = knobs.step(true);
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
                self.legend_scroll = 0;
                PlayerOutcome::Changed
            }
            KeyCode::Char('r') if self.knobs.is_some() => {
                self.panel = Panel::Knobs;
                PlayerOutcome::Changed
            }
            KeyCode::Char('m') if self.knobs.is_some() => {
                let call = self.selected_call_id();
                if let Some(k) = self.knobs.as_mut() {
                    k.call = call;
                    k.toggle_mode();
                }
                self.rerun();
                PlayerOutcome::Changed
            }
            KeyCode::Char('b') if self.before.is_some() => {
                self.show_before = !self.show_before;
                PlayerOutcome::Changed
            }
            KeyCode::Char('x') if self.demo => {
                self.restart();
                PlayerOutcome::Changed
            }
            KeyCode::Char('x') if self.can_export() => {
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
            self.follow_selection();
        }
        out
    }

    /// The latency knob follows the selected call.
    fn follow_selection(&mut self) {
        let call = self.selected_call_id();
        if let Some(k) = self.knobs.as_mut() {
            k.call = call;
        }
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
            self.follow_selection();
            return PlayerOutcome::Changed;
        }
        PlayerOutcome::Ignored
    }
}
