//! Lesson Markdown to styled, already-wrapped lines. We wrap ourselves (instead of letting
//! `Paragraph` do it) so the reader knows every segment's exact height for scrolling.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::sanitize::clean;
use crate::text::width as width_of;
use crate::tui::theme::{Theme, ThemeName};

/// Render `src` into lines no wider than `width` columns.
pub fn render(src: &str, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let width = usize::from(width.max(4));
    let mut r = Renderer {
        theme,
        width,
        out: Vec::new(),
        spans: Vec::new(),
        styles: vec![theme.base],
        lists: Vec::new(),
        marker: None,
        quote: 0,
        heading: None,
        code: None,
        link: None,
    };
    for event in Parser::new_ext(src, Options::ENABLE_STRIKETHROUGH) {
        r.event(event);
    }
    r.flush();
    while r.out.last().is_some_and(|l| l.width() == 0) {
        r.out.pop();
    }
    r.out
}

struct Renderer<'t> {
    theme: &'t Theme,
    width: usize,
    out: Vec<Line<'static>>,
    /// Inline spans of the paragraph being built.
    spans: Vec<Span<'static>>,
    styles: Vec<Style>,
    /// Open lists: `Some(next number)` for ordered lists.
    lists: Vec<Option<u64>>,
    /// List marker waiting for the item's first line.
    marker: Option<String>,
    quote: usize,
    heading: Option<HeadingLevel>,
    /// Inside a fenced code block: (language, text so far).
    code: Option<(String, String)>,
    link: Option<String>,
}

