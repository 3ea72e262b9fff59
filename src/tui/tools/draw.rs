//! Drawing the Your tools screen: the head (the file, its shape and counts), the list of
//! declarations with their marks, the selected one's detail (the schema outline with its
//! weak spots, the trap table, strict readiness, hygiene), the fix list, the predict table
//! and the playground in the body, and the key bar.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::{Analysis, Mode, Pane, ToolsScreen};
use crate::sanitize::clean;
use crate::text::{fit, truncate, width, wrap};
use crate::tools::strict::{Provider, Verdict};
use crate::tui::blocks::{BlockWidget, RenderCtx};
use crate::tui::draw::keybar::{BarKey, Rank, render_keys};
use crate::tui::draw::{self, draw_lines, highlight_json_text, text_popup, wrap_prefixed};
use crate::tui::theme::Theme;

/// The browse view's keys, for the help.
const KEYS: [(&str, &str); 11] = [
    ("Up/Down j/k", "choose a declaration (or scroll the detail)"),
    ("Tab", "list / detail"),
    ("PgUp/PgDn", "scroll the detail"),
    ("Enter", "predict its traps"),
    ("p", "the playground on it"),
    ("f", "its fixes, and a fixed copy"),
    ("t", "a model's calls to it, in the trace player"),
    ("?", "this help"),
    ("Esc", "back"),
    ("q", "quit"),
    ("Ctrl-C", "quit now"),
];

const BROWSE_BAR: [BarKey; 9] = [
    BarKey::new("j/k", "tool", Rank::Focus),
    BarKey::new("Enter", "predict the traps", Rank::Focus).brief("Enter", "predict"),
    BarKey::new("p", "playground", Rank::Focus),
    BarKey::new("f", "fixes", Rank::Focus),
    BarKey::new("t", "trace", Rank::Rest),
    BarKey::new("Tab", "pane", Rank::Rest),
    BarKey::new("Esc", "home", Rank::Always),
    BarKey::new("q", "quit", Rank::Always),
    BarKey::new("?", "help", Rank::Always),
];

const FIX_BAR: [BarKey; 5] = [
    BarKey::new("w", "write a fixed copy", Rank::Focus).brief("w", "write"),
    BarKey::new("j/k", "scroll", Rank::Scroll),
    BarKey::new("Esc", "back", Rank::Always),
    BarKey::new("q", "quit", Rank::Always),
    BarKey::new("?", "help", Rank::Always),
];

pub(super) fn render(s: &ToolsScreen, area: Rect, buf: &mut Buffer, t: &Theme, present: bool) {
    let draw::ScreenAreas { head, body, bar } = draw::screen(area, buf, t, present);
    let set = &s.file.set;
    let tool = s.tool();
    let title = match (&s.mode, tool) {
        (Mode::Browse, _) | (_, None) => format!(
            " Your tools {} {} ({}, {} declarations)",
            dot(t),
            clean(&s.file.name, false),
            set.shape.describe(),
            set.tools.len()
        ),
        (Mode::Predict(_), Some(tl)) => {
            format!(
                " {} {} will your schema catch it?",
                clean(&tl.name, false),
                dot(t)
            )
        }
        (Mode::Play(_), Some(tl)) => format!(" {} {} playground", clean(&tl.name, false), dot(t)),
        (Mode::Fixes, Some(tl)) => format!(" {} {} fixes", clean(&tl.name, false), dot(t)),
    };
    let w = usize::from(head.width);
    buf.set_line(
        head.x,
        head.y,
        &Line::styled(truncate(&title, w, t.sym.ellipsis), t.heading),
        head.width,
    );
    let sub = s.note.clone().unwrap_or_else(|| subtitle(s, t));
    buf.set_line(
        head.x,
        head.y + 1,
        &Line::styled(truncate(&format!(" {sub}"), w, t.sym.ellipsis), t.dim),
        head.width,
    );
    match &s.mode {
        Mode::Browse => {
            browse(s, body, buf, t);
            render_keys(&BROWSE_BAR, None, t, bar, buf);
        }
        Mode::Fixes => {
            fixes(s, body, buf, t);
            render_keys(&FIX_BAR, None, t, bar, buf);
        }
        Mode::Predict(widget) => hosted(widget.as_ref(), body, bar, buf, t),
        Mode::Play(p) => hosted(p.as_ref(), body, bar, buf, t),
    }
    if s.help {
        let mut text: Vec<String> = KEYS.iter().map(|(k, w)| format!("{k:<12} {w}")).collect();
        text.push(String::new());
        text.extend(wrap(
            "Every verdict is the real validator's, on your own declaration. Any key closes this.",
            52,
        ));
        text_popup(area, buf, t, " Keys ", &text);
    }
}

