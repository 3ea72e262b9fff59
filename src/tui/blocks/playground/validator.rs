//! `playground mode=validator schema=NAME`: pick a fixture schema (or edit one), edit the
//! arguments, and every edit re-runs the real validator: the verdict, the ordered pipeline
//! with the check that fired, every violation (`--all`), JSON errors at line and column.
//! Rule switches run every `validator_cases.json` row with one rule off and list the rows
//! that flip.

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use serde_json::{Map, Value, json};

use super::validator_run::{
    JsonError, VAL_STAGES, ValRun, load_named_schemas, parse_schema_text, run_validator,
    run_validator_case, schema_text, schema_text_at, stage_label,
};
use super::{ArgsInput, Canvas, Engine, KeyEffect, Panel, Playground, Shell, side};
use crate::content::lessons::Block;
use crate::tui::blocks::common::{
    self, is_char, is_left, is_right, verdict_line, verdict_lines, wrap_prefixed,
};
use crate::tui::blocks::editor::Editor;
use crate::tui::blocks::panels::{self, Flip, StageState};
use crate::tui::blocks::{BlockEnv, KeyHint};
use crate::tui::theme::Theme;
use crate::validate::cases::{NamedSchema, ValidatorCase, Verdict};
use crate::validate::{CheckKind, Rule};

mod layout;

/// The result of the latest run.
#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    /// The schema text is not a usable schema.
    SchemaError(String),
    Run(ValRun),
}

/// The validator playground's inputs and latest run.
pub struct ValidatorEngine {
    schemas: Vec<(String, NamedSchema)>,
    /// The fixture schema shown, or `None` once the learner edited the schema text.
    schema_idx: Option<usize>,
    schema_editor: Editor,
    /// Inner width of the schema box at the last draw: an unedited fixture schema is laid
    /// out for it.
    schema_w: std::cell::Cell<u16>,
    args_editor: Editor,
    cases: Vec<ValidatorCase>,
    outcome: Outcome,
    json_error: Option<JsonError>,
}

pub type ValidatorPlayground = Playground<ValidatorEngine>;

impl Playground<ValidatorEngine> {
    pub fn from_block(block: &Block, env: &BlockEnv) -> Result<ValidatorPlayground, String> {
        let schemas = load_named_schemas(&env.content)?;
        if schemas.is_empty() {
            return Err("playground: schemas.json names no schema".to_owned());
        }
        // Without schema=NAME the first named schema is shown.
        let idx = match block.option("schema") {
            None => 0,
            Some(name) => schemas.iter().position(|(n, _)| n == name).ok_or_else(|| {
                format!(
                    "playground: no schema named {q_name} in schemas.json",
                    q_name = crate::sanitize::quote(name)
                )
            })?,
        };
        let cases =
            crate::validate::cases::validator_cases(&env.content).map_err(|e| e.to_string())?;
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
        Playground::with_engine(ValidatorEngine {
            schemas,
            schema_idx: Some(idx),
            schema_editor: Editor::new(&text),
            schema_w: std::cell::Cell::new(0),
            args_editor: Editor::new(args),
            cases,
            outcome: Outcome::SchemaError(String::new()),
            json_error: None,
        })
    }

    pub fn json_error(&self) -> Option<&JsonError> {
        self.engine().json_error.as_ref()
    }

    pub fn args_text(&self) -> String {
        self.engine().args_editor.text()
    }

    pub fn args_cursor(&self) -> (usize, usize) {
        self.engine().args_editor.cursor()
    }

    pub fn schema_name(&self) -> Option<&str> {
        self.engine().schema_name()
    }

    /// The verdict of the latest run (`None` while the schema is broken).
    pub fn verdict(&self) -> Option<Verdict> {
        self.engine().verdict()
    }

    pub fn fired(&self) -> Option<CheckKind> {
        self.engine().fired()
    }

    pub fn all_violations(&self) -> Vec<String> {
        match &self.engine().outcome {
            Outcome::Run(r) => r.all.iter().map(|v| v.message.clone()).collect(),
            Outcome::SchemaError(_) => Vec::new(),
        }
    }
}

