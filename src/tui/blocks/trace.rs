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
use crate::sanitize::clean;
use crate::tui::blocks::common::{self, frame, is_char, is_left, is_right, plain};
use crate::tui::blocks::{BlockEnv, BlockOutcome, BlockWidget, KeyHint, RenderCtx};
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
    /// The contract JSON line of the event.
    pub json: Value,
    /// One short human line.
    pub summary: String,
    pub call_id: Option<String>,
    pub spent: Spent,
}

impl Step {
    pub fn event(&self) -> &str {
        self.json.get("event").and_then(Value::as_str).unwrap_or("")
    }
    fn field(&self, k: &str) -> String {
        match self.json.get(k) {
            Some(Value::String(s)) => clean(s, false),
            Some(Value::Null) | None => String::new(),
            Some(v) => v.to_string(),
        }
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
                    json: e.to_json(),
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
}

impl TraceWidget {
    pub fn from_block(block: &Block, env: &BlockEnv) -> Result<TraceWidget, String> {
        let name = block
            .option("scenario")
            .ok_or("trace needs scenario=NAME")?;
        let seed = match block.option("seed") {
            None => env.seed,
            Some(s) => s
                .parse::<u64>()
                .map_err(|_| format!("trace: seed must be a whole number, not {s:?}"))?,
        };
        let scenario =
            crate::orchestrator::load_scenario(&env.content, name).map_err(|e| e.to_string())?;
        let run = crate::orchestrator::run_blocking(&scenario, seed);
        let data = TraceData::from_run(&scenario, &run);
        Ok(TraceWidget::new(
            data,
            Player::from_run(scenario, seed, run),
        ))
    }

    pub fn new(data: TraceData, player: Player) -> TraceWidget {
        let end = data
            .steps
            .last()
            .map_or(data.end_ms, |s| s.t_ms.max(data.end_ms));
        TraceWidget {
            step_ms: (end / 120).max(5),
            player,
            data,
            shown: 0,
            clock_ms: 0,
            playing: false,
            finished: false,
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
            let lane = &mut lanes[i];
            let tool = step.field("tool");
            if !tool.is_empty() {
                lane.tool = tool;
            }
            match step.event() {
                "call_accepted" => lane.state = "accepted".to_owned(),
                "call_rejected" => {
                    lane.state = format!("rejected: {}", step.field("category"));
                    lane.done = Some(false);
                }
                "attempt_started" => {
                    lane.state = format!("attempt {} running", step.field("attempt"));
                }
                "attempt_finished" => {
                    lane.state = format!(
                        "attempt {}: {}",
                        step.field("attempt"),
                        step.field("outcome")
                    );
                }
                "handler_still_running" => {
                    lane.state = format!(
                        "attempt {} handler finished late (was only raced)",
                        step.field("attempt")
                    );
                }
                "retry_scheduled" => {
                    lane.state = format!("retry in {} ms", step.field("delay_ms"));
                }
                "write_applied" => lane.state = "write applied".to_owned(),
                "call_result" => {
                    let cat = step.field("category");
                    let mut s = cat.clone();
                    let attempts = step.field("attempts");
                    if !attempts.is_empty() {
                        s.push_str(&format!(" after {attempts} attempt(s)"));
                    }
                    if step.json.get("truncated").and_then(Value::as_bool) == Some(true) {
                        s.push_str(", truncated");
                    }
                    lane.state = s;
                    lane.done = Some(cat == "ok");
                }
                _ => {}
            }
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
        inline::render(&self.player, self.clock_ms, inner, buf, theme);
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
            return vec![
                KeyHint::new("Enter", "step through the trace"),
                KeyHint::new("f", "full screen"),
            ];
        }
        vec![
            KeyHint::new("f", "full screen"),
            KeyHint::new("Left/Right", "step"),
            KeyHint::new("Space", if self.playing { "pause" } else { "play" }),
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
            self.clock_ms = self.clock_ms.min(
                self.data
                    .steps
                    .last()
                    .map_or(self.clock_ms, |s| s.t_ms.max(self.data.end_ms)),
            );
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
        self.clock_ms = t_ms;
        if self.at_end() {
            self.finished = true;
        }
    }
}
