//! `tooldojo validate --jsonl`: one case per line in, one verdict per line out, in order.
//!
//! Case: `{"schema": SCHEMA, "required": [...], "args": <any JSON>}` or with
//! `"args_text": "<raw text>"` instead of `args`. SCHEMA is any shape the validator reads
//! (a declaration, a JSON Schema, the flat form), or the name of a schema in
//! `fixtures/schemas.json`; `"form"` names its form (needed when its shape reads both ways)
//! and `"formats": "assert" | "annotate"` what `format` does. Other keys are ignored. With
//! `all`, a verdict also says the form the schema was read in and names the keywords and
//! formats it ignored. A line that is not a case gives `{"ok": false, "error": "bad case:
//! ..."}` and the run goes on.
//!
//! Built for throughput, while every verdict is exactly the one the line would get alone:
//! - input is read in large chunks and lines are judged in place, strings borrowed from them;
//! - a line that starts with the same bytes as an earlier case, up to its args, starts
//!   reading at its args with what those bytes gave and the compiled schema they were judged
//!   with (`prefix.rs`: found by a hash of the line's head and one comparison, so a known
//!   declaration is neither scanned nor parsed);
//! - compiled schemas are kept by their exact text (`cache.rs`);
//! - a verdict is written straight into one output buffer, the first failure's message
//!   without building it first, and the members of one line's args reuse the last line's room.

use std::io::{self, Read, Write};

mod cache;
mod case;
mod flat;
mod prefix;

use super::cases::NamedSchema;
use super::eval::found::Found;
use super::json::{Field, Json, ParseError, push_str_json, recycle};
use super::{Form, Formats, Validator, ValidatorRules, Violation};
use cache::{Cache, Compiled, Reading};
use case::{CaseError, RawCase};
use prefix::{PrefixId, Prefixes};

/// Options of a JSON-lines run.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// List every failure (`"errors": [...]` beside the first `error`).
    pub all: bool,
    pub rules: ValidatorRules,
    /// Schemas a case may name.
    pub named: Vec<(String, NamedSchema)>,
    /// The form of every case's schema, unless the case names its own.
    pub form: Option<Form>,
    /// What `format` does, unless a case says.
    pub formats: Formats,
}

/// Counts of one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub lines: usize,
    pub ok: usize,
    pub rejected: usize,
    pub bad: usize,
    /// Lines judged straight from the bytes of their flat args (`flat.rs`), among the
    /// passed and rejected ones.
    pub from_bytes: usize,
}

/// Run every line of `input`, writing one verdict line each to `output`.
pub fn run(input: impl Read, output: impl Write, opts: &Options) -> io::Result<Stats> {
    let (mut input, mut output) = (input, output);
    let mut lines = Lines::new(opts);
    // Lines are handled straight from a large buffer; only a partial last line is moved.
    let mut chunk = vec![0u8; CHUNK];
    let mut filled = 0;
    loop {
        let n = read_some(&mut input, &mut chunk[filled..])?;
        filled += n;
        let whole = memchr::memrchr(b'\n', &chunk[..filled]).map_or(0, |i| i + 1);
        lines.whole_lines(&chunk[..whole], &mut output)?;
        if n == 0 {
            if whole < filled {
                lines.last_line(&chunk[whole..filled]);
            }
            break;
        }
        chunk.copy_within(whole..filled, 0);
        filled -= whole;
        if filled == chunk.len() {
            if chunk.len() >= crate::input::MAX_LINE_BYTES {
                // No newline in sight: stop rather than hold an endless line in memory.
                return lines.too_long(output);
            }
            // A line longer than the buffer: make room.
            chunk.resize(chunk.len() * 2, 0);
        }
    }
    lines.finish(output)
}

/// Input read at a time (a longer line grows the buffer, up to the line cap).
const CHUNK: usize = 1 << 17;
/// Verdicts are handed to the output once this many bytes wait.
const FLUSH_AT: usize = 1 << 16;

/// Lines read ahead for at once (see [`Lines::warm`]).
const WARM: usize = 16;

/// `read`, retrying when interrupted.
fn read_some(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match input.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// A run in progress: what earlier lines leave to later ones (compiled schemas, the last
/// case's prefix, room for args) and the verdicts not yet written.
struct Lines<'o> {
    opts: &'o Options,
    cache: Cache,
    prefixes: Prefixes,
    /// Room for the members of args, kept between chunks (always empty there).
    room: Vec<Field<'static>>,
    stats: Stats,
    out: String,
}

impl<'o> Lines<'o> {
    fn new(opts: &'o Options) -> Self {
        Lines {
            opts,
            cache: Cache::default(),
            prefixes: Prefixes::default(),
            room: Vec::new(),
            stats: Stats::default(),
            out: String::with_capacity(FLUSH_AT + 4096),
        }
    }

