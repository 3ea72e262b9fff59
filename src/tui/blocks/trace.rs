//! `trace scenario=NAME [seed=N]`: runs the real orchestrator once (`run_blocking`) and
//! steps over its trace events: left/right one event, Space play/pause through virtual
//! time, Home/End, `seek_ms`. Shows a lane per call (its state so far), the budgets used,
//! the event list up to the cursor and, at the end, the stop reason.
//!
//! The data model (`TraceData`, `Step`) is plain data built from a `Run`, so a fuller
//! player (scrubber, Gantt lanes) can reuse it.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use serde_json::{Value, json};

use crate::content::lessons::Block;
use crate::orchestrator::{Category, EventKind};
use crate::sanitize::clean;
use crate::tui::blocks::common::{
    self, fit, frame, is_char, is_left, is_right, plain, wrap_prefixed,
};
use crate::tui::blocks::{BlockEnv, BlockOutcome, BlockWidget, KeyHint, RenderCtx};
use crate::tui::theme::{Theme, ThemeName};

/// Lines of the scenario's note shown above the player (the rest is cut with a mark).
const NOTE_LINES: usize = 2;
/// Event lines the inline player shows (it scrolls to keep the cursor in view).
const EVENT_LINES: usize = 8;

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
        | EventKind::WriteApplied { .. }
        | EventKind::Stopped { .. } => None,
    }
}

pub struct TraceWidget {
    data: TraceData,
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
        Ok(TraceWidget::new(TraceData::run(env, name, seed)?))
    }

    pub fn new(data: TraceData) -> TraceWidget {
        let end = data
            .steps
            .last()
            .map_or(data.end_ms, |s| s.t_ms.max(data.end_ms));
        TraceWidget {
            step_ms: (end / 120).max(5),
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
            lanes[i].follow(&step.kind);
        }
        lanes
    }

    fn spent(&self) -> Spent {
        if self.shown == 0 {
            Spent::default()
        } else {
            self.data.steps[self.shown - 1].spent
        }
    }

    fn header_lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        let mut out = wrap_prefixed(
            vec![Span::styled(
                format!("{} ", self.data.scenario),
                theme.accent,
            )],
            &self.data.title,
            width,
            theme.heading,
        );
        if !self.data.note.is_empty() {
            let lines = common::wrap(&self.data.note, width.max(1));
            let n = lines.len();
            for (i, l) in lines.into_iter().take(NOTE_LINES).enumerate() {
                // The last shown line says when the note goes on (the lesson text has it all).
                let l = if i + 1 == NOTE_LINES && n > NOTE_LINES {
                    common::truncate(
                        &format!("{l} {}", theme.sym.ellipsis),
                        width,
                        theme.sym.ellipsis,
                    )
                } else {
                    l
                };
                out.push(Line::from(Span::styled(l, theme.dim)));
            }
        }
        let d = common::dot(theme);
        let s = self.spent();
        let l = self.data.limits;
        out.push(Line::from(vec![
            Span::styled("budgets ", theme.dim),
            Span::styled(
                format!(
                    "turns {}/{} {d} tool calls {}/{} {d} retries {}/{}",
                    s.turns, l.turns, s.tool_calls, l.tool_calls, s.retries, l.retries
                ),
                theme.base,
            ),
            Span::styled(
                format!(" {d} event {}/{}", self.shown, self.data.steps.len()),
                theme.dim,
            ),
        ]));
        out
    }

    fn lane_lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        let e = theme.sym.ellipsis;
        let mut out = vec![Line::from(Span::styled("Calls", theme.heading))];
        let lanes = self.lanes();
        if lanes.is_empty() {
            out.push(Line::from(Span::styled("no call yet", theme.dim)));
        }
        for lane in lanes {
            let (mark, st) = match lane.done {
                Some(true) => (theme.sym.ok, theme.ok),
                Some(false) => (theme.sym.bad, theme.bad),
                None => (theme.sym.in_progress, theme.warn),
            };
            let idw = 5;
            let tw = 13;
            let rest = width.saturating_sub(idw + tw + 4);
            out.push(Line::from(vec![
                Span::styled(format!("{mark} "), st),
                Span::styled(format!("{} ", fit(&lane.call_id, idw, e)), theme.base),
                Span::styled(format!("{} ", fit(&lane.tool, tw, e)), theme.code),
                Span::styled(fit(&lane.state, rest, e), theme.base),
            ]));
        }
        out
    }

    /// The event list (shown events only: no spoilers) and the focus line.
    fn event_lines(&self, theme: &Theme, width: usize) -> (Vec<Line<'static>>, usize) {
        let e = theme.sym.ellipsis;
        let mut out = vec![Line::from(Span::styled("Events", theme.heading))];
        if self.shown == 0 {
            out.push(Line::from(Span::styled(
                "Right steps to the first event; Space plays.",
                theme.dim,
            )));
        }
        let mut focus = 0;
        for (i, step) in self.data.steps[..self.shown].iter().enumerate() {
            let here = i + 1 == self.shown;
            if here {
                focus = out.len();
            }
            let pointer = if here { theme.sym.pointer } else { " " };
            let style = if here { theme.selected } else { theme.base };
            let body = width.saturating_sub(12);
            out.push(Line::from(vec![
                Span::styled(pointer.to_string(), theme.focus),
                Span::styled(format!("{:>7} ms ", step.t_ms), theme.dim),
                Span::styled(fit(&step.summary, body, e), style),
            ]));
        }
        let left = self.data.steps.len() - self.shown;
        if left > 0 && self.shown > 0 {
            out.push(Line::from(Span::styled(
                format!("  {e} {left} more event(s)"),
                theme.dim,
            )));
        }
        if self.at_end() {
            let reason = self.data.stop_reason.clone();
            let ok = reason == "final_answer";
            let s = self.spent();
            focus = out.len();
            out.extend(common::verdict_lines(
                theme,
                ok,
                &format!("stopped: {reason}"),
                &format!(
                    "after {} turn(s) and {} tool call(s)",
                    s.turns, s.tool_calls
                ),
                width,
            ));
        }
        (out, focus)
    }
}

