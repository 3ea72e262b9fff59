//! `audit --json`: a line a call (`record`, `call_id`, `tool`, `ok`, `error`, `findings`),
//! a line a conversation (`"conversation": true`, its counts and findings), and a last
//! `{"summary": ...}` line with the counts by kind. Text is escaped so that nothing in it
//! steers a terminal.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::Arc;

use serde_json::{Value, json};

use crate::validate::json::{dumps, push_str_json};

use super::convo::{Call, Finding};
use super::{Conversation, Kind, Place, Sink, Totals};

/// Writes JSON lines as conversations come.
pub struct JsonSink<W: Write> {
    out: W,
    counts: BTreeMap<Kind, usize>,
    buf: String,
    records: Records,
}

impl<W: Write> JsonSink<W> {
    pub fn new(out: W) -> Self {
        JsonSink {
            out,
            counts: BTreeMap::new(),
            buf: String::new(),
            records: Records::default(),
        }
    }

    /// The last line: the run's counts and the findings by kind (every kind, zero or not).
    pub fn finish(mut self, totals: &Totals) -> io::Result<W> {
        let findings: serde_json::Map<String, Value> = Kind::ALL
            .iter()
            .map(|k| {
                (
                    k.name().to_owned(),
                    json!(self.counts.get(k).copied().unwrap_or(0)),
                )
            })
            .collect();
        let line = json!({"summary": {
            "records": totals.records,
            "bad_records": totals.bad_records,
            "conversations": totals.conversations,
            "calls": totals.calls,
            "findings": findings,
        }});
        writeln!(self.out, "{}", dumps(&line))?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// The bytes a JSON string holds as they are: printable ASCII but `"` and `\\`.
const PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0x20;
    while b < 0x7f {
        t[b] = b != b'"' as usize && b != b'\\' as usize;
        b += 1;
    }
    t
};

/// A JSON string, every character that could steer a terminal escaped (the validator's
/// writer escapes controls; the rest of the table is escaped here).
fn string(s: &str, out: &mut String) {
    // Most are short names and ids with nothing to escape: written as they are.
    if s.bytes().all(|b| PLAIN[usize::from(b)]) {
        out.reserve(s.len() + 2);
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else if s.is_ascii() {
        push_str_json(s, out);
    } else {
        let mut quoted = String::with_capacity(s.len() + 2);
        push_str_json(s, &mut quoted);
        out.push_str(&crate::sanitize::escape_json_controls(quoted));
    }
}

fn list<'a>(items: impl Iterator<Item = &'a str>, out: &mut String) {
    out.push('[');
    for (i, s) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        string(s, out);
    }
    out.push(']');
}

fn opt_string(s: Option<&str>, out: &mut String) {
    match s {
        Some(s) => string(s, out),
        None => out.push_str("null"),
    }
}

/// A count, in decimal (no formatter: a few are written for every record).
fn number(n: usize, out: &mut String) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// How each line starts, `{"record": "FILE:LINE"`: the place as [`string`] writes it.
/// Escaping is character by character, so the file's part is written once for all the
/// records of the file and the line put after it.
#[derive(Default)]
struct Records {
    /// The file last written, and `{"record": "FILE:` for it.
    file: Option<(Arc<str>, String)>,
    line: String,
}

impl Records {
    fn start(&mut self, place: &Place) -> &str {
        let same = matches!(&self.file, Some((f, _)) if Arc::ptr_eq(f, &place.file));
        if !same {
            let mut head = String::from("{\"record\": ");
            string(&format!("{}:", place.file), &mut head);
            head.pop();
            self.file = Some((place.file.clone(), head));
        }
        let head = self.file.as_ref().map_or("", |(_, h)| h.as_str());
        self.line.clear();
        self.line.push_str(head);
        number(place.line, &mut self.line);
        self.line.push('"');
        &self.line
    }
}

/// The call lines and the conversation line of `conv`; `record` starts each
/// ([`Records::start`]).
fn lines(conv: &Conversation, record: &str, out: &mut String) {
    let by_call = by_call(conv);
    let mut at = 0;
    for (i, c) in conv.calls.iter().enumerate() {
        let start = at;
        while by_call
            .get(at)
            .is_some_and(|&f| conv.findings[f].call == Some(i))
        {
            at += 1;
        }
        let mine: Vec<&Finding> = by_call[start..at]
            .iter()
            .map(|&f| &conv.findings[f])
            .collect();
        call_line(c, &mine, record, out);
    }
    conversation_line(conv, record, out);
}

