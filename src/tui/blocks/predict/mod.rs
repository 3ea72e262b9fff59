//! `predict fixture=get_ticket|validator|wire [group=NAME] [rows=ID,ID,...]`: a fixture
//! table the learner predicts row by row. Pick an outcome (number keys or left/right), lock
//! it with Enter, reveal with Enter again: the reveal runs the REAL executor, validator or
//! wire pairing rules on the row (the fixture's `expected` is only used to flag a
//! disagreement, never as the actual). Missed rows go into a review queue (`r`) to replay.
//!
//! Each row kind (`exec_row`, `validator_row`, `wire_row`) implements one interface
//! (`rows`); the widget itself only knows rows through it.

mod cells;
mod detail;
mod exec_row;
mod keys;
mod rows;
mod score;
mod table;
mod trap_row;
mod validator_row;
mod wire_row;

use std::collections::BTreeMap;
use std::sync::Arc;

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use serde_json::{Value, json};

use crate::content::lessons::Block;
use crate::executor::Record;
use crate::executor::cases::{self as exec_cases, ExecCase};
use crate::tui::blocks::common::frame;
use crate::tui::blocks::playground::validator_run;
use crate::tui::blocks::{BlockEnv, BlockOutcome, BlockWidget, KeyHint, RenderCtx};
use crate::validate::cases::{self as val_cases, NamedSchema, ValidatorCase};

use detail::Reach;
use exec_row::ExecRow;
pub use rows::{Actual, FixtureKind};
use rows::{Fixture, PredictRow, Row};
pub use trap_row::{LET_THROUGH, REJECTED, trap_id};
use validator_row::ValidatorRow;
use wire_row::WireRow;

pub struct PredictWidget {
    /// Inner size of the last draw, to map mouse clicks.
    drawn: std::cell::Cell<(u16, u16)>,
    /// Was it last drawn in ASCII (where escapes make a schema longer)?
    drawn_ascii: std::cell::Cell<bool>,
    /// What `v` can show whole, for the size and look it was worked out at (the rows'
    /// prompts never change, and the key bar asks on every draw).
    long: std::cell::Cell<Option<(detail::DrawnAt, detail::LongFields)>>,
    /// Shown to a room (presenter mode: nothing predicted, rows only shown).
    room: bool,
    fixture: &'static Fixture,
    rows: Vec<Row>,
    /// What the table's columns need, measured once.
    measure: table::Measure,
    /// Index into `visible()`.
    cursor: usize,
    review: bool,
    /// Ids of rows missed, in the order they were missed.
    queue: Vec<String>,
    /// The rows the review under way asks again: the queue as it was when it began. A row
    /// answered right leaves the queue, not this, so its verdict stays in view.
    pass: Vec<String>,
    /// A one-line note after a key that could not act (e.g. Enter with no pick).
    note: Option<String>,
    /// Long named schemas and JSON values are shown whole in the detail (`v`), not folded.
    long_whole: bool,
    /// Presenter mode: each row a step showed, in order, with the row the cursor was on
    /// before it (so a step is taken back exactly).
    steps: Vec<(usize, usize)>,
}

/// Which rows of a fixture a block asks for (`group=`, `rows=`).
struct Selection<'a> {
    fixture: &'a str,
    group: Option<&'a str>,
    ids: Option<Vec<String>>,
}