/// What the file holds besides its declarations: skipped entries, duplicate names.
fn subtitle(s: &ToolsScreen, t: &Theme) -> String {
    let set = &s.file.set;
    let mut parts = vec![format!("{} honoured by the validator", set.honoured())];
    if !set.skipped.is_empty() {
        parts.push(format!(
            "{} skipped (not function tools)",
            set.skipped.len()
        ));
    }
    if !set.duplicates.is_empty() {
        parts.push(format!("{} duplicate names", set.duplicates.len()));
    }
    parts.join(&format!(" {} ", dot(t)))
}

/// The separator of a title's parts.
fn dot(t: &Theme) -> &'static str {
    if t.ascii { "-" } else { "·" }
}

/// The predict table or the playground, filling the body, with its own keys in the bar.
fn hosted(widget: &dyn BlockWidget, body: Rect, bar: Rect, buf: &mut Buffer, t: &Theme) {
    let ctx = RenderCtx {
        theme: t,
        focused: true,
        active: true,
        demo: false,
    };
    widget.render(body, buf, &ctx);
    let mut keys: Vec<BarKey> = widget
        .key_hints(true)
        .iter()
        .enumerate()
        .map(|(i, h)| BarKey::new(h.keys, h.what, if i < 2 { Rank::Focus } else { Rank::Rest }))
        .collect();
    keys.push(BarKey::new("Ctrl-C", "quit", Rank::Always));
    keys.push(BarKey::new("Esc", "back", Rank::Always));
    render_keys(&keys, None, t, bar, buf);
}

fn browse(s: &ToolsScreen, body: Rect, buf: &mut Buffer, t: &Theme) {
    let list_w = (body.width * 2 / 7).clamp(20, 36).min(body.width);
    let list = Rect {
        width: list_w,
        ..body
    };
    let detail = Rect {
        x: body.x + list_w + 1,
        width: body.width.saturating_sub(list_w + 1),
        ..body
    };
    let block = draw::bordered(t, s.pane == Pane::List).title(" Tools ");
    let inner = block.inner(list);
    ratatui::widgets::Widget::render(block, list, buf);
    draw_list(s, inner, buf, t);
    let block = draw::bordered(t, s.pane == Pane::Detail);
    let inner = block.inner(detail);
    ratatui::widgets::Widget::render(block, detail, buf);
    if let Some(a) = s.analysis(s.sel) {
        let lines = detail_lines(s, &a, t, usize::from(inner.width));
        let max = lines.len().saturating_sub(usize::from(inner.height));
        draw_lines(inner, buf, &lines, usize::from(s.scroll).min(max));
    }
}

/// The strict mark of a declaration: both providers, one, none.
fn strict_mark(a: &Analysis, t: &Theme) -> (&'static str, Style) {
    match (a.strict.openai.ok, a.strict.anthropic.ok) {
        (true, true) => (t.sym.ok, t.ok),
        (false, false) => (t.sym.bad, t.bad),
        _ => (t.sym.in_progress, t.warn),
    }
}

