//! Drawing the Your tools screen: the head (the file, its shape and counts), the list of
//! declarations with their marks, the selected one's detail (the schema outline with its
//! weak spots, the trap table, strict readiness, hygiene), the fix list, the predict table
//! and the playground in the body, and the key bar.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::{Analysis, Mode, Pane, ToolsScreen, dot};
use crate::sanitize::clean;
use crate::text::{fit, plural, truncate, width, wrap};
use crate::tools::strict::{Provider, StrictRule, Verdict};
use crate::tui::blocks::{BlockWidget, RenderCtx};
use crate::tui::draw::keybar::{BarKey, Rank, render_keys};
use crate::tui::draw::{self, above_mark, below_mark, draw_lines, text_popup, wrap_prefixed};
use crate::tui::theme::Theme;

/// The list's keys; the last three (home, quit, help) are all a file with no declaration
/// offers.
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
    BarKey::new("Esc", super::help::BACK, Rank::Always).brief("Esc", "list"),
    BarKey::new("q", "quit", Rank::Always),
    BarKey::new("?", "help", Rank::Always),
];

pub(super) fn render(s: &ToolsScreen, area: Rect, buf: &mut Buffer, t: &Theme, present: bool) {
    let draw::ScreenAreas { head, body, bar } = draw::screen(area, buf, t, present);
    let set = &s.file.set;
    let tool = s.tool();
    let title = match (&s.mode, tool) {
        (Mode::Browse, _) | (_, None) => format!(
            " Your tools {} {} ({}, {})",
            dot(t),
            clean(&s.file.name, false),
            set.shape.describe(),
            plural(set.tools.len(), "declaration", "declarations")
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
    let body = subtitle_or_note(s, head, body, buf, t);
    match &s.mode {
        Mode::Browse => {
            browse(s, body, buf, t);
            // With no declaration, only the keys that do something; with the detail's
            // focus, j/k scroll it.
            let mut keys: Vec<BarKey> = if set.tools.is_empty() {
                BROWSE_BAR[6..].to_vec()
            } else {
                BROWSE_BAR.to_vec()
            };
            if s.pane == Pane::Detail && !set.tools.is_empty() {
                keys[0] = BarKey::new("j/k", "scroll", Rank::Focus);
            }
            render_keys(&keys, None, t, bar, buf);
        }
        Mode::Fixes => {
            // The scroll keys only while the list is taller than the body.
            let keys: Vec<BarKey> = if fixes(s, body, buf, t) {
                FIX_BAR.to_vec()
            } else {
                FIX_BAR
                    .iter()
                    .filter(|k| k.rank != Rank::Scroll)
                    .copied()
                    .collect()
            };
            render_keys(&keys, None, t, bar, buf);
        }
        Mode::Predict(_) | Mode::Play(_) => {
            if let Some(widget) = s.mode.hosted() {
                let scrolls = scrolled(s, widget, body, buf, t);
                let keys = super::help::hosted_bar(widget, scrolls);
                render_keys(&keys, None, t, bar, buf);
            }
        }
    }
    if s.help {
        let w = usize::from(area.width.saturating_sub(4)).min(64);
        let h = usize::from(area.height.saturating_sub(2));
        text_popup(area, buf, t, " Keys ", &super::help::shown(s, t, w, h));
    }
}

/// The line under the title: what the file holds, or a note on what the last key did,
/// which reads whole: when it is longer than the line, it goes on over the body's first
/// lines. Returns the body left.
fn subtitle_or_note(s: &ToolsScreen, head: Rect, body: Rect, buf: &mut Buffer, t: &Theme) -> Rect {
    let w = usize::from(head.width);
    // The fix list says what `w` did above the fixes.
    let Some(note) = s.note.as_deref().filter(|_| !matches!(s.mode, Mode::Fixes)) else {
        let sub = format!(" {}", subtitle(s, t, w.saturating_sub(1)));
        let line = Line::styled(truncate(&sub, w, t.sym.ellipsis), t.dim);
        buf.set_line(head.x, head.y + 1, &line, head.width);
        return body;
    };
    let lines = wrap(note, w.saturating_sub(1).max(1));
    let more = lines
        .len()
        .saturating_sub(1)
        .min(usize::from(body.height.saturating_sub(3)));
    let rows = std::iter::once(head.y + 1).chain(body.y..);
    for (l, y) in lines.iter().take(more + 1).zip(rows) {
        let line = Line::styled(l.clone(), t.warn);
        buf.set_line(head.x + 1, y, &line, head.width.saturating_sub(1));
    }
    let more = u16::try_from(more).unwrap_or(0);
    Rect {
        y: body.y + more,
        height: body.height - more,
        ..body
    }
}

/// Under a title naming the file, what the file holds; under one naming a declaration (the
/// predict table, the playground, the fix list), what is true of that declaration.
fn subtitle(s: &ToolsScreen, t: &Theme, w: usize) -> String {
    match (&s.mode, s.tool(), s.analysis(s.sel)) {
        (Mode::Browse, _, _) | (_, None, _) | (_, _, None) => file_subtitle(s, t, w),
        (mode, Some(tool), Some(a)) => {
            let predict = matches!(mode, Mode::Predict(_));
            tool_subtitle(s, tool.honoured(), &a, predict, (t, w))
        }
    }
}

/// Whether the validator honours the declaration and what its traps did (before they
/// are predicted, only how many there are); in shorter words when the long ones do not fit.
fn tool_subtitle(
    s: &ToolsScreen,
    honoured: bool,
    a: &Analysis,
    predict: bool,
    (t, w): (&Theme, usize),
) -> String {
    let tried = a.traps.traps.len();
    let through = a.traps.through();
    let said = |long: bool| {
        let verdict = if honoured { "honoured" } else { "refused" };
        let by = if long { " by the validator" } else { "" };
        let traps = match (tried, predict, long) {
            (0, _, true) => "no traps tried".to_owned(),
            (0, _, false) => "no traps".to_owned(),
            // A room is shown the verdicts, not asked for them.
            (n, true, true) if s.room => format!("{} to show", plural(n, "trap", "traps")),
            (n, true, true) => format!("{} to predict", plural(n, "trap", "traps")),
            (n, true, false) => plural(n, "trap", "traps"),
            (n, false, true) => format!(
                "{} tried, {through} let through",
                plural(n, "trap", "traps")
            ),
            (n, false, false) => format!("{through} of {n} through"),
        };
        format!("{verdict}{by} {} {traps}", dot(t))
    };
    let long = said(true);
    if width(&long) <= w { long } else { said(false) }
}

/// What the file holds besides its declarations: skipped entries, duplicate names; in
/// shorter words when the long ones do not fit in `w` cells (the list names the skipped
/// entries, and each declaration's detail its repeated name).
fn file_subtitle(s: &ToolsScreen, t: &Theme, w: usize) -> String {
    let set = &s.file.set;
    let said = |long: bool| {
        let mut parts = vec![format!(
            "{} honoured{}",
            set.honoured(),
            if long { " by the validator" } else { "" }
        )];
        if !set.skipped.is_empty() {
            let why = if long { " (not function tools)" } else { "" };
            parts.push(format!("{} skipped{why}", set.skipped.len()));
        }
        if !set.duplicates.is_empty() {
            parts.push(plural(
                set.duplicates.len(),
                "duplicate name",
                "duplicate names",
            ));
        }
        parts.join(&format!(" {} ", dot(t)))
    };
    let long = said(true);
    if width(&long) <= w { long } else { said(false) }
}

/// How the predict table or the playground is drawn in the body: focused and entered, and
/// in presenter mode as a lesson page shows it to a room.
fn hosted_ctx<'a>(s: &ToolsScreen, t: &'a Theme) -> RenderCtx<'a> {
    RenderCtx {
        theme: t,
        focused: true,
        active: true,
        demo: s.room,
    }
}

