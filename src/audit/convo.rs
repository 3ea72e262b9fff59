//! A conversation as the audit keeps it: its calls (each with its verdict and what came
//! back), its findings and its counts. [`Builder`] takes a record's steps one by one and
//! keeps only what the checks and the report need; the checks that need the whole
//! conversation run once it is finished (`checks.rs`).

use std::collections::VecDeque;
use std::sync::{Arc, LazyLock};

use serde_json::Value;

use crate::validate::json::{self, cut};
use crate::validate::{Args, CheckKind, Json, Validator, ValidatorRules, Violation};

use super::Kind;
use super::Verdict;
use super::declared::{Catalog, Lookup};
use super::fingerprint;
use super::heuristics::{self, ErrorSign};
use super::steps::{ArgsIn, CallStep, Format, ResultStep, Speaker, Step};

/// How long an excerpt of arguments or of a result is, in characters.
pub const EXCERPT_CHARS: usize = 100;

/// Where a conversation starts: its file and line (counting from 1), and the byte that
/// line starts at (to read the conversation again without reading the lines before it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Place {
    pub file: Arc<str>,
    pub line: usize,
    pub byte: u64,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A result as the audit keeps it.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The format's error flag (see `ResultStep::flagged`).
    pub flagged: Option<bool>,
    /// Why it reads as an error, if it does.
    pub error_sign: Option<ErrorSign>,
    /// The phrase that reads like orders, if any.
    pub orders: Option<String>,
    /// The start of the text, raw (cleaned when a finding shows it).
    pub excerpt: String,
    pub bytes: usize,
    pub at_ms: Option<u64>,
    /// The whole text, kept for the replay.
    pub text: Option<String>,
    /// Where it came in the conversation's steps (see `Call::step`).
    pub step: u64,
}

impl Answer {
    /// An error, flagged or not.
    pub fn is_error(&self) -> bool {
        self.flagged == Some(true) || self.error_sign.is_some()
    }

    /// Reads as an error but went back as data: no flag set where the format has one, and no
    /// typed status where it has none.
    pub fn unflagged_error(&self) -> Option<&ErrorSign> {
        let sign = self.error_sign.as_ref()?;
        match self.flagged {
            Some(true) => None,
            Some(false) => Some(sign),
            None => (!sign.typed).then_some(sign),
        }
    }
}

/// A tool call as the audit keeps it.
#[derive(Debug, Clone)]
pub struct Call {
    pub id: Option<String>,
    pub tool: String,
    /// The model turn it was proposed in (from 1).
    pub turn: u32,
    pub verdict: Verdict,
    /// The start of the arguments, raw (cleaned when a finding shows it).
    pub args_excerpt: String,
    pub at_ms: Option<u64>,
    pub result: Option<Answer>,
    /// The tool and the arguments' value (key order aside), hashed: the same call again.
    pub key: u64,
    /// The arguments, kept for the replay (`None` for text that is not JSON).
    pub args: Option<Value>,
    /// The arguments text, kept for the replay when it is not JSON.
    pub args_text: Option<String>,
    /// Where it came in the conversation's steps, counted with the results: a call made
    /// after an earlier call's result came back is the only one that can answer to it.
    pub step: u64,
}

impl Call {
    /// The call failed: refused, or answered with an error.
    pub fn failing(&self) -> bool {
        self.verdict.invalid() || self.result.as_ref().is_some_and(Answer::is_error)
    }

    /// The model had `earlier`'s result when it made this call (a later turn, or an MCP
    /// request sent after the earlier one's response); calls side by side did not.
    pub fn saw(&self, earlier: &Call) -> bool {
        earlier.result.as_ref().is_some_and(|a| a.step < self.step)
    }