fn draw_list(s: &ToolsScreen, area: Rect, buf: &mut Buffer, t: &Theme) {
    let legend = 2usize;
    let rows = usize::from(area.height)
        .saturating_sub(if area.height > 6 { legend + 1 } else { 0 })
        .max(1);
    let tools = &s.file.set.tools;
    let mut top = s.list_top.get();
    if s.sel < top {
        top = s.sel;
    } else if s.sel >= top + rows {
        top = s.sel + 1 - rows;
    }
    s.list_top.set(top);
    let w = usize::from(area.width);
    let pad = width(t.sym.ok).max(width(t.sym.bad));
    let marks_w = 2 * pad + 2 + if w >= 28 { 11 } else { 3 };
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (i, tool) in tools.iter().enumerate().skip(top).take(rows) {
        let Some(a) = s.analysis(i) else { continue };
        let chosen = i == s.sel;
        let pointer = if chosen { t.sym.pointer } else { " " };
        let name_w = w.saturating_sub(marks_w + 2).max(4);
        let name = fit(&clean(&tool.name, false), name_w, t.sym.ellipsis);
        let (h, hs) = if tool.honoured() {
            (t.sym.ok, t.ok)
        } else {
            (t.sym.bad, t.bad)
        };
        let (sm, ss) = strict_mark(&a, t);
        let (h, sm) = (fit(h, pad, ""), fit(sm, pad, ""));
        let through = a.traps.through();
        let ts = if through > 0 { t.bad } else { t.ok };
        let count = if w >= 28 {
            format!(" {through:>2} through")
        } else {
            format!(" {through:>2}")
        };
        let name_style = if chosen { t.selected } else { t.base };
        lines.push(Line::from(vec![
            Span::styled(format!("{pointer} "), t.focus),
            Span::styled(name, name_style),
            Span::raw(" "),
            Span::styled(h, hs),
            Span::raw(" "),
            Span::styled(sm, ss),
            Span::styled(count, ts),
        ]));
    }
    draw_lines(area, buf, &lines, 0);
    if area.height > 6 {
        let y = area.y + area.height - 2;
        let l1 = format!("{} honoured {} refused", t.sym.ok, t.sym.bad);
        let l2 = format!(
            "strict {} both {} one {} none",
            t.sym.ok, t.sym.in_progress, t.sym.bad
        );
        buf.set_line(
            area.x,
            y,
            &Line::styled(truncate(&l1, w, t.sym.ellipsis), t.dim),
            area.width,
        );
        buf.set_line(
            area.x,
            y + 1,
            &Line::styled(truncate(&l2, w, t.sym.ellipsis), t.dim),
            area.width,
        );
    }
}

/// The selected declaration's detail: heading, outline, traps, strict, hygiene.
fn detail_lines(s: &ToolsScreen, a: &Analysis, t: &Theme, w: usize) -> Vec<Line<'static>> {
    let Some(tool) = s.tool() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let desc = tool
        .description
        .as_deref()
        .map(|d| d.lines().next().unwrap_or_default().to_owned());
    let head = match desc {
        Some(d) if !d.trim().is_empty() => format!(
            "{} {} {}",
            tool.name,
            if t.ascii { "-" } else { "—" },
            d.trim()
        ),
        _ => tool.name.clone(),
    };
    for l in wrap(&clean(&head, false), w) {
        out.push(Line::styled(l, t.heading));
    }
    if let Some(why) = tool.refusal() {
        for l in wrap(
            &format!("refused by the validator: {}", clean(&why, false)),
            w,
        ) {
            out.push(Line::styled(l, t.bad));
        }
    }
    outline(a, t, w, &mut out);
    out.push(Line::default());
    trap_table(a, t, w, &mut out);
    out.push(Line::default());
    out.push(Line::styled("Strict readiness", t.heading));
    strict_lines(Provider::Openai, &a.strict.openai, t, w, &mut out);
    strict_lines(Provider::Anthropic, &a.strict.anthropic, t, w, &mut out);
    if !a.hygiene.is_empty() {
        out.push(Line::default());
        out.push(Line::styled("Hygiene", t.heading));
        for n in &a.hygiene {
            let bullet = Span::styled(format!("{} ", t.sym.bullet), t.dim);
            out.extend(wrap_prefixed(
                vec![bullet],
                &clean(&n.message, false),
                w,
                t.base,
            ));
        }
    }
    out
}