/// One call's line; `record` is its start, written as JSON already. Each key is written
/// with the punctuation around it in one piece (a few dozen pieces a record).
fn call_line(c: &Call, mine: &[&Finding], record: &str, out: &mut String) {
    out.push_str(record);
    out.push_str(", \"call_id\": ");
    opt_string(c.id.as_deref(), out);
    out.push_str(", \"tool\": ");
    string(&c.tool, out);
    match (c.verdict.ok(), &c.verdict) {
        // Passed: no error, no path.
        (Some(true), _) => out.push_str(", \"ok\": true, \"error\": \"\", \"path\": \"\""),
        (ok, v) => {
            let error: std::borrow::Cow<'_, str> = match (ok, v) {
                (Some(_), v) => v.error_text(&c.tool).unwrap_or_default(),
                (None, super::Verdict::Refused(why)) => {
                    format!("not judged: the declaration cannot be honoured: {why}").into()
                }
                (None, super::Verdict::Provided(kind)) => format!(
                    "not judged: declared as a provider-defined tool ({kind}) with no input schema"
                )
                .into(),
                (None, _) => "not judged: no declarations".into(),
            };
            out.push_str(match ok {
                Some(_) => ", \"ok\": false, \"error\": ",
                None => ", \"ok\": null, \"error\": ",
            });
            string(&error, out);
            out.push_str(", \"path\": ");
            string(v.path(), out);
        }
    }
    out.push_str(", \"turn\": ");
    number(c.turn as usize, out);
    out.push_str(if c.result.is_some() {
        ", \"answered\": true, \"findings\": "
    } else {
        ", \"answered\": false, \"findings\": "
    });
    if mine.is_empty() {
        out.push_str("[], \"details\": []}\n");
        return;
    }
    list(mine.iter().map(|f| f.kind.name()), out);
    out.push_str(", \"details\": ");
    list(mine.iter().map(|f| f.detail.as_str()), out);
    out.push_str("}\n");
}

/// The conversation's line; `record` is its start, written as JSON already.
fn conversation_line(conv: &Conversation, record: &str, out: &mut String) {
    out.push_str(record);
    out.push_str(", \"conversation\": true, \"format\": ");
    string(conv.format.name(), out);
    if conv.part > 0 {
        out.push_str(", \"part\": ");
        number(conv.part as usize, out);
        out.push_str(", \"cut\": ");
        string(&super::report::cut_note(conv.part), out);
    }
    for (k, n) in [
        (", \"turns\": ", conv.turns as usize),
        (", \"calls\": ", conv.calls.len()),
        (", \"repairs\": ", conv.repairs as usize),
        (", \"max_parallel\": ", conv.max_parallel as usize),
        (
            ", \"longest_failing_streak\": ",
            conv.longest_failing_streak as usize,
        ),
        (", \"declared\": ", conv.declared),
    ] {
        out.push_str(k);
        number(n, out);
    }
    if conv.findings.is_empty() {
        out.push_str(", \"findings\": [], \"notes\": []}\n");
        return;
    }
    out.push_str(", \"findings\": ");
    list(conv.findings.iter().map(|f| f.kind.name()), out);
    out.push_str(", \"notes\": [");
    for (i, f) in conv
        .findings
        .iter()
        .filter(|f| f.call.is_none())
        .enumerate()
    {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str("{\"kind\": ");
        string(f.kind.name(), out);
        out.push_str(", \"id\": ");
        opt_string(f.id.as_deref(), out);
        out.push_str(", \"detail\": ");
        string(&f.detail, out);
        out.push('}');
    }
    out.push_str("]}\n");
}

/// The indexes of the findings about a call, in call order (a stable sort: the order found
/// within a call), so that each call's are read once.
fn by_call(conv: &Conversation) -> Vec<usize> {
    let mut order: Vec<usize> = (0..conv.findings.len())
        .filter(|&f| conv.findings[f].call.is_some())
        .collect();
    order.sort_by_key(|&f| conv.findings[f].call);
    order
}

impl<W: Write> Sink for JsonSink<W> {
    fn conversation(&mut self, conv: &Conversation) -> io::Result<()> {
        for f in &conv.findings {
            *self.counts.entry(f.kind).or_default() += 1;
        }
        self.buf.clear();
        let record = self.records.start(&conv.place);
        lines(conv, record, &mut self.buf);
        self.out.write_all(self.buf.as_bytes())
    }

    fn bad_record(&mut self, place: Place, why: String) -> io::Result<()> {
        let mut text = self.records.start(&place).to_owned();
        text.push_str(", \"bad_record\": ");
        string(&why, &mut text);
        text.push_str("}\n");
        self.out.write_all(text.as_bytes())
    }
}
