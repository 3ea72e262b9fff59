//! The `format` keyword: checkers for the formats JSON Schema 2020-12 defines.
//!
//! [`checker`] maps a format name to its checker, or to `None` for a name the standard does
//! not define (`"float"`, `"int32"`): such a format is a note only, as the standard says.
//! A checker applies to strings; JSON Schema says a format never fails a value of another
//! type, and the validator only calls it on strings.

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

/// The checker of a format the standard defines, `None` for any other name.
///
/// Only the formats whose checkers are built are returned; the rest of [`KNOWN`] are
/// reported by [`is_known`] so a validator can refuse them rather than pass them unchecked.
pub fn checker(name: &str) -> Option<FormatChecker> {
    let (name, what, check): (&'static str, &'static str, fn(&str) -> bool) = match name {
        "ipv4" => ("ipv4", "an IPv4 address", |s| {
            s.parse::<std::net::Ipv4Addr>().is_ok()
        }),
        "ipv6" => ("ipv6", "an IPv6 address", |s| {
            s.parse::<std::net::Ipv6Addr>().is_ok()
        }),
        _ => return None,
    };
    Some(FormatChecker { name, what, check })
}

/// Is `name` a format the standard defines (checked or not yet)?
pub fn is_known(name: &str) -> bool {
    KNOWN.contains(&name)
}
