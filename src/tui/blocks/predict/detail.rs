//! The detail pane for the row under the cursor: what the row asks, the outcome menu, and
//! after the reveal what the real code said and why.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::sanitize::clean;
use crate::tui::blocks::common::{self, verdict_lines, wrap_prefixed};
use crate::tui::theme::{Theme, ThemeName};

use super::PredictWidget;
use super::cells::for_theme;
use super::rows::{PromptField, Row};

/// A block's inner width and height as last drawn, and whether in ASCII.
pub(super) type DrawnAt = (u16, u16, bool);

/// What `v` can show whole: a long named schema, a long JSON value, or both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct LongFields {
    pub(super) schema: bool,
    pub(super) json: bool,
}

impl LongFields {
    pub(super) fn any(self) -> bool {
        self.schema || self.json
    }
}

/// One outcome in the menu: (detail line, first column, end column, option index).
pub(super) type MenuHit = (usize, usize, usize, usize);

/// Width of the labels on the left of the pane ("schema", "predict", "why").
const LABEL_W: usize = 9;

/// A named schema longer than this many lines shows as its name (`v` shows it whole), so
/// the row's arguments and choices stay on screen with it.
const SHORT_SCHEMA: usize = 3;

/// A JSON value (a row's arguments, what the code returned) longer than this many lines
/// shows its first lines and how long it is (`v` shows it whole), so the outcome menu
/// under it stays on screen.
const SHORT_JSON: usize = 6;

/// Which keys reach the block: only the page's (another block or the page has focus), the
/// few a focused block takes (`v`; Enter enters it), or all of them once it is entered.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reach {
    Page,
    Focused,
    Entered,
}

/// Lines of the pane at one width, with the theme they are drawn in.
struct Pane<'a> {
    theme: &'a Theme,
    width: usize,
    /// Named schemas and JSON values are shown whole, however long.
    long_whole: bool,
    /// Which keys reach the block (`v` works from focused on; picks once entered).
    reach: Reach,
    /// Shown to a room (presenter mode): no outcome is asked for.
    demo: bool,
    out: Vec<Line<'static>>,
}

impl Pane<'_> {
    fn label(&self, name: &str) -> Vec<Span<'static>> {
        vec![Span::styled(format!("{name:<LABEL_W$}"), self.theme.dim)]
    }

    /// A labelled value wrapped and coloured as JSON: whole when it is short or asked
    /// for, else its first lines and how many there are.
    fn json(&mut self, name: &str, text: &str) {
        let mut lines = json_lines(self.theme, name, text, self.width);
        if self.long_whole || lines.len() <= SHORT_JSON {
            self.out.extend(lines);
            return;
        }
        let n = lines.len();
        lines.truncate(SHORT_JSON - 1);
        self.out.extend(lines);
        let more = format!(
            "{} {n} lines in all ({})",
            self.theme.sym.ellipsis,
            self.how_whole()
        );
        let indent = vec![Span::raw(" ".repeat(LABEL_W))];
        let more = wrap_prefixed(indent, &more, self.width, self.theme.dim);
        self.out.extend(more);
    }

    /// How to show a folded value whole: `v` reaches a block with focus only; the way
    /// there is `Tab`, the page's key.
    fn how_whole(&self) -> &'static str {
        if self.reach != Reach::Page {
            "v shows it whole"
        } else {
            "Tab, then v"
        }
    }

    /// A labelled line of plain words.
    fn text(&mut self, name: &str, text: &str) {
        let text = &for_theme(text, self.theme.ascii);
        let label = self.label(name);
        let lines = wrap_prefixed(label, text, self.width, self.theme.base);
        self.out.extend(lines);
    }

    /// A named schema: whole when it is short or asked for, else its name and how long
    /// it is.
    fn schema(&mut self, name: &str, text: &str) {
        let label = self.label("schema");
        let lines = schema_lines(self.theme, name, text, self.width);
        if self.long_whole || lines.len() <= SHORT_SCHEMA {
            self.out.extend(lines);
            return;
        }
        let short = format!("{name} ({} lines: {})", lines.len(), self.how_whole());
        let short = for_theme(&short, self.theme.ascii);
        let lines = wrap_prefixed(label, &short, self.width, self.theme.base);
        self.out.extend(lines);
    }

    /// The outcome menu, wrapping under its label; returns where each outcome sits.
    fn menu(&mut self, row: &Row) -> Vec<MenuHit> {
        let theme = self.theme;
        let mut hits = Vec::new();
        let mut menu = self.label(if row.locked { "locked" } else { "predict" });
        let mut menu_w = LABEL_W;
        for (n, word) in row.options().iter().enumerate() {
            let on = row.pick == Some(n);
            let radio = if on {
                theme.sym.radio_on
            } else {
                theme.sym.radio_off
            };
            let item = format!("{radio} {} {word}  ", n + 1);
            let iw = crate::text::width(&item);
            if menu_w + iw > self.width && menu_w > LABEL_W {
                self.out.push(Line::from(std::mem::take(&mut menu)));
                menu.push(Span::raw(" ".repeat(LABEL_W)));
                menu_w = LABEL_W;
            }
            let st = if on { theme.selected } else { theme.base };
            menu.push(Span::styled(item, st));
            hits.push((self.out.len(), menu_w, menu_w + iw, n));
            menu_w += iw;
        }
        self.out.push(Line::from(menu));
        hits
    }
}