/// The predict table or the playground in the body: whole when it fits; else drawn
/// off-screen at its full height and its rows from where it is scrolled to copied in, the
/// first and last rows saying how many lines lie above and below. Returns whether it
/// scrolls.
fn scrolled(
    s: &ToolsScreen,
    widget: &dyn BlockWidget,
    body: Rect,
    buf: &mut Buffer,
    t: &Theme,
) -> bool {
    let full = widget.height_for(body.width, body.height);
    let shown = usize::from(body.height);
    if full <= body.height || shown < 3 {
        widget.render(body, buf, &hosted_ctx(s, t));
        s.view_rows.set((0, shown, body.width));
        return false;
    }
    let mut off = Buffer::empty(Rect::new(0, 0, body.width, full));
    off.set_style(off.area, t.base);
    widget.render(off.area, &mut off, &hosted_ctx(s, t));
    let total = usize::from(full);
    let max = total - shown;
    let at = s.view_scroll.min(max);
    s.view_rows.set((max, shown, body.width));
    for (row, y) in (at..at + shown).zip(body.top()..body.bottom()) {
        let Ok(row) = u16::try_from(row) else { break };
        for (col, x) in (0..body.width).zip(body.left()..body.right()) {
            if let (Some(from), Some(to)) = (off.cell((col, row)), buf.cell_mut((x, y))) {
                *to = from.clone();
            }
        }
    }
    draw::mark_cut(body, buf, t, (at, total), ("PgUp", "PgDn"));
    true
}