impl Renderer<'_> {
    fn style(&self) -> Style {
        *self.styles.last().unwrap_or(&self.theme.base)
    }

    fn push_style(&mut self, f: impl FnOnce(Style) -> Style) {
        let s = f(self.style());
        self.styles.push(s);
    }

    fn pop_style(&mut self) {
        if self.styles.len() > 1 {
            self.styles.pop();
        }
    }

    fn blank(&mut self) {
        if self.out.last().is_some_and(|l| l.width() > 0) {
            self.out.push(Line::default());
        }
    }

    /// The prefix for the first line and for the following lines of the current block.
    fn prefixes(&mut self) -> (String, String) {
        let bar = if self.theme.ascii { "| " } else { "│ " };
        let mut base = bar.repeat(self.quote);
        if !self.lists.is_empty() {
            base.push_str(&"  ".repeat(self.lists.len() - 1));
        }
        match self.marker.take() {
            Some(m) => {
                let cont = format!("{base}{}", " ".repeat(width_of(&m)));
                (format!("{base}{m}"), cont)
            }
            None => {
                let cont = if self.lists.is_empty() {
                    base.clone()
                } else {
                    format!("{base}  ")
                };
                (cont.clone(), cont)
            }
        }
    }

    /// Wrap the pending inline spans as one block.
    fn flush(&mut self) {
        if self.spans.is_empty() {
            return;
        }
        let spans = std::mem::take(&mut self.spans);
        let (first, cont) = self.prefixes();
        let prefix_style = self.theme.dim;
        let lines = wrap(&spans, self.width, &first, &cont, prefix_style);
        self.out.extend(lines);
    }

    fn event(&mut self, event: Event<'_>) {
        if let Some((_, buf)) = &mut self.code {
            match event {
                Event::Text(t) => buf.push_str(&t),
                Event::End(TagEnd::CodeBlock) => self.end_code(),
                _ => {}
            }
            return;
        }
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                let s = self.style();
                self.spans.push(Span::styled(self.shown(&t), s));
            }
            Event::Code(t) => {
                let s = self.theme.code;
                // Without colour (mono) or in plain ASCII, the backticks mark the code.
                let text = if self.theme.name == ThemeName::Mono || self.theme.ascii {
                    format!("`{}`", self.shown(&t))
                } else {
                    self.shown(&t)
                };
                self.spans.push(Span::styled(text, s));
            }
            Event::SoftBreak => {
                let s = self.style();
                self.spans.push(Span::styled(" ", s));
            }
            Event::HardBreak => {
                self.flush();
            }
            Event::Rule => {
                self.flush();
                self.blank();
                let ch = if self.theme.ascii { "-" } else { "─" };
                self.out.push(Line::styled(
                    ch.repeat(self.width.min(40)),
                    self.theme.border,
                ));
                self.out.push(Line::default());
            }
            Event::TaskListMarker(done) => {
                let m = if done {
                    self.theme.sym.checked
                } else {
                    self.theme.sym.unchecked
                };
                let s = self.style();
                self.spans.push(Span::styled(format!("{m} "), s));
            }
            Event::Html(_) | Event::InlineHtml(_) => {}
            Event::FootnoteReference(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                let s = self.style();
                self.spans.push(Span::styled(self.shown(&t), s));
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => {}
            Tag::Heading { level, .. } => {
                self.flush();
                self.blank();
                self.heading = Some(level);
                let h = self.theme.heading;
                let style = if level == HeadingLevel::H1 {
                    h.add_modifier(Modifier::UNDERLINED)
                } else {
                    h
                };
                self.styles.push(style);
            }
            Tag::BlockQuote(_) => {
                self.flush();
                self.quote += 1;
                self.push_style(|s| s.add_modifier(Modifier::ITALIC));
            }
            Tag::CodeBlock(kind) => {
                self.flush();
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info
                        .split_whitespace()
                        .next()
                        .unwrap_or("")
                        .to_ascii_lowercase(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::List(start) => {
                self.flush();
                if self.lists.is_empty() {
                    self.blank();
                }
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => format!("{} ", self.theme.sym.bullet),
                };
                self.marker = Some(marker);
            }
            Tag::Emphasis => self.push_style(|s| s.add_modifier(Modifier::ITALIC)),
            Tag::Strong => self.push_style(|s| s.add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => self.push_style(|s| s.add_modifier(Modifier::CROSSED_OUT)),
            Tag::Link { dest_url, .. } => {
                self.link = Some(clean(&dest_url, false));
                let accent = self.theme.accent;
                self.styles.push(
                    accent
                        .add_modifier(Modifier::UNDERLINED)
                        .patch(Style::new()),
                );
            }
            Tag::Image { dest_url, .. } => {
                self.link = Some(clean(&dest_url, false));
                self.push_style(|s| s);
            }
            _ => self.push_style(|s| s),
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => {
                self.flush();
                if self.lists.is_empty() {
                    self.out.push(Line::default());
                }
            }
            TagEnd::Heading(_) => {
                self.flush();
                self.pop_style();
                self.heading = None;
                self.out.push(Line::default());
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quote = self.quote.saturating_sub(1);
                self.pop_style();
                self.blank();
            }
            TagEnd::CodeBlock => {}
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.blank();
                }
            }
            TagEnd::Item => {
                self.flush();
                self.marker = None;
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => self.pop_style(),
            TagEnd::Link | TagEnd::Image => {
                self.pop_style();
                if let Some(url) = self.link.take() {
                    let text: String = self
                        .spans
                        .iter()
                        .rev()
                        .take(1)
                        .map(|s| s.content.to_string())
                        .collect();
                    if !url.is_empty() && text != url {
                        let dim = self.theme.dim;
                        self.spans.push(Span::styled(format!(" ({url})"), dim));
                    }
                }
            }
            _ => self.pop_style(),
        }
    }

    /// Text as drawn: controls cleaned, and with `--ascii` the marks the app itself draws
    /// in ASCII (the flag, the ellipsis, the arrow) as it draws them. Letters stay: a
    /// lesson's `été` is its own example of UTF-8.
    fn shown(&self, text: &str) -> String {
        let text = clean(text, false);
        if !self.theme.ascii || text.is_ascii() {
            return text;
        }
        let warn = crate::tui::player::glyphs::Glyphs::for_theme(self.theme).warn;
        text.replace('⚑', warn)
            .replace('…', self.theme.sym.ellipsis)
            .replace('→', self.theme.sym.arrow)
    }

    fn end_code(&mut self) {
        let Some((lang, text)) = self.code.take() else {
            return;
        };
        self.blank();
        let (first, _) = self.prefixes();
        let indent = format!("{first}  ");
        let avail = self.width.saturating_sub(width_of(&indent)).max(1);
        let json = matches!(lang.as_str(), "json" | "jsonc" | "jsonl" | "json5");
        for raw in text.trim_end_matches('\n').split('\n') {
            let raw = self.shown(raw);
            let spans = if json {
                crate::tui::draw::highlight_json_line(&raw, self.theme).spans
            } else {
                vec![Span::styled(raw, self.theme.code)]
            };
            for chunk in hard_wrap(spans, avail) {
                let mut line = vec![Span::styled(indent.clone(), self.theme.dim)];
                line.extend(chunk);
                self.out.push(Line::from(line));
            }
        }
        self.out.push(Line::default());
    }
}

