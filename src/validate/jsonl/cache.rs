//! Compiled schemas of a JSON-lines run, kept by the exact text of their `schema` and
//! `required`, their form and formats mode, so a stream of calls to the same tools compiles
//! each once.

use foldhash::HashMap;

use super::{Form, Formats, Json, Options, Validator};

/// How a case's schema is read: its form (`None`: from the shape) and what `format` does.
pub(super) type Reading = (Option<Form>, Formats);

/// How many compiled schemas to remember (past it, the cache starts afresh).
const ENTRIES: usize = 16384;
/// How many of the newest are tried as a prefix of a line's schema before it is read.
const RECENT: usize = 4;

pub(super) struct Cached {
    pub(super) schema_text: String,
    pub(super) required_text: String,
    form: Reading,
    schema: Result<Validator, String>,
}

/// A compiled schema (or why it does not compile).
pub(super) type Compiled = Result<Validator, String>;

/// The compiled schemas, oldest first, and an index of them by their schema's text.
#[derive(Default)]
pub(super) struct Cache {
    entries: Vec<Cached>,
    by_text: HashMap<u64, Vec<u32>>,
    /// A hash of the first [`HEAD`] bytes of every kept schema's text (see
    /// [`Cache::may_hold`]).
    heads: foldhash::HashSet<u64>,
    /// A hash of the first [`LONG_HEAD`] bytes of every kept schema at least that long (see
    /// [`Cache::may_hold_long`]).
    long_heads: foldhash::HashSet<u64>,
    /// A schema compiled for one case only (see [`Cache::once`]).
    once: Option<Compiled>,
}

impl Cache {
    /// The newest entries, newest first, with their indices (the ones a line's schema is
    /// first compared with, byte for byte).
    pub(super) fn recent(&self) -> impl Iterator<Item = (usize, &Cached)> {
        let from = self.entries.len().saturating_sub(RECENT);
        self.entries.iter().enumerate().skip(from).rev()
    }

    /// The entries whose schema text is `text`.
    pub(super) fn with_text<'c>(&'c self, text: &'c str) -> impl Iterator<Item = usize> + 'c {
        let ids = self
            .by_text
            .get(&text_hash(text))
            .map_or(&[][..], Vec::as_slice);
        ids.iter()
            .map(|&i| i as usize)
            .filter(move |&i| self.entries[i].schema_text == text)
    }

    /// The entry that holds `schema_text` with `required_text`, read in `form`, if any
    /// (`hit`: an entry whose schema text the line was found to repeat).
    pub(super) fn find(
        &self,
        hit: Option<usize>,
        schema_text: &str,
        required_text: &str,
        form: Reading,
    ) -> Option<usize> {
        let same = |c: &Cached| c.required_text == required_text && c.form == form;
        let hit = hit.filter(|&i| same(&self.entries[i]));
        hit.or_else(|| {
            self.with_text(schema_text)
                .find(|&i| same(&self.entries[i]))
        })
    }

    /// Is a schema whose text starts with `text` worth looking up before it is read? Not
    /// when no kept schema starts with the same [`HEAD`] bytes: a line's schema is then
    /// read at once rather than first skipped over to look it up. (A kept schema shorter
    /// than that is then read again too, and still found by its text before compiling.)
    pub(super) fn may_hold(&self, text: &[u8]) -> bool {
        self.heads
            .contains(&head_hash(&text[..text.len().min(HEAD)]))
    }

    /// [`Cache::may_hold`] for the schema of a line that does not start as any earlier line
    /// did (a new prefix), which is mostly a new schema: worth looking up only when a kept
    /// schema starts with the same [`LONG_HEAD`] bytes. Many declarations share their first
    /// [`HEAD`] bytes (`{"type": "function", "function": {"name": "`), and skipping over a
    /// new one only to find it unknown costs a seventh of reading it. A kept schema shorter
    /// than that is read again rather than looked up first (and still found by its text
    /// before compiling), which costs little for a schema so short.
    pub(super) fn may_hold_long(&self, text: &[u8]) -> bool {
        text.len() >= LONG_HEAD && self.long_heads.contains(&head_hash(&text[..LONG_HEAD]))
    }