impl Selection<'_> {
    /// The chosen rows: those named by `rows=` in that order (each in `group=` if given),
    /// else every row of the group, else every row.
    fn choose<R: PredictRow + Clone + 'static>(
        &self,
        all: Vec<R>,
    ) -> Result<Vec<Box<dyn PredictRow>>, String> {
        let (fixture, group) = (self.fixture, self.group);
        let mut chosen: Vec<Box<dyn PredictRow>> = Vec::new();
        match &self.ids {
            Some(ids) => {
                let by_id: BTreeMap<&str, &R> = all.iter().map(|r| (r.facts().id, r)).collect();
                for id in ids {
                    let r = by_id.get(id.as_str()).ok_or_else(|| {
                        format!(
                            "predict: no {fixture} row with id {q_id}",
                            q_id = crate::sanitize::quote(id)
                        )
                    })?;
                    if group.is_some_and(|g| g != r.facts().group) {
                        return Err(format!(
                            "predict: row {id:?} is not in group {:?}",
                            group.unwrap_or_default()
                        ));
                    }
                    chosen.push(Box::new((*r).clone()));
                }
            }
            None => {
                for r in all {
                    if group.is_none_or(|want| want == r.facts().group) {
                        chosen.push(Box::new(r));
                    }
                }
            }
        }
        if chosen.is_empty() {
            return Err(match group {
                Some(g) => format!(
                    "predict: no {fixture} rows in group {q_g}",
                    q_g = crate::sanitize::quote(g)
                ),
                None => format!("predict: the {fixture} fixture has no rows"),
            });
        }
        Ok(chosen)
    }
}

impl PredictWidget {
    pub fn from_block(block: &Block, env: &BlockEnv) -> Result<PredictWidget, String> {
        let fixture = block
            .option("fixture")
            .ok_or("predict needs fixture=get_ticket, fixture=validator or fixture=wire")?;
        let selection = Selection {
            fixture,
            group: block.option("group"),
            ids: block.option("rows").map(|r| {
                r.split(',')
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect()
            }),
        };
        let content = &env.content;
        let (kind, rows) = match fixture {
            "get_ticket" => {
                let cases = exec_cases::get_ticket_cases(content).map_err(|e| e.to_string())?;
                let all: Vec<ExecRow> = cases
                    .into_iter()
                    .map(|c| ExecRow::new(c, env.records.clone()))
                    .collect();
                (&exec_row::FIXTURE, selection.choose(all)?)
            }
            "validator" => {
                let cases = val_cases::validator_cases(content).map_err(|e| e.to_string())?;
                let named = Arc::new(validator_run::load_named_schemas(content)?);
                let all: Vec<ValidatorRow> = cases
                    .into_iter()
                    .map(|c| ValidatorRow::new(c, named.clone()))
                    .collect();
                (&validator_row::FIXTURE, selection.choose(all)?)
            }
            "wire" => {
                let cases =
                    crate::course::lab::wire::wire_cases(content).map_err(|e| e.to_string())?;
                let all: Vec<WireRow> = cases.into_iter().map(WireRow::new).collect();
                (&wire_row::FIXTURE, selection.choose(all)?)
            }
            other => {
                return Err(format!(
                    "predict: unknown fixture {q_other} (get_ticket, validator or wire)",
                    q_other = crate::sanitize::quote(other)
                ));
            }
        };
        Ok(PredictWidget::new(kind, rows))
    }

    fn new(fixture: &'static Fixture, rows: Vec<Box<dyn PredictRow>>) -> PredictWidget {
        let rows: Vec<Row> = rows.into_iter().map(Row::new).collect();
        PredictWidget {
            drawn: std::cell::Cell::new((0, 0)),
            drawn_ascii: std::cell::Cell::new(false),
            long: std::cell::Cell::new(None),
            room: false,
            fixture,
            measure: table::Measure::new(&rows),
            rows,
            cursor: 0,
            review: false,
            pass: Vec::new(),
            queue: Vec::new(),
            note: None,
            long_whole: false,
            steps: Vec::new(),
        }
    }

    /// Build directly from get_ticket rows (tests, `render`).
    pub fn for_exec_cases(cases: Vec<ExecCase>, records: Arc<Vec<Record>>) -> PredictWidget {
        let rows = cases
            .into_iter()
            .map(|c| Box::new(ExecRow::new(c, records.clone())) as Box<dyn PredictRow>)
            .collect();
        PredictWidget::new(&exec_row::FIXTURE, rows)
    }

