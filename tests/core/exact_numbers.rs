//! Bounds, `enum` and `const` compare numbers exactly: against a plain exact decimal
//! reference (proptest) and against Python's own comparisons on random bound cases.

use std::cmp::Ordering;

use proptest::prelude::*;
use tooldojo::validate::{self, Json, Validator, ValidatorRules, number};

use crate::validate_props::Rng;

/// An exact decimal: sign, integer digits, fraction digits (no leading / trailing zeros).
#[derive(Debug)]
struct Decimal {
    negative: bool,
    int: String,
    frac: String,
}

/// The exact decimal value of a finite JSON number as the validator reads it (a float
/// literal is the nearest double, as in Python).
fn decimal(text: &str) -> Decimal {
    let full = if text.contains(['.', 'e', 'E']) {
        let f: f64 = text.parse().unwrap();
        assert!(f.is_finite());
        // Every double has at most 1074 fraction digits, so this is its exact value.
        format!("{f:.1074}")
    } else {
        text.to_owned()
    };
    let (negative, rest) = match full.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, full.as_str()),
    };
    let (int, frac) = rest.split_once('.').unwrap_or((rest, ""));
    let int = int.trim_start_matches('0').to_owned();
    let frac = frac.trim_end_matches('0').to_owned();
    let zero = int.is_empty() && frac.is_empty();
    Decimal {
        negative: negative && !zero,
        int,
        frac,
    }
}

fn reference(a: &str, b: &str) -> Ordering {
    let (x, y) = (decimal(a), decimal(b));
    let magnitude = x
        .int
        .len()
        .cmp(&y.int.len())
        .then_with(|| x.int.cmp(&y.int))
        .then_with(|| x.frac.cmp(&y.frac));
    match (x.negative, y.negative) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => magnitude,
        (true, true) => magnitude.reverse(),
    }
}

/// Integer and float literals near the places where rounding through f64 goes wrong.
fn arb_literal() -> impl Strategy<Value = String> {
    let pivots = prop_oneof![
        Just(1i128 << 53),
        Just(1i128 << 63),
        Just(1i128 << 64),
        Just(10i128.pow(22)),
        Just(10i128.pow(23)),
        Just(0i128),
    ];
    prop_oneof![
        any::<i64>().prop_map(|i| i.to_string()),
        any::<i128>().prop_map(|i| i.to_string()),
        (pivots.clone(), -3i128..=3, any::<bool>())
            .prop_map(|(p, d, neg)| ((p + d) * if neg { -1 } else { 1 }).to_string()),
        (pivots, -3i128..=3, any::<bool>())
            .prop_map(|(p, d, neg)| format!("{}.0", (p + d) * if neg { -1 } else { 1 })),
        "-?[1-9][0-9]{19,40}",
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:?}")),
        (-1e6f64..1e6).prop_map(|f| format!("{f:?}")),
        "-?[0-9]\\.[0-9]{1,25}e[+-]?[0-9]{1,2}",
    ]
}

proptest! {
    #[test]
    fn exact_comparison_agrees_with_the_decimal_reference(a in arb_literal(), b in arb_literal()) {
        let (x, y) = (validate::json::parse(&a).unwrap(), validate::json::parse(&b).unwrap());
        prop_assert_eq!(number::compare(&x, &y), Some(reference(&a, &b)), "{} vs {}", a, b);
        prop_assert_eq!(number::equal(&x, &y), reference(&a, &b) == Ordering::Equal);
    }

    /// The same comparison decides a bound in the real validator, and the message shows
    /// the bound and the value as written.
    #[test]
    fn maximum_decides_exactly(bound in arb_literal(), value in arb_literal()) {
        let schema = format!(r#"{{"type": "object", "properties": {{"v": {{"maximum": {bound}}}}}}}"#);
        let s = Validator::from_text(&schema).unwrap();
        let got = s.check(format!(r#"{{"v": {value}}}"#).as_str(), &ValidatorRules::ALL_ON);
        let over = reference(&value, &bound) == Ordering::Greater;
        prop_assert_eq!(got.is_err(), over);
        if let Err(v) = got {
            let shown = |t: &str| validate::json::parse(t).unwrap().show();
            let want = format!("value error: v must be <= {}, got {}", shown(&bound), shown(&value));
            prop_assert_eq!(v.message, want);
        }
    }
}

const PYTHON_ORACLE: &str = r#"
import json, sys
ops = {
    "minimum": lambda v, b: v >= b[0],
    "maximum": lambda v, b: v <= b[0],
    "exclusiveMinimum": lambda v, b: v > b[0],
    "exclusiveMaximum": lambda v, b: v < b[0],
    "enum": lambda v, b: any(v == o for o in b),
    "const": lambda v, b: v == b[0],
}
for line in sys.stdin:
    kw, bounds, value = json.loads(line)
    print(json.dumps(ops[kw](value, bounds)))
"#;

/// 3,000 random bound, enum and const cases: the validator says what Python's
/// comparisons of the `json.loads` values say.
#[test]
fn bounds_agree_with_python() {
    let Ok(mut child) = std::process::Command::new("python3")
        .args(["-c", PYTHON_ORACLE])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
    else {
        eprintln!("python3 not found: skipping the agreement test");
        return;
    };
    let literals: Vec<String> = {
        let mut v: Vec<String> = [
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999999",
            "100000000000000000000000",
            "9007199254740992",
            "9007199254740993",
            "9007199254740992.0",
            "9007199254740993.0",
            "9.2233720368547758e18",
            "1e22",
            "1e23",
            "0",
            "-0",
            "0.0",
            "-0.0",
            "0.1",
            "1e400",
            "-1e400",
            "972783798187987123879878123.18878137",
            "972783798187987123879878123",
        ]
        .map(String::from)
        .to_vec();
        for p in [1i128 << 53, 1 << 63, 1 << 64] {
            for d in -2..=2 {
                v.push((p + d).to_string());
                v.push((-p + d).to_string());
            }
        }
        v
    };
    let keywords = [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "enum",
        "const",
    ];
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut input = String::new();
    let mut ours = Vec::new();
    for _ in 0..3000 {
        let kw = *rng.pick(&keywords);
        let value = rng.pick(&literals).clone();
        let bounds: Vec<String> = (0..if kw == "enum" { 1 + rng.next() % 3 } else { 1 })
            .map(|_| rng.pick(&literals).clone())
            .collect();
        let written = if kw == "enum" {
            format!("[{}]", bounds.join(", "))
        } else {
            bounds[0].clone()
        };
        let schema =
            format!(r#"{{"type": "object", "properties": {{"v": {{"{kw}": {written}}}}}}}"#);
        let s = Validator::from_text(&schema).unwrap();
        let ok = s
            .check(
                format!(r#"{{"v": {value}}}"#).as_str(),
                &ValidatorRules::ALL_ON,
            )
            .is_ok();
        ours.push((ok, format!("{kw} {written} vs {value}")));
        input.push_str(&format!("[\"{kw}\", [{}], {value}]\n", bounds.join(", ")));
    }
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let theirs: Vec<bool> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l == "true")
        .collect();
    assert_eq!(theirs.len(), ours.len());
    for ((ok, case), py) in ours.iter().zip(&theirs) {
        assert_eq!(ok, py, "{case}");
    }
}

#[test]
fn a_value_reads_the_same_from_text_and_from_a_value() {
    let big = validate::json::parse("18446744073709551615").unwrap();
    let v = big.to_value();
    assert!(number::equal(&Json::from_value(&v), &big));
}