    /// Judge `bytes`, whole lines each ending in `\n`, writing verdicts as they fill up.
    fn whole_lines(&mut self, bytes: &[u8], output: &mut impl Write) -> io::Result<()> {
        // Room for the args of these lines (they all borrow from them).
        let mut room = recycle(std::mem::take(&mut self.room));
        let mut start = 0;
        let mut ends = memchr::memchr_iter(b'\n', bytes);
        loop {
            // A batch of lines: read ahead for all of them, then judge each.
            let mut batch = [(0, 0); WARM];
            let mut n = 0;
            for (slot, end) in batch.iter_mut().zip(ends.by_ref()) {
                *slot = (start, end);
                start = end + 1;
                n += 1;
            }
            if n == 0 {
                break;
            }
            let keys = self.warm(bytes, &batch[..n]);
            for (&(from, to), &key) in batch[..n].iter().zip(&keys) {
                self.byte_line(&bytes[from..to], key, &mut room);
                self.write_if_full(output)?;
            }
        }
        self.room = recycle(room);
        Ok(())
    }

    /// Judge the last line of the input, which has no `\n`.
    fn last_line(&mut self, bytes: &[u8]) {
        let mut room = recycle(std::mem::take(&mut self.room));
        self.byte_line(bytes, None, &mut room);
        self.room = recycle(room);
    }

    /// Stop at a line longer than the most a line may be, after the verdicts so far.
    fn too_long(mut self, mut output: impl Write) -> io::Result<Stats> {
        self.write(&mut output)?;
        output.flush()?;
        Err(crate::input::line_too_long(self.stats.lines + 1))
    }

    /// Write the verdicts still waiting.
    fn finish(mut self, mut output: impl Write) -> io::Result<Stats> {
        self.write(&mut output)?;
        output.flush()?;
        Ok(self.stats)
    }

    fn write(&mut self, output: &mut impl Write) -> io::Result<()> {
        output.write_all(self.out.as_bytes())?;
        self.out.clear();
        Ok(())
    }

    fn write_if_full(&mut self, output: &mut impl Write) -> io::Result<()> {
        if self.out.len() >= FLUSH_AT {
            self.write(output)?;
        }
        Ok(())
    }

    /// Read ahead for the lines at `spans` of `text`, before judging them one by one: what
    /// judging a line reads first (its kept prefix, its compiled schema) is mostly in no
    /// cache, and reading it line by line waits for memory once for each step. Here each
    /// step fetches what the next one reads, for every line of the batch, so their waits
    /// overlap. Nothing is changed: a wrong guess costs only the reads. Each line's prefix
    /// key is worked out here, once (`None`: not worked out).
    fn warm(&self, bytes: &[u8], spans: &[(usize, usize)]) -> [Option<Option<u64>>; WARM] {
        use crate::validate::ahead::prefetch;
        let mut keys = [None; WARM];
        if !self.prefixes.several_indexed() {
            return keys;
        }
        for (k, &(from, to)) in keys.iter_mut().zip(spans) {
            *k = Some(self.prefixes.fetch_slot(&bytes[from..to]));
        }
        let mut entries = [None; WARM];
        for (e, k) in entries.iter_mut().zip(&keys) {
            *e = k.flatten().and_then(|h| self.prefixes.warm(h));
            if let Some(c) = e.and_then(|at| self.cache.try_get(at)) {
                crate::validate::ahead::prefetch_value(c);
            }
        }
        let mut roots = [None; WARM];
        for (r, e) in roots.iter_mut().zip(&entries) {
            if let Some(Ok(v)) = e.and_then(|at| self.cache.try_get(at)) {
                v.fetch_root();
                *r = Some(v);
            }
        }
        let mut objects = [None; WARM];
        for (o, r) in objects.iter_mut().zip(&roots) {
            *o = r.and_then(|v| Some((v, v.warm_root()?)));
            if let Some((_, o)) = o {
                prefetch(*o);
            }
        }
        for (_, o) in objects.iter().flatten() {
            o.warm();
        }
        for (v, o) in objects.iter().flatten() {
            v.warm_members(o);
        }
        keys
    }

