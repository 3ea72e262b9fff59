//! The help overlay (`?`): every key that works on the screen underneath, each once, by
//! section, drawn beside the page or over the whole screen.

use crossterm::event::KeyCode;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::text::width as width_of;
use crate::tui::app::{App, Focus, Screen};
use crate::tui::draw::{centered, popup};
use crate::tui::keys::{self, Action, Context};
use crate::tui::theme::Theme;

/// The letters that are arrows too, in a block as on the page (`keys::is_left` and the rest).
const ARROW_LETTERS: [(&str, &str); 4] =
    [("Left", "h"), ("Down", "j"), ("Up", "k"), ("Right", "l")];

/// What `A` does, where the app was given a log with `--audit`.
const AUDIT_WORDS: &str = "the audit of the log";
/// What `A` does on the home screen without one.
const AUDIT_EXAMPLE_WORDS: &str = "the audit of an example log";

/// One row of the help: the keys, what they do, the section it is listed under.
type HelpRow = (String, String, Option<&'static str>);

/// The lines of the help overlay: every key that works on the screen underneath, each once.
pub fn help_lines(app: &App) -> Vec<HelpRow> {
    if matches!(app.screen(), Screen::Home { .. }) {
        return home_help(app);
    }
    // The context below the overlay.
    let mut probe = app.focus();
    if probe == Focus::Sidebar && !app.sidebar_visible() {
        probe = Focus::Page;
    }
    let under = match probe {
        Focus::Sidebar => Context::Sidebar,
        Focus::Page => Context::Reader,
        Focus::Block(_) if app.active() => Context::BlockActive,
        Focus::Block(_) => Context::BlockFocused,
    };
    // An entered block that takes text takes every plain key.
    let typing = under == Context::BlockActive
        && match app.focus() {
            Focus::Block(i) => (app.slots().get(i))
                .and_then(|s| s.widget.as_ref().ok())
                .is_some_and(|w| w.captures_text()),
            _ => false,
        };
    let mut out = Vec::new();
    let hints = app.block_hints();
    for h in &hints {
        out.push((h.keys.to_owned(), h.what.to_owned(), Some("This block")));
    }
    // Keys the block names are the block's; the page has the rest.
    let hinted: Vec<String> = hints.iter().flat_map(|h| hint_keys(h.keys)).collect();
    let mut taken = Vec::new();
    let mut below_hints = out.split_off(hints.len());
    if app.demo() && matches!(under, Context::Reader | Context::BlockFocused) {
        // Looked up before the block and the page.
        for c in keys::present_commands() {
            command_rows(&c, "Presenter", &mut taken, &[], &mut below_hints);
        }
    }
    // A block takes h j k l as the arrows it names (unless the presenter has them).
    let letters: Vec<&str> = (ARROW_LETTERS.iter())
        .filter(|(arrow, letter)| {
            hints.iter().any(|h| h.keys.split('/').any(|p| p == *arrow))
                && !taken.iter().any(|k| key_name(k) == *letter)
        })
        .map(|(_, letter)| *letter)
        .collect();
    if !letters.is_empty() {
        out.push((
            letters.join("/"),
            "as the arrows".into(),
            Some("This block"),
        ));
    }
    out.append(&mut below_hints);
    let section = match under {
        Context::Sidebar => "Lesson list",
        Context::BlockFocused | Context::BlockActive => "Block",
        _ => "Reading",
    };
    let mut cmds: Vec<_> = keys::commands(under)
        .into_iter()
        .map(|c| (c, section))
        .collect();
    let page = |ctx| keys::commands(ctx).into_iter().map(|c| (c, "Reading"));
    match under {
        // A key the focused block leaves alone goes on to the page (scrolling, say).
        Context::BlockFocused => cmds.extend(page(Context::Reader)),
        // So does one an entered block leaves alone, unless it takes text (then every key
        // types); Enter and Esc stay the block's.
        // Typing, Ctrl-Z undoes in the block's editor rather than suspending the app.
        Context::BlockActive if typing => cmds.retain(|(c, _)| c.action != Action::Suspend),
        Context::BlockActive => cmds.extend(
            page(Context::BlockFocused)
                .chain(page(Context::Reader))
                .filter(|(c, _)| !matches!(c.action, Action::Activate | Action::Back)),
        ),
        _ => {}
    }
    for (c, section) in &cmds {
        command_rows(c, section, &mut taken, &hinted, &mut out);
    }
    if app.has_audit_log() && !typing {
        let section = if under == Context::Sidebar {
            "Lesson list"
        } else {
            "Reading"
        };
        out.push(("A".into(), AUDIT_WORDS.into(), Some(section)));
    }
    // A finding's lesson looked up from the audit: Esc goes back there, not home.
    if app.peeking() {
        for row in out
            .iter_mut()
            .filter(|r| r.0 == "Esc" && r.1 == "home screen")
        {
            row.1 = "back to the audit".into();
        }
    }
    out
}

/// The help's name for a key (`Space`, `PgDn`, `S-Tab`, `Ctrl-F`, `G`).
fn key_name(k: &keys::KeySpec) -> String {
    let name = match k.code {
        KeyCode::Char(' ') => "Space".to_owned(),
        KeyCode::Char(c) if k.ctrl => c.to_ascii_uppercase().to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::PageUp => "PgUp".to_owned(),
        KeyCode::PageDown => "PgDn".to_owned(),
        KeyCode::BackTab => "S-Tab".to_owned(),
        KeyCode::Backspace => "Backspace".to_owned(),
        KeyCode::Enter => "Enter".to_owned(),
        other => other.to_string(),
    };
    if k.ctrl { format!("Ctrl-{name}") } else { name }
}

/// The keys a block's hint names, by the help's names: `1-3/Left/Right` is 1, 2, 3, Left
/// and Right, and an arrow brings its letter (blocks take `j` `k` `h` `l` as arrows).
fn hint_keys(label: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in label.split('/') {
        let range: Vec<char> = part.chars().collect();
        if let [a @ '1'..='9', '-', b @ '1'..='9'] = range[..] {
            out.extend((a..=b).map(String::from));
            continue;
        }
        let letter = ARROW_LETTERS.iter().find(|(arrow, _)| *arrow == part);
        out.extend(letter.map(|(_, l)| (*l).to_owned()));
        out.push(part.to_owned());
    }
    out
}

/// The help's rows for command `c`: its keys that no earlier row took and the block does
/// not name, under its own label as far as that names them (`PgDn`), the others on rows of
/// their own with the same words (`Space`, `Ctrl-F`). None when no key of it is left.
fn command_rows(
    c: &keys::Command,
    section: &'static str,
    taken: &mut Vec<keys::KeySpec>,
    hinted: &[String],
    out: &mut Vec<HelpRow>,
) {
    let free: Vec<keys::KeySpec> = (c.keys.iter().copied())
        .filter(|k| !taken.contains(k) && !hinted.contains(&key_name(k)))
        .collect();
    let names: Vec<String> = free.iter().map(key_name).collect();
    let labelled: Vec<&str> = (c.label.split('/'))
        .filter(|p| names.iter().any(|n| n == p))
        .collect();
    let mut more: Vec<&String> = (names.iter())
        .filter(|n| !c.label.split('/').any(|p| p == n.as_str()))
        .collect();
    // The plain keys on one row, each held with Ctrl on a row of its own (narrow rows keep
    // the help in two columns at 80 columns).
    let (ctrl, plain): (Vec<&String>, Vec<&String>) =
        more.drain(..).partition(|n| n.starts_with("Ctrl-"));
    let plain: Vec<&str> = plain.iter().map(|n| n.as_str()).collect();
    let rows = [labelled, plain]
        .into_iter()
        .map(|keys| keys.join("/"))
        .chain(ctrl.into_iter().cloned());
    for keys in rows.filter(|k| !k.is_empty()) {
        out.push((keys, c.what.to_owned(), Some(section)));
    }
    taken.extend(free);
}

/// The help over the home screen: its keys, and `A` (the log given, else the example).
fn home_help(app: &App) -> Vec<HelpRow> {
    let mut out = Vec::new();
    let mut taken = Vec::new();
    for c in keys::commands(Context::Home) {
        command_rows(&c, "Home", &mut taken, &[], &mut out);
    }
    let words = match app.has_audit_log() {
        true => AUDIT_WORDS,
        false => AUDIT_EXAMPLE_WORDS,
    };
    out.push(("A".into(), words.into(), Some("Home")));
    out
}

/// A line of the help: a blank, a section's heading, or a key and what it does.
#[derive(PartialEq)]
enum HelpLine<'a> {
    Blank,
    Heading(&'static str),
    Key(&'a str, &'a str),
}

/// The help's rows as lines, a heading before each section.
fn help_layout(rows: &[HelpRow]) -> Vec<HelpLine<'_>> {
    let mut out = Vec::new();
    let mut last_section = None;
    for (k, w, section) in rows {
        if *section != last_section {
            if !out.is_empty() {
                out.push(HelpLine::Blank);
            }
            if let Some(s) = section {
                out.push(HelpLine::Heading(s));
            }
            last_section = *section;
        }
        out.push(HelpLine::Key(k, w));
    }
    out
}

