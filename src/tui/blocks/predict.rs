//! `predict fixture=get_ticket|validator [group=NAME] [rows=ID,ID,...]`: a fixture table
//! the learner predicts row by row. Pick an outcome (number keys or left/right), lock it
//! with Enter, reveal with Enter again: the reveal runs the REAL executor or validator on
//! the row (the fixture's `expected` is only used to flag a disagreement, never as the
//! actual). Missed rows go into a review queue (`r`) to replay.

use std::collections::BTreeMap;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use serde_json::{Value, json};

use crate::content::fixtures::{ExecCase, NamedSchema, ValidatorCase};
use crate::content::lessons::Block;
use crate::executor::Record;
use crate::sanitize::clean;
use crate::tui::blocks::common::{
    self, fit, frame, is_char, is_down, is_left, is_right, is_up, plain, verdict_lines,
    wrap_prefixed,
};
use crate::tui::blocks::playground::{self as engine, ArgsInput};
use crate::tui::blocks::{BlockEnv, BlockOutcome, BlockWidget, KeyHint, RenderCtx};
use crate::tui::theme::{Theme, ThemeName};

const EXEC_OUTCOMES: [&str; 5] = [
    "ok",
    "unknown_tool",
    "invalid_arguments",
    "forbidden",
    "not_found",
];
const VAL_OUTCOMES: [&str; 5] = ["ok", "missing", "unknown", "type", "value"];
/// Inner width from which the row detail goes beside the table.
const WIDE: u16 = 110;
/// Table rows shown at once in the stacked layout (the table scrolls around the cursor).
const MAX_TABLE_ROWS: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixtureKind {
    GetTicket,
    Validator,
}

#[derive(Debug, Clone)]
enum RowData {
    Exec(Box<ExecCase>),
    Val(Box<ValidatorCase>),
}

/// What the real code said about a row.
#[derive(Debug, Clone, PartialEq)]
pub struct Actual {
    /// `ok`, an error code, or a check word; `schema error` when the row's schema is bad.
    pub outcome: String,
    /// The envelope (get_ticket) or the verdict line (validator).
    pub shown: Value,
    /// The real result matches the row's `expected` (false would be a bug in code or fixture).
    pub agrees: bool,
    /// The row's expected value, compact, to show on disagreement.
    pub expected: String,
    /// Mutation rows: what happened to the store.
    pub extra: Option<String>,
}

#[derive(Debug, Clone)]
struct Row {
    id: String,
    data: RowData,
    pick: Option<usize>,
    locked: bool,
    revealed: bool,
    /// The first revealed prediction (its word) and whether it was right: the score.
    first: Option<(String, bool)>,
    actual: Option<Actual>,
}

impl Row {
    fn options(&self) -> Vec<&'static str> {
        match &self.data {
            RowData::Exec(_) => EXEC_OUTCOMES.to_vec(),
            RowData::Val(c) => {
                let mut v = VAL_OUTCOMES.to_vec();
                if c.args_text.is_some() || c.group == "parse" {
                    v.push("parse");
                }
                v
            }
        }
    }

    fn pick_word(&self) -> Option<&'static str> {
        self.pick.and_then(|i| self.options().get(i).copied())
    }

    fn reset_current(&mut self) {
        self.pick = None;
        self.locked = false;
        self.revealed = false;
    }
}

/// One outcome in the menu: (detail line, first column, end column, option index).
type MenuHit = (usize, usize, usize, usize);

/// Layout inside the border (coordinates relative to the inner area).
struct Geometry {
    wide: bool,
    left_w: u16,
    /// Stacked: rows of the table (header included); wide: the left column's height.
    table_h: u16,
    /// Table lines scrolled away (stacked: data rows; wide: whole table lines).
    row_skip: usize,
    detail: Rect,
}

pub struct PredictWidget {
    /// Inner size of the last draw, to map mouse clicks.
    drawn: std::cell::Cell<(u16, u16)>,
    kind: FixtureKind,
    rows: Vec<Row>,
    /// Index into `visible()`.
    cursor: usize,
    review: bool,
    /// Ids of rows missed, in the order they were missed.
    queue: Vec<String>,
    records: Arc<Vec<Record>>,
    named: Vec<(String, NamedSchema)>,
    /// A one-line note after a key that could not act (e.g. Enter with no pick).
    note: Option<String>,
}

