//! The playground on one of your own declarations: the shared playground shell around an
//! engine whose schema is the declaration (compiled once), whose arguments the learner
//! edits, and whose rule switches are tried on the declaration's own trap rows. The line
//! of the arguments the failure names is marked.

use std::sync::Arc;

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use serde_json::{Map, Value, json};

use crate::course::lab::validator_run::{VAL_STAGES, ValRun, run_validator, stage_label};
use crate::tools::traps::Trap;
use crate::tui::blocks::KeyHint;
use crate::tui::blocks::common::{self, verdict_line, wrap_prefixed};
use crate::tui::blocks::editor::Editor;
use crate::tui::blocks::panels::{self, Flip};
use crate::tui::blocks::playground::{
    ArgsInput, Canvas, Engine, KeyEffect, Panel, Playground, Shell, rules_from,
};
use crate::tui::theme::Theme;
use crate::validate::{CheckKind, Rule, Validator};

/// From this many columns the arguments sit beside the verdict.
const WIDE: u16 = 100;
/// Rows the arguments editor takes at least in a wide window, borders included.
const EDITOR_ROWS: u16 = 10;

/// Where the playground's parts go (see [`ToolEngine::parts`]).
struct Parts {
    args: Rect,
    result: Rect,
    rules: Rect,
}

/// The declaration's validator, its trap rows and the learner's arguments.
pub struct ToolEngine {
    name: String,
    validator: Arc<Validator>,
    traps: Vec<Trap>,
    args: Editor,
    run: ValRun,
}

pub type ToolPlayground = Playground<ToolEngine>;

/// A playground on `name`'s validator, its arguments starting at `args`.
pub fn playground(
    name: &str,
    validator: Arc<Validator>,
    traps: Vec<Trap>,
    args: &Value,
) -> ToolPlayground {
    let text = serde_json::to_string_pretty(args).unwrap_or_else(|_| "{}".into());
    Playground::with_engine(ToolEngine {
        name: name.to_owned(),
        validator,
        traps,
        args: Editor::new(&text),
        run: ValRun {
            first: None,
            all: Vec::new(),
        },
    })
}

impl ToolEngine {
    pub fn run(&self) -> &ValRun {
        &self.run
    }

    pub fn args_text(&self) -> String {
        self.args.text()
    }

    fn stages(&self, off: Option<Rule>) -> Vec<(&'static str, panels::StageState)> {
        let fired = self.run.first.as_ref().map(|v| v.kind);
        let stages = VAL_STAGES.iter().map(|&k| {
            let is_off = matches!(
                (k, off),
                (CheckKind::Missing, Some(Rule::Required))
                    | (CheckKind::Unknown, Some(Rule::Unknown))
                    | (CheckKind::Type, Some(Rule::Types))
                    | (CheckKind::Value, Some(Rule::Values))
            );
            (stage_label(k), is_off, fired == Some(k))
        });
        panels::stage_states(stages, false)
    }

