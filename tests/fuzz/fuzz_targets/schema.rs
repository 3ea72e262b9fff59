//! Schema text (any shape: the flat form, JSON Schema at any depth, every declaration
//! shape), a required list and args text, separated by newlines: the schema is compiled
//! (as tool-call args and as any value, formats checked or noted), and if it compiles the
//! args are judged by it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooldojo::validate::{self, Formats, Validator, ValidatorRules};
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
    let formats = if args.len() % 2 == 0 { Formats::Assert } else { Formats::Annotate };
    let opts = Validator::options().required(&required).formats(formats);
    let Ok(schema) = opts.compile_text(schema_text) else {
        return;
    };
    let _ = format!("{schema:?}");
    let _ = (schema.name(), schema.unknown_keywords(), schema.unknown_formats());
    let rules = ValidatorRules::ALL_ON;
    let first = schema.check(args, &rules);
    let all = schema.check_all(args, &rules);
    assert_first_is_head(&first, &all, "schema");
    if required.is_empty() {
        if let Ok(any) = opts.clone().any_value(true).compile_text(schema_text) {
            let first = any.check(args, &rules);
            assert_first_is_head(&first, &any.check_all(args, &rules), "any value");
        }
    }
    // The same schema read back from its parsed value judges the same, wherever a `Value`
    // holds the schema exactly (it cannot hold integers beyond 64 bits).
    let Ok(parsed) = validate::json::parse(schema_text) else {
        return;
    };
    let value = parsed.to_value();
    if validate::json::Json::from_value(&value) != parsed {
        return;
    }
    let again = opts.compile_value(&value).expect("compiled from text, so from its value");
    assert_eq!(first, again.check(args, &rules), "text and value schemas disagree");
});
