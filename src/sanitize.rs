//! Untrusted text (ticket titles, learner output, file names) is cleaned once, where it
//! enters the app: control characters, C1 codes and bidi overrides become visible symbols,
//! so nothing an attacker writes can move the cursor, recolour the screen or reorder text.

/// Replace every character that could steer a terminal with a visible stand-in.
/// Newlines and tabs are kept only when `keep_newlines` is set (multi-line descriptions).
pub(crate) fn clean(text: &str, keep_newlines: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\n' if keep_newlines => out.push('\n'),
            '\t' if keep_newlines => out.push_str("    "),
            // C0 controls and DEL: show the Unicode "control picture" for them.
            '\u{0}'..='\u{1f}' => {
                out.push(char::from_u32(0x2400 + ch as u32).unwrap_or('\u{fffd}'))
            }
            '\u{7f}' => out.push('\u{2421}'),
            // C1 controls (CSI, OSC introducers and friends).
            '\u{80}'..='\u{9f}' => out.push('\u{fffd}'),
            // Bidi embeddings, overrides and isolates; zero-width and BOM characters.
            '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{061c}' => out.push('\u{fffd}'),
            '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}' => out.push('\u{fffd}'),
            _ => out.push(ch),
        }
    }
    out
}

/// Characters JSON lets stand raw inside a string but that a terminal, a log viewer or an
/// editor may act on: C1 controls, bidi embeddings/overrides/isolates and marks, zero-width
/// characters, the BOM, and the line and paragraph separators.
pub fn steers_terminal(ch: char) -> bool {
    matches!(ch,
        '\u{80}'..='\u{9f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2028}' | '\u{2029}' | '\u{2060}' | '\u{061c}' | '\u{feff}')
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
            out.push_str(&format!("\\u{:04x}", ch as u32));
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
    fn plain_text_is_untouched() {
        assert_eq!(
            clean("Settings crash — ünïcode ok", false),
            "Settings crash — ünïcode ok"
        );
    }
}
