//! Keys and the commands they trigger. Each screen context has one list of `Command`s:
//! the key handler looks keys up in it, and the key bar and help overlay are drawn from it,
//! so what the bar shows is exactly what the keys do (the gitui way).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key asks the app to do. `App::update` is the one place these take effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    ToggleHelp,
    /// Close the top overlay, leave a block, or go back to the page.
    Back,
    FocusNext,
    FocusPrev,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Top,
    Bottom,
    NextPage,
    PrevPage,
    /// Enter: open the lesson under the cursor, enter the focused block.
    Activate,
    ToggleSidebar,
    /// Ctrl-Z: hand the terminal back to the shell until `fg`.
    Suspend,
    /// Start a timed rehearsal drill.
    Rehearse,
    /// Open the practice screen: the learner's own solution, graded on every save.
    Practice,
    /// Open the Your tools screen on the loaded tools file (or the shipped example).
    Tools,
    /// Presenter mode: show the next paragraph or table row.
    Step,
    /// Presenter mode: hide the last paragraph shown.
    StepBack,
    /// Presenter mode: put the focused block back as it was before the class.
    ResetBlock,
    /// Presenter mode: put every block of the page back, and start the page's steps again.
    ResetPage,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeySpec {
    pub code: KeyCode,
    pub ctrl: bool,
}

