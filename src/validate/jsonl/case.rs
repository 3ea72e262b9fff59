//! Reading one JSON line into a case: its members picked apart one by one, the schema and
//! `required` kept as raw text (a known text is skipped, not parsed), the args parsed.
//!
//! [`Resume`] remembers the bytes of the last case up to its args and what reading them
//! gave, so the next line that starts with the same bytes is read from its args on.

use std::borrow::Cow;
use std::ops::Range;

use super::cache::{Cache, Reading};
use super::{Field, Form, Formats, Json, ParseError};
use crate::validate::json::Parser;

/// A line read as a case, before its schema is looked up and its args judged.
#[derive(Default)]
pub(super) struct RawCase<'a> {
    /// Raw text of the schema and required values (parsed again only on a cache miss).
    pub(super) schema_text: Option<&'a str>,
    /// The cache entry whose schema text this line repeats, if any.
    pub(super) schema_hit: Option<usize>,
    pub(super) required_text: &'a str,
    pub(super) form: Option<Form>,
    pub(super) formats: Option<Formats>,
    pub(super) args: Option<Json<'a>>,
    pub(super) args_text: Option<Cow<'a, str>>,
    seen_required: bool,
    /// What came before the args is what [`Resume`] holds: the line resumed there, or was
    /// remembered there.
    pub(super) from_prefix: bool,
    /// `schema` or `required` came after the args (so not from that prefix).
    pub(super) late: bool,
}

/// Which member holds the args.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum ArgsKey {
    #[default]
    Args,
    ArgsText,
}

/// The last case read up to its args: the exact bytes before the value of its first `args`
/// (or `args_text`) member, and what reading them gave. Reading is deterministic, so a line
/// that starts with the same bytes gives the same there, as long as the cache entries it was
/// matched against are unchanged ([`Resume::forget`] is called when they change); the line
/// is then read from its args on. What follows (later members, a repeated key, trailing
/// text) is read as always.
#[derive(Default)]
pub(super) struct Resume {
    /// Empty when nothing is remembered (a real prefix holds at least `{"args":`).
    prefix: Vec<u8>,
    key: ArgsKey,
    schema: Option<Range<usize>>,
    schema_hit: Option<usize>,
    required: Range<usize>,
    form: Option<Form>,
    formats: Option<Formats>,
    seen_required: bool,
    /// The cache entry a case from this prefix was judged with, for the form it was read in.
    resolved: Option<(Reading, usize)>,
}

impl Resume {
    /// Remember `text` up to byte `at` (the start of the args value) and the case so far.
    fn record(&mut self, text: &str, at: usize, key: ArgsKey, case: &RawCase<'_>) {
        self.prefix.clear();
        self.prefix.extend_from_slice(&text.as_bytes()[..at]);
        self.key = key;
        self.schema = case.schema_text.map(|s| span(text, s));
        self.schema_hit = case.schema_hit;
        self.required = span(text, case.required_text);
        self.form = case.form;
        self.formats = case.formats;
        self.seen_required = case.seen_required;
        self.resolved = None;
    }

    /// If `text` starts with the remembered bytes: the case so far into `case` (a new
    /// one), and a cursor at its args.
    fn start<'a>(&self, text: &'a str, case: &mut RawCase<'a>) -> Option<Parser<'a>> {
        if self.prefix.is_empty() || !text.as_bytes().starts_with(&self.prefix) {
            return None;
        }
        case.schema_text = self.schema.clone().map(|r| &text[r]);
        case.schema_hit = self.schema_hit;
        case.required_text = &text[self.required.clone()];
        case.form = self.form;
        case.formats = self.formats;
        case.seen_required = self.seen_required;
        case.from_prefix = true;
        Some(Parser::inside_object(text, self.prefix.len()))
    }

    /// The bytes remembered (empty: none).
    #[cfg(test)]
    pub(super) fn prefix(&self) -> &[u8] {
        &self.prefix
    }

    /// The cache entries changed: what was matched against them no longer holds.
    pub(super) fn forget(&mut self) {
        self.prefix.clear();
        self.resolved = None;
    }

    /// Remember that a case from this prefix, read in `form`, was judged with entry `at`.
    pub(super) fn resolve(&mut self, form: Reading, at: usize) {
        if !self.prefix.is_empty() {
            self.resolved = Some((form, at));
        }
    }

