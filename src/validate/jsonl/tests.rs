//! The JSON-lines run: verdicts, bad lines, reading, and the prefix a line resumes from.

use super::*;

fn lines(input: &str, all: bool) -> Vec<String> {
    let mut out = Vec::new();
    let opts = Options {
        all,
        ..Options::default()
    };
    run(input.as_bytes(), &mut out, &opts).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn one_verdict_per_line_in_order() {
    let s = r#""schema": {"city": "str", "days": "int"}, "required": ["city"]"#;
    let input = format!(
        "{{{s}, \"args\": {{\"city\": \"Paris\", \"days\": 3}}}}\n\
         {{{s}, \"args\": {{\"days\": 3}}}}\n\
         not a case\n\
         {{{s}, \"args_text\": \"{{\\\"city\\\": \\\"P\\\", \\\"city\\\": \\\"Q\\\"}}\"}}\n\
         {{{s}, \"args\": {{\"city\": \"P\", \"days\": 1, \"days\": 2}}}}\r\n\
         {{{s}, \"args\": {{\"city\": \"P\", \"days\": 123456789012345678901234567890}}}}\n\
         {{\"schema\": {{\"city\": \"text\"}}, \"args\": {{}}}}\n\
         \n\
         {{{s}, \"args_text\": \"{{\\\"city\\\": \"}}"
    );
    let got = lines(&input, false);
    assert_eq!(
        got,
        [
            r#"{"ok": true, "error": ""}"#,
            r#"{"ok": false, "error": "missing required arg: city"}"#,
            r#"{"ok": false, "error": "bad case: not JSON: expected a value at line 1 column 1"}"#,
            r#"{"ok": false, "error": "duplicate arg: city"}"#,
            r#"{"ok": false, "error": "duplicate arg: days"}"#,
            r#"{"ok": true, "error": ""}"#,
            r#"{"ok": false, "error": "bad case: schema: flat schema: unknown type \"text\" for \"city\" (use str, int, float, bool, list or dict)"}"#,
            r#"{"ok": false, "error": "bad case: empty line"}"#,
            r#"{"ok": false, "error": "invalid JSON: expected a value, found the end of the text at line 1 column 10"}"#,
        ]
    );
}

#[test]
fn all_lists_every_failure() {
    let got = lines(
        r#"{"schema": {"a": "int"}, "required": ["a"], "args": {"x": 1, "y": 2}}"#,
        true,
    );
    assert_eq!(
        got,
        [
            r#"{"ok": false, "error": "missing required arg: a", "errors": ["missing required arg: a", "unknown arg: x", "unknown arg: y"], "form": "flat"}"#
        ]
    );
}

#[test]
fn bad_cases_do_not_stop_the_run() {
    let got = lines(
        "{\"args\": {}}\n{\"schema\": {}, \"args\": {}, \"args_text\": \"{}\"}\n{\"schema\": {}}\n[1]\n{\"schema\": {}, \"schema\": {}, \"args\": {}}\n{\"schema\": {}, \"form\": \"flat\", \"args\": {}}\n",
        false,
    );
    assert_eq!(got.len(), 6);
    assert!(got[..5].iter().all(|l| l.contains("bad case: ")), "{got:?}");
    assert_eq!(got[5], r#"{"ok": true, "error": ""}"#);
}

#[test]
fn a_line_that_is_not_utf8_is_refused_alone() {
    let ok = b"{\"schema\": {}, \"form\": \"flat\", \"args\": {}}\n";
    let mut input = ok.to_vec();
    input.extend_from_slice(b"{\"schema\": \xff}\r\n");
    input.extend_from_slice(ok);
    let mut out = Vec::new();
    let stats = run(&input[..], &mut out, &Options::default()).unwrap();
    assert_eq!((stats.lines, stats.ok, stats.bad), (3, 2, 1));
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1],
        r#"{"ok": false, "error": "bad case: the line is not UTF-8 (byte 12)"}"#
    );
    assert_eq!(lines[2], r#"{"ok": true, "error": ""}"#);
}

#[test]
fn a_line_over_the_cap_stops_the_run_with_an_error() {
    let input = format!("{}\n", "a".repeat(crate::input::MAX_LINE_BYTES + 10));
    let mut out = Vec::new();
    let err = run(input.as_bytes(), &mut out, &Options::default()).unwrap_err();
    assert!(
        err.to_string().starts_with("line 1 is longer than"),
        "{err}"
    );
}

#[test]
fn a_line_that_is_not_json_says_so_and_json_of_another_kind_says_what_a_case_is() {
    let got = lines("oops\n[1, 2]\n\"a case\"\n{\"schema\": \n", false);
    assert_eq!(
        got,
        [
            r#"{"ok": false, "error": "bad case: not JSON: expected a value at line 1 column 1"}"#,
            r#"{"ok": false, "error": "bad case: a case must be a JSON object"}"#,
            r#"{"ok": false, "error": "bad case: a case must be a JSON object"}"#,
            r#"{"ok": false, "error": "bad case: not JSON: expected a value, found the end of the text at line 1 column 12"}"#,
        ]
    );
}

#[test]
fn lines_longer_than_the_buffer_and_no_final_newline() {
    let big = format!(
        "{{\"schema\": {{\"s\": \"str\"}}, \"args\": {{\"s\": \"{}\"}}}}",
        "a".repeat(3 << 20)
    );
    let input = format!("{big}\n{big}");
    let mut out = Vec::new();
    let stats = run(input.as_bytes(), &mut out, &Options::default()).unwrap();
    assert_eq!(stats.lines, 2);
    assert_eq!(stats.ok, 2);
    assert_eq!(
        out,
        b"{\"ok\": true, \"error\": \"\"}\n{\"ok\": true, \"error\": \"\"}\n"
    );
}

// ---- the prefix a line resumes from ----

/// The verdicts of a whole run, and of each line run alone (a fresh run per line).
fn whole_and_alone(input: &[u8], opts: &Options) -> (String, String) {
    let mut whole = Vec::new();
    run(input, &mut whole, opts).unwrap();
    let mut alone = Vec::new();
    let body = input.strip_suffix(b"\n").unwrap_or(input);
    if !input.is_empty() {
        for line in body.split(|&b| b == b'\n') {
            // With its `\n`, so an empty line is a line.
            run(&[line, b"\n"].concat()[..], &mut alone, opts).unwrap();
        }
    }
    (
        String::from_utf8(whole).unwrap(),
        String::from_utf8(alone).unwrap(),
    )
}

/// Run `input` and check every verdict is the one its line gets alone.
fn same_as_alone(input: &str, all: bool) -> Vec<String> {
    let opts = Options {
        all,
        ..Options::default()
    };
    let (whole, alone) = whole_and_alone(input.as_bytes(), &opts);
    assert_eq!(whole, alone, "input:\n{input}");
    whole.lines().map(str::to_owned).collect()
}

/// Read one line as a case (no cache), with the prefixes kept so far.
/// `text` read as a run reads it: from the kept prefix it starts with, if any (unless read
/// `again`, after a repeated key).
fn read_one<'a>(text: &'a str, again: bool, kept: &mut Prefixes) -> Option<RawCase<'a>> {
    let mut case = RawCase::default();
    let found = if again {
        None
    } else {
        kept.find(text.as_bytes(), None)
    };
    case::read(
        text,
        again,
        &super::cache::Cache::default(),
        (kept, found),
        Vec::new(),
        &mut case,
    )
    .ok()
    .map(|()| case)
}

