//! Untrusted text (ticket titles, learner output, file names, lesson text) is cleaned once,
//! where it enters the app, through one table ([`stand_in`]) that every exit shares: C0 and
//! C1 controls, DEL, every Unicode format character (category Cf: bidi embeddings,
//! overrides, isolates and marks, zero-width characters, the BOM, the soft hyphen, the
//! Mongolian vowel separator, interlinear annotation marks, tag characters and the rest) and
//! the line and paragraph separators become visible symbols, so nothing an attacker writes
//! can move the cursor, recolour the screen, reorder text or hide itself.
//!
//! A frame drawn with ASCII only (`--ascii`) gets ASCII stand-ins instead: the drawing holds
//! an [`AsciiStandIns`] guard while it draws, and [`clean`] on that thread then writes a
//! control by its name in angle brackets (`<ESC>`, `<LF>`, `<DEL>`) and every other
//! character of the table as `<?>`, as it writes a control picture or a replacement
//! character that an earlier cleaning put in the text.

use std::cell::Cell;

/// Every format character (Cf) and the line and paragraph separators (Zl, Zp) of Unicode
/// 16.0, as inclusive ranges in order. A test checks it against the whole category.
const FORMAT_AND_SEPARATORS: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x2028, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// What stands for an invisible or steering character that has no picture of its own.
const REPLACEMENT: char = '\u{fffd}';

/// The visible stand-in a terminal gets for `ch`, or `None` when `ch` is shown as it is:
/// the Unicode "control picture" for C0 controls and DEL, the replacement character for C1
/// controls, format characters and the line and paragraph separators.
pub fn stand_in(ch: char) -> Option<char> {
    match ch {
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + ch as u32),
        '\u{7f}' => Some('\u{2421}'),
        '\u{80}'..='\u{9f}' => Some(REPLACEMENT),
        ' '..='~' => None,
        _ if is_format_or_separator(ch) => Some(REPLACEMENT),
        _ => None,
    }
}

fn is_format_or_separator(ch: char) -> bool {
    let c = ch as u32;
    FORMAT_AND_SEPARATORS
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// The C0 controls (U+0000 to U+001F) by the names their control pictures draw.
const C0_NAMES: [&str; 32] = [
    "<NUL>", "<SOH>", "<STX>", "<ETX>", "<EOT>", "<ENQ>", "<ACK>", "<BEL>", "<BS>", "<HT>", "<LF>",
    "<VT>", "<FF>", "<CR>", "<SO>", "<SI>", "<DLE>", "<DC1>", "<DC2>", "<DC3>", "<DC4>", "<NAK>",
    "<SYN>", "<ETB>", "<CAN>", "<EM>", "<SUB>", "<ESC>", "<FS>", "<GS>", "<RS>", "<US>",
];

/// The stand-in of ASCII-only drawing for `ch`, or `None` when `ch` is shown as it is: a C0
/// control or DEL by its name in angle brackets (`<ESC>`), any other character of the table
/// as `<?>`. The Unicode stand-ins themselves (a control picture, the replacement character)
/// get the same text, so text cleaned earlier draws the same in ASCII.
pub fn ascii_stand_in(ch: char) -> Option<&'static str> {
    let c = ch as u32;
    match c {
        0..=0x1f => Some(C0_NAMES[c as usize]),
        0x2400..=0x241f => Some(C0_NAMES[(c - 0x2400) as usize]),
        0x7f | 0x2421 => Some("<DEL>"),
        _ if ch == REPLACEMENT || stand_in(ch).is_some() => Some("<?>"),
        _ => None,
    }
}

thread_local! {
    /// Whether the frame being drawn on this thread draws with ASCII only.
    static ASCII: Cell<bool> = const { Cell::new(false) };
}

/// While it lives, [`clean`] on this thread writes the stand-ins of ASCII-only drawing
/// ([`ascii_stand_in`]) when `ascii` is set, the Unicode ones when it is not; dropped, it
/// gives back what was there before. The drawing of a frame holds one.
#[must_use = "the stand-ins change only while the guard lives"]
pub struct AsciiStandIns {
    before: bool,
}

