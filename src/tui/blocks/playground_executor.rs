//! `playground mode=executor [tool=get_ticket] [tenant=alpha|beta|gamma] [read=allow|deny]`:
//! an editable tool name, trusted-context toggles and an argument editor; every edit
//! re-runs the real executor: the envelope and the ordered pipeline (name, shape, value,
//! permission, lookup) with the check that fired. Rule switches run every get_ticket
//! fixture row with one rule off and list the rows that flip.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use serde_json::{Value, json};

use crate::content::lessons::Block;
use crate::executor::cases::ExecCase;
use crate::executor::{Context, Record};
use crate::tui::blocks::common::{
    self, Editor, frame, is_char, is_down, is_left, is_right, is_up, plain, verdict_lines,
    wrap_prefixed,
};
use crate::tui::blocks::engine::{self, ArgsInput, ExecRule, ExecRun, Stage};
use crate::tui::blocks::panels::{self, Flip, RulesPanel, StageState};
use crate::tui::blocks::{BlockEnv, BlockOutcome, BlockWidget, KeyHint, RenderCtx};
use crate::tui::theme::Theme;

pub const TENANTS: [&str; 3] = ["alpha", "beta", "gamma"];
const WIDE: u16 = 110;
const EDITOR_H: u16 = 8;
/// Inner width from which the tool field and the context get a line each (with hints).
const ROOMY: u16 = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    Tool,
    Context,
    Args,
    Rules,
}

pub struct ExecutorPlayground {
    /// Where the last draw put the block (x, y) and the rule switches (absolute), for clicks.
    drawn: std::cell::Cell<((u16, u16), Rect)>,
    tool: Editor,
    tenant: usize,
    read: bool,
    args: Editor,
    focus: Panel,
    editing: bool,
    off: Option<ExecRule>,
    rule_cursor: usize,
    cases: Vec<ExecCase>,
    records: Arc<Vec<Record>>,
    run: ExecRun,
    json_error: Option<(usize, usize, String)>,
    flips: Vec<Flip>,
    flip_total: usize,
    edited: bool,
    switched: bool,
}

impl ExecutorPlayground {
    pub fn from_block(block: &Block, env: &BlockEnv) -> Result<ExecutorPlayground, String> {
        let tool = block.option("tool").unwrap_or("get_ticket");
        let tenant = match block.option("tenant") {
            None => 0,
            Some(t) => TENANTS.iter().position(|x| *x == t).ok_or_else(|| {
                format!("playground: tenant must be alpha, beta or gamma, not {t:?}")
            })?,
        };
        let read = match block.option("read") {
            None | Some("allow") => true,
            Some("deny") => false,
            Some(other) => {
                return Err(format!(
                    "playground: read must be allow or deny, not {other:?}"
                ));
            }
        };
        let cases =
            crate::executor::cases::get_ticket_cases(&env.content).map_err(|e| e.to_string())?;
        let args = if block.body.trim().is_empty() {
            "{\"ticket_id\": \"TKT-104\"}".to_owned()
        } else {
            block.body.trim_end().to_owned()
        };
        Ok(ExecutorPlayground::new(
            tool,
            tenant,
            read,
            &args,
            cases,
            env.records.clone(),
        ))
    }

    pub fn new(
        tool: &str,
        tenant: usize,
        read: bool,
        args: &str,
        cases: Vec<ExecCase>,
        records: Arc<Vec<Record>>,
    ) -> ExecutorPlayground {
        let mut p = ExecutorPlayground {
            drawn: std::cell::Cell::new(((0, 0), Rect::default())),
            tool: Editor::single(tool),
            tenant: tenant.min(TENANTS.len() - 1),
            read,
            args: Editor::new(args),
            focus: Panel::Args,
            editing: false,
            off: None,
            rule_cursor: 0,
            cases,
            records,
            run: ExecRun {
                envelope: Value::Null,
                fired: None,
                store_changed: None,
                agrees: true,
            },
            json_error: None,
            flips: Vec::new(),
            flip_total: 0,
            edited: false,
            switched: false,
        };
        p.refresh();
        p
    }

