//! Every colour and symbol the app draws with lives here. Right and wrong are never told
//! by colour alone: each verdict also gets a mark and a word (see `Symbols`).

use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::border;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThemeName {
    /// Dark background, soft colours.
    #[default]
    Default,
    /// Light background.
    Light,
    /// High contrast for a projector: every text pair at least 7:1, bold headings.
    Projector,
    /// No colour at all (what `NO_COLOR` selects): emphasis by weight and marks only.
    Mono,
}

/// The marks drawn beside text. `ascii` swaps every one for plain ASCII.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symbols {
    pub ok: &'static str,
    pub bad: &'static str,
    pub pending: &'static str,
    pub done: &'static str,
    pub in_progress: &'static str,
    pub todo: &'static str,
    pub bullet: &'static str,
    pub arrow: &'static str,
    pub pointer: &'static str,
    pub ellipsis: &'static str,
    pub checked: &'static str,
    pub unchecked: &'static str,
    pub radio_on: &'static str,
    pub radio_off: &'static str,
    /// A switch that is on / off (playground rules and safeguards).
    pub switch_on: &'static str,
    pub switch_off: &'static str,
    pub bar_full: &'static str,
    pub bar_empty: &'static str,
    pub border: border::Set<'static>,
}

const UNICODE: Symbols = Symbols {
    ok: "✓",
    bad: "✗",
    pending: "…",
    done: "●",
    in_progress: "◐",
    todo: "○",
    bullet: "•",
    arrow: "→",
    pointer: "▶",
    ellipsis: "…",
    checked: "[✓]",
    unchecked: "[ ]",
    radio_on: "(●)",
    radio_off: "( )",
    switch_on: "[✓]",
    switch_off: "[ ]",
    bar_full: "█",
    bar_empty: "░",
    border: border::ROUNDED,
};

const ASCII: Symbols = Symbols {
    ok: "OK",
    bad: "FAIL",
    pending: "...",
    done: "*",
    in_progress: "~",
    todo: "o",
    bullet: "-",
    arrow: "->",
    pointer: ">",
    ellipsis: "...",
    checked: "[x]",
    unchecked: "[ ]",
    radio_on: "(*)",
    radio_off: "( )",
    switch_on: "[on]",
    switch_off: "[off]",
    bar_full: "#",
    bar_empty: ".",
    border: border::Set {
        top_left: "+",
        top_right: "+",
        bottom_left: "+",
        bottom_right: "+",
        vertical_left: "|",
        vertical_right: "|",
        horizontal_top: "-",
        horizontal_bottom: "-",
    },
};

/// Named styles; widgets pick by meaning, never by colour.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub name: ThemeName,
    pub ascii: bool,
    pub sym: Symbols,
    /// Body text on the app background.
    pub base: Style,
    /// Secondary text: hints, reasons, timestamps.
    pub dim: Style,
    pub heading: Style,
    pub accent: Style,
    /// Borders of unfocused panels.
    pub border: Style,
    /// Border and title of the focused panel.
    pub focus: Style,
    /// The selected row of a list or table.
    pub selected: Style,
    pub ok: Style,
    pub bad: Style,
    pub warn: Style,
    /// Inline code and code blocks.
    pub code: Style,
    /// Key names in the key bar and help overlay.
    pub key: Style,
    pub json_key: Style,
    pub json_string: Style,
    pub json_number: Style,
    pub json_literal: Style,
    /// The one-line status / key bar.
    pub bar: Style,
}

impl Theme {
    pub fn new(name: ThemeName, ascii: bool) -> Theme {
        let sym = if ascii { ASCII } else { UNICODE };
        match name {
            ThemeName::Default => dark(ascii, sym),
            ThemeName::Light => light(ascii, sym),
            ThemeName::Projector => projector(ascii, sym),
            ThemeName::Mono => mono(ascii, sym),
        }
    }

    /// The theme the user asked for; `NO_COLOR` (set and non-empty) forces mono.
    pub(crate) fn from_env(requested: Option<ThemeName>, ascii: bool) -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let name = if no_color {
            ThemeName::Mono
        } else {
            requested.unwrap_or_default()
        };
        Theme::new(name, ascii)
    }
}

