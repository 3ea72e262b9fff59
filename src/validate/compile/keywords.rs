//! The assertion keywords' values read and checked: `type`, numeric bounds, lengths and
//! counts, `pattern` (compiled once per text, process-wide), `enum`/`const`, `required`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::validate::decimal::Decimal;
use crate::validate::ecma_regex;
use crate::validate::error::CompileError;
use crate::validate::json::kind;
use crate::validate::json::{Json, show_f64};
use crate::validate::program::{Bound, Pattern, Types};

/// A JSON Schema `type` name: the kinds it accepts and Python's name for them.
fn js_type(name: &str) -> Option<(u8, &'static str)> {
    Some(match name {
        "string" => (kind::STR, "str"),
        // Strict like the flat form: 3.0 is a float, not an integer.
        "integer" => (kind::INT, "int"),
        "number" => (kind::INT | kind::FLOAT, "int or float"),
        "boolean" => (kind::BOOL, "bool"),
        "array" => (kind::ARRAY, "list"),
        "object" => (kind::OBJECT, "dict"),
        "null" => (kind::NULL, "NoneType"),
        _ => return None,
    })
}

/// `"type"`: one type name or a non-empty list of different ones.
pub(super) fn types(at: &str, v: &Json<'_>) -> Result<Types, CompileError> {
    // One known name (most schemas): no lists to build.
    if let Some((mask, word)) = match v {
        Json::Str(s) => js_type(s),
        _ => None,
    } {
        return Ok(Types {
            mask,
            name: std::borrow::Cow::Borrowed(word),
        });
    }
    let names: Vec<&Json<'_>> = match v {
        Json::Str(_) => vec![v],
        Json::Array(items) if !items.is_empty() => items.iter().collect(),
        _ => {
            return Err(CompileError::malformed(
                at,
                "\"type\" must be a type name or a non-empty list of them",
            ));
        }
    };
    let mut mask = 0;
    let mut words: Vec<&str> = Vec::new();
    for n in names {
        let (bits, word) = match n {
            Json::Str(s) => js_type(s),
            _ => None,
        }
        .ok_or_else(|| {
            CompileError::malformed(
                at,
                format!(
                    "unknown type {} (use string, integer, number, boolean, array, object or null)",
                    n.to_text()
                ),
            )
        })?;
        if mask & bits == bits {
            return Err(CompileError::malformed(
                at,
                format!("\"type\" lists {} twice", n.to_text()),
            ));
        }
        words.push(word);
        mask |= bits;
    }
    let name = match words.as_slice() {
        [one] => std::borrow::Cow::Borrowed(*one),
        _ => std::borrow::Cow::Owned(words.join(" or ")),
    };
    Ok(Types { mask, name })
}

/// A numeric bound: its exact value and its text as written.
pub(super) fn bound(at: &str, key: &str, v: &Json<'_>) -> Result<Bound, CompileError> {
    let text = match v {
        Json::Int(i) => i.to_string(),
        Json::BigInt(t) => t.to_string(),
        Json::Float(f) => show_f64(*f),
        _ => {
            return Err(CompileError::malformed(
                at,
                format!("\"{key}\" must be a number, got {}", v.to_text()),
            ));
        }
    };
    Ok(Bound {
        value: v.clone().into_owned(),
        text: text.into(),
    })
}

/// `multipleOf`: a number above zero, kept as an exact decimal.
pub(super) fn multiple_of(at: &str, v: &Json<'_>) -> Result<(Decimal, Box<str>), CompileError> {
    let b = bound(at, "multipleOf", v)?;
    let positive = matches!(
        crate::validate::number::compare(v, &Json::Int(0)),
        Some(std::cmp::Ordering::Greater)
    );
    match Decimal::of(v).filter(|d| positive && !d.is_zero()) {
        Some(d) => Ok((d, b.text)),
        None => Err(CompileError::malformed(
            at,
            format!(
                "\"multipleOf\" must be a number above 0, got {}",
                v.to_text()
            ),
        )),
    }
}

/// A length or count: a whole number >= 0, written as an integer or as a float with no
/// fraction (`2.0`), as JSON Schema allows. Beyond `u64` it saturates (nothing is that long).
pub(super) fn count(at: &str, key: &str, v: &Json<'_>) -> Result<u64, CompileError> {
    let n = match v {
        Json::Int(i) => u64::try_from(*i).ok(),
        Json::BigInt(t) if !t.starts_with('-') => Some(u64::MAX),
        Json::Float(f) if *f >= 0.0 && f.fract() == 0.0 => Some(*f as u64),
        _ => None,
    };
    n.ok_or_else(|| {
        CompileError::malformed(
            at,
            format!("\"{key}\" must be a whole number >= 0, got {}", v.to_text()),
        )
    })
}

/// Compiled patterns by text, shared by every schema of the process (a declaration set
/// repeats a few patterns many times). Bounded: past the cap, patterns are compiled anew.
fn cache() -> &'static Mutex<HashMap<String, Arc<ecma_regex::Compiled>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<ecma_regex::Compiled>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

const CACHED_PATTERNS: usize = 4096;

/// A pattern with its ECMA-262 meaning, compiled once. One the engine cannot give that
/// meaning (a lookahead, a backreference) is refused, naming `keyword`.
pub(super) fn pattern(at: &str, keyword: &str, src: &str) -> Result<Pattern, CompileError> {
    if let Some(hit) = cache().lock().ok().and_then(|c| c.get(src).cloned()) {
        return Ok(Pattern {
            source: src.into(),
            regex: hit,
        });
    }
    let regex = ecma_regex::compile(src).map_err(|e| {
        CompileError::refused(
            keyword,
            at,
            format!("bad pattern {}: {e}", crate::sanitize::quote(src)),
        )
    })?;
    let regex = Arc::new(regex);
    if let Ok(mut c) = cache().lock() {
        if c.len() < CACHED_PATTERNS {
            c.insert(src.to_owned(), regex.clone());
        }
    }
    Ok(Pattern {
        source: src.into(),
        regex,
    })
}

/// A list of names (`required`, a `dependentRequired` entry), repeats dropped.
pub(super) fn names(at: &str, key: &str, v: &Json<'_>) -> Result<Vec<Box<str>>, CompileError> {
    let Json::Array(items) = v else {
        return Err(CompileError::malformed(
            at,
            format!("\"{key}\" must be a list of names"),
        ));
    };
    let mut out: Vec<Box<str>> = Vec::with_capacity(items.len());
    for item in items {
        let Json::Str(s) = item else {
            return Err(CompileError::malformed(
                at,
                format!(
                    "\"{key}\" must list names (strings), found {}",
                    item.to_text()
                ),
            ));
        };
        if !out.iter().any(|r| **r == **s) {
            out.push(s.as_ref().into());
        }
    }
    Ok(out)
}
