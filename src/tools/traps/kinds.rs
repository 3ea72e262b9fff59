//! The kinds of trap, and the wrong values each one writes in place of a field's valid
//! example: what a model sends when it guesses, stringifies, rounds, pads or forgets.

use serde_json::{Number, Value, json};

use crate::sanitize::quote;
use crate::tools::schema::View;

/// The kinds of trap (the `kind` field of `tools --json`; stable names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TrapKind {
    MissingRequired,
    ExtraKey,
    StringForNumber,
    BoolForNumber,
    FloatForInteger,
    NumberForString,
    StringForBool,
    StringForObject,
    LoneItemForList,
    NullForField,
    PastBound,
    NoUpperBound,
    NoLowerBound,
    EnumNearMiss,
    PatternMiss,
    UnicodeDigits,
    OverLong,
    TooShort,
    WrongItemType,
    TooManyItems,
    TooFewItems,
    InvalidFormat,
    EmptyObject,
}

impl TrapKind {
    /// Every kind, in the order reports group them.
    pub const ALL: [TrapKind; 23] = [
        TrapKind::MissingRequired,
        TrapKind::ExtraKey,
        TrapKind::StringForNumber,
        TrapKind::BoolForNumber,
        TrapKind::FloatForInteger,
        TrapKind::NumberForString,
        TrapKind::StringForBool,
        TrapKind::StringForObject,
        TrapKind::LoneItemForList,
        TrapKind::NullForField,
        TrapKind::PastBound,
        TrapKind::NoUpperBound,
        TrapKind::NoLowerBound,
        TrapKind::EnumNearMiss,
        TrapKind::PatternMiss,
        TrapKind::UnicodeDigits,
        TrapKind::OverLong,
        TrapKind::TooShort,
        TrapKind::WrongItemType,
        TrapKind::TooManyItems,
        TrapKind::TooFewItems,
        TrapKind::InvalidFormat,
        TrapKind::EmptyObject,
    ];

    /// The stable name (as `--json` writes it).
    pub fn name(self) -> &'static str {
        match self {
            TrapKind::MissingRequired => "missing_required",
            TrapKind::ExtraKey => "extra_key",
            TrapKind::StringForNumber => "string_for_number",
            TrapKind::BoolForNumber => "bool_for_number",
            TrapKind::FloatForInteger => "float_for_integer",
            TrapKind::NumberForString => "number_for_string",
            TrapKind::StringForBool => "string_for_bool",
            TrapKind::StringForObject => "string_for_object",
            TrapKind::LoneItemForList => "lone_item_for_list",
            TrapKind::NullForField => "null_for_field",
            TrapKind::PastBound => "past_bound",
            TrapKind::NoUpperBound => "no_upper_bound",
            TrapKind::NoLowerBound => "no_lower_bound",
            TrapKind::EnumNearMiss => "enum_near_miss",
            TrapKind::PatternMiss => "pattern_miss",
            TrapKind::UnicodeDigits => "unicode_digits",
            TrapKind::OverLong => "over_long",
            TrapKind::TooShort => "too_short",
            TrapKind::WrongItemType => "wrong_item_type",
            TrapKind::TooManyItems => "too_many_items",
            TrapKind::TooFewItems => "too_few_items",
            TrapKind::InvalidFormat => "invalid_format",
            TrapKind::EmptyObject => "empty_object",
        }
    }
}

/// How long an over-long string is where no `maxLength` says.
pub const LONG_STRING: usize = 1000;
/// How many items an over-long list has where no `maxItems` says.
pub const LONG_LIST: usize = 1000;
/// Far past any sensible bound, where no `maximum` says.
pub const HUGE: i64 = 1_000_000_000;
/// How many enum values get their near misses (a long enum would fill the report).
const ENUM_VALUES: usize = 12;

/// A name for an extra member that is not declared: what a model adds on its own.
pub fn extra_key_name(taken: &[&str]) -> String {
    ["note", "reason", "debug", "extra"]
        .into_iter()
        .find(|k| !taken.contains(k))
        .map_or_else(|| "note_from_the_model".into(), str::to_owned)
}

type Wrong = (TrapKind, String, Value);

