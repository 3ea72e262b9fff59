//! The two playgrounds: one shell (focus and keys, the rules-and-flips panel, save and
//! restore, clicks) around an engine that owns the inputs, runs the real core and draws
//! its own panes.
//!
//! - [`shell`]: the shell every playground shares;
//! - [`side`]: the column beside a wide playground's inputs, the rules over the rows
//!   that flip;
//! - [`validator`]: `mode=validator`, schema and argument editors;
//! - [`executor`]: `mode=executor`, a tool field, a trusted context and an argument editor.
//!
//! The real code they run is the course's ([`crate::course::lab`]).

pub mod executor;
pub mod shell;
pub mod side;
pub mod validator;

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use serde_json::{Map, Value};

use crate::switches::Switch;
use crate::tui::blocks::KeyHint;
use crate::tui::blocks::editor::Editor;
use crate::tui::blocks::panels::Flip;
use crate::tui::theme::Theme;

pub use crate::course::lab::{ArgsInput, executor_run, validator_run};
pub use executor::ExecutorPlayground;
pub use executor_run::{ExecRun, Stage, context_short, context_words, run_exec, run_exec_case};
pub use shell::{Canvas, Playground, Shell};
pub use validator::ValidatorPlayground;
pub use validator_run::{ValRun, load_named_schemas, run_validator, run_validator_case};

/// A pane of a playground that can hold the keyboard focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    Schema,
    Tool,
    Context,
    Args,
    Rules,
}

/// A check the learner may switch off in a playground: the core's own enum, with the
/// words the switch list shows.
pub trait RuleSwitch:
    Switch + std::fmt::Debug + serde::Serialize + serde::de::DeserializeOwned
{
    fn label(self) -> &'static str;
    /// What the check checks and what gets through without it, a sentence or two.
    fn about(self) -> &'static str;
}

impl RuleSwitch for crate::validate::Rule {
    fn label(self) -> &'static str {
        crate::validate::Rule::label(self)
    }

    fn about(self) -> &'static str {
        use crate::validate::Rule;
        match self {
            Rule::Required => {
                "Every required name is present, at any depth. Off: a call that leaves one \
                 out runs without it."
            }
            Rule::Unknown => {
                "No member the schema does not name. Off: extra members, such as a tenant \
                 the model made up, pass."
            }
            Rule::Types => {
                "Each value has its declared type. Off: \"3\" passes as an int, a string as \
                 a list."
            }
            Rule::BoolGuard => {
                "Inside the type check: true and false never pass as numbers. Off: true \
                 passes as an int, as isinstance(True, int) does in Python."
            }
            Rule::Values => {
                "Bounds, enum, const, pattern, lengths, formats, counts. Off: any value of \
                 the right type passes."
            }
        }
    }
}

impl RuleSwitch for crate::executor::Safeguard {
    fn label(self) -> &'static str {
        crate::executor::Safeguard::label(self)
    }

    fn about(self) -> &'static str {
        use crate::executor::Safeguard;
        match self {
            Safeguard::Allowlist => {
                "Only registered tool names run. Off: the one handler runs for any name, \
                 so delete_ticket returns a ticket."
            }
            Safeguard::ExactShape => {
                "The arguments hold exactly the declared fields. Off: extra fields, such \
                 as tenant, are ignored and only ticket_id is read."
            }
            Safeguard::IdFormat => {
                "ticket_id is a string, TKT- and three ASCII digits. Off: any value is \
                 looked up as it is."
            }
            Safeguard::ReadPermission => {
                "The trusted context must allow reading. Off: anyone may read."
            }
            Safeguard::TenantScoping => {
                "Tickets are looked up by tenant and id. Off: by id alone, so one tenant \
                 reads another's ticket."
            }
            Safeguard::CopyOnReturn => {
                "The caller gets a copy. Off: the result is the stored record itself, so \
                 changing it changes the store."
            }
        }
    }
}

/// What one of the engine's own keys did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyEffect {
    /// An input changed that counts as the learner's own edit (re-run).
    Edited,
    /// A fixture input was chosen (re-run; not an edit).
    Chosen,
}

/// The part of a playground that differs by mode: its inputs, the real code it runs,
/// and its panes.
pub trait Engine {
    type Rule: RuleSwitch;
    /// The block's title.
    const TITLE: &'static str;
    /// The focusable panes in Tab order (the rules panel included).
    const PANELS: &'static [Panel];
    /// The key bar's words for Tab.
    const TAB_HINT: &'static str;

    /// Re-run the real code on the current inputs with `off` switched off.
    fn refresh(&mut self, off: Option<Self::Rule>);
    /// What the rows the switches are tried on are called, in "3 of 12 fixture rows flip".
    const ROWS: &'static str = "fixture rows";
    /// How many fixture rows the rule switches are tried on.
    fn row_count(&self) -> usize;
    /// Fixture row `i` run with every rule on and with `rule` off: `Some(Some(flip))`
    /// when the result changes, `Some(None)` when it does not, `None` when the row is
    /// broken (it is then left out of the count).
    fn compare_row(&self, i: usize, rule: Self::Rule) -> Option<Option<Flip>>;
    /// The editor of `panel`, if that pane is one.
    fn editor_mut(&mut self, panel: Panel) -> Option<&mut Editor>;
    /// The learner changed the text of `panel`'s editor.
    fn typed(&mut self, _panel: Panel) {}
    /// Where the latest JSON error points: the pane, line and column.
    fn error_spot(&self) -> Option<(Panel, usize, usize)>;
    /// The engine's own keys outside the editors (pickers, toggles).
    fn key(&mut self, focus: Panel, key: &KeyEvent) -> Option<KeyEffect>;
    /// Key hints for a focused pane other than the rules.
    fn panel_hints(&self, focus: Panel) -> Vec<KeyHint>;
    /// Key hints that hold whichever pane has the focus.
    fn extra_hints(&self) -> Vec<KeyHint> {
        Vec::new()
    }
    /// The verdict word for the border.
    fn status(&self, theme: &Theme) -> String;
    /// The block's full height (border included) at `width` columns when the page can
    /// give it `available` rows (0: just what it needs).
    fn height(&self, shell: &Shell<Self::Rule>, width: u16, available: u16) -> u16;
    /// Draw the panes into the block's inner area.
    fn render(&self, c: &Canvas<Self::Rule>, inner: Rect, buf: &mut Buffer);
    /// The row (from the block's top) the reader keeps in view.
    fn focus_line(&self, shell: &Shell<Self::Rule>, width: u16) -> u16;
    /// The engine's inputs for the progress file.
    fn save(&self) -> Map<String, Value>;
    /// Take back inputs saved by [`Engine::save`] (unknown names are ignored).
    fn restore(&mut self, state: &Value);
}
