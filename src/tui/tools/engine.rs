//! The playground on one of your own declarations: the shared playground shell around an
//! engine whose schema is the declaration (compiled once), whose arguments the learner
//! edits, and whose rule switches are tried on the declaration's own trap rows. The line
//! of the arguments the failure names is marked. It is laid out as the lessons'
//! playgrounds are (see [`side`]): from [`WIDE`] columns the arguments over the verdict
//! make a column on the left and the rules with the rows that flip the column beside it;
//! narrower, the rules beside the rows that flip come under the verdict.

use std::sync::Arc;

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use serde_json::{Map, Value, json};

use crate::course::lab::validator_run::{VAL_STAGES, ValRun, run_validator, stage_label};
use crate::tools::traps::Trap;
use crate::tui::blocks::KeyHint;
use crate::tui::blocks::common::{self, verdict_line, wrap_prefixed};
use crate::tui::blocks::editor::Editor;
use crate::tui::blocks::panels::{self, Flip};
use crate::tui::blocks::playground::side::{
    ARGS_LEAST, ARGS_SPARE, EDITOR_H, EDITOR_LEAST, WIDE, body_height, columns, draw_verdict,
    editor_rows, rows_u16, words_width,
};
use crate::tui::blocks::playground::{
    ArgsInput, Canvas, Engine, KeyEffect, Panel, Playground, Shell,
};
use crate::tui::theme::Theme;
use crate::validate::{CheckKind, Rule, Validator};

/// Twentieths of a wide block's width the arguments and the verdict take.
const SHARE: u16 = 9;

/// Where the playground's parts go (see [`ToolEngine::parts`]): the rules with the rows
/// that flip in the column beside the others (`wide`), or under them.
struct Parts {
    args: Rect,
    result: Rect,
    rules: Rect,
    wide: bool,
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
        let width = words_width(width);
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

    /// Rows of the arguments box beside the side column at `width`, borders included:
    /// what it wants (its text and a few rows to type into) and what it keeps at least.
    fn wide_rows(&self, width: u16) -> (u16, u16) {
        let text = self.args.full_height(width);
        let least = text.max(ARGS_LEAST);
        (least.max(text + ARGS_SPARE), least)
    }

    /// Where the parts go in `inner`: the arguments, the verdict under them, and the
    /// rules with the rows that flip, in the column beside from [`WIDE`] columns, else
    /// under the verdict. In one column the arguments box keeps no empty rows while the
    /// rows that flip do not fit under it.
    fn parts(&self, shell: &Shell<Rule>, inner: Rect) -> Parts {
        let wide = inner.width >= WIDE;
        let (left, rules) = if wide {
            columns(inner, SHARE)
        } else {
            (inner, inner)
        };
        let res = self.result_height(shell, left.width);
        let ed = if wide {
            let (want, least) = self.wide_rows(left.width);
            want.min(left.height.saturating_sub(res))
                .max(least.min(left.height))
        } else {
            let room = left
                .height
                .saturating_sub(res + shell.under_height(left.width));
            // As measured; fewer, at least EDITOR_LEAST, when drawn in longer marks than
            // measured (ASCII, before its first draw), so the verdict and the rules keep
            // their rows.
            self.narrow_rows(shell, left.width, room)
                .min(room.max(EDITOR_LEAST))
                .min(left.height)
        };
        let args = Rect { height: ed, ..left };
        let result = Rect {
            y: args.bottom(),
            height: res.min(left.bottom() - args.bottom()),
            ..left
        };
        let rules = if wide {
            rules
        } else {
            let y = result.bottom().min(inner.bottom());
            Rect {
                y,
                height: inner.bottom() - y,
                ..inner
            }
        };
        Parts {
            args,
            result,
            rules,
            wide,
        }
    }

    /// Rows of the arguments box in one column `width` wide when `room` rows are free
    /// for it: crowded when a rule is off and the rows that flip would not all show.
    /// Otherwise it takes every free row: the playground fills its screen, and rows that
    /// nothing else needs are room to type, not blank rows under the rules.
    fn narrow_rows(&self, shell: &Shell<Rule>, width: u16, room: u16) -> u16 {
        let full = self.args.full_height(width);
        let crowded = shell.off().is_some() && full.max(EDITOR_H) > room;
        let rows = editor_rows(full, room, crowded);
        if crowded { rows } else { rows.max(room) }
    }

    /// Rows the verdict takes at `width` cells, in the marks of the last draw (ASCII
    /// marks can take a line more).
    fn result_height(&self, shell: &Shell<Rule>, width: u16) -> u16 {
        let lines = self.result_lines(&shell.drawn_theme(), usize::from(width), shell.off());
        rows_u16(lines.len())
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

    /// Wide: the taller of the two columns, no taller than the page can show as long as
    /// each keeps its least. Narrow: every row it draws (the host scrolls it).
    fn height(&self, shell: &Shell<Rule>, width: u16, available: u16) -> u16 {
        let inner = width.saturating_sub(2);
        if inner >= WIDE {
            let (left, side) = columns(Rect::new(0, 0, inner, 0), SHARE);
            let res = self.result_height(shell, left.width);
            let (want, least) = self.wide_rows(left.width);
            let want = (res + want).max(shell.side_height(side.width));
            let least = (res + least).max(shell.side_least(side.width));
            return body_height(want, least, available) + 2;
        }
        let fixed = self.result_height(shell, inner) + shell.under_height(inner);
        let room = available.saturating_sub(2 + fixed);
        fixed + self.narrow_rows(shell, inner, room) + 2
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
        if parts.wide {
            let spill = draw_verdict(&res, parts.result, inner.bottom(), buf);
            shell.draw_side(theme, (parts.rules, spill), buf, show);
        } else {
            common::draw_lines(parts.result, buf, &res, 0);
            shell.draw_under(theme, parts.rules, buf, show);
        }
    }

    /// The row (from the block's top border) the reader keeps in view: the line being
    /// typed, the rule cursor, else the top (at the height the block took when the host
    /// last laid it out).
    fn focus_line(&self, shell: &Shell<Rule>, width: u16) -> u16 {
        let inner = width.saturating_sub(2);
        let body = self.height(shell, width, shell.room()).saturating_sub(2);
        let parts = self.parts(shell, Rect::new(0, 0, inner, body));
        if shell.edits(Panel::Args) {
            // The editor box has a top border; it scrolls past its height.
            let area = parts.args;
            let row = rows_u16(self.args.wrapped(area.width.saturating_sub(2)).1)
                .min(area.height.saturating_sub(3));
            return 1 + area.y + 1 + row;
        }
        if shell.focus() == Panel::Rules {
            return 1 + parts.rules.y + shell.rule_row();
        }
        1
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