    fn result_lines(&self, t: &Theme, width: usize, off: Option<Rule>) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        let name = crate::sanitize::clean(&self.name, false);
        match &self.run.first {
            None => {
                let mut p = verdict_line(t, true, "accepted", "").spans;
                p.push(Span::raw("  "));
                out.extend(wrap_prefixed(
                    p,
                    &format!("{name} would run with these arguments"),
                    width,
                    t.dim,
                ));
            }
            Some(v) => {
                let mut p = verdict_line(t, false, "rejected", "").spans;
                p.push(Span::raw("  "));
                let line = json!({"ok": false, "error": v.message});
                out.extend(common::wrap_json(p, &common::json_compact(&line), width, t));
                if !v.path.is_empty() {
                    out.extend(wrap_prefixed(
                        vec![Span::styled(format!("{} ", t.sym.pointer), t.warn)],
                        &format!(
                            "at {} (marked in the arguments)",
                            crate::sanitize::clean(&v.path, false)
                        ),
                        width,
                        t.warn,
                    ));
                }
            }
        }
        out.extend(panels::pipeline_lines(
            t,
            "checks:",
            &self.stages(off),
            width,
        ));
        if self.run.all.len() > 1 {
            out.push(Line::styled(
                format!("every violation: {}", self.run.all.len()),
                t.dim,
            ));
            for v in &self.run.all {
                out.extend(wrap_prefixed(
                    vec![Span::styled(format!("  {} ", t.sym.bullet), t.dim)],
                    &crate::sanitize::clean(&v.message, false),
                    width,
                    t.base,
                ));
            }
        }
        out
    }

    /// Where the parts go in `inner`: the arguments, the verdict, and the rules with the
    /// rows that flip. From [`WIDE`] columns the arguments (about [`EDITOR_ROWS`] rows, more
    /// when their text needs it and the window has them) sit beside the verdict, and the
    /// rules take the whole width beneath both; narrower, each goes under the one before.
    fn parts(&self, shell: &Shell<Rule>, inner: Rect) -> Parts {
        if inner.width >= WIDE {
            let [l, r] = inner.layout(&Layout::horizontal([
                Constraint::Percentage(50),
                Constraint::Percentage(50),
            ]));
            let right_w = r.width.saturating_sub(1);
            let res = self.result_height(shell, right_w);
            // The rules keep at least their switches' rows under the band.
            let keep = shell.rules_panel_height(inner.width).min(7) + 1;
            let ed = (self.args.full_height(l.width).max(EDITOR_ROWS))
                .min(inner.height.saturating_sub(keep))
                .max(6.min(inner.height));
            let band = ed.max(res).min(inner.height);
            let below = inner.y + band + 1;
            return Parts {
                args: Rect { height: ed, ..l },
                result: Rect {
                    x: r.x + 1,
                    width: right_w,
                    height: res.min(band),
                    ..r
                },
                rules: rules_from(inner, below),
            };
        }
        let ed = self
            .args
            .full_height(inner.width)
            .min(inner.height / 2 + 1)
            .max(6.min(inner.height));
        let [l, r] = inner.layout(&Layout::vertical([
            Constraint::Length(ed),
            Constraint::Fill(1),
        ]));
        let res = self.result_height(shell, r.width).min(r.height);
        let below = r.y + res + 1;
        Parts {
            args: l,
            result: Rect { height: res, ..r },
            rules: rules_from(r, below),
        }
    }

    /// Rows the verdict takes at `width` cells.
    fn result_height(&self, shell: &Shell<Rule>, width: u16) -> u16 {
        let theme = Theme::new(crate::tui::theme::ThemeName::Mono, false);
        let n = self
            .result_lines(&theme, usize::from(width), shell.off())
            .len();
        u16::try_from(n).unwrap_or(u16::MAX)
    }

    /// Mark the row of the arguments editor in `area` that holds the failing member.
    fn mark_failure(&self, area: Rect, buf: &mut Buffer, t: &Theme) {
        let Some(v) = &self.run.first else { return };
        let key = v
            .path
            .rsplit(['.', '['])
            .next()
            .unwrap_or_default()
            .trim_end_matches(']');
        if key.is_empty() {
            return;
        }
        // As the arguments' JSON text writes it.
        let quoted = serde_json::to_string(key.trim_matches('"')).unwrap_or_default();
        let text = self.args.text();
        let Some(line) = text.lines().position(|l| l.contains(&quoted)) else {
            return;
        };
        let Some(row) = line.checked_sub(self.args.top) else {
            return;
        };
        let y = area.y + 1 + u16::try_from(row).unwrap_or(u16::MAX);
        if y + 1 < area.y + area.height {
            let r = Rect {
                x: area.x + 1,
                y,
                width: area.width.saturating_sub(2),
                height: 1,
            };
            buf.set_style(r, t.bad);
        }
    }
}

impl Engine for ToolEngine {
    type Rule = Rule;
    const TITLE: &'static str = "Playground: your tool";
    const PANELS: &'static [Panel] = &[Panel::Args, Panel::Rules];
    const TAB_HINT: &'static str = "args / rules";
    const ROWS: &'static str = "trap rows";

