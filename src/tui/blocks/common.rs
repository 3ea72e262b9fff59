//! Helpers every block shares: the framed border, word wrapping, JSON highlighting,
//! verdict lines, key matching and a themed wrapper around `ratatui-textarea`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

/// Text helpers the blocks also take from here.
pub use crate::json_text::{json_compact, json_semi_pretty, line_col};
use crate::sanitize::clean;
use crate::text::width as width_of;
pub use crate::text::{fit, prose, truncate, wrap};
use crate::tui::blocks::RenderCtx;
use crate::tui::theme::Theme;

/// Draw the block's border with its title (and an optional right-aligned status) and
/// return the inner area. Tiny areas get no border at all.
pub fn frame(area: Rect, buf: &mut Buffer, ctx: &RenderCtx, title: &str, status: &str) -> Rect {
    // Titles and statuses may quote a lesson's options: cleaned where they are drawn.
    let (title, status) = (&clean(title, false), &clean(status, false));
    let area = area.intersection(buf.area);
    if area.width < 4 || area.height < 3 {
        return area;
    }
    let t = ctx.theme;
    let border_style = if ctx.focused || ctx.active {
        t.focus
    } else {
        t.border
    };
    let marker = if ctx.active {
        format!("{} ", t.sym.pointer)
    } else {
        String::new()
    };
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_set(t.sym.border)
        .border_style(border_style)
        .title(Line::from(vec![
            Span::styled(format!(" {marker}"), border_style),
            Span::styled(
                format!("{title} "),
                if ctx.focused || ctx.active {
                    t.focus
                } else {
                    t.heading
                },
            ),
        ]));
    if !status.is_empty() && border_fits(area.width, title, status, ctx.active) {
        block = block.title(Line::from(Span::styled(format!(" {status} "), t.dim)).right_aligned());
    }
    let inner = block.inner(area);
    block.render(area, buf);
    inner
}

/// Title and status share the top border of a block `width` cells wide without touching
/// (a status that does not fit is left out by `frame`; blocks offer shorter ones first).
pub fn border_fits(width: u16, title: &str, status: &str, active: bool) -> bool {
    // Corners, the spaces around each text, the active marker, one border cell between.
    let marker = if active { 2 } else { 0 };
    let need = 2 + (width_of(title) + 2 + marker) + (width_of(status) + 2) + 1;
    need <= width as usize
}

/// The separator between status items: a middle dot, or `|` in ASCII mode.
pub fn dot(theme: &Theme) -> &'static str {
    if theme.ascii { "|" } else { "·" }
}

/// Wrap `text` with a first-line prefix and a hanging indent of the same width.
pub fn wrap_prefixed(
    prefix: Vec<Span<'static>>,
    text: &str,
    width: usize,
    style: Style,
) -> Vec<Line<'static>> {
    let pw: usize = prefix.iter().map(|s| s.width()).sum();
    let body = width.saturating_sub(pw).max(1);
    let mut out = Vec::new();
    for (i, l) in wrap(text, body).into_iter().enumerate() {
        let mut spans = if i == 0 {
            prefix.clone()
        } else {
            vec![Span::raw(" ".repeat(pw))]
        };
        spans.push(Span::styled(l, style));
        out.push(Line::from(spans));
    }
    out
}

/// Inline Markdown in lesson prose: `code` spans take the theme's code style and
/// *emphasis* is italic. In mono and ASCII themes the backticks stay, so code keeps a
/// visible mark without colour. Returns styled words per paragraph (a word may mix
/// styles, e.g. a code span followed by a comma).
fn rich_words(text: &str, base: Style, theme: &Theme) -> Vec<Vec<Vec<(String, Style)>>> {
    let keep_ticks = theme.ascii || theme.name == crate::tui::theme::ThemeName::Mono;
    let code = theme.code;
    let mut paras = Vec::new();
    for para in text.split('\n') {
        let chars: Vec<char> = para.chars().collect();
        let mut words: Vec<Vec<(String, Style)>> = Vec::new();
        let mut word: Vec<(String, Style)> = Vec::new();
        let mut piece = String::new();
        let (mut in_code, mut in_em) = (false, false);
        let style_now = |in_code: bool, in_em: bool| {
            if in_code {
                code
            } else if in_em {
                base.add_modifier(Modifier::ITALIC)
            } else {
                base
            }
        };
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let st = style_now(in_code, in_em);
            if c == '`' && (in_code || chars[i + 1..].contains(&'`')) {
                if !piece.is_empty() {
                    word.push((std::mem::take(&mut piece), st));
                }
                in_code = !in_code;
                if keep_ticks {
                    word.push(("`".to_owned(), code));
                }
            } else if c == '*'
                && !in_code
                && ((in_em && i > 0 && !chars[i - 1].is_whitespace())
                    || (!in_em
                        && chars
                            .get(i + 1)
                            .is_some_and(|n| !n.is_whitespace() && *n != '*')
                        && chars[i + 1..].contains(&'*')))
            {
                if !piece.is_empty() {
                    word.push((std::mem::take(&mut piece), st));
                }
                in_em = !in_em;
            } else if c.is_whitespace() {
                if !piece.is_empty() {
                    word.push((std::mem::take(&mut piece), st));
                }
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            } else {
                piece.push(c);
            }
            i += 1;
        }
        if !piece.is_empty() {
            word.push((piece, style_now(in_code, in_em)));
        }
        if !word.is_empty() {
            words.push(word);
        }
        paras.push(words);
    }
    paras
}