    /// The entry a case from this prefix read in `form` was judged with, if known.
    pub(super) fn resolved(&self, form: Reading) -> Option<usize> {
        match self.resolved {
            Some((f, at)) if f == form && !self.prefix.is_empty() => Some(at),
            _ => None,
        }
    }
}

/// Where `part` lies in `text` (`part` is a slice of it, or empty).
fn span(text: &str, part: &str) -> Range<usize> {
    let start = (part.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    if part.is_empty() || start > text.len() {
        return 0..0;
    }
    start..start + part.len()
}

pub(super) enum CaseError {
    Bad(String),
    DuplicateInArgs(String),
}

impl CaseError {
    pub(super) fn into_reason(self) -> String {
        match self {
            CaseError::Bad(s) => s,
            CaseError::DuplicateInArgs(p) => format!("args repeat the key {p:?}"),
        }
    }
}

fn syntax(e: ParseError) -> CaseError {
    CaseError::Bad(match e {
        ParseError::Duplicate { path } => format!("the case repeats the key {path:?}"),
        other => format!(
            "not JSON: {}",
            other.message().trim_start_matches("invalid JSON: ")
        ),
    })
}

fn repeated(key: &str) -> CaseError {
    CaseError::Bad(format!("the case repeats the key {key:?}"))
}

/// Read `text` as a case into `case` (a new one). `spare` is room for the args' members.
/// With `allow_duplicates` (a second reading, after the args repeated a key) `resume` is
/// neither used nor changed.
pub(super) fn read<'a>(
    text: &'a str,
    allow_duplicates: bool,
    cache: &Cache,
    resume: &mut Resume,
    spare: Vec<Field<'a>>,
    case: &mut RawCase<'a>,
) -> Result<(), CaseError> {
    if !allow_duplicates {
        if let Some(mut p) = resume.start(text, case) {
            p.spare = spare;
            case.read_args_value(resume.key, &mut p)?;
            if p.next_member().map_err(syntax)? {
                case.members(text, &mut p, cache, None)?;
            }
            return Ok(());
        }
    }
    if text.trim().is_empty() {
        return Err(CaseError::Bad("empty line".into()));
    }
    if !text.trim_start().starts_with('{') {
        return Err(CaseError::Bad("a case must be a JSON object".into()));
    }
    let mut p = Parser::new(text);
    p.allow_duplicates = allow_duplicates;
    p.spare = spare;
    if p.open_object().map_err(syntax)? {
        return Err(CaseError::Bad("missing \"schema\"".into()));
    }
    let resume = if allow_duplicates { None } else { Some(resume) };
    case.members(text, &mut p, cache, resume)
}

impl<'a> RawCase<'a> {
    /// The members from the cursor to the closing `}`. The first args member is remembered
    /// in `resume`, when given.
    fn members(
        &mut self,
        text: &'a str,
        p: &mut Parser<'a>,
        cache: &Cache,
        mut resume: Option<&mut Resume>,
    ) -> Result<(), CaseError> {
        loop {
            let key = p.key().map_err(syntax)?;
            let args_key = match key.as_ref() {
                "args" => Some(ArgsKey::Args),
                "args_text" => Some(ArgsKey::ArgsText),
                _ => None,
            };
            match (key.as_ref(), args_key) {
                (_, Some(which)) => {
                    let first = self.args.is_none() && self.args_text.is_none();
                    if let Some(r) = resume.as_deref_mut().filter(|_| first) {
                        r.record(text, p.offset(), which, self);
                        self.from_prefix = true;
                    }
                    self.read_args_value(which, p)?;
                }
                ("schema", _) => self.read_schema(p, cache)?,
                ("required", _) => {
                    if self.seen_required {
                        return Err(repeated("required"));
                    }
                    self.seen_required = true;
                    self.read_required(p, cache)?;
                }
                ("form", _) => self.read_form(p)?,
                ("formats", _) => self.read_formats(p)?,
                _ => {
                    p.value_with_text().map_err(syntax)?;
                }
            }
            if !p.next_member().map_err(syntax)? {
                return Ok(());
            }
        }
    }

    fn read_args_value(&mut self, which: ArgsKey, p: &mut Parser<'a>) -> Result<(), CaseError> {
        match which {
            ArgsKey::Args => self.read_args(p),
            ArgsKey::ArgsText => self.read_args_text(p),
        }
    }

