//! `tooldojo validate --jsonl`: one case per line in, one verdict per line out, in order.
//!
//! Built for throughput: input is read in 64 KB chunks and lines are judged in place, each
//! line is parsed once by
//! the strict reader (strings borrowed from the line), the compiled schema of the previous
//! lines is reused when a line carries the same schema text, and verdicts are written into
//! one reused buffer.
//!
//! Case: `{"schema": SCHEMA, "required": [...], "args": <any JSON>}` or with
//! `"args_text": "<raw text>"` instead of `args`. SCHEMA may also be the name of a schema in
//! `fixtures/schemas.json`; `"form": "flat" | "json-schema" | "tool"` names its form (needed
//! when its shape reads both ways). Other keys are ignored. With `all`, a verdict also says
//! the form the schema was read in. A line that is not a case gives
//! `{"ok": false, "error": "bad case: ..."}` and the run goes on.

use std::io::{self, Read, Write};

use super::cases::NamedSchema;
use super::json::{Json, ParseError, Parser, push_str_json};
use super::{Form, Schema, ValidatorRules, Violation};

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
}

/// Counts of one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub lines: usize,
    pub ok: usize,
    pub rejected: usize,
    pub bad: usize,
}

/// How many compiled schemas to remember (by their exact text).
const CACHE: usize = 16;

struct Cached {
    schema_text: String,
    required_text: String,
    form: Option<Form>,
    schema: Result<Schema, String>,
}

/// Run every line of `input`, writing one verdict line each to `output`.
pub fn run(input: impl Read, output: impl Write, opts: &Options) -> io::Result<Stats> {
    let mut input = input;
    let mut out = io::BufWriter::with_capacity(1 << 16, output);
    let mut cache: Vec<Cached> = Vec::new();
    let mut stats = Stats::default();
    let mut reply = String::with_capacity(256);
    // Lines are handled straight from a large buffer; only a partial last line is moved.
    let mut chunk = vec![0u8; 1 << 16];
    let mut filled = 0;
    loop {
        let n = read_some(&mut input, &mut chunk[filled..])?;
        filled += n;
        let mut start = 0;
        // Complete lines: check UTF-8 once for all of them, then split in place.
        let whole = chunk[..filled]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        if let Ok(text) = std::str::from_utf8(&chunk[..whole]) {
            for line in text.split_terminator('\n') {
                one_text_line(line, opts, &mut cache, &mut stats, &mut reply);
                out.write_all(reply.as_bytes())?;
            }
            start = whole;
        } else {
            // Some line is not UTF-8: go line by line so only that line is refused.
            while let Some(off) = find_newline(&chunk[start..filled]) {
                one_line(
                    &chunk[start..start + off],
                    opts,
                    &mut cache,
                    &mut stats,
                    &mut reply,
                );
                out.write_all(reply.as_bytes())?;
                start += off + 1;
            }
        }
        if n == 0 {
            if start < filled {
                one_line(
                    &chunk[start..filled],
                    opts,
                    &mut cache,
                    &mut stats,
                    &mut reply,
                );
                out.write_all(reply.as_bytes())?;
            }
            break;
        }
        chunk.copy_within(start..filled, 0);
        filled -= start;
        if filled == chunk.len() {
            if chunk.len() >= crate::input::MAX_LINE_BYTES {
                // No newline in sight: stop rather than hold an endless line in memory.
                out.flush()?;
                return Err(crate::input::line_too_long(stats.lines + 1));
            }
            // A line longer than the buffer: make room.
            chunk.resize(chunk.len() * 2, 0);
        }
    }
    out.flush()?;
    Ok(stats)
}