impl PredictWidget {
    pub fn from_block(block: &Block, env: &BlockEnv) -> Result<PredictWidget, String> {
        let fixture = block
            .option("fixture")
            .ok_or("predict needs fixture=get_ticket or fixture=validator")?;
        let group = block.option("group");
        let wanted: Option<Vec<String>> = block.option("rows").map(|r| {
            r.split(',')
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect()
        });
        let content = &env.content;
        let (kind, all): (FixtureKind, Vec<(String, String, RowData)>) = match fixture {
            "get_ticket" => (
                FixtureKind::GetTicket,
                crate::content::fixtures::get_ticket_cases(content)
                    .map_err(|e| e.to_string())?
                    .into_iter()
                    .map(|c| (c.id.clone(), c.group.clone(), RowData::Exec(Box::new(c))))
                    .collect(),
            ),
            "validator" => (
                FixtureKind::Validator,
                crate::content::fixtures::validator_cases(content)
                    .map_err(|e| e.to_string())?
                    .into_iter()
                    .map(|c| (c.id.clone(), c.group.clone(), RowData::Val(Box::new(c))))
                    .collect(),
            ),
            other => {
                return Err(format!(
                    "predict: unknown fixture {other:?} (get_ticket or validator)"
                ));
            }
        };
        let named = if kind == FixtureKind::Validator {
            engine::load_named_schemas(content)?
        } else {
            Vec::new()
        };
        let mut chosen: Vec<(String, RowData)> = Vec::new();
        match &wanted {
            Some(ids) => {
                let by_id: BTreeMap<&str, &(String, String, RowData)> =
                    all.iter().map(|r| (r.0.as_str(), r)).collect();
                for id in ids {
                    let r = by_id
                        .get(id.as_str())
                        .ok_or_else(|| format!("predict: no {fixture} row with id {id:?}"))?;
                    if group.is_some_and(|g| g != r.1) {
                        return Err(format!(
                            "predict: row {id:?} is not in group {:?}",
                            group.unwrap_or_default()
                        ));
                    }
                    chosen.push((r.0.clone(), r.2.clone()));
                }
            }
            None => {
                for (id, g, d) in &all {
                    if group.is_none_or(|want| want == g) {
                        chosen.push((id.clone(), d.clone()));
                    }
                }
            }
        }
        if chosen.is_empty() {
            return Err(match group {
                Some(g) => format!("predict: no {fixture} rows in group {g:?}"),
                None => format!("predict: the {fixture} fixture has no rows"),
            });
        }
        Ok(PredictWidget::new(kind, chosen, env.records.clone(), named))
    }

    fn new(
        kind: FixtureKind,
        rows: Vec<(String, RowData)>,
        records: Arc<Vec<Record>>,
        named: Vec<(String, NamedSchema)>,
    ) -> PredictWidget {
        PredictWidget {
            drawn: std::cell::Cell::new((0, 0)),
            kind,
            rows: rows
                .into_iter()
                .map(|(id, data)| Row {
                    id,
                    data,
                    pick: None,
                    locked: false,
                    revealed: false,
                    first: None,
                    actual: None,
                })
                .collect(),
            cursor: 0,
            review: false,
            queue: Vec::new(),
            records,
            named,
            note: None,
        }
    }

    /// Build directly from get_ticket rows (tests, `render`).
    pub fn for_exec_cases(cases: Vec<ExecCase>, records: Arc<Vec<Record>>) -> PredictWidget {
        let rows = cases
            .into_iter()
            .map(|c| (c.id.clone(), RowData::Exec(Box::new(c))))
            .collect();
        PredictWidget::new(FixtureKind::GetTicket, rows, records, Vec::new())
    }

    /// Build directly from validator rows and named schemas.
    pub fn for_validator_cases(
        cases: Vec<ValidatorCase>,
        named: Vec<(String, NamedSchema)>,
    ) -> PredictWidget {
        let rows = cases
            .into_iter()
            .map(|c| (c.id.clone(), RowData::Val(Box::new(c))))
            .collect();
        PredictWidget::new(FixtureKind::Validator, rows, Arc::new(Vec::new()), named)
    }

    pub fn kind(&self) -> FixtureKind {
        self.kind
    }

    pub fn row_ids(&self) -> Vec<String> {
        self.rows.iter().map(|r| r.id.clone()).collect()
    }

    pub fn queue(&self) -> &[String] {
        &self.queue
    }

    pub fn in_review(&self) -> bool {
        self.review
    }

    /// (right on first reveal, rows revealed at least once, all rows).
    pub fn score(&self) -> (usize, usize, usize) {
        let revealed = self.rows.iter().filter(|r| r.first.is_some()).count();
        let right = self
            .rows
            .iter()
            .filter(|r| r.first.as_ref().is_some_and(|f| f.1))
            .count();
        (right, revealed, self.rows.len())
    }

    /// The actual result of a revealed row, by id.
    pub fn actual(&self, id: &str) -> Option<&Actual> {
        self.rows
            .iter()
            .find(|r| r.id == id)
            .and_then(|r| r.actual.as_ref())
    }