/// A JSON value's whole lines, under its label, at `width`.
fn json_lines(theme: &Theme, name: &str, text: &str, width: usize) -> Vec<Line<'static>> {
    let text = for_theme(text, theme.ascii);
    let label = vec![Span::styled(format!("{name:<LABEL_W$}"), theme.dim)];
    common::wrap_json(label, &text, width, theme)
}

/// A named schema's whole lines, under its label, at `width`.
fn schema_lines(theme: &Theme, name: &str, text: &str, width: usize) -> Vec<Line<'static>> {
    json_lines(theme, "schema", &format!("{name}: {text}"), width)
}

impl PredictWidget {
    /// Which of a named schema and a JSON value does some row have too long to show
    /// whole in the detail pane as last drawn (so `v` has something to show)?
    pub(super) fn long_fields(&self) -> LongFields {
        let (w, h) = self.drawn.get();
        let at = (w, h, self.drawn_ascii.get());
        if let Some((seen, long)) = self.long.get()
            && seen == at
        {
            return long;
        }
        let long = self.lay_out_long_fields(at);
        self.long.set(Some((at, long)));
        long
    }

    /// [`PredictWidget::long_fields`] worked out: every row's named schema and JSON value
    /// laid out at the detail pane's width for a block drawn at `(w, h, ascii)`.
    fn lay_out_long_fields(&self, (w, h, ascii): DrawnAt) -> LongFields {
        let width = usize::from(self.geometry(w, h).detail.width).max(8);
        let theme = Theme::new(ThemeName::Mono, ascii);
        let mut long = LongFields::default();
        for f in self.rows.iter().flat_map(|r| r.case.prompt()) {
            match f {
                PromptField::Schema(name, text) => {
                    long.schema |= schema_lines(&theme, &name, &text, width).len() > SHORT_SCHEMA;
                }
                PromptField::Json(name, text) => {
                    long.json |= json_lines(&theme, name, &text, width).len() > SHORT_JSON;
                }
                PromptField::Text(..) => {}
            }
        }
        long
    }