    pub fn focus(&self) -> Panel {
        self.focus
    }

    pub fn editing(&self) -> bool {
        self.editing
    }

    pub fn envelope(&self) -> &Value {
        &self.run.envelope
    }

    pub fn fired(&self) -> Option<Stage> {
        self.run.fired
    }

    pub fn flips(&self) -> &[Flip] {
        &self.flips
    }

    pub fn off(&self) -> Option<ExecRule> {
        self.off
    }

    pub fn context(&self) -> Context {
        Context {
            tenant: TENANTS[self.tenant].to_owned(),
            can_read_tickets: self.read,
            can_write_tickets: false,
        }
    }

    pub fn tool_name(&self) -> String {
        self.tool.text()
    }

    fn refresh(&mut self) {
        self.run = engine::run_exec(
            &self.tool.text(),
            &ArgsInput::Text(self.args.text()),
            &self.context(),
            &self.records,
            self.off,
            // On success, a careless caller then edits the result: is the store touched?
            true,
        );
        self.json_error = None;
        if let Some(detail) = self.run.envelope.get("detail").and_then(Value::as_str)
            && let Some((l, c)) = common::line_col(detail)
        {
            self.json_error = Some((l, c, detail.to_owned()));
        }
    }

    fn refresh_flips(&mut self) {
        self.flips.clear();
        self.flip_total = 0;
        let Some(rule) = self.off else {
            return;
        };
        let words = |r: &ExecRun| {
            let mut s = r.outcome();
            // Two successes can differ in whose ticket came back: name it.
            if r.store_changed.is_none()
                && let Some(title) = r.envelope.pointer("/ticket/title").and_then(Value::as_str)
            {
                s.push_str(&format!(": {}", crate::sanitize::clean(title, false)));
            }
            if r.store_changed == Some(true) {
                s.push_str(", store changed");
            }
            s
        };
        for case in &self.cases {
            let (Ok(with), Ok(without)) = (
                engine::run_exec_case(case, &self.records, None),
                engine::run_exec_case(case, &self.records, Some(rule)),
            ) else {
                continue;
            };
            self.flip_total += 1;
            if with.contract_envelope() != without.contract_envelope()
                || with.store_changed != without.store_changed
            {
                self.flips.push(Flip {
                    id: case.id.clone(),
                    with: words(&with),
                    with_ok: with.outcome() == "ok",
                    without: words(&without),
                    without_ok: without.outcome() == "ok",
                });
            }
        }
    }

    fn set_off(&mut self, rule: Option<ExecRule>) {
        self.off = rule;
        self.switched = true;
        self.refresh();
        self.refresh_flips();
    }

    fn stages(&self) -> Vec<(&'static str, StageState)> {
        let mut seen = false;
        Stage::ALL
            .iter()
            .map(|&s| {
                let off = matches!(
                    (s, self.off),
                    (Stage::Name, Some(ExecRule::Allowlist))
                        | (Stage::Shape, Some(ExecRule::ExactShape))
                        | (Stage::Value, Some(ExecRule::IdFormat))
                        | (Stage::Permission, Some(ExecRule::ReadPermission))
                );
                let label = match (s, self.off) {
                    (Stage::Lookup, Some(ExecRule::TenantScope)) => "lookup (any tenant)",
                    (Stage::Lookup, Some(ExecRule::CopyOnReturn)) => "lookup (no copy)",
                    _ => s.label(),
                };
                let state = if seen {
                    StageState::NotRun
                } else if off {
                    StageState::Off
                } else if self.run.fired == Some(s) {
                    seen = true;
                    StageState::Fired
                } else {
                    StageState::Passed
                };
                (label, state)
            })
            .collect()
    }