/// Each of `args` after the start of a case `case`, a line each: their verdicts (each the
/// one its line gets alone) and how many of the lines were judged from their bytes.
fn verdicts_and_from_bytes(case: &str, args: &[&str]) -> (Vec<String>, usize) {
    let input: String = args.iter().map(|a| format!("{case}{a}}}\n")).collect();
    let got = same_as_alone(&input, false);
    let stats = run(input.as_bytes(), &mut Vec::new(), &Options::default()).unwrap();
    (got, stats.from_bytes)
}

const WEATHER: &str =
    r#"{"schema": {"city": "str", "days": "int"}, "required": ["city"], "args": "#;

#[test]
fn flat_args_of_a_known_tool_are_judged_from_their_bytes_as_read_whole() {
    let schema = r#"{"schema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": ["integer", "null"]}}, "required": ["city"], "additionalProperties": false}, "args": "#;
    let args = [
        r#"{"city": "Paris", "days": 3}"#,
        r#"{"city": "Paris", "days": 3.0}"#,
        r#"{"days": null}"#,
        r#"{"city": "Paris", "unit": "C"}"#,
        r#"{"city": true}"#,
        r#"{"city": "x", "city": "y"}"#,
        r#"{"city": "a\"b"}"#,
        r#"{"city": "x", "days": [1]}"#,
        r#"{"city": "x"} "#,
    ];
    let (got, from_bytes) = verdicts_and_from_bytes(schema, &args);
    assert_eq!(
        got,
        [
            r#"{"ok": true, "error": ""}"#,
            r#"{"ok": false, "error": "type error: days expected int or NoneType, got float"}"#,
            r#"{"ok": false, "error": "missing required arg: city"}"#,
            r#"{"ok": false, "error": "unknown arg: unit"}"#,
            r#"{"ok": false, "error": "type error: city expected str, got bool"}"#,
            r#"{"ok": false, "error": "duplicate arg: city"}"#,
            r#"{"ok": true, "error": ""}"#,
            r#"{"ok": false, "error": "type error: days expected int or NoneType, got list"}"#,
            r#"{"ok": true, "error": ""}"#,
        ]
    );
    // All but the first line (which compiles the schema), the repeat and the nested value
    // (which fails its type) go the quick way, the escaped string too.
    assert_eq!(from_bytes, 6);
}