const fn k(c: char) -> KeySpec {
    KeySpec {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}
const fn ctrl(c: char) -> KeySpec {
    KeySpec {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}
const fn code(c: KeyCode) -> KeySpec {
    KeySpec {
        code: c,
        ctrl: false,
    }
}

impl KeySpec {
    pub fn matches(&self, key: &KeyEvent) -> bool {
        let has_ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if has_ctrl != self.ctrl || key.modifiers.contains(KeyModifiers::ALT) {
            return false;
        }
        match (self.code, key.code) {
            // Shifted characters arrive with or without SHIFT depending on the terminal.
            (KeyCode::Char(a), KeyCode::Char(b)) => {
                a == b || (self.ctrl && a == b.to_ascii_lowercase())
            }
            (a, b) => a == b,
        }
    }
}

/// One command: the keys that trigger it, how the bar names them, what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Command {
    pub keys: &'static [KeySpec],
    /// Key names as shown ("↑↓ j k" is shown as "j/k" in ASCII-only bars too).
    pub label: &'static str,
    pub what: &'static str,
    pub action: Action,
    /// Shown in the one-line key bar (everything is shown in the help overlay).
    pub bar: bool,
    /// Keys and words a narrow key bar uses instead (the same as `label`, `what` unless set).
    pub short: (&'static str, &'static str),
}

const fn cmd(
    keys: &'static [KeySpec],
    label: &'static str,
    what: &'static str,
    action: Action,
    bar: bool,
) -> Command {
    Command {
        keys,
        label,
        what,
        action,
        bar,
        short: (label, what),
    }
}

impl Command {
    /// The same command with a shorter form for a narrow key bar.
    const fn brief(self, label: &'static str, what: &'static str) -> Command {
        Command {
            short: (label, what),
            ..self
        }
    }
}

pub(crate) const QUIT: Command = cmd(&[k('q')], "q", "quit", Action::Quit, true);
pub(crate) const FORCE_QUIT: Command = cmd(&[ctrl('c')], "Ctrl-C", "quit now", Action::Quit, false);
pub(crate) const HELP: Command = cmd(&[k('?')], "?", "help", Action::ToggleHelp, true);
pub(crate) const SUSPEND: Command = cmd(
    &[ctrl('z')],
    "Ctrl-Z",
    "suspend (fg to return)",
    Action::Suspend,
    false,
);
const TAB: Command = cmd(
    &[code(KeyCode::Tab)],
    "Tab",
    "next block",
    Action::FocusNext,
    true,
)
.brief("Tab", "blocks");
const BACKTAB: Command = cmd(
    &[code(KeyCode::BackTab)],
    "S-Tab",
    "previous block",
    Action::FocusPrev,
    false,
);
const SCROLL_UP: Command = cmd(
    &[code(KeyCode::Up), k('k')],
    "k/Up",
    "scroll up",
    Action::Up,
    false,
)
.brief("j/k", "scroll");
const SCROLL_DOWN: Command = cmd(
    &[code(KeyCode::Down), k('j')],
    "j/Down",
    "scroll down",
    Action::Down,
    true,
)
.brief("j/k", "scroll");
const PGUP: Command = cmd(
    &[code(KeyCode::PageUp), ctrl('b')],
    "PgUp",
    "scroll a screen up",
    Action::PageUp,
    false,
);
const PGDN: Command = cmd(
    &[code(KeyCode::PageDown), ctrl('f'), k(' ')],
    "PgDn",
    "scroll a screen down",
    Action::PageDown,
    false,
);
const TOP: Command = cmd(
    &[code(KeyCode::Home), k('g')],
    "g/Home",
    "top of page",
    Action::Top,
    false,
);
const BOTTOM: Command = cmd(
    &[code(KeyCode::End), k('G')],
    "G/End",
    "end of page",
    Action::Bottom,
    false,
);
const NEXT: Command = cmd(&[k('n')], "n", "next page", Action::NextPage, true);
const PREV: Command = cmd(&[k('p')], "p", "previous page", Action::PrevPage, true);
const LESSONS: Command = cmd(
    &[code(KeyCode::Left), k('h')],
    "h/Left",
    "lesson list",
    Action::Left,
    false,
);
const SIDEBAR: Command = cmd(
    &[k('s')],
    "s",
    "show/hide lessons",
    Action::ToggleSidebar,
    true,
)
.brief("s", "lessons");
const ENTER_BLOCK: Command = cmd(
    &[code(KeyCode::Enter)],
    "Enter",
    "use block",
    Action::Activate,
    true,
)
.brief("Enter", "use");
const BACK_TO_PAGE: Command = cmd(
    &[code(KeyCode::Esc)],
    "Esc",
    "back to page",
    Action::Back,
    false,
);
const SIDE_UP: Command = cmd(
    &[code(KeyCode::Up), k('k')],
    "k/Up",
    "previous lesson",
    Action::Up,
    true,
)
.brief("k/Up", "prev");
const SIDE_DOWN: Command = cmd(
    &[code(KeyCode::Down), k('j')],
    "j/Down",
    "next lesson",
    Action::Down,
    true,
)
.brief("j/Down", "next");
const SIDE_OPEN: Command = cmd(
    &[code(KeyCode::Enter), code(KeyCode::Right), k('l')],
    "Enter",
    "open lesson",
    Action::Activate,
    true,
)
.brief("Enter", "open");
const SIDE_BACK: Command = cmd(
    &[
        code(KeyCode::Esc),
        code(KeyCode::Tab),
        code(KeyCode::BackTab),
    ],
    "Esc/Tab",
    "back to page",
    Action::Back,
    false,
);
const HELP_CLOSE: Command = cmd(
    &[code(KeyCode::Esc), k('?')],
    "Esc/?",
    "close help",
    Action::Back,
    true,
)
.brief("Esc/?", "close");
const NOTICE_CLOSE: Command = cmd(
    &[code(KeyCode::Esc), code(KeyCode::Enter)],
    "Enter/Esc",
    "close",
    Action::Back,
    true,
);
pub(crate) const LEAVE_BLOCK: Command = cmd(
    &[code(KeyCode::Esc)],
    "Esc",
    "leave block",
    Action::Back,
    true,
);

const REHEARSE: Command = cmd(
    &[k('R')],
    "R",
    "timed rehearsal drill",
    Action::Rehearse,
    false,
);
const HOME_DOWN: Command = cmd(
    &[code(KeyCode::Tab), code(KeyCode::Down), k('j')],
    "Tab",
    "move down",
    Action::Down,
    true,
)
.brief("Tab", "move");
const HOME_UP: Command = cmd(
    &[code(KeyCode::BackTab), code(KeyCode::Up), k('k')],
    "S-Tab",
    "move up",
    Action::Up,
    false,
);
const HOME_OPEN: Command = cmd(
    &[code(KeyCode::Enter), code(KeyCode::Right), k('l')],
    "Enter",
    "open",
    Action::Activate,
    true,
);
const TO_HOME: Command = cmd(
    &[code(KeyCode::Esc)],
    "Esc",
    "home screen",
    Action::Back,
    false,
);
const STEP: Command = cmd(
    &[code(KeyCode::Char(' ')), code(KeyCode::Right), k('l')],
    "Space",
    "next step",
    Action::Step,
    true,
)
.brief("Space", "step");
const STEP_BACK: Command = cmd(
    &[code(KeyCode::Left), k('h'), code(KeyCode::Backspace)],
    "h/Left",
    "step back",
    Action::StepBack,
    true,
)
.brief("h", "back");
const RESET_BLOCK: Command =
    cmd(&[k('x')], "x", "reset block", Action::ResetBlock, true).brief("x", "reset");
const RESET_PAGE: Command = cmd(&[k('X')], "X", "reset page", Action::ResetPage, false);

const PRACTICE: Command = cmd(
    &[k('P')],
    "P",
    "grade your own solution",
    Action::Practice,
    false,
);

const TOOLS: Command = cmd(
    &[k('T')],
    "T",
    "your own tools: traps, strict, fixes",
    Action::Tools,
    true,
)
.brief("T", "your tools");

/// Where the keys go right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// The home screen: the course map and where to go next.
    Home,
    Reader,
    Sidebar,
    /// A block has focus but was not entered.
    BlockFocused,
    /// A block was entered with Enter: it gets the keys first.
    BlockActive,
    Help,
    Notice,
}