    /// The current (possibly tentative) prediction of a row, by id.
    pub fn prediction(&self, id: &str) -> Option<(&'static str, bool)> {
        self.rows
            .iter()
            .find(|r| r.id == id)
            .and_then(|r| r.pick_word().map(|w| (w, r.locked)))
    }

    /// The id of the row under the cursor.
    pub fn current_id(&self) -> Option<String> {
        self.current().map(|i| self.rows[i].id.clone())
    }

    fn visible(&self) -> Vec<usize> {
        if self.review {
            self.queue
                .iter()
                .filter_map(|id| self.rows.iter().position(|r| &r.id == id))
                .collect()
        } else {
            (0..self.rows.len()).collect()
        }
    }

    fn current(&self) -> Option<usize> {
        self.visible().get(self.cursor).copied()
    }

    /// Run the real code on row `i`.
    fn compute_actual(&self, i: usize) -> Actual {
        match &self.rows[i].data {
            RowData::Exec(case) => match engine::run_exec_case(case, &self.records, None) {
                Ok(run) => {
                    let extra = run.store_changed.map(|changed| {
                        if changed {
                            "changing the returned ticket changed the store".to_owned()
                        } else {
                            "changing the returned ticket left the store as it was".to_owned()
                        }
                    });
                    Actual {
                        outcome: run.outcome(),
                        agrees: run.agrees,
                        expected: common::json_compact(&case.expected),
                        shown: run.envelope,
                        extra,
                    }
                }
                Err(e) => Actual {
                    outcome: "broken row".to_owned(),
                    agrees: false,
                    shown: json!({"row_error": e}),
                    expected: common::json_compact(&case.expected),
                    extra: None,
                },
            },
            RowData::Val(case) => {
                let expected = serde_json::to_value(&case.expected).unwrap_or(Value::Null);
                match engine::run_validator_case(case, &self.named, None) {
                    Ok(run) => {
                        let verdict = run.verdict();
                        Actual {
                            outcome: run.outcome().to_owned(),
                            agrees: verdict == case.expected,
                            shown: json!({"ok": verdict.ok, "error": verdict.error}),
                            expected: common::json_compact(&expected),
                            extra: None,
                        }
                    }
                    Err(e) => Actual {
                        outcome: "broken row".to_owned(),
                        agrees: false,
                        shown: json!({"row_error": e}),
                        expected: common::json_compact(&expected),
                        extra: None,
                    },
                }
            }
        }
    }

    fn reveal(&mut self, i: usize) {
        let actual = self.compute_actual(i);
        let row = &mut self.rows[i];
        let Some(word) = row.pick_word() else {
            return;
        };
        let right = word == actual.outcome;
        row.revealed = true;
        row.locked = true;
        if row.first.is_none() {
            row.first = Some((word.to_owned(), right));
        }
        row.actual = Some(actual);
        let id = row.id.clone();
        if right {
            if self.review {
                self.queue.retain(|q| q != &id);
            }
        } else if !self.queue.contains(&id) {
            self.queue.push(id);
        }
        let n = self.visible().len();
        if self.cursor >= n {
            self.cursor = n.saturating_sub(1);
        }
    }

    fn enter_review(&mut self) {
        self.review = true;
        self.cursor = 0;
        for id in self.queue.clone() {
            if let Some(r) = self.rows.iter_mut().find(|r| r.id == id) {
                r.reset_current();
            }
        }
    }

    fn leave_review(&mut self) {
        self.review = false;
        self.cursor = 0;
        // Rows not replayed show their first reveal again.
        for i in 0..self.rows.len() {
            if !self.rows[i].revealed
                && let Some((word, _)) = self.rows[i].first.clone()
            {
                let opts = self.rows[i].options();
                self.rows[i].pick = opts.iter().position(|o| *o == word);
                self.rows[i].locked = true;
                self.rows[i].revealed = true;
                if self.rows[i].actual.is_none() {
                    self.rows[i].actual = Some(self.compute_actual(i));
                }
            }
        }
    }

    /// The score for the top border: the longest wording that fits beside the title at
    /// `width` (the score never runs into the title).
    fn status(&self, theme: &Theme, width: u16, active: bool) -> String {
        let d = common::dot(theme);
        let (right, revealed, total) = self.score();
        let review = if self.queue.is_empty() {
            String::new()
        } else {
            format!(" {d} review {}", self.queue.len())
        };
        let title = self.title();
        [
            format!("score {right}/{revealed} {d} {revealed} of {total} revealed{review}"),
            format!("score {right}/{revealed} {d} {revealed}/{total}{review}"),
            format!("{right}/{revealed} right{review}"),
            format!("{right}/{revealed}"),
        ]
        .into_iter()
        .find(|s| common::border_fits(width, &title, s, active))
        .unwrap_or_default()
    }