fn browse(s: &ToolsScreen, body: Rect, buf: &mut Buffer, t: &Theme) {
    let list_w = super::list::width_for(s, body.width);
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
    // A column of room before the right border, so a row's count never touches it.
    let inner = block
        .clone()
        .padding(ratatui::widgets::Padding::right(1))
        .inner(list);
    ratatui::widgets::Widget::render(block, list, buf);
    super::list::draw(s, inner, buf, t);
    let mut block = draw::bordered(t, s.pane == Pane::Detail);
    if detail.width >= 42 {
        // A column of room inside the border, so the text never runs into it.
        block = block.padding(ratatui::widgets::Padding::horizontal(1));
    }
    let inner = block.inner(detail);
    if let Some(a) = s.analysis(s.sel) {
        let lines = detail_lines(s, &a, t, usize::from(inner.width));
        let shown = usize::from(inner.height);
        let max = lines.len().saturating_sub(shown);
        let at = usize::from(s.scroll).min(max);
        s.detail_max.set(u16::try_from(max).unwrap_or(u16::MAX));
        // What the pane cuts, on its border: the lines above and below, and the keys.
        // j and k scroll the detail only while it has the focus; PgUp and PgDn always.
        let (up, down) = if s.pane == Pane::Detail {
            ("k/PgUp", "j/PgDn")
        } else {
            ("PgUp", "PgDn")
        };
        if at > 0 {
            let above = format!(" {} ", above_mark(t.sym.ellipsis, at, up));
            block = block.title(Line::styled(above, t.dim).right_aligned());
        }
        if at < max {
            let below = format!(" {} ", below_mark(t.sym.arrow, max - at, down));
            block = block.title_bottom(Line::styled(below, t.dim).right_aligned());
        }
        ratatui::widgets::Widget::render(block, detail, buf);
        draw_lines(inner, buf, &lines, at);
    } else {
        ratatui::widgets::Widget::render(block, detail, buf);
        let said = if s.file.set.skipped.is_empty() {
            "No function tools in this file: nothing to check."
        } else {
            "No function tools in this file: its entries are a provider's own tools (listed \
             as skipped), with no schema to check their arguments against."
        };
        let lines: Vec<Line> = wrap(said, usize::from(inner.width))
            .into_iter()
            .map(|l| Line::styled(l, t.dim))
            .collect();
        draw_lines(inner, buf, &lines, 0);
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
    // A name another declaration of the file repeats.
    for d in &s.file.set.duplicates {
        let other = match (d.first == s.sel, d.again == s.sel) {
            (true, _) => d.again,
            (_, true) => d.first,
            _ => continue,
        };
        let place = s.file.set.tools[other].place();
        let said = format!(
            "The name is also declared at {place}: a provider refuses an array that repeats \
             a name."
        );
        for l in wrap(&said, w) {
            out.push(Line::styled(l, t.warn));
        }
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
    super::table::lines(a, t, w, &mut out);
    out.push(Line::default());
    out.push(Line::styled("Strict readiness", t.heading));
    match a.strict.openai.reasons.first() {
        Some(not) if not.rule == StrictRule::NotRead => {
            for l in wrap(&not.message, w) {
                out.push(Line::styled(l, t.dim));
            }
        }
        _ => {
            strict_lines(Provider::Openai, &a.strict.openai, t, w, &mut out);
            strict_lines(Provider::Anthropic, &a.strict.anthropic, t, w, &mut out);
        }
    }
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

fn strict_lines(p: Provider, v: &Verdict, t: &Theme, w: usize, out: &mut Vec<Line<'static>>) {
    let label = format!("{:<10} ", p.label());
    if v.ok {
        out.push(Line::from(vec![
            Span::styled(label, t.base),
            Span::styled(format!("{} would accept it", t.sym.ok), t.ok),
        ]));
        return;
    }
    // The reasons hang under the first one's text, past the mark (`FAIL` in ASCII).
    let indent = width(&label) + width(t.sym.bad) + 1;
    // Every reason: the detail scrolls.
    for (i, r) in v.reasons.iter().enumerate() {
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
}

/// The fix list, the fixed declaration under it: when taller than the body, from where it
/// is scrolled to, its first and last rows saying how many lines lie above and below.
/// Returns whether it scrolls.
fn fixes(s: &ToolsScreen, body: Rect, buf: &mut Buffer, t: &Theme) -> bool {
    let Some(a) = s.analysis(s.sel) else {
        return false;
    };
    let w = usize::from(body.width);
    let body = pinned_note(s.note.as_deref(), body, buf, t);
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
        if let Some(cost) = f.cost_text() {
            let kept = if a.left_out(f) {
                " Left out of the fixed copy: the declaration asks for strict mode."
            } else {
                ""
            };
            let pad = Span::raw("  ");
            lines.extend(wrap_prefixed(
                vec![pad],
                &format!("{cost}.{kept}"),
                w,
                t.warn,
            ));
        }
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
    let heading = if fixes.iter().any(|f| a.left_out(f)) {
        "The declaration with every fix applied but those that cost the strict mode it asks \
         for, + marking each line they add or change (w writes it as NAME.fixed.json):"
    } else {
        "The declaration with every fix applied, + marking each line the fixes add or change \
         (w writes it as NAME.fixed.json):"
    };
    for l in wrap(heading, w) {
        lines.push(Line::styled(l, t.heading));
    }
    if let (Some(tool), Some(fixed)) = (s.tool(), s.fixed_declaration()) {
        lines.extend(super::fixed_view::lines(&tool.declaration, &fixed, w, t));
    }
    let max = lines.len().saturating_sub(usize::from(body.height));
    s.fix_view
        .set((u16::try_from(max).unwrap_or(u16::MAX), body.height));
    let at = usize::from(s.fix_scroll).min(max);
    draw_lines(body, buf, &lines, at);
    draw::mark_cut(body, buf, t, (at, lines.len()), ("k/PgUp", "j/PgDn"));
    max > 0
}

/// What `w` said, on the rows at the top of `body` (at most half of it), above a blank
/// row, where it shows however far the list under it is scrolled; the rows left under it.
fn pinned_note(note: Option<&str>, body: Rect, buf: &mut Buffer, t: &Theme) -> Rect {
    let Some(note) = note else {
        return body;
    };
    let lines: Vec<Line<'static>> = wrap(note, usize::from(body.width))
        .into_iter()
        .map(|l| Line::styled(l, t.warn))
        .collect();
    let room = usize::from(body.height / 2).max(1);
    let shown = lines.len().min(room);
    draw_lines(body, buf, &lines[..shown], 0);
    let taken = u16::try_from(shown + 1)
        .unwrap_or(body.height)
        .min(body.height);
    Rect {
        y: body.y + taken,
        height: body.height - taken,
        ..body
    }
}
