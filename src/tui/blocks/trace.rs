//! `trace scenario=NAME [seed=N]`: runs the real orchestrator once (`run_blocking`) and
//! steps over its trace events: left/right one event, Space play/pause through virtual
//! time, Home/End, `seek_ms`. Draws the trace player small (the scenario's note, a compact
//! timeline, the gauges, the latest events, the stop reason at the end); `f` opens the same
//! run in the full-screen player at the block's time.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use crate::content::lessons::Block;
use crate::orchestrator::{Category, EventKind};
use crate::sanitize::clean;
use crate::tui::blocks::common::{self, frame, is_char, is_left, is_right, plain};
use crate::tui::blocks::{BlockEnv, BlockOutcome, BlockWidget, KeyHint, RenderCtx};
use crate::tui::player::panes::StartKeys;
use crate::tui::player::{Player, inline};
use crate::tui::theme::{Theme, ThemeName};

/// Budgets spent when an event happened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spent {
    pub turns: u32,
    pub tool_calls: u32,
    pub retries: u32,
}

/// One trace event, as the player needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub t_ms: u64,
    /// What happened, as the orchestrator recorded it.
    pub kind: EventKind,
    /// One short human line.
    pub summary: String,
    pub call_id: Option<String>,
    pub spent: Spent,
}

impl Step {
    /// The contract's event name.
    pub fn event(&self) -> &'static str {
        self.kind.name()
    }
}

/// A whole run, ready to play.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceData {
    pub scenario: String,
    pub title: String,
    pub note: String,
    pub seed: u64,
    pub steps: Vec<Step>,
    /// (turns, tool calls, retries) limits.
    pub limits: Spent,
    pub stop_reason: String,
    pub end_ms: u64,
}

impl TraceData {
    /// Run the real orchestrator on a scenario.
    pub fn run(env: &BlockEnv, name: &str, seed: u64) -> Result<TraceData, String> {
        let scenario =
            crate::orchestrator::load_scenario(&env.content, name).map_err(|e| e.to_string())?;
        let run = crate::orchestrator::run_blocking(&scenario, seed);
        Ok(TraceData::from_run(&scenario, &run))
    }

    pub fn from_run(
        scenario: &crate::orchestrator::Scenario,
        run: &crate::orchestrator::Run,
    ) -> TraceData {
        TraceData {
            scenario: clean(&scenario.name, false),
            title: clean(&run.title, false),
            note: clean(&scenario.note, false),
            seed: run.seed,
            steps: run
                .events
                .iter()
                .map(|e| Step {
                    t_ms: e.t_ms,
                    kind: e.kind.clone(),
                    summary: clean(&e.summary(), false),
                    call_id: e.call_id().map(|c| clean(c, false)),
                    spent: Spent {
                        turns: e.used.turns,
                        tool_calls: e.used.tool_calls,
                        retries: e.used.retries,
                    },
                })
                .collect(),
            limits: Spent {
                turns: run.budgets.max_model_turns,
                tool_calls: run.budgets.max_tool_calls,
                retries: run.budgets.retry_budget,
            },
            stop_reason: run.stop_reason.to_string(),
            end_ms: run.end_ms,
        }
    }
}

/// The state of one call's lane after the shown events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lane {
    pub call_id: String,
    pub tool: String,
    pub state: String,
    /// Finished: `Some(true)` ok, `Some(false)` anything else; `None` still going.
    pub done: Option<bool>,
}