    pub fn id_or_dash(&self) -> &str {
        self.id.as_deref().unwrap_or("-")
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: Kind,
    /// The call it is about (an index into the conversation's calls), if one.
    pub call: Option<usize>,
    /// What exactly: the validator's message, `after 2 repairs`, the phrase found.
    pub detail: String,
    /// The path of the value, where there is one.
    pub path: String,
    /// A short excerpt of the arguments or the result, cleaned of controls.
    pub excerpt: String,
    /// The call id a result-only finding names (an orphan's).
    pub id: Option<String>,
}

/// A step kept for the replay, in order.
#[derive(Debug, Clone)]
pub enum Seen {
    Turn {
        at_ms: Option<u64>,
    },
    Say {
        who: Speaker,
        text: String,
    },
    Call(usize),
    Result {
        call: Option<usize>,
        at_ms: Option<u64>,
    },
}

/// A conversation audited.
#[derive(Debug, Clone)]
pub struct Conversation {
    pub place: Place,
    pub format: Format,
    pub turns: u32,
    pub calls: Vec<Call>,
    pub findings: Vec<Finding>,
    /// Repair attempts: calls to a tool made after the model read the error an invalid
    /// call to it was answered with (as a bounded repair loop counts them).
    pub repairs: u32,
    /// The most calls proposed in one turn.
    pub max_parallel: u32,
    pub longest_failing_streak: u32,
    /// How many tools were declared (the most at any point).
    pub declared: usize,
    /// The declared names (the last declarations seen).
    pub declared_names: Arc<[String]>,
    /// The steps in order, kept for the replay.
    pub seen: Vec<Seen>,
    /// Which part of an MCP session cut every [`MAX_CALLS`] calls this is (from 1), or 0
    /// for a conversation read whole.
    pub part: u32,
}

impl Conversation {
    /// Findings of one kind.
    pub fn count(&self, kind: Kind) -> usize {
        self.findings.iter().filter(|f| f.kind == kind).count()
    }

    /// The findings that are problems (a repair is good news).
    pub fn problems(&self) -> usize {
        self.findings.iter().filter(|f| !f.kind.is_good()).count()
    }
}

type HashMap<K, V> = foldhash::HashMap<K, V>;

/// The most calls a conversation keeps; an MCP session longer than this is cut into parts.
pub const MAX_CALLS: usize = 100_000;

/// A validator with no schema: it judges only what any arguments must be (JSON, one
/// object, no repeated key), with the validator's own messages.
static ANY_OBJECT: LazyLock<Validator> = LazyLock::new(|| {
    Validator::options()
        .form(Some(crate::validate::Form::JsonSchema))
        .compile_text("{}")
        .expect("the empty schema compiles")
});

/// The names of no declarations, shared by every conversation that has none.
static NO_NAMES: LazyLock<Arc<[String]>> = LazyLock::new(|| Arc::from([]));

/// A conversation being read.
pub struct Builder {
    conv: Conversation,
    catalog: Option<Arc<Catalog>>,
    /// Calls awaiting their result, by id, oldest first.
    pending: HashMap<String, VecDeque<usize>>,
    /// Ids used so far.
    ids: foldhash::HashSet<String>,
    /// Calls awaiting a result named by their tool (OpenAI's legacy function calls).
    pending_by_name: HashMap<String, VecDeque<usize>>,
    in_turn: u32,
    /// MCP has no model turns: a run of calls with no result between them is one.
    auto_turns: bool,
    last_was_call: bool,
    /// Calls and results taken so far (each call's and result's `step`).
    steps: u64,
    keep: Keep,
    rules: ValidatorRules,
}

/// What a conversation keeps besides its verdicts and findings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Keep {
    /// Every step, argument and result text (to replay it).
    pub steps: bool,
    /// The start of each call's arguments and result (to show beside a finding).
    pub excerpts: bool,
}

impl Builder {
    pub fn new(place: Place, format: Format, catalog: Option<Arc<Catalog>>, keep: Keep) -> Builder {
        let mut b = Builder {
            conv: Conversation {
                place,
                format,
                turns: 0,
                calls: Vec::new(),
                findings: Vec::new(),
                repairs: 0,
                max_parallel: 0,
                longest_failing_streak: 0,
                declared: 0,
                declared_names: NO_NAMES.clone(),
                seen: Vec::new(),
                part: 0,
            },
            catalog: None,
            pending: HashMap::default(),
            ids: foldhash::HashSet::default(),
            pending_by_name: HashMap::default(),
            in_turn: 0,
            auto_turns: format == Format::Mcp,
            last_was_call: false,
            steps: 0,
            keep,
            rules: ValidatorRules::ALL_ON,
        };
        b.declare(catalog);
        b
    }

