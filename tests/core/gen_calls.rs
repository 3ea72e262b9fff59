//! Random tool calls and schemas shaped like real ones, for the differential and property
//! tests of the validator: arguments generated from a declaration's own schema (mostly
//! plausible, often a little wrong: a missing name, an extra key, a wrong type, a value past a
//! bound, a string in the wrong format) and schemas put together from the keywords real
//! declarations use.

use serde_json::{Map, Value, json};

/// A small deterministic generator (no extra dependency for a test).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

const STRINGS: &[&str] = &[
    "",
    "a",
    "Paris",
    "TKT-104",
    "2026-02-28",
    "2026-02-30",
    "2026-03-01T10:00:00Z",
    "2026-02-30T10:00",
    "10:00:00Z",
    "a@example.com",
    "not an email",
    "https://example.com/x?y=1",
    "not a uri",
    "127.0.0.1",
    "::1",
    "e5c7f6b2-1d4f-4a7e-9a1b-2c3d4e5f6a7b",
    "P3D",
    "0",
    "true",
    "null",
    "ü",
    "日本",
    "a b c",
    "0123456789012345678901234567890123456789",
];

/// A value of any kind, small.
pub fn any_value(rng: &mut Rng, depth: u32) -> Value {
    match rng.below(if depth > 2 { 6 } else { 8 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.chance(50)),
        2 => json!(rng.below(200) as i64 - 50),
        3 => json!((rng.below(2000) as f64 - 500.0) / 8.0),
        4 | 5 => Value::String((*rng.pick(STRINGS)).to_owned()),
        6 => Value::Array(
            (0..rng.below(3))
                .map(|_| any_value(rng, depth + 1))
                .collect(),
        ),
        _ => {
            let mut m = Map::new();
            for i in 0..rng.below(3) {
                m.insert(format!("k{i}"), any_value(rng, depth + 1));
            }
            Value::Object(m)
        }
    }
}

/// A `#/...` pointer resolved in `root`.
fn local<'a>(root: &'a Value, r: &str) -> Option<&'a Value> {
    let p = r.strip_prefix('#')?;
    root.pointer(p)
}

/// Arguments for `schema` (inside document `root`), plausible and sometimes wrong.
pub fn instance(rng: &mut Rng, root: &Value, schema: &Value, depth: u32) -> Value {
    if depth > 6 || rng.chance(4) {
        return any_value(rng, depth);
    }
    let Some(obj) = schema.as_object() else {
        return any_value(rng, depth);
    };
    if let Some(Value::String(r)) = obj.get("$ref") {
        if let Some(target) = local(root, r) {
            return instance(rng, root, target, depth + 1);
        }
    }
    if let Some(c) = obj.get("const") {
        if rng.chance(85) {
            return c.clone();
        }
    }
    if let Some(Value::Array(options)) = obj.get("enum") {
        if !options.is_empty() && rng.chance(85) {
            return rng.pick(options).clone();
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = obj.get(key) {
            if !branches.is_empty() {
                let branch = rng.pick(branches);
                return instance(rng, root, branch, depth + 1);
            }
        }
    }
    let ty = match obj.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) if !ts.is_empty() => rng.pick(ts).as_str().unwrap_or("").to_owned(),
        _ if obj.contains_key("properties") => "object".into(),
        _ => return any_value(rng, depth),
    };
    match ty.as_str() {
        "object" => object(rng, root, obj, depth),
        "array" => {
            let n = rng.below(4);
            let item = obj.get("items").cloned().unwrap_or(json!({}));
            Value::Array(
                (0..n)
                    .map(|_| instance(rng, root, &item, depth + 1))
                    .collect(),
            )
        }
        "string" => Value::String((*rng.pick(STRINGS)).to_owned()),
        "integer" => integer(rng, obj),
        "number" => {
            if rng.chance(50) {
                integer(rng, obj)
            } else {
                json!(rng.below(4000) as f64 / 16.0 - 20.0)
            }
        }
        "boolean" => Value::Bool(rng.chance(50)),
        "null" => Value::Null,
        _ => any_value(rng, depth),
    }
}