    // ------------------------------------------------------------ drawing

    fn table_lines(&self, theme: &Theme, width: usize, show_cursor: bool) -> Vec<Line<'static>> {
        let e = theme.sym.ellipsis;
        let mut out = Vec::new();
        let visible = self.visible();
        let (c2, c3, c4) = match self.kind {
            FixtureKind::GetTicket => (14usize, 17usize, 19usize),
            FixtureKind::Validator => (12, 9, 11),
        };
        // Narrow: "You" and "Real" share one column (the reveal replaces the prediction;
        // the detail below still shows both). The context column is what a row is about,
        // so it stays.
        let compact = width < 4 + 12 + c2 + c3 + c4 + 3;
        let c2 = if compact && self.kind == FixtureKind::Validator {
            c2.min(width / 5)
        } else {
            c2
        };
        let fixed = if compact {
            4 + c2 + 1 + c4
        } else {
            4 + c2 + 1 + c3 + 1 + c4
        };
        let flex = width.saturating_sub(fixed + 1).max(4);
        let (h1, h2) = match self.kind {
            FixtureKind::GetTicket => ("Call", "Context"),
            FixtureKind::Validator => ("Arguments", "Schema"),
        };
        let mut header = vec![
            Span::styled(format!("    {} ", fit(h1, flex, e)), theme.dim),
            Span::styled(format!("{} ", fit(h2, c2, e)), theme.dim),
        ];
        if compact {
            header.push(Span::styled(fit("You / real", c4, e), theme.dim));
        } else {
            header.push(Span::styled(format!("{} ", fit("You", c3, e)), theme.dim));
            header.push(Span::styled(fit("Real", c4, e), theme.dim));
        }
        out.push(Line::from(header));
        if visible.is_empty() {
            out.push(Line::from(Span::styled(
                "    The review queue is empty: every missed row is now right. r returns to the table.",
                theme.ok,
            )));
        }
        for (pos, &i) in visible.iter().enumerate() {
            let row = &self.rows[i];
            let here = show_cursor && pos == self.cursor;
            let base = if here { theme.selected } else { theme.base };
            let (c1_text, c2_text) = match &row.data {
                RowData::Exec(c) => {
                    // The tool name is only news when it is not get_ticket.
                    let label = match c.label.strip_prefix("get_ticket, ") {
                        Some(rest) if c.tool == "get_ticket" => rest,
                        _ => c.label.as_str(),
                    };
                    (clean(label, false), engine::context_short(&c.context))
                }
                RowData::Val(c) => (
                    clean(
                        &ArgsInput::from_case(&c.args, &c.args_text).display(),
                        false,
                    ),
                    match &c.schema {
                        Value::String(n) => clean(n, false),
                        _ => "inline".to_owned(),
                    },
                ),
            };
            let pointer = if here { theme.sym.pointer } else { " " };
            let mut spans = vec![
                Span::styled(pointer.to_string(), theme.focus),
                Span::styled(format!("{:>2} ", i + 1), base),
                Span::styled(format!("{} ", fit(&c1_text, flex, e)), base),
                Span::styled(format!("{} ", fit(&c2_text, c2, e)), base),
            ];
            let you = match (row.pick_word(), row.locked) {
                (None, _) => theme.sym.pending.to_owned(),
                (Some(w), true) => w.to_owned(),
                (Some(w), false) => format!("{w}?"),
            };
            let you_style = if row.locked { base } else { theme.dim };
            let real = match (&row.actual, row.revealed) {
                (Some(a), true) => {
                    let right = row.pick_word() == Some(a.outcome.as_str());
                    let (mark, st) = if right {
                        (theme.sym.ok, theme.ok)
                    } else {
                        (theme.sym.bad, theme.bad)
                    };
                    Some(Span::styled(
                        fit(&format!("{mark} {}", a.outcome), c4, e),
                        st,
                    ))
                }
                _ => None,
            };
            if compact {
                spans.push(real.unwrap_or_else(|| Span::styled(fit(&you, c4, e), you_style)));
            } else {
                spans.push(Span::styled(format!("{} ", fit(&you, c3, e)), you_style));
                spans.push(real.unwrap_or_else(|| Span::styled(fit("", c4, e), base)));
            }
            out.push(Line::from(spans));
        }
        out
    }

    fn detail_lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        self.detail_with_menu(theme, width).0
    }

    /// The detail lines and where each outcome sits in the menu: (line, first column,
    /// end column, option index), for mouse clicks.
    fn detail_with_menu(&self, theme: &Theme, width: usize) -> (Vec<Line<'static>>, Vec<MenuHit>) {
        let mut out = Vec::new();
        let mut hits = Vec::new();
        let Some(i) = self.current() else {
            return (out, hits);
        };
        let row = &self.rows[i];
        let w = width.max(8);
        let label_w = 9;
        let field = |out: &mut Vec<Line<'static>>, name: &str, json_text: &str| {
            out.extend(common::wrap_json(
                vec![Span::styled(format!("{name:<label_w$}"), theme.dim)],
                json_text,
                w,
                theme,
            ));
        };
        let title = match &row.data {
            RowData::Exec(c) => format!("Row {}: {}", i + 1, clean(&c.label, false)),
            RowData::Val(c) => format!(
                "Row {}: {} ({})",
                i + 1,
                clean(&c.id, false),
                clean(&c.group, false)
            ),
        };
        out.extend(wrap_prefixed(Vec::new(), &title, w, theme.heading));
        match &row.data {
            RowData::Exec(c) => {
                field(
                    &mut out,
                    "call",
                    &format!(
                        "{} {}",
                        clean(&c.tool, false),
                        ArgsInput::from_case(&c.args, &c.args_text).display()
                    ),
                );
                out.extend(wrap_prefixed(
                    vec![Span::styled(format!("{:<label_w$}", "context"), theme.dim)],
                    &format!(
                        "{} (trusted: from the session)",
                        engine::context_words(&c.context)
                    ),
                    w,
                    theme.base,
                ));
            }
            RowData::Val(c) => {
                let schema_text = match &c.schema {
                    Value::String(name) => match self.named.iter().find(|(n, _)| n == name) {
                        Some((_, e)) => {
                            let mut s = format!("{name}: {}", common::json_compact(&e.schema));
                            if !e.required.is_empty() {
                                s.push_str(&format!(" required {}", e.required.join(",")));
                            }
                            s
                        }
                        None => format!("{name} (not in schemas.json)"),
                    },
                    other => {
                        let mut s = common::json_compact(other);
                        if !c.required.is_empty() {
                            s.push_str(&format!(" required {}", c.required.join(",")));
                        }
                        s
                    }
                };
                field(&mut out, "schema", &clean(&schema_text, false));
                field(
                    &mut out,
                    "args",
                    &clean(
                        &ArgsInput::from_case(&c.args, &c.args_text).display(),
                        false,
                    ),
                );
            }
        }
        // The outcome menu.
        let mut menu: Vec<Span<'static>> = vec![Span::styled(
            format!(
                "{:<label_w$}",
                if row.locked { "locked" } else { "predict" }
            ),
            theme.dim,
        )];
        let mut menu_w = label_w;
        for (n, word) in row.options().iter().enumerate() {
            let on = row.pick == Some(n);
            let radio = if on {
                theme.sym.radio_on
            } else {
                theme.sym.radio_off
            };
            let item = format!("{radio} {} {word}  ", n + 1);
            let iw = common::width_of(&item);
            if menu_w + iw > w && menu_w > label_w {
                out.push(Line::from(std::mem::take(&mut menu)));
                menu.push(Span::raw(" ".repeat(label_w)));
                menu_w = label_w;
            }
            let st = if on { theme.selected } else { theme.base };
            menu.push(Span::styled(item, st));
            hits.push((out.len(), menu_w, menu_w + iw, n));
            menu_w += iw;
        }
        out.push(Line::from(menu));
        if let (true, Some(a)) = (row.revealed, &row.actual) {
            let word = row.pick_word().unwrap_or("?");
            let right = word == a.outcome;
            let who = match self.kind {
                FixtureKind::GetTicket => "the real executor returned",
                FixtureKind::Validator => "the real validator said",
            };
            out.extend(verdict_lines(
                theme,
                right,
                if right { "Right" } else { "Missed" },
                &format!("you said {word}; {who} {}", a.outcome),
                w,
            ));
            let label = match self.kind {
                FixtureKind::GetTicket => "envelope",
                FixtureKind::Validator => "verdict",
            };
            field(&mut out, label, &common::json_compact(&a.shown));
            if let Some(x) = &a.extra {
                out.extend(wrap_prefixed(
                    vec![Span::styled(format!("{:<label_w$}", "store"), theme.dim)],
                    x,
                    w,
                    theme.base,
                ));
            }
            if !a.agrees {
                out.extend(wrap_prefixed(
                    vec![Span::styled(format!("{} ", theme.sym.bad), theme.warn)],
                    &format!(
                        "Bug: the real code disagrees with this row's expected {}",
                        a.expected
                    ),
                    w,
                    theme.warn,
                ));
            }
            let reason = match &row.data {
                RowData::Exec(c) => clean(&c.reason, false),
                RowData::Val(c) => clean(&c.reason, false),
            };
            out.extend(wrap_prefixed(
                vec![Span::styled(format!("{:<label_w$}", "why"), theme.dim)],
                &reason,
                w,
                theme.base,
            ));
        } else {
            let hint = match (&self.note, row.pick, row.locked) {
                (Some(n), _, _) => n.clone(),
                (None, None, _) => {
                    format!("Pick an outcome: 1-{} or left/right.", row.options().len())
                }
                (None, Some(_), false) => "Enter locks your prediction.".to_owned(),
                (None, Some(_), true) => {
                    "Locked. Enter reveals what the real code does (u unlocks).".to_owned()
                }
            };
            out.extend(wrap_prefixed(Vec::new(), &hint, w, theme.dim));
        }
        (out, hits)
    }

    /// Where things go inside the border at this inner size (shared by `render`,
    /// `focus_line` and `handle_click`).
    fn geometry(&self, inner_w: u16, inner_h: u16) -> Geometry {
        let theme = Theme::new(ThemeName::Mono, false);
        if inner_w >= WIDE {
            let [left, _] = Rect::new(0, 0, inner_w, inner_h).layout(&Layout::horizontal([
                Constraint::Percentage(55),
                Constraint::Percentage(45),
            ]));
            let left_w = left.width;
            let table = self.table_lines(&theme, left_w as usize, true);
            let skip = common::scroll_to(self.cursor + 1, inner_h as usize, table.len());
            return Geometry {
                wide: true,
                left_w,
                table_h: inner_h,
                row_skip: skip,
                detail: Rect {
                    x: left_w + 1,
                    y: 0,
                    width: inner_w.saturating_sub(left_w + 1),
                    height: inner_h,
                },
            };
        }
        let table = self.table_lines(&theme, inner_w as usize, true);
        let detail = self.detail_lines(&theme, inner_w as usize);
        let want_table = table.len().min(1 + MAX_TABLE_ROWS) as u16;
        let detail_h = (detail.len() as u16).min(inner_h.saturating_sub(2));
        let table_h = want_table
            .min(inner_h.saturating_sub(detail_h))
            .max(inner_h.min(2));
        let rows_h = table_h.saturating_sub(1) as usize;
        let skip = common::scroll_to(self.cursor, rows_h, table.len().saturating_sub(1));
        Geometry {
            wide: false,
            left_w: inner_w,
            table_h,
            row_skip: skip,
            detail: Rect {
                x: 0,
                y: table_h,
                width: inner_w,
                height: inner_h.saturating_sub(table_h),
            },
        }
    }

    /// The inner size this block gets when drawn inline at `width` (its own height).
    fn inline_geometry(&self, width: u16) -> Geometry {
        let h = self.height(width);
        self.geometry(width.saturating_sub(2), h.saturating_sub(2))
    }

    fn detail_height(&self, width: usize) -> usize {
        let theme = Theme::new(ThemeName::Mono, false);
        self.detail_lines(&theme, width).len().max(7)
    }
}

