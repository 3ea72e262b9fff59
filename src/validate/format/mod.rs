//! The `format` keyword: checkers for the formats JSON Schema 2020-12 defines, as the
//! official suite's `optional/format` tests them.
//!
//! [`checker`] maps a format name to its checker, or to `None` for a name the standard does
//! not define (`"float"`, `"int32"`): such a format is a note only, as the standard says,
//! and costs nothing. A checker applies to strings; JSON Schema says a format never fails a
//! value of another type, and the validator only calls it on strings. Checkers allocate
//! nothing for ASCII input, except `hostname` for an `xn--` label and `idn-email`.
//!
//! - [`time`]: `date`, `time`, `date-time`, `duration` (RFC 3339, by hand);
//! - [`host`] and [`idna2008`]: `hostname`, `idn-hostname` (RFC 1123, RFC 5890-5893, with
//!   Punycode from `idna` and Unicode properties from ICU4X);
//! - [`email`]: `email`, `idn-email` (RFC 5321, RFC 6531, local parts by `email_address`);
//! - [`uri`]: `uri`, `uri-reference`, `iri`, `iri-reference`, `uri-template` (`iri-string`);
//! - [`pointer`]: `json-pointer`, `relative-json-pointer`, `uuid`;
//! - `ipv4`, `ipv6`: `std::net` (no leading zeros, no zone ids);
//! - `regex`: a valid ECMA-262 pattern with the `u` flag ([`super::ecma_regex::is_valid`]),
//!   a question of syntax only.

mod email;
mod host;
mod idna2008;
mod pointer;
mod time;
mod uri;

/// One format the standard defines, with the words a message uses for it.
#[derive(Clone, Copy)]
pub struct FormatChecker {
    /// The format's name as a schema writes it (`"date-time"`).
    pub name: &'static str,
    /// What a valid value is, for messages: `"a date-time"` in
    /// `value error: when.start must be a date-time, got "2026-02-30T10:00"`.
    pub what: &'static str,
    check: fn(&str) -> bool,
}

impl FormatChecker {
    /// Does `s` have this format?
    pub fn is_valid(&self, s: &str) -> bool {
        (self.check)(s)
    }
}

impl std::fmt::Debug for FormatChecker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("FormatChecker").field(&self.name).finish()
    }
}

impl PartialEq for FormatChecker {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for FormatChecker {}

const fn entry(name: &'static str, what: &'static str, check: fn(&str) -> bool) -> FormatChecker {
    FormatChecker { name, what, check }
}

/// Every checker, in the order of [`KNOWN`].
const CHECKERS: &[FormatChecker] = &[
    entry("date-time", "a date-time", time::is_date_time),
    entry("date", "a date", time::is_date),
    entry("time", "a time", time::is_time),
    entry("duration", "a duration", time::is_duration),
    entry("email", "an email address", email::is_email),
    entry(
        "idn-email",
        "an internationalized email address",
        email::is_idn_email,
    ),
    entry("hostname", "a hostname", host::is_hostname),
    entry(
        "idn-hostname",
        "an internationalized hostname",
        host::is_idn_hostname,
    ),
    entry("ipv4", "an IPv4 address", |s| {
        s.parse::<std::net::Ipv4Addr>().is_ok()
    }),
    entry("ipv6", "an IPv6 address", |s| {
        s.parse::<std::net::Ipv6Addr>().is_ok()
    }),
    entry("uri", "a URI", uri::is_uri),
    entry("uri-reference", "a URI reference", uri::is_uri_reference),
    entry("iri", "an IRI", uri::is_iri),
    entry("iri-reference", "an IRI reference", uri::is_iri_reference),
    entry("uri-template", "a URI template", uri::is_uri_template),
    entry("uuid", "a UUID", pointer::is_uuid),
    entry("json-pointer", "a JSON pointer", pointer::is_json_pointer),
    entry(
        "relative-json-pointer",
        "a relative JSON pointer",
        pointer::is_relative_json_pointer,
    ),
    entry(
        "regex",
        "an ECMA-262 regular expression",
        super::ecma_regex::is_valid,
    ),
];

/// Every format name the standard defines.
pub const KNOWN: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "uuid",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// The checker of a format the standard defines, `None` for any other name. Names are
/// case-sensitive, as the standard writes them.
pub fn checker(name: &str) -> Option<FormatChecker> {
    CHECKERS.iter().find(|c| c.name == name).copied()
}

/// Is `name` a format the standard defines?
pub fn is_known(name: &str) -> bool {
    checker(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_is_the_list_of_checkers() {
        let names: Vec<&str> = CHECKERS.iter().map(|c| c.name).collect();
        assert_eq!(names, KNOWN);
    }

    proptest::proptest! {
        /// No text makes a checker panic, whatever its script or shape.
        #[test]
        fn every_checker_takes_any_text(
            s in "\\PC{0,40}|[0-9:TZz+.-]{0,30}|([a-zA-Z0-9-]{0,5}[.@%{}~/#:]){0,8}|(xn--[a-z0-9-]{0,8}\\.?){1,3}",
        ) {
            for c in CHECKERS {
                let _ = c.is_valid(&s);
            }
        }
    }

    #[test]
    fn a_checker_judges_strings() {
        let c = checker("date-time").unwrap();
        assert_eq!(c.what, "a date-time");
        assert!(!c.is_valid("2026-02-30T10:00"));
        assert!(c.is_valid("2026-02-28T10:00:00Z"));
        assert!(checker("float").is_none());
    }
}
