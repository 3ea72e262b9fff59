//! JSON numbers: the grammar of a literal (one for every reader), and exact comparison the
//! way Python compares what `json.loads` gives.
//!
//! An integer literal is an integer of any size (its text is kept when it does not fit
//! `i64`); a literal with a fraction or an exponent is the nearest double, as Python's
//! `float()` reads it (`1e400` is infinity). Comparisons never round through `f64`:
//! integers compare digit by digit, and an integer with a float compares with the float's
//! exact value, so `9007199254740993` is neither equal to nor less than `9007199254740992.0`.

use std::cmp::Ordering;

use super::Json;
use super::kind;

/// Where the number literal that starts at `b[i]` ends, and its kind: [`kind::INT`] for an
/// integer literal of any size, [`kind::FLOAT`] for one with a fraction or an exponent. Else
/// where it goes wrong (the byte that should have been a digit) and what was expected there.
#[inline(always)]
pub(crate) fn literal(b: &[u8], mut i: usize) -> Result<(u8, usize), (usize, &'static str)> {
    let digits = |mut i: usize| {
        while let Some(b'0'..=b'9') = b.get(i) {
            i += 1;
        }
        i
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    i = match b.get(i) {
        Some(b'0') => i + 1,
        Some(b'1'..=b'9') => digits(i + 1),
        Some(b'I') => return Err((i, "NaN and Infinity are not JSON")),
        _ => return Err((i, "expected a digit")),
    };
    let mut k = kind::INT;
    if b.get(i) == Some(&b'.') {
        k = kind::FLOAT;
        let end = digits(i + 1);
        if end == i + 1 {
            return Err((end, "expected a digit after the decimal point"));
        }
        i = end;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        k = kind::FLOAT;
        i += 1;
        if let Some(b'+' | b'-') = b.get(i) {
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return Err((end, "expected a digit in the exponent"));
        }
        i = end;
    }
    Ok((k, i))
}

/// 2^63: every integral double in [-2^63, 2^63) converts to `i64` exactly.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// Compare two numeric values exactly. `None` when either is not a number (booleans are
/// not numbers here) or is a NaN.
pub fn compare(a: &Json<'_>, b: &Json<'_>) -> Option<Ordering> {
    match (a, b) {
        (Json::Int(x), Json::Int(y)) => Some(x.cmp(y)),
        (Json::Float(x), Json::Float(y)) => x.partial_cmp(y),
        (Json::Float(_), Json::Int(_) | Json::BigInt(_)) => compare(b, a).map(Ordering::reverse),
        (Json::Int(_) | Json::BigInt(_), Json::Float(f)) => int_with_float(a, *f),
        (Json::Int(_) | Json::BigInt(_), Json::Int(_) | Json::BigInt(_)) => {
            Some(int_texts(&int_text(a), &int_text(b)))
        }
        _ => None,
    }
}

/// Are two numeric values equal by value (`1 == 1.0`, as Python and JSON Schema say)?
pub fn equal(a: &Json<'_>, b: &Json<'_>) -> bool {
    compare(a, b) == Some(Ordering::Equal)
}

/// The decimal text of an integer value (`Int` or `BigInt`).
fn int_text<'a>(v: &'a Json<'_>) -> std::borrow::Cow<'a, str> {
    match v {
        Json::Int(i) => i.to_string().into(),
        Json::BigInt(t) => t.as_ref().into(),
        _ => "0".into(),
    }
}

/// An integer against a float, exactly: compare with the float's integer part, and let
/// its fraction break a tie.
fn int_with_float(int: &Json<'_>, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f.is_infinite() {
        return Some(if f > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    let whole = f.trunc();
    let by_whole = match int {
        Json::Int(i) if (-TWO_63..TWO_63).contains(&whole) => i.cmp(&(whole as i64)),
        // Rust prints a double with a fixed precision exactly, digit for digit.
        _ => int_texts(&int_text(int), &format!("{whole:.0}")),
    };
    Some(by_whole.then_with(|| 0.0.partial_cmp(&(f - whole)).unwrap_or(Ordering::Equal)))
}

/// Compare two integers written in decimal (an optional `-`, then digits).
pub(crate) fn int_texts(a: &str, b: &str) -> Ordering {
    let (neg_a, mag_a) = split_sign(a);
    let (neg_b, mag_b) = split_sign(b);
    match (neg_a, neg_b) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => magnitudes(mag_a, mag_b),
        (true, true) => magnitudes(mag_b, mag_a),
    }
}

/// The sign and the digits without leading zeros; zero (`0`, `-0`) is never negative.
fn split_sign(t: &str) -> (bool, &str) {
    let (neg, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let digits = digits.trim_start_matches('0');
    (neg && !digits.is_empty(), digits)
}

fn magnitudes(a: &str, b: &str) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::json::parse;
    use Ordering::{Equal, Greater, Less};

    fn cmp(a: &str, b: &str) -> Option<Ordering> {
        compare(&parse(a).unwrap(), &parse(b).unwrap())
    }

    #[test]
    fn the_cases_that_rounding_got_wrong() {
        assert_eq!(
            cmp("9223372036854775808", "9223372036854775807"),
            Some(Greater)
        );
        assert_eq!(
            cmp("100000000000000000000000", "99999999999999999999999"),
            Some(Greater)
        );
        assert_eq!(cmp("9007199254740993", "9007199254740992.0"), Some(Greater));
        assert_eq!(cmp("9007199254740992", "9007199254740992.0"), Some(Equal));
        assert_eq!(cmp("9007199254740992.0", "9007199254740993"), Some(Less));
    }

    #[test]
    fn integers_of_any_size() {
        assert_eq!(cmp("-0", "0"), Some(Equal));
        assert_eq!(
            cmp("-100000000000000000000", "-99999999999999999999"),
            Some(Less)
        );
        assert_eq!(cmp("-100000000000000000000", "5"), Some(Less));
        assert_eq!(cmp("100000000000000000000", "-5"), Some(Greater));
        assert_eq!(int_texts("007", "7"), Equal);
    }

    #[test]
    fn integers_against_floats() {
        assert_eq!(cmp("3", "2.5"), Some(Greater));
        assert_eq!(cmp("2", "2.5"), Some(Less));
        assert_eq!(cmp("-3", "-2.5"), Some(Less));
        assert_eq!(cmp("-2", "-2.5"), Some(Greater));
        assert_eq!(cmp("0", "-0.0"), Some(Equal));
        assert_eq!(cmp("0", "0.1"), Some(Less));
        assert_eq!(cmp("0", "-0.1"), Some(Greater));
        // 2^100 exactly, and one more.
        assert_eq!(
            format!("{:.0}", 2f64.powi(100)),
            "1267650600228229401496703205376"
        );
        assert_eq!(
            cmp(
                "1267650600228229401496703205376",
                "1.267650600228229401496703205376e30"
            ),
            Some(Equal)
        );
        assert_eq!(
            cmp(
                "1267650600228229401496703205377",
                "1.267650600228229401496703205376e30"
            ),
            Some(Greater)
        );
        assert_eq!(
            cmp("-9223372036854775808", "-9.223372036854775808e18"),
            Some(Equal)
        );
        assert_eq!(
            cmp("9223372036854775807", "9.223372036854775808e18"),
            Some(Less)
        );
        // Infinity (1e400 reads as inf, as in Python) is above every integer.
        assert_eq!(cmp(&"9".repeat(500), "1e400"), Some(Less));
        assert_eq!(
            cmp(&format!("-{}", "9".repeat(500)), "-1e400"),
            Some(Greater)
        );
        assert_eq!(cmp("1e400", "1e401"), Some(Equal));
    }

    #[test]
    fn non_numbers_do_not_compare() {
        assert_eq!(cmp("true", "1"), None);
        assert_eq!(cmp("1", "\"1\""), None);
        assert!(!equal(&Json::Float(f64::NAN), &Json::Float(f64::NAN)));
    }
}
