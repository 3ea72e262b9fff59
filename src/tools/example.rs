//! Valid-looking values for a schema node: what a careful model would send. The trap report
//! starts from these (the baseline arguments, each field's example) and changes one thing at
//! a time. Whether a value really is valid is the validator's word, asked by the caller; this
//! only proposes.
//!
//! A value is chosen in this order: `const`, the first `enum` value, the first of
//! `examples`, then one built from the type and its constraints (a format's sample, a string
//! generated from the `pattern`, a number inside the bounds, the required members of an
//! object, the smallest array that may hold an item).

use regex_syntax::hir::{Class, Hir, HirKind};
use serde_json::{Map, Number, Value, json};

use super::schema::{MAX_DEPTH, View, json_type};

/// A sample of each format the standard defines.
pub fn format_sample(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "2026-03-14T09:30:00Z",
        "date" => "2026-03-14",
        "time" => "09:30:00Z",
        "duration" => "P1D",
        "email" | "idn-email" => "ada@example.com",
        "hostname" | "idn-hostname" => "example.com",
        "ipv4" => "192.0.2.7",
        "ipv6" => "2001:db8::7",
        "uri" | "iri" => "https://example.com/a",
        "uri-reference" | "iri-reference" => "/a",
        "uri-template" => "https://example.com/{id}",
        "uuid" => "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
        "json-pointer" => "/a",
        "relative-json-pointer" => "0",
        "regex" => "^a+$",
        _ => return None,
    })
}

/// The plain string used where nothing narrows it.
const WORD: &str = "example";

/// A value for `view`, inside the schema `root`; `None` when none could be made.
pub fn example(root: &Value, view: &View<'_>, depth: usize) -> Option<Value> {
    if view.never || depth > MAX_DEPTH {
        return None;
    }
    if let Some(c) = view.get("const") {
        return Some(c.clone());
    }
    if let Some(Value::Array(e)) = view.get("enum") {
        return e.iter().find(|v| !v.is_null()).or(e.first()).cloned();
    }
    if let Some(Value::Array(ex)) = view.get("examples")
        && let Some(first) = ex.first()
        && fits_type(view, first)
    {
        return Some(first.clone());
    }
    if view.main_type().is_none()
        && let Some((alt, at)) = view.alternatives.first()
    {
        return example(root, &View::of(root, alt, at), depth + 1);
    }
    match view.main_type() {
        Some("string") | None => string_example(view).map(Value::String),
        Some("integer") => integer_example(view).map(Value::from),
        Some("number") => number_example(view),
        Some("boolean") => Some(Value::Bool(true)),
        Some("null") => Some(Value::Null),
        Some("array") => array_example(root, view, depth),
        Some("object") => object_example(root, view, depth).map(Value::Object),
        Some(_) => None,
    }
}

/// Does `v` have a type the view declares (any, when it declares none)?
fn fits_type(view: &View<'_>, v: &Value) -> bool {
    let types = view.types();
    let t = json_type(v).unwrap_or("null");
    types.is_empty() || types.contains(&t) || (t == "integer" && types.contains(&"number"))
}

fn string_example(view: &View<'_>) -> Option<String> {
    let min = view.num("minLength").map_or(0, |n| n as usize);
    let max = view.num("maxLength").map_or(usize::MAX, |n| n as usize);
    if let Some(f) = view.str("format")
        && let Some(s) = format_sample(f)
        && view.get("pattern").is_none()
    {
        return Some(s.to_owned());
    }
    if let Some(p) = view.str("pattern") {
        return from_pattern(p, min, max);
    }
    let mut s: String = WORD.chars().take(max).collect();
    let have = s.chars().count();
    s.extend(std::iter::repeat_n('x', min.saturating_sub(have)));
    Some(s)
}

/// A string the pattern matches, as short as the length bounds allow.
pub fn from_pattern(pattern: &str, min: usize, max: usize) -> Option<String> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .ok()?;
    let re = regex::Regex::new(pattern).ok();
    [1usize, 2, 3, 5, 8, 16, 32, 64, min.max(1)]
        .into_iter()
        .map(|reps| {
            let mut out = String::new();
            generate(&hir, reps, &mut out);
            out
        })
        .find(|s| {
            let n = s.chars().count();
            n >= min && n <= max && re.as_ref().is_none_or(|r| r.is_match(s))
        })
}

