//! Model-written argument text against every shipped schema and the get_ticket executor.
//! Byte 0 switches checks off; the rest is the args text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooldojo::executor::{self, Context, ExecRules, Store};
use tooldojo::validate::{self, json};
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
        let first = validate::validate_text(schema, text, &rules);
        let all = validate::validate_text_all(schema, text, &rules);
        assert_first_is_head(&first, &all, "args text");
        // Parsed once and judged again from a serde value: the same verdict.
        if let Ok(value) = validate::parse_args(text) {
            let again = validate::validate_with(schema, &value, &rules);
            assert_eq!(first, again, "text and value verdicts differ");
        }
    }
    if let Ok(parsed) = json::parse(text) {
        let _ = parsed.show();
        let _ = json::dumps(&parsed.to_value());
    }
    let store = Store::from_records(s.records.clone());
    // Bits 5-7 switch off one executor safeguard (6 and 7: none).
    const SAFEGUARDS: [&str; 6] = [
        "allowlist",
        "exact_shape",
        "id_format",
        "read_permission",
        "tenant_scoping",
        "copy_on_return",
    ];
    let mut exec_rules = ExecRules::default();
    if let Some(name) = SAFEGUARDS.get(usize::from(bits >> 5)) {
        exec_rules.set(name, false);
    }
    let ctx = Context::reader(if text.len() % 2 == 0 { "alpha" } else { "beta" });
    let out = executor::execute_text("get_ticket", text, &ctx, &store, &exec_rules);
    let _ = out.envelope.to_json();
});
