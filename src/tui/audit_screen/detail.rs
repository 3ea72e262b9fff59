//! The chosen conversation under the list: its counts, its findings as the text report
//! lists them (call, tool, finding, path, what exactly, the arguments), then what was
//! said, called and answered, in order.
//! Every line wraps to the width, so nothing is cut that cannot be read here.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::audit::convo::Seen;
use crate::audit::report::{counts, finding_head};
use crate::audit::steps::Speaker;
use crate::audit::{Conversation, Kind};
use crate::sanitize::clean;
use crate::text::wrap_keeping_strings;
use crate::tui::draw::wrap_prefixed_with;
use crate::tui::theme::Theme;

/// What goes under a finding's head line starts this far in.
const INDENT: &str = "      ";

/// The detail of `conv` (called `label`, as the list's line column says) at `width`.
pub(super) fn lines(
    conv: &Conversation,
    label: &str,
    width: usize,
    t: &Theme,
) -> Vec<Line<'static>> {
    let mut out = Out {
        width: width.max(20),
        lines: Vec::new(),
    };
    out.put(" ", &format!("{label}: {}", counts(conv)), t.heading);
    let kinds: Vec<String> = Kind::ALL
        .iter()
        .map(|&k| (k, conv.count(k)))
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| counted(k, n, t))
        .collect();
    if kinds.is_empty() && conv.calls.is_empty() {
        out.put(" ", "no tool calls to check", t.dim);
    } else if kinds.is_empty() {
        out.put(
            " ",
            "no findings: every call was right as the model wrote it",
            t.ok,
        );
    } else {
        out.put(" findings: ", &kinds.join(", "), t.warn);
    }
    for f in &conv.findings {
        let call = f.call.and_then(|i| conv.calls.get(i));
        let id = call.map(|c| c.id_or_dash()).or(f.id.as_deref());
        let tool = call.map(|c| c.tool.as_str());
        let head = finding_head(label, (id, tool), f.kind, &f.path);
        let style = if f.kind.is_good() { t.base } else { t.warn };
        out.put(" ", &head, style);
        out.put(INDENT, &f.detail, t.base);
        if !f.excerpt.is_empty() {
            out.put(INDENT, &format!("| {}", f.excerpt), t.dim);
        }
    }
    if !conv.seen.is_empty() {
        out.put(" ", "the conversation, in order", t.dim);
    }
    for step in &conv.seen {
        match step {
            Seen::Turn { .. } => {}
            Seen::Say { who, text } => {
                let who = match who {
                    Speaker::User => "user",
                    Speaker::Model => "model",
                };
                out.put(&format!("   {who:<7}"), text, t.base);
            }
            Seen::Call(i) => {
                let Some(c) = conv.calls.get(*i) else {
                    continue;
                };
                let verdict = match (c.verdict.ok(), c.verdict.error(&c.tool)) {
                    (_, Some(e)) => format!("{} {e}", t.sym.bad),
                    (Some(true), None) => format!("{} passed", t.sym.ok),
                    _ => "not judged".to_owned(),
                };
                let line = format!(
                    "{} {} {verdict} | {}",
                    c.id_or_dash(),
                    c.tool,
                    c.args_excerpt
                );
                let style = if c.verdict.invalid() { t.warn } else { t.base };
                out.put("   call   ", &line, style);
            }
            Seen::Result { call, .. } => {
                let Some(c) = call.and_then(|i| conv.calls.get(i)) else {
                    continue;
                };
                let Some(a) = &c.result else { continue };
                let mark = if a.is_error() { t.sym.bad } else { t.sym.ok };
                let line = format!("{} {mark} {}", c.id_or_dash(), a.excerpt);
                let style = if a.is_error() { t.warn } else { t.dim };
                out.put("   result ", &line, style);
            }
        }
    }
    out.lines
}

/// A finding's name, with how many times it was found when more than once (`x` in ASCII).
pub(super) fn counted(kind: Kind, n: usize, t: &Theme) -> String {
    let times = if t.ascii { "x" } else { "×" };
    match n {
        1 => kind.name().to_owned(),
        n => format!("{} {times}{n}", kind.name()),
    }
}

/// The detail's lines, kept while the conversation, the width and the theme stay the same:
/// a frame draws from them rather than building and wrapping the whole conversation again.
#[derive(Debug, Default)]
pub(super) struct Cache {
    /// The conversation (its index in the listing, if any is chosen), the width, the theme.
    key: Option<(Option<usize>, usize, Theme)>,
    lines: Vec<Line<'static>>,
    /// How many times the lines were built.
    pub(super) builds: usize,
}

impl Cache {
    /// The lines for `conv` at `width` in `theme`, built by `build` only when one changed.
    pub(super) fn get(
        &mut self,
        conv: Option<usize>,
        width: usize,
        theme: &Theme,
        build: impl FnOnce() -> Vec<Line<'static>>,
    ) -> &[Line<'static>] {
        let same = self
            .key
            .as_ref()
            .is_some_and(|(c, w, t)| *c == conv && *w == width && t == theme);
        if !same {
            self.lines = build();
            self.builds += 1;
            self.key = Some((conv, width, theme.clone()));
        }
        &self.lines
    }
}

struct Out {
    width: usize,
    lines: Vec<Line<'static>>,
}

impl Out {
    /// `lead` and then `text`, cleaned and wrapped under itself (a quoted string, such as
    /// one in a call's arguments, kept on one line where it fits).
    fn put(&mut self, lead: &str, text: &str, style: Style) {
        let lead = vec![Span::styled(lead.to_owned(), style)];
        let text = clean(text, false);
        let lines = wrap_prefixed_with(lead, &text, self.width, style, wrap_keeping_strings);
        self.lines.extend(lines);
    }
}