impl BlockWidget for PredictWidget {
    fn title(&self) -> String {
        let name = match self.kind {
            FixtureKind::GetTicket => "get_ticket",
            FixtureKind::Validator => "validator",
        };
        if self.review {
            format!("Predict: {name} (review)")
        } else {
            format!("Predict: {name}")
        }
    }

    fn height(&self, width: u16) -> u16 {
        let inner = width.saturating_sub(2);
        let rows = self.visible().len().max(1);
        let h = if inner >= WIDE {
            (1 + rows).max(self.detail_height((inner / 2) as usize))
        } else {
            1 + rows.min(MAX_TABLE_ROWS) + self.detail_height(inner as usize)
        };
        (h + 2).min(u16::MAX as usize) as u16
    }

    fn render(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx) {
        let theme = ctx.theme;
        let status = self.status(theme, area.width, ctx.active);
        let inner = frame(area, buf, ctx, &self.title(), &status);
        if inner.is_empty() {
            return;
        }
        self.drawn.set((inner.width, inner.height));
        let show_cursor = ctx.focused || ctx.active;
        let g = self.geometry(inner.width, inner.height);
        let at = |r: Rect| {
            Rect {
                x: inner.x + r.x,
                y: inner.y + r.y,
                ..r
            }
            .intersection(inner)
        };
        let detail_a = at(g.detail);
        let detail = self.detail_lines(theme, detail_a.width as usize);
        if g.wide {
            let left = Rect {
                width: g.left_w,
                ..inner
            };
            let table = self.table_lines(theme, left.width as usize, show_cursor);
            common::draw_lines(left, buf, &table, g.row_skip);
            common::draw_lines(detail_a, buf, &detail, 0);
            return;
        }
        let table = self.table_lines(theme, inner.width as usize, show_cursor);
        let ta = Rect {
            height: g.table_h.min(inner.height),
            ..inner
        };
        // Header stays; rows scroll around the cursor.
        if !ta.is_empty() {
            common::draw_lines(ta, buf, &table[..1], 0);
            let rows_area = Rect {
                y: ta.y + 1,
                height: ta.height.saturating_sub(1),
                ..ta
            };
            common::draw_lines(rows_area, buf, &table[1..], g.row_skip);
        }
        common::draw_lines(detail_a, buf, &detail, 0);
    }

