//! When a message happened, where a record says: a `timestamp`, `created_at`, `created`,
//! `time` or `ts` member holding RFC 3339 text or seconds (or milliseconds) since 1970.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::validate::Json;

/// Where a key a logger puts a message's time under comes in the order they are looked
/// for: `timestamp`, `created_at`, `created`, `time`, `ts`.
fn rank(key: &str) -> Option<usize> {
    match key {
        "timestamp" => Some(0),
        "created_at" => Some(1),
        "created" => Some(2),
        "time" => Some(3),
        "ts" => Some(4),
        _ => None,
    }
}

/// Numbers at or above this are milliseconds, below it seconds (1e11 s is the year 5138).
const MS_FROM: f64 = 1e11;

/// Milliseconds since 1970 of `v`'s time member, if it has one that reads as a time.
pub(crate) fn at_ms(v: &Json<'_>) -> Option<u64> {
    let Json::Object(fields) = v else {
        return None;
    };
    // The first member of each key (as `Json::get` finds it), in one pass over the members;
    // then the first, in the order looked for, that reads as a time.
    let mut found: [Option<&Json<'_>>; 5] = [None; 5];
    for (k, value) in fields {
        if let Some(i) = rank(k) {
            found[i].get_or_insert(value);
        }
    }
    found.into_iter().flatten().find_map(time_of)
}

fn time_of(v: &Json<'_>) -> Option<u64> {
    let secs_or_ms = match v {
        Json::Int(i) => *i as f64,
        Json::Float(f) => *f,
        Json::Str(s) => return rfc3339_ms(s),
        _ => return None,
    };
    if !secs_or_ms.is_finite() || secs_or_ms < 0.0 {
        return None;
    }
    let ms = if secs_or_ms >= MS_FROM {
        secs_or_ms
    } else {
        secs_or_ms * 1000.0
    };
    (ms < u64::MAX as f64).then_some(ms as u64)
}

/// `2026-01-05T10:00:00.250Z` (or a space for the `T`) as milliseconds since 1970.
fn rfc3339_ms(s: &str) -> Option<u64> {
    let t = OffsetDateTime::parse(s, &Rfc3339).ok().or_else(|| {
        let spaced = s.get(10..11) == Some(" ");
        spaced
            .then(|| format!("{}T{}", &s[..10], &s[11..]))
            .and_then(|t| OffsetDateTime::parse(&t, &Rfc3339).ok())
    })?;
    let ms = t.unix_timestamp_nanos() / 1_000_000;
    u64::try_from(ms).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::json::parse;

    #[test]
    fn times_read_as_text_seconds_or_milliseconds() {
        let v = parse(r#"{"timestamp": "1970-01-01T00:00:01.250Z"}"#).unwrap();
        assert_eq!(at_ms(&v), Some(1250));
        let v = parse(r#"{"created": 1754432618}"#).unwrap();
        assert_eq!(at_ms(&v), Some(1_754_432_618_000));
        let v = parse(r#"{"ts": 1754432618123}"#).unwrap();
        assert_eq!(at_ms(&v), Some(1_754_432_618_123));
        let v = parse(r#"{"time": "2026-01-05 10:00:00+01:00"}"#).unwrap();
        assert_eq!(at_ms(&v), Some(1_767_603_600_000));
        let v = parse(r#"{"time": "yesterday", "created_at": -5}"#).unwrap();
        assert_eq!(at_ms(&v), None);
    }
}