#[test]
fn flat_args_that_pass_a_schema_checking_values_are_judged_from_their_bytes() {
    let schema = r#"{"schema": {"type": "object", "properties": {"unit": {"enum": ["c", "f"]}, "days": {"type": "integer", "minimum": 1}, "q": {"type": "string"}}, "required": ["unit"], "additionalProperties": false}, "args": "#;
    let args = [
        r#"{"unit": "c"}"#,
        r#"{"unit": "f", "days": 3, "q": "x"}"#,
        r#"{"unit": "k"}"#,
        r#"{"unit": "c", "days": 0}"#,
        r#"{"days": 2, "unit": "c", "q": 1}"#,
        r#"{"unit": "c", "x": 1}"#,
        r#"{"q": "x"}"#,
        r#"{"unit": "c", "days": 2}"#,
    ];
    let (got, from_bytes) = verdicts_and_from_bytes(schema, &args);
    assert_eq!(
        got,
        [
            r#"{"ok": true, "error": ""}"#,
            r#"{"ok": true, "error": ""}"#,
            r#"{"ok": false, "error": "value error: unit must be one of \"c\", \"f\", got \"k\""}"#,
            r#"{"ok": false, "error": "value error: days must be >= 1, got 0"}"#,
            r#"{"ok": false, "error": "type error: q expected str, got int"}"#,
            r#"{"ok": false, "error": "unknown arg: x"}"#,
            r#"{"ok": false, "error": "missing required arg: unit"}"#,
            r#"{"ok": true, "error": ""}"#,
        ]
    );
    // The passing lines after the first (which compiles the schema) go the quick way; the
    // rest are judged parsed, which words their failure.
    assert_eq!(from_bytes, 2);
}

/// Lines whose schemas come after a member that differs (so no line repeats another's
/// start): short and long schemas, seen before or not, get the verdicts they get alone.
#[test]
fn schemas_after_a_changing_member_are_found_again_or_read_new() {
    let short = r#"{"type": "object", "required": ["q"]}"#;
    let long = r#"{"type": "object", "properties": {"q": {"type": "string", "description": "what to look for, in a few words"}}, "required": ["q"], "additionalProperties": false}"#;
    let other = long.replace("few words", "words");
    let mut input = String::new();
    for (i, schema) in [short, long, short, &other, long, short].iter().enumerate() {
        for args in [r#"{"q": "a"}"#, r#"{"q": 1}"#, "{}"] {
            input.push_str(&format!(
                "{{\"id\": {i}, \"schema\": {schema}, \"args\": {args}}}\n"
            ));
        }
    }
    let got = same_as_alone(&input, false);
    assert_eq!(got.len(), 18);
    assert_eq!(
        got[4],
        r#"{"ok": false, "error": "type error: q expected str, got int"}"#
    );
    assert_eq!(
        got[8],
        r#"{"ok": false, "error": "missing required arg: q"}"#
    );
}

