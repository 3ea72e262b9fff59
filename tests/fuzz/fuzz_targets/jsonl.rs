//! Bytes fed to `validate --jsonl`: one verdict line per input line, each a JSON object
//! with a boolean `ok`, and the `--all` run agrees with the first-failure run line by line.
//! The first-failure run judges the args of a known tool straight from their bytes where it
//! can (flat args, and nested args that pass: `eval/bytes.rs`), while `--all` always parses
//! them, so the two ways are checked against each other.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tooldojo::validate::jsonl::{self, Options};
use tooldojo_fuzz::{rules_from, shipped};

fn verdicts(data: &[u8], all: bool, bits: u8) -> (jsonl::Stats, Vec<Value>) {
    let opts = Options {
        all,
        rules: rules_from(bits),
        named: shipped().named.clone(),
        form: None,
        formats: Default::default(),
    };
    let mut out = Vec::new();
    let stats = jsonl::run(data, &mut out, &opts).expect("writing to memory cannot fail");
    let text = String::from_utf8(out).expect("verdicts are UTF-8");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("verdict {l:?} is not JSON: {e}"))
        })
        .collect();
    (stats, lines)
}

fuzz_target!(|data: &[u8]| {
    let Some((&bits, rest)) = data.split_first() else {
        return;
    };
    let (stats, first) = verdicts(rest, false, bits);
    let expected_lines = match rest {
        [] => 0,
        _ => rest.split(|&b| b == b'\n').count() - usize::from(rest.ends_with(b"\n")),
    };
    assert_eq!(stats.lines, expected_lines, "one verdict per input line");
    assert_eq!(first.len(), stats.lines);
    assert_eq!(stats.ok + stats.rejected + stats.bad, stats.lines);
    assert!(stats.from_bytes <= stats.ok + stats.rejected);
    let (_, every) = verdicts(rest, true, bits);
    assert_eq!(first.len(), every.len());
    for (a, b) in first.iter().zip(&every) {
        assert!(a["ok"].is_boolean(), "{a}");
        assert_eq!(a["ok"], b["ok"], "{a} vs {b}");
        assert_eq!(a["error"], b["error"], "{a} vs {b}");
        let errors = b["errors"].as_array().expect("--all lists errors");
        assert_eq!(
            errors.first().unwrap_or(&Value::String(String::new())),
            &b["error"]
        );
    }
});
