//! Criterion: one validation (seed weather schema), by text and by parsed value, and one
//! JSON-lines case through the whole reader.

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use std::hint::black_box;
use tooldojo::validate::{self, Validator, ValidatorRules, jsonl};

fn bench(c: &mut Criterion) {
    let schema = Validator::options()
        .required(&["city".into()])
        .compile_value(&json!({"city": "str", "days": "int"}))
        .unwrap();
    let rules = ValidatorRules::ALL_ON;
    let ok = r#"{"city": "Paris", "days": 3}"#;
    let bad = r#"{"city": "Paris", "days": true}"#;
    c.bench_function("validate_text ok", |b| {
        b.iter(|| schema.check(black_box(ok), &rules))
    });
    c.bench_function("validate_text type error", |b| {
        b.iter(|| schema.check(black_box(bad), &rules))
    });
    let value = json!({"city": "Paris", "days": 3});
    c.bench_function("validate (serde_json Value)", |b| {
        b.iter(|| schema.validate(black_box(&value)))
    });
    let tool =
        Validator::from_value(&validate::tools::declaration("search_tickets").unwrap()).unwrap();
    c.bench_function("validate_text search_tickets value error", |b| {
        b.iter(|| {
            tool.check(
                black_box(r#"{"query": "crash", "page_size": 99999999}"#),
                &rules,
            )
        })
    });
    let line = "{\"schema\": {\"city\": \"str\", \"days\": \"int\"}, \"required\": [\"city\"], \"args\": {\"city\": \"Paris\", \"days\": 3}}\n".repeat(64);
    let opts = jsonl::Options::default();
    c.bench_function("jsonl 64 cases", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(2048);
            jsonl::run(black_box(line.as_bytes()), &mut out, &opts).unwrap();
            out
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
