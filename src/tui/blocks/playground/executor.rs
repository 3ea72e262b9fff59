//! `playground mode=executor [tool=get_ticket] [tenant=alpha|beta|gamma] [read=allow|deny]`:
//! an editable tool name, trusted-context toggles and an argument editor; every edit
//! re-runs the real executor: the envelope and the ordered pipeline (name, shape, value,
//! permission, lookup) with the check that fired. Rule switches run every get_ticket
//! fixture row with one rule off and list the rows that flip.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use serde_json::{Map, Value, json};

use super::executor_run::{ExecRun, Stage, run_exec, run_exec_case};
use super::{ArgsInput, Canvas, Engine, KeyEffect, Panel, Playground, Shell, side};
use crate::content::lessons::Block;
use crate::executor::cases::ExecCase;
use crate::executor::{Context, Record, Safeguard};
use crate::tui::blocks::common::{
    self, is_char, is_left, is_right, plain, verdict_lines, wrap_prefixed,
};
use crate::tui::blocks::editor::Editor;
use crate::tui::blocks::panels::{self, Flip, StageState};
use crate::tui::blocks::{BlockEnv, KeyHint};
use crate::tui::theme::Theme;

mod layout;

pub const TENANTS: [&str; 3] = ["alpha", "beta", "gamma"];
/// Width from which the tool field and the context get a line each, with their hints
/// (the context line is then 81 columns).
const ROOMY: u16 = 82;

/// The executor playground's inputs and latest run.
pub struct ExecutorEngine {
    tool: Editor,
    tenant: usize,
    read: bool,
    args: Editor,
    cases: Vec<ExecCase>,
    records: Arc<Vec<Record>>,
    run: ExecRun,
    json_error: Option<(usize, usize, String)>,
}

pub type ExecutorPlayground = Playground<ExecutorEngine>;