    fn refresh(&mut self, off: Option<Rule>) {
        self.run = run_validator(&self.validator, &ArgsInput::Text(self.args.text()), off);
    }

    fn row_count(&self) -> usize {
        self.traps.len()
    }

    fn compare_row(&self, i: usize, rule: Rule) -> Option<Option<Flip>> {
        let trap = self.traps.get(i)?;
        let input = ArgsInput::Value(trap.args.clone());
        let (a, b) = (
            run_validator(&self.validator, &input, None).verdict(),
            run_validator(&self.validator, &input, Some(rule)).verdict(),
        );
        // The row's name and the validator's words quote the file: cleaned for the screen.
        Some(
            Flip::between(&trap.label, &a, &b, "let through").map(|f| Flip {
                id: crate::sanitize::clean(&f.id, false),
                with: crate::sanitize::clean(&f.with, false),
                without: crate::sanitize::clean(&f.without, false),
                ..f
            }),
        )
    }

    fn editor_mut(&mut self, panel: Panel) -> Option<&mut Editor> {
        (panel == Panel::Args).then_some(&mut self.args)
    }

    fn error_spot(&self) -> Option<(Panel, usize, usize)> {
        let v = self
            .run
            .first
            .as_ref()
            .filter(|v| v.kind == CheckKind::Parse)?;
        let (line, column) = common::line_col(&v.message)?;
        Some((Panel::Args, line, column))
    }

    fn key(&mut self, _focus: Panel, _key: &KeyEvent) -> Option<KeyEffect> {
        None
    }

    fn panel_hints(&self, _focus: Panel) -> Vec<KeyHint> {
        vec![KeyHint::new("Enter/e", "edit arguments")]
    }

    fn status(&self, theme: &Theme) -> String {
        match &self.run.first {
            None => format!("{} accepted", theme.sym.ok),
            Some(_) => format!("{} rejected", theme.sym.bad),
        }
    }

    /// Every row it draws: the arguments beside (or above) the verdict, a gap, and the
    /// rules with their rows that flip.
    fn height(&self, shell: &Shell<Rule>, width: u16, available: u16) -> u16 {
        let inner = width.saturating_sub(2);
        let parts = self.parts(shell, Rect::new(0, 0, inner, u16::MAX / 2));
        let rules = shell.rules_panel_height(parts.rules.width);
        let top = parts.args.bottom().max(parts.result.bottom());
        let need = top + 1 + rules;
        (need + 2).max(available.min(top + 2))
    }

    fn render(&self, c: &Canvas<Rule>, inner: Rect, buf: &mut Buffer) {
        let Canvas { shell, theme, show } = *c;
        let parts = self.parts(shell, inner);
        self.args.render(
            parts.args,
            buf,
            theme,
            shell.edits(Panel::Args),
            "arguments",
            shell.shows(Panel::Args, show),
        );
        self.mark_failure(parts.args, buf, theme);
        let res = self.result_lines(theme, usize::from(parts.result.width), shell.off());
        common::draw_lines(parts.result, buf, &res, 0);
        shell.draw_rules(theme, parts.rules, buf, show);
    }

    /// The top of the block, or of the rules while they have the focus (at the height
    /// the block asks for, as a host that scrolls it draws it).
    fn focus_line(&self, shell: &Shell<Rule>, width: u16) -> u16 {
        if shell.focus() != Panel::Rules {
            return 1;
        }
        let inner = width.saturating_sub(2);
        let tall = self.height(shell, width, 0).saturating_sub(2);
        1 + self.parts(shell, Rect::new(0, 0, inner, tall)).rules.y
    }

    fn save(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("args".into(), json!(self.args.text()));
        m
    }

    fn restore(&mut self, state: &Value) {
        if let Some(a) = state.get("args").and_then(Value::as_str) {
            self.args = Editor::new(a);
        }
    }
}
