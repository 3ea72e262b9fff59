//! `uri`, `uri-reference` (RFC 3986), `iri`, `iri-reference` (RFC 3987), by the `iri-string`
//! crate's strict parsers, and `uri-template` (RFC 6570's grammar, with erratum 6937's
//! apostrophe), by hand: that crate's template reader takes `{v:0}` and `{a..b}` and
//! refuses characters above the BMP. A URI or IRI has a scheme; a reference may be
//! relative. Nothing is normalised first.

use iri_string::spec::{IriSpec, UriSpec};
use iri_string::validate;

pub(super) fn is_uri(s: &str) -> bool {
    validate::iri::<UriSpec>(s).is_ok()
}

pub(super) fn is_uri_reference(s: &str) -> bool {
    validate::iri_reference::<UriSpec>(s).is_ok()
}

pub(super) fn is_iri(s: &str) -> bool {
    validate::iri::<IriSpec>(s).is_ok()
}

pub(super) fn is_iri_reference(s: &str) -> bool {
    validate::iri_reference::<IriSpec>(s).is_ok()
}

/// Literals and `{expressions}`: an optional operator, then `,`-separated variables, each
/// with an optional `:max-length` (1 to 9999) or `*`.
pub(super) fn is_uri_template(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' {
            let Some(len) = b[i + 1..].iter().position(|&c| c == b'}') else {
                return false;
            };
            if !expression(&s[i + 1..i + 1 + len]) {
                return false;
            }
            i += len + 2;
            continue;
        }
        let Some(c) = s[i..].chars().next() else {
            return false;
        };
        let ok = match c {
            '%' => pct_encoded(&b[i..]),
            '\'' | '!' | '#' | '$' | '&' | '('..=';' | '=' | '?'..='[' | ']' | '_' | 'a'..='z' => {
                true
            }
            '~' => true,
            c => is_ucschar(c) || is_iprivate(c),
        };
        if !ok {
            return false;
        }
        i += c.len_utf8();
    }
    true
}

fn pct_encoded(b: &[u8]) -> bool {
    b.len() >= 3 && b[0] == b'%' && b[1].is_ascii_hexdigit() && b[2].is_ascii_hexdigit()
}

/// The inside of one `{...}`.
fn expression(e: &str) -> bool {
    let e = e
        .strip_prefix(['+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|'])
        .unwrap_or(e);
    e.split(',').all(varspec)
}

fn varspec(v: &str) -> bool {
    let (name, modifier) = match v.find([':', '*']) {
        Some(at) => v.split_at(at),
        None => (v, ""),
    };
    let modifier_ok = match modifier.as_bytes() {
        [] | [b'*'] => true,
        [b':', first, rest @ ..] => {
            (b'1'..=b'9').contains(first) && rest.len() <= 3 && rest.iter().all(u8::is_ascii_digit)
        }
        _ => false,
    };
    modifier_ok && !name.is_empty() && name.split('.').all(|part| varchars(part.as_bytes()))
}

/// One or more of letters, digits, `_` and percent-encoded octets.
fn varchars(b: &[u8]) -> bool {
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if !pct_encoded(&b[i..]) {
                return false;
            }
            i += 3;
        } else if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            i += 1;
        } else {
            return false;
        }
    }
    i > 0
}

/// RFC 3987's `ucschar`.
fn is_ucschar(c: char) -> bool {
    let c = u32::from(c);
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
        || ((0x10000..=0xDFFFD).contains(&c) && (c & 0xFFFF) <= 0xFFFD)
}

/// RFC 3987's `iprivate`.
fn is_iprivate(c: char) -> bool {
    matches!(u32::from(c), 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_follow_rfc_6570() {
        for ok in [
            "", "a{x}b", "{+x,y:3}", "{x*}", "{a.b}", "{%41}", "a'b", "a😀b", "{=x}",
        ] {
            assert!(is_uri_template(ok), "{ok}");
        }
        for bad in [
            "{}",
            "{x",
            "x}",
            "{v:0}",
            "{v:10000}",
            "{v:01}",
            "{a..b}",
            "{a,}",
            "a b",
            "{x:1*}",
            "%4",
        ] {
            assert!(!is_uri_template(bad), "{bad}");
        }
    }
}