impl Lane {
    /// Move the lane on by one of its call's events.
    fn follow(&mut self, kind: &EventKind) {
        let tool = tool_of(kind).map(|t| clean(t, false)).unwrap_or_default();
        if !tool.is_empty() {
            self.tool = tool;
        }
        match kind {
            EventKind::CallAccepted { .. } => self.state = "accepted".to_owned(),
            EventKind::CallRejected { category, .. } => {
                self.state = format!("rejected: {category}");
                self.done = Some(false);
            }
            EventKind::AttemptStarted { attempt, .. } => {
                self.state = format!("attempt {attempt} running");
            }
            EventKind::AttemptFinished {
                attempt, outcome, ..
            } => self.state = format!("attempt {attempt}: {outcome}"),
            EventKind::HandlerStillRunning { attempt, .. } => {
                self.state = format!("attempt {attempt} handler finished late (was only raced)");
            }
            EventKind::RetryScheduled { delay_ms, .. } => {
                self.state = format!("retry in {delay_ms} ms");
            }
            EventKind::RetryDenied { .. } => {
                self.state = "no retry: the retry budget is spent".to_owned();
            }
            EventKind::WriteApplied { .. } => self.state = "write applied".to_owned(),
            EventKind::CallResult {
                category,
                attempts,
                truncated,
                ..
            } => {
                let mut s = format!("{category} after {attempts} attempt(s)");
                if *truncated {
                    s.push_str(", truncated");
                }
                self.state = s;
                self.done = Some(*category == Category::Ok);
            }
            EventKind::RunStarted { .. }
            | EventKind::ModelTurn { .. }
            | EventKind::Stopped { .. } => {}
        }
    }
}

/// The tool an event names, if it names one.
fn tool_of(kind: &EventKind) -> Option<&str> {
    match kind {
        EventKind::CallAccepted { tool, .. }
        | EventKind::CallRejected { tool, .. }
        | EventKind::AttemptStarted { tool, .. }
        | EventKind::AttemptFinished { tool, .. }
        | EventKind::HandlerStillRunning { tool, .. }
        | EventKind::CallResult { tool, .. } => Some(tool),
        EventKind::RunStarted { .. }
        | EventKind::ModelTurn { .. }
        | EventKind::RetryScheduled { .. }
        | EventKind::RetryDenied { .. }
        | EventKind::WriteApplied { .. }
        | EventKind::Stopped { .. } => None,
    }
}

/// When the run ends: its last event, or its end time if that is later.
fn end_ms(data: &TraceData) -> u64 {
    data.steps
        .last()
        .map_or(data.end_ms, |s| s.t_ms.max(data.end_ms))
}

pub struct TraceWidget {
    data: TraceData,
    /// The same run as the trace player sees it (drawn small here, full screen on `f`).
    player: Player,
    /// Events shown: 0 (before the first) ..= steps.len().
    shown: usize,
    /// Virtual playback clock.
    clock_ms: u64,
    playing: bool,
    /// Virtual ms advanced per tick while playing.
    step_ms: u64,
    /// The learner reached the end once.
    finished: bool,
    /// Shown to a room (presenter mode): the presenter's Space plays and pauses the run.
    room: bool,
}

impl TraceWidget {
    pub fn from_block(block: &Block, env: &BlockEnv) -> Result<TraceWidget, String> {
        let name = block
            .option("scenario")
            .ok_or("trace needs scenario=NAME")?;
        let seed = match block.option("seed") {
            None => env.seed,
            Some(s) => s.parse::<u64>().map_err(|_| {
                format!(
                    "trace: seed must be a whole number, not {q_s}",
                    q_s = crate::sanitize::quote(s)
                )
            })?,
        };
        let scenario =
            crate::orchestrator::load_scenario(&env.content, name).map_err(|e| e.to_string())?;
        let run = crate::orchestrator::run_blocking(&scenario, seed);
        let data = TraceData::from_run(&scenario, &run);
        Ok(TraceWidget::new(
            data,
            Player::new(crate::replay::Run::from_trace(&scenario, run)),
        ))
    }

    pub fn new(data: TraceData, player: Player) -> TraceWidget {
        let end = end_ms(&data);
        TraceWidget {
            step_ms: (end / 120).max(5),
            player,
            data,
            shown: 0,
            clock_ms: 0,
            playing: false,
            finished: false,
            room: false,
        }
    }