    /// Build directly from validator rows and named schemas.
    pub fn for_validator_cases(
        cases: Vec<ValidatorCase>,
        named: Vec<(String, NamedSchema)>,
    ) -> PredictWidget {
        let named = Arc::new(named);
        let rows = cases
            .into_iter()
            .map(|c| Box::new(ValidatorRow::new(c, named.clone())) as Box<dyn PredictRow>)
            .collect();
        PredictWidget::new(&validator_row::FIXTURE, rows)
    }

    /// Build from a declaration's trap report, judged by its validator on reveal.
    pub fn for_traps(
        traps: &[crate::tools::traps::Trap],
        validator: Arc<crate::validate::Validator>,
    ) -> PredictWidget {
        let rows = traps
            .iter()
            .map(|t| Box::new(trap_row::TrapRow::new(t, validator.clone())) as Box<dyn PredictRow>)
            .collect();
        PredictWidget::new(&trap_row::FIXTURE, rows)
    }

    pub fn kind(&self) -> FixtureKind {
        self.fixture.kind
    }

    pub fn row_ids(&self) -> Vec<String> {
        self.rows.iter().map(|r| r.id().to_owned()).collect()
    }

    fn row(&self, id: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.id() == id)
    }

    /// The actual result of a revealed row, by id.
    pub fn actual(&self, id: &str) -> Option<&Actual> {
        self.row(id).and_then(|r| r.actual.as_ref())
    }

    /// The current (possibly tentative) prediction of a row, by id.
    pub fn prediction(&self, id: &str) -> Option<(&str, bool)> {
        self.row(id)
            .and_then(|r| r.pick_word().map(|w| (w, r.locked)))
    }

    /// The id of the row under the cursor.
    pub fn current_id(&self) -> Option<String> {
        self.current().map(|i| self.rows[i].id().to_owned())
    }

    /// Put back one row's saved state; a revealed row is judged again by the real code
    /// (the saved file only keeps the learner's part).
    fn restore_row(row: &mut Row, saved: &Value) {
        row.pick = saved
            .get("pick")
            .and_then(Value::as_str)
            .and_then(|w| row.option_index(w));
        let flag = |name: &str| saved.get(name).and_then(Value::as_bool) == Some(true);
        row.locked = row.pick.is_some() && flag("locked");
        row.revealed = row.locked && flag("revealed");
        // A first answer the menu no longer offers (the row now asks a narrower
        // question) is dropped: the row is asked again.
        row.first = saved
            .get("first")
            .and_then(|f| {
                Some((
                    f.get("pick")?.as_str()?.to_owned(),
                    f.get("right")?.as_bool()?,
                ))
            })
            .filter(|(word, _)| row.option_index(word).is_some());
        if row.revealed {
            row.actual = Some(row.case.run());
        }
    }
}

impl BlockWidget for PredictWidget {
    fn title(&self) -> String {
        let name = self.fixture.name;
        if self.review {
            format!("Predict: {name} (review)")
        } else {
            format!("Predict: {name}")
        }
    }

    fn height(&self, width: u16) -> u16 {
        self.wanted_height(width)
    }

    fn show_to_room(&mut self) {
        self.room = true;
    }

    fn render(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx) {
        let status = self.status(ctx.theme, area.width, ctx.active, ctx.demo);
        let inner = frame(area, buf, ctx, &self.title(), &status);
        if inner.is_empty() {
            return;
        }
        self.drawn.set((inner.width, inner.height));
        self.drawn_ascii.set(ctx.theme.ascii);
        let look = table::Look {
            theme: ctx.theme,
            show_cursor: ctx.focused || ctx.active,
            reach: if ctx.active {
                Reach::Entered
            } else if ctx.focused {
                Reach::Focused
            } else {
                Reach::Page
            },
            demo: ctx.demo,
        };
        self.draw(inner, buf, look);
    }

