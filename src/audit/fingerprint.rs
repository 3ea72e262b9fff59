//! What tells one call from another: a hash of the tool and the arguments' value (the same
//! whatever order the keys were written in, numbers by value), and the start of the
//! arguments as text for an excerpt, written only as far as it is shown.

use std::hash::{BuildHasher, Hash, Hasher};

use foldhash::fast::{FixedState, FoldHasher};

use crate::validate::Json;

/// One fixed seed: the same call hashes the same in every run.
const SEED: u64 = 0x7a11_d05a;

fn hasher() -> FoldHasher<'static> {
    FixedState::with_seed(SEED).build_hasher()
}

/// The tool and its arguments' value.
pub fn of_args(tool: &str, args: &Json<'_>) -> u64 {
    let mut h = hasher();
    tool.hash(&mut h);
    h.write_u64(value(args));
    h.finish()
}

/// The tool and arguments that are not JSON (their text).
pub fn of_text(tool: &str, text: &str) -> u64 {
    let mut h = hasher();
    tool.hash(&mut h);
    0xffu8.hash(&mut h);
    text.hash(&mut h);
    h.finish()
}

fn value(v: &Json<'_>) -> u64 {
    let mut h = hasher();
    match v {
        Json::Null => 0u8.hash(&mut h),
        Json::Bool(b) => (1u8, *b).hash(&mut h),
        Json::Int(i) => (2u8, (*i as f64).to_bits()).hash(&mut h),
        Json::Float(f) => (2u8, f.to_bits()).hash(&mut h),
        Json::BigInt(t) => (3u8, t.as_ref()).hash(&mut h),
        Json::Str(s) => (4u8, s.as_ref()).hash(&mut h),
        Json::Array(items) => {
            5u8.hash(&mut h);
            for i in items {
                h.write_u64(value(i));
            }
        }
        Json::Object(fields) => {
            // Members in any order: their hashes are summed.
            let mut sum = 0u64;
            for (k, v) in fields {
                let mut m = hasher();
                k.as_ref().hash(&mut m);
                m.write_u64(value(v));
                sum = sum.wrapping_add(m.finish());
            }
            (6u8, sum, fields.len()).hash(&mut h);
        }
    }
    h.finish()
}

/// The start of `v` as compact JSON text, about `max` bytes of it (the rest left unwritten).
pub fn head(v: &Json<'_>, max: usize) -> String {
    let mut out = String::new();
    write(v, max, &mut out);
    out
}

fn write(v: &Json<'_>, max: usize, out: &mut String) {
    if out.len() > max {
        return;
    }
    match v {
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if out.len() > max {
                    return;
                }
                if i > 0 {
                    out.push(',');
                }
                write(item, max, out);
            }
            out.push(']');
        }
        Json::Object(fields) => {
            out.push('{');
            for (i, (k, item)) in fields.iter().enumerate() {
                if out.len() > max {
                    return;
                }
                if i > 0 {
                    out.push(',');
                }
                crate::validate::json::push_str_json(k, out);
                out.push(':');
                write(item, max, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_text()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::json::parse;

    #[test]
    fn key_order_does_not_matter_and_values_do() {
        let a = parse(r#"{"a": 1, "b": [true, "x"]}"#).unwrap();
        let b = parse(r#"{"b": [true, "x"], "a": 1.0}"#).unwrap();
        let c = parse(r#"{"a": 2, "b": [true, "x"]}"#).unwrap();
        assert_eq!(of_args("t", &a), of_args("t", &b));
        assert_ne!(of_args("t", &a), of_args("t", &c));
        assert_ne!(of_args("t", &a), of_args("u", &a));
        assert_ne!(of_text("t", "{"), of_text("t", "{ "));
    }

    #[test]
    fn a_head_is_the_text_as_far_as_it_goes() {
        let v = parse(r#"{"a": [1, 2, {"b": "c"}], "d": null}"#).unwrap();
        assert_eq!(head(&v, 100), r#"{"a":[1,2,{"b":"c"}],"d":null}"#);
        assert!(head(&v, 4).len() < 12);
    }
}
