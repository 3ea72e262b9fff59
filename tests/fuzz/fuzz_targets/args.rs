//! Model-written argument text against every shipped schema, declarations in the other
//! shapes that nest, and the get_ticket executor.
//! Byte 0 switches checks off; the rest is the args text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooldojo::executor::{self, Context, ExecRules, Safeguard, Store};
use tooldojo::switches::Switch;
use tooldojo::validate::json;
use tooldojo_fuzz::{assert_first_is_head, rules_from, shipped};

fuzz_target!(|data: &[u8]| {
    let Some((&bits, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let s = shipped();
    let rules = rules_from(bits);
    for schema in &s.schemas {
        let first = schema.check(text, &rules);
        let all = schema.check_all(text, &rules);
        assert_first_is_head(&first, &all, "args text");
        // Judged again from a serde value: the same verdict, wherever the value holds the
        // args exactly (it cannot hold integers beyond 64 bits or infinite floats).
        if let Ok(parsed) = json::parse(text) {
            let value = parsed.to_value();
            if json::Json::from_value(&value) == parsed {
                let again = schema.check(&value, &rules);
                assert_eq!(first, again, "text and value verdicts differ");
            }
        }
    }
    if let Ok(parsed) = json::parse(text) {
        let _ = parsed.show();
        let _ = json::dumps(&parsed.to_value());
    }
    let store = Store::from_records(s.records.clone());
    // Bits 5-7 switch off one executor safeguard (past the last one: none).
    let mut exec_rules = ExecRules::ALL_ON;
    if let Some(s) = Safeguard::ALL.get(usize::from(bits >> 5)) {
        exec_rules.set(*s, false);
    }
    let ctx = Context::reader(if text.len() % 2 == 0 { "alpha" } else { "beta" });
    let out = executor::execute_text("get_ticket", text, &ctx, &store, &exec_rules);
    let _ = out.envelope.to_json();
});