/// Lines of the help drawn, the keys of each section as wide as the widest among them.
fn help_text(lines: &[HelpLine], t: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for section in lines.split_inclusive(|l| matches!(l, HelpLine::Blank)) {
        let key_w = (section.iter())
            .filter_map(|l| match l {
                HelpLine::Key(k, _) => Some(width_of(k)),
                _ => None,
            })
            .max()
            .unwrap_or(4);
        out.extend(section.iter().map(|l| match l {
            HelpLine::Blank => Line::default(),
            HelpLine::Heading(s) => Line::styled(*s, t.heading),
            HelpLine::Key(k, w) => Line::from(vec![
                Span::styled(format!("  {k:<key_w$}  "), t.key),
                Span::styled((*w).to_owned(), t.base),
            ]),
        }));
    }
    out
}

pub(super) fn render_help(app: &App, pane: Rect, screen: Rect, buf: &mut Buffer) {
    let t = &app.theme();
    let rows = help_lines(app);
    let layout = help_layout(&rows);
    let width = |text: &[Line]| text.iter().map(Line::width).max().unwrap_or(20);
    let text = help_text(&layout, t);
    // Too tall for the window: two columns, if they fit side by side (each with keys as
    // wide as its own).
    let (left, right) = layout.split_at(layout.len().div_ceil(2));
    let right = right.strip_prefix(&[HelpLine::Blank][..]).unwrap_or(right);
    let (left, right) = (help_text(left, t), help_text(right, t));
    let (left_w, right_w) = (width(&left), width(&right));
    // Its shape in `area`: two columns or one, its rows and its width.
    let shape = |area: Rect| {
        let room_h = usize::from(area.height.saturating_sub(4));
        let two = text.len() > room_h && usize::from(area.width) >= left_w + right_w + 7;
        if two {
            (two, left.len().max(right.len()), left_w + right_w + 7)
        } else {
            (two, text.len(), width(&text) + 4)
        }
    };
    let fits = |area: Rect| {
        let (_, lines, want_w) = shape(area);
        want_w + 2 <= usize::from(area.width) && lines + 2 <= usize::from(area.height)
    };
    let area = if fits(pane) { pane } else { screen };
    let (two, lines, want_w) = shape(area);
    let w = u16::try_from(want_w)
        .unwrap_or(u16::MAX)
        .min(area.width.saturating_sub(2));
    let h = u16::try_from(lines + 2)
        .unwrap_or(u16::MAX)
        .min(area.height.saturating_sub(2));
    let r = centered(area, w, h);
    let inner = popup(
        r,
        buf,
        t,
        Line::styled(" Keys ", t.focus),
        Some("Esc or ? closes"),
    );
    let inner = Rect {
        x: inner.x + 1,
        width: inner.width.saturating_sub(1),
        ..inner
    };
    if two {
        let [a, b] = inner.layout(&Layout::horizontal([
            Constraint::Length(u16::try_from(left_w + 2).unwrap_or(u16::MAX)),
            Constraint::Fill(1),
        ]));
        Paragraph::new(left).render(a, buf);
        Paragraph::new(right).render(b, buf);
    } else {
        Paragraph::new(text).render(inner, buf);
    }
}