impl Playground<ExecutorEngine> {
    pub fn from_block(block: &Block, env: &BlockEnv) -> Result<ExecutorPlayground, String> {
        let tool = block.option("tool").unwrap_or("get_ticket");
        let tenant = match block.option("tenant") {
            None => 0,
            Some(t) => TENANTS.iter().position(|x| *x == t).ok_or_else(|| {
                format!(
                    "playground: tenant must be alpha, beta or gamma, not {q_t}",
                    q_t = crate::sanitize::quote(t)
                )
            })?,
        };
        let read = match block.option("read") {
            None | Some("allow") => true,
            Some("deny") => false,
            Some(other) => {
                return Err(format!(
                    "playground: read must be allow or deny, not {q_other}",
                    q_other = crate::sanitize::quote(other)
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
        Playground::with_engine(ExecutorEngine {
            tool: Editor::single(tool),
            tenant: tenant.min(TENANTS.len() - 1),
            read,
            args: Editor::new(args),
            cases,
            records,
            run: ExecRun {
                envelope: Value::Null,
                fired: None,
                store_changed: None,
                agrees: true,
            },
            json_error: None,
        })
    }

    pub fn envelope(&self) -> &Value {
        &self.engine().run.envelope
    }

    pub fn fired(&self) -> Option<Stage> {
        self.engine().run.fired
    }

    pub fn context(&self) -> Context {
        self.engine().context()
    }

    pub fn tool_name(&self) -> String {
        self.engine().tool.text()
    }
}

impl ExecutorEngine {
    fn context(&self) -> Context {
        Context {
            tenant: TENANTS[self.tenant].to_owned(),
            can_read_tickets: self.read,
            can_write_tickets: false,
        }
    }

    fn stages(&self, off: Option<Safeguard>) -> Vec<(&'static str, StageState)> {
        let stages = Stage::ALL.iter().map(|&s| {
            let is_off = matches!(
                (s, off),
                (Stage::Name, Some(Safeguard::Allowlist))
                    | (Stage::Shape, Some(Safeguard::ExactShape))
                    | (Stage::Value, Some(Safeguard::IdFormat))
                    | (Stage::Permission, Some(Safeguard::ReadPermission))
            );
            let label = match (s, off) {
                (Stage::Lookup, Some(Safeguard::TenantScoping)) => "lookup (any tenant)",
                (Stage::Lookup, Some(Safeguard::CopyOnReturn)) => "lookup (no copy)",
                _ => s.label(),
            };
            (label, is_off, self.run.fired == Some(s))
        });
        panels::stage_states(stages, false)
    }

    fn result_lines(
        &self,
        theme: &Theme,
        width: usize,
        off: Option<Safeguard>,
    ) -> Vec<Line<'static>> {
        let width = side::words_width(width);
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
            &self.stages(off),
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
            if crate::text::width(line) <= width {
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
        let need = self.context_line(theme, None, false, false).width() as u16;
        // "tool " + the field + a space.
        need + 6 + self.tool_field_width(false) > inner_width
    }

    /// Columns of the tool field: room for the name being typed, 15 at least.
    fn tool_field_width(&self, roomy: bool) -> u16 {
        let want = u16::try_from(self.tool.text_width() + 2).unwrap_or(u16::MAX);
        want.clamp(15, if roomy { 48 } else { 40 })
            .max(if roomy { 32 } else { 15 })
    }

    /// Rows above the editors: the tool field, and the context when it has its own row.
    fn top_rows(&self, inner_width: u16) -> u16 {
        let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
        if self.context_own_row(&theme, inner_width) {
            2
        } else {
            1
        }
    }

    /// `focused`: the context pane has the focus. `tight`: short words (allow/deny) so
    /// the line fits a narrow reader.
    fn context_line(
        &self,
        theme: &Theme,
        focused: Option<bool>,
        roomy: bool,
        tight: bool,
    ) -> Line<'static> {
        let cf = focused == Some(true);
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
    fn draw_tool(&self, c: &Canvas<Safeguard>, area: Rect, buf: &mut Buffer, roomy: bool) -> u16 {
        let Canvas { shell, theme, show } = *c;
        let tf = shell.shows(Panel::Tool, show);
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
                .min(self.tool_field_width(roomy)),
            ..area
        };
        self.tool
            .render(field, buf, theme, shell.edits(Panel::Tool), "", tf);
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
            let words = Span::styled("(editable: try delete_ticket)", theme.dim);
            common::draw_lines(hint, buf, &[Line::from(words)], 0);
        }
        area.width
    }

    /// The tool field and the trusted context; returns the area left under them.
    fn draw_top(&self, c: &Canvas<Safeguard>, inner: Rect, buf: &mut Buffer) -> Rect {
        let Canvas { shell, theme, show } = *c;
        let roomy = inner.width >= ROOMY;
        let own_row = self.context_own_row(theme, inner.width);
        let [tool_a, ctx_a, rest] = inner.layout(&Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(if own_row { 1 } else { 0 }),
            Constraint::Fill(1),
        ]));
        let used = self.draw_tool(c, tool_a, buf, roomy);
        let ctx_a = if own_row {
            ctx_a
        } else {
            Rect {
                x: tool_a.x + used + 1,
                width: tool_a.width.saturating_sub(used + 1),
                ..tool_a
            }
        };
        let focused = Some(shell.shows(Panel::Context, show));
        let tight =
            !roomy && self.context_line(theme, focused, roomy, false).width() as u16 > ctx_a.width;
        let line = self.context_line(theme, focused, roomy, tight);
        common::draw_lines(ctx_a, buf, &[line], 0);
        rest
    }

    fn change_context(&mut self, key: &KeyEvent, focus: Panel) -> bool {
        let n = TENANTS.len();
        if is_char(key, 't') || (focus == Panel::Context && is_right(key)) {
            self.tenant = (self.tenant + 1) % n;
        } else if focus == Panel::Context && is_left(key) {
            self.tenant = (self.tenant + n - 1) % n;
        } else if is_char(key, 'p')
            || (focus == Panel::Context && (is_char(key, ' ') || plain(key, KeyCode::Enter)))
        {
            self.read = !self.read;
        } else {
            return false;
        }
        true
    }
}