fn integer(rng: &mut Rng, obj: &Map<String, Value>) -> Value {
    let bound = |k: &str| obj.get(k).and_then(Value::as_f64);
    match rng.below(8) {
        0 => json!(bound("minimum").unwrap_or(0.0) as i64 - 1),
        1 => json!(bound("maximum").unwrap_or(100.0) as i64 + 1),
        2 => json!(bound("minimum").unwrap_or(0.0) as i64),
        3 => json!(3.0),
        4 => json!(99_999_999_999i64),
        _ => json!(rng.below(20) as i64),
    }
}

fn object(rng: &mut Rng, root: &Value, obj: &Map<String, Value>, depth: u32) -> Value {
    let required: Vec<&str> = match obj.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let mut m = Map::new();
    if let Some(Value::Object(props)) = obj.get("properties") {
        for (name, s) in props {
            let want = if required.contains(&name.as_str()) {
                92
            } else {
                45
            };
            if rng.chance(want) {
                m.insert(name.clone(), instance(rng, root, s, depth + 1));
            }
        }
    }
    if rng.chance(8) {
        m.insert("extra".into(), any_value(rng, depth + 1));
    }
    Value::Object(m)
}

/// A schema put together from the keywords real declarations use, nesting a little.
pub fn schema(rng: &mut Rng, depth: u32) -> Value {
    let mut s = Map::new();
    let kinds = [
        "string", "integer", "number", "boolean", "object", "array", "null",
    ];
    let ty = if depth == 0 {
        "object"
    } else {
        *rng.pick(&kinds)
    };
    if rng.chance(15) && depth > 0 {
        s.insert(
            "anyOf".into(),
            json!([schema(rng, depth + 1), {"type": "null"}]),
        );
        return Value::Object(s);
    }
    if rng.chance(10) && depth > 0 && ty != "null" {
        s.insert("type".into(), json!([ty, "null"]));
    } else {
        s.insert("type".into(), json!(ty));
    }
    if rng.chance(30) {
        s.insert("description".into(), json!("a field"));
    }
    match ty {
        "string" => match rng.below(8) {
            0 => {
                s.insert("enum".into(), json!(["Paris", "Rome", "a"]));
            }
            1 => {
                s.insert("maxLength".into(), json!(rng.below(6)));
            }
            2 => {
                s.insert("minLength".into(), json!(1));
            }
            3 => {
                s.insert(
                    "pattern".into(),
                    json!(*rng.pick(&["^[A-Z]", "^TKT-[0-9]{3}$", "a", "^\\S+$"])),
                );
            }
            4 => {
                s.insert(
                    "format".into(),
                    json!(*rng.pick(&[
                        "ipv4",
                        "ipv6",
                        "float",
                        "date-time",
                        "date",
                        "email",
                        "uri",
                        "uuid"
                    ])),
                );
            }
            _ => {}
        },
        "integer" | "number" => {
            if rng.chance(40) {
                s.insert("minimum".into(), json!(rng.below(5)));
            }
            if rng.chance(30) {
                s.insert("maximum".into(), json!(10 + rng.below(90)));
            }
            if rng.chance(15) {
                s.insert("multipleOf".into(), json!(*rng.pick(&[2.0, 0.5, 5.0])));
            }
        }
        "object" if depth < 3 => {
            let mut props = Map::new();
            let n = 1 + rng.below(4);
            for i in 0..n {
                props.insert(format!("p{i}"), schema(rng, depth + 1));
            }
            let required: Vec<String> = (0..n)
                .filter(|_| rng.chance(50))
                .map(|i| format!("p{i}"))
                .collect();
            s.insert("properties".into(), Value::Object(props));
            s.insert("required".into(), json!(required));
            if rng.chance(50) {
                s.insert("additionalProperties".into(), json!(false));
            }
        }
        "array" if depth < 3 => {
            s.insert("items".into(), schema(rng, depth + 1));
            if rng.chance(20) {
                s.insert("minItems".into(), json!(1));
            }
            if rng.chance(15) {
                s.insert("uniqueItems".into(), json!(true));
            }
        }
        _ => {}
    }
    Value::Object(s)
}
