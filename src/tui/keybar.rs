//! The app's key bar over the home screen and the lesson pages: the focused element's keys
//! and the commands of its context, drawn as every key bar is (`draw::keybar`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::tui::app::{App, Focus};
use crate::tui::blocks::KeyHint;
use crate::tui::draw::keybar::{BarKey, Rank, render_keys, same_key};
use crate::tui::keys::{self, Action, Command, Context};

/// `A` on the home screen of an app given a log to audit.
const AUDIT_KEY: BarKey = BarKey::new("A", "audit the log", Rank::Focus).brief("A", "audit");
/// Esc on a finding's lesson opened from the audit.
const BACK_TO_AUDIT: BarKey =
    BarKey::new("Esc", "back to the audit", Rank::Focus).brief("Esc", "audit");

/// The app's key bar: the focused element's keys and the commands of its context.
pub(crate) fn render_bar(app: &App, area: Rect, buf: &mut Buffer) {
    render_keys(&app_keys(app), app.status(), app.theme(), area, buf);
}

/// The entries of the app's bar in the context on top.
pub(crate) fn app_keys(app: &App) -> Vec<BarKey> {
    let ctx = app.context();
    let hints = if matches!(ctx, Context::BlockFocused | Context::BlockActive) {
        app.block_hints()
    } else {
        Vec::new()
    };
    let mut out: Vec<BarKey> = Vec::new();
    if ctx == Context::BlockActive {
        // Inside a block `q` and `?` may type; Ctrl-C quits and the block's way out leads
        // back to where `?` works.
        out.push(BarKey::new(keys::FORCE_QUIT.label, "quit", Rank::Always));
        let esc = hints
            .iter()
            .find(|h| same_key(h.keys, "Esc"))
            .map_or(keys::LEAVE_BLOCK.what, |h| h.what);
        out.push(BarKey::new("Esc", esc, Rank::Always));
    }
    // Presenter mode: Space is the presenter's, named below by what it does now.
    let presenter_space = app.demo() && ctx == Context::BlockFocused;
    let space_in_block = app.present_space();
    let hints: Vec<&KeyHint> = hints
        .iter()
        .filter(|h| !(ctx == Context::BlockActive && same_key(h.keys, "Esc")))
        .filter(|h| !(presenter_space && h.keys == "Space"))
        .collect();
    out.extend(
        hints
            .iter()
            .map(|h| BarKey::new(h.keys, h.what, Rank::Focus)),
    );
    let mut cmds = keys::commands(ctx);
    if app.demo() && matches!(ctx, Context::Reader | Context::BlockFocused) {
        cmds.splice(0..0, keys::present_commands());
    }
    for c in &cmds {
        if hints.iter().any(|h| same_key(h.keys, c.label)) || !shown(app, ctx, c) {
            continue;
        }
        match c.action {
            Action::Quit | Action::ToggleHelp => out.push(BarKey::of(c, Rank::Always)),
            // Space inside the last block shown: that block's word for it (a trace's play
            // or pause), not the page's next step.
            Action::Step if space_in_block.is_some() => {
                let what = space_in_block.unwrap_or(c.what);
                let rank = if ctx == Context::BlockFocused {
                    Rank::Rest
                } else {
                    Rank::Focus
                };
                out.push(BarKey::new(c.label, what, rank));
            }
            Action::Back if matches!(ctx, Context::Help | Context::Notice) => {
                out.push(BarKey::of(c, Rank::Always));
            }
            // One entry for the pair: the bar has little room at 80 columns.
            Action::NextPage if cmds.iter().any(|p| p.bar && p.action == Action::PrevPage) => {
                let rank = if ctx == Context::BlockFocused {
                    Rank::Rest
                } else {
                    Rank::Focus
                };
                out.push(BarKey::new("n/p", "next/prev page", rank).brief("n/p", "pages"));
            }
            Action::PrevPage if out.iter().any(|k| k.keys == "n/p") => {}
            // An entered block's way out is already pinned on the right.
            Action::Back if ctx == Context::BlockActive => {}
            Action::ToggleSidebar => {
                let what = if app.sidebar_visible() {
                    "hide lessons"
                } else {
                    "show lessons"
                };
                out.push(BarKey::new(c.label, what, Rank::Rest).brief(c.short.0, c.short.1));
            }
            Action::Down | Action::Up if ctx == Context::Reader => {
                out.push(BarKey::of(c, Rank::Scroll));
            }
            // With a block focused the arrows belong to the block; the page keys scroll.
            // At the end of the page only the way back up does anything.
            Action::PageDown if app.page_at_end() => {
                out.push(BarKey::new("PgUp", "scroll up", Rank::Scroll).brief("PgUp", "up"));
            }
            Action::PageDown => {
                out.push(BarKey::new("PgUp/PgDn", "scroll", Rank::Scroll).brief("PgDn", "scroll"));
            }
            // With a block focused, the page's own commands come after the block's.
            _ if matches!(ctx, Context::BlockFocused | Context::BlockActive)
                && c.action != Action::Activate =>
            {
                out.push(BarKey::of(c, Rank::Rest));
            }
            _ => out.push(BarKey::of(c, Rank::Focus)),
        }
    }
    // The log given with `--audit`, after the home screen's way into the course.
    if ctx == Context::Home && app.has_audit_log() {
        let at = out
            .iter()
            .position(|k| k.keys == "Enter")
            .map_or(0, |i| i + 1);
        out.insert(at, AUDIT_KEY);
    }
    // A finding's lesson looked up from the audit: first, the way back there.
    if ctx == Context::Reader && app.peeking() {
        out.insert(0, BACK_TO_AUDIT);
    }
    // Quit first, then the help, on the right.
    out.sort_by_key(|k| (k.rank != Rank::Always, k.what != "quit"));
    out
}

/// Does command `c` earn a place in the bar of context `ctx` right now?
fn shown(app: &App, ctx: Context, c: &Command) -> bool {
    let page_key = c.action == Action::PageDown && ctx == Context::BlockFocused;
    // At the end of a page that scrolls, the way back up takes the place of the way down.
    let reader_scroll = ctx == Context::Reader && app.page_scrolls();
    if matches!(c.action, Action::Down | Action::Up) && ctx == Context::Reader {
        return reader_scroll && app.page_at_end() == (c.action == Action::Up);
    }
    if !c.bar && !page_key {
        return false;
    }
    if page_key && !app.page_scrolls() {
        return false;
    }
    let block_cmd = matches!(
        c.action,
        Action::FocusNext | Action::FocusPrev | Action::Activate
    );
    if ctx == Context::Reader && block_cmd && app.blocks_shown() == 0 {
        return false;
    }
    // Resetting a block needs one focused (presenter mode says so otherwise).
    if c.action == Action::ResetBlock && ctx != Context::BlockFocused {
        return false;
    }
    // A block that could not be built cannot be entered.
    let broken = matches!(app.focus(), Focus::Block(i) if app.slots().get(i).is_some_and(|s| s.widget.is_err()));
    !(ctx == Context::BlockFocused && broken && c.action == Action::Activate)
}