    fn handle_key(&mut self, key: KeyEvent, active: bool) -> BlockOutcome {
        // `v` works on a focused block too: a presenter shows the schema to the room.
        if let Some(done) = self.whole_key(&key) {
            return done;
        }
        if !active {
            return BlockOutcome::Ignored;
        }
        self.on_key(key)
    }

    fn key_hints(&self, active: bool) -> Vec<KeyHint> {
        self.hints(active)
    }

    fn save(&self) -> Value {
        let mut rows = serde_json::Map::new();
        for r in &self.rows {
            rows.insert(
                r.id().to_owned(),
                json!({
                    "pick": r.pick_word(),
                    "locked": r.locked,
                    "revealed": r.revealed,
                    "first": r.first.as_ref().map(|f| json!({"pick": f.0, "right": f.1})),
                }),
            );
        }
        json!({ "rows": rows, "queue": self.queue, "review": self.review, "cursor": self.cursor })
    }

    fn restore(&mut self, state: &Value) {
        let Some(saved) = state.get("rows").and_then(Value::as_object) else {
            return;
        };
        for row in &mut self.rows {
            if let Some(s) = saved.get(row.id()) {
                PredictWidget::restore_row(row, s);
            }
        }
        self.queue = state
            .get("queue")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .filter(|id| self.row(id).is_some_and(|r| r.first.is_some()))
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        self.review =
            state.get("review").and_then(Value::as_bool) == Some(true) && !self.queue.is_empty();
        self.pass = if self.review {
            self.queue.clone()
        } else {
            Vec::new()
        };
        // Back on the row the learner was on.
        let cursor = state.get("cursor").and_then(Value::as_u64).unwrap_or(0);
        let last = self.visible().len().saturating_sub(1);
        self.cursor = usize::try_from(cursor).unwrap_or(0).min(last);
    }

    fn is_done(&self) -> bool {
        self.rows.iter().all(|r| r.first.is_some())
    }

    fn reset(&mut self) {
        for row in &mut self.rows {
            row.reset_current();
            row.first = None;
            row.actual = None;
        }
        self.queue.clear();
        self.pass.clear();
        self.review = false;
        self.cursor = 0;
        self.note = None;
        self.steps.clear();
    }

    fn height_for(&self, width: u16, available: u16) -> u16 {
        self.grown_height(width, available)
    }

    fn focus_line(&self, width: u16) -> Option<u16> {
        Some(self.focus_row(width))
    }

    fn remaining(&self) -> Vec<String> {
        let left: Vec<usize> = (0..self.rows.len())
            .filter(|i| self.rows[*i].first.is_none())
            .collect();
        if left.is_empty() {
            return Vec::new();
        }
        let word = if left.len() == 1 { "row" } else { "rows" };
        vec![format!(
            "predict {word} {}",
            crate::text::number_ranges(&left)
        )]
    }

    fn present_step(&mut self) -> bool {
        if self.review {
            self.leave_review();
        }
        let Some(i) = self.rows.iter().position(|r| !r.revealed) else {
            return false;
        };
        let actual = self.rows[i].case.run();
        let row = &mut self.rows[i];
        row.pick = None;
        row.locked = true;
        row.revealed = true;
        row.actual = Some(actual);
        self.steps.push((i, self.cursor));
        self.cursor = i;
        true
    }

    /// Hide the row the last step showed and put the cursor back where it was.
    fn present_unstep(&mut self) -> bool {
        let Some((i, cursor)) = self.steps.pop() else {
            return false;
        };
        let row = &mut self.rows[i];
        row.reset_current();
        row.actual = None;
        self.cursor = cursor.min(self.visible().len().saturating_sub(1));
        true
    }

    fn present_progress(&self) -> (usize, usize) {
        let shown = self.rows.iter().filter(|r| r.revealed).count();
        (shown, self.rows.len())
    }

    fn handle_click(&mut self, row: u16, col: u16) -> BlockOutcome {
        self.on_click(row, col)
    }
}
