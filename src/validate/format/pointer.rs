//! `json-pointer` (RFC 6901), `relative-json-pointer` (draft-bhutton-relative-json-pointer-00,
//! the one JSON Schema 2020-12 cites) and `uuid` (RFC 4122's hyphenated form).

/// Empty, or `/`-separated tokens in which every `~` is followed by `0` or `1`.
pub(super) fn is_json_pointer(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    let b = s.as_bytes();
    b[0] == b'/'
        && b.iter()
            .enumerate()
            .all(|(i, &c)| c != b'~' || matches!(b.get(i + 1), Some(b'0' | b'1')))
}

/// A non-negative integer without leading zeros, an optional index adjustment (`+n`, `-n`),
/// then `#` or a JSON pointer.
pub(super) fn is_relative_json_pointer(s: &str) -> bool {
    let Some(rest) = non_negative_integer(s) else {
        return false;
    };
    let rest = match rest.strip_prefix(['+', '-']) {
        Some(adjust) => match non_negative_integer(adjust) {
            Some(r) => r,
            None => return false,
        },
        None => rest,
    };
    rest == "#" || is_json_pointer(rest)
}

/// The text after a leading `0` or `[1-9][0-9]*`, if there is one.
fn non_negative_integer(s: &str) -> Option<&str> {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    (n == 1 || (n > 1 && !s.starts_with('0'))).then(|| &s[n..])
}

/// `8-4-4-4-12` hexadecimal digits, either case.
pub(super) fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_every_tilde() {
        assert!(is_json_pointer(""));
        assert!(is_json_pointer("/a~1b/~0/"));
        assert!(!is_json_pointer("/a~"));
        assert!(!is_json_pointer("/~2"));
        assert!(!is_json_pointer("#/a"));
        assert!(!is_json_pointer("a"));
    }

    #[test]
    fn relative_pointers_start_with_a_plain_count() {
        for ok in ["0", "1#", "0/a", "12/a/0", "0+1/a", "1-2#", "0//"] {
            assert!(is_relative_json_pointer(ok), "{ok}");
        }
        for bad in [
            "", "01", "+1/a", "-1", "0##", "1#/a", "0+01/a", "0+", "١/a", "1\n",
        ] {
            assert!(!is_relative_json_pointer(bad), "{bad}");
        }
    }

    #[test]
    fn uuids_are_hyphenated_hex() {
        assert!(is_uuid("2eb8aa08-AA98-11ea-b4aa-73b441d16380"));
        assert!(!is_uuid("2eb8aa08aa9811eab4aa73b441d16380"));
        assert!(!is_uuid("{2eb8aa08-aa98-11ea-b4aa-73b441d16380}"));
    }
}