    /// Judge one line (without its `\n`) and append its verdict line; `key`: its prefix
    /// key, if [`Lines::warm`] worked it out. `room` is empty room for the members of its
    /// args (and left so).
    ///
    /// Only what follows the kept prefix the line starts with (if any) is checked to be
    /// UTF-8: the prefix's bytes are those of an earlier line's text, up to a character
    /// boundary (the start of its args value), so the line is text when its rest is.
    #[allow(unsafe_code)]
    fn byte_line<'a>(
        &mut self,
        line: &'a [u8],
        key: Option<Option<u64>>,
        room: &mut Vec<Field<'a>>,
    ) {
        // The case is the line without a closing `\r` (its key, taken before its last
        // `"args`, is the same either way).
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let found = self.prefixes.find(line, key);
        let known = found.map_or(0, |(_, len)| len);
        let rest = &line[known..];
        // Short args are mostly ASCII, which is checked faster than UTF-8 in general.
        let checked = if rest.is_ascii() {
            Ok(())
        } else {
            std::str::from_utf8(rest).map(|_| ())
        };
        match checked {
            // SAFETY: `line[..known]` equals a kept prefix, which is UTF-8 and ends on a
            // character boundary, and `line[known..]` was just checked (see above).
            Ok(()) => self.text_line(unsafe { std::str::from_utf8_unchecked(line) }, found, room),
            Err(e) => {
                self.stats.lines += 1;
                self.stats.bad += 1;
                let byte = known + e.valid_up_to() + 1;
                let why = format!("the line is not UTF-8 (byte {byte})");
                write_bad(&mut self.out, &why, self.opts.all);
                self.out.push('\n');
            }
        }
    }

    /// Judge one line of text (without its `\n` and a closing `\r`) and append its verdict
    /// line; `found`: the kept prefix it starts with, if any ([`Prefixes::find`]).
    fn text_line<'a>(
        &mut self,
        text: &'a str,
        found: Option<(PrefixId, usize)>,
        room: &mut Vec<Field<'a>>,
    ) {
        self.stats.lines += 1;
        match self.case(text, found, room) {
            Ok(true) => self.stats.ok += 1,
            Ok(false) => self.stats.rejected += 1,
            Err(bad) => {
                self.stats.bad += 1;
                write_bad(&mut self.out, &bad, self.opts.all);
            }
        }
        self.out.push('\n');
    }

    /// `Ok(passed)` for a case (its verdict written), `Err(reason)` for a line that is not
    /// a case (nothing written).
    fn case<'a>(
        &mut self,
        text: &'a str,
        found: Option<(PrefixId, usize)>,
        room: &mut Vec<Field<'a>>,
    ) -> Result<bool, String> {
        if let Some((id, at)) = found
            && let Some(passed) = self.flat_line(text, id, at)
        {
            return Ok(passed);
        }
        let entries = &self.cache;
        let mut case = RawCase::default();
        let spare = std::mem::take(room);
        let kept = (&mut self.prefixes, found);
        match case::read(text, false, entries, kept, spare, &mut case) {
            Ok(()) => self.judge(&mut case, None, room),
            Err(CaseError::DuplicateInArgs(path)) => {
                // Read the line again, letting the repeat through, to check the rest of it.
                let mut case = RawCase::default();
                case::read(
                    text,
                    true,
                    entries,
                    (&mut self.prefixes, None),
                    Vec::new(),
                    &mut case,
                )
                .map_err(CaseError::into_reason)?;
                self.judge(&mut case, Some(path), room)
            }
            Err(e) => Err(e.into_reason()),
        }
    }

    fn judge<'a>(
        &mut self,
        case: &mut RawCase<'a>,
        duplicate: Option<String>,
        room: &mut Vec<Field<'a>>,
    ) -> Result<bool, String> {
        let Some(schema_text) = case.schema_text else {
            return Err("missing \"schema\"".into());
        };
        let form = case.form.or(self.opts.form);
        let formats = case.formats.unwrap_or(self.opts.formats);
        let keep = duplicate.is_none();
        let (cache, prefixes) = (&mut self.cache, &mut self.prefixes);
        let read = (&*case, schema_text);
        let schema = schema_for(cache, prefixes, self.opts, read, (form, formats), keep)
            .as_ref()
            .map_err(String::clone)?;
        let (out, opts) = (&mut self.out, self.opts);
        match (&mut case.args, &case.args_text) {
            (Some(_), Some(_)) => Err("both \"args\" and \"args_text\"".into()),
            (None, None) => Err("missing \"args\" (or \"args_text\")".into()),
            (Some(args), None) => {
                let passed = match duplicate {
                    Some(path) => {
                        let v = Violation {
                            kind: super::CheckKind::Parse,
                            message: format!("duplicate arg: {path}"),
                            path,
                        };
                        write_rejected(out, &[v], schema, opts.all);
                        false
                    }
                    None => write_verdict(out, schema, args, opts),
                };
                if let Json::Object(fields) = args {
                    // Hand the members' room to the next line.
                    fields.clear();
                    std::mem::swap(room, fields);
                }
                Ok(passed)
            }
            (None, Some(text)) => match super::json::parse(text) {
                Ok(args) => Ok(write_verdict(out, schema, &args, opts)),
                Err(e) => {
                    let v = Violation {
                        kind: super::CheckKind::Parse,
                        path: match &e {
                            ParseError::Duplicate { path } => path.clone(),
                            ParseError::Syntax { .. } => String::new(),
                        },
                        message: e.message(),
                    };
                    write_rejected(out, &[v], schema, opts.all);
                    Ok(false)
                }
            },
        }
    }
}