    fn result_lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        let outcome = self.run.outcome();
        let ok = outcome == "ok";
        let detail = if ok {
            "the call ran; only id, title and status come back"
        } else if outcome == "not_found" {
            "a completed lookup that found nothing for this tenant"
        } else {
            "the call was refused before the store was read"
        };
        out.extend(verdict_lines(
            theme,
            ok,
            if ok { "ok" } else { &outcome },
            detail,
            width,
        ));
        out.extend(panels::pipeline_lines(
            theme,
            "checks:",
            &self.stages(),
            width,
        ));
        if let Some(changed) = self.run.store_changed {
            let (ok, word, detail) = if changed {
                (
                    false,
                    "store changed",
                    "the caller's edit went into the stored record",
                )
            } else {
                (
                    true,
                    "store intact",
                    "a caller who edits the result edits only its copy",
                )
            };
            out.extend(verdict_lines(theme, ok, word, detail, width));
        }
        if let Some((l, c, msg)) = &self.json_error {
            out.extend(wrap_prefixed(
                vec![Span::styled(format!("{} ", theme.sym.pointer), theme.warn)],
                &format!("args line {l}, column {c} (g jumps there): {msg}"),
                width,
                theme.warn,
            ));
        }
        out
    }

    /// The envelope, opened up only as far as `width` needs; headed when there is room.
    fn envelope_lines(&self, theme: &Theme, width: usize, height: usize) -> Vec<Line<'static>> {
        let text = common::json_semi_pretty(&self.run.envelope, width);
        // Lines still too long (a long string) wrap under their own indent, not off the edge.
        let mut body = Vec::new();
        for line in text.split('\n') {
            if common::width_of(line) <= width {
                body.push(common::highlight_json_line(line, theme));
            } else {
                let rest = line.trim_start();
                let indent = line.len() - rest.len();
                body.extend(common::wrap_json(
                    vec![Span::raw(" ".repeat(indent))],
                    rest,
                    width,
                    theme,
                ));
            }
        }
        let mut out = Vec::new();
        if body.len() < height {
            out.push(Line::from(Span::styled("Envelope", theme.heading)));
        }
        out.extend(body);
        out
    }

    /// The context goes on a row of its own when the block is roomy or when it does not
    /// fit beside the short tool field (it is never cut at the right edge).
    fn context_own_row(&self, theme: &Theme, inner_width: u16) -> bool {
        if inner_width >= ROOMY {
            return true;
        }
        let need = self.top_lines(theme, false, false).width() as u16;
        // "tool " + a 15-cell field + a space.
        need + 21 > inner_width
    }

    fn top_lines(&self, theme: &Theme, show: bool, roomy: bool) -> Line<'static> {
        self.context_line(theme, show, roomy, false)
    }

    /// `tight`: short words (allow/deny) so the line fits a narrow reader.
    fn context_line(&self, theme: &Theme, show: bool, roomy: bool, tight: bool) -> Line<'static> {
        let cf = show && self.focus == Panel::Context;
        let tenant_style = if cf { theme.selected } else { theme.base };
        let (r_allow, r_deny) = if self.read {
            (theme.sym.radio_on, theme.sym.radio_off)
        } else {
            (theme.sym.radio_off, theme.sym.radio_on)
        };
        let mut spans = vec![
            Span::styled(
                if roomy { "context " } else { "trusted " },
                if cf { theme.focus } else { theme.dim },
            ),
            Span::styled(format!("tenant < {} >", TENANTS[self.tenant]), tenant_style),
            Span::styled(" read ", theme.dim),
            Span::styled(
                if tight {
                    format!("{r_allow} allow {r_deny} deny")
                } else {
                    format!("{r_allow} allowed {r_deny} denied")
                },
                tenant_style,
            ),
        ];
        if roomy {
            spans.push(Span::styled("  (trusted: from the session)", theme.dim));
        }
        Line::from(spans)
    }

    /// The tool field; returns the columns it used. Narrow: a short field, the context
    /// follows on the same line.
    fn draw_tool(
        &self,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        show: bool,
        roomy: bool,
    ) -> u16 {
        let tf = show && self.focus == Panel::Tool;
        let lw: u16 = if roomy { 8 } else { 5 };
        let label = Line::from(Span::styled(
            if roomy { "tool    " } else { "tool " },
            if tf { theme.focus } else { theme.dim },
        ));
        common::draw_lines(area, buf, &[label], 0);
        let field = Rect {
            x: area.x + lw,
            width: area
                .width
                .saturating_sub(lw)
                .min(if roomy { 32 } else { 15 }),
            ..area
        };
        self.tool.render(
            field,
            buf,
            theme,
            self.editing && self.focus == Panel::Tool,
            "",
            tf,
        );
        let hint_x = field.x + field.width + 1;
        if !roomy {
            return (hint_x - area.x).min(area.width);
        }
        if hint_x < area.x + area.width {
            let hint = Rect {
                x: hint_x,
                width: area.x + area.width - hint_x,
                ..area
            };
            common::draw_lines(
                hint,
                buf,
                &[Line::from(Span::styled(
                    "(editable: try delete_ticket)",
                    theme.dim,
                ))],
                0,
            );
        }
        area.width
    }

    /// Lines the rules-and-flips panel needs when it is `width` cells wide.
    fn rules_panel_height(&self, width: u16) -> u16 {
        let labels = ExecRule::ALL.map(|r| r.label());
        self.rules_panel(&labels, None).height(width)
    }

    fn rules_panel<'a>(&'a self, labels: &'a [&'a str], cursor: Option<usize>) -> RulesPanel<'a> {
        RulesPanel {
            labels,
            off: self
                .off
                .and_then(|o| ExecRule::ALL.iter().position(|r| *r == o)),
            cursor,
            flips: &self.flips,
            flip_total: self.flip_total,
        }
    }

    fn rules_and_flips(&self, theme: &Theme, area: Rect, buf: &mut Buffer, show: bool) {
        let labels = ExecRule::ALL.map(|r| r.label());
        let cursor = (show && self.focus == Panel::Rules).then_some(self.rule_cursor);
        let ra = self.rules_panel(&labels, cursor).render(theme, area, buf);
        let (origin, _) = self.drawn.get();
        self.drawn.set((origin, ra));
    }
}