    /// The detail lines at `width`; `reach`: which keys reach the block; `demo`: shown to a
    /// room. Laying out asks for the focused lines out of presenter mode, the longest ones.
    pub(super) fn detail_lines(
        &self,
        theme: &Theme,
        width: usize,
        (reach, demo): (Reach, bool),
    ) -> Vec<Line<'static>> {
        self.detail_with_menu(theme, width, (reach, demo)).0
    }

    /// The detail lines and where each outcome sits in the menu, for mouse clicks.
    pub(super) fn detail_with_menu(
        &self,
        theme: &Theme,
        width: usize,
        (reach, demo): (Reach, bool),
    ) -> (Vec<Line<'static>>, Vec<MenuHit>) {
        let mut pane = Pane {
            theme,
            width: width.max(8),
            long_whole: self.long_whole,
            reach,
            demo,
            out: Vec::new(),
        };
        let Some(i) = self.current() else {
            return (pane.out, Vec::new());
        };
        let row = &self.rows[i];
        // Before the reveal only what never hints at the verdict (not a fixture id).
        let about = if row.revealed {
            Some(row.case.heading())
        } else {
            row.case.topic()
        };
        let title = match about {
            Some(about) => format!("Row {}: {about}", i + 1),
            None => format!("Row {}", i + 1),
        };
        let title = for_theme(&title, theme.ascii);
        pane.out
            .extend(wrap_prefixed(Vec::new(), &title, pane.width, theme.heading));
        for field in row.case.prompt() {
            match field {
                PromptField::Json(name, text) => pane.json(name, &text),
                PromptField::Text(name, text) => pane.text(name, &text),
                PromptField::Schema(name, text) => pane.schema(&name, &text),
            }
        }
        // Presenter mode, or a row shown without a prediction, has no choice to offer.
        let shown_only = demo || (row.revealed && row.pick.is_none());
        let hits = if shown_only {
            Vec::new()
        } else {
            pane.menu(row)
        };
        if row.revealed && row.actual.is_some() {
            self.reveal_lines(&mut pane, row);
            if let Some(next) = self.review_next_step() {
                pane.out
                    .extend(wrap_prefixed(Vec::new(), &next, pane.width, theme.dim));
            }
        } else {
            let hint = if pane.demo {
                "Not shown yet: Space shows the next row's real verdict.".to_owned()
            } else {
                self.hint(row, pane.reach)
            };
            pane.out
                .extend(wrap_prefixed(Vec::new(), &hint, pane.width, theme.dim));
        }
        (pane.out, hits)
    }

    /// Right or missed, what the real code returned, a fixture disagreement, the reason.
    fn reveal_lines(&self, pane: &mut Pane, row: &Row) {
        let Some(a) = &row.actual else {
            return;
        };
        let theme = pane.theme;
        match row.pick_word() {
            Some(word) => {
                let right = word == a.outcome;
                // A row about the store after an edit has no envelope word to quote.
                let said = if a.extra.is_some() {
                    format!("you said {word}; the real run: {}", a.outcome)
                } else {
                    format!("you said {word}; {} {}", self.fixture.who, a.outcome)
                };
                let verdict = if right { "Right" } else { "Missed" };
                pane.out
                    .extend(verdict_lines(theme, right, verdict, &said, pane.width));
            }
            // Shown without a prediction (presenter mode): only what the code returned.
            None => pane.text("shown", &format!("{} {}", self.fixture.who, a.outcome)),
        }
        match &a.shown {
            Value::String(words) => pane.text(self.fixture.shown, words),
            shown => pane.json(self.fixture.shown, &common::json_compact(shown)),
        }
        if let Some(x) = &a.extra {
            pane.text("store", x);
        }
        if !a.agrees {
            let bug = format!(
                "Bug: the real code disagrees with this row's expected {}",
                a.expected
            );
            let mark = vec![Span::styled(format!("{} ", theme.sym.bad), theme.warn)];
            pane.out
                .extend(wrap_prefixed(mark, &bug, pane.width, theme.warn));
        }
        pane.text("why", &clean(row.case.facts().reason, false));
    }

    /// In review, under a row answered again: how to go on, or that the review is done.
    fn review_next_step(&self) -> Option<String> {
        if !self.review {
            return None;
        }
        if self.next_in_review().is_some() {
            return Some("Enter: the next missed row.".to_owned());
        }
        Some(if self.queue.is_empty() {
            "Review done: every missed row is now right (r: back to the table).".to_owned()
        } else {
            let n = self.queue.len();
            let rows = if n == 1 { "row" } else { "rows" };
            format!(
                "Review done, {n} {rows} still missed (r: back to the table, r again asks them)."
            )
        })
    }

    /// What to do next on an unrevealed row (or the note a key left). The keys that pick,
    /// lock and reveal reach the block once it is entered: before that the hint says how
    /// to get there (Tab to the table, Enter to enter it).
    fn hint(&self, row: &Row, reach: Reach) -> String {
        if let Some(n) = &self.note {
            return n.clone();
        }
        let n = row.options().len();
        match (reach, row.pick, row.locked) {
            (Reach::Entered, None, _) => format!("Pick an outcome: 1-{n} or left/right."),
            (Reach::Entered, Some(_), false) => "Enter locks your prediction.".to_owned(),
            (Reach::Entered, Some(_), true) => {
                "Locked. Enter reveals what the real code does (u unlocks).".to_owned()
            }
            (Reach::Focused, None, _) => {
                format!("Enter, then pick an outcome: 1-{n} or left/right.")
            }
            (Reach::Focused, Some(_), false) => {
                "Enter, then Enter again locks your prediction.".to_owned()
            }
            (Reach::Focused, Some(_), true) => {
                "Locked. Enter, then Enter again reveals what the real code does.".to_owned()
            }
            (Reach::Page, None, _) => "Tab, then Enter to pick an outcome.".to_owned(),
            (Reach::Page, Some(_), false) => "Tab, then Enter to lock your prediction.".to_owned(),
            (Reach::Page, Some(_), true) => {
                "Locked. Tab, then Enter to reveal what the real code does.".to_owned()
            }
        }
    }

    pub(super) fn detail_height(&self, width: usize) -> usize {
        let theme = Theme::new(ThemeName::Mono, false);
        self.detail_lines(&theme, width, (Reach::Focused, false))
            .len()
            .max(7)
    }
}