#[test]
fn long_schemas_on_new_prefixes_are_found_again_or_read_new() {
    // Two declarations alike in their first 256 bytes and more (told apart only at the end),
    // a short one, each line on a prefix of its own (its `id` comes first), and then with
    // the args first: whether a schema is looked up before it is read or read at once,
    // every line gets its own verdict.
    let words = "a word ".repeat(40);
    let long = format!(
        r#"{{"type": "object", "description": "{words}", "properties": {{"q": {{"type": "string"}}}}, "required": ["q"]}}"#
    );
    let alike = long.replace(r#"["q"]"#, "[]");
    assert!(long.len() > 256 && long[..256] == alike[..256]);
    let short = r#"{"type": "object", "required": ["n"]}"#;
    let mut input = String::new();
    for (i, schema) in [&long, &alike, &long, short, &alike, short]
        .iter()
        .enumerate()
    {
        for args in [r#"{"q": "a"}"#, "{}", r#"{"q": 1}"#] {
            input.push_str(&format!(
                "{{\"id\": {i}, \"schema\": {schema}, \"args\": {args}}}\n"
            ));
            input.push_str(&format!("{{\"args\": {args}, \"schema\": {schema}}}\n"));
        }
    }
    let got = same_as_alone(&input, false);
    assert_eq!(got.len(), 36);
    let missing_q = r#"{"ok": false, "error": "missing required arg: q"}"#;
    let passed = r#"{"ok": true, "error": ""}"#;
    // `long` requires q, `alike` does not, whichever was seen first.
    assert_eq!([&got[2], &got[3], &got[14], &got[15]], [missing_q; 4]);
    assert_eq!([&got[8], &got[9], &got[26], &got[27]], [passed; 4]);
}

#[test]
fn nested_args_that_pass_are_judged_from_their_bytes() {
    let schema = r#"{"schema": {"name": "find", "inputSchema": {"type": "object", "properties": {"filter": {"type": "object", "properties": {"since": {"type": "string", "format": "date"}}, "required": ["since"]}, "tags": {"type": "array", "items": {"enum": ["a", "b"]}}}}}, "args": "#;
    let args = [
        r#"{"tags": ["a"]}"#,
        r#"{"filter": {"since": "2026-02-28"}, "tags": ["b", "a"]}"#,
        r#"{"filter": {"since": "2026-02-30"}}"#,
        r#"{"filter": {}}"#,
        r#"{"tags": ["a", "c"]}"#,
        r#"{"tags": ["\u0061"]}"#,
        r#"{"filter": {"since": "2026-02-28", "since": "x"}}"#,
        r#"{"tags": []}"#,
    ];
    let (got, from_bytes) = verdicts_and_from_bytes(schema, &args);
    assert_eq!(
        got,
        [
            r#"{"ok": true, "error": ""}"#,
            r#"{"ok": true, "error": ""}"#,
            r#"{"ok": false, "error": "value error: filter.since must be a date, got \"2026-02-30\""}"#,
            r#"{"ok": false, "error": "missing required arg: filter.since"}"#,
            r#"{"ok": false, "error": "value error: tags[1] must be one of \"a\", \"b\", got \"c\""}"#,
            r#"{"ok": true, "error": ""}"#,
            r#"{"ok": false, "error": "duplicate arg: filter.since"}"#,
            r#"{"ok": true, "error": ""}"#,
        ]
    );
    // The passing lines after the first (which compiles the schema), the escaped one too.
    assert_eq!(from_bytes, 3);
}

#[test]
fn a_false_property_is_unknown_on_every_path_with_the_value_checks_off() {
    let schema = r#"{"schema": {"type": "object", "properties": {"x": false, "u": {"enum": ["c"]}}}, "args": "#;
    let input = format!("{schema}{{\"x\": 1}}}}\n").repeat(3);
    let opts = Options {
        rules: crate::validate::ValidatorRules::without([crate::validate::Rule::Values]),
        ..Options::default()
    };
    let (whole, alone) = whole_and_alone(input.as_bytes(), &opts);
    assert_eq!(whole, alone);
    assert!(
        whole.lines().all(|l| l.contains("unknown arg: x")),
        "{whole}"
    );
}

#[test]
fn a_line_sharing_the_prefix_is_read_from_its_args() {
    let mut kept = Prefixes::default();
    let first = format!(r#"{WEATHER}{{"city": "Paris"}}}}"#);
    let case = read_one(&first, false, &mut kept);
    assert!(case.is_some_and(|c| c.prefix.is_some()));
    assert_eq!(kept.last_bytes(), WEATHER.as_bytes());
    let second = format!(r#"{WEATHER}{{"days": 2}}}}"#);
    let case = read_one(&second, false, &mut kept);
    let case = case.expect("a case");
    assert!(case.prefix.is_some());
    assert_eq!(case.schema_text, Some(r#"{"city": "str", "days": "int"}"#));
    assert_eq!(case.required_text, r#"["city"]"#);
    assert_eq!(
        case.args.map(|a| a.show()),
        Some(r#"{"days":2}"#.to_owned())
    );
    // A second reading (after a repeated key in the args) neither uses nor changes it.
    let other = r#"{"schema": {}, "args": {}}"#;
    let case = read_one(other, true, &mut kept);
    assert!(case.is_some_and(|c| c.prefix.is_none()));
    assert_eq!(kept.last_bytes(), WEATHER.as_bytes());
}

#[test]
fn what_follows_the_shared_prefix_is_read_as_always() {
    let w = WEATHER;
    let input = [
        format!(r#"{w}{{"city": "Paris", "days": 3}}}}"#),
        format!(r#"{w}{{"city": "Rome", "days": "3"}}}}"#),
        format!(r#"{w}  {{"days": 3}}}}"#),
        format!(r#"{w}{{"city": "Oslo"}}, "note": [1, {{"a": 2}}]}}"#),
        format!(r#"{w}{{"city": "Oslo"}}, "schema": {{}}}}"#),
        format!(r#"{w}{{"city": "Oslo"}}, "required": []}}"#),
        format!(r#"{w}{{"city": "Oslo"}}, "args": {{}}}}"#),
        format!(r#"{w}{{"city": "Oslo"}}, "args_text": "{{}}"}}"#),
        format!(r#"{w}{{"city": "Oslo"}}, "form": "flat"}}"#),
        format!(r#"{w}{{"city": "Oslo"}}, "form": "json-schema"}}"#),
        format!(r#"{w}{{"city": "Oslo"}}, "form": "nope"}}"#),
        format!(r#"{w}{{"city": "Oslo"}}}} x"#),
        format!(r#"{w}{{"city": "Oslo", "city": "Rome"}}}}"#),
        format!(r#"{w}{{"city": "Oslo""#),
        w.to_owned(),
        w.trim_end().to_owned(),
        format!("{w}{{\"city\": \"Oslo\"}}}}\r"),
        format!("{w}\r"),
        format!(r#"{w}[1]}}"#),
        format!(r#"{w}{{"city": "Zürich", "days": 1e400}}}}"#),
        format!(r#"{w}{{"city": "Oslo"}}}}"#),
    ]
    .join("\n");
    let got = same_as_alone(&input, false);
    let expect = [
        r#"{"ok": true, "error": ""}"#,
        r#"{"ok": false, "error": "type error: days expected int, got str"}"#,
        r#"{"ok": false, "error": "missing required arg: city"}"#,
        r#"{"ok": true, "error": ""}"#,
        r#"{"ok": false, "error": "bad case: the case repeats the key \"schema\""}"#,
        r#"{"ok": false, "error": "bad case: the case repeats the key \"required\""}"#,
        r#"{"ok": false, "error": "bad case: the case repeats the key \"args\""}"#,
        r#"{"ok": false, "error": "bad case: both \"args\" and \"args_text\""}"#,
        r#"{"ok": true, "error": ""}"#,
    ];
    assert_eq!(got[..expect.len()], expect);
    assert!(
        got[9].starts_with(r#"{"ok": false, "error": "bad case: schema: "#),
        "{}",
        got[9]
    );
    assert!(
        got[10].contains(r#"\"form\" must be one of"#),
        "{}",
        got[10]
    );
    assert!(got[11].contains("trailing characters"), "{}", got[11]);
    assert_eq!(got[12], r#"{"ok": false, "error": "duplicate arg: city"}"#);
    assert!(got[13].contains("not JSON: unterminated"), "{}", got[13]);
    assert!(
        got[14].contains("not JSON: expected a value"),
        "{}",
        got[14]
    );
    assert!(
        got[15].contains("not JSON: expected a value"),
        "{}",
        got[15]
    );
    assert_eq!(got[16], r#"{"ok": true, "error": ""}"#);
    assert_eq!(
        got[18],
        r#"{"ok": false, "error": "invalid args: expected a JSON object (dict), got list"}"#
    );
    assert_eq!(
        got[19],
        r#"{"ok": false, "error": "type error: days expected int, got float"}"#
    );
    assert_eq!(got[20], r#"{"ok": true, "error": ""}"#);
    assert_eq!(got.len(), 21);
    same_as_alone(&input, true);
}

#[test]
fn a_prefix_across_a_cache_miss_and_interleaved_schemas() {
    let a = r#"{"schema": {"city": "str"}, "required": ["city"], "args": "#;
    let b = r#"{"schema": {"type": "object", "properties": {"q": {"type": "string", "maxLength": 3}}, "required": ["q"]}, "args": "#;
    let late = r#"{"schema": {"city": "str"}, "args": "#;
    let mut lines = Vec::new();
    for i in 0..6 {
        lines.push(format!(r#"{a}{{"city": {i}}}}}"#));
        lines.push(format!(r#"{b}{{"q": "{}"}}}}"#, "x".repeat(i)));
        // The same prefix with a required list after the args, then without one.
        lines.push(format!(r#"{late}{{"days": {i}}}, "required": ["city"]}}"#));
        lines.push(format!(r#"{late}{{"days": {i}}}, "required": []}}"#));
        lines.push(format!(r#"{late}{{"days": {i}}}}}"#));
        lines.push(format!(r#"{late}{{"city": "x"}}, "form": "json-schema"}}"#));
    }
    // More schemas than the cache holds, then the first prefix again; some of those lines
    // have no args, so nothing new is remembered while the cache changes.
    for i in 0..20 {
        lines.push(format!(
            r#"{{"schema": {{"k{i}": "int"}}, "args": {{"k{i}": {i}}}}}"#
        ));
        lines.push(format!(r#"{a}{{"city": "Oslo", "k": {i}}}}}"#));
    }
    for i in 0..20 {
        lines.push(format!(
            r#"{{"schema": {{"n{i}": "str"}}, "required": ["city"]}}"#
        ));
    }
    lines.push(format!(r#"{a}{{"city": "Oslo", "k": 1}}}}"#));
    let input = lines.join("\n") + "\n";
    let got = same_as_alone(&input, false);
    assert_eq!(
        got[0],
        r#"{"ok": false, "error": "type error: city expected str, got int"}"#
    );
    assert_eq!(got[1], r#"{"ok": true, "error": ""}"#);
    assert_eq!(
        got[2],
        r#"{"ok": false, "error": "missing required arg: city"}"#
    );
    assert_eq!(got[3], r#"{"ok": false, "error": "unknown arg: days"}"#);
    assert_eq!(got[4], r#"{"ok": false, "error": "unknown arg: days"}"#);
    // Read as a JSON Schema, `city` is an unknown keyword: ignored (and named with --all).
    assert_eq!(got[5], r#"{"ok": true, "error": ""}"#);
    assert_eq!(
        got[6 * 4 + 1],
        r#"{"ok": false, "error": "value error: q must be at most 3 characters long, got 4 (\"xxxx\")"}"#
    );
    assert_eq!(
        got.last().map(String::as_str),
        Some(r#"{"ok": false, "error": "unknown arg: k"}"#)
    );
    same_as_alone(&input, true);
}

#[test]
fn a_line_that_is_not_utf8_between_shared_prefixes() {
    let ok = format!("{WEATHER}{{\"city\": \"Lima\"}}}}\n");
    let mut input = ok.clone().into_bytes();
    input.extend_from_slice(WEATHER.as_bytes());
    input.extend_from_slice(b"{\"city\": \"\xff\"}}\n");
    input.extend_from_slice(ok.as_bytes());
    let (whole, alone) = whole_and_alone(&input, &Options::default());
    assert_eq!(whole, alone);
    assert!(
        whole
            .lines()
            .nth(1)
            .is_some_and(|l| l.contains("not UTF-8"))
    );
}

#[test]
fn a_line_that_ends_where_a_kept_prefix_ends_reads_as_alone() {
    let ok = format!("{WEATHER}{{\"city\": \"Lima\"}}}}\n");
    for cut in [
        format!("{WEATHER}\r\n"),
        format!("{WEATHER}\n"),
        format!("{WEATHER} \r\n"),
    ] {
        let input = format!("{ok}{cut}{ok}");
        let (whole, alone) = whole_and_alone(input.as_bytes(), &Options::default());
        assert_eq!(whole, alone, "{cut:?}");
        assert!(
            whole.lines().nth(1).is_some_and(|l| l.contains("bad case")),
            "{whole}"
        );
    }
}

#[test]
fn the_room_for_args_is_kept_between_lifetimes() {
    let mut room: Vec<crate::validate::json::Field<'static>> = Vec::with_capacity(8);
    room.push(("k".into(), Json::Null));
    let text = String::from("borrowed");
    let mut again: Vec<Field<'_>> = recycle(room);
    assert!(again.is_empty() && again.capacity() >= 8);
    again.push((text.as_str().into(), Json::Null));
    let back: Vec<Field<'static>> = recycle(again);
    assert!(back.is_empty() && back.capacity() >= 8);
}

mod property {
    use proptest::prelude::*;
    use proptest::sample::select;

    use super::{Options, whole_and_alone};
    use crate::validate::{Form, Rule, ValidatorRules};

    const SCHEMAS: &[&str] = &[
        r#"{"city": "str", "days": "int"}"#,
        r#"{"type": "object", "properties": {"city": {"type": "string", "minLength": 2}}, "additionalProperties": false}"#,
        r#"{"name": "t", "parameters": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 9007199254740993}}}}"#,
        r#"{"title": "int"}"#,
        r#"{"city": "text"}"#,
        r#"{"type": "object", "properties": {"days": {"type": ["integer", "null"]}, "n": {"type": "number"}, "city": {}}, "required": ["days", "city"]}"#,
        r#"{"days": "float", "city": "str", "unit": "bool"}"#,
        r#"{"type": "object", "properties": {"unit": {"enum": ["C", "F"]}, "city": {"type": "string", "pattern": "^[A-Z]", "format": "hostname"}, "days": {"type": "integer", "minimum": 1}}}"#,
        r#"{"a": 1, "a": 2}"#,
        r#""nope""#,
        "[]",
    ];
    const REQUIRED: &[&str] = &[
        r#"["city"]"#,
        "[]",
        r#"["days", "city"]"#,
        "null",
        "[1]",
        "{}",
    ];
    const ARGS: &[&str] = &[
        r#"{"city": "Paris", "days": 3}"#,
        r#"{"days": 3}"#,
        r#"{"city": "P", "city": "Q"}"#,
        r#"{"city": "Zürich", "unit": "C"}"#,
        r#"{"city": "a\u202eb", "n": 9007199254740994}"#,
        r#"{"days": true, "n": 1.0}"#,
        r#"{"city": null, "x": {"y": [1, 2]}}"#,
        r#"{"days": 1e400}"#,
        "[1]",
        "{}",
        // Flat args read straight from their bytes, and the near misses that are not.
        r#"{ "days" : -0 , "city":"x" }"#,
        r#"{"city": "x", "days": 2E+1}"#,
        r#"{"city": "x", "days": false, "n": -12345678901234567890}"#,
        r#"{"unit": "C", "unit": "F"}"#,
        r#"{"c\u0069ty": "x"}"#,
        r#"{"city": "x\ty"}"#,
        r#"{"days": 01}"#,
        r#"{"days": 1.}"#,
        r#"{"days": -}"#,
        r#"{"days": nul}"#,
        r#"{"city": "x",}"#,
        r#"{"city": "x" "days": 1}"#,
        r#"{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "j": 10, "k": 11, "l": 12, "m": 13, "o": 14, "p": 15, "q": 16, "city": "x"}"#,
    ];
    const ARGS_TEXT: &[&str] = &[
        r#""{\"city\": \"x\"}""#,
        r#""{""#,
        "3",
        r#""{\"a\": 1, \"a\": 1}""#,
    ];
    const FORMS: &[&str] = &[r#""flat""#, r#""json-schema""#, r#""tool""#, r#""nope""#];

    fn member() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => select(SCHEMAS).prop_map(|s| format!("\"schema\": {s}")),
            // More schemas than the cache holds.
            2 => (0..24u8).prop_map(|n| format!("\"schema\": {{\"k{n}\": \"int\"}}")),
            2 => select(REQUIRED).prop_map(|r| format!("\"required\":{r}")),
            1 => select(ARGS_TEXT).prop_map(|t| format!("\"args_text\": {t}")),
            1 => select(FORMS).prop_map(|f| format!("\"form\": {f}")),
            1 => Just(r#""note": [1, {"a": 2}]"#.to_owned()),
            1 => Just(r#""args": {}"#.to_owned()),
        ]
    }

    /// A case with `@` where its args go (most have them): members before and after.
    fn template() -> impl Strategy<Value = String> {
        (
            prop::collection::vec(member(), 0..3),
            prop::collection::vec(member(), 0..2),
            0u8..4,
        )
            .prop_map(|(before, after, args)| {
                let mut members = before;
                match args {
                    0 => {}
                    1 => members.push("\"args\":@".to_owned()),
                    _ => members.push("\"args\": @".to_owned()),
                }
                members.extend(after);
                format!("{{{}}}", members.join(", "))
            })
    }

    /// One line: a template, its args, and what may be wrong with the line.
    fn line(templates: Vec<String>) -> impl Strategy<Value = Vec<u8>> {
        (
            select(templates),
            select(ARGS),
            0u8..8,
            any::<prop::sample::Index>(),
        )
            .prop_map(|(template, args, damage, at)| {
                let text = template.replace('@', args);
                let mut bytes = text.clone().into_bytes();
                match damage {
                    0 => bytes.truncate(at.index(bytes.len() + 1)),
                    1 => bytes.extend_from_slice(b" x"),
                    2 => bytes.push(b'\r'),
                    3 => bytes.insert(at.index(bytes.len() + 1), 0xff),
                    4 => bytes = text.replace('@', &format!("  {args}")).into_bytes(),
                    _ => {}
                }
                bytes
            })
    }

    fn stream() -> impl Strategy<Value = Vec<u8>> {
        (prop::collection::vec(template(), 1..6), any::<bool>())
            .prop_flat_map(|(templates, end)| {
                (prop::collection::vec(line(templates), 1..40), Just(end))
            })
            .prop_map(|(lines, end)| {
                let mut input = lines.join(&b'\n');
                if end {
                    input.push(b'\n');
                }
                input
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn a_run_judges_each_line_as_it_would_alone(
            input in stream(),
            all in any::<bool>(),
            form in prop::option::of(select(vec![Form::Flat, Form::JsonSchema, Form::Tool])),
            off in prop::collection::vec(
                select(vec![Rule::Required, Rule::Unknown, Rule::Types, Rule::BoolGuard]),
                0..2,
            ),
        ) {
            let rules = ValidatorRules::without(off);
            let opts = Options { all, form, rules, ..Options::default() };
            let (whole, alone) = whole_and_alone(&input, &opts);
            prop_assert_eq!(whole, alone);
        }
    }
}

#[test]
fn earlier_declarations_resume_from_their_prefix_however_interleaved() {
    // Declarations longer than the hashed head, equal over their first few hundred bytes,
    // interleaved; each line must get the verdict it gets alone.
    let pad = "x".repeat(300);
    let decl = |n: usize, t: &str| {
        format!(
            r#"{{"schema": {{"type": "object", "description": "{pad}", "properties": {{"a{n}": {{"type": "{t}"}}}}, "additionalProperties": false}}, "args": "#
        )
    };
    let (one, two) = (decl(1, "string"), decl(2, "integer"));
    let input = [
        format!(r#"{one}{{"a1": "x"}}}}"#),
        format!(r#"{two}{{"a2": 3}}}}"#),
        format!(r#"{one}{{"a1": 3}}}}"#),
        format!(r#"{two}{{"a2": "x"}}}}"#),
        format!(r#"{one}{{"a2": 1}}}}"#),
        format!(r#"{two}{{"a2": 1}}, "required": ["a9"]}}"#),
        format!(r#"{two}{{"a2": 1}}, "form": "json-schema"}}"#),
        format!(r#"{one}{{"a1": "y", "a1": "z"}}}}"#),
        format!(r#"{one}{{"a1": "y"}}}}"#),
        format!(r#"{two}{{"a2": 2}}}}"#),
    ]
    .join("\n");
    let got = same_as_alone(&input, false);
    let expect = [
        r#"{"ok": true, "error": ""}"#,
        r#"{"ok": true, "error": ""}"#,
        r#"{"ok": false, "error": "type error: a1 expected str, got int"}"#,
        r#"{"ok": false, "error": "type error: a2 expected int, got str"}"#,
        r#"{"ok": false, "error": "unknown arg: a2"}"#,
    ];
    assert_eq!(got[..expect.len()], expect);
    assert!(got[5].contains("bad case"), "{}", got[5]);
    assert_eq!(got[6], r#"{"ok": true, "error": ""}"#);
    assert_eq!(got[7], r#"{"ok": false, "error": "duplicate arg: a1"}"#);
    assert_eq!(got[8], r#"{"ok": true, "error": ""}"#);
    assert_eq!(got[9], r#"{"ok": true, "error": ""}"#);
    // Both prefixes are kept and found again, not only the last one.
    let mut kept = Prefixes::default();
    let lines: Vec<&str> = input.lines().collect();
    for line in &lines[..2] {
        assert!(read_one(line, false, &mut kept).is_some());
    }
    let again = read_one(lines[2], false, &mut kept).expect("a case");
    assert!(again.prefix.is_some());
    assert_eq!(kept.last_bytes(), one.as_bytes());
}

#[test]
fn prefixes_alike_in_their_first_bytes_are_each_found_again() {
    // Versions of one tool that differ only past their first few hundred bytes (a longer
    // description, one property more), a schema with a property called `args` (so the
    // first `"args` of the line is inside the schema), and an args key written with an
    // escape (not indexed: found only as the last prefix).
    let long = "x".repeat(300);
    let decls = [
        format!(
            r#"{{"schema": {{"name": "w", "description": "{long} a.", "inputSchema": {{"type": "object"}}}}, "args": "#
        ),
        format!(
            r#"{{"schema": {{"name": "w", "description": "{long} b.", "inputSchema": {{"type": "object"}}}}, "args": "#
        ),
        format!(
            r#"{{"schema": {{"name": "w", "description": "{long} a.", "inputSchema": {{"type": "object", "required": ["q"]}}}}, "args": "#
        ),
        r#"{"schema": {"type": "object", "properties": {"args": {"type": "string"}}}, "args": "#
            .to_string(),
        r#"{"schema": {"type": "object", "properties": {"args": {"type": "integer"}}}, "args": "#
            .to_string(),
    ];
    // Args that quote `"args` (so the line's last one is not its args key) and args that do
    // not.
    let lines: Vec<String> = decls
        .iter()
        .map(|d| format!(r#"{d}{{"args": 1}}}}"#))
        .collect();
    let plain: Vec<String> = decls
        .iter()
        .map(|d| format!(r#"{d}{{"q": 1}}}}"#))
        .collect();
    let mut kept = Prefixes::default();
    for line in &lines {
        assert!(read_one(line, false, &mut kept).is_some(), "{line}");
    }
    let count = kept.count();
    // Each again, out of order, each after another declaration (so not as the last one):
    // found (nothing kept anew) by the key before the last `"args`, or for args that quote
    // it by the key before the first, and found as itself.
    for again in [&plain, &lines] {
        for i in [2, 0, 4, 1, 3, 0, 2] {
            let case = read_one(&again[i], false, &mut kept).expect("a case");
            assert!(case.prefix.is_some(), "line {i}");
            assert_eq!(kept.last_bytes(), decls[i].as_bytes(), "line {i}");
            assert_eq!(kept.count(), count, "line {i} was not found: {}", again[i]);
        }
    }
    let escaped = r#"{"schema": {"type": "object"}, "\u0061rgs": {"q": 1}}"#;
    assert!(read_one(escaped, false, &mut kept).is_some());
    let other = read_one(&lines[1], false, &mut kept).expect("a case");
    assert_eq!(kept.last_bytes(), decls[1].as_bytes());
    assert!(other.prefix.is_some());
    let again = read_one(escaped, false, &mut kept).expect("a case");
    assert!(again.args.is_some());
    // And the verdicts are the ones each line gets alone.
    let mut all: Vec<&str> = lines.iter().map(String::as_str).collect();
    all.push(escaped);
    let input = [&all[..], &all[..]].concat().join("\n");
    let verdicts = same_as_alone(&input, false);
    assert_eq!(verdicts.len(), 12);
    assert!(
        verdicts[2].contains("missing required arg: q"),
        "{verdicts:?} {all:?}"
    );
    assert!(verdicts[3].contains("type error: args"), "{}", verdicts[3]);
    assert_eq!(verdicts[4], r#"{"ok": true, "error": ""}"#);
}

#[test]
fn a_key_is_named_as_written_not_in_rust_escapes() {
    // A combining accent after the `e`: the message names the key as the line wrote it
    // (the JSON verdict may escape the accent, but never as Rust's `\u{301}`).
    let line = "{\"schema\": {\"type\": \"object\", \"propertyNames\": {\"maxLength\": 3}}, \
                \"args\": {\"cafe\u{301}\": 1}}";
    let got = lines(line, false);
    assert!(!got[0].contains("u{301}"), "{}", got[0]);
    let v: serde_json::Value = serde_json::from_str(&got[0]).unwrap();
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains("the key \"cafe\u{301}\""), "{msg}");
}