/// `read`, retrying when interrupted.
fn read_some(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match input.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// Position of the first `\n`, eight bytes at a time.
fn find_newline(hay: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const NL: u64 = LO * b'\n' as u64;
    let mut i = 0;
    while i + 8 <= hay.len() {
        let mut word = [0u8; 8];
        word.copy_from_slice(&hay[i..i + 8]);
        let x = u64::from_le_bytes(word) ^ NL;
        if (x.wrapping_sub(LO) & !x & HI) != 0 {
            break;
        }
        i += 8;
    }
    hay[i..].iter().position(|&b| b == b'\n').map(|p| i + p)
}

/// Judge one line (without its `\n`) and leave the reply line, `\n` included, in `reply`.
fn one_line(
    line: &[u8],
    opts: &Options,
    cache: &mut Vec<Cached>,
    stats: &mut Stats,
    reply: &mut String,
) {
    match std::str::from_utf8(line) {
        Ok(text) => one_text_line(text, opts, cache, stats, reply),
        Err(e) => {
            reply.clear();
            stats.lines += 1;
            stats.bad += 1;
            write_bad(
                reply,
                &format!("the line is not UTF-8 (byte {})", e.valid_up_to() + 1),
                opts.all,
            );
            reply.push('\n');
        }
    }
}

/// Judge one line of text (without its `\n`) into `reply`.
fn one_text_line(
    line: &str,
    opts: &Options,
    cache: &mut Vec<Cached>,
    stats: &mut Stats,
    reply: &mut String,
) {
    let text = line.strip_suffix('\r').unwrap_or(line);
    reply.clear();
    stats.lines += 1;
    {
        match one_case(text, opts, cache) {
            Ok((form, Ok(()))) => {
                stats.ok += 1;
                reply.push_str("{\"ok\": true, \"error\": \"\"");
                if opts.all {
                    reply.push_str(", \"errors\": []");
                    push_form(reply, form);
                }
                reply.push('}');
            }
            Ok((form, Err(violations))) => {
                stats.rejected += 1;
                write_failure(reply, &violations, opts.all);
                if opts.all {
                    reply.pop();
                    push_form(reply, form);
                    reply.push('}');
                }
            }
            Err(bad) => {
                stats.bad += 1;
                write_bad(reply, &bad, opts.all);
            }
        }
    }
    reply.push('\n');
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

fn push_form(buf: &mut String, form: Form) {
    buf.push_str(", \"form\": \"");
    buf.push_str(form.name());
    buf.push('"');
}

fn write_bad(buf: &mut String, why: &str, all: bool) {
    let v = Violation {
        kind: super::CheckKind::Parse,
        arg: String::new(),
        message: format!("bad case: {why}"),
    };
    write_failure(buf, std::slice::from_ref(&v), all);
}

/// The form a case's schema was read in, and its verdict: `Ok(())` or the violations (just
/// the first unless `opts.all`).
type Judged = (Form, Result<(), Vec<Violation>>);

/// `Ok(judged)` for a case, `Err(reason)` for a line that is not a case.
fn one_case(text: &str, opts: &Options, cache: &mut Vec<Cached>) -> Result<Judged, String> {
    match read_case(text, false, cache) {
        Ok(case) => judge(case, None, opts, cache),
        Err(CaseError::DuplicateInArgs(path)) => {
            // Read the line again, letting the repeat through, to check the rest of it.
            let case = read_case(text, true, cache).map_err(CaseError::into_reason)?;
            judge(case, Some(path), opts, cache)
        }
        Err(e) => Err(e.into_reason()),
    }
}

struct RawCase<'a> {
    /// Raw text of the schema and required values (parsed again only on a cache miss).
    schema_text: Option<&'a str>,
    /// The cache entry whose schema text this line repeats, if any.
    schema_hit: Option<usize>,
    required_text: &'a str,
    form: Option<Form>,
    args: Option<Json<'a>>,
    args_text: Option<std::borrow::Cow<'a, str>>,
}

enum CaseError {
    Bad(String),
    DuplicateInArgs(String),
}

impl CaseError {
    fn into_reason(self) -> String {
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

fn read_case<'a>(
    text: &'a str,
    allow_duplicates: bool,
    cache: &[Cached],
) -> Result<RawCase<'a>, CaseError> {
    let mut p = Parser::new(text);
    p.allow_duplicates = allow_duplicates;
    let mut case = RawCase {
        schema_text: None,
        schema_hit: None,
        required_text: "",
        form: None,
        args: None,
        args_text: None,
    };
    if text.trim().is_empty() {
        return Err(CaseError::Bad("empty line".into()));
    }
    if !text.trim_start().starts_with('{') {
        return Err(CaseError::Bad("a case must be a JSON object".into()));
    }
    if p.open_object().map_err(syntax)? {
        return Err(CaseError::Bad("missing \"schema\"".into()));
    }
    let mut seen_required = false;
    loop {
        let key = p.key().map_err(syntax)?;
        match key.as_ref() {
            "schema" => case.read_schema(&mut p, cache)?,
            "required" => {
                if seen_required {
                    return Err(repeated("required"));
                }
                seen_required = true;
                case.read_required(&mut p, cache)?;
            }
            "args" => case.read_args(&mut p)?,
            "args_text" => case.read_args_text(&mut p)?,
            "form" => case.read_form(&mut p)?,
            _ => {
                p.value_with_text().map_err(syntax)?;
            }
        }
        if !p.next_member().map_err(syntax)? {
            break;
        }
    }
    Ok(case)
}

fn repeated(key: &str) -> CaseError {
    CaseError::Bad(format!("the case repeats the key {key:?}"))
}

impl<'a> RawCase<'a> {
    /// The `schema` member: its raw text, matched against the cache before it is parsed.
    fn read_schema(&mut self, p: &mut Parser<'a>, cache: &[Cached]) -> Result<(), CaseError> {
        if self.schema_text.is_some() {
            return Err(repeated("schema"));
        }
        // The same schema as an earlier line: no need to parse it again.
        let known = cache
            .iter()
            .enumerate()
            .filter(|(_, c)| c.schema_text.starts_with(['{', '"']))
            .find_map(|(i, c)| p.skip_known(&c.schema_text).map(|raw| (i, raw)));
        self.schema_text = Some(match known {
            Some((i, raw)) => {
                self.schema_hit = Some(i);
                raw
            }
            None => {
                p.value_with_text()
                    .map_err(|e| match e {
                        ParseError::Duplicate { path } => {
                            CaseError::Bad(format!("the schema repeats the key {path:?}"))
                        }
                        other => syntax(other),
                    })?
                    .1
            }
        });
        Ok(())
    }

    /// The `required` member's raw text (a cached list is skipped without parsing).
    fn read_required(&mut self, p: &mut Parser<'a>, cache: &[Cached]) -> Result<(), CaseError> {
        let known = cache
            .iter()
            .filter(|c| c.required_text.starts_with('['))
            .find_map(|c| p.skip_known(&c.required_text));
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
        let (v, _) = p.value_with_text().map_err(|e| match e {
            ParseError::Duplicate { path } => CaseError::DuplicateInArgs(path),
            other => syntax(other),
        })?;
        self.args = Some(v);
        Ok(())
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

fn judge(
    case: RawCase<'_>,
    duplicate: Option<String>,
    opts: &Options,
    cache: &mut Vec<Cached>,
) -> Result<Judged, String> {
    let Some(schema_text) = case.schema_text else {
        return Err("missing \"schema\"".into());
    };
    let form = case.form.or(opts.form);
    let same = |c: &Cached| c.required_text == case.required_text && c.form == form;
    let hit = case.schema_hit.filter(|&i| same(&cache[i]));
    let idx = match hit.or_else(|| {
        cache
            .iter()
            .position(|c| c.schema_text == schema_text && same(c))
    }) {
        Some(i) => i,
        None => {
            let compiled = compile(schema_text, case.required_text, form, opts);
            if cache.len() == CACHE {
                cache.remove(0);
            }
            cache.push(Cached {
                schema_text: schema_text.to_owned(),
                required_text: case.required_text.to_owned(),
                form,
                schema: compiled,
            });
            cache.len() - 1
        }
    };
    let schema = match &cache[idx].schema {
        Ok(s) => s,
        Err(e) => return Err(e.clone()),
    };
    let parsed_text;
    let args = match (case.args, case.args_text) {
        (Some(_), Some(_)) => return Err("both \"args\" and \"args_text\"".into()),
        (None, None) => return Err("missing \"args\" (or \"args_text\")".into()),
        (Some(a), None) => {
            if let Some(path) = duplicate {
                return Ok((
                    schema.form,
                    Err(vec![Violation {
                        kind: super::CheckKind::Parse,
                        arg: path.clone(),
                        message: format!("duplicate arg: {path}"),
                    }]),
                ));
            }
            a
        }
        (None, Some(text)) => {
            parsed_text = text;
            match super::json::parse(&parsed_text) {
                Ok(a) => a,
                Err(e) => {
                    return Ok((
                        schema.form,
                        Err(vec![Violation {
                            kind: super::CheckKind::Parse,
                            arg: match &e {
                                ParseError::Duplicate { path } => path.clone(),
                                ParseError::Syntax { .. } => String::new(),
                            },
                            message: e.message(),
                        }]),
                    ));
                }
            }
        }
    };
    let verdict = if opts.all {
        let all = super::validate_json_all(schema, &args, &opts.rules);
        if all.is_empty() { Ok(()) } else { Err(all) }
    } else {
        super::validate_json(schema, &args, &opts.rules).map_err(|v| vec![v])
    };
    Ok((schema.form, verdict))
}

/// Compile a schema from the raw texts of a case (a cache miss).
fn compile(
    schema_text: &str,
    required_text: &str,
    form: Option<Form>,
    opts: &Options,
) -> Result<Schema, String> {
    let schema = super::json::parse(schema_text).map_err(|e| format!("schema: {e}"))?;
    let required = if required_text.is_empty() {
        None
    } else {
        Some(super::json::parse(required_text).map_err(|e| format!("required: {e}"))?)
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
    super::cases::resolve_schema_as(&schema, &names, &opts.named, form)
        .map_err(|e| format!("schema: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &str, all: bool) -> Vec<String> {
        let mut out = Vec::new();
        let opts = Options {
            all,
            ..Options::default()
        };
        run(input.as_bytes(), &mut out, &opts).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn one_verdict_per_line_in_order() {
        let s = r#""schema": {"city": "str", "days": "int"}, "required": ["city"]"#;
        let input = format!(
            "{{{s}, \"args\": {{\"city\": \"Paris\", \"days\": 3}}}}\n\
             {{{s}, \"args\": {{\"days\": 3}}}}\n\
             not a case\n\
             {{{s}, \"args_text\": \"{{\\\"city\\\": \\\"P\\\", \\\"city\\\": \\\"Q\\\"}}\"}}\n\
             {{{s}, \"args\": {{\"city\": \"P\", \"days\": 1, \"days\": 2}}}}\r\n\
             {{{s}, \"args\": {{\"city\": \"P\", \"days\": 123456789012345678901234567890}}}}\n\
             {{\"schema\": {{\"city\": \"text\"}}, \"args\": {{}}}}\n\
             \n\
             {{{s}, \"args_text\": \"{{\\\"city\\\": \"}}"
        );
        let got = lines(&input, false);
        assert_eq!(
            got,
            [
                r#"{"ok": true, "error": ""}"#,
                r#"{"ok": false, "error": "missing required arg: city"}"#,
                r#"{"ok": false, "error": "bad case: a case must be a JSON object"}"#,
                r#"{"ok": false, "error": "duplicate arg: city"}"#,
                r#"{"ok": false, "error": "duplicate arg: days"}"#,
                r#"{"ok": true, "error": ""}"#,
                r#"{"ok": false, "error": "bad case: schema: flat schema: unknown type \"text\" for \"city\" (use str, int, float, bool, list or dict)"}"#,
                r#"{"ok": false, "error": "bad case: empty line"}"#,
                r#"{"ok": false, "error": "invalid JSON: expected a value, found the end of the text at line 1 column 10"}"#,
            ]
        );
    }

    #[test]
    fn all_lists_every_failure() {
        let got = lines(
            r#"{"schema": {"a": "int"}, "required": ["a"], "args": {"x": 1, "y": 2}}"#,
            true,
        );
        assert_eq!(
            got,
            [
                r#"{"ok": false, "error": "missing required arg: a", "errors": ["missing required arg: a", "unknown arg: x", "unknown arg: y"], "form": "flat"}"#
            ]
        );
    }

    #[test]
    fn bad_cases_do_not_stop_the_run() {
        let got = lines(
            "{\"args\": {}}\n{\"schema\": {}, \"args\": {}, \"args_text\": \"{}\"}\n{\"schema\": {}}\n[1]\n{\"schema\": {}, \"schema\": {}, \"args\": {}}\n{\"schema\": {}, \"form\": \"flat\", \"args\": {}}\n",
            false,
        );
        assert_eq!(got.len(), 6);
        assert!(got[..5].iter().all(|l| l.contains("bad case: ")), "{got:?}");
        assert_eq!(got[5], r#"{"ok": true, "error": ""}"#);
    }
}

#[cfg(test)]
mod reader_tests {
    use super::*;

    #[test]
    fn newline_search() {
        for len in 0..40 {
            for at in 0..len {
                let mut v = vec![b'x'; len];
                v[at] = b'\n';
                assert_eq!(find_newline(&v), Some(at));
            }
            assert_eq!(find_newline(&vec![b'y'; len]), None);
        }
        assert_eq!(find_newline("ééé\né".as_bytes()), Some(6));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_refused_alone() {
        let ok = b"{\"schema\": {}, \"form\": \"flat\", \"args\": {}}\n";
        let mut input = ok.to_vec();
        input.extend_from_slice(b"{\"schema\": \xff}\r\n");
        input.extend_from_slice(ok);
        let mut out = Vec::new();
        let stats = run(&input[..], &mut out, &Options::default()).unwrap();
        assert_eq!((stats.lines, stats.ok, stats.bad), (3, 2, 1));
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1],
            r#"{"ok": false, "error": "bad case: the line is not UTF-8 (byte 12)"}"#
        );
        assert_eq!(lines[2], r#"{"ok": true, "error": ""}"#);
    }

    #[test]
    fn a_line_over_the_cap_stops_the_run_with_an_error() {
        let input = format!("{}\n", "a".repeat(crate::input::MAX_LINE_BYTES + 10));
        let mut out = Vec::new();
        let err = run(input.as_bytes(), &mut out, &Options::default()).unwrap_err();
        assert!(
            err.to_string().starts_with("line 1 is longer than"),
            "{err}"
        );
    }

    #[test]
    fn lines_longer_than_the_buffer_and_no_final_newline() {
        let big = format!(
            "{{\"schema\": {{\"s\": \"str\"}}, \"args\": {{\"s\": \"{}\"}}}}",
            "a".repeat(3 << 20)
        );
        let input = format!("{big}\n{big}");
        let mut out = Vec::new();
        let stats = run(input.as_bytes(), &mut out, &Options::default()).unwrap();
        assert_eq!(stats.lines, 2);
        assert_eq!(stats.ok, 2);
        assert_eq!(
            out,
            b"{\"ok\": true, \"error\": \"\"}\n{\"ok\": true, \"error\": \"\"}\n"
        );
    }
}