    /// Begin another conversation in this builder's room, as [`Builder::new`] would: its
    /// lists and maps are emptied and filled again, so a long log is read without asking for
    /// new room for each of its conversations.
    pub fn restart(
        &mut self,
        place: Place,
        format: Format,
        catalog: Option<Arc<Catalog>>,
        keep: Keep,
    ) {
        // Every field named: one added must be set here too.
        let Builder {
            conv,
            catalog: declared_by,
            pending,
            ids,
            pending_by_name,
            in_turn,
            auto_turns,
            last_was_call,
            steps,
            keep: kept,
            rules,
        } = self;
        let Conversation {
            place: at,
            format: read_as,
            turns,
            calls,
            findings,
            repairs,
            max_parallel,
            longest_failing_streak,
            declared,
            declared_names,
            seen,
            part,
        } = conv;
        (*at, *read_as) = (place, format);
        (
            *turns,
            *repairs,
            *max_parallel,
            *longest_failing_streak,
            *part,
        ) = (0, 0, 0, 0, 0);
        *declared = 0;
        *declared_names = NO_NAMES.clone();
        calls.clear();
        findings.clear();
        seen.clear();
        *declared_by = None;
        pending.clear();
        ids.clear();
        pending_by_name.clear();
        (*in_turn, *steps) = (0, 0);
        (*auto_turns, *last_was_call) = (format == Format::Mcp, false);
        (*kept, *rules) = (keep, ValidatorRules::ALL_ON);
        self.declare(catalog);
    }

    pub fn calls(&self) -> usize {
        self.conv.calls.len()
    }

    /// Mark this conversation as part `n` (from 1) of a session cut at its size.
    pub fn set_part(&mut self, n: u32) {
        self.conv.part = n;
    }

    pub fn part(&self) -> u32 {
        self.conv.part
    }

    pub fn place(&self) -> &Place {
        &self.conv.place
    }

    /// The declarations calls are judged by now.
    pub fn catalog(&self) -> Option<Arc<Catalog>> {
        self.catalog.clone()
    }

    /// Judge the calls after this by `catalog` (`None`: no declarations).
    pub fn declare(&mut self, catalog: Option<Arc<Catalog>>) {
        if let Some(c) = &catalog {
            self.conv.declared = self.conv.declared.max(c.len());
            self.conv.declared_names = c.name_list();
        }
        self.catalog = catalog;
    }

    /// Take one step (a `Declare` or `Restart` is the caller's to handle).
    pub fn step(&mut self, step: Step<'_>) {
        match step {
            Step::Turn { at_ms } => self.turn(at_ms),
            Step::Say { who, text } => {
                if self.keep.steps {
                    self.conv.seen.push(Seen::Say {
                        who,
                        text: text.into_owned(),
                    });
                }
            }
            Step::Call(c) => self.call(c),
            Step::Result(r) => self.result(r),
            Step::Declare(_) | Step::Restart | Step::Session(_) => {}
        }
    }

    fn turn(&mut self, at_ms: Option<u64>) {
        self.conv.max_parallel = self.conv.max_parallel.max(self.in_turn);
        self.in_turn = 0;
        self.conv.turns += 1;
        self.last_was_call = false;
        if self.keep.steps {
            self.conv.seen.push(Seen::Turn { at_ms });
        }
    }

    fn call(&mut self, c: CallStep<'_>) {
        if self.conv.turns == 0 || (self.auto_turns && !self.last_was_call) {
            self.turn(c.at_ms);
        }
        self.last_was_call = true;
        self.in_turn += 1;
        self.steps += 1;
        let index = self.conv.calls.len();
        let (verdict, key, excerpt, args, args_text) = self.judge(&c);
        let id = c.id.map(|i| i.into_owned());
        if let Some(id) = &id {
            if !self.ids.insert(id.clone()) {
                let detail = if self.pending.get(id).is_some_and(|q| !q.is_empty()) {
                    format!(
                        "the id {} is that of an earlier call still waiting for its result: \
                         the two results cannot be told apart",
                        show(id)
                    )
                } else {
                    format!(
                        "the id {} was used by an earlier call, already answered: the results \
                         can be paired in order, but a log or trace keyed by id mixes the two",
                        show(id)
                    )
                };
                self.conv.findings.push(Finding {
                    kind: Kind::DuplicateId,
                    call: Some(index),
                    detail,
                    path: String::new(),
                    excerpt: String::new(),
                    id: None,
                });
            }
            self.pending.entry(id.clone()).or_default().push_back(index);
        } else if self.conv.format == Format::OpenaiChat {
            self.pending_by_name
                .entry(c.tool.to_string())
                .or_default()
                .push_back(index);
        }
        self.conv.calls.push(Call {
            id,
            tool: c.tool.into_owned(),
            turn: self.conv.turns,
            verdict,
            args_excerpt: excerpt,
            at_ms: c.at_ms,
            result: None,
            key,
            args,
            args_text,
            step: self.steps,
        });
        if self.keep.steps {
            self.conv.seen.push(Seen::Call(index));
        }
    }

