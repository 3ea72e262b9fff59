//! `tooldojo audit`: every tool call a recorded conversation holds, checked again against
//! the declarations the model was given, with what the course teaches to look for.
//!
//! A run reads files of records ([`lines`]: a record a line, in bounded memory, or one
//! document), reads each record in its format ([`read`]: Anthropic Messages, OpenAI Chat
//! Completions and Responses, MCP JSON-RPC, one call a record) into [`steps`], judges every
//! call by the real validator ([`declared`]: the record's own tools, else `--tools`), and
//! hands each [`Conversation`] with its findings ([`Kind`], `checks.rs`, [`heuristics`]) to
//! a [`Sink`]: the human report ([`report`]), JSON lines ([`jsonl`]), or the replay
//! ([`source`], which plays a conversation in the trace player).

pub mod checks;
pub mod convo;
pub mod declared;
mod fingerprint;
pub mod heuristics;
pub mod jsonl;
mod kind;
pub mod lines;
pub mod listing;
pub mod read;
pub mod report;
mod skim;
pub mod source;
pub mod steps;
mod verdict;

use std::io::{self, Read};
use std::sync::Arc;

use crate::sanitize::quote;
use crate::validate::json::{self, ParseError};

pub use convo::{Call, Conversation, Finding, Place};
pub use declared::{Catalog, Catalogs};
pub use kind::{Kind, Lesson};
pub use steps::Format;
pub use verdict::Verdict;

use convo::Builder;
use read::Ctx;
use steps::Step;

/// `text` with the value at `range` (declarations compiled before) put aside: in its place
/// the tool's name (`name`, as JSON) for one declaration, else `null`.
fn swap_in(
    text: &str,
    range: &std::ops::Range<usize>,
    member: skim::Member,
    name: Option<&str>,
    out: &mut String,
) {
    out.clear();
    out.reserve(text.len());
    out.push_str(&text[..range.start]);
    match (member, name) {
        (skim::Member::Tool, Some(name)) => out.push_str(name),
        _ => out.push_str("null"),
    }
    out.push_str(&text[range.end..]);
}

/// Whether a record read holds one member at the top that may declare (the one put aside):
/// so the record's declarations are those put aside, as a skim of every member would find.
fn declares_once(root: &json::Json<'_>) -> bool {
    match root {
        json::Json::Object(fields) => {
            fields
                .iter()
                .filter(|(k, _)| skim::DECLARING_KEYS.contains(&k.as_ref()))
                .count()
                == 1
        }
        _ => false,
    }
}

/// Where a record's declarations are, as it is read.
enum Declared {
    /// Put aside: compiled before from the same text. `whole`: every member of the record
    /// was skimmed, and this was its only declaration member; else the record once read must
    /// hold no other member that may declare ([`skim::first_known`]).
    Known { catalog: Arc<Catalog>, whole: bool },
    /// In the record, in this member (remembered once compiled).
    Raw(skim::Member, std::ops::Range<usize>),
    /// In the record, wherever its format keeps them.
    InRecord,
}

/// Budgets a conversation is held to (`--limits turns=N,calls=N,repairs=N`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    pub turns: Option<u32>,
    pub calls: Option<u32>,
    pub repairs: Option<u32>,
}

impl std::str::FromStr for Limits {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut limits = Limits::default();
        if s.trim().is_empty() {
            return Err("no limit given: write NAME=N (turns, calls or repairs)".to_owned());
        }
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').ok_or_else(|| {
                format!("{}: write NAME=N (turns, calls or repairs)", quote(part))
            })?;
            let value = value.trim();
            let n: u32 = match value.parse::<u64>() {
                Ok(n) => u32::try_from(n).map_err(|_| {
                    format!(
                        "{}: {value} is more than the most a limit may be ({})",
                        quote(part),
                        u32::MAX
                    )
                })?,
                Err(_) => {
                    return Err(format!(
                        "{}: {} is not a whole number",
                        quote(part),
                        quote(value)
                    ));
                }
            };
            let slot = match name.trim() {
                "turns" => &mut limits.turns,
                "calls" => &mut limits.calls,
                "repairs" => &mut limits.repairs,
                other => {
                    return Err(format!(
                        "{} is not a limit (turns, calls or repairs)",
                        quote(other)
                    ));
                }
            };
            if slot.is_some() {
                return Err(format!("{} is given twice", quote(name.trim())));
            }
            *slot = Some(n);
        }
        Ok(limits)
    }
}