/// The wrong values to try for a field whose valid example is `example`.
pub fn wrong_values(view: &View<'_>, example: &Value) -> Vec<Wrong> {
    let mut out = Vec::new();
    let main = view.main_type();
    match main {
        Some(t @ ("integer" | "number")) => numeric(view, example, t, &mut out),
        Some("string") => string(view, example, &mut out),
        Some("boolean") => out.push((
            TrapKind::StringForBool,
            "string for a boolean".into(),
            json!("true"),
        )),
        Some("array") => array(view, example, &mut out),
        Some("object") => out.push((
            TrapKind::StringForObject,
            "JSON text for an object".into(),
            Value::String(serde_json::to_string(example).unwrap_or_default()),
        )),
        _ => {}
    }
    if main != Some("string") {
        near_misses(view, &mut out);
    }
    if !view.nullable && !view.types().contains(&"null") {
        let what = main.unwrap_or("value");
        out.push((
            TrapKind::NullForField,
            format!("null for {} {what}", article(what)),
            Value::Null,
        ));
    }
    out
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// A field whose values are listed (`enum`, `const`): its bounds, lengths and patterns are
/// beside the point, the list decides.
fn listed(view: &View<'_>) -> bool {
    view.get("enum").is_some() || view.get("const").is_some()
}

fn numeric(view: &View<'_>, example: &Value, t: &str, out: &mut Vec<Wrong>) {
    let integer = t == "integer";
    out.push((
        TrapKind::StringForNumber,
        format!("string for {} {t}", article(t)),
        Value::String(example.to_string()),
    ));
    out.push((
        TrapKind::BoolForNumber,
        format!("bool for {} {t}", article(t)),
        Value::Bool(true),
    ));
    if listed(view) {
        return;
    }
    let ex = example.as_f64().unwrap_or(1.0);
    if integer {
        out.push((
            TrapKind::FloatForInteger,
            "float for an integer".into(),
            num(ex + 0.5),
        ));
    }
    let past = if integer { 1.0 } else { 0.5 };
    let bounds = [
        ("maximum", past, "past the maximum"),
        ("exclusiveMaximum", 0.0, "at the exclusive maximum"),
        ("minimum", -past, "below the minimum"),
        ("exclusiveMinimum", 0.0, "at the exclusive minimum"),
    ];
    for (key, by, words) in bounds {
        if let Some(b) = view.num(key) {
            out.push((
                TrapKind::PastBound,
                format!("{words} ({})", show_num(b)),
                num(b + by),
            ));
        }
    }
    if view.get("maximum").is_none() && view.get("exclusiveMaximum").is_none() {
        out.push((
            TrapKind::NoUpperBound,
            "far past any sensible bound".into(),
            json!(HUGE),
        ));
    }
    if integer && view.get("minimum").is_none() && view.get("exclusiveMinimum").is_none() {
        out.push((
            TrapKind::NoLowerBound,
            "a negative number".into(),
            json!(-1),
        ));
    }
}

/// A number as JSON writes it: whole numbers as integers.
fn num(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9e15 {
        json!(f as i64)
    } else {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

fn show_num(f: f64) -> String {
    num(f).to_string()
}

fn string(view: &View<'_>, example: &Value, out: &mut Vec<Wrong>) {
    let ex = example.as_str().unwrap_or("example");
    let as_number = ex
        .parse::<i64>()
        .map(Value::from)
        .unwrap_or_else(|_| json!(7));
    out.push((
        TrapKind::NumberForString,
        "number for a string".into(),
        as_number,
    ));
    near_misses(view, out);
    if listed(view) {
        return;
    }
    if let Some(p) = view.str("pattern") {
        out.push((
            TrapKind::PatternMiss,
            "pattern miss: text around it".into(),
            Value::String(format!("see {ex} (and more)")),
        ));
        if (p.contains("\\d") || p.contains("\\w"))
            && let Some(s) = unicode_digits(ex)
        {
            let which = if p.contains("\\d") { "\\d" } else { "\\w" };
            out.push((
                TrapKind::UnicodeDigits,
                format!("Unicode digits for {which}"),
                Value::String(s),
            ));
        }
    }
    lengths(view, ex, out);
    if let Some(f) = view.str("format")
        && crate::validate::format::is_known(f)
        && let Some(bad) = invalid_sample(f)
    {
        out.push((
            TrapKind::InvalidFormat,
            format!("invalid {f}"),
            Value::String(bad.into()),
        ));
    }
}

fn lengths(view: &View<'_>, ex: &str, out: &mut Vec<Wrong>) {
    let pad = ex.chars().last().unwrap_or('x');
    let padded = |n: usize| -> String {
        let mut s: String = ex.chars().take(n).collect();
        let have = s.chars().count();
        s.extend(std::iter::repeat_n(pad, n.saturating_sub(have)));
        s
    };
    match view.num("maxLength") {
        Some(max) => out.push((
            TrapKind::OverLong,
            format!("over maxLength ({})", max as usize),
            Value::String(padded(max as usize + 1)),
        )),
        None => out.push((
            TrapKind::OverLong,
            format!("over-long string ({LONG_STRING} chars)"),
            Value::String(padded(LONG_STRING)),
        )),
    }
    if let Some(min) = view.num("minLength").filter(|m| *m >= 1.0) {
        out.push((
            TrapKind::TooShort,
            format!("under minLength ({})", min as usize),
            Value::String(padded(min as usize - 1)),
        ));
    }
}

/// The example with its ASCII digits written in Arabic-Indic digits (or its last letter
/// replaced by one, when it has no digit).
fn unicode_digits(ex: &str) -> Option<String> {
    const DIGITS: [char; 10] = ['٠', '١', '٢', '٣', '٤', '٥', '٦', '٧', '٨', '٩'];
    if ex.chars().any(|c| c.is_ascii_digit()) {
        return Some(
            ex.chars()
                .map(|c| c.to_digit(10).map_or(c, |d| DIGITS[d as usize]))
                .collect(),
        );
    }
    let (i, _) = ex
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_ascii_alphanumeric())?;
    Some(format!("{}{}{}", &ex[..i], DIGITS[3], &ex[i + 1..]))
}

/// A value of each format that looks right at a glance and is not.
fn invalid_sample(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "2026-02-30T10:00:00Z",
        "date" => "2026-02-30",
        "time" => "25:61:00Z",
        "duration" => "P1Y2X",
        "email" | "idn-email" => "ada.example.com",
        "hostname" | "idn-hostname" => "-bad-.example",
        "ipv4" => "999.1.1.1",
        "ipv6" => "2001:db8::zz",
        "uri" | "iri" => "not a uri",
        "uri-reference" | "iri-reference" => "http://[bad",
        "uri-template" => "https://example.com/{id",
        "uuid" => "3f2504e0-4f89-41d3-9a0c",
        "json-pointer" => "a/b",
        "relative-json-pointer" => "/a",
        "regex" => "(unclosed",
        _ => return None,
    })
}

