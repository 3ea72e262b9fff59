//! `email` (RFC 5321 §4.1.2 Mailbox) and `idn-email` (RFC 6531, which lets UTF-8 into the
//! local part and the domain).
//!
//! The address splits at its last `@`: a domain never holds one, and a local part holds one
//! only inside quotes. The local part (a dot-string or a quoted string, at most 64 octets) is
//! checked by the `email_address` crate. The domain is a host name (`hostname`, or
//! `idn-hostname` after NFC for `idn-email`), or an address literal: `[IPv4]`,
//! `[IPv6:addr]`, or a general `[tag:content]`. A whole mailbox is at most 254 octets
//! (RFC 5321's 256-octet path, less its angle brackets).

use std::net::{Ipv4Addr, Ipv6Addr};

use email_address::EmailAddress;
use icu_normalizer::ComposingNormalizer;

use super::host::{is_hostname, is_idn_hostname};

const MAX_MAILBOX: usize = 254;

pub(super) fn is_email(s: &str) -> bool {
    s.is_ascii() && mailbox(s, false)
}

pub(super) fn is_idn_email(s: &str) -> bool {
    mailbox(s, true)
}

fn mailbox(s: &str, idn: bool) -> bool {
    if s.len() > MAX_MAILBOX {
        return false;
    }
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    if !EmailAddress::is_valid_local_part(local) {
        return false;
    }
    if let Some(literal) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        return address_literal(literal);
    }
    if idn {
        is_idn_hostname(&ComposingNormalizer::new_nfc().normalize(domain))
    } else {
        is_hostname(domain)
    }
}

/// The inside of `[...]` (RFC 5321 §4.1.3).
fn address_literal(s: &str) -> bool {
    let Some((tag, content)) = s.split_once(':') else {
        return s.parse::<Ipv4Addr>().is_ok();
    };
    if tag.eq_ignore_ascii_case("IPv6") {
        return content.parse::<Ipv6Addr>().is_ok();
    }
    // A General-address-literal: an LDH tag, then printable ASCII but `[`, `\` and `]`.
    let ldh = |c: u8| c.is_ascii_alphanumeric() || c == b'-';
    let tb = tag.as_bytes();
    !tb.is_empty()
        && tb.iter().all(|&c| ldh(c))
        && tb[tb.len() - 1] != b'-'
        && !content.is_empty()
        && content.bytes().all(|c| matches!(c, 33..=90 | 94..=126))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailboxes() {
        assert!(is_email("joe.bloggs@example.com"));
        assert!(is_email("\"joe@bloggs\"@example.com"));
        assert!(is_email("joe@[IPv6:::1]"));
        assert!(is_email("joe@[x400:c=gb]"));
        assert!(!is_email("joe@[127.0.0.300]"));
        assert!(!is_email("joe@invalid=domain.com"));
        assert!(!is_email("δοκιμή@example.com"));
        assert!(is_idn_email("δοκιμή@example.com"));
        assert!(is_idn_email("user@cafe\u{301}.com"));
        assert!(!is_idn_email("user＠example.com"));
        assert!(!is_email(&format!("{}@example.com", "a".repeat(65))));
    }
}