/// Greedy word wrap of styled spans. `first`/`cont` prefix the first and following lines.
pub fn wrap(
    spans: &[Span<'static>],
    width: usize,
    first: &str,
    cont: &str,
    prefix_style: Style,
) -> Vec<Line<'static>> {
    // Split into words, each word keeping its trailing spaces, all styled pieces kept.
    let mut words: Vec<Vec<Span<'static>>> = Vec::new();
    let mut current: Vec<Span<'static>> = Vec::new();
    let mut in_space = false;
    for span in spans {
        let mut piece = String::new();
        for ch in span.content.chars() {
            let space = ch == ' ';
            if !space && in_space {
                if !piece.is_empty() {
                    current.push(Span::styled(std::mem::take(&mut piece), span.style));
                }
                words.push(std::mem::take(&mut current));
            }
            in_space = space;
            piece.push(ch);
        }
        if !piece.is_empty() {
            current.push(Span::styled(piece, span.style));
        }
    }
    if !current.is_empty() {
        words.push(current);
    }

    let mut lines = Vec::new();
    let mut line: Vec<Span<'static>> = vec![Span::styled(first.to_owned(), prefix_style)];
    let mut used = width_of(first);
    let cont_w = width_of(cont);
    let mut has_word = false;
    for word in words {
        let text_w: usize = word.iter().map(|s| width_of(s.content.trim_end())).sum();
        let full_w: usize = word.iter().map(Span::width).sum();
        if has_word && used + text_w > width {
            trim_trailing(&mut line);
            lines.push(Line::from(std::mem::take(&mut line)));
            line.push(Span::styled(cont.to_owned(), prefix_style));
            used = cont_w;
        }
        if used + text_w > width {
            // A word longer than a line: break it by characters.
            let avail = width.saturating_sub(cont_w).max(1);
            let first_avail = width.saturating_sub(used).max(1);
            let pieces = hard_wrap_first(word, first_avail, avail);
            let n = pieces.len();
            for (i, piece) in pieces.into_iter().enumerate() {
                used += piece.iter().map(Span::width).sum::<usize>();
                line.extend(piece);
                if i + 1 < n {
                    trim_trailing(&mut line);
                    lines.push(Line::from(std::mem::take(&mut line)));
                    line.push(Span::styled(cont.to_owned(), prefix_style));
                    used = cont_w;
                }
            }
            has_word = true;
            continue;
        }
        used += full_w;
        line.extend(word);
        has_word = true;
    }
    trim_trailing(&mut line);
    lines.push(Line::from(line));
    lines
}

fn trim_trailing(line: &mut Vec<Span<'static>>) {
    loop {
        let len = line.len();
        let Some(last) = line.last_mut() else { break };
        let trimmed = last.content.trim_end_matches(' ').to_owned();
        if trimmed.is_empty() && len > 1 {
            line.pop();
            continue;
        }
        if trimmed.len() != last.content.len() {
            last.content = trimmed.into();
        }
        break;
    }
}