/// Write a string `hir` matches: each repetition `reps` times within its bounds, the first
/// branch of each alternation, a readable character of each class.
fn generate(hir: &Hir, reps: usize, out: &mut String) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(lit) => out.push_str(&String::from_utf8_lossy(&lit.0)),
        HirKind::Class(class) => {
            if let Some(c) = pick(class) {
                out.push(c);
            }
        }
        HirKind::Repetition(rep) => {
            let lo = rep.min as usize;
            let hi = rep.max.map_or(usize::MAX, |m| m as usize);
            let n = reps.clamp(lo, hi.max(lo));
            for _ in 0..n {
                generate(&rep.sub, reps, out);
            }
        }
        HirKind::Capture(cap) => generate(&cap.sub, reps, out),
        HirKind::Concat(parts) => parts.iter().for_each(|p| generate(p, reps, out)),
        HirKind::Alternation(branches) => {
            if let Some(b) = branches.first() {
                generate(b, reps, out);
            }
        }
    }
}

/// A readable member of a class: a lowercase letter, then a digit, then any ASCII letter,
/// then whatever comes first.
fn pick(class: &Class) -> Option<char> {
    let ranges: Vec<(char, char)> = match class {
        Class::Unicode(u) => u.ranges().iter().map(|r| (r.start(), r.end())).collect(),
        Class::Bytes(b) => b
            .ranges()
            .iter()
            .map(|r| (char::from(r.start()), char::from(r.end())))
            .collect(),
    };
    let has = |c: char| ranges.iter().any(|&(a, b)| a <= c && c <= b);
    ['a', 'e', 'x', '0', '1', 'A', 'X', '-', '_']
        .into_iter()
        .find(|&c| has(c))
        .or_else(|| {
            ('a'..='z')
                .chain('0'..='9')
                .chain('A'..='Z')
                .find(|&c| has(c))
        })
        .or_else(|| ranges.first().map(|r| r.0))
}

/// The lowest and highest integers the bounds allow.
fn int_bounds(view: &View<'_>) -> (Option<i64>, Option<i64>) {
    let lo = [
        view.num("minimum").map(|m| m.ceil()),
        view.num("exclusiveMinimum").map(|m| m.floor() + 1.0),
    ]
    .into_iter()
    .flatten()
    .reduce(f64::max);
    let hi = [
        view.num("maximum").map(|m| m.floor()),
        view.num("exclusiveMaximum").map(|m| m.ceil() - 1.0),
    ]
    .into_iter()
    .flatten()
    .reduce(f64::min);
    let clamp = |f: f64| f.clamp(-9e15, 9e15) as i64;
    (lo.map(clamp), hi.map(clamp))
}

fn integer_example(view: &View<'_>) -> Option<i64> {
    let (lo, hi) = int_bounds(view);
    let step = view
        .num("multipleOf")
        .filter(|m| *m >= 1.0 && m.fract() == 0.0)
        .map_or(1, |m| m as i64);
    let mut v = 1i64.max(lo.unwrap_or(i64::MIN)).min(hi.unwrap_or(i64::MAX));
    if step > 1 {
        v = v.div_euclid(step) * step;
        if lo.is_some_and(|l| v < l) {
            v += step;
        }
    }
    (lo.is_none_or(|l| v >= l) && hi.is_none_or(|h| v <= h)).then_some(v)
}

fn number_example(view: &View<'_>) -> Option<Value> {
    let lo = view
        .num("minimum")
        .or(view.num("exclusiveMinimum"))
        .unwrap_or(f64::NEG_INFINITY);
    let hi = view
        .num("maximum")
        .or(view.num("exclusiveMaximum"))
        .unwrap_or(f64::INFINITY);
    if let Some(m) = view.num("multipleOf").filter(|m| *m > 0.0) {
        let k = if lo.is_finite() { (lo / m).ceil() } else { 1.0 };
        let v = (k.max(1.0).min(if hi.is_finite() {
            (hi / m).floor()
        } else {
            f64::MAX
        })) * m;
        return Number::from_f64(v).map(Value::Number);
    }
    let v = if lo < 2.5 && 2.5 < hi {
        2.5
    } else if lo.is_finite() && hi.is_finite() {
        (lo + hi) / 2.0
    } else if lo.is_finite() {
        lo + 1.0
    } else {
        hi - 1.0
    };
    Number::from_f64(v).map(Value::Number)
}

fn array_example(root: &Value, view: &View<'_>, depth: usize) -> Option<Value> {
    let min = view.num("minItems").map_or(0, |n| n as usize);
    let max = view.num("maxItems").map_or(usize::MAX, |n| n as usize);
    let mut out = Vec::new();
    if let Some((Value::Array(prefix), at)) = view.get_at("prefixItems") {
        for (i, p) in prefix.iter().enumerate() {
            out.push(example(
                root,
                &View::of(root, p, &format!("{at}/prefixItems/{i}")),
                depth + 1,
            )?);
        }
    }
    let want = min.max(1).min(max).max(out.len());
    if out.len() < want {
        let item = match view.get_at("items") {
            Some((items, at)) => example(
                root,
                &View::of(root, items, &format!("{at}/items")),
                depth + 1,
            )?,
            None => Value::String(WORD.into()),
        };
        let unique = matches!(view.get("uniqueItems"), Some(Value::Bool(true)));
        for i in out.len()..want {
            out.push(if unique {
                varied(&item, i)
            } else {
                item.clone()
            });
        }
    }
    Some(Value::Array(out))
}