    fn handle_key(&mut self, key: KeyEvent, active: bool) -> BlockOutcome {
        if !active {
            return BlockOutcome::Ignored;
        }
        let had_note = self.note.take().is_some();
        if plain(&key, KeyCode::Esc) {
            return BlockOutcome::Release;
        }
        let n = self.visible().len();
        if is_up(&key) {
            self.cursor = self.cursor.saturating_sub(1);
            return BlockOutcome::Consumed;
        }
        if is_down(&key) {
            if self.cursor + 1 < n {
                self.cursor += 1;
            }
            return BlockOutcome::Consumed;
        }
        if plain(&key, KeyCode::Home) {
            self.cursor = 0;
            return BlockOutcome::Consumed;
        }
        if plain(&key, KeyCode::End) {
            self.cursor = n.saturating_sub(1);
            return BlockOutcome::Consumed;
        }
        if is_char(&key, 'r') {
            if self.review {
                self.leave_review();
            } else if self.queue.is_empty() {
                self.note = Some("The review queue is empty: rows you miss land there.".to_owned());
                return BlockOutcome::Consumed;
            } else {
                self.enter_review();
            }
            return BlockOutcome::Changed;
        }
        if is_char(&key, 'a') {
            let locked: Vec<usize> = self
                .visible()
                .into_iter()
                .filter(|&i| self.rows[i].locked && !self.rows[i].revealed)
                .collect();
            if locked.is_empty() {
                self.note = Some(
                    "No locked rows to reveal: lock a prediction with Enter first.".to_owned(),
                );
                return BlockOutcome::Consumed;
            }
            for i in locked {
                self.reveal(i);
            }
            return BlockOutcome::Changed;
        }
        let Some(i) = self.current() else {
            return if had_note {
                BlockOutcome::Consumed
            } else {
                BlockOutcome::Ignored
            };
        };
        let opts = self.rows[i].options().len();
        let row = &mut self.rows[i];
        if let Some(d) = common::digit(&key) {
            if row.locked || d >= opts {
                return BlockOutcome::Consumed;
            }
            row.pick = Some(d);
            return BlockOutcome::Changed;
        }
        if is_left(&key) || is_right(&key) {
            if row.locked {
                return BlockOutcome::Consumed;
            }
            let next = match (row.pick, is_right(&key)) {
                (None, true) => 0,
                (None, false) => opts - 1,
                (Some(p), true) => (p + 1) % opts,
                (Some(p), false) => (p + opts - 1) % opts,
            };
            row.pick = Some(next);
            return BlockOutcome::Changed;
        }
        if is_char(&key, 'u') {
            if row.locked && !row.revealed {
                row.locked = false;
                return BlockOutcome::Changed;
            }
            return BlockOutcome::Consumed;
        }
        if plain(&key, KeyCode::Enter) || is_char(&key, ' ') {
            if row.revealed {
                return BlockOutcome::Consumed;
            }
            if row.pick.is_none() {
                self.note = Some(format!(
                    "Pick an outcome first: 1-{} or left/right.",
                    self.rows[i].options().len()
                ));
                return BlockOutcome::Consumed;
            }
            if !row.locked {
                row.locked = true;
                return BlockOutcome::Changed;
            }
            self.reveal(i);
            return BlockOutcome::Changed;
        }
        BlockOutcome::Ignored
    }

