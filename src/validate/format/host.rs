//! `hostname` (RFC 1123, with RFC 5890 A-labels) and `idn-hostname` (RFC 5890 §2.3.2.3).
//!
//! A name is labels joined by dots, with no empty label and no dot at the end; every label,
//! in its ASCII form, is 1 to 63 octets and the whole name at most 253. An ASCII label is
//! letters, digits and hyphens, no hyphen first or last, and `--` in its third and fourth
//! places only as the `xn--` of an A-label. An A-label must be canonical Punycode (decoding
//! and encoding again gives it back) of a valid U-label that is not all ASCII. U-labels
//! follow IDNA2008 ([`super::idna2008`]). A name with a right-to-left label follows the
//! Bidi rule in every label.
//!
//! `hostname` is ASCII only. `idn-hostname` also takes U-labels and the other three full
//! stops of RFC 3490 (`。`, `．`, `｡`) as separators.

use idna::punycode;

use super::idna2008::{is_rtl_label, is_u_label, passes_bidi_rule};

/// The longest label and name in ASCII form (RFC 1034 §3.1, without the root's dot).
const MAX_LABEL: usize = 63;
const MAX_NAME: usize = 253;

pub(super) fn is_hostname(s: &str) -> bool {
    s.is_ascii() && check(s, false)
}

pub(super) fn is_idn_hostname(s: &str) -> bool {
    check(s, true)
}

fn is_separator(c: char, idn: bool) -> bool {
    c == '.' || (idn && matches!(c, '\u{3002}' | '\u{FF0E}' | '\u{FF61}'))
}

fn check(s: &str, idn: bool) -> bool {
    let mut ascii_len = 0;
    let mut rtl = false;
    for label in s.split(|c| is_separator(c, idn)) {
        let Some((len, label_rtl)) = label_info(label) else {
            return false;
        };
        ascii_len += len + 1;
        rtl |= label_rtl;
    }
    if ascii_len - 1 > MAX_NAME {
        return false;
    }
    // A Bidi domain name: every label, in Unicode form, must pass the Bidi rule.
    !rtl || s
        .split(|c| is_separator(c, idn))
        .all(|label| match a_label_payload(label) {
            Some(payload) => {
                punycode::decode_to_string(&payload).is_some_and(|u| passes_bidi_rule(&u))
            }
            None => passes_bidi_rule(label),
        })
}

/// The Punycode after `xn--` (lower-cased), if `label` is an A-label.
fn a_label_payload(label: &str) -> Option<String> {
    let b = label.as_bytes();
    (b.len() > 4 && b[..2].eq_ignore_ascii_case(b"xn") && &b[2..4] == b"--")
        .then(|| label[4..].to_ascii_lowercase())
}

/// Checks one label. Returns its length in ASCII form and whether it holds a right-to-left
/// character; `None` if it is not a valid label. Allocates only for A-labels and U-labels.
fn label_info(label: &str) -> Option<(usize, bool)> {
    if !label.is_ascii() {
        if !is_u_label(label) {
            return None;
        }
        let len = 4 + punycode::encode_str(label)?.len();
        return (len <= MAX_LABEL).then(|| (len, is_rtl_label(label)));
    }
    let b = label.as_bytes();
    let ldh = b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-');
    if !ldh || b.is_empty() || b.len() > MAX_LABEL || b[0] == b'-' || b[b.len() - 1] == b'-' {
        return None;
    }
    if b.get(2..4) != Some(b"--") {
        return Some((b.len(), false));
    }
    // `--` in the third and fourth places is reserved for A-labels.
    let payload = a_label_payload(label)?;
    let decoded = punycode::decode_to_string(&payload)?;
    let canonical = punycode::encode_str(&decoded).is_some_and(|again| again == payload);
    (canonical && !decoded.is_ascii() && is_u_label(&decoded))
        .then(|| (b.len(), is_rtl_label(&decoded)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_names() {
        assert!(is_hostname("www.example.com"));
        assert!(is_hostname("a--b.com"));
        assert!(!is_hostname("ab--c.com"));
        assert!(!is_hostname("example."));
        assert!(!is_hostname("-a.com"));
        assert!(!is_hostname("a_b.com"));
        assert!(is_hostname("xn--9n2bp8q.xn--9t4b11yi5a"));
        assert!(!is_hostname("xn--example-"));
        assert!(!is_hostname("실례.테스트"));
    }

    #[test]
    fn international_names() {
        assert!(is_idn_hostname("실례.테스트"));
        assert!(is_idn_hostname("a。b"));
        assert!(!is_idn_hostname("a。"));
        assert!(!is_idn_hostname("\u{212A}example.com"));
        assert!(!is_idn_hostname("Ünicode.com"));
        assert!(!is_idn_hostname("0a.א"));
        assert!(is_idn_hostname("a.א"));
        assert!(!is_idn_hostname(&"ü".repeat(60)));
    }
}