/// Cut styled spans into rows of at most `width` columns (code: no word logic).
pub fn hard_wrap(spans: Vec<Span<'static>>, width: usize) -> Vec<Vec<Span<'static>>> {
    hard_wrap_first(spans, width, width)
}

fn hard_wrap_first(
    spans: Vec<Span<'static>>,
    first: usize,
    width: usize,
) -> Vec<Vec<Span<'static>>> {
    let mut rows = vec![Vec::new()];
    let mut limit = first.max(1);
    let mut used = 0;
    for span in spans {
        let mut piece = String::new();
        for ch in span.content.chars() {
            let w = width_of(ch.encode_utf8(&mut [0; 4]));
            if used + w > limit && used > 0 {
                if !piece.is_empty() {
                    rows.last_mut()
                        .expect("rows is never empty")
                        .push(Span::styled(std::mem::take(&mut piece), span.style));
                }
                rows.push(Vec::new());
                used = 0;
                limit = width.max(1);
            }
            piece.push(ch);
            used += w;
        }
        if !piece.is_empty() {
            rows.last_mut()
                .expect("rows is never empty")
                .push(Span::styled(piece, span.style));
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ThemeName;

    fn text(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn paragraphs_wrap_within_width() {
        let t = Theme::new(ThemeName::Default, false);
        let lines = render(
            "A model proposes a call; your code decides whether it runs at all.",
            20,
            &t,
        );
        for l in &lines {
            assert!(l.width() <= 20, "{l:?}");
        }
        assert!(lines.len() >= 3);
        assert_eq!(
            text(&lines)
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>(),
            "A model proposes a call; your code decides whether it runs at all."
                .split_whitespace()
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn lists_headings_and_code() {
        let t = Theme::new(ThemeName::Default, true);
        let src = "# Title\n\nSome *em* and `code`.\n\n- one\n- two\n  1. nested\n\n```json\n{\"a\": 1, \"b\": true}\n```\n";
        let lines = text(&render(src, 40, &t));
        assert_eq!(lines[0], "Title");
        assert!(lines.contains(&"- one".to_owned()), "{lines:?}");
        assert!(lines.contains(&"  1. nested".to_owned()), "{lines:?}");
        assert!(lines.iter().any(|l| l.contains("{\"a\": 1, \"b\": true}")));
        assert!(lines.iter().all(|l| l.is_ascii()));
    }

    #[test]
    fn json_keys_and_values_get_their_styles() {
        let t = Theme::new(ThemeName::Default, false);
        let spans = crate::tui::draw::highlight_json_line(
            r#"{"ticket_id": "TKT-1", "n": -3.5, "ok": false}"#,
            &t,
        )
        .spans;
        let find = |s: &str| spans.iter().find(|x| x.content == s).unwrap().style;
        assert_eq!(find("\"ticket_id\""), t.json_key);
        assert_eq!(find("\"TKT-1\""), t.json_string);
        assert_eq!(find("-3.5"), t.json_number);
        assert_eq!(find("false"), t.json_literal);
    }

    #[test]
    fn inline_code_keeps_its_backticks_without_colour() {
        let src = "Call `get_ticket` with `ticket_id`.";
        let mono = text(&render(src, 60, &Theme::new(ThemeName::Mono, false)));
        assert_eq!(mono[0], "Call `get_ticket` with `ticket_id`.");
        let ascii = text(&render(src, 60, &Theme::new(ThemeName::Default, true)));
        assert_eq!(ascii[0], "Call `get_ticket` with `ticket_id`.");
        // With colour the style marks it and the backticks go.
        let colour = text(&render(src, 60, &Theme::new(ThemeName::Default, false)));
        assert_eq!(colour[0], "Call get_ticket with ticket_id.");
    }

    #[test]
    fn long_words_are_broken() {
        let t = Theme::new(ThemeName::Default, false);
        let lines = render(&"x".repeat(50), 10, &t);
        assert!(lines.iter().all(|l| l.width() <= 10));
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn ascii_draws_the_apps_own_marks_as_it_draws_them_and_keeps_letters() {
        let src = "the gauge is flagged with `⚑`; keys like `run-…/c1` → here; `été`";
        let ascii = text(&render(src, 80, &Theme::new(ThemeName::Default, true))).concat();
        assert!(ascii.contains("`!`"), "{ascii}");
        assert!(ascii.contains("`run-.../c1`"), "{ascii}");
        assert!(ascii.contains("-> here"), "{ascii}");
        assert!(ascii.contains("été"), "{ascii}");
        let unicode = text(&render(src, 80, &Theme::new(ThemeName::Default, false))).concat();
        assert!(unicode.contains("⚑") && unicode.contains("run-…/c1") && unicode.contains('→'));
    }

    #[test]
    fn control_characters_are_cleaned() {
        let t = Theme::new(ThemeName::Default, false);
        let lines = text(&render("evil \u{1b}[31m red", 40, &t));
        assert!(!lines.concat().contains('\u{1b}'));
    }
}