/// How to run an audit.
#[derive(Debug, Default)]
pub struct Options {
    /// The format of every record (`None`: recognised record by record).
    pub format: Option<Format>,
    pub limits: Limits,
    /// Keep every step, argument and result text (for the replay).
    pub keep: bool,
    /// Keep the start of each call's arguments and result, to show beside its findings
    /// (the human report; JSON lines show none).
    pub excerpts: bool,
}

/// Where an audit's conversations go.
pub trait Sink {
    /// A conversation, read and checked (its room is used again for the next one: a sink
    /// that keeps it keeps a copy).
    fn conversation(&mut self, conv: &Conversation) -> io::Result<()>;
    /// A record that could not be read (where, and why); the run goes on.
    fn bad_record(&mut self, place: Place, why: String) -> io::Result<()>;
    /// A record that is not JSON: the line of the file and the column in it where the
    /// reading stopped, and what the parser says. A bad record (its why saying the column,
    /// and the line when the record starts on another) unless the sink says it otherwise.
    fn not_json(&mut self, place: Place, at: (usize, usize), what: String) -> io::Result<()> {
        let why = not_json_why(&place, at, &what);
        self.bad_record(place, why)
    }
}

/// Why a record is not JSON, beside its place (`file:line`): the position said once, the
/// column alone when the reading stopped on the record's first line.
fn not_json_why(place: &Place, (line, column): (usize, usize), what: &str) -> String {
    if line == place.line {
        format!("not JSON: {what} at column {column}")
    } else {
        format!("not JSON: {what} at line {line}, column {column}")
    }
}

/// Counts of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub records: usize,
    pub bad_records: usize,
    pub conversations: usize,
    pub calls: usize,
}

/// One audit run: the declarations seen lately, what it counted, where it sends its
/// conversations.
pub struct Audit<'s> {
    opts: Options,
    catalogs: Catalogs,
    sink: &'s mut dyn Sink,
    pub totals: Totals,
    /// The first output error (a closed pipe): the run stops.
    failed: Option<io::Error>,
    /// Declarations compiled before, by their exact text (to put them aside unread).
    known: skim::Known,
    /// Read only the conversation that starts at this line (records before it are skipped
    /// unread, and the run stops once it is done).
    only: Option<usize>,
    done_only: bool,
    /// The run the MCP records lately read named (`Step::Session`).
    mcp_session: Option<String>,
    /// Where the MCP session to come starts: its first message (an `initialize`, a
    /// `tools/list` request), though its conversation opens with its first step.
    mcp_start: Option<Place>,
    /// Room for a record's text with its declarations put aside, kept between records.
    swapped: String,
    /// The builder of the last conversation of a record of its own, done with: the next
    /// one is read in its room.
    room: Option<Box<Builder>>,
}

impl<'s> Audit<'s> {
    pub fn new(opts: Options, tools: Option<Arc<Catalog>>, sink: &'s mut dyn Sink) -> Audit<'s> {
        Audit {
            opts,
            catalogs: Catalogs::with_fallback(tools),
            sink,
            totals: Totals::default(),
            failed: None,
            known: skim::Known::default(),
            only: None,
            done_only: false,
            mcp_session: None,
            mcp_start: None,
            swapped: String::new(),
            room: None,
        }
    }

    fn keep(&self) -> convo::Keep {
        convo::Keep {
            steps: self.opts.keep,
            excerpts: self.opts.excerpts || self.opts.keep,
        }
    }

    /// Read only the conversation that starts at `line` (to replay one of a long file).
    pub fn only_at(mut self, line: usize) -> Self {
        self.only = Some(line);
        self
    }

    /// Audit every record of `input`, named `file` in places.
    pub fn read(&mut self, file: &str, input: impl Read) -> io::Result<()> {
        self.read_lines(file, input, None)
    }

    /// Audit the records of `input`, the rest of file `file` from `place` on (a line after
    /// its first record, as [`lines::read_from`] says).
    pub fn read_from(&mut self, place: &Place, input: impl Read) -> io::Result<()> {
        let from = lines::At {
            line: place.line,
            byte: place.byte,
        };
        self.read_lines(&place.file, input, Some(from))
    }

    fn read_lines(
        &mut self,
        file: &str,
        input: impl Read,
        from: Option<lines::At>,
    ) -> io::Result<()> {
        let file: Arc<str> = Arc::from(file);
        let mut session: Option<Builder> = None;
        self.mcp_session = None;
        self.mcp_start = None;
        let each = |at: lines::At, text: lines::Line<'_>| {
            if self.only.is_some_and(|only| at.line < only) {
                return true;
            }
            let place = Place {
                file: file.clone(),
                line: at.line,
                byte: at.byte,
            };
            match text {
                lines::Line::Text(t) => self.record(place, t, &mut session),
                lines::Line::Bad(why) => self.bad(place, why),
            }
            self.failed.is_none() && !self.done_only
        };
        let result = match from {
            None => lines::read(input, each),
            Some(from) => lines::read_from(input, from, each),
        };
        if let Some(mut s) = session.take() {
            self.done(&mut s);
        }
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        result
    }