/// The default theme: light text on a dark terminal.
fn dark(ascii: bool, sym: Symbols) -> Theme {
    let s = Style::default;
    Theme {
        name: ThemeName::Default,
        ascii,
        sym,
        base: s().fg(Color::Rgb(0xdc, 0xdf, 0xe4)),
        dim: s().fg(Color::Rgb(0x8b, 0x93, 0xa1)),
        heading: s()
            .fg(Color::Rgb(0x7a, 0xc7, 0xff))
            .add_modifier(Modifier::BOLD),
        accent: s().fg(Color::Rgb(0xc6, 0x9c, 0xff)),
        border: s().fg(Color::Rgb(0x4b, 0x52, 0x63)),
        focus: s()
            .fg(Color::Rgb(0xff, 0xc8, 0x57))
            .add_modifier(Modifier::BOLD),
        selected: s()
            .bg(Color::Rgb(0x2c, 0x33, 0x44))
            .add_modifier(Modifier::BOLD),
        ok: s()
            .fg(Color::Rgb(0x8f, 0xd9, 0x8f))
            .add_modifier(Modifier::BOLD),
        bad: s()
            .fg(Color::Rgb(0xff, 0x8a, 0x80))
            .add_modifier(Modifier::BOLD),
        warn: s().fg(Color::Rgb(0xff, 0xc8, 0x57)),
        code: s().fg(Color::Rgb(0xe5, 0xc0, 0x7b)),
        key: s()
            .fg(Color::Rgb(0x7a, 0xc7, 0xff))
            .add_modifier(Modifier::BOLD),
        json_key: s().fg(Color::Rgb(0x7a, 0xc7, 0xff)),
        json_string: s().fg(Color::Rgb(0x98, 0xc3, 0x79)),
        json_number: s().fg(Color::Rgb(0xd1, 0x9a, 0x66)),
        json_literal: s().fg(Color::Rgb(0xc6, 0x9c, 0xff)),
        bar: s()
            .fg(Color::Rgb(0xdc, 0xdf, 0xe4))
            .bg(Color::Rgb(0x22, 0x27, 0x33)),
    }
}

/// Dark text on a light terminal.
fn light(ascii: bool, sym: Symbols) -> Theme {
    let s = Style::default;
    Theme {
        name: ThemeName::Light,
        ascii,
        sym,
        base: s().fg(Color::Rgb(0x1f, 0x23, 0x28)),
        dim: s().fg(Color::Rgb(0x57, 0x60, 0x6a)),
        heading: s()
            .fg(Color::Rgb(0x05, 0x50, 0xae))
            .add_modifier(Modifier::BOLD),
        accent: s().fg(Color::Rgb(0x82, 0x50, 0xdf)),
        border: s().fg(Color::Rgb(0x8c, 0x95, 0x9f)),
        focus: s()
            .fg(Color::Rgb(0x9a, 0x67, 0x00))
            .add_modifier(Modifier::BOLD),
        selected: s()
            .bg(Color::Rgb(0xdd, 0xf4, 0xff))
            .add_modifier(Modifier::BOLD),
        ok: s()
            .fg(Color::Rgb(0x1a, 0x7f, 0x37))
            .add_modifier(Modifier::BOLD),
        bad: s()
            .fg(Color::Rgb(0xcf, 0x22, 0x2e))
            .add_modifier(Modifier::BOLD),
        warn: s().fg(Color::Rgb(0x9a, 0x67, 0x00)),
        code: s().fg(Color::Rgb(0x95, 0x38, 0x00)),
        key: s()
            .fg(Color::Rgb(0x05, 0x50, 0xae))
            .add_modifier(Modifier::BOLD),
        json_key: s().fg(Color::Rgb(0x05, 0x50, 0xae)),
        json_string: s().fg(Color::Rgb(0x0a, 0x30, 0x69)),
        json_number: s().fg(Color::Rgb(0x95, 0x38, 0x00)),
        json_literal: s().fg(Color::Rgb(0x82, 0x50, 0xdf)),
        bar: s()
            .fg(Color::Rgb(0x1f, 0x23, 0x28))
            .bg(Color::Rgb(0xea, 0xee, 0xf2)),
    }
}

/// Projector: pure white/yellow/cyan/green/pink on black. Every foreground
/// below is at least 7:1 against black (tested in `tests::projector_contrast`).
fn projector(ascii: bool, sym: Symbols) -> Theme {
    let s = Style::default;
    let bg = Color::Rgb(0, 0, 0);
    let fg = |r, g, b| s().fg(Color::Rgb(r, g, b)).bg(bg);
    Theme {
        name: ThemeName::Projector,
        ascii,
        sym,
        base: fg(0xff, 0xff, 0xff),
        dim: fg(0xd0, 0xd0, 0xd0),
        heading: fg(0xff, 0xff, 0x66).add_modifier(Modifier::BOLD),
        accent: fg(0x66, 0xff, 0xff),
        border: fg(0xb0, 0xb0, 0xb0),
        focus: fg(0xff, 0xff, 0x66).add_modifier(Modifier::BOLD),
        selected: s()
            .fg(Color::Rgb(0, 0, 0))
            .bg(Color::Rgb(0xff, 0xff, 0x66))
            .add_modifier(Modifier::BOLD),
        ok: fg(0x66, 0xff, 0x66).add_modifier(Modifier::BOLD),
        bad: fg(0xff, 0x99, 0x99).add_modifier(Modifier::BOLD),
        warn: fg(0xff, 0xcc, 0x33).add_modifier(Modifier::BOLD),
        code: fg(0x99, 0xff, 0xff),
        key: fg(0xff, 0xff, 0x66).add_modifier(Modifier::BOLD),
        json_key: fg(0x99, 0xff, 0xff),
        json_string: fg(0x99, 0xff, 0x99),
        json_number: fg(0xff, 0xcc, 0x66),
        json_literal: fg(0xff, 0xaa, 0xff),
        bar: s()
            .fg(Color::Rgb(0, 0, 0))
            .bg(Color::Rgb(0xff, 0xff, 0xff))
            .add_modifier(Modifier::BOLD),
    }
}

