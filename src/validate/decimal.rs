//! `multipleOf` on exact decimals. An integer literal is its digits; a float is the shortest
//! decimal that reads back as the same double (`0.1` is 1 x 10^-1, not the binary fraction
//! nearest it), which is the number as written for any literal of up to 17 digits. So
//! `0.3` is a multiple of `0.1`, and `1e308` of `0.5`, with no rounding at all.

use num_bigint::BigUint;

use super::json::Json;

/// A non-negative decimal `digits x 10^exp` (the sign never matters to `multipleOf`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decimal {
    /// The digits while they fit (the common case, checked without big numbers).
    small: Option<u64>,
    digits: BigUint,
    exp: i64,
}

impl Decimal {
    /// The exact decimal of a numeric value; `None` for a non-number, a NaN or an infinity.
    pub(crate) fn of(v: &Json<'_>) -> Option<Decimal> {
        match v {
            Json::Int(i) => Some(Decimal::from_u64(i.unsigned_abs(), 0)),
            Json::BigInt(t) => {
                let digits = t.trim_start_matches('-');
                let big = BigUint::parse_bytes(digits.as_bytes(), 10)?;
                Some(Decimal::from_big(big, 0))
            }
            Json::Float(f) if f.is_finite() => {
                // `{:e}` prints the shortest digits that read back as `f`: `7.5e-3`.
                let text = format!("{:e}", f.abs());
                let (mantissa, exp) = text.split_once('e')?;
                let exp: i64 = exp.parse().ok()?;
                let (whole, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
                let mut digits = String::with_capacity(whole.len() + frac.len());
                digits.push_str(whole);
                digits.push_str(frac);
                let big = BigUint::parse_bytes(digits.as_bytes(), 10)?;
                Some(Decimal::from_big(big, exp - frac.len() as i64))
            }
            _ => None,
        }
    }

    fn from_u64(n: u64, exp: i64) -> Decimal {
        Decimal {
            small: Some(n),
            digits: BigUint::from(n),
            exp,
        }
    }

    fn from_big(digits: BigUint, exp: i64) -> Decimal {
        let small = u64::try_from(&digits).ok();
        Decimal { small, digits, exp }
    }

    /// The value as an `i64` when it is a whole number that fits.
    pub(crate) fn as_int(&self) -> Option<i64> {
        match (self.small, self.exp) {
            (Some(n), 0) => i64::try_from(n).ok(),
            _ => None,
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.small == Some(0)
    }

    /// Is `self` a whole multiple of `step` (`step` not zero)?
    pub(crate) fn is_multiple_of(&self, step: &Decimal) -> bool {
        if self.is_zero() {
            return true;
        }
        if let (Some(a), Some(b), true) = (self.small, step.small, self.exp == step.exp) {
            return b != 0 && a % b == 0;
        }
        let e = self.exp.min(step.exp);
        let scale = |d: &Decimal| -> BigUint {
            let shift = (d.exp - e) as u32;
            &d.digits * BigUint::from(10u32).pow(shift)
        };
        let (a, b) = (scale(self), scale(step));
        b != BigUint::ZERO && (a % b) == BigUint::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::json::parse;

    fn multiple(a: &str, b: &str) -> bool {
        let a = Decimal::of(&parse(a).unwrap()).unwrap();
        let b = Decimal::of(&parse(b).unwrap()).unwrap();
        a.is_multiple_of(&b)
    }

    #[test]
    fn decimals_are_exact() {
        assert!(multiple("0.3", "0.1"));
        assert!(multiple("4.5", "1.5"));
        assert!(!multiple("35", "1.5"));
        assert!(multiple("0.0075", "0.0001"));
        assert!(!multiple("0.00751", "0.0001"));
        assert!(multiple("1e308", "0.5"));
        assert!(multiple("12391239123", "1e-8"));
        assert!(!multiple("1e308", "0.123456789"));
        assert!(multiple("-6", "3"));
        assert!(multiple("0", "7"));
        assert!(multiple("123456789012345678901234567890", "10"));
        assert!(!multiple("123456789012345678901234567891", "10"));
        assert!(multiple("19.99", "0.01"));
    }
}
