//! `playground mode=validator schema=NAME`: pick a fixture schema (or edit one), edit the
//! arguments, and every edit re-runs the real validator: the verdict, the ordered pipeline
//! with the check that fired, every violation (`--all`), JSON errors at line and column.
//! Rule switches run every `validator_cases.json` row with one rule off and list the rows
//! that flip.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use serde_json::{Value, json};

use crate::content::fixtures::{NamedSchema, ValidatorCase};
use crate::content::lessons::Block;
use crate::tui::blocks::common::{
    self, Editor, frame, is_char, is_down, is_left, is_right, is_up, plain, verdict_line,
    verdict_lines, wrap_prefixed,
};
use crate::tui::blocks::engine::{self, ArgsInput, VAL_STAGES, ValRule, ValRun};
use crate::tui::blocks::panels::{self, Flip, RulesPanel, StageState};
use crate::tui::blocks::{BlockEnv, BlockOutcome, BlockWidget, KeyHint, RenderCtx};
use crate::tui::theme::Theme;
use crate::validate::{CheckKind, Json, Schema};

const WIDE: u16 = 110;
const EDITOR_H: u16 = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    Schema,
    Args,
    Rules,
}

/// Where a JSON error points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    pub in_schema: bool,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The result of the latest run.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    /// The schema text is not a usable schema.
    SchemaError(String),
    Run(ValRun),
}

pub struct ValidatorPlayground {
    /// Where the last draw put the block (x, y) and the rule switches (absolute), for clicks.
    drawn: std::cell::Cell<((u16, u16), Rect)>,
    schemas: Vec<(String, NamedSchema)>,
    /// The fixture schema shown, or `None` once the learner edited the schema text.
    schema_idx: Option<usize>,
    schema_editor: Editor,
    args_editor: Editor,
    focus: Panel,
    editing: bool,
    off: Option<ValRule>,
    rule_cursor: usize,
    cases: Vec<ValidatorCase>,
    outcome: Outcome,
    json_error: Option<JsonError>,
    flips: Vec<Flip>,
    flip_total: usize,
    edited: bool,
    switched: bool,
}

/// The editor text for a named schema: the schema itself, or `{"schema", "required"}`
/// for a flat schema with required names.
fn schema_text(entry: &NamedSchema) -> String {
    let v = if entry.required.is_empty() {
        entry.schema.clone()
    } else {
        json!({"schema": entry.schema, "required": entry.required})
    };
    common::json_semi_pretty(&v, 34)
}

