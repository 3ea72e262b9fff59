//! The key bar at the bottom: the focused element's own keys first, then the commands of
//! the context underneath, with `? help` (or an entered block's way out) at the right. A
//! block whose keys do not fit on one line gets a second; what still does not fit ends in
//! `…` (the help lists every key).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::text::{truncate, width as width_of};
use crate::tui::app::{App, Focus};
use crate::tui::blocks::KeyHint;
use crate::tui::keys::{self, Context};
use crate::tui::theme::Theme;

/// The key bar: the focused element's commands, then `? help` at the right.
pub(crate) fn render_bar(app: &App, area: Rect, buf: &mut Buffer) {
    let t = app.theme();
    buf.set_style(area, t.bar);
    let ctx = app.context();
    let hints = if matches!(ctx, Context::BlockFocused | Context::BlockActive) {
        app.block_hints()
    } else {
        Vec::new()
    };
    let mut items = bar_items(app, ctx, &hints);
    // The way out keeps its place on the right, however many keys the block lists.
    let help_key = match ctx {
        Context::Help => None,
        Context::BlockActive => {
            let esc = hints
                .iter()
                .find(|h| same_key(h.keys, "Esc"))
                .map_or("leave block", |h| h.what);
            items.retain(|(k, _)| !same_key(k, "Esc"));
            Some(("Esc".to_owned(), esc.to_owned()))
        }
        _ => Some(("?".to_owned(), "help".to_owned())),
    };
    let right: Vec<Span> = help_key
        .iter()
        .flat_map(|(k, w)| {
            [
                Span::styled(format!(" {k} "), t.bar.patch(t.key)),
                Span::styled(format!("{w} "), t.bar),
            ]
        })
        .collect();
    let right_w: usize = right.iter().map(Span::width).sum();
    let avail = usize::from(area.width).saturating_sub(right_w);
    let lines = if let Some(status) = &app.status() {
        let s = truncate(&format!(" {status} "), avail, t.sym.ellipsis);
        vec![Line::from(Span::styled(s, t.bar.patch(t.warn)))]
    } else {
        bar_lines(t, items, avail, usize::from(area.width), area.height)
    };
    for (n, line) in lines.iter().enumerate() {
        let y = area.y + u16::try_from(n).unwrap_or(0);
        buf.set_line(area.x, y, line, area.width);
    }
    if right_w <= usize::from(area.width) {
        let x = area.right() - u16::try_from(right_w).unwrap_or(0);
        buf.set_line(x, area.y, &Line::from(right), area.width);
    }
}

/// Lay the bar's entries over `rows` lines (the first `first_w` wide, the others `width`);
/// entries that do not fit end in `…` (the help lists every key).
fn bar_lines(
    t: &Theme,
    items: Vec<(String, String)>,
    first_w: usize,
    width: usize,
    rows: u16,
) -> Vec<Line<'static>> {
    let more = format!(" {} ", t.sym.ellipsis);
    let mut lines: Vec<Vec<Span<'static>>> = vec![Vec::new()];
    let mut used = 0;
    let total = items.len();
    for (n, (k, w)) in items.into_iter().enumerate() {
        let need = width_of(&k) + width_of(&w) + 3;
        let room = if lines.len() == 1 { first_w } else { width };
        // The last line keeps room for the pointer to help when entries remain after it.
        let last_line = lines.len() == usize::from(rows.max(1));
        let reserve = if last_line && n + 1 < total {
            width_of(&more)
        } else {
            0
        };
        if used + need + reserve > room {
            if last_line {
                if let Some(l) = lines.last_mut() {
                    l.push(Span::styled(more.clone(), t.bar.patch(t.key)));
                }
                break;
            }
            lines.push(Vec::new());
            used = 0;
        }
        let line = lines.last_mut().expect("one line at least");
        line.push(Span::styled(format!(" {k} "), t.bar.patch(t.key)));
        line.push(Span::styled(format!("{w} "), t.bar));
        used += need;
    }
    lines.into_iter().map(Line::from).collect()
}

/// The bar's entries for context `ctx`: the block's own hints first, then the commands
/// that apply, one entry for a pair where room is short.
fn bar_items(app: &App, ctx: Context, hints: &[KeyHint]) -> Vec<(String, String)> {
    let mut items: Vec<(String, String)> = hints
        .iter()
        .map(|h| (h.keys.to_owned(), h.what.to_owned()))
        .collect();
    let no_blocks = app.slots().is_empty();
    let mut cmds = keys::commands(ctx);
    if app.demo() && matches!(ctx, Context::Reader | Context::BlockFocused) {
        cmds.splice(0..0, keys::present_commands());
    }
    for c in cmds {
        let block_cmd = matches!(
            c.action,
            keys::Action::FocusNext | keys::Action::FocusPrev | keys::Action::Activate
        );
        if ctx == Context::Reader && no_blocks && block_cmd {
            continue;
        }
        // Scrolling is worth a place in the bar only on a page that scrolls.
        if c.action == keys::Action::Down && ctx == Context::Reader && !app.page_scrolls() {
            continue;
        }
        // A block that could not be built cannot be entered.
        let broken = matches!(app.focus(), Focus::Block(i) if app.slots().get(i).is_some_and(|s| s.widget.is_err()));
        if ctx == Context::BlockFocused && broken && c.action == keys::Action::Activate {
            continue;
        }
        // The block's own word for a key wins over the generic one.
        if hints.iter().any(|h| same_key(h.keys, c.label)) {
            continue;
        }
        if !c.bar || c.action == keys::Action::ToggleHelp {
            continue;
        }
        match c.action {
            // One entry for the pair: the bar has little room at 80 columns.
            keys::Action::NextPage
                if keys::commands(ctx)
                    .iter()
                    .any(|p| p.bar && p.action == keys::Action::PrevPage) =>
            {
                items.push(("n/p".into(), "next/prev page".into()));
            }
            keys::Action::PrevPage if items.iter().any(|(k, _)| k == "n/p") => {}
            keys::Action::ToggleSidebar => {
                let what = if app.sidebar_visible() {
                    "hide lessons"
                } else {
                    "show lessons"
                };
                items.push((c.label.to_owned(), what.to_owned()));
            }
            _ => items.push((c.label.to_owned(), c.what.to_owned())),
        }
    }
    items
}

/// Do two key labels ("Enter", "Enter/1-9", "j/Down") name a common key?
pub(crate) fn same_key(a: &str, b: &str) -> bool {
    a.split('/').any(|x| b.split('/').any(|y| x == y))
}