    /// After the args, a schema or required list is not the prefix's.
    fn note_late(&mut self) {
        if self.args.is_some() || self.args_text.is_some() {
            self.late = true;
        }
    }

    /// The `schema` member: its raw text, matched against the cache before it is parsed.
    fn read_schema(&mut self, p: &mut Parser<'a>, cache: &Cache) -> Result<(), CaseError> {
        if self.schema_text.is_some() {
            return Err(repeated("schema"));
        }
        self.note_late();
        // The same schema as a recent line: no need to parse it again.
        let known = cache
            .recent()
            .filter(|(_, c)| c.schema_text.starts_with(['{', '"']))
            .find_map(|(i, c)| p.skip_known(&c.schema_text).map(|raw| (i, raw)));
        if let Some((i, raw)) = known {
            self.schema_hit = Some(i);
            self.schema_text = Some(raw);
            return Ok(());
        }
        // An older one: its bytes found by matching brackets, then looked up by text.
        let at = p.offset();
        if let Some(raw) = p.skip_raw() {
            if let Some(i) = cache.with_text(raw).next() {
                self.schema_hit = Some(i);
                self.schema_text = Some(raw);
                return Ok(());
            }
            p.rewind(at);
        }
        let raw = p
            .value_with_text()
            .map_err(|e| match e {
                ParseError::Duplicate { path } => {
                    CaseError::Bad(format!("the schema repeats the key {path:?}"))
                }
                other => syntax(other),
            })?
            .1;
        self.schema_text = Some(raw);
        Ok(())
    }

    /// The `required` member's raw text (a recent list is skipped without parsing).
    fn read_required(&mut self, p: &mut Parser<'a>, cache: &Cache) -> Result<(), CaseError> {
        self.note_late();
        let known = cache
            .recent()
            .filter(|(_, c)| c.required_text.starts_with('['))
            .find_map(|(_, c)| p.skip_known(&c.required_text));
        self.required_text = match known {
            Some(raw) => raw,
            None => p.value_with_text().map_err(syntax)?.1,
        };
        Ok(())
    }

    /// The `args` member; a repeated key inside it is the model's doing, told apart.
    fn read_args(&mut self, p: &mut Parser<'a>) -> Result<(), CaseError> {
        if self.args.is_some() {
            return Err(repeated("args"));
        }
        match p.next_value() {
            Ok(v) => {
                self.args = Some(v);
                Ok(())
            }
            Err(ParseError::Duplicate { path }) => Err(CaseError::DuplicateInArgs(path)),
            Err(other) => Err(syntax(other)),
        }
    }

    fn read_args_text(&mut self, p: &mut Parser<'a>) -> Result<(), CaseError> {
        if self.args_text.is_some() {
            return Err(repeated("args_text"));
        }
        match p.value_with_text().map_err(syntax)?.0 {
            Json::Str(s) => {
                self.args_text = Some(s);
                Ok(())
            }
            other => Err(CaseError::Bad(format!(
                "\"args_text\" must be a string, got {}",
                other.py_type()
            ))),
        }
    }

    fn read_formats(&mut self, p: &mut Parser<'a>) -> Result<(), CaseError> {
        if self.formats.is_some() {
            return Err(repeated("formats"));
        }
        let (v, raw) = p.value_with_text().map_err(syntax)?;
        let formats = match v {
            Json::Str(name) => Formats::parse(&name),
            _ => None,
        };
        self.formats = Some(formats.ok_or_else(|| {
            CaseError::Bad(format!(
                "\"formats\" must be \"assert\" or \"annotate\", got {raw}"
            ))
        })?);
        Ok(())
    }

    fn read_form(&mut self, p: &mut Parser<'a>) -> Result<(), CaseError> {
        if self.form.is_some() {
            return Err(repeated("form"));
        }
        let (v, raw) = p.value_with_text().map_err(syntax)?;
        let form = match v {
            Json::Str(name) => Form::parse(&name),
            _ => None,
        };
        self.form = Some(form.ok_or_else(|| {
            CaseError::Bad(format!(
                "\"form\" must be one of {}, got {raw}",
                Form::NAMES.join(", ")
            ))
        })?);
        Ok(())
    }
}
