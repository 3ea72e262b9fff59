//! `audit --json`: a line a call (`record`, `call_id`, `tool`, `ok`, `error`, `findings`),
//! a line a conversation (`"conversation": true`, its counts and findings), and a last
//! `{"summary": ...}` line with the counts by kind. Text is escaped so that nothing in it
//! steers a terminal.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde_json::{Value, json};

use crate::validate::json::dumps;

use super::{Conversation, Kind, Place, Sink, Totals};

/// Writes JSON lines as conversations come.
pub struct JsonSink<W: Write> {
    out: W,
    counts: BTreeMap<Kind, usize>,
    buf: String,
}

impl<W: Write> JsonSink<W> {
    pub fn new(out: W) -> Self {
        JsonSink {
            out,
            counts: BTreeMap::new(),
            buf: String::new(),
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

/// A JSON line, with every character that could steer a terminal escaped.
fn push_line(line: String, out: &mut String) {
    out.push_str(&crate::sanitize::escape_json_controls(line));
    out.push('\n');
}

/// The call lines and the conversation line of `conv`.
pub fn lines(conv: &Conversation, out: &mut String) {
    let record = conv.place.to_string();
    for (i, c) in conv.calls.iter().enumerate() {
        let mine: Vec<_> = conv.findings.iter().filter(|f| f.call == Some(i)).collect();
        let error = match (c.verdict.ok(), &c.verdict) {
            (Some(true), _) => Value::from(""),
            (Some(false), v) => Value::from(v.error(&c.tool).unwrap_or_default()),
            (None, super::Verdict::Refused(why)) => Value::from(format!(
                "not judged: the declaration cannot be honoured: {why}"
            )),
            (None, _) => Value::from("not judged: no declarations"),
        };
        let line = json!({
            "record": record,
            "call_id": c.id,
            "tool": c.tool,
            "ok": c.verdict.ok(),
            "error": error,
            "path": c.verdict.path(),
            "turn": c.turn,
            "answered": c.result.is_some(),
            "findings": mine.iter().map(|f| f.kind.name()).collect::<Vec<_>>(),
            "details": mine.iter().map(|f| f.detail.as_str()).collect::<Vec<_>>(),
        });
        push_line(dumps(&line), out);
    }
    let notes: Vec<Value> = conv
        .findings
        .iter()
        .filter(|f| f.call.is_none())
        .map(|f| json!({"kind": f.kind.name(), "id": f.id, "detail": f.detail}))
        .collect();
    let line = json!({
        "record": record,
        "conversation": true,
        "format": conv.format.name(),
        "turns": conv.turns,
        "calls": conv.calls.len(),
        "repairs": conv.repairs,
        "max_parallel": conv.max_parallel,
        "longest_failing_streak": conv.longest_failing_streak,
        "declared": conv.declared,
        "findings": conv.findings.iter().map(|f| f.kind.name()).collect::<Vec<_>>(),
        "notes": notes,
    });
    push_line(dumps(&line), out);
}

impl<W: Write> Sink for JsonSink<W> {
    fn conversation(&mut self, conv: Conversation) -> io::Result<()> {
        for f in &conv.findings {
            *self.counts.entry(f.kind).or_default() += 1;
        }
        self.buf.clear();
        lines(&conv, &mut self.buf);
        self.out.write_all(self.buf.as_bytes())
    }

    fn bad_record(&mut self, place: Place, why: String) -> io::Result<()> {
        let line = json!({"record": place.to_string(), "bad_record": why});
        let mut text = String::new();
        push_line(dumps(&line), &mut text);
        self.out.write_all(text.as_bytes())
    }
}