fn outline(a: &Analysis, t: &Theme, w: usize, out: &mut Vec<Line<'static>>) {
    out.push(Line::styled("{", t.dim));
    let name_w = a
        .outline
        .iter()
        .map(|r| 2 * r.depth + width(&r.name))
        .max()
        .unwrap_or(0)
        .min(w / 3);
    for r in &a.outline {
        let weak = if r.weak.is_empty() {
            String::new()
        } else {
            format!(
                "  {} {}",
                if t.ascii { "<-" } else { "←" },
                r.weak.join(", ")
            )
        };
        let (lead, name) = if r.name.is_empty() {
            ("}".to_owned(), String::new())
        } else {
            (
                "  ".to_owned(),
                format!("{}{}", "  ".repeat(r.depth), clean(&r.name, false)),
            )
        };
        let mut spans = vec![Span::styled(lead, t.dim)];
        if !name.is_empty() {
            spans.push(Span::styled(fit(&name, name_w, t.sym.ellipsis), t.base));
        } else {
            spans.push(Span::raw(" ".repeat(name_w + 1)));
        }
        spans.push(Span::raw("  "));
        // What does not fit on the name's line wraps under the summary's column, whole.
        let indent = 2 + name_w + 2;
        let room = w.saturating_sub(indent).max(8);
        let summary = clean(&r.summary, false);
        if width(&summary) + width(&weak) <= room {
            spans.push(Span::styled(summary, t.dim));
            spans.push(Span::styled(weak, t.warn));
            out.push(Line::from(spans));
            continue;
        }
        let mut parts = wrap(&summary, room).into_iter();
        spans.push(Span::styled(parts.next().unwrap_or_default(), t.dim));
        out.push(Line::from(spans));
        let pad = " ".repeat(indent);
        for part in parts {
            out.push(Line::from(vec![
                Span::raw(pad.clone()),
                Span::styled(part, t.dim),
            ]));
        }
        let weak = weak.trim_start();
        for part in wrap(weak, room).into_iter().filter(|_| !weak.is_empty()) {
            out.push(Line::from(vec![
                Span::raw(pad.clone()),
                Span::styled(part, t.warn),
            ]));
        }
    }
}

fn trap_table(a: &Analysis, t: &Theme, w: usize, out: &mut Vec<Line<'static>>) {
    let traps = &a.traps;
    let head = format!(
        "Traps {} {} tried, {} let through",
        dot(t),
        traps.traps.len(),
        traps.through()
    );
    let head = if width(&head) + 24 <= w {
        format!("{head} (predict first: Enter)")
    } else {
        head
    };
    out.push(Line::styled(head, t.heading));
    if let Some(note) = &traps.note {
        for l in wrap(&clean(note, false), w) {
            out.push(Line::styled(l, t.warn));
        }
    }
    let verdict_w = 14;
    // Narrow: no fix column; a fix goes on its own line under its row.
    let narrow = w < 70;
    let label_w = if narrow {
        w.saturating_sub(4 + 1 + verdict_w).max(8)
    } else {
        (w * 2 / 5).clamp(12, 44)
    };
    let args_w = if w >= 110 { (w / 5).min(32) } else { 0 };
    let fix_w = if narrow {
        0
    } else {
        w.saturating_sub(4 + label_w + 1 + args_w + usize::from(args_w > 0) + verdict_w + 1)
    };
    let mut header = format!("{:>3} {}", "#", fit("trap", label_w, t.sym.ellipsis));
    if args_w > 0 {
        header.push(' ');
        header.push_str(&fit("arguments (the rest valid)", args_w, t.sym.ellipsis));
    }
    header.push(' ');
    header.push_str(&fit("your schema", verdict_w, t.sym.ellipsis));
    if fix_w >= 8 {
        header.push_str(" fix");
    }
    out.push(Line::styled(truncate(&header, w, t.sym.ellipsis), t.dim));
    for (i, trap) in traps.traps.iter().enumerate() {
        let mut spans = vec![
            Span::styled(format!("{:>3} ", i + 1), t.dim),
            Span::styled(
                fit(&clean(&trap.title(), false), label_w, t.sym.ellipsis),
                t.base,
            ),
        ];
        if args_w > 0 {
            spans.push(Span::raw(" "));
            spans.push(Span::styled(
                fit(
                    &clean(&trap.short_args(args_w), false),
                    args_w,
                    t.sym.ellipsis,
                ),
                t.dim,
            ));
        }
        let (word, style) = if trap.ok {
            (format!("{} let through", t.sym.bad), t.bad)
        } else {
            (format!("{} rejected", t.sym.ok), t.ok)
        };
        spans.push(Span::raw(" "));
        spans.push(Span::styled(fit(&word, verdict_w, t.sym.ellipsis), style));
        if fix_w >= 8 {
            let fix = match (&trap.fix, &trap.why) {
                (Some(f), _) => f.snippet(),
                (None, Some(why)) if trap.ok => why.clone(),
                _ => String::new(),
            };
            spans.push(Span::raw(" "));
            spans.push(Span::styled(
                truncate(&clean(&fix, false), fix_w, t.sym.ellipsis),
                t.warn,
            ));
        }
        out.push(Line::from(spans));
        if narrow && trap.ok {
            let fix = match (&trap.fix, &trap.why) {
                (Some(f), _) => format!("fix: {}", f.snippet()),
                (None, Some(why)) => why.clone(),
                _ => String::new(),
            };
            let line = format!("      {}", clean(&fix, false));
            out.push(Line::styled(truncate(&line, w, t.sym.ellipsis), t.warn));
        }
    }
}