/// Like [`wrap_prefixed`], for lesson prose with inline Markdown (`code`, *emphasis*).
pub fn wrap_rich(
    prefix: Vec<Span<'static>>,
    text: &str,
    width: usize,
    style: Style,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let pw: usize = prefix.iter().map(|s| s.width()).sum();
    let body = width.saturating_sub(pw).max(1);
    let mut rows: Vec<Vec<Span<'static>>> = Vec::new();
    for para in rich_words(text, style, theme) {
        let mut line: Vec<Span<'static>> = Vec::new();
        let mut w = 0usize;
        for word in para {
            let ww: usize = word.iter().map(|(s, _)| width_of(s)).sum();
            if w > 0 && w + 1 + ww > body {
                rows.push(std::mem::take(&mut line));
                w = 0;
            }
            if w > 0 {
                line.push(Span::styled(" ", style));
                w += 1;
            }
            for (s, st) in word {
                // A piece longer than the line is split by characters.
                let mut cur = String::new();
                for ch in s.chars() {
                    let cw = width_of(ch.encode_utf8(&mut [0; 4]));
                    if w + cw > body && w > 0 {
                        if !cur.is_empty() {
                            line.push(Span::styled(std::mem::take(&mut cur), st));
                        }
                        rows.push(std::mem::take(&mut line));
                        w = 0;
                    }
                    cur.push(ch);
                    w += cw;
                }
                if !cur.is_empty() {
                    line.push(Span::styled(cur, st));
                }
            }
        }
        rows.push(line);
    }
    rows.into_iter()
        .enumerate()
        .map(|(i, spans)| {
            let mut all = if i == 0 {
                prefix.clone()
            } else {
                vec![Span::raw(" ".repeat(pw))]
            };
            all.extend(spans);
            Line::from(all)
        })
        .collect()
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
            while j < chars.len() && chars[j] == ' ' {
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

/// The one-line verdict: a mark and a word (never colour alone), then the detail.
pub fn verdict_line(theme: &Theme, ok: bool, word: &str, detail: &str) -> Line<'static> {
    let (mark, style) = if ok {
        (theme.sym.ok, theme.ok)
    } else {
        (theme.sym.bad, theme.bad)
    };
    let mut spans = vec![Span::styled(format!("{mark} {word}"), style)];
    if !detail.is_empty() {
        spans.push(Span::styled(
            format!("  {}", clean(detail, false)),
            theme.base,
        ));
    }
    Line::from(spans)
}

/// The verdict wrapped to `width` cells: mark and word first, the detail under a hanging
/// indent (nothing is cut at the right edge).
pub fn verdict_lines(
    theme: &Theme,
    ok: bool,
    word: &str,
    detail: &str,
    width: usize,
) -> Vec<Line<'static>> {
    let (mark, style) = if ok {
        (theme.sym.ok, theme.ok)
    } else {
        (theme.sym.bad, theme.bad)
    };
    let head = vec![Span::styled(format!("{mark} {word}  "), style)];
    if detail.is_empty() {
        return vec![Line::from(Span::styled(format!("{mark} {word}"), style))];
    }
    let hw: usize = head.iter().map(|s| s.width()).sum();
    if width < hw + 12 {
        // Too narrow for a hanging indent: the detail goes under the word.
        let mut out = vec![Line::from(Span::styled(format!("{mark} {word}"), style))];
        out.extend(wrap_prefixed(
            Vec::new(),
            &clean(detail, false),
            width,
            theme.base,
        ));
        return out;
    }
    wrap_prefixed(head, &clean(detail, false), width, theme.base)
}

/// Render pre-built lines into `area`, skipping the first `skip` lines; lines are cut
/// at the right edge (callers wrap first).
pub fn draw_lines(area: Rect, buf: &mut Buffer, lines: &[Line<'_>], skip: usize) {
    let area = area.intersection(buf.area);
    if area.is_empty() {
        return;
    }
    for (row, line) in lines
        .iter()
        .skip(skip)
        .take(area.height as usize)
        .enumerate()
    {
        buf.set_line(area.x, area.y + row as u16, line, area.width);
    }
}

/// Scroll offset that keeps line `focus` visible in a window of `height` lines.
pub fn scroll_to(focus: usize, height: usize, total: usize) -> usize {
    if height == 0 || total <= height {
        return 0;
    }
    let max = total - height;
    focus.saturating_sub(height / 2).min(max)
}

/// A plain key (no Ctrl/Alt) with this code.
pub fn plain(key: &KeyEvent, code: KeyCode) -> bool {
    key.code == code
        && !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

/// A plain character key.
pub fn is_char(key: &KeyEvent, c: char) -> bool {
    plain(key, KeyCode::Char(c))
}

pub fn is_up(key: &KeyEvent) -> bool {
    plain(key, KeyCode::Up) || is_char(key, 'k')
}
pub fn is_down(key: &KeyEvent) -> bool {
    plain(key, KeyCode::Down) || is_char(key, 'j')
}
pub fn is_left(key: &KeyEvent) -> bool {
    plain(key, KeyCode::Left) || is_char(key, 'h')
}
pub fn is_right(key: &KeyEvent) -> bool {
    plain(key, KeyCode::Right) || is_char(key, 'l')
}

/// Digit keys 1-9 as a 0-based index.
pub fn digit(key: &KeyEvent) -> Option<usize> {
    match key.code {
        KeyCode::Char(c @ '1'..='9')
            if !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            Some(c as usize - '1' as usize)
        }
        _ => None,
    }
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