/// The compiled schema of `case` read in `form`, compiled now if it is not kept.
/// `keep: false` (a case read letting repeated keys through) compiles without keeping.
fn schema_for<'c>(
    cache: &'c mut Cache,
    prefixes: &mut Prefixes,
    opts: &Options,
    (case, schema_text): (&RawCase<'_>, &str),
    form: Reading,
    keep: bool,
) -> &'c Compiled {
    let prefix = case.prefix.filter(|_| !case.late);
    let known = prefix.and_then(|id| prefixes.resolved(id, form));
    let found = known.or_else(|| {
        let found = cache.find(case.schema_hit, schema_text, case.required_text, form);
        if let (Some(at), Some(id)) = (found, prefix) {
            prefixes.resolve(id, form, at);
        }
        found
    });
    if let Some(at) = found {
        return cache.get(at);
    }
    let parsed = case.schema_value.as_ref();
    let compiled = cache::compile(parsed, schema_text, case.required_text, form, opts);
    if !keep {
        return cache.once(compiled);
    }
    let (at, dropped) = cache.keep(schema_text, case.required_text, form, compiled);
    if dropped {
        prefixes.clear();
    } else if let Some(id) = prefix {
        prefixes.resolve(id, form, at);
    }
    cache.get(at)
}

/// Check `args` and write the verdict; `true` if they pass.
fn write_verdict(out: &mut String, v: &Validator, args: &Json<'_>, opts: &Options) -> bool {
    let root = v.root_word();
    if opts.all {
        let all = v.judge_all(args, &opts.rules);
        if all.is_empty() {
            out.push_str("{\"ok\": true, \"error\": \"\", \"errors\": []");
            push_about(out, v);
            out.push('}');
            return true;
        }
        out.push_str("{\"ok\": false, \"error\": ");
        all[0].push_message_json(root, out);
        out.push_str(", \"errors\": [");
        for (i, f) in all.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            f.push_message_json(root, out);
        }
        out.push(']');
        push_about(out, v);
        out.push('}');
        return false;
    }
    let passed = v.judge(args, &opts.rules, |found| push_failure(out, root, found));
    if passed {
        out.push_str(PASSED);
    }
    passed
}

/// The verdict of args that pass (without `all`).
const PASSED: &str = "{\"ok\": true, \"error\": \"\"}";

/// The verdict of args that fail with `found` first (without `all`).
fn push_failure(out: &mut String, root: &str, found: &Found<'_>) {
    out.push_str("{\"ok\": false, \"error\": ");
    found.push_message_json(root, out);
    out.push('}');
}

/// The verdict of a case that fails (with `all`, every failure and the form).
fn write_rejected(out: &mut String, violations: &[Violation], v: &Validator, all: bool) {
    write_failure(out, violations, all);
    if all {
        out.pop();
        push_about(out, v);
        out.push('}');
    }
}

fn write_failure(buf: &mut String, violations: &[Violation], all: bool) {
    buf.push_str("{\"ok\": false, \"error\": ");
    push_str_json(violations.first().map_or("", |v| &v.message), buf);
    if all {
        buf.push_str(", \"errors\": [");
        for (i, v) in violations.iter().enumerate() {
            if i > 0 {
                buf.push_str(", ");
            }
            push_str_json(&v.message, buf);
        }
        buf.push(']');
    }
    buf.push('}');
}

/// What `--all` adds about the schema: its form, and the keywords and formats it ignored
/// (when there are any).
fn push_about(buf: &mut String, v: &Validator) {
    buf.push_str(", \"form\": \"");
    buf.push_str(v.form().name());
    buf.push('"');
    if !v.unknown_keywords().is_empty() {
        buf.push_str(", \"unknown_keywords\": ");
        let list = serde_json::to_value(v.unknown_keywords()).unwrap_or_default();
        super::json::dump_into(&list, buf);
    }
    if !v.unknown_formats().is_empty() {
        buf.push_str(", \"unknown_formats\": ");
        let list = serde_json::to_value(v.unknown_formats()).unwrap_or_default();
        super::json::dump_into(&list, buf);
    }
}

fn write_bad(buf: &mut String, why: &str, all: bool) {
    let v = Violation {
        kind: super::CheckKind::Parse,
        path: String::new(),
        message: format!("bad case: {why}"),
    };
    write_failure(buf, std::slice::from_ref(&v), all);
}

#[cfg(test)]
mod tests;