/// The commands of a context, in the order the key bar shows them.
pub(crate) fn commands(ctx: Context) -> Vec<Command> {
    let global = [QUIT, FORCE_QUIT, HELP, SUSPEND];
    let mut list: Vec<Command> = match ctx {
        Context::Home => vec![HOME_DOWN, HOME_UP, HOME_OPEN, REHEARSE, PRACTICE, TOOLS],
        Context::Reader => vec![
            NEXT,
            PREV,
            TAB,
            BACKTAB,
            ENTER_BLOCK,
            SIDEBAR,
            SCROLL_DOWN,
            SCROLL_UP,
            PGDN,
            PGUP,
            TOP,
            BOTTOM,
            LESSONS,
            REHEARSE,
            PRACTICE,
            TO_HOME,
        ],
        Context::Sidebar => vec![
            SIDE_DOWN, SIDE_UP, SIDE_OPEN, NEXT, PREV, SIDE_BACK, SIDEBAR, REHEARSE, PRACTICE,
        ],
        Context::BlockFocused => vec![
            ENTER_BLOCK,
            TAB,
            BACKTAB,
            BACK_TO_PAGE,
            NEXT,
            PREV,
            SIDEBAR,
            PGDN,
            PGUP,
        ],
        Context::BlockActive => vec![LEAVE_BLOCK],
        Context::Help => vec![HELP_CLOSE],
        Context::Notice => vec![NOTICE_CLOSE],
    };
    match ctx {
        // Inside a block only Ctrl-C and Ctrl-Z stay global; the block decides about q and ?.
        Context::BlockActive => list.extend([FORCE_QUIT, SUSPEND]),
        Context::Help | Context::Notice => list.extend([QUIT, FORCE_QUIT, SUSPEND]),
        _ => list.extend(global),
    }
    list
}

/// Presenter mode's own keys, looked up before the reader's (and a focused block's) keys.
pub(crate) fn present_commands() -> Vec<Command> {
    vec![STEP, STEP_BACK, RESET_BLOCK, RESET_PAGE]
}

/// The presenter's command for a key, if any.
pub fn present_lookup(key: &KeyEvent) -> Option<Command> {
    present_commands()
        .into_iter()
        .find(|c| c.keys.iter().any(|s| s.matches(key)))
}