    fn key_hints(&self, active: bool) -> Vec<KeyHint> {
        if !active {
            return vec![KeyHint::new("Enter", "predict the table")];
        }
        let mut v = vec![
            KeyHint::new("Up/Down", "row"),
            KeyHint::new(
                if self
                    .current()
                    .is_some_and(|i| self.rows[i].options().len() == 6)
                {
                    "1-6/Left/Right"
                } else {
                    "1-5/Left/Right"
                },
                "pick",
            ),
            KeyHint::new("Enter", "lock, then reveal"),
            KeyHint::new("u", "unlock"),
            KeyHint::new("a", "reveal locked"),
        ];
        if self.review {
            v.push(KeyHint::new("r", "leave review"));
        } else if !self.queue.is_empty() {
            v.push(KeyHint::new("r", "review missed"));
        }
        v.push(KeyHint::new("Esc", "back to page"));
        v
    }

    fn save(&self) -> Value {
        let mut rows = serde_json::Map::new();
        for r in &self.rows {
            rows.insert(
                r.id.clone(),
                json!({
                    "pick": r.pick_word(),
                    "locked": r.locked,
                    "revealed": r.revealed,
                    "first": r.first.as_ref().map(|f| json!({"pick": f.0, "right": f.1})),
                }),
            );
        }
        json!({ "rows": rows, "queue": self.queue, "review": self.review })
    }

