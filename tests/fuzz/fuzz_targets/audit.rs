//! Bytes fed to `tooldojo audit` as a log: a format byte (none, or one named), then the
//! records. Every JSON line parses and is a call, a conversation, a bad record or the last
//! summary, whose counts are the lines'; the human report holds no control character but
//! its line ends; every conversation kept for the replay plays (its run builds, its lanes
//! in order) and draws clean.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

use tooldojo::audit::jsonl::JsonSink;
use tooldojo::audit::report::Report;
use tooldojo::audit::source::ConversationSource;
use tooldojo::audit::{Audit, Conversation, Format, Limits, Options, Place, Sink};
use tooldojo::replay::RunSource;

fn options(byte: u8, keep: bool) -> Options {
    let format = match byte % 8 {
        1..=5 => Some(Format::ALL[usize::from(byte % 8) - 1]),
        _ => None,
    };
    let limits = Limits {
        turns: (byte & 0x10 != 0).then_some(2),
        calls: (byte & 0x20 != 0).then_some(3),
        repairs: (byte & 0x40 != 0).then_some(0),
    };
    Options {
        format,
        limits,
        keep,
        excerpts: byte & 0x80 != 0,
    }
}

#[derive(Default)]
struct Kept(Vec<Conversation>);

impl Sink for Kept {
    fn conversation(&mut self, conv: &Conversation) -> std::io::Result<()> {
        if self.0.len() < 4 {
            self.0.push(conv.clone());
        }
        Ok(())
    }
    fn bad_record(&mut self, _: Place, _: String) -> std::io::Result<()> {
        Ok(())
    }
}

fn steers(ch: char) -> bool {
    (ch.is_control() && ch != '\n') || tooldojo::sanitize::stand_in(ch).is_some() && ch != '\n'
}

fuzz_target!(|data: &[u8]| {
    let Some((&byte, log)) = data.split_first() else {
        return;
    };
    // JSON lines.
    let mut sink = JsonSink::new(Vec::new());
    let mut run = Audit::new(options(byte, false), None, &mut sink);
    run.read("fuzz.jsonl", log).expect("reading memory cannot fail");
    let totals = run.totals;
    let out = sink.finish(&totals).expect("writing memory cannot fail");
    let text = String::from_utf8(out).expect("JSON lines are UTF-8");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?} is not JSON: {e}")))
        .collect();
    let (last, rest) = lines.split_last().expect("a summary line at least");
    let summary = &last["summary"];
    let calls = rest.iter().filter(|l| l.get("call_id").is_some()).count();
    let convs = rest.iter().filter(|l| l["conversation"] == Value::Bool(true)).count();
    let bad = rest.iter().filter(|l| l.get("bad_record").is_some()).count();
    assert_eq!(calls + convs + bad, rest.len(), "every line is of a kind");
    assert_eq!(summary["calls"].as_u64(), Some(calls as u64));
    assert_eq!(summary["conversations"].as_u64(), Some(convs as u64));
    assert_eq!(summary["bad_records"].as_u64(), Some(bad as u64));
    for l in rest.iter().filter(|l| l.get("call_id").is_some()) {
        assert!(l["ok"].is_boolean() || l["ok"].is_null(), "{l}");
    }
    assert!(!text.chars().any(steers), "raw control in the JSON lines");

    // The human report.
    let mut report = Report::new(&["fuzz.jsonl".to_owned()]);
    let mut run = Audit::new(options(byte, false), None, &mut report);
    run.read("fuzz.jsonl", log).expect("reading memory cannot fail");
    let totals = run.totals;
    let mut human = Vec::new();
    report.write(&totals, &mut human).expect("writing memory cannot fail");
    let human = String::from_utf8(human).expect("the report is UTF-8");
    assert!(!human.chars().any(steers), "raw control in the report");

    // The replay of the first conversations.
    let mut kept = Kept::default();
    let mut run = Audit::new(options(byte, true), None, &mut kept);
    run.read("fuzz.jsonl", log).expect("reading memory cannot fail");
    for conv in kept.0 {
        let calls = conv.calls.len();
        let source = ConversationSource::new(conv, "fuzz.jsonl");
        let r = source.build().expect("a kept conversation always plays");
        assert_eq!(r.calls.len(), calls);
    }
});