    pub fn data(&self) -> &TraceData {
        &self.data
    }

    pub fn shown(&self) -> usize {
        self.shown
    }

    pub fn clock_ms(&self) -> u64 {
        self.clock_ms
    }

    pub fn playing(&self) -> bool {
        self.playing
    }

    fn at_end(&self) -> bool {
        self.shown >= self.data.steps.len()
    }

    /// The run has left its start: playing, paused part way, stepped or at its end.
    fn started(&self) -> bool {
        self.playing || self.shown > 0 || self.clock_ms > 0
    }

    fn set_shown(&mut self, n: usize) {
        self.shown = n.min(self.data.steps.len());
        self.clock_ms = if self.shown == 0 {
            0
        } else {
            self.data.steps[self.shown - 1].t_ms
        };
        if self.at_end() {
            self.finished = true;
        }
    }

    /// Lanes for every call seen so far, in order of first appearance.
    pub fn lanes(&self) -> Vec<Lane> {
        let mut lanes: Vec<Lane> = Vec::new();
        for step in &self.data.steps[..self.shown] {
            let Some(id) = &step.call_id else {
                continue;
            };
            let i = match lanes.iter().position(|l| &l.call_id == id) {
                Some(i) => i,
                None => {
                    lanes.push(Lane {
                        call_id: id.clone(),
                        tool: String::new(),
                        state: "proposed".to_owned(),
                        done: None,
                    });
                    lanes.len() - 1
                }
            };
            lanes[i].follow(&step.kind);
        }
        lanes
    }
}

impl BlockWidget for TraceWidget {
    fn title(&self) -> String {
        format!("Trace: {}", self.data.scenario)
    }

    fn height(&self, width: u16) -> u16 {
        let theme = Theme::new(ThemeName::Mono, false);
        2 + inline::height(&self.player, width.saturating_sub(2), &theme)
    }

    fn focus_line(&self, width: u16) -> Option<u16> {
        // The event at the cursor (or the stop reason), under the top border.
        let theme = Theme::new(ThemeName::Mono, false);
        let inner = width.saturating_sub(2);
        Some(1 + inline::focus_row(&self.player, self.clock_ms, inner, &theme))
    }

    fn render(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx) {
        let theme = ctx.theme;
        let state = if self.playing {
            format!("{} playing", theme.sym.pointer)
        } else if self.at_end() {
            format!("{} end", theme.sym.done)
        } else {
            "paused".to_owned()
        };
        let status = format!(
            "{state} {} t={} ms {} event {}/{}",
            common::dot(theme),
            self.clock_ms,
            common::dot(theme),
            self.shown,
            self.data.steps.len()
        );
        let inner = frame(area, buf, ctx, &self.title(), &status);
        if inner.is_empty() {
            return;
        }
        let keys = if ctx.active {
            StartKeys::Player
        } else if self.room {
            StartKeys::Room
        } else {
            StartKeys::Page
        };
        inline::render(&self.player, (self.clock_ms, keys), inner, buf, theme);
    }

    fn full_screen(&self) -> Option<Player> {
        let mut p = self.player.clone();
        p.seek(self.clock_ms);
        Some(p)
    }

    fn handle_key(&mut self, key: KeyEvent, active: bool) -> BlockOutcome {
        if !active {
            self.playing = false;
            return BlockOutcome::Ignored;
        }
        if plain(&key, KeyCode::Esc) {
            self.playing = false;
            return BlockOutcome::Release;
        }
        let n = self.data.steps.len();
        if is_right(&key) {
            self.playing = false;
            self.set_shown(self.shown + 1);
            return BlockOutcome::Changed;
        }
        if is_left(&key) {
            self.playing = false;
            self.set_shown(self.shown.saturating_sub(1));
            return BlockOutcome::Changed;
        }
        if plain(&key, KeyCode::Home) {
            self.playing = false;
            self.set_shown(0);
            return BlockOutcome::Changed;
        }
        if plain(&key, KeyCode::End) {
            self.playing = false;
            self.set_shown(n);
            return BlockOutcome::Changed;
        }
        if is_char(&key, ' ') || plain(&key, KeyCode::Enter) {
            if self.playing {
                self.playing = false;
            } else {
                if self.at_end() {
                    self.set_shown(0);
                }
                self.playing = true;
            }
            return BlockOutcome::Changed;
        }
        BlockOutcome::Ignored
    }