impl ValidatorEngine {
    /// The schema box's editor as drawn in a box `box_w` wide: an unedited fixture schema
    /// is laid out for that width (more fits on a line in a wide box).
    fn schema_view(&self, box_w: u16) -> std::borrow::Cow<'_, Editor> {
        match self.schema_idx {
            Some(i) if self.schema_editor.text() == self.schema_editor.original() => {
                let text = schema_text_at(&self.schemas[i].1, usize::from(box_w.saturating_sub(3)));
                let mut view = Editor::new(&text);
                view.top = self.schema_editor.top;
                std::borrow::Cow::Owned(view)
            }
            _ => std::borrow::Cow::Borrowed(&self.schema_editor),
        }
    }

    fn schema_name(&self) -> Option<&str> {
        self.schema_idx.map(|i| self.schemas[i].0.as_str())
    }

    fn verdict(&self) -> Option<Verdict> {
        match &self.outcome {
            Outcome::Run(r) => Some(r.verdict()),
            Outcome::SchemaError(_) => None,
        }
    }

    fn fired(&self) -> Option<CheckKind> {
        match &self.outcome {
            Outcome::Run(r) => r.first.as_ref().map(|v| v.kind),
            Outcome::SchemaError(_) => None,
        }
    }

    fn choose_schema(&mut self, forward: bool) {
        let n = self.schemas.len();
        if n == 0 {
            return;
        }
        let cur = self.schema_idx.unwrap_or(0);
        let next = if forward {
            (cur + 1) % n
        } else {
            (cur + n - 1) % n
        };
        self.schema_idx = Some(next);
        self.schema_editor = Editor::new(&schema_text(&self.schemas[next].1));
    }

    fn stages(&self, off: Option<Rule>) -> Vec<(&'static str, StageState)> {
        let fired = self.fired();
        let broken = matches!(self.outcome, Outcome::SchemaError(_));
        let stages = VAL_STAGES.iter().map(|&k| {
            let is_off = matches!(
                (k, off),
                (CheckKind::Missing, Some(Rule::Required))
                    | (CheckKind::Unknown, Some(Rule::Unknown))
                    | (CheckKind::Type, Some(Rule::Types))
                    | (CheckKind::Value, Some(Rule::Values))
            );
            let label = if k == CheckKind::Type && off == Some(Rule::BoolGuard) {
                "type (no bool guard)"
            } else {
                stage_label(k)
            };
            (label, is_off, fired == Some(k))
        });
        panels::stage_states(stages, broken)
    }

    fn result_lines(&self, theme: &Theme, width: usize, off: Option<Rule>) -> Vec<Line<'static>> {
        let width = side::words_width(width);
        let mut out = Vec::new();
        match &self.outcome {
            Outcome::SchemaError(msg) => {
                out.extend(verdict_lines(theme, false, "schema error", msg, width));
            }
            Outcome::Run(run) => {
                let v = run.verdict();
                let mut prefix =
                    verdict_line(theme, v.ok, if v.ok { "accepted" } else { "rejected" }, "").spans;
                prefix.push(Span::raw("  "));
                if v.ok {
                    out.extend(wrap_prefixed(
                        prefix,
                        "every check passed",
                        width,
                        theme.dim,
                    ));
                } else {
                    let line = json!({"ok": v.ok, "error": v.error});
                    out.extend(common::wrap_json(
                        prefix,
                        &common::json_compact(&line),
                        width,
                        theme,
                    ));
                }
                out.extend(panels::pipeline_lines(
                    theme,
                    "checks:",
                    &self.stages(off),
                    width,
                ));
            }
        }
        out.extend(self.error_lines(theme, width));
        out
    }

    /// The JSON error's position, and every violation when there is more than one.
    fn error_lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        let mut out = Vec::new();
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

    fn picker_height(&self, width: u16) -> u16 {
        let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
        self.picker_lines(&theme, false, usize::from(width)).len() as u16
    }

    fn result_height(&self, width: u16, off: Option<Rule>) -> u16 {
        let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
        self.result_lines(&theme, usize::from(width), off).len() as u16
    }
}