    fn restore(&mut self, state: &Value) {
        let Some(rows) = state.get("rows").and_then(Value::as_object) else {
            return;
        };
        for i in 0..self.rows.len() {
            let Some(s) = rows.get(&self.rows[i].id) else {
                continue;
            };
            let opts = self.rows[i].options();
            let pick = s
                .get("pick")
                .and_then(Value::as_str)
                .and_then(|w| opts.iter().position(|o| *o == w));
            let row = &mut self.rows[i];
            row.pick = pick;
            row.locked = pick.is_some() && s.get("locked").and_then(Value::as_bool) == Some(true);
            row.revealed = row.locked && s.get("revealed").and_then(Value::as_bool) == Some(true);
            row.first = s.get("first").and_then(|f| {
                Some((
                    f.get("pick")?.as_str()?.to_owned(),
                    f.get("right")?.as_bool()?,
                ))
            });
            if row.revealed {
                // Recompute from the real code: the saved file only keeps the learner's part.
                let actual = self.compute_actual(i);
                self.rows[i].actual = Some(actual);
            }
        }
        let ids: Vec<String> = self.rows.iter().map(|r| r.id.clone()).collect();
        self.queue = state
            .get("queue")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .filter(|id| ids.iter().any(|x| x == id))
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        self.review =
            state.get("review").and_then(Value::as_bool) == Some(true) && !self.queue.is_empty();
        self.cursor = 0;
    }

    fn is_done(&self) -> bool {
        self.rows.iter().all(|r| r.first.is_some())
    }

    fn focus_line(&self, width: u16) -> Option<u16> {
        let g = self.inline_geometry(width);
        let theme = Theme::new(ThemeName::Mono, false);
        let revealed = self.current().is_some_and(|i| self.rows[i].revealed);
        if revealed {
            // The end of the reveal (the row's reason) is what the learner reads next.
            let n = self.detail_lines(&theme, g.detail.width as usize).len() as u16;
            return Some(
                1 + g.detail.y + n.saturating_sub(1).min(g.detail.height.saturating_sub(1)),
            );
        }
        let line = if g.wide {
            (self.cursor + 1).saturating_sub(g.row_skip)
        } else {
            1 + self.cursor.saturating_sub(g.row_skip)
        };
        Some(1 + line as u16)
    }

    fn handle_click(&mut self, row: u16, col: u16) -> BlockOutcome {
        let (w, h) = self.drawn.get();
        if w == 0 || row == 0 || col == 0 {
            return BlockOutcome::Ignored;
        }
        let (y, x) = (row - 1, col - 1);
        let g = self.geometry(w, h);
        let n = self.visible().len();
        // A table row selects that row.
        let in_table = if g.wide { x < g.left_w } else { y < g.table_h };
        if in_table {
            let idx = if g.wide {
                (y as usize + g.row_skip).checked_sub(1)
            } else {
                (y as usize).checked_sub(1).map(|r| r + g.row_skip)
            };
            return match idx {
                Some(i) if i < n => {
                    self.note = None;
                    self.cursor = i;
                    BlockOutcome::Consumed
                }
                _ => BlockOutcome::Ignored,
            };
        }
        // An outcome in the menu picks it (as its number key would).
        let d = g.detail;
        if x < d.x || y < d.y {
            return BlockOutcome::Ignored;
        }
        let theme = Theme::new(ThemeName::Mono, false);
        let (_, hits) = self.detail_with_menu(&theme, d.width as usize);
        let (ly, lx) = ((y - d.y) as usize, (x - d.x) as usize);
        let Some(&(_, _, _, opt)) = hits
            .iter()
            .find(|(l, x0, x1, _)| *l == ly && lx >= *x0 && lx < *x1)
        else {
            return BlockOutcome::Ignored;
        };
        let Some(i) = self.current() else {
            return BlockOutcome::Ignored;
        };
        if self.rows[i].locked {
            return BlockOutcome::Consumed;
        }
        self.note = None;
        self.rows[i].pick = Some(opt);
        BlockOutcome::Changed
    }
}
