//! Criterion: one get_ticket call through the registry (success and two refusals).

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use std::hint::black_box;
use tooldojo::executor::{self, Context, ExecRules, Record, Store};

fn bench(c: &mut Criterion) {
    let records: Vec<Record> =
        serde_json::from_str(include_str!("../fixtures/tickets.json")).unwrap();
    let store = Store::from_records(records);
    let ctx = Context {
        tenant: "alpha".into(),
        can_read_tickets: true,
        can_write_tickets: false,
    };
    let args = json!({"ticket_id": "TKT-104"});
    c.bench_function("execute get_ticket ok", |b| {
        b.iter(|| executor::execute(black_box("get_ticket"), black_box(&args), &ctx, &store))
    });
    let bad = json!({"ticket_id": "TKT-104", "tenant": "beta"});
    c.bench_function("execute get_ticket invalid_arguments", |b| {
        b.iter(|| executor::execute(black_box("get_ticket"), black_box(&bad), &ctx, &store))
    });
    c.bench_function("execute_text get_ticket ok", |b| {
        b.iter(|| {
            executor::execute_text(
                black_box("get_ticket"),
                black_box(r#"{"ticket_id": "TKT-104"}"#),
                &ctx,
                &store,
                &ExecRules::ALL_ON,
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