/// Case and whitespace near misses of each string enum value.
fn near_misses(view: &View<'_>, out: &mut Vec<Wrong>) {
    let Some(Value::Array(values)) = view.get("enum") else {
        return;
    };
    let listed = |s: &str| values.iter().any(|v| v.as_str() == Some(s));
    for v in values.iter().filter_map(Value::as_str).take(ENUM_VALUES) {
        let cased = if v.chars().any(char::is_lowercase) && v == v.to_lowercase() {
            let mut c = v.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
        } else if v != v.to_lowercase() {
            Some(v.to_lowercase())
        } else {
            None
        };
        if let Some(c) = cased.filter(|c| !listed(c)) {
            out.push((
                TrapKind::EnumNearMiss,
                format!("enum near-miss: {} for {}", quote(&c), quote(v)),
                Value::String(c),
            ));
        }
        let spaced = format!("{v} ");
        if !listed(&spaced) {
            out.push((
                TrapKind::EnumNearMiss,
                format!("enum near-miss: {} with a trailing space", quote(v)),
                Value::String(spaced),
            ));
        }
    }
}

fn array(view: &View<'_>, example: &Value, out: &mut Vec<Wrong>) {
    let items: Vec<Value> = example.as_array().cloned().unwrap_or_default();
    let item = items.first().cloned().unwrap_or_else(|| json!("example"));
    let wrong = match item {
        Value::String(_) => json!(7),
        Value::Number(_) => json!("7"),
        Value::Bool(_) => json!("yes"),
        _ => json!("x"),
    };
    let mut with_wrong = items.clone();
    match with_wrong.first_mut() {
        Some(first) => *first = wrong,
        None => with_wrong.push(wrong),
    }
    out.push((
        TrapKind::WrongItemType,
        "an item of the wrong type".into(),
        Value::Array(with_wrong),
    ));
    let list = |n: usize| Value::Array((0..n).map(|i| vary(&item, i)).collect());
    match view.num("maxItems") {
        Some(max) => out.push((
            TrapKind::TooManyItems,
            format!("one item too many ({} allowed)", max as usize),
            list(max as usize + 1),
        )),
        None => out.push((
            TrapKind::TooManyItems,
            format!("unbounded list ({LONG_LIST} items)"),
            list(LONG_LIST),
        )),
    }
    if let Some(min) = view.num("minItems").filter(|m| *m >= 1.0) {
        out.push((
            TrapKind::TooFewItems,
            format!("one item too few ({} needed)", min as usize),
            list(min as usize - 1),
        ));
    }
    out.push((
        TrapKind::LoneItemForList,
        "a lone item for a list".into(),
        item,
    ));
}

/// The `i`th of several different items made from one (so `uniqueItems` is not what
/// catches a count).
fn vary(item: &Value, i: usize) -> Value {
    match item {
        Value::Number(n) if n.is_i64() => json!(n.as_i64().unwrap_or(0).saturating_add(i as i64)),
        Value::String(s) if i > 0 => Value::String(format!("{s}{i}")),
        other => other.clone(),
    }
}
