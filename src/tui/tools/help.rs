//! The keys of each view of the Your tools screen, for its key bar and its help (`?`):
//! the list, the fix list, and the predict table or the playground hosted in the body
//! (their own keys, with Esc going back to the list). The list's help also says what its
//! marks and numbers mean.

use crate::text::{truncate, width, wrap};
use crate::tui::blocks::BlockWidget;
use crate::tui::draw::keybar::{BarKey, Rank};
use crate::tui::theme::Theme;

use super::{Mode, ToolsScreen};

/// The list's keys; the last four (help, home, and the two that quit) are all a file with
/// no declaration offers.
const BROWSE: [(&str, &str); 12] = [
    ("Up/Down j/k", "choose a declaration (or scroll the detail)"),
    (
        "g/G Home/End",
        "the first / the last declaration (or the detail's top / end)",
    ),
    ("Tab", "list / detail"),
    ("PgUp/PgDn", "scroll the detail"),
    ("Enter", "predict its traps"),
    ("p", "the playground on it"),
    ("f", "its fixes, and a fixed copy"),
    ("t", "a model's calls to it, in the trace player"),
    ("?", "this help"),
    ("Esc", "back to the home screen"),
    ("q", "quit"),
    ("Ctrl-C", "quit now"),
];

/// The fix list's keys.
const FIXES: [(&str, &str); 8] = [
    ("w", "write the fixed declaration as NAME.fixed.json"),
    ("Up/Down j/k", "scroll"),
    ("PgUp/PgDn", "scroll"),
    ("g/G Home/End", "the top / the end"),
    ("Esc or f", "back to the list"),
    ("?", "this help"),
    ("q", "quit"),
    ("Ctrl-C", "quit now"),
];

/// What Esc does on a view hosted in the body.
pub(super) const BACK: &str = "back to the list";

/// The keys of a hosted predict table or playground: its own, with its way back to a
/// lesson page said as what Esc does here.
pub(super) fn hosted(widget: &dyn BlockWidget) -> Vec<(&'static str, &'static str)> {
    widget
        .key_hints(true)
        .iter()
        .map(|h| {
            if h.keys == "Esc" && h.what.contains("page") {
                (h.keys, BACK)
            } else {
                (h.keys, h.what)
            }
        })
        .collect()
}

/// The key bar of a hosted view: its first two keys first, then the rest (and the scroll
/// keys when it is taller than the body); quit, Esc and the help kept on the right (unless
/// it takes text, when Esc is its own). Esc is said in one word there (`Esc list`, as the
/// list's own bar says `Esc home`), so the view's own keys keep the room; the help says it
/// whole.
pub(super) fn hosted_bar(widget: &dyn BlockWidget, scrolls: bool) -> Vec<BarKey> {
    let keys = hosted(widget);
    let mut bar: Vec<BarKey> = keys
        .iter()
        .filter(|(k, w)| !(*k == "Esc" && *w == BACK))
        .enumerate()
        .map(|(i, (k, w))| BarKey::new(k, w, if i < 2 { Rank::Focus } else { Rank::Rest }))
        .collect();
    if scrolls {
        bar.push(BarKey::new("PgUp/PgDn", "scroll", Rank::Scroll).brief("PgDn", "scroll"));
    }
    // Quit before the way back and the help, as on every other screen: `q`, unless the
    // view takes typed text.
    let quit = if widget.captures_text() {
        "Ctrl-C"
    } else {
        "q"
    };
    bar.push(BarKey::new(quit, "quit", Rank::Always));
    if keys.iter().any(|(k, w)| *k == "Esc" && *w == BACK) {
        bar.push(BarKey::new("Esc", "list", Rank::Always));
    }
    if !widget.captures_text() {
        bar.push(BarKey::new("?", "help", Rank::Always));
    }
    bar
}