/// Read the schema editor's text into a schema. Accepts any contract form, or the
/// `{"schema": ..., "required": [...]}` wrapper for flat schemas.
pub fn parse_schema_text(text: &str) -> Result<Schema, JsonError> {
    // The validator's own strict reader: a schema that repeats a key is refused too, and
    // numbers keep every digit.
    let v = match crate::validate::json::parse(text) {
        Ok(j) => j,
        Err(e) => {
            let message = e.message();
            let (line, column) = common::line_col(&message).unwrap_or((0, 0));
            return Err(JsonError {
                in_schema: true,
                line,
                column,
                message: format!("schema: {message}"),
            });
        }
    };
    let wrapped = match &v {
        Json::Object(members) => {
            matches!(v.get("schema"), Some(Json::Object(_)))
                && members
                    .iter()
                    .all(|(k, _)| matches!(k.as_ref(), "schema" | "required" | "description"))
        }
        _ => false,
    };
    let (schema, required) = match v.get("schema") {
        Some(inner) if wrapped => {
            let req: Vec<String> = match v.get("required") {
                Some(Json::Array(items)) => items
                    .iter()
                    .filter_map(|i| match i {
                        Json::Str(s) => Some(s.to_string()),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            (inner, req)
        }
        _ => (&v, Vec::new()),
    };
    crate::validate::schema::compile(schema, &required, None).map_err(|e| JsonError {
        in_schema: true,
        line: 0,
        column: 0,
        message: e,
    })
}

impl ValidatorPlayground {
    pub fn from_block(block: &Block, env: &BlockEnv) -> Result<ValidatorPlayground, String> {
        let schemas = engine::load_named_schemas(&env.content)?;
        if schemas.is_empty() {
            return Err("playground: schemas.json names no schema".to_owned());
        }
        // Without schema=NAME the first named schema is shown.
        let idx = match block.option("schema") {
            None => 0,
            Some(name) => schemas
                .iter()
                .position(|(n, _)| n == name)
                .ok_or_else(|| format!("playground: no schema named {name:?} in schemas.json"))?,
        };
        let cases =
            crate::content::fixtures::validator_cases(&env.content).map_err(|e| e.to_string())?;
        let args = if block.body.trim().is_empty() {
            "{}".to_owned()
        } else {
            block.body.trim_end().to_owned()
        };
        Ok(ValidatorPlayground::new(schemas, idx, &args, cases))
    }

    pub fn new(
        schemas: Vec<(String, NamedSchema)>,
        idx: usize,
        args: &str,
        cases: Vec<ValidatorCase>,
    ) -> ValidatorPlayground {
        let idx = idx.min(schemas.len().saturating_sub(1));
        let text = schemas
            .get(idx)
            .map(|(_, e)| schema_text(e))
            .unwrap_or_default();
        let mut p = ValidatorPlayground {
            drawn: std::cell::Cell::new(((0, 0), Rect::default())),
            schemas,
            schema_idx: Some(idx),
            schema_editor: Editor::new(&text),
            args_editor: Editor::new(args),
            focus: Panel::Args,
            editing: false,
            off: None,
            rule_cursor: 0,
            cases,
            outcome: Outcome::SchemaError(String::new()),
            json_error: None,
            flips: Vec::new(),
            flip_total: 0,
            edited: false,
            switched: false,
        };
        p.refresh();
        p
    }

    // -------------------------------------------------------------- state

    pub fn focus(&self) -> Panel {
        self.focus
    }

    pub fn editing(&self) -> bool {
        self.editing
    }

    pub fn off(&self) -> Option<ValRule> {
        self.off
    }

    pub fn flips(&self) -> &[Flip] {
        &self.flips
    }

    pub fn json_error(&self) -> Option<&JsonError> {
        self.json_error.as_ref()
    }

    pub fn args_text(&self) -> String {
        self.args_editor.text()
    }

    pub fn args_cursor(&self) -> (usize, usize) {
        self.args_editor.cursor()
    }

    pub fn schema_name(&self) -> Option<&str> {
        self.schema_idx.map(|i| self.schemas[i].0.as_str())
    }

    /// The verdict of the latest run (`None` while the schema is broken).
    pub fn verdict(&self) -> Option<crate::content::fixtures::Verdict> {
        match &self.outcome {
            Outcome::Run(r) => Some(r.verdict()),
            Outcome::SchemaError(_) => None,
        }
    }

    pub fn fired(&self) -> Option<CheckKind> {
        match &self.outcome {
            Outcome::Run(r) => r.first.as_ref().map(|v| v.kind),
            Outcome::SchemaError(_) => None,
        }
    }

    pub fn all_violations(&self) -> Vec<String> {
        match &self.outcome {
            Outcome::Run(r) => r.all.iter().map(|v| v.message.clone()).collect(),
            Outcome::SchemaError(_) => Vec::new(),
        }
    }

    /// Re-run the real validator on the editors' text.
    fn refresh(&mut self) {
        self.json_error = None;
        match parse_schema_text(&self.schema_editor.text()) {
            Err(e) => {
                self.outcome = Outcome::SchemaError(e.message.clone());
                if e.line > 0 {
                    self.json_error = Some(e);
                }
            }
            Ok(schema) => {
                let run = engine::run_validator(
                    &schema,
                    &ArgsInput::Text(self.args_editor.text()),
                    self.off,
                );
                if let Some(v) = &run.first
                    && v.kind == CheckKind::Parse
                    && let Some((line, column)) = common::line_col(&v.message)
                {
                    self.json_error = Some(JsonError {
                        in_schema: false,
                        line,
                        column,
                        message: v.message.clone(),
                    });
                }
                self.outcome = Outcome::Run(run);
            }
        }
    }

    /// Run every fixture row with all rules on and with the chosen rule off.
    fn refresh_flips(&mut self) {
        self.flips.clear();
        self.flip_total = 0;
        let Some(rule) = self.off else {
            return;
        };
        for case in &self.cases {
            let (Ok(with), Ok(without)) = (
                engine::run_validator_case(case, &self.schemas, None),
                engine::run_validator_case(case, &self.schemas, Some(rule)),
            ) else {
                continue;
            };
            self.flip_total += 1;
            let (a, b) = (with.verdict(), without.verdict());
            if a != b {
                let words = |v: &crate::content::fixtures::Verdict| {
                    if v.ok {
                        "ok".to_owned()
                    } else {
                        v.error.clone()
                    }
                };
                self.flips.push(Flip {
                    id: case.id.clone(),
                    with: words(&a),
                    with_ok: a.ok,
                    without: words(&b),
                    without_ok: b.ok,
                });
            }
        }
    }

    fn choose_schema(&mut self, forward: bool) {
        if self.schemas.is_empty() {
            return;
        }
        let n = self.schemas.len();
        let cur = self.schema_idx.unwrap_or(0);
        let next = if forward {
            (cur + 1) % n
        } else {
            (cur + n - 1) % n
        };
        self.schema_idx = Some(next);
        self.schema_editor = Editor::new(&schema_text(&self.schemas[next].1));
        self.refresh();
    }

    fn set_off(&mut self, rule: Option<ValRule>) {
        self.off = rule;
        self.switched = true;
        self.refresh();
        self.refresh_flips();
    }

    fn jump_to_error(&mut self) -> bool {
        let Some(e) = self.json_error.clone() else {
            return false;
        };
        if e.in_schema {
            self.focus = Panel::Schema;
            self.schema_editor.jump_to(e.line, e.column);
        } else {
            self.focus = Panel::Args;
            self.args_editor.jump_to(e.line, e.column);
        }
        self.editing = true;
        true
    }

    // -------------------------------------------------------------- drawing

    fn stages(&self) -> Vec<(&'static str, StageState)> {
        let fired = self.fired();
        let broken = matches!(self.outcome, Outcome::SchemaError(_));
        let mut seen = false;
        VAL_STAGES
            .iter()
            .map(|&k| {
                let off = matches!(
                    (k, self.off),
                    (CheckKind::Missing, Some(ValRule::Required))
                        | (CheckKind::Unknown, Some(ValRule::Unknown))
                        | (CheckKind::Type, Some(ValRule::Type))
                        | (CheckKind::Value, Some(ValRule::Value))
                );
                let label = if k == CheckKind::Type && self.off == Some(ValRule::BoolGuard) {
                    "type (no bool guard)"
                } else {
                    engine::stage_label(k)
                };
                let state = if broken || seen {
                    StageState::NotRun
                } else if off {
                    StageState::Off
                } else if fired == Some(k) {
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
        match &self.outcome {
            Outcome::SchemaError(msg) => {
                out.extend(verdict_lines(theme, false, "schema error", msg, width));
            }
            Outcome::Run(run) => {
                let v = run.verdict();
                let line = json!({"ok": v.ok, "error": v.error});
                let mut prefix =
                    verdict_line(theme, v.ok, if v.ok { "accepted" } else { "rejected" }, "").spans;
                prefix.push(Span::raw("  "));
                out.extend(common::wrap_json(
                    prefix,
                    &common::json_compact(&line),
                    width,
                    theme,
                ));
                out.extend(panels::pipeline_lines(
                    theme,
                    "checks:",
                    &self.stages(),
                    width,
                ));
            }
        }
        if let Some(e) = &self.json_error {
            let which = if e.in_schema { "schema" } else { "args" };
            out.extend(wrap_prefixed(
                vec![Span::styled(format!("{} ", theme.sym.pointer), theme.warn)],
                &format!(
                    "{which} line {}, column {} (g jumps there): {}",
                    e.line, e.column, e.message
                ),
                width,
                theme.warn,
            ));
        }
        if let Outcome::Run(run) = &self.outcome
            && run.all.len() > 1
        {
            out.push(Line::from(Span::styled(
                format!("every violation (--all): {}", run.all.len()),
                theme.dim,
            )));
            for v in &run.all {
                out.extend(wrap_prefixed(
                    vec![Span::styled(format!("  {} ", theme.sym.bullet), theme.dim)],
                    &crate::sanitize::clean(&v.message, false),
                    width,
                    theme.base,
                ));
            }
        }
        out
    }

    /// Lines the rules-and-flips panel needs when it is `width` cells wide.
    fn rules_panel_height(&self, width: u16) -> u16 {
        let labels = ValRule::ALL.map(|r| r.label());
        self.rules_panel(&labels, None).height(width)
    }

    fn rules_panel<'a>(&'a self, labels: &'a [&'a str], cursor: Option<usize>) -> RulesPanel<'a> {
        RulesPanel {
            labels,
            off: self
                .off
                .and_then(|o| ValRule::ALL.iter().position(|r| *r == o)),
            cursor,
            flips: &self.flips,
            flip_total: self.flip_total,
        }
    }

    fn rules_and_flips(&self, theme: &Theme, area: Rect, buf: &mut Buffer, show_cursor: bool) {
        let labels = ValRule::ALL.map(|r| r.label());
        let cursor = (show_cursor && self.focus == Panel::Rules).then_some(self.rule_cursor);
        let ra = self.rules_panel(&labels, cursor).render(theme, area, buf);
        let (origin, _) = self.drawn.get();
        self.drawn.set((origin, ra));
    }

    fn picker_lines(&self, theme: &Theme, focused: bool, width: usize) -> Vec<Line<'static>> {
        let name = match self.schema_idx {
            Some(i) => format!(
                "{} ({}/{})",
                crate::sanitize::clean(&self.schemas[i].0, false),
                i + 1,
                self.schemas.len()
            ),
            None => "edited".to_owned(),
        };
        let style = if focused { theme.selected } else { theme.base };
        let spans = vec![
            Span::styled("Schema ", theme.dim),
            Span::styled(format!("< {name} >"), style),
        ];
        let mut out = vec![Line::from(spans)];
        if let Some(i) = self.schema_idx {
            let d = &self.schemas[i].1.description;
            if !d.is_empty() {
                // The description wraps under the picker instead of running off the edge.
                out.extend(common::wrap_rich(
                    Vec::new(),
                    &crate::sanitize::clean(d, false),
                    width.max(8),
                    theme.dim,
                    theme,
                ));
            }
        }
        out
    }

    fn narrow_height(&self, width: usize) -> u16 {
        let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
        let res = self.result_lines(&theme, width).len() as u16;
        let flips = self.rules_panel_height(width as u16);
        self.picker_lines(&theme, false, width).len() as u16 + EDITOR_H + res + flips
    }
}

impl BlockWidget for ValidatorPlayground {
    fn title(&self) -> String {
        "Playground: validator".to_owned()
    }

    fn height(&self, width: u16) -> u16 {
        let inner = width.saturating_sub(2);
        let h = if inner >= WIDE {
            let right = (inner / 2) as usize;
            let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
            let r = self.result_lines(&theme, right).len() as u16
                + 1
                + self.rules_panel_height((inner / 2).saturating_sub(1));
            let pick = self.picker_lines(&theme, false, (inner / 2) as usize).len() as u16;
            r.max(pick + 2 * EDITOR_H)
        } else {
            self.narrow_height(inner as usize)
        };
        h + 2
    }

    fn render(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx) {
        let theme = ctx.theme;
        let status = match self.verdict() {
            Some(v) if v.ok => format!("{} accepted", theme.sym.ok),
            Some(_) => format!("{} rejected", theme.sym.bad),
            None => format!("{} schema error", theme.sym.bad),
        };
        let inner = frame(area, buf, ctx, &self.title(), &status);
        if inner.is_empty() {
            return;
        }
        self.drawn.set(((area.x, area.y), Rect::default()));
        let show = ctx.focused || ctx.active;
        let sch_focus = show && self.focus == Panel::Schema;
        let args_focus = show && self.focus == Panel::Args;
        let edit_schema = self.editing && self.focus == Panel::Schema;
        let edit_args = self.editing && self.focus == Panel::Args;
        if inner.width >= WIDE {
            let [left, right] = inner.layout(&Layout::horizontal([
                Constraint::Percentage(50),
                Constraint::Percentage(50),
            ]));
            let picker = self.picker_lines(theme, sch_focus, left.width as usize);
            let [pick, sch, args] = left.layout(&Layout::vertical([
                Constraint::Length(picker.len() as u16),
                Constraint::Fill(1),
                Constraint::Fill(1),
            ]));
            common::draw_lines(pick, buf, &picker, 0);
            self.schema_editor
                .render(sch, buf, theme, edit_schema, "schema", sch_focus);
            self.args_editor
                .render(args, buf, theme, edit_args, "arguments", args_focus);
            let right = Rect {
                x: right.x + 1,
                width: right.width.saturating_sub(1),
                ..right
            };
            let res = self.result_lines(theme, right.width as usize);
            let rh = (res.len() as u16).min(right.height);
            let [ra, _, rules] = right.layout(&Layout::vertical([
                Constraint::Length(rh),
                Constraint::Length(1),
                Constraint::Fill(1),
            ]));
            common::draw_lines(ra, buf, &res, 0);
            self.rules_and_flips(theme, rules, buf, show);
            return;
        }
        let res = self.result_lines(theme, inner.width as usize);
        let picker = self.picker_lines(theme, sch_focus, inner.width as usize);
        let ph = (picker.len() as u16)
            .min(inner.height.saturating_sub(1))
            .max(1);
        let eh = EDITOR_H.min(inner.height.saturating_sub(ph));
        let rest = inner.height.saturating_sub(ph + eh);
        let rh = (res.len() as u16).min(rest);
        let [pick, eds, ra, rules] = inner.layout(&Layout::vertical([
            Constraint::Length(ph),
            Constraint::Length(eh),
            Constraint::Length(rh),
            Constraint::Fill(1),
        ]));
        common::draw_lines(pick, buf, &picker, 0);
        let [sa, aa] = eds.layout(&Layout::horizontal([
            Constraint::Percentage(50),
            Constraint::Percentage(50),
        ]));
        self.schema_editor
            .render(sa, buf, theme, edit_schema, "schema", sch_focus);
        self.args_editor
            .render(aa, buf, theme, edit_args, "arguments", args_focus);
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
            self.focus = match (self.focus, tab) {
                (Panel::Schema, true) => Panel::Args,
                (Panel::Args, true) => Panel::Rules,
                (Panel::Rules, true) => Panel::Schema,
                (Panel::Schema, false) => Panel::Rules,
                (Panel::Args, false) => Panel::Schema,
                (Panel::Rules, false) => Panel::Args,
            };
            return BlockOutcome::Consumed;
        }
        if self.editing {
            if plain(&key, KeyCode::Esc) {
                self.editing = false;
                return BlockOutcome::Changed;
            }
            let changed = match self.focus {
                Panel::Schema => {
                    let c = self.schema_editor.input(key);
                    if c {
                        self.schema_idx = None;
                    }
                    c
                }
                Panel::Args => self.args_editor.input(key),
                Panel::Rules => false,
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
            return if self.jump_to_error() {
                BlockOutcome::Changed
            } else {
                BlockOutcome::Consumed
            };
        }
        match self.focus {
            Panel::Schema | Panel::Args => {
                if plain(&key, KeyCode::Enter) || is_char(&key, 'e') {
                    self.editing = true;
                    return BlockOutcome::Changed;
                }
                if self.focus == Panel::Schema
                    && (is_left(&key) || is_right(&key) || is_char(&key, '[') || is_char(&key, ']'))
                {
                    self.choose_schema(is_right(&key) || is_char(&key, ']'));
                    return BlockOutcome::Changed;
                }
            }
            Panel::Rules => {
                if is_up(&key) {
                    self.rule_cursor = self.rule_cursor.saturating_sub(1);
                    return BlockOutcome::Consumed;
                }
                if is_down(&key) {
                    self.rule_cursor = (self.rule_cursor + 1).min(ValRule::ALL.len() - 1);
                    return BlockOutcome::Consumed;
                }
                if is_char(&key, ' ') || plain(&key, KeyCode::Enter) {
                    let rule = ValRule::ALL[self.rule_cursor];
                    self.set_off(panels::toggled(self.off, rule));
                    return BlockOutcome::Changed;
                }
            }
        }
        if is_char(&key, '[') || is_char(&key, ']') {
            self.choose_schema(is_char(&key, ']'));
            return BlockOutcome::Changed;
        }
        BlockOutcome::Ignored
    }

    fn focus_line(&self, width: u16) -> Option<u16> {
        let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
        let inner = width.saturating_sub(2);
        let wide = inner >= WIDE;
        let pick_w = if wide { inner / 2 } else { inner };
        let ph = self.picker_lines(&theme, false, pick_w as usize).len() as u16;
        let editor_row = |e: &Editor| (e.cursor().0 as u16).min(EDITOR_H.saturating_sub(3));
        if self.editing {
            let (top, ed) = match self.focus {
                Panel::Schema => (0, &self.schema_editor),
                _ if wide => {
                    // Schema and arguments share the left column's height.
                    let left_h = self.height(width).saturating_sub(2 + ph);
                    (left_h / 2, &self.args_editor)
                }
                _ => (0, &self.args_editor),
            };
            return Some(1 + ph + top + 1 + editor_row(ed));
        }
        // Otherwise the verdict: right column top when wide, under the editors when narrow.
        Some(if wide { 1 } else { 1 + ph + EDITOR_H })
    }

    fn handle_click(&mut self, row: u16, col: u16) -> BlockOutcome {
        // A click on a rule switch selects it and flips it, as Space would.
        let Some((idx, rule)) = panels::clicked_rule(self.drawn.get(), row, col, &ValRule::ALL)
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
        let mut v = vec![KeyHint::new("Tab", "schema / args / rules")];
        match self.focus {
            Panel::Schema => {
                v.push(KeyHint::new("Left/Right", "fixture schema"));
                v.push(KeyHint::new("Enter", "edit schema"));
            }
            Panel::Args => v.push(KeyHint::new("Enter", "edit arguments")),
            Panel::Rules => {
                v.push(KeyHint::new("Up/Down", "rule"));
                v.push(KeyHint::new("Space", "switch off/on"));
            }
        }
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
            "schema": self.schema_name(),
            "schema_text": if self.schema_idx.is_none() { Some(self.schema_editor.text()) } else { None },
            "args": self.args_editor.text(),
            "off": self.off.map(|r| r.key()),
            "edited": self.edited,
            "switched": self.switched,
        })
    }

    fn restore(&mut self, state: &Value) {
        if let Some(name) = state.get("schema").and_then(Value::as_str)
            && let Some(i) = self.schemas.iter().position(|(n, _)| n == name)
        {
            self.schema_idx = Some(i);
            self.schema_editor = Editor::new(&schema_text(&self.schemas[i].1));
        } else if let Some(t) = state.get("schema_text").and_then(Value::as_str) {
            self.schema_idx = None;
            self.schema_editor = Editor::new(t);
        }
        if let Some(a) = state.get("args").and_then(Value::as_str) {
            self.args_editor = Editor::new(a);
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
            .and_then(ValRule::from_key);
        self.refresh();
        self.refresh_flips();
    }

    /// Explored: the learner edited something and tried a rule switch.
    fn is_done(&self) -> bool {
        self.edited && self.switched
    }
}
