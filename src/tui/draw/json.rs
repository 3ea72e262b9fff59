//! The one JSON highlighter: keys, strings, numbers and literals in their theme styles, on
//! any text (what is not JSON keeps the base style), every token cleaned for the terminal.

use ratatui::text::{Line, Span};

use crate::sanitize::clean;
use crate::text::wrap;
use crate::tui::theme::Theme;

/// Syntax-highlight JSON (or JSON-like) text line by line. Works on invalid text too:
/// tokens it does not know keep the base style. Every token is cleaned for the terminal.
pub fn highlight_json_text(text: &str, theme: &Theme) -> Vec<Line<'static>> {
    text.split('\n')
        .map(|l| highlight_json_line(l, theme))
        .collect()
}

/// One line of JSON text, highlighted.
pub fn highlight_json_line(line: &str, theme: &Theme) -> Line<'static> {
    let chars: Vec<char> = line.chars().collect();
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut plain = String::new();
    let flush = |plain: &mut String, spans: &mut Vec<Span<'static>>| {
        if !plain.is_empty() {
            spans.push(Span::styled(clean(plain, false), theme.base));
            plain.clear();
        }
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' {
            flush(&mut plain, &mut spans);
            let start = i;
            i += 1;
            while i < chars.len() {
                if chars[i] == '\\' {
                    i += 2;
                    continue;
                }
                if chars[i] == '"' {
                    i += 1;
                    break;
                }
                i += 1;
            }
            let end = i.min(chars.len());
            let s: String = chars[start..end].iter().collect();
            let mut j = end;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            let is_key = j < chars.len() && chars[j] == ':';
            let style = if is_key {
                theme.json_key
            } else {
                theme.json_string
            };
            spans.push(Span::styled(clean(&s, false), style));
        } else if c == '-' || c.is_ascii_digit() {
            flush(&mut plain, &mut spans);
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_digit() || matches!(chars[i], '-' | '+' | '.' | 'e' | 'E'))
            {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            spans.push(Span::styled(s, theme.json_number));
        } else if c.is_ascii_alphabetic() {
            flush(&mut plain, &mut spans);
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            let style = if matches!(s.as_str(), "true" | "false" | "null") {
                theme.json_literal
            } else {
                theme.base
            };
            spans.push(Span::styled(s, style));
        } else {
            plain.push(c);
            i += 1;
        }
    }
    flush(&mut plain, &mut spans);
    Line::from(spans)
}

/// Wrap JSON text under a first-line prefix (hanging indent), highlighting each piece.
pub fn wrap_json(
    prefix: Vec<Span<'static>>,
    json_text: &str,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let pw: usize = prefix.iter().map(|s| s.width()).sum();
    let body = width.saturating_sub(pw).max(4);
    wrap(json_text, body)
        .into_iter()
        .enumerate()
        .map(|(i, piece)| {
            let mut spans = if i == 0 {
                prefix.clone()
            } else {
                vec![Span::raw(" ".repeat(pw))]
            };
            spans.extend(highlight_json_line(&piece, theme).spans);
            Line::from(spans)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ThemeName;

    #[test]
    fn json_highlight_marks_keys_and_cleans_text() {
        let t = Theme::new(ThemeName::Default, false);
        let l = highlight_json_line("{\"a\": \"x\u{202e}y\", \"n\": 3, \"b\": true}", &t);
        let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
        assert!(!text.contains('\u{202e}'));
        assert!(
            l.spans
                .iter()
                .any(|s| s.content == "\"a\"" && s.style == t.json_key)
        );
        assert!(
            l.spans
                .iter()
                .any(|s| s.content == "3" && s.style == t.json_number)
        );
        assert!(
            l.spans
                .iter()
                .any(|s| s.content == "true" && s.style == t.json_literal)
        );
    }
}