/// `pairs` as a table of two columns in `w` cells, the second one wrapped.
fn two_columns(pairs: &[(&str, &str)], w: usize) -> Vec<String> {
    let key_w = pairs.iter().map(|(k, _)| width(k)).max().unwrap_or(0);
    let mut out = Vec::new();
    for (k, what) in pairs {
        for (i, l) in wrap(what, w.saturating_sub(key_w + 1))
            .into_iter()
            .enumerate()
        {
            let k = if i == 0 { k } else { "" };
            out.push(format!("{k:<key_w$} {l}"));
        }
    }
    out
}

/// The help of the view on screen, in lines at most `w` cells wide; the closing note says
/// how to scroll it when it is taller than `h` lines.
fn lines(s: &ToolsScreen, t: &Theme, w: usize, h: usize) -> Vec<String> {
    let mut keys: Vec<(&str, &str)> = match &s.mode {
        // With no declaration, only the keys that do something.
        Mode::Browse if s.file.set.tools.is_empty() => BROWSE[8..].to_vec(),
        Mode::Browse => BROWSE.to_vec(),
        Mode::Fixes => FIXES.to_vec(),
        Mode::Predict(_) | Mode::Play(_) => s.mode.hosted().map(hosted).unwrap_or_default(),
    };
    if matches!(s.mode, Mode::Play(_)) && s.view_rows.get().0 > 0 {
        keys.push((
            "PgUp/PgDn",
            "scroll the playground (and Up/Down where no pane takes them)",
        ));
    }
    if matches!(s.mode, Mode::Predict(_)) && s.view_rows.get().0 > 0 {
        keys.push(("PgUp/PgDn", "scroll the table and its detail"));
    }
    let typing = s.mode.hosted().is_some_and(|w| w.captures_text());
    if s.mode.hosted().is_some() {
        keys.push(("?", "this help"));
        if !typing {
            keys.push(("q", "quit"));
        }
        keys.push(("Ctrl-C", "quit now"));
    }
    let mut out = two_columns(&keys, w);
    if matches!(s.mode, Mode::Browse) && !s.file.set.tools.is_empty() {
        out.push(String::new());
        out.push("In the list, beside each name:".to_owned());
        let legend = super::list::legend(t);
        let pairs: Vec<(&str, &str)> = legend.iter().map(|(k, v)| (*k, v.as_str())).collect();
        out.extend(two_columns(&pairs, w));
    }
    // The entries the list names as skipped, each whole.
    let skipped = &s.file.set.skipped;
    if matches!(s.mode, Mode::Browse) && !skipped.is_empty() {
        out.push(String::new());
        out.extend(wrap(
            "Skipped, after the list: entries that are not function tools (a provider's own \
             tools), with no schema to check their arguments against:",
            w,
        ));
        for sk in skipped {
            let name = sk
                .name
                .as_deref()
                .map_or(String::new(), |n| format!(" {n}"));
            let text = format!("{}{name}: {}", sk.at, sk.kind);
            out.extend(wrap(&crate::sanitize::clean(&text, false), w));
        }
    }
    const VERDICT: &str = "Every verdict is the real validator's, on your own declaration.";
    let note = wrap(&format!("{VERDICT} Any key closes this."), w);
    let note = if out.len() + 1 + note.len() <= h {
        note
    } else {
        wrap(
            &format!("{VERDICT} j/k and PgUp/PgDn scroll this; any other key closes it."),
            w,
        )
    };
    out.push(String::new());
    out.extend(note);
    out
}

/// The lines of the help that show in `h` lines from where it is scrolled to, the last
/// one saying how many more there are below; keeps how far it scrolls for the keys.
pub(super) fn shown(s: &ToolsScreen, t: &Theme, w: usize, h: usize) -> Vec<String> {
    let all = lines(s, t, w, h);
    let max = all.len().saturating_sub(h);
    s.help_view.set((max, h));
    let skip = s.help_scroll.min(max);
    let below = all.len().saturating_sub(skip + h);
    if below == 0 || h < 2 {
        return all.into_iter().skip(skip).take(h).collect();
    }
    let mut out: Vec<String> = all.into_iter().skip(skip).take(h - 1).collect();
    let more = format!("{} {} more lines: j or PgDn", t.sym.ellipsis, below + 1);
    out.push(truncate(&more, w, t.sym.ellipsis));
    out
}