    /// The verdict on a call's arguments, their hash, an excerpt, and (kept) the arguments.
    fn judge(&self, c: &CallStep<'_>) -> (Verdict, u64, String, Option<Value>, Option<String>) {
        let parsed;
        let args: &Json<'_> = match &c.args {
            ArgsIn::Json(j) => j,
            ArgsIn::Text(t) => match json::parse(t) {
                Ok(j) => {
                    parsed = j;
                    &parsed
                }
                Err(e) => {
                    let key = fingerprint::of_text(&c.tool, t);
                    let kept = self.keep.steps.then(|| t.to_string());
                    let v = crate::validate::parse_args(t)
                        .err()
                        .unwrap_or_else(|| Violation {
                            kind: CheckKind::Parse,
                            path: String::new(),
                            message: e.to_string(),
                        });
                    let verdict = match e {
                        json::ParseError::Duplicate { .. } => Verdict::Failed(v),
                        json::ParseError::Syntax { .. } => Verdict::NotJson(v.message),
                    };
                    return (verdict, key, self.head(t), None, kept);
                }
            },
            ArgsIn::Missing => {
                let key = fingerprint::of_text(&c.tool, "");
                let why = "no arguments: the call carries no arguments text".to_owned();
                return (Verdict::NotJson(why), key, String::new(), None, None);
            }
        };
        let key = fingerprint::of_args(&c.tool, args);
        let text = match &c.args {
            ArgsIn::Text(t) => self.head(t),
            _ if !self.keep.excerpts => String::new(),
            _ => cut(&fingerprint::head(args, EXCERPT_CHARS * 4), EXCERPT_CHARS),
        };
        let kept = self.keep.steps.then(|| args.to_value());
        if let Some(path) = &c.duplicate {
            let v = Violation {
                kind: CheckKind::Parse,
                message: format!("duplicate arg: {path}"),
                path: path.clone(),
            };
            return (Verdict::Failed(v), key, text, kept, None);
        }
        let any_object = |not_judged: Verdict| match ANY_OBJECT.check(Args::Json(args), &self.rules)
        {
            Ok(()) => not_judged,
            Err(v) => Verdict::Failed(v),
        };
        let verdict = match self.catalog.as_deref().map(|cat| cat.lookup(&c.tool)) {
            None => any_object(Verdict::Undeclared),
            Some(Lookup::Provided(kind)) => any_object(Verdict::Provided(kind)),
            Some(Lookup::Unknown) => Verdict::UnknownTool,
            Some(Lookup::Refused(why)) => Verdict::Refused(why),
            Some(Lookup::Tool(v)) => match v.check(Args::Json(args), &self.rules) {
                Ok(()) => Verdict::Passed,
                Err(v) => Verdict::Failed(v),
            },
        };
        (verdict, key, text, kept, None)
    }

    /// The start of `text` when excerpts are kept.
    fn head(&self, text: &str) -> String {
        if self.keep.excerpts {
            raw_head(text)
        } else {
            String::new()
        }
    }

    fn result(&mut self, r: ResultStep<'_>) {
        self.last_was_call = false;
        self.steps += 1;
        let found = if r.beside {
            self.beside_last()
        } else {
            match (&r.id, r.by_name) {
                (Some(id), true) => take(&mut self.pending_by_name, id),
                (Some(id), false) => take(&mut self.pending, id),
                (None, _) => None,
            }
        };
        let Some(index) = found else {
            if r.optional {
                self.elsewhere(&r);
            } else {
                self.orphan(&r);
            }
            return;
        };
        let answer = self.answer(&r);
        self.conv.calls[index].result = Some(Answer {
            text: self.keep.steps.then(|| r.text.into_owned()),
            ..answer
        });
        if self.keep.steps {
            self.conv.seen.push(Seen::Result {
                call: Some(index),
                at_ms: r.at_ms,
            });
        }
    }

    /// A result read for its signs (its text kept by the caller when the steps are).
    fn answer(&self, r: &ResultStep<'_>) -> Answer {
        let names = self.catalog.clone();
        let is_tool = |n: &str| names.as_deref().is_some_and(|c| c.has(n));
        let orders = heuristics::reads_as_orders(&r.text, &is_tool).map(clean_cut);
        let error_sign = heuristics::reads_as_error(&r.text);
        // A failure's start is kept whatever else is: a storm's finding tells it.
        let failed = r.flagged == Some(true) || error_sign.is_some();
        Answer {
            flagged: r.flagged,
            error_sign,
            orders,
            excerpt: if failed {
                raw_head(&r.text)
            } else {
                self.head(&r.text)
            },
            bytes: r.text.len(),
            at_ms: r.at_ms,
            text: None,
            step: self.steps,
        }
    }

    /// A result for a call this conversation does not hold (one kept at the server, as a
    /// Responses request that goes on from `previous_response_id`): read for its signs.
    fn elsewhere(&mut self, r: &ResultStep<'_>) {
        let a = self.answer(r);
        let id = r.id.as_ref().map(|i| i.to_string());
        let note = |kind: Kind, detail: String| Finding {
            kind,
            call: None,
            detail,
            path: String::new(),
            excerpt: excerpt(&r.text),
            id: id.clone(),
        };
        let mut found = Vec::new();
        if let Some(sign) = a.unflagged_error() {
            found.push(note(
                Kind::ErrorNotFlagged,
                heuristics::unflagged_detail(self.conv.format, &sign.sign),
            ));
        }
        if let Some(phrase) = &a.orders {
            found.push(note(
                Kind::InstructionInResult,
                heuristics::orders_detail(phrase),
            ));
        }
        self.conv.findings.extend(found);
    }

    /// The last call, for a result recorded beside it, when it has none yet (no longer
    /// awaited by its id).
    fn beside_last(&mut self) -> Option<usize> {
        let index = self.conv.calls.len().checked_sub(1)?;
        let call = &self.conv.calls[index];
        if call.result.is_some() {
            return None;
        }
        if let Some(id) = &call.id
            && let Some(queue) = self.pending.get_mut(id)
        {
            queue.retain(|&i| i != index);
            if queue.is_empty() {
                self.pending.remove(id);
            }
        }
        Some(index)
    }

    fn orphan(&mut self, r: &ResultStep<'_>) {
        let detail = match &r.id {
            Some(id) if self.ids.contains(id.as_ref()) => {
                format!("a second result for {}", show(id))
            }
            Some(id) => format!("a result for {}, which no call has", show(id)),
            None => "a result that names no call".to_owned(),
        };
        self.conv.findings.push(Finding {
            kind: Kind::OrphanResult,
            call: None,
            detail,
            path: String::new(),
            excerpt: excerpt(&r.text),
            id: r.id.as_ref().map(|i| i.to_string()),
        });
        if self.keep.steps {
            self.conv.seen.push(Seen::Result {
                call: None,
                at_ms: r.at_ms,
            });
        }
    }

    /// The conversation read, its checks still to run (`checks::run`); the builder keeps it
    /// until it is restarted.
    pub fn finish(&mut self) -> &mut Conversation {
        self.conv.max_parallel = self.conv.max_parallel.max(self.in_turn);
        &mut self.conv
    }
}

/// The oldest call awaiting `id`.
fn take(pending: &mut HashMap<String, VecDeque<usize>>, id: &str) -> Option<usize> {
    let queue = pending.get_mut(id)?;
    let index = queue.pop_front();
    if queue.is_empty() {
        pending.remove(id);
    }
    index
}

/// A short excerpt, cleaned of controls, on one line.
pub fn excerpt(text: &str) -> String {
    clean_cut(text.trim())
}

fn clean_cut(text: &str) -> String {
    crate::sanitize::clean(&cut(text, EXCERPT_CHARS), false)
}

/// The start of `text`, raw (an excerpt is cleaned when a finding shows it).
fn raw_head(text: &str) -> String {
    cut(text.trim(), EXCERPT_CHARS)
}

/// A name or id quoted for a message, cleaned.
pub fn show(text: &str) -> String {
    crate::sanitize::clean(&cut(text, 60), false)
}