    fn bad(&mut self, place: Place, why: String) {
        self.counted_bad(|sink| sink.bad_record(place, why));
    }

    /// Count a bad record and tell the sink with `tell` (keeping the first error it gives).
    fn counted_bad(&mut self, tell: impl FnOnce(&mut dyn Sink) -> io::Result<()>) {
        self.totals.bad_records += 1;
        if let Err(e) = tell(&mut *self.sink) {
            self.failed = Some(e);
        }
    }

    fn done(&mut self, b: &mut Builder) {
        let conv = b.finish();
        checks::run(conv, &self.opts.limits);
        if self.only == Some(conv.place.line) {
            self.done_only = true;
        }
        self.totals.conversations += 1;
        self.totals.calls += conv.calls.len();
        if let Err(e) = self.sink.conversation(conv) {
            self.failed = Some(e);
        }
    }

    /// One record's text: its declarations put aside when they were compiled before, then
    /// read; read again whole when that cannot be done.
    fn record(&mut self, place: Place, text: &str, session: &mut Option<Builder>) {
        // Most records of a log repeat the declarations of one before: the first declaration
        // member is looked for alone, and the rest of the record is skimmed only when that
        // cannot be done.
        if let Some(found) = skim::first_known(text, &self.known) {
            let catalog = found.catalog.clone();
            let mut swapped = std::mem::take(&mut self.swapped);
            swap_in(text, &found.range, found.member, found.name, &mut swapped);
            let done = self.read_record(
                &place,
                &swapped,
                session,
                Declared::Known {
                    catalog,
                    whole: false,
                },
            );
            self.swapped = swapped;
            if done {
                return;
            }
        }
        let spans = skim::declarations(text, &self.known);
        let known = match spans.as_slice() {
            [(member, range)] => self
                .known
                .find(&text[range.clone()])
                .map(|(catalog, name)| {
                    let mut swapped = String::new();
                    swap_in(text, range, *member, name, &mut swapped);
                    (swapped, catalog.clone())
                }),
            _ => None,
        };
        if let Some((swapped, catalog)) = known
            && self.read_record(
                &place,
                &swapped,
                session,
                Declared::Known {
                    catalog,
                    whole: true,
                },
            )
        {
            return;
        }
        let raw = match spans.as_slice() {
            [(member, range)] => Declared::Raw(*member, range.clone()),
            _ => Declared::InRecord,
        };
        self.read_record(&place, text, session, raw);
    }

