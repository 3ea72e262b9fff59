//! Cutting a result to `max_result_bytes` without breaking it: the model must still receive
//! one valid JSON envelope whose typed fields (`ok`, `code`, `status`, ids, numbers, booleans)
//! are intact, with `"truncated": true` and a `cut` object naming each shortened field and how
//! much of it was kept. Only long content is shortened: strings (by bytes, on a character
//! boundary) and arrays (by items).

use serde_json::{Map, Value, json};

/// String fields that carry a status or an identity rather than content: never shortened.
const TYPED_KEYS: &[&str] = &["ok", "code", "status", "id", "ticket_id", "category"];

/// Fit `text` (a result envelope as JSON) into at most `max` bytes. Returns the text and
/// whether it was cut. A result that fits is returned untouched. One that does not is
/// rebuilt: every long string or array is cut to the same, largest possible allowance, and
/// `truncated` and `cut` are added. Text that is not a JSON object is carried as the string
/// field `text`. When even the typed fields alone do not fit, what is left is the smallest
/// valid envelope that fits (`{"ok":false,"truncated":true}`, `{"truncated":true}`, `{}`),
/// or nothing at all below two bytes; the trace says `truncated: true` either way.
pub fn truncate_result(text: String, max: usize) -> (String, bool) {
    if text.len() <= max {
        return (text, false);
    }
    let original = match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(m)) => m,
        _ => {
            let mut m = Map::new();
            m.insert("text".into(), Value::String(text));
            m
        }
    };
    // The allowance is in bytes for strings and in items for arrays; the result grows with
    // it, so the largest allowance that fits is found by bisection.
    let fits = |cap: usize| {
        let out = shorten(&original, cap);
        (out.len() <= max).then_some(out)
    };
    let Some(mut best) = fits(0) else {
        return (smallest(&original, max), true);
    };
    let (mut lo, mut hi) = (0usize, max);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        match fits(mid) {
            Some(out) => {
                best = out;
                lo = mid;
            }
            None => hi = mid - 1,
        }
    }
    (best, true)
}

/// The envelope with every long string and array cut to `cap`, plus `truncated` and `cut`.
fn shorten(original: &Map<String, Value>, cap: usize) -> String {
    let mut cuts = Map::new();
    let mut body = Map::new();
    for (k, v) in original {
        body.insert(k.clone(), cut_value(v, k, k, cap, &mut cuts));
    }
    body.insert("truncated".into(), Value::Bool(true));
    body.insert("cut".into(), Value::Object(cuts));
    Value::Object(body).to_string()
}

/// `v` (found at `path`, under the key `key`) with long content cut to `cap`; every cut is
/// noted in `cuts` as `path -> "kept K of N bytes|items"`.
fn cut_value(v: &Value, key: &str, path: &str, cap: usize, cuts: &mut Map<String, Value>) -> Value {
    match v {
        Value::String(s) if s.len() > cap && !TYPED_KEYS.contains(&key) => {
            let mut keep = cap;
            while !s.is_char_boundary(keep) {
                keep -= 1;
            }
            cuts.insert(
                path.to_owned(),
                json!(format!("kept {keep} of {} bytes", s.len())),
            );
            Value::String(s[..keep].to_owned())
        }
        Value::Array(items) => {
            let kept = items.len().min(cap);
            if kept < items.len() {
                cuts.insert(
                    path.to_owned(),
                    json!(format!("kept {kept} of {} items", items.len())),
                );
            }
            Value::Array(
                items[..kept]
                    .iter()
                    .enumerate()
                    .map(|(i, x)| cut_value(x, key, &format!("{path}[{i}]"), cap, cuts))
                    .collect(),
            )
        }
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, x)| {
                    let cut = cut_value(x, k, &format!("{path}.{k}"), cap, cuts);
                    (k.clone(), cut)
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The smallest valid envelope that still fits when the typed fields alone do not.
fn smallest(original: &Map<String, Value>, max: usize) -> String {
    let mut tries = Vec::new();
    if let Some(ok) = original.get("ok") {
        tries.push(json!({"ok": ok, "truncated": true}).to_string());
    }
    tries.push(json!({"truncated": true}).to_string());
    tries.push("{}".to_owned());
    tries
        .into_iter()
        .find(|t| t.len() <= max)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_title_is_cut_inside_a_valid_envelope() {
        let body = json!({"ok": true, "ticket": {"id": "TKT-108", "title": "x".repeat(500),
            "status": "open"}})
        .to_string();
        let (out, cut) = truncate_result(body, 200);
        assert!(cut && out.len() <= 200, "{out}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["ok"], true);
        assert_eq!(v["ticket"]["status"], "open");
        assert_eq!(v["ticket"]["id"], "TKT-108");
        assert_eq!(v["truncated"], true);
        let kept = v["ticket"]["title"].as_str().unwrap().len();
        assert!(kept > 50, "as much as fits is kept: {out}");
        assert_eq!(
            v["cut"]["ticket.title"],
            format!("kept {kept} of 500 bytes")
        );
    }

    #[test]
    fn arrays_lose_items_and_say_how_many() {
        let ids: Vec<String> = (0..100).map(|i| format!("TKT-{i:03}")).collect();
        let body = json!({"ok": true, "ids": ids, "total": 100}).to_string();
        let (out, _) = truncate_result(body, 150);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert!(out.len() <= 150);
        assert_eq!(v["total"], 100);
        let kept = v["ids"].as_array().unwrap().len();
        assert_eq!(v["cut"]["ids"], format!("kept {kept} of 100 items"));
    }

    #[test]
    fn tiny_limits_still_give_valid_json_or_nothing() {
        let body = json!({"ok": false, "code": "not_found", "detail": "y".repeat(80)}).to_string();
        for max in 0..body.len() {
            let (out, cut) = truncate_result(body.clone(), max);
            assert!(cut && out.len() <= max, "{max}: {out}");
            if max >= 2 {
                let v: Value = serde_json::from_str(&out).unwrap();
                assert!(v.is_object());
            }
        }
    }

    #[test]
    fn text_that_is_not_json_is_carried_in_a_field() {
        let (out, cut) = truncate_result("é".repeat(100), 120);
        assert!(cut && out.len() <= 120, "{out}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert!(v["text"].as_str().unwrap().chars().all(|c| c == 'é'));
        assert_eq!(truncate_result("short".into(), 61), ("short".into(), false));
    }
}