    fn key_hints(&self, active: bool) -> Vec<KeyHint> {
        if !active {
            let mut v = vec![
                KeyHint::new("Enter", "step through the trace"),
                KeyHint::new("f", "full screen"),
            ];
            // What the presenter's Space does to the run (played to its end, Space moves
            // on past the block, as it does past any step).
            if self.room {
                let space = if self.playing {
                    Some("pause")
                } else if self.at_end() {
                    None
                } else if self.started() {
                    Some("play on")
                } else {
                    Some("play")
                };
                v.extend(space.map(|what| KeyHint::new("Space", what)));
            }
            return v;
        }
        vec![
            KeyHint::new("f", "full screen"),
            KeyHint::new("Left/Right", "step"),
            KeyHint::new("Space/Enter", if self.playing { "pause" } else { "play" }),
            KeyHint::new("Home/End", "start / end"),
            KeyHint::new("Esc", "back to page"),
        ]
    }

    fn save(&self) -> Value {
        json!({ "shown": self.shown, "finished": self.finished })
    }

    fn restore(&mut self, state: &Value) {
        let finished = state
            .get("finished")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if let Some(n) = state.get("shown").and_then(Value::as_u64) {
            self.set_shown(n as usize);
        }
        self.finished = self.finished || finished;
    }

    fn is_done(&self) -> bool {
        self.finished
    }

    fn remaining(&self) -> Vec<String> {
        if self.finished {
            Vec::new()
        } else {
            vec!["the trace (play it to the end)".to_owned()]
        }
    }

    fn show_to_room(&mut self) {
        self.room = true;
    }

    /// Presenter mode: Space plays the run (and pauses it, and plays on); once it has
    /// played to its end the presenter's next Space moves past the block.
    fn present_step(&mut self) -> bool {
        if self.playing {
            self.playing = false;
            return true;
        }
        if self.at_end() {
            return false;
        }
        self.playing = true;
        true
    }

    /// Presenter mode: the run back at its start, as before it was played.
    fn present_unstep(&mut self) -> bool {
        if !self.started() {
            return false;
        }
        self.playing = false;
        self.set_shown(0);
        self.finished = false;
        true
    }

    /// One step: playing the run. It counts from the first Space on, paused part way
    /// or played to its end (pausing and playing on are the same step).
    fn present_progress(&self) -> (usize, usize) {
        (usize::from(self.started()), 1)
    }

    /// More room shows more of the latest events.
    fn fills_room(&self) -> bool {
        true
    }

    fn animating(&self) -> bool {
        self.playing
    }

    fn tick(&mut self) -> bool {
        if !self.playing {
            return false;
        }
        self.clock_ms += self.step_ms;
        let n = self
            .data
            .steps
            .iter()
            .take_while(|s| s.t_ms <= self.clock_ms)
            .count();
        self.shown = n;
        if self.at_end() {
            self.finished = true;
            self.playing = false;
            self.clock_ms = self.clock_ms.min(end_ms(&self.data));
        }
        self.playing
    }

    fn seek_ms(&mut self, t_ms: u64) {
        self.playing = false;
        self.shown = self
            .data
            .steps
            .iter()
            .take_while(|s| s.t_ms <= t_ms)
            .count();
        // Past the end the clock stops at the end, as playing to it does.
        self.clock_ms = t_ms.min(end_ms(&self.data));
        if self.at_end() {
            self.finished = true;
        }
    }
}