    /// One record's text parsed (a repeated key read past and blamed on the arguments that
    /// hold it), read in its format, and its steps taken. `false` (and nothing done) when the
    /// declarations put aside are not all there are: the caller reads the record whole.
    fn read_record(
        &mut self,
        place: &Place,
        text: &str,
        session: &mut Option<Builder>,
        declared: Declared,
    ) -> bool {
        let known = matches!(declared, Declared::Known { .. });
        let (parsed, duplicate) = match json::parse(text) {
            Ok(v) => (Ok(v), None),
            Err(_) if known => return false,
            Err(ParseError::Duplicate { path }) => {
                (json::parse_allowing_duplicates(text), Some(path))
            }
            Err(e) => (Err(e), None),
        };
        let root = match parsed {
            Ok(v) => v,
            Err(ParseError::Syntax { what, line, column }) => {
                // The parser counts from the record's first line; the file, from its own.
                let at = (place.line + line - 1, column);
                self.counted_bad(|sink| sink.not_json(place.clone(), at, what));
                return true;
            }
            Err(e) => {
                self.bad(place.clone(), e.to_string());
                return true;
            }
        };
        if matches!(declared, Declared::Known { whole: false, .. }) && !declares_once(&root) {
            return false;
        }
        if let Some(items) = read::array_of_records(&root, self.opts.format) {
            if known {
                return false;
            }
            for (i, item) in items.iter().enumerate() {
                let prefix = format!("[{i}].");
                let ctx = Ctx {
                    duplicate: duplicate.as_deref().and_then(|d| d.strip_prefix(&prefix)),
                };
                match read::read(item, None, ctx) {
                    Ok(rec) => {
                        let catalog = match &rec.tools {
                            Some(entries) => Some(self.catalogs.get(entries)),
                            None => self.catalogs.fallback(),
                        };
                        self.take(place, rec, catalog, session);
                    }
                    Err(why) => self.bad(place.clone(), format!("item {}: {why}", i + 1)),
                }
            }
            return true;
        }
        let ctx = Ctx {
            duplicate: duplicate.as_deref(),
        };
        let rec = match read::read(&root, self.opts.format, ctx) {
            Ok(r) => r,
            Err(_) if known => return false,
            Err(why) => {
                self.bad(place.clone(), why);
                return true;
            }
        };
        let catalog = match (declared, &rec.tools) {
            (Declared::Known { .. }, Some(_)) => return false,
            (Declared::Known { catalog, .. }, None) => Some(catalog),
            (Declared::Raw(member, range), Some(entries)) => {
                let c = self.catalogs.get(entries);
                self.remember(rec.format, member, &text[range], &c);
                Some(c)
            }
            (_, Some(entries)) => Some(self.catalogs.get(entries)),
            (_, None) => self.catalogs.fallback(),
        };
        self.take(place, rec, catalog, session);
        true
    }

    /// A record read, its steps taken: an MCP message into its session, anything else a
    /// conversation of its own.
    fn take(
        &mut self,
        place: &Place,
        rec: steps::Record<'_>,
        catalog: Option<Arc<Catalog>>,
        session: &mut Option<Builder>,
    ) {
        self.totals.records += 1;
        if rec.format == steps::Format::Mcp {
            self.mcp(place.clone(), rec.steps, session);
            if session.is_none() && self.mcp_start.is_none() {
                self.mcp_start = Some(place.clone());
            }
            return;
        }
        let mut b = match self.room.take() {
            Some(mut b) => {
                b.restart(place.clone(), rec.format, catalog, self.keep());
                b
            }
            None => Box::new(Builder::new(
                place.clone(),
                rec.format,
                catalog,
                self.keep(),
            )),
        };
        for step in rec.steps {
            b.step(step);
        }
        self.done(&mut b);
        self.room = Some(b);
    }

    /// Remember the text of a record's declarations with what it compiled to, when the
    /// record's declarations are that member's entries exactly (a Responses record may add
    /// more from its items, and opens namespaces).
    fn remember(&mut self, format: Format, member: skim::Member, raw: &str, c: &Arc<Catalog>) {
        let name = match member {
            skim::Member::Tools => None,
            skim::Member::Tool => match c.names().collect::<Vec<_>>().as_slice() {
                [one] => Some((*one).to_owned()),
                _ => return,
            },
        };
        if matches!(
            format,
            Format::Anthropic | Format::OpenaiChat | Format::Calls
        ) {
            self.known.keep(raw, c.clone(), name);
        }
    }