impl AsciiStandIns {
    pub fn new(ascii: bool) -> AsciiStandIns {
        AsciiStandIns {
            before: ASCII.with(|a| a.replace(ascii)),
        }
    }
}

impl Drop for AsciiStandIns {
    fn drop(&mut self) {
        ASCII.with(|a| a.set(self.before));
    }
}

/// Replace every character of the table with its visible stand-in (its ASCII one while an
/// [`AsciiStandIns`] guard asks for ASCII). Newlines and tabs are kept only when
/// `keep_newlines` is set (multi-line descriptions).
pub(crate) fn clean(text: &str, keep_newlines: bool) -> String {
    clean_as(text, keep_newlines, ASCII.with(Cell::get))
}

/// [`clean`] with the stand-ins named by the caller: the ASCII ones when `ascii` is set.
pub(crate) fn clean_as(text: &str, keep_newlines: bool, ascii: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\n' if keep_newlines => out.push('\n'),
            '\t' if keep_newlines => out.push_str("    "),
            _ if ascii => match ascii_stand_in(ch) {
                Some(s) => out.push_str(s),
                None => out.push(ch),
            },
            _ => out.push(stand_in(ch).unwrap_or(ch)),
        }
    }
    out
}

/// Text from a file in quotes, as every message names it (a tools file's key, a schema's
/// property, a tool's name): `"per_page"`. A quote or a backslash inside is escaped and a
/// line break or tab written as `\n`, `\t`, so the name stays one unambiguous piece of one
/// line; every other character is kept as written (`"café"`, not a Rust escape), a control
/// or format character included, for the exit that prints it to show as its visible
/// [`stand_in`], as everything else from the file is shown.
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            _ => out.push(ch),
        }
    }
    out.push('"');
    out
}

/// The characters of the table beyond ASCII (JSON escapes the ASCII ones itself): those
/// JSON lets stand raw inside a string but that a terminal, a log viewer or an editor may
/// act on, or that hide themselves.
pub fn steers_terminal(ch: char) -> bool {
    ch as u32 >= 0x80 && stand_in(ch).is_some()
}

/// `ch` as a JSON escape: `\uXXXX`, or a surrogate pair beyond the Basic Multilingual Plane.
pub fn push_json_escape(ch: char, out: &mut String) {
    use std::fmt::Write;
    let mut units = [0u16; 2];
    for unit in ch.encode_utf16(&mut units) {
        let _ = write!(out, "\\u{unit:04x}");
    }
}

