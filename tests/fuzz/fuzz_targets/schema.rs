//! Schema text (any of the three forms), a required list and args text, separated by
//! newlines: the schema is compiled, and if it compiles the args are judged by it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooldojo::validate::{self, Schema, ValidatorRules};
use tooldojo_fuzz::assert_first_is_head;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = text.splitn(3, '\n');
    let schema_text = parts.next().unwrap_or("");
    let required: Vec<String> =
        serde_json::from_str(parts.next().unwrap_or("")).unwrap_or_default();
    let args = parts.next().unwrap_or("{}");
    let Ok(schema) = Schema::from_text(schema_text, &required, None) else {
        return;
    };
    let _ = format!("{schema:?}");
    let rules = ValidatorRules::ALL_ON;
    let first = validate::validate_text(&schema, args, &rules);
    let all = validate::validate_text_all(&schema, args, &rules);
    assert_first_is_head(&first, &all, "schema");
    // The same schema read back from its parsed value compiles to the same thing, wherever
    // a `Value` holds the schema exactly (it cannot hold integers beyond 64 bits).
    let Ok(parsed) = validate::json::parse(schema_text) else {
        return;
    };
    let value = parsed.to_value();
    if validate::json::Json::from_value(&value) != parsed {
        return;
    }
    let again =
        Schema::from_json(&value, &required).expect("compiled from text, so from its value");
    assert_eq!(format!("{schema:?}"), format!("{again:?}"));
});