/// No colours: emphasis by bold, underline and reverse only.
fn mono(ascii: bool, sym: Symbols) -> Theme {
    let s = Style::default;
    Theme {
        name: ThemeName::Mono,
        ascii,
        sym,
        base: s(),
        dim: s(),
        heading: s().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        accent: s().add_modifier(Modifier::BOLD),
        border: s(),
        focus: s().add_modifier(Modifier::BOLD),
        selected: s().add_modifier(Modifier::REVERSED),
        ok: s().add_modifier(Modifier::BOLD),
        bad: s().add_modifier(Modifier::BOLD),
        warn: s().add_modifier(Modifier::BOLD),
        code: s(),
        key: s().add_modifier(Modifier::BOLD),
        json_key: s(),
        json_string: s(),
        json_number: s(),
        json_literal: s(),
        bar: s().add_modifier(Modifier::REVERSED),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG relative luminance of an sRGB colour.
    fn luminance(r: u8, g: u8, b: u8) -> f64 {
        fn channel(c: u8) -> f64 {
            let c = f64::from(c) / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        }
        0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }

    /// WCAG contrast ratio between two colours (1.0 to 21.0).
    fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
        let (la, lb) = (luminance(a.0, a.1, a.2), luminance(b.0, b.1, b.2));
        let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
        (hi + 0.05) / (lo + 0.05)
    }

    fn rgb(c: Option<Color>) -> Option<(u8, u8, u8)> {
        match c {
            Some(Color::Rgb(r, g, b)) => Some((r, g, b)),
            _ => None,
        }
    }

    #[test]
    fn projector_contrast_is_at_least_7_to_1() {
        let t = Theme::new(ThemeName::Projector, false);
        let black = (0, 0, 0);
        for (name, style) in [
            ("base", t.base),
            ("dim", t.dim),
            ("heading", t.heading),
            ("accent", t.accent),
            ("border", t.border),
            ("focus", t.focus),
            ("selected", t.selected),
            ("ok", t.ok),
            ("bad", t.bad),
            ("warn", t.warn),
            ("code", t.code),
            ("key", t.key),
            ("json_key", t.json_key),
            ("json_string", t.json_string),
            ("json_number", t.json_number),
            ("json_literal", t.json_literal),
            ("bar", t.bar),
        ] {
            let fg = rgb(style.fg).unwrap_or_else(|| panic!("{name} has no rgb fg"));
            let bg = rgb(style.bg).unwrap_or(black);
            let ratio = contrast(fg, bg);
            assert!(ratio >= 7.0, "{name}: {ratio:.2}:1 is below 7:1");
        }
    }

    #[test]
    fn ascii_symbols_are_ascii() {
        let t = Theme::new(ThemeName::Default, true);
        let s = t.sym;
        for text in [
            s.ok,
            s.bad,
            s.pending,
            s.done,
            s.in_progress,
            s.todo,
            s.bullet,
            s.arrow,
            s.pointer,
            s.ellipsis,
            s.checked,
            s.unchecked,
            s.radio_on,
            s.radio_off,
            s.bar_full,
            s.bar_empty,
        ] {
            assert!(text.is_ascii(), "{text:?} is not ASCII");
        }
    }

    /// Text styles (not borders) of the light and default themes stay readable (WCAG AA,
    /// 4.5:1) on the background they are meant for: white, and a typical dark terminal.
    #[test]
    fn light_and_default_text_is_at_least_4_5_to_1() {
        for (name, bg) in [
            (ThemeName::Light, (0xff, 0xff, 0xff)),
            (ThemeName::Default, (0x1c, 0x1c, 0x1c)),
        ] {
            let t = Theme::new(name, false);
            for (what, style) in [
                ("base", t.base),
                ("dim", t.dim),
                ("heading", t.heading),
                ("accent", t.accent),
                ("ok", t.ok),
                ("bad", t.bad),
                ("warn", t.warn),
                ("code", t.code),
                ("key", t.key),
                ("json_key", t.json_key),
                ("json_string", t.json_string),
                ("json_number", t.json_number),
                ("json_literal", t.json_literal),
            ] {
                let fg = rgb(style.fg).unwrap_or_else(|| panic!("{what} has no rgb fg"));
                let ratio = contrast(fg, rgb(style.bg).unwrap_or(bg));
                assert!(ratio >= 4.5, "{name:?} {what}: {ratio:.2}:1");
            }
        }
    }

    #[test]
    fn contrast_of_black_on_white_is_21() {
        assert!((contrast((0, 0, 0), (255, 255, 255)) - 21.0).abs() < 0.01);
    }
}