impl Engine for ValidatorEngine {
    type Rule = Rule;
    const TITLE: &'static str = "Playground: validator";
    const PANELS: &'static [Panel] = &[Panel::Schema, Panel::Args, Panel::Rules];
    const TAB_HINT: &'static str = "schema / args / rules";

    /// Re-run the real validator on the editors' text.
    fn refresh(&mut self, off: Option<Rule>) {
        self.json_error = None;
        match parse_schema_text(&self.schema_editor.text()) {
            Err(e) => {
                self.outcome = Outcome::SchemaError(e.message.clone());
                if e.line > 0 {
                    self.json_error = Some(e);
                }
            }
            Ok(schema) => {
                let run = run_validator(&schema, &ArgsInput::Text(self.args_editor.text()), off);
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

    fn row_count(&self) -> usize {
        self.cases.len()
    }

    fn compare_row(&self, i: usize, rule: Rule) -> Option<Option<Flip>> {
        let case = self.cases.get(i)?;
        let with = run_validator_case(case, &self.schemas, None).ok()?;
        let without = run_validator_case(case, &self.schemas, Some(rule)).ok()?;
        let (a, b) = (with.verdict(), without.verdict());
        Some(Flip::between(&case.id, &a, &b, "ok"))
    }

    fn editor_mut(&mut self, panel: Panel) -> Option<&mut Editor> {
        match panel {
            Panel::Schema => {
                // Typing starts from the layout the learner sees.
                let w = self.schema_w.get();
                if w > 0
                    && let std::borrow::Cow::Owned(view) = self.schema_view(w)
                    && view.text() != self.schema_editor.text()
                {
                    self.schema_editor = view;
                }
                Some(&mut self.schema_editor)
            }
            Panel::Args => Some(&mut self.args_editor),
            _ => None,
        }
    }

    fn typed(&mut self, panel: Panel) {
        if panel == Panel::Schema {
            self.schema_idx = None;
        }
    }

    fn error_spot(&self) -> Option<(Panel, usize, usize)> {
        self.json_error.as_ref().map(|e| {
            let panel = if e.in_schema {
                Panel::Schema
            } else {
                Panel::Args
            };
            (panel, e.line, e.column)
        })
    }

    fn key(&mut self, focus: Panel, key: &KeyEvent) -> Option<KeyEffect> {
        let (prev, next) = (is_char(key, '['), is_char(key, ']'));
        let arrows = focus == Panel::Schema && (is_left(key) || is_right(key));
        if !(prev || next || arrows) {
            return None;
        }
        self.choose_schema(next || (arrows && is_right(key)));
        Some(KeyEffect::Chosen)
    }

    fn panel_hints(&self, focus: Panel) -> Vec<KeyHint> {
        match focus {
            Panel::Schema => vec![
                KeyHint::new("Left/Right", "fixture schema"),
                KeyHint::new("Enter/e", "edit schema"),
            ],
            _ => vec![
                KeyHint::new("Enter/e", "edit arguments"),
                KeyHint::new("[/]", "fixture schema"),
            ],
        }
    }

    fn status(&self, theme: &Theme) -> String {
        match self.verdict() {
            Some(v) if v.ok => format!("{} accepted", theme.sym.ok),
            Some(_) => format!("{} rejected", theme.sym.bad),
            None => format!("{} schema error", theme.sym.bad),
        }
    }

    fn height(&self, shell: &Shell<Rule>, width: u16, available: u16) -> u16 {
        self.height_in(shell, width, available)
    }

    fn render(&self, c: &Canvas<Rule>, inner: Rect, buf: &mut Buffer) {
        self.render_in(c, inner, buf);
    }

    fn focus_line(&self, shell: &Shell<Rule>, width: u16) -> u16 {
        self.focus_row(shell, width)
    }

    fn save(&self) -> Map<String, Value> {
        let schema_text = self.schema_idx.is_none().then(|| self.schema_editor.text());
        let mut m = Map::new();
        m.insert("schema".into(), json!(self.schema_name()));
        m.insert("schema_text".into(), json!(schema_text));
        m.insert("args".into(), json!(self.args_editor.text()));
        m
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
    }
}