/// The `i`th of several different items made from one.
fn varied(item: &Value, i: usize) -> Value {
    match item {
        Value::Number(n) if n.is_i64() => json!(n.as_i64().unwrap_or(0) + i as i64),
        Value::String(s) if i > 0 => Value::String(format!("{s}{i}")),
        other => other.clone(),
    }
}

fn object_example(root: &Value, view: &View<'_>, depth: usize) -> Option<Map<String, Value>> {
    let props = view.properties();
    let mut out = Map::new();
    let mut wanted: Vec<&str> = view.required();
    if let Some(Value::Object(deps)) = view.get("dependentRequired") {
        let extra: Vec<&str> = wanted
            .iter()
            .filter_map(|w| deps.get(*w))
            .filter_map(Value::as_array)
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        wanted.extend(extra);
    }
    let min_props = view.num("minProperties").map_or(0, |n| n as usize);
    for (name, _, _) in &props {
        if wanted.len() >= min_props {
            break;
        }
        if !wanted.contains(name) {
            wanted.push(name);
        }
    }
    for name in wanted {
        if out.contains_key(name) {
            continue;
        }
        let value = match props.iter().find(|(n, _, _)| *n == name) {
            Some((_, sub, at)) => example(root, &View::of(root, sub, at), depth + 1)?,
            None => match view.get_at("additionalProperties") {
                Some((Value::Object(_), at)) => {
                    let sub = view.get("additionalProperties")?;
                    example(
                        root,
                        &View::of(root, sub, &format!("{at}/additionalProperties")),
                        depth + 1,
                    )?
                }
                _ => Value::String(WORD.into()),
            },
        };
        out.insert(name.to_owned(), value);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(schema: Value) -> Option<Value> {
        example(&schema, &View::of(&schema, &schema, ""), 0)
    }

    #[test]
    fn values_respect_the_constraints() {
        assert_eq!(
            ex(json!({"type": "integer", "minimum": 5, "maximum": 9})),
            Some(json!(5))
        );
        assert_eq!(
            ex(json!({"type": "integer", "exclusiveMaximum": 0})),
            Some(json!(-1))
        );
        assert_eq!(
            ex(json!({"type": "integer", "minimum": 7, "multipleOf": 5})),
            Some(json!(10))
        );
        assert_eq!(
            ex(json!({"type": "integer", "minimum": 3, "maximum": 2})),
            None
        );
        assert_eq!(
            ex(json!({"type": "number", "minimum": 0, "maximum": 1})),
            Some(json!(0.5))
        );
        assert_eq!(
            ex(json!({"type": "string", "maxLength": 3})),
            Some(json!("exa"))
        );
        assert_eq!(
            ex(json!({"type": "string", "minLength": 9})),
            Some(json!("examplexx"))
        );
        assert_eq!(
            ex(json!({"type": "string", "format": "date"})),
            Some(json!("2026-03-14"))
        );
        assert_eq!(
            ex(json!({"enum": [null, "open", "closed"]})),
            Some(json!("open"))
        );
        assert_eq!(ex(json!({"const": 3})), Some(json!(3)));
        assert_eq!(ex(json!({"type": ["null", "boolean"]})), Some(json!(true)));
    }

    #[test]
    fn patterns_give_matching_readable_strings() {
        assert_eq!(
            from_pattern("^TKT-[0-9]{3}$", 0, usize::MAX).as_deref(),
            Some("TKT-000")
        );
        assert_eq!(
            from_pattern(r"^[\w.-]+/[\w.-]+$", 0, usize::MAX).as_deref(),
            Some("a/a")
        );
        assert_eq!(from_pattern("^[a-z]+$", 4, 6).as_deref(), Some("aaaaa"));
        assert_eq!(from_pattern("(?=a)", 0, 9), None);
    }

    #[test]
    fn objects_and_arrays_hold_what_they_require() {
        let v = ex(
            json!({"type": "object", "required": ["a", "c"], "properties": {
            "a": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "uniqueItems": true},
            "b": {"type": "string"},
            "c": {"$ref": "#/$defs/C"}
        }, "$defs": {"C": {"type": "object", "required": ["d"], "properties": {"d": {"type": "boolean"}}}}}),
        );
        assert_eq!(v, Some(json!({"a": [1, 2], "c": {"d": true}})));
        assert_eq!(ex(json!({"type": "array", "maxItems": 0})), Some(json!([])));
    }
}