/// Serialized JSON with every [`steers_terminal`] character written as a `\uXXXX` escape.
/// Outside strings JSON holds only ASCII, so the escapes can only land inside strings, where
/// they mean the same character: the document is unchanged for any JSON reader, and nothing
/// reaches a terminal raw. Linear, and returns the text untouched when there is nothing to do.
pub(crate) fn escape_json_controls(json: String) -> String {
    if !json.chars().any(steers_terminal) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for ch in json.chars() {
        if steers_terminal(ch) {
            push_json_escape(ch, &mut out);
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn escape_sequences_become_visible() {
        assert_eq!(clean("a\u{1b}[31mb", false), "a\u{241b}[31mb");
        assert_eq!(clean("x\u{9b}y", false), "x\u{fffd}y");
    }

    #[test]
    fn bidi_overrides_are_replaced() {
        assert_eq!(clean("abc\u{202e}def", false), "abc\u{fffd}def");
        assert_eq!(clean("\u{2067}q", false), "\u{fffd}q");
    }

    #[test]
    fn newlines_kept_only_on_request() {
        assert_eq!(clean("a\nb", true), "a\nb");
        assert_eq!(clean("a\nb", false), "a\u{240a}b");
    }

    #[test]
    fn json_controls_are_escaped_and_plain_json_is_kept() {
        use super::escape_json_controls;
        let raw = "{\"t\": \"a\u{9b}31m\u{202e}b\u{2028}\"}".to_owned();
        let safe = escape_json_controls(raw.clone());
        assert_eq!(safe, r#"{"t": "a\u009b31m\u202eb\u2028"}"#);
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        let orig: serde_json::Value = serde_json::from_str(&raw).unwrap();
        assert_eq!(back, orig);
        let plain = r#"{"t": "Settings crash — ünïcode"}"#.to_owned();
        assert_eq!(escape_json_controls(plain.clone()), plain);
    }

    #[test]
    fn every_format_character_and_separator_is_cleaned_the_same_way() {
        use unicode_general_category::{GeneralCategory as G, get_general_category};
        let mut seen = 0;
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let category = get_general_category(c);
            let invisible = matches!(
                category,
                G::Format | G::LineSeparator | G::ParagraphSeparator
            );
            let control = category == G::Control;
            if invisible || control {
                seen += 1;
                let shown = clean(&format!("a{c}b"), false);
                assert_eq!(shown.chars().count(), 3, "U+{:04X} {category:?}", c as u32);
                assert!(
                    !shown.contains(c),
                    "U+{:04X} {category:?} slipped through",
                    c as u32
                );
                assert!(super::stand_in(c).is_some(), "U+{:04X}", c as u32);
            } else {
                assert_eq!(
                    super::stand_in(c),
                    None,
                    "U+{:04X} {category:?} is not ours",
                    c as u32
                );
            }
            if invisible {
                assert!(super::steers_terminal(c), "U+{:04X}", c as u32);
            }
        }
        assert!(seen > 200, "{seen}");
    }

    #[test]
    fn the_reported_invisible_characters_are_cleaned() {
        for c in [
            '\u{e0041}',
            '\u{e007f}',
            '\u{2028}',
            '\u{2029}',
            '\u{fff9}',
            '\u{fffb}',
            '\u{ad}',
            '\u{180e}',
        ] {
            assert_eq!(
                clean(&format!("x{c}y"), true),
                "x\u{fffd}y",
                "U+{:04X}",
                c as u32
            );
        }
    }

    #[test]
    fn json_escapes_beyond_the_basic_plane_are_surrogate_pairs() {
        use super::escape_json_controls;
        let raw = serde_json::to_string("tag\u{e0041}here").unwrap();
        let safe = escape_json_controls(raw.clone());
        assert_eq!(safe, r#""tag\udb40\udc41here""#);
        let back: String = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, "tag\u{e0041}here");
    }

    #[test]
    fn plain_text_is_untouched() {
        assert_eq!(
            clean("Settings crash — ünïcode ok", false),
            "Settings crash — ünïcode ok"
        );
    }

    #[test]
    fn ascii_drawing_gets_ascii_stand_ins() {
        use super::AsciiStandIns;
        let _ascii = AsciiStandIns::new(true);
        assert_eq!(clean("evil\u{1b}[31mred", false), "evil<ESC>[31mred");
        assert_eq!(clean("a\u{7f}b\u{9b}c\u{202e}d", false), "a<DEL>b<?>c<?>d");
        assert_eq!(clean("a\nb\tc\0", false), "a<LF>b<HT>c<NUL>");
        assert_eq!(clean("a\nb\tc", true), "a\nb    c");
        assert_eq!(clean("caf\u{e9} ok", false), "caf\u{e9} ok");
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            if super::stand_in(c).is_none() {
                continue;
            }
            let shown = clean(&format!("a{c}b"), false);
            assert!(shown.is_ascii(), "U+{:04X}: {shown}", c as u32);
            // What an earlier cleaning put in draws the same.
            let earlier = {
                let _unicode = AsciiStandIns::new(false);
                clean(&format!("a{c}b"), false)
            };
            assert_eq!(clean(&earlier, false), shown, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn the_stand_ins_are_unicode_again_when_the_guard_goes() {
        use super::AsciiStandIns;
        {
            let _outer = AsciiStandIns::new(true);
            {
                let _inner = AsciiStandIns::new(false);
                assert_eq!(clean("\u{1b}", false), "\u{241b}");
            }
            assert_eq!(clean("\u{1b}", false), "<ESC>");
        }
        assert_eq!(clean("\u{1b}", false), "\u{241b}");
    }
}