/// The command a key triggers in `ctx`, if any.
pub fn lookup(ctx: Context, key: &KeyEvent) -> Option<Command> {
    commands(ctx)
        .into_iter()
        .find(|c| c.keys.iter().any(|s| s.matches(key)))
}

// ---------------------------------------------------------------- one key

/// A plain key (no Ctrl/Alt) with this code.
pub fn plain(key: &KeyEvent, code: KeyCode) -> bool {
    key.code == code
        && !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

/// A plain character key.
pub fn is_char(key: &KeyEvent, c: char) -> bool {
    plain(key, KeyCode::Char(c))
}

pub fn is_up(key: &KeyEvent) -> bool {
    plain(key, KeyCode::Up) || is_char(key, 'k')
}
pub fn is_down(key: &KeyEvent) -> bool {
    plain(key, KeyCode::Down) || is_char(key, 'j')
}
pub fn is_left(key: &KeyEvent) -> bool {
    plain(key, KeyCode::Left) || is_char(key, 'h')
}
pub fn is_right(key: &KeyEvent) -> bool {
    plain(key, KeyCode::Right) || is_char(key, 'l')
}

/// Digit keys 1-9 as a 0-based index.
pub fn digit(key: &KeyEvent) -> Option<usize> {
    match key.code {
        KeyCode::Char(c @ '1'..='9')
            if !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            Some(c as usize - '1' as usize)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(c: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(c, m)
    }

    #[test]
    fn every_context_can_quit_and_reach_help_or_back() {
        for ctx in [
            Context::Home,
            Context::Reader,
            Context::Sidebar,
            Context::BlockFocused,
            Context::BlockActive,
            Context::Help,
            Context::Notice,
        ] {
            let c = lookup(ctx, &press(KeyCode::Char('c'), KeyModifiers::CONTROL)).unwrap();
            assert_eq!(c.action, Action::Quit, "{ctx:?}");
        }
        assert_eq!(
            lookup(
                Context::Reader,
                &press(KeyCode::Char('?'), KeyModifiers::SHIFT)
            )
            .unwrap()
            .action,
            Action::ToggleHelp
        );
    }

    #[test]
    fn active_blocks_do_not_lose_q_n_or_question_mark() {
        for c in ['q', 'n', 'p', '?', 'j'] {
            assert!(
                lookup(
                    Context::BlockActive,
                    &press(KeyCode::Char(c), KeyModifiers::NONE)
                )
                .is_none()
            );
        }
    }

    #[test]
    fn n_and_p_turn_pages_from_every_focus_but_an_entered_block() {
        for ctx in [Context::Reader, Context::Sidebar, Context::BlockFocused] {
            for (c, want) in [('n', Action::NextPage), ('p', Action::PrevPage)] {
                let got = lookup(ctx, &press(KeyCode::Char(c), KeyModifiers::NONE));
                assert_eq!(got.map(|c| c.action), Some(want), "{ctx:?} {c}");
            }
        }
    }

    #[test]
    fn s_toggles_the_lesson_list_from_reader_sidebar_and_block() {
        for ctx in [Context::Reader, Context::Sidebar, Context::BlockFocused] {
            let got = lookup(ctx, &press(KeyCode::Char('s'), KeyModifiers::NONE));
            assert_eq!(
                got.map(|c| c.action),
                Some(Action::ToggleSidebar),
                "{ctx:?}"
            );
            assert!(got.unwrap().bar, "{ctx:?}: s is in the key bar");
        }
    }

    #[test]
    fn no_key_is_bound_twice_in_a_context() {
        for ctx in [
            Context::Home,
            Context::Reader,
            Context::Sidebar,
            Context::BlockFocused,
            Context::BlockActive,
            Context::Help,
            Context::Notice,
        ] {
            let mut seen = Vec::new();
            for c in commands(ctx) {
                for s in c.keys {
                    assert!(!seen.contains(s), "{ctx:?}: {s:?} twice");
                    seen.push(*s);
                }
            }
        }
    }
}