impl BlockWidget for ExecutorPlayground {
    fn title(&self) -> String {
        "Playground: executor".to_owned()
    }

    fn height(&self, width: u16) -> u16 {
        let inner = width.saturating_sub(2);
        let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
        let rules = self.rules_panel_height(inner);
        let res = self.result_lines(&theme, inner as usize).len() as u16;
        let top = if self.context_own_row(&theme, inner) {
            2
        } else {
            1
        };
        2 + top + EDITOR_H + res + rules
    }

    fn render(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx) {
        let theme = ctx.theme;
        let outcome = self.run.outcome();
        let status = if outcome == "ok" {
            format!("{} ok", theme.sym.ok)
        } else {
            format!("{} {outcome}", theme.sym.bad)
        };
        let inner = frame(area, buf, ctx, &self.title(), &status);
        if inner.is_empty() {
            return;
        }
        self.drawn.set(((area.x, area.y), Rect::default()));
        let show = ctx.focused || ctx.active;
        let roomy = inner.width >= ROOMY;
        let own_row = self.context_own_row(theme, inner.width);
        let [tool_a, ctx_a, rest] = inner.layout(&Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(if own_row { 1 } else { 0 }),
            Constraint::Fill(1),
        ]));
        let used = self.draw_tool(tool_a, buf, theme, show, roomy);
        let ctx_a = if own_row {
            ctx_a
        } else {
            Rect {
                x: tool_a.x + used + 1,
                width: tool_a.width.saturating_sub(used + 1),
                ..tool_a
            }
        };
        let tight = !roomy && self.top_lines(theme, show, roomy).width() as u16 > ctx_a.width;
        common::draw_lines(
            ctx_a,
            buf,
            &[self.context_line(theme, show, roomy, tight)],
            0,
        );
        let res = self.result_lines(theme, rest.width as usize);
        let eh = EDITOR_H.min(rest.height);
        let rh = (res.len() as u16).min(rest.height.saturating_sub(eh));
        let [eds, ra, rules] = rest.layout(&Layout::vertical([
            Constraint::Length(eh),
            Constraint::Length(rh),
            Constraint::Fill(1),
        ]));
        let split = if inner.width >= WIDE { 40 } else { 50 };
        let [aa, ea] = eds.layout(&Layout::horizontal([
            Constraint::Percentage(split),
            Constraint::Percentage(100 - split),
        ]));
        self.args.render(
            aa,
            buf,
            theme,
            self.editing && self.focus == Panel::Args,
            "arguments",
            show && self.focus == Panel::Args,
        );
        let ea = Rect {
            x: ea.x + 1,
            width: ea.width.saturating_sub(1),
            ..ea
        };
        let env = self.envelope_lines(theme, ea.width as usize, ea.height as usize);
        common::draw_lines(ea, buf, &env, 0);
        common::draw_lines(ra, buf, &res, 0);
        self.rules_and_flips(theme, rules, buf, show);
    }

    fn handle_key(&mut self, key: KeyEvent, active: bool) -> BlockOutcome {
        if !active {
            self.editing = false;
            return BlockOutcome::Ignored;
        }
        let tab = plain(&key, KeyCode::Tab);
        let backtab = key.code == KeyCode::BackTab
            || (key.code == KeyCode::Tab && key.modifiers.contains(KeyModifiers::SHIFT));
        if tab || backtab {
            self.editing = false;
            const ORDER: [Panel; 4] = [Panel::Tool, Panel::Context, Panel::Args, Panel::Rules];
            let i = ORDER.iter().position(|p| *p == self.focus).unwrap_or(0);
            self.focus = ORDER[if tab { (i + 1) % 4 } else { (i + 3) % 4 }];
            return BlockOutcome::Consumed;
        }
        if self.editing {
            if plain(&key, KeyCode::Esc)
                || (self.focus == Panel::Tool && plain(&key, KeyCode::Enter))
            {
                self.editing = false;
                return BlockOutcome::Changed;
            }
            let changed = match self.focus {
                Panel::Tool => self.tool.input(key),
                Panel::Args => self.args.input(key),
                _ => false,
            };
            if changed {
                self.edited = true;
                self.refresh();
                return BlockOutcome::Changed;
            }
            return BlockOutcome::Consumed;
        }
        if plain(&key, KeyCode::Esc) {
            return BlockOutcome::Release;
        }
        if is_char(&key, 'g') {
            if let Some((l, c, _)) = self.json_error.clone() {
                self.focus = Panel::Args;
                self.args.jump_to(l, c);
                self.editing = true;
                return BlockOutcome::Changed;
            }
            return BlockOutcome::Consumed;
        }
        if is_char(&key, 't') {
            self.tenant = (self.tenant + 1) % TENANTS.len();
            self.edited = true;
            self.refresh();
            return BlockOutcome::Changed;
        }
        if is_char(&key, 'p') {
            self.read = !self.read;
            self.edited = true;
            self.refresh();
            return BlockOutcome::Changed;
        }
        match self.focus {
            Panel::Tool | Panel::Args => {
                if plain(&key, KeyCode::Enter) || is_char(&key, 'e') {
                    self.editing = true;
                    return BlockOutcome::Changed;
                }
            }
            Panel::Context => {
                if is_left(&key) || is_right(&key) {
                    let n = TENANTS.len();
                    self.tenant = if is_right(&key) {
                        (self.tenant + 1) % n
                    } else {
                        (self.tenant + n - 1) % n
                    };
                    self.edited = true;
                    self.refresh();
                    return BlockOutcome::Changed;
                }
                if is_char(&key, ' ') || plain(&key, KeyCode::Enter) {
                    self.read = !self.read;
                    self.edited = true;
                    self.refresh();
                    return BlockOutcome::Changed;
                }
            }
            Panel::Rules => {
                if is_up(&key) {
                    self.rule_cursor = self.rule_cursor.saturating_sub(1);
                    return BlockOutcome::Consumed;
                }
                if is_down(&key) {
                    self.rule_cursor = (self.rule_cursor + 1).min(ExecRule::ALL.len() - 1);
                    return BlockOutcome::Consumed;
                }
                if is_char(&key, ' ') || plain(&key, KeyCode::Enter) {
                    let rule = ExecRule::ALL[self.rule_cursor];
                    self.set_off(panels::toggled(self.off, rule));
                    return BlockOutcome::Changed;
                }
            }
        }
        BlockOutcome::Ignored
    }

    fn focus_line(&self, width: u16) -> Option<u16> {
        let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
        let inner = width.saturating_sub(2);
        let top = if self.context_own_row(&theme, inner) {
            2
        } else {
            1
        };
        if self.editing && self.focus == Panel::Args {
            // The editor box has a top border; it scrolls past its height.
            let row = (self.args.cursor().0 as u16).min(EDITOR_H.saturating_sub(3));
            return Some(1 + top + 1 + row);
        }
        // Otherwise the verdict under the editor.
        Some(1 + top + EDITOR_H)
    }

    fn handle_click(&mut self, row: u16, col: u16) -> BlockOutcome {
        // A click on a rule switch selects it and flips it, as Space would.
        let Some((idx, rule)) = panels::clicked_rule(self.drawn.get(), row, col, &ExecRule::ALL)
        else {
            return BlockOutcome::Ignored;
        };
        self.editing = false;
        self.focus = Panel::Rules;
        self.rule_cursor = idx;
        self.set_off(panels::toggled(self.off, rule));
        BlockOutcome::Changed
    }

    fn key_hints(&self, active: bool) -> Vec<KeyHint> {
        if !active {
            return vec![KeyHint::new("Enter", "open the playground")];
        }
        if self.editing {
            return vec![
                KeyHint::new("Esc", "stop editing"),
                KeyHint::new("Tab", "next panel"),
            ];
        }
        let mut v = vec![KeyHint::new("Tab", "tool / context / args / rules")];
        match self.focus {
            Panel::Tool => v.push(KeyHint::new("Enter", "edit tool name")),
            Panel::Context => {
                v.push(KeyHint::new("Left/Right", "tenant"));
                v.push(KeyHint::new("Space", "read allowed/denied"));
            }
            Panel::Args => v.push(KeyHint::new("Enter", "edit arguments")),
            Panel::Rules => {
                v.push(KeyHint::new("Up/Down", "rule"));
                v.push(KeyHint::new("Space", "switch off/on"));
            }
        }
        v.push(KeyHint::new("t/p", "tenant / permission"));
        if self.json_error.is_some() {
            v.push(KeyHint::new("g", "go to JSON error"));
        }
        v.push(KeyHint::new("Esc", "back to page"));
        v
    }

    fn captures_text(&self) -> bool {
        self.editing
    }

    fn save(&self) -> Value {
        json!({
            "tool": self.tool.text(),
            "tenant": TENANTS[self.tenant],
            "read": self.read,
            "args": self.args.text(),
            "off": self.off.map(|r| r.key()),
            "edited": self.edited,
            "switched": self.switched,
        })
    }

    fn restore(&mut self, state: &Value) {
        if let Some(t) = state.get("tool").and_then(Value::as_str) {
            self.tool = Editor::single(t);
        }
        if let Some(t) = state.get("tenant").and_then(Value::as_str)
            && let Some(i) = TENANTS.iter().position(|x| *x == t)
        {
            self.tenant = i;
        }
        if let Some(r) = state.get("read").and_then(Value::as_bool) {
            self.read = r;
        }
        if let Some(a) = state.get("args").and_then(Value::as_str) {
            self.args = Editor::new(a);
        }
        self.edited = state
            .get("edited")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        self.switched = state
            .get("switched")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        self.off = state
            .get("off")
            .and_then(Value::as_str)
            .and_then(ExecRule::from_key);
        self.refresh();
        self.refresh_flips();
    }

    fn is_done(&self) -> bool {
        self.edited && self.switched
    }
}
