//! `date`, `time`, `date-time` (RFC 3339 §5.6) and `duration` (RFC 3339 Appendix A).
//!
//! Only ASCII digits count. `T` and `Z` may be either case. Days follow month lengths and
//! Gregorian leap years. A second of 60 is a leap second, so it is allowed only when the time,
//! moved to UTC by its offset, is 23:59. Offsets run to 23:59 either way. Durations use whole
//! numbers only, and their units come in the grammar's order.

/// `YYYY-MM-DD`, a real day of the Gregorian calendar.
pub(super) fn is_date(s: &str) -> bool {
    full_date(s.as_bytes())
}

/// `HH:MM:SS[.frac](Z|±HH:MM)`.
pub(super) fn is_time(s: &str) -> bool {
    full_time(s.as_bytes())
}

/// A full date, `T` (or `t`), then a full time.
pub(super) fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() > 11 && matches!(b[10], b'T' | b't') && full_date(&b[..10]) && full_time(&b[11..])
}

fn digits(b: &[u8]) -> Option<u32> {
    b.iter().try_fold(0u32, |n, &d| {
        d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
    })
}

fn full_date(b: &[u8]) -> bool {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (digits(&b[..4]), digits(&b[5..7]), digits(&b[8..]))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let last = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=last).contains(&day)
}

fn full_time(b: &[u8]) -> bool {
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) =
        (digits(&b[..2]), digits(&b[3..5]), digits(&b[6..8]))
    else {
        return false;
    };
    let mut rest = &b[8..];
    if let Some(frac) = rest.strip_prefix(b".") {
        let n = frac.iter().take_while(|d| d.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    // The offset in minutes east of UTC.
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(oh), Some(om)) = (digits(&[*h1, *h2]), digits(&[*m1, *m2])) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let east = i64::from(oh * 60 + om);
            if *sign == b'+' { east } else { -east }
        }
        _ => return false,
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    if second == 60 {
        let utc = (i64::from(hour * 60 + minute) - offset).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// `P`, then date units (a run of `Y`, `M`, `D` in that order, without gaps) with an optional
/// `T` part (a run of `H`, `M`, `S`), or a `T` part alone, or weeks alone.
pub(super) fn is_duration(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('P') else {
        return false;
    };
    let (date, time) = match rest.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (rest, None),
    };
    if date.is_empty() && time.is_none() {
        return false;
    }
    if let Some(weeks) = date.strip_suffix('W') {
        return time.is_none() && !weeks.is_empty() && weeks.bytes().all(|d| d.is_ascii_digit());
    }
    units_in_order(date, b"YMD", true) && time.is_none_or(|t| units_in_order(t, b"HMS", false))
}

/// `s` is a run of `<digits><unit>` whose units are consecutive letters of `order`; empty is
/// allowed only when `may_be_empty`.
fn units_in_order(s: &str, order: &[u8], may_be_empty: bool) -> bool {
    let mut next: Option<usize> = None;
    let mut rest = s.as_bytes();
    if rest.is_empty() {
        return may_be_empty;
    }
    while !rest.is_empty() {
        let n = rest.iter().take_while(|d| d.is_ascii_digit()).count();
        let Some(&unit) = rest.get(n) else {
            return false;
        };
        let Some(at) = order.iter().position(|&u| u == unit) else {
            return false;
        };
        if n == 0 || next.is_some_and(|want| want != at) {
            return false;
        }
        next = Some(at + 1);
        rest = &rest[n + 1..];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_follow_the_calendar() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("1900-02-29"));
        assert!(is_date("2000-02-29"));
        assert!(!is_date("2026-02-30"));
        assert!(!is_date("2026-04-31"));
        assert!(!is_date("2026-13-01"));
        assert!(!is_date("2026-1-01"));
        assert!(!is_date("２026-01-01"));
    }

    #[test]
    fn leap_seconds_only_at_the_last_utc_minute() {
        assert!(is_time("23:59:60Z"));
        assert!(is_time("15:59:60-08:00"));
        assert!(is_time("00:29:60-23:30"));
        assert!(!is_time("23:59:60+01:00"));
        assert!(!is_time("12:00:00"));
        assert!(is_date_time("2026-02-28t10:00:00.5z"));
        assert!(!is_date_time("2026-02-30T10:00"));
        assert!(!is_date_time("2026-02-28T10:00:00+24:00"));
    }

    #[test]
    fn durations_keep_their_units_in_order() {
        for ok in ["P1Y2M3DT4H5M6S", "P2W", "PT36H", "P1M2D", "PT1M2S", "P0D"] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in [
            "P", "PT", "P1YT", "P1Y2D", "PT1H2S", "P1WT1H", "P2D1Y", "PT0.5S", "P1",
        ] {
            assert!(!is_duration(bad), "{bad}");
        }
    }
}
