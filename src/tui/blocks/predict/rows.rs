//! The one interface every kind of predict row implements, the per-kind table facts, and
//! the learner's state on a row (pick, lock, reveal, first answer).

use serde_json::{Value, json};

use crate::tui::blocks::common;

/// Which fixture a table predicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixtureKind {
    GetTicket,
    Validator,
    /// Recorded results paired with their calls (`fixtures/wire_cases.json`).
    Wire,
    /// A declaration's own trap rows (generated from its schema).
    Traps,
}

/// What a fixture kind shows once for the whole table (one constant per kind).
pub(super) struct Fixture {
    pub kind: FixtureKind,
    /// The fixture's name, as in `fixture=` and the block title.
    pub name: &'static str,
    /// Headers of the two columns that say what a row is about.
    pub headers: [&'static str; 2],
    /// Widths of the second column, of "You" and of "Real".
    pub widths: [usize; 3],
    /// Narrow tables shrink the second column to a fifth of the width.
    pub shrink_context: bool,
    /// Who answers on reveal ("the real validator said").
    pub who: &'static str,
    /// The label of what the real code returned ("envelope", "verdict").
    pub shown: &'static str,
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

impl Actual {
    /// The real code could not run the row at all (a bad schema, a broken fixture).
    pub(super) fn broken(error: String, expected: &Value) -> Actual {
        Actual {
            outcome: "broken row".to_owned(),
            agrees: false,
            shown: json!({ "row_error": error }),
            expected: common::json_compact(expected),
            extra: None,
        }
    }
}

/// One labelled line of what a row asks about, shown above the outcome menu.
pub(super) enum PromptField {
    /// JSON-ish text, wrapped and coloured as JSON.
    Json(&'static str, String),
    /// Plain words.
    Text(&'static str, String),
    /// A named schema: its name, and its whole text (as JSON), shown whole when short
    /// or when asked for.
    Schema(String, String),
}

/// The fields every fixture row has, whatever its kind.
pub(super) struct RowFacts<'a> {
    pub id: &'a str,
    /// The tag lessons select rows by.
    pub group: &'a str,
    /// One line, in the course's words, shown on reveal (not yet cleaned).
    pub reason: &'a str,
}

impl<'a> RowFacts<'a> {
    pub(super) fn new(id: &'a str, group: &'a str, reason: &'a str) -> RowFacts<'a> {
        RowFacts { id, group, reason }
    }
}

/// Everything that differs between row kinds, defined once per kind.
pub(super) trait PredictRow {
    fn facts(&self) -> RowFacts<'_>;
    /// The outcomes the learner may pick from, in menu order. Rows of one kind offer the
    /// same menu, unless the row asks a narrower question (which failure is named first,
    /// whether the store changed), whose menu never depends on the answer.
    fn choices(&self) -> Vec<String>;
    /// The two table cells that say what the row is about (already cleaned).
    fn cells(&self) -> [String; 2];
    /// What the row is about, after "Row N: " in the detail pane before the reveal, in
    /// words that never hint at the verdict (a fixture row's id often names it); `None`
    /// when the prompt says it all (already cleaned).
    fn topic(&self) -> Option<String>;
    /// The label after "Row N: " once the row is revealed: what finds it in its fixture
    /// (already cleaned).
    fn heading(&self) -> String;
    /// The lines that pose the question, in order.
    fn prompt(&self) -> Vec<PromptField>;
    /// Run the real code on the row.
    fn run(&self) -> Actual;
}

/// A row of the table: its case and what the learner did with it.
pub(super) struct Row {
    pub case: Box<dyn PredictRow>,
    /// The menu, asked once from the case.
    options: Vec<String>,
    /// The two table cells, asked once from the case.
    cells: [String; 2],
    /// Index into `choices()`.
    pub pick: Option<usize>,
    pub locked: bool,
    pub revealed: bool,
    /// The first revealed prediction (its word) and whether it was right: the score.
    pub first: Option<(String, bool)>,
    pub actual: Option<Actual>,
}

impl Row {
    pub(super) fn new(case: Box<dyn PredictRow>) -> Row {
        Row {
            options: case.choices(),
            cells: case.cells(),
            case,
            pick: None,
            locked: false,
            revealed: false,
            first: None,
            actual: None,
        }
    }

    pub(super) fn id(&self) -> &str {
        self.case.facts().id
    }

    pub(super) fn options(&self) -> &[String] {
        &self.options
    }

    /// What the row is about, and its context (the table's first two cells).
    pub(super) fn cells(&self) -> &[String; 2] {
        &self.cells
    }

    pub(super) fn pick_word(&self) -> Option<&str> {
        self.pick
            .and_then(|i| self.options.get(i))
            .map(String::as_str)
    }

    /// The menu index of an outcome word, if this row offers it.
    pub(super) fn option_index(&self, word: &str) -> Option<usize> {
        self.options.iter().position(|o| o == word)
    }

    /// The revealed result matches the current pick.
    pub(super) fn is_right(&self) -> bool {
        self.actual
            .as_ref()
            .is_some_and(|a| self.pick_word() == Some(a.outcome.as_str()))
    }

    /// Forget the current attempt (the first answer, the score, stays).
    pub(super) fn reset_current(&mut self) {
        self.pick = None;
        self.locked = false;
        self.revealed = false;
    }
}
