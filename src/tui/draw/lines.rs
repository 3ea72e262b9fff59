//! Lines for a width: wrapped under a first-line prefix (prose with inline Markdown too),
//! a verdict with its mark and word, drawn into an area from a scroll offset.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::sanitize::clean;
use crate::text::{width as width_of, wrap, wrap_keeping_strings};
use crate::tui::theme::Theme;

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
    wrap_prefixed_with(prefix, text, width, style, wrap)
}

/// [`wrap_prefixed`] with the text wrapped by `wrap_with` (such as
/// [`crate::text::wrap_keeping_strings`], for lines that quote JSON).
pub fn wrap_prefixed_with(
    prefix: Vec<Span<'static>>,
    text: &str,
    width: usize,
    style: Style,
    wrap_with: fn(&str, usize) -> Vec<String>,
) -> Vec<Line<'static>> {
    let pw: usize = prefix.iter().map(|s| s.width()).sum();
    let body = width.saturating_sub(pw).max(1);
    let mut out = Vec::new();
    for (i, l) in wrap_with(text, body).into_iter().enumerate() {
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
    // Code keeps what the text around it has (a selected row's highlight), in code's colour.
    let code = base.patch(theme.code);
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
        out.extend(wrap_prefixed_with(
            Vec::new(),
            &clean(detail, false),
            width,
            theme.base,
            wrap_keeping_strings,
        ));
        return out;
    }
    // A value the detail quotes (`got "login timeout"`) stays on one line where it fits.
    wrap_prefixed_with(
        head,
        &clean(detail, false),
        width,
        theme.base,
        wrap_keeping_strings,
    )
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

/// [`draw_lines`] from `skip` on, the last row saying how many more lie below (and
/// `down`, the key that shows them) when they do not all fit.
pub fn draw_scrolled(
    area: Rect,
    buf: &mut Buffer,
    lines: &[Line<'_>],
    skip: usize,
    (theme, down): (&Theme, &str),
) {
    let skip = skip.min(lines.len().saturating_sub(1));
    let h = area.height as usize;
    let more = lines.len().saturating_sub(skip + h);
    if more > 0 && h > 1 {
        let shown = Rect::new(area.x, area.y, area.width, area.height - 1);
        draw_lines(shown, buf, lines, skip);
        let note = format!("{} {} more lines: {down}", theme.sym.arrow, more + 1);
        buf.set_string(area.x, area.y + area.height - 1, note, theme.dim);
    } else {
        draw_lines(area, buf, lines, skip);
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

/// The mark of `n` lines cut above a view: `… 3 lines above`, then `: KEYS` when given.
pub fn above_mark(ellipsis: &str, n: usize, keys: &str) -> String {
    cut_mark(ellipsis, n, "above", keys)
}

/// The mark of `n` lines cut below a view: `→ 3 more lines below`, then `: KEYS` when given.
pub fn below_mark(arrow: &str, n: usize, keys: &str) -> String {
    cut_mark(arrow, n, "below", keys)
}

fn cut_mark(sym: &str, n: usize, side: &str, keys: &str) -> String {
    let more = if side == "below" { "more " } else { "" };
    let lines = if n == 1 { "line" } else { "lines" };
    let keys = if keys.is_empty() {
        String::new()
    } else {
        format!(": {keys}")
    };
    format!("{sym} {n} {more}{lines} {side}{keys}")
}

/// Mark what a view `area` high, scrolled `skip` lines into `total`, cuts: its first row says
/// how many lines are above (the one it covers too), its last how many more are below, each
/// with the key that brings them (`keys`: up, down; empty for none).
pub fn mark_cut(
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
    (skip, total): (usize, usize),
    (up, down): (&str, &str),
) {
    let h = usize::from(area.height);
    if h <= 2 || total <= h {
        return;
    }
    let w = usize::from(area.width);
    let mut mark = |row: u16, text: String| {
        // The row is cleared first: what the view drew there (a highlight) goes.
        for x in area.left()..area.right() {
            if let Some(c) = buf.cell_mut((x, area.y + row)) {
                c.reset();
                c.set_style(theme.base);
            }
        }
        let line = Line::styled(crate::text::fit(&text, w, theme.sym.ellipsis), theme.dim);
        buf.set_line(area.x, area.y + row, &line, area.width);
    };
    if skip > 0 {
        mark(0, above_mark(theme.sym.ellipsis, skip + 1, up));
    }
    if skip + h < total {
        let below = total - (skip + h) + 1;
        mark(area.height - 1, below_mark(theme.sym.arrow, below, down));
    }
}

#[cfg(test)]
mod tests {
    use super::{above_mark, below_mark, verdict_lines, wrap_rich};
    use crate::tui::theme::{Theme, ThemeName};

    #[test]
    fn a_verdict_breaks_before_a_quoted_value_rather_than_inside_it() {
        let theme = Theme::new(ThemeName::Default, true);
        let detail = "value error: query must be at most 8 characters, got \"login timeout\"";
        let text = |width| {
            verdict_lines(&theme, false, "rejected", detail, width)
                .iter()
                .map(|l| l.to_string().trim_end().to_owned())
                .collect::<Vec<_>>()
        };
        // Where a plain wrap would end a line at `"login`, the string moves down whole.
        let lines = text(42);
        assert!(
            lines.iter().any(|l| l.ends_with("\"login timeout\"")),
            "{lines:?}"
        );
        assert!(!lines.iter().any(|l| l.ends_with("\"login")), "{lines:?}");
        // Too narrow for a hanging indent: the detail under the word keeps it whole too.
        let lines = text(23);
        assert!(
            lines.iter().any(|l| l.trim() == "\"login timeout\""),
            "{lines:?}"
        );
    }

    #[test]
    fn inline_code_in_a_highlighted_row_keeps_the_highlight() {
        let theme = Theme::new(ThemeName::Default, false);
        let lines = wrap_rich(
            Vec::new(),
            "run `tooldojo practice` now",
            80,
            theme.selected,
            &theme,
        );
        let spans = &lines[0].spans;
        let code = spans.iter().find(|s| s.content == "tooldojo").unwrap();
        assert_eq!(code.style.bg, theme.selected.bg);
        assert_eq!(code.style.fg, theme.code.fg);
        assert!(spans.iter().all(|s| s.style.bg == theme.selected.bg));
    }

    #[test]
    fn marks_count_lines_in_words_a_reader_expects() {
        assert_eq!(above_mark("…", 1, "k/PgUp"), "… 1 line above: k/PgUp");
        assert_eq!(above_mark("…", 3, ""), "… 3 lines above");
        assert_eq!(below_mark("→", 1, "PgDn"), "→ 1 more line below: PgDn");
        assert_eq!(below_mark("→", 12, ""), "→ 12 more lines below");
    }
}
