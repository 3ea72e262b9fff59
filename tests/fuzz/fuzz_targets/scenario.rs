//! A scenario file: parsed and linted as `trace FILE` does, and when it passes, run on the
//! real orchestrator and written as JSON lines, the human timeline and a Chrome trace.
//! A run must replay byte for byte.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooldojo::content::{TextFile, parse_json};
use tooldojo::orchestrator::{self, Scenario};
use tooldojo_fuzz::shipped;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = TextFile {
        display: "fuzz.json".into(),
        rel: "fuzz.json".into(),
        text: text.to_owned(),
    };
    let Ok(mut scenario) = parse_json::<Scenario>(&file) else {
        return;
    };
    scenario.name = "fuzz".into();
    if scenario.lint().is_err() {
        return;
    }
    if scenario.records.is_none() {
        scenario.default_records = shipped().records.clone();
    }
    let seed = text.len() as u64 % 4;
    let run = orchestrator::run_blocking(&scenario, seed);
    let jsonl = run.to_jsonl();
    let _ = run.timeline();
    let _ = orchestrator::chrome_trace(&run).to_string();
    let again = orchestrator::run_blocking(&scenario, seed);
    assert_eq!(
        jsonl,
        again.to_jsonl(),
        "the same scenario and seed replay the same bytes"
    );
});