    /// MCP messages of one session, a record a line: they make one conversation until the
    /// next `initialize`, the end of the file, or [`convo::MAX_CALLS`] calls.
    fn mcp(&mut self, place: Place, steps: Vec<Step<'_>>, session: &mut Option<Builder>) {
        for step in steps {
            if let Step::Session(name) = &step {
                if self.mcp_session.as_ref() != Some(name) {
                    if let Some(mut s) = session.take() {
                        self.done(&mut s);
                    }
                    self.mcp_session = Some(name.clone());
                    self.mcp_start = Some(place.clone());
                }
                continue;
            }
            if matches!(step, Step::Restart) {
                if let Some(mut s) = session.take() {
                    self.done(&mut s);
                }
                self.mcp_start = Some(place.clone());
                continue;
            }
            let open = match session {
                Some(s) if s.calls() < convo::MAX_CALLS => s,
                _ => {
                    // A session cut at its size goes on with the declarations it had, and
                    // each part says which it is.
                    let (catalog, part) = match session.take() {
                        Some(mut s) => {
                            let part = s.part().max(1);
                            s.set_part(part);
                            let c = s.catalog();
                            self.done(&mut s);
                            (c, part + 1)
                        }
                        None => (self.catalogs.fallback(), 0),
                    };
                    let start = match part {
                        0 => self.mcp_start.take().unwrap_or_else(|| place.clone()),
                        _ => place.clone(),
                    };
                    let open = session.insert(Builder::new(
                        start,
                        steps::Format::Mcp,
                        catalog,
                        self.keep(),
                    ));
                    open.set_part(part);
                    open
                }
            };
            match step {
                Step::Declare(entries) => open.declare(Some(self.catalogs.get(&entries))),
                other => open.step(other),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON lines of a run on `log`, by the line of their record, without the place.
    fn lines_by_record(log: &str) -> Vec<(usize, serde_json::Value)> {
        let mut sink = jsonl::JsonSink::new(Vec::new());
        let mut run = Audit::new(Options::default(), None, &mut sink);
        run.read("log.jsonl", log.as_bytes()).unwrap();
        let totals = run.totals;
        let out = String::from_utf8(sink.finish(&totals).unwrap()).unwrap();
        let mut found = Vec::new();
        for line in out.lines() {
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            if let Some(record) = v.as_object_mut().and_then(|o| o.remove("record")) {
                let at = record.as_str().unwrap().rsplit(':').next().unwrap();
                found.push((at.parse().unwrap(), v));
            }
        }
        found
    }

    #[test]
    fn declarations_put_aside_judge_a_record_as_reading_it_whole_does() {
        let decl = r#"{"name": "get", "parameters": {"type": "object",
            "properties": {"n": {"type": "integer"}}, "required": ["n"]}}"#
            .replace('\n', "");
        let other = r#"{"name": "put", "parameters": {"type": "object"}}"#;
        // After the first record, each repeats its declaration: put aside without the rest
        // of the record skimmed, then read whole when the record holds more that may declare.
        let records = [
            format!(r#"{{"tool": {decl}, "arguments": "{{\"n\": 1}}"}}"#),
            format!(r#"{{"tool": {decl}, "arguments": "{{\"n\": \"x\"}}"}}"#),
            format!(r#"{{"tool": {decl}, "arguments": "{{}}", "tools": [{other}]}}"#),
            format!(r#"{{"arguments": "{{\"n\": 2}}", "tool": {decl}, "id": "c1"}}"#),
            format!(r#"{{"tool": {decl}, "arguments": "{{\"n\": 1}}", "tool": 1}}"#),
            format!(r#"{{"tool": {decl}, "arguments": "{{\"n\": 1}}", "request": {{}}}}"#),
            format!(r#"{{"tool": {decl}, "arguments": "{{\"n\": 1}}""#),
            format!(r#"{{"tool": {decl}, "input": {{"n": 3, "n": 4}}}}"#),
        ];
        let together = lines_by_record(&records.join("\n"));
        for (i, record) in records.iter().enumerate().skip(1) {
            // Alone in its log, nothing is known: the record is read whole.
            let alone: Vec<_> = lines_by_record(record)
                .into_iter()
                .map(|(_, v)| v)
                .collect();
            let put_aside: Vec<_> = together
                .iter()
                .filter(|(at, _)| *at == i + 1)
                .map(|(_, v)| v.clone())
                .collect();
            assert!(!alone.is_empty());
            assert_eq!(put_aside, alone, "{record}");
        }
    }
}
