//! Compiled schemas of a JSON-lines run, kept by the exact text of their `schema` and
//! `required`, their form and formats mode, so a stream of calls to the same tools compiles
//! each once.

use super::case::{RawCase, Resume};
use super::{Form, Formats, Json, Options, Validator};

/// How a case's schema is read: its form (`None`: from the shape) and what `format` does.
pub(super) type Reading = (Option<Form>, Formats);

/// How many compiled schemas to remember.
const ENTRIES: usize = 16;

pub(super) struct Cached {
    pub(super) schema_text: String,
    pub(super) required_text: String,
    form: Reading,
    schema: Result<Validator, String>,
}

/// The compiled schemas, oldest first.
#[derive(Default)]
pub(super) struct Cache {
    entries: Vec<Cached>,
    /// A schema compiled for one case only (see [`Cache::schema_for`]).
    once: Option<Result<Validator, String>>,
}

impl Cache {
    pub(super) fn entries(&self) -> &[Cached] {
        &self.entries
    }

    /// The compiled schema of `case` read in `form` (or why it does not compile), compiled
    /// now if it is not kept. A new entry changes the entries, so `resume` forgets what it
    /// knew of them. `keep: false` (a case read letting repeated keys through) compiles
    /// without keeping: its texts were not read strictly, and a later line that skips them
    /// as known must not skip the check for a repeated key with them.
    pub(super) fn schema_for(
        &mut self,
        case: &RawCase<'_>,
        schema_text: &str,
        form: Reading,
        resume: &mut Resume,
        opts: &Options,
        keep: bool,
    ) -> &Result<Validator, String> {
        match self.find(case, schema_text, form, resume) {
            Some(at) => &self.entries[at].schema,
            None if !keep => self
                .once
                .insert(compile(schema_text, case.required_text, form, opts)),
            None => {
                let compiled = compile(schema_text, case.required_text, form, opts);
                if self.entries.len() == ENTRIES {
                    self.entries.remove(0);
                }
                self.entries.push(Cached {
                    schema_text: schema_text.to_owned(),
                    required_text: case.required_text.to_owned(),
                    form,
                    schema: compiled,
                });
                resume.forget();
                &self.entries[self.entries.len() - 1].schema
            }
        }
    }

    /// The entry that holds the schema of `case` read in `form`, if any.
    fn find(
        &self,
        case: &RawCase<'_>,
        schema_text: &str,
        form: Reading,
        resume: &mut Resume,
    ) -> Option<usize> {
        let from_prefix = case.from_prefix && !case.late;
        if let Some(at) = resume.resolved(form).filter(|_| from_prefix) {
            return Some(at);
        }
        let same = |c: &Cached| c.required_text == case.required_text && c.form == form;
        let hit = case.schema_hit.filter(|&i| same(&self.entries[i]));
        let found = hit.or_else(|| {
            self.entries
                .iter()
                .position(|c| c.schema_text == schema_text && same(c))
        });
        if let Some(at) = found.filter(|_| from_prefix) {
            resume.resolve(form, at);
        }
        found
    }
}

/// Compile a schema from the raw texts of a case (a cache miss).
fn compile(
    schema_text: &str,
    required_text: &str,
    (form, formats): Reading,
    opts: &Options,
) -> Result<Validator, String> {
    let schema = super::super::json::parse(schema_text).map_err(|e| format!("schema: {e}"))?;
    let required = if required_text.is_empty() {
        None
    } else {
        Some(super::super::json::parse(required_text).map_err(|e| format!("required: {e}"))?)
    };
    let mut names = Vec::new();
    match required.as_ref() {
        None | Some(Json::Null) => {}
        Some(Json::Array(items)) => {
            for item in items {
                match item {
                    Json::Str(s) => names.push(s.to_string()),
                    other => {
                        return Err(format!(
                            "\"required\" must list names, found {}",
                            other.show()
                        ));
                    }
                }
            }
        }
        Some(other) => {
            return Err(format!(
                "\"required\" must be a list of names, got {}",
                other.py_type()
            ));
        }
    }
    super::super::cases::resolve_schema_as(&schema, &names, &opts.named, form, formats)
        .map_err(|e| format!("schema: {e}"))
}