    /// Entry `at`'s compiled schema, if there is one.
    pub(super) fn try_get(&self, at: usize) -> Option<&Compiled> {
        self.entries.get(at).map(|e| &e.schema)
    }

    /// Entry `at`'s compiled schema.
    pub(super) fn get(&self, at: usize) -> &Compiled {
        &self.entries[at].schema
    }

    /// Keep a schema compiled now; its entry, and whether older entries were dropped to
    /// make room (then every entry index known before is stale).
    pub(super) fn keep(
        &mut self,
        schema_text: &str,
        required_text: &str,
        form: Reading,
        schema: Compiled,
    ) -> (usize, bool) {
        let full = self.entries.len() == ENTRIES;
        if full {
            self.entries.clear();
            self.by_text.clear();
            self.heads.clear();
            self.long_heads.clear();
        }
        let b = schema_text.as_bytes();
        self.heads.insert(head_hash(&b[..b.len().min(HEAD)]));
        if b.len() >= LONG_HEAD {
            self.long_heads.insert(head_hash(&b[..LONG_HEAD]));
        }
        self.by_text
            .entry(text_hash(schema_text))
            .or_default()
            .push(self.entries.len() as u32);
        self.entries.push(Cached {
            schema_text: schema_text.to_owned(),
            required_text: required_text.to_owned(),
            form,
            schema,
        });
        (self.entries.len() - 1, full)
    }

    /// A schema compiled for one case only, not kept: that case's texts were not read
    /// strictly (its args repeated a key), and a later line that skips them as known must
    /// not skip the check for a repeated key with them.
    pub(super) fn once(&mut self, schema: Compiled) -> &Compiled {
        self.once.insert(schema)
    }
}

/// How many bytes of a schema's text [`Cache::may_hold`] looks at.
pub(super) const HEAD: usize = 48;
/// How many bytes of a schema's text [`Cache::may_hold_long`] looks at.
pub(super) const LONG_HEAD: usize = 256;

/// A hash of the first bytes of a schema's text.
fn head_hash(b: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0x4ead).hash_one(b)
}

/// A quick hash of a schema's text, a word at a time (an entry found by it is compared
/// byte for byte, so a collision costs a comparison, never a wrong schema).
fn text_hash(text: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let b = text.as_bytes();
    let mut h = b.len() as u64;
    // The length, the first 256 bytes and the last 64 tell declarations apart well enough.
    let parts: [&[u8]; 2] = if b.len() > 320 {
        [&b[..256], &b[b.len() - 64..]]
    } else {
        [b, &[]]
    };
    for part in parts {
        let mut words = part.chunks_exact(8);
        for w in &mut words {
            let mut a = [0u8; 8];
            a.copy_from_slice(w);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(a)).wrapping_mul(K);
        }
        for &x in words.remainder() {
            h = (h.rotate_left(5) ^ u64::from(x)).wrapping_mul(K);
        }
    }
    h
}

/// Compile a schema from the raw texts of a case (a cache miss); `parsed` is the schema
/// text already read, if it was.
pub(super) fn compile(
    parsed: Option<&Json<'_>>,
    schema_text: &str,
    required_text: &str,
    (form, formats): Reading,
    opts: &Options,
) -> Compiled {
    let read;
    let schema = match parsed {
        Some(v) => v,
        None => {
            read = super::super::json::parse(schema_text).map_err(|e| format!("schema: {e}"))?;
            &read
        }
    };
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
    super::super::cases::resolve_schema_as(schema, &names, &opts.named, form, formats)
        .map_err(|e| format!("schema: {e}"))
}