impl BlockWidget for TraceWidget {
    fn title(&self) -> String {
        format!("Trace: {}", self.data.scenario)
    }

    fn height(&self, width: u16) -> u16 {
        let theme = Theme::new(ThemeName::Mono, false);
        let inner = width.saturating_sub(2) as usize;
        let head = self.header_lines(&theme, inner).len();
        let calls = self
            .data
            .steps
            .iter()
            .filter_map(|s| s.call_id.as_ref())
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        let body = if inner >= 100 {
            (calls + 1).max(EVENT_LINES + 1)
        } else {
            calls + 1 + EVENT_LINES + 1
        };
        // Fit an 80x24 reader (21 rows) when the run has many calls: the event list gives way.
        (2 + head + 1 + body).min(21.max(2 + head + 1 + 8)) as u16
    }

    fn focus_line(&self, width: u16) -> Option<u16> {
        // Replays the layout `render` uses at `height(width)`.
        let theme = Theme::new(ThemeName::Mono, false);
        let inner_w = width.saturating_sub(2);
        let inner_h = self.height(width).saturating_sub(2);
        let hh = (self.header_lines(&theme, inner_w as usize).len() as u16).min(inner_h);
        let body_y = 1 + hh + 1;
        let body_h = inner_h.saturating_sub(hh + 1);
        let (ea_y, ea_h, ea_w) = if inner_w >= 100 {
            (body_y, body_h, (inner_w * 55 / 100).saturating_sub(1))
        } else {
            let lanes = self.lane_lines(&theme, inner_w as usize).len() as u16;
            let lh = lanes.min(body_h / 2).max(2.min(body_h));
            (body_y + lh, body_h.saturating_sub(lh), inner_w)
        };
        let (events, focus) = self.event_lines(&theme, ea_w as usize);
        let n = events.len().saturating_sub(1);
        let focus = focus.saturating_sub(1);
        let h = ea_h.saturating_sub(1) as usize;
        let skip = if n > h {
            (focus + 2).saturating_sub(h).min(n - h)
        } else {
            0
        };
        Some(ea_y + 1 + focus.saturating_sub(skip) as u16)
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
        let status = format!("{state} {} t={} ms", common::dot(theme), self.clock_ms);
        let inner = frame(area, buf, ctx, &self.title(), &status);
        if inner.is_empty() {
            return;
        }
        let head = self.header_lines(theme, inner.width as usize);
        let hh = (head.len() as u16).min(inner.height);
        let [ha, _, body] = inner.layout(&Layout::vertical([
            Constraint::Length(hh),
            Constraint::Length(1),
            Constraint::Fill(1),
        ]));
        common::draw_lines(ha, buf, &head, 0);
        if body.is_empty() {
            return;
        }
        let (la, ea) = if inner.width >= 100 {
            let [l, r] = body.layout(&Layout::horizontal([
                Constraint::Percentage(45),
                Constraint::Percentage(55),
            ]));
            (
                l,
                Rect {
                    x: r.x + 1,
                    width: r.width.saturating_sub(1),
                    ..r
                },
            )
        } else {
            let lanes = self.lane_lines(theme, body.width as usize).len() as u16;
            let lh = lanes.min(body.height / 2).max(2.min(body.height));
            let [l, r] = body.layout(&Layout::vertical([
                Constraint::Length(lh),
                Constraint::Fill(1),
            ]));
            (l, r)
        };
        common::draw_lines(la, buf, &self.lane_lines(theme, la.width as usize), 0);
        let (events, focus) = self.event_lines(theme, ea.width as usize);
        // The heading stays; the list below keeps the latest event in view, like a log.
        common::draw_lines(ea, buf, &events[..1], 0);
        let ea = Rect {
            y: ea.y + 1,
            height: ea.height.saturating_sub(1),
            ..ea
        };
        let events = &events[1..];
        let focus = focus.saturating_sub(1);
        let h = ea.height as usize;
        let skip = if events.len() > h {
            (focus + 2).saturating_sub(h).min(events.len() - h)
        } else {
            0
        };
        common::draw_lines(ea, buf, events, skip);
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
            return vec![KeyHint::new("Enter", "step through the trace")];
        }
        vec![
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

    fn remaining(&self) -> Vec<String> {
        if self.finished {
            Vec::new()
        } else {
            vec!["the trace (play it to the end)".to_owned()]
        }
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