impl Engine for ExecutorEngine {
    type Rule = Safeguard;
    const TITLE: &'static str = "Playground: executor";
    const PANELS: &'static [Panel] = &[Panel::Tool, Panel::Context, Panel::Args, Panel::Rules];
    const TAB_HINT: &'static str = "tool / context / args / rules";

    fn refresh(&mut self, off: Option<Safeguard>) {
        self.run = run_exec(
            &self.tool.text(),
            &ArgsInput::Text(self.args.text()),
            &self.context(),
            &self.records,
            off,
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

    fn row_count(&self) -> usize {
        self.cases.len()
    }

    fn compare_row(&self, i: usize, rule: Safeguard) -> Option<Option<Flip>> {
        let case = self.cases.get(i)?;
        let with = run_exec_case(case, &self.records, None).ok()?;
        let without = run_exec_case(case, &self.records, Some(rule)).ok()?;
        let changed = with.contract_envelope() != without.contract_envelope()
            || with.store_changed != without.store_changed;
        let tenant = case.context.tenant.as_str();
        let (with_words, with_ok) = with.flip_words(&self.records, tenant);
        let (without_words, without_ok) = without.flip_words(&self.records, tenant);
        Some(changed.then(|| Flip {
            id: case.id.clone(),
            with: with_words,
            with_ok,
            without: without_words,
            without_ok,
        }))
    }

    fn editor_mut(&mut self, panel: Panel) -> Option<&mut Editor> {
        match panel {
            Panel::Tool => Some(&mut self.tool),
            Panel::Args => Some(&mut self.args),
            _ => None,
        }
    }

    fn error_spot(&self) -> Option<(Panel, usize, usize)> {
        self.json_error
            .as_ref()
            .map(|(l, c, _)| (Panel::Args, *l, *c))
    }

    fn key(&mut self, focus: Panel, key: &KeyEvent) -> Option<KeyEffect> {
        self.change_context(key, focus).then_some(KeyEffect::Edited)
    }

    fn panel_hints(&self, focus: Panel) -> Vec<KeyHint> {
        match focus {
            Panel::Tool => vec![KeyHint::new("Enter/e", "edit tool name")],
            Panel::Context => vec![
                KeyHint::new("Left/Right", "tenant"),
                KeyHint::new("Space", "read allowed/denied"),
            ],
            _ => vec![KeyHint::new("Enter/e", "edit arguments")],
        }
    }

    fn extra_hints(&self) -> Vec<KeyHint> {
        vec![KeyHint::new("t/p", "tenant / permission")]
    }

    fn status(&self, theme: &Theme) -> String {
        let outcome = self.run.outcome();
        if outcome == "ok" {
            // The ASCII mark already reads OK.
            if theme.ascii {
                theme.sym.ok.to_owned()
            } else {
                format!("{} ok", theme.sym.ok)
            }
        } else {
            format!("{} {outcome}", theme.sym.bad)
        }
    }

    fn height(&self, shell: &Shell<Safeguard>, width: u16, available: u16) -> u16 {
        self.height_in(shell, width, available)
    }

    fn render(&self, c: &Canvas<Safeguard>, inner: Rect, buf: &mut Buffer) {
        self.render_in(c, inner, buf);
    }

    fn focus_line(&self, shell: &Shell<Safeguard>, width: u16) -> u16 {
        self.focus_row(shell, width)
    }

    fn save(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("tool".into(), json!(self.tool.text()));
        m.insert("tenant".into(), json!(TENANTS[self.tenant]));
        m.insert("read".into(), json!(self.read));
        m.insert("args".into(), json!(self.args.text()));
        m
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
    }
}