fn strict_lines(p: Provider, v: &Verdict, t: &Theme, w: usize, out: &mut Vec<Line<'static>>) {
    let label = format!("{:<10} ", p.label());
    if v.ok {
        out.push(Line::from(vec![
            Span::styled(label, t.base),
            Span::styled(format!("{} would accept it", t.sym.ok), t.ok),
        ]));
        return;
    }
    let indent = width(&label) + 2;
    for (i, r) in v.reasons.iter().take(3).enumerate() {
        for (k, l) in wrap(&clean(&r.message, false), w.saturating_sub(indent))
            .into_iter()
            .enumerate()
        {
            let lead = match (i, k) {
                (0, 0) => vec![
                    Span::styled(label.clone(), t.base),
                    Span::styled(format!("{} ", t.sym.bad), t.bad),
                ],
                _ => vec![Span::raw(" ".repeat(indent))],
            };
            let mut spans = lead;
            spans.push(Span::styled(l, t.base));
            out.push(Line::from(spans));
        }
    }
    if v.reasons.len() > 3 {
        out.push(Line::styled(
            format!(
                "{}{} {} more (tooldojo tools FILE lists them)",
                " ".repeat(indent),
                t.sym.ellipsis,
                v.reasons.len() - 3
            ),
            t.dim,
        ));
    }
}

fn fixes(s: &ToolsScreen, body: Rect, buf: &mut Buffer, t: &Theme) {
    let Some(a) = s.analysis(s.sel) else { return };
    let w = usize::from(body.width);
    let mut lines: Vec<Line<'static>> = Vec::new();
    let fixes = a.fixes();
    if fixes.is_empty() {
        lines.push(Line::styled(
            "No trap gets through that one keyword would close.",
            t.ok,
        ));
    }
    for f in &fixes {
        let closes: Vec<&str> = a
            .traps
            .traps
            .iter()
            .filter(|x| {
                x.fix
                    .as_ref()
                    .is_some_and(|g| g.at == f.at && g.key == f.key)
            })
            .map(|x| x.label.as_str())
            .collect();
        let text = format!("{} (closes: {})", f.text(), closes.join("; "));
        let bullet = Span::styled(format!("{} ", t.sym.bullet), t.warn);
        lines.extend(wrap_prefixed(vec![bullet], &clean(&text, false), w, t.base));
    }
    if fixes.iter().any(|f| f.value.is_number()) {
        for l in wrap(crate::tools::traps::fix::STAND_IN, w) {
            lines.push(Line::styled(l, t.dim));
        }
    }
    let unfixed: Vec<&str> = a
        .traps
        .traps
        .iter()
        .filter(|x| x.ok && x.fix.is_none())
        .map(|x| x.label.as_str())
        .collect();
    if !unfixed.is_empty() {
        lines.push(Line::default());
        for l in wrap(
            &format!(
                "No one keyword closes: {}",
                clean(&unfixed.join("; "), false)
            ),
            w,
        ) {
            lines.push(Line::styled(l, t.dim));
        }
    }
    lines.push(Line::default());
    lines.push(Line::styled(
        "The declaration with every fix applied (w writes it as NAME.fixed.json):",
        t.heading,
    ));
    if let Some(fixed) = s.fixed_declaration() {
        let text = serde_json::to_string_pretty(&fixed).unwrap_or_default();
        lines.extend(highlight_json_text(&text, t));
    }
    let max = lines.len().saturating_sub(usize::from(body.height));
    draw_lines(body, buf, &lines, usize::from(s.scroll).min(max));
}
