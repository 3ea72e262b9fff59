//! Reading one JSON line into a case: its members picked apart one by one, the schema and
//! `required` kept as raw text (a known text is skipped, not parsed), the args parsed.
//!
//! A line that starts with the bytes an earlier case had before its args (`prefix.rs`) is
//! read from its args on, with what those bytes gave.

use std::borrow::Cow;
use std::ops::Range;

use super::cache::Cache;
use super::prefix::{ArgsKey, PrefixId, Prefixes, Start};
use super::{Field, Form, Formats, Json, ParseError};
use crate::sanitize::quote;
use crate::validate::json::Parser;

/// A line read as a case, before its schema is looked up and its args judged.
#[derive(Default)]
pub(super) struct RawCase<'a> {
    /// Raw text of the schema and required values (parsed again only on a cache miss).
    pub(super) schema_text: Option<&'a str>,
    /// The schema as read, when it was read (not skipped as a known text).
    pub(super) schema_value: Option<Json<'a>>,
    /// The cache entry whose schema text this line repeats, if any.
    pub(super) schema_hit: Option<usize>,
    pub(super) required_text: &'a str,
    pub(super) form: Option<Form>,
    pub(super) formats: Option<Formats>,
    pub(super) args: Option<Json<'a>>,
    pub(super) args_text: Option<Cow<'a, str>>,
    seen_required: bool,
    /// The kept prefix what came before the args is: the line resumed there, or was
    /// recorded there.
    pub(super) prefix: Option<PrefixId>,
    /// `schema` or `required` came after the args (so not from that prefix).
    pub(super) late: bool,
}

impl<'a> RawCase<'a> {
    /// The case so far as a kept prefix of `text` left it.
    fn resume(&mut self, text: &'a str, id: PrefixId, s: &Start) {
        self.schema_text = s.schema.clone().map(|r| &text[r]);
        self.schema_hit = s.schema_hit;
        self.required_text = &text[s.required.clone()];
        self.form = s.form;
        self.formats = s.formats;
        self.seen_required = s.seen_required;
        self.prefix = Some(id);
    }

    /// The case so far, to keep with its prefix.
    fn start(&self, text: &str, key: ArgsKey) -> Start {
        Start {
            key,
            schema: self.schema_text.map(|s| span(text, s)),
            schema_hit: self.schema_hit,
            required: span(text, self.required_text),
            form: self.form,
            formats: self.formats,
            seen_required: self.seen_required,
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
            CaseError::DuplicateInArgs(p) => format!("args repeat the key {}", quote(&p)),
        }
    }
}

fn syntax(e: ParseError) -> CaseError {
    CaseError::Bad(match e {
        ParseError::Duplicate { path } => format!("the case repeats the key {}", quote(&path)),
        other => format!(
            "not JSON: {}",
            other.message().trim_start_matches("invalid JSON: ")
        ),
    })
}

fn repeated(key: &str) -> CaseError {
    CaseError::Bad(format!("the case repeats the key {}", quote(key)))
}

/// Read `text` as a case into `case` (a new one). `spare` is room for the args' members.
/// `kept`: the prefixes, and the kept prefix the line starts with, if one does
/// ([`Prefixes::find`]). With `allow_duplicates` (a second reading, after the args repeated
/// a key) the prefixes are neither used nor changed.
pub(super) fn read<'a>(
    text: &'a str,
    allow_duplicates: bool,
    cache: &Cache,
    (prefixes, found): (&mut Prefixes, Option<(PrefixId, usize)>),
    spare: Vec<Field<'a>>,
    case: &mut RawCase<'a>,
) -> Result<(), CaseError> {
    if !allow_duplicates {
        if let Some((id, at)) = found {
            let start = prefixes.start(id);
            let key = start.key;
            case.resume(text, id, start);
            let mut p = Parser::inside_object(text, at);
            p.spare = spare;
            case.read_args_value(key, &mut p)?;
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
        // Not JSON at all, or JSON of another kind.
        return Err(match crate::validate::json::parse(text) {
            Err(e @ ParseError::Syntax { .. }) => syntax(e),
            _ => CaseError::Bad("a case must be a JSON object".into()),
        });
    }
    let mut p = Parser::new(text);
    p.allow_duplicates = allow_duplicates;
    p.spare = spare;
    if p.open_object().map_err(syntax)? {
        return Err(CaseError::Bad("missing \"schema\"".into()));
    }
    let prefixes = if allow_duplicates {
        None
    } else {
        Some(prefixes)
    };
    case.members(text, &mut p, cache, prefixes)
}

impl<'a> RawCase<'a> {
    /// The members from the cursor to the closing `}`. What came before the first args
    /// member is kept in `prefixes`, when given.
    fn members(
        &mut self,
        text: &'a str,
        p: &mut Parser<'a>,
        cache: &Cache,
        mut prefixes: Option<&mut Prefixes>,
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
                    if let Some(kept) = prefixes.as_deref_mut().filter(|_| first) {
                        let start = self.start(text, which);
                        self.prefix = Some(kept.record(text, p.offset(), start));
                    }
                    self.read_args_value(which, p)?;
                }
                ("schema", _) => {
                    let new_prefix = prefixes.is_some() && !self.late_now();
                    self.read_schema(p, cache, new_prefix)?
                }
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
        if self.late_now() {
            self.late = true;
        }
    }

    /// Have the args been read (so a member read now comes after them)?
    fn late_now(&self) -> bool {
        self.args.is_some() || self.args_text.is_some()
    }

    /// The `schema` member: its raw text, matched against the cache before it is parsed.
    /// `new_prefix`: the line did not start as an earlier one did, and its args are still
    /// to come (so its schema is mostly new).
    fn read_schema(
        &mut self,
        p: &mut Parser<'a>,
        cache: &Cache,
        new_prefix: bool,
    ) -> Result<(), CaseError> {
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
        // An older one: its bytes found by matching brackets, then looked up by text
        // (unless no schema kept starts as this one does: then it is new).
        let at = p.offset();
        let may_hold = if new_prefix {
            cache.may_hold_long(p.ahead(super::cache::LONG_HEAD))
        } else {
            cache.may_hold(p.ahead(super::cache::HEAD))
        };
        if may_hold && let Some(raw) = p.skip_raw() {
            if let Some(i) = cache.with_text(raw).next() {
                self.schema_hit = Some(i);
                self.schema_text = Some(raw);
                return Ok(());
            }
            p.rewind(at);
        }
        let (value, raw) = p.value_with_text().map_err(|e| match e {
            ParseError::Duplicate { path } => CaseError::Bad(format!(
                "the schema repeats the key {}",
                crate::sanitize::quote(&path)
            )),
            other => syntax(other),
        })?;
        self.schema_text = Some(raw);
        self.schema_value = Some(value);
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
