//! What the fuzz targets share: the built-in content read once, the app built as the
//! terminal builds it, and the decoder that turns fuzz bytes into the app's inputs.

use std::sync::OnceLock;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use tooldojo::check::lint::LintTables;
use tooldojo::content::Content;
use tooldojo::executor::{Record, cases as exec_cases};
use tooldojo::switches::Switch;
use tooldojo::course::{BlockEnv, LessonEntry, Progress};
use tooldojo::error::UserResult;
use tooldojo::tui::app::{App, Input, Options};
use tooldojo::tui::theme::{Theme, ThemeName};
use tooldojo::validate::cases::{self as val_cases, NamedSchema};
use tooldojo::validate::{Rule, Validator, ValidatorRules, Violation};

/// Everything read from the built-in content, once per fuzz process.
pub struct Shipped {
    pub content: Content,
    pub records: Vec<Record>,
    pub lessons: UserResult<Vec<LessonEntry>>,
    pub named: Vec<(String, NamedSchema)>,
    /// The named schemas compiled, then declarations in the other shapes that nest
    /// (objects in arrays, anyOf unions, $ref to $defs, formats, unevaluatedProperties).
    pub schemas: Vec<Validator>,
    pub tables: LintTables,
}

pub fn shipped() -> &'static Shipped {
    static SHIPPED: OnceLock<Shipped> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        let content = Content::embedded();
        let named = val_cases::schemas(&content).expect("the shipped schemas parse");
        let mut schemas: Vec<Validator> = named
            .iter()
            .map(|(_, s)| {
                Validator::options()
                    .required(&s.required)
                    .compile_value(&s.schema)
                    .expect("a shipped schema")
            })
            .collect();
        for text in NESTED {
            schemas.push(Validator::from_text(text).expect("a nested declaration"));
        }
        Shipped {
            records: exec_cases::tickets(&content).expect("the shipped tickets parse"),
            lessons: tooldojo::course::load_lessons(&content),
            tables: LintTables::load(&content, &tooldojo::cli::command_names())
                .expect("the shipped fixtures parse"),
            named,
            schemas,
            content,
        }
    })
}

/// Declarations in every other shape, nesting as real ones do.
pub const NESTED: &[&str] = &[
    r##"{"name": "find", "inputSchema": {"type": "object", "properties": {"filter": {"type": "object", "properties": {"since": {"type": "string", "format": "ipv4"}, "tags": {"type": "array", "items": {"type": "string", "maxLength": 8}, "uniqueItems": true}}, "required": ["since"], "additionalProperties": false}, "limit": {"type": "integer", "minimum": 1, "multipleOf": 5}}, "required": ["filter"]}}"##,
    r##"{"type": "function", "function": {"name": "order", "strict": true, "parameters": {"type": "object", "properties": {"items": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/item"}}, "note": {"anyOf": [{"type": "string"}, {"type": "null"}]}}, "required": ["items", "note"], "additionalProperties": false, "$defs": {"item": {"type": "object", "properties": {"sku": {"type": "string", "pattern": "^[A-Z]{3}-\\d+$"}, "qty": {"type": "integer", "exclusiveMinimum": 0}}, "required": ["sku", "qty"], "additionalProperties": false}}}}}"##,
    r##"{"type": "function", "name": "shape", "parameters": {"type": "object", "properties": {"s": {"oneOf": [{"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"]}, {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}]}}, "unevaluatedProperties": false}}"##,
    r##"{"name": "tree", "input_schema": {"$defs": {"node": {"type": "object", "properties": {"v": {"type": ["integer", "null"]}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 3}}, "dependentRequired": {"kids": ["v"]}}}, "$ref": "#/$defs/node"}}"##,
];

/// Rule switches from the low five bits of `bits` (a set bit switches that check off).
pub fn rules_from(bits: u8) -> ValidatorRules {
    ValidatorRules::without(
        Rule::ALL
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & (1 << i) != 0)
            .map(|(_, r)| *r),
    )
}

/// The first-failure verdict must be the head of the every-failure list, and both must
/// agree on whether the args pass.
pub fn assert_first_is_head(first: &Result<(), Violation>, all: &[Violation], what: &str) {
    match first {
        Ok(()) => assert!(all.is_empty(), "{what}: first says ok, all says {all:?}"),
        Err(v) => assert_eq!(all.first(), Some(v), "{what}: first and all disagree"),
    }
}

/// The app's options in a theme and layout picked by `style` (theme in bits 0-1, ASCII in
/// bit 2, presenter in bit 3).
pub fn options(style: u8) -> Options {
    let name = match style & 3 {
        0 => ThemeName::Default,
        1 => ThemeName::Light,
        2 => ThemeName::Projector,
        _ => ThemeName::Mono,
    };
    let mut opts = Options::new(Theme::new(name, style & 4 != 0));
    opts.present = style & 8 != 0 || name == ThemeName::Projector;
    opts
}

/// The blocks' environment over the built-in content.
pub fn env() -> BlockEnv {
    let s = shipped();
    BlockEnv::new(s.content.clone(), s.records.clone(), 0)
}

/// The app as the terminal starts it, opening `lesson` (an id) if given.
pub fn app(
    style: u8,
    lesson: Option<String>,
    lessons: UserResult<Vec<LessonEntry>>,
    size: Rect,
) -> App {
    let mut opts = options(style);
    opts.lesson = lesson;
    App::new(opts, env(), lessons, Progress::default(), size)
}

/// Named keys reached by the control bytes 0x00-0x0f.
const NAMED: [KeyCode; 16] = [
    KeyCode::Enter,
    KeyCode::Tab,
    KeyCode::BackTab,
    KeyCode::Esc,
    KeyCode::Backspace,
    KeyCode::Delete,
    KeyCode::Up,
    KeyCode::Down,
    KeyCode::Left,
    KeyCode::Right,
    KeyCode::Home,
    KeyCode::End,
    KeyCode::PageUp,
    KeyCode::PageDown,
    KeyCode::Insert,
    KeyCode::F(1),
];

/// Letters sent with Ctrl by the control bytes 0x10-0x1f.
const CTRL_LETTERS: [char; 16] = [
    'c', 'z', 'a', 'e', 'u', 'k', 'w', 'd', 'h', 'j', 'n', 'p', 'l', 'r', 'x', 'v',
];

/// Characters a paste or a foreign keyboard may type: non-ASCII digits and letters,
/// controls that slipped through, bidi overrides, a BOM, wide and astral characters.
const ODD_CHARS: [char; 16] = [
    'é',
    '\u{661}',
    '\u{ff10}',
    '\u{202e}',
    '\u{feff}',
    '中',
    '\u{1f600}',
    '\u{0}',
    '\u{1b}',
    '\u{9b}',
    '\u{7f}',
    '\u{2028}',
    'ß',
    '\u{301}',
    '\t',
    '\n',
];

fn key(code: KeyCode, modifiers: KeyModifiers) -> Input {
    Input::Key(KeyEvent::new(code, modifiers))
}

fn mouse(kind_byte: u8, column: u8, row: u8) -> Input {
    let kind = match kind_byte % 10 {
        0 => MouseEventKind::Down(MouseButton::Left),
        1 => MouseEventKind::Down(MouseButton::Right),
        2 => MouseEventKind::Up(MouseButton::Left),
        3 => MouseEventKind::Drag(MouseButton::Left),
        4 => MouseEventKind::Moved,
        5 => MouseEventKind::ScrollDown,
        6 => MouseEventKind::ScrollUp,
        7 => MouseEventKind::ScrollLeft,
        8 => MouseEventKind::ScrollRight,
        _ => MouseEventKind::Down(MouseButton::Middle),
    };
    Input::Mouse(MouseEvent {
        kind,
        column: u16::from(column),
        row: u16::from(row),
        modifiers: KeyModifiers::NONE,
    })
}

/// Decode fuzz bytes into the inputs the app's loop feeds `App::update`.
///
/// - `0x20-0x7e`: that character typed; `0x7f`: Backspace;
/// - `0x00-0x0f`: a named key (Enter, Tab, arrows, ...); `0x10-0x1f`: Ctrl and a letter;
/// - `0x80-0x8f`: Alt and the next byte as a character; `0x90-0x9f`: an odd character;
/// - `0xa0-0xbf`: a mouse event at (next byte, the byte after);
/// - `0xc0-0xcf`: a resize to (1 + next byte % 300, 1 + the byte after % 100);
/// - `0xd0-0xdf`: a tick; `0xe0-0xef`: Shift+Ctrl on the next named key;
/// - `0xf0-0xf7`: the lesson files reloaded (unchanged); `0xf8-0xfb`: a reload that
///   failed; `0xfc-0xff`: a status message.
pub fn decode(data: &[u8], reload: impl Fn() -> UserResult<Vec<LessonEntry>>) -> Vec<Input> {
    let mut out = Vec::new();
    let mut i = 0;
    let next = |i: &mut usize| -> u8 {
        let b = data.get(*i).copied().unwrap_or(0);
        *i += 1;
        b
    };
    while i < data.len() {
        let b = next(&mut i);
        let input = match b {
            0x00..=0x0f => key(NAMED[usize::from(b)], KeyModifiers::NONE),
            0x10..=0x1f => key(
                KeyCode::Char(CTRL_LETTERS[usize::from(b - 0x10)]),
                KeyModifiers::CONTROL,
            ),
            0x20..=0x7e => key(KeyCode::Char(char::from(b)), KeyModifiers::NONE),
            0x7f => key(KeyCode::Backspace, KeyModifiers::NONE),
            0x80..=0x8f => {
                let c = char::from(next(&mut i) & 0x7f);
                key(KeyCode::Char(c), KeyModifiers::ALT)
            }
            0x90..=0x9f => key(
                KeyCode::Char(ODD_CHARS[usize::from(b - 0x90)]),
                KeyModifiers::NONE,
            ),
            0xa0..=0xbf => {
                let (c, r) = (next(&mut i), next(&mut i));
                mouse(b - 0xa0, c, r)
            }
            0xc0..=0xcf => {
                let (w, h) = (next(&mut i), next(&mut i));
                Input::Resize(
                    1 + (u32::from(w) * 300 / 256) as u16,
                    1 + u16::from(h) % 100,
                )
            }
            0xd0..=0xdf => Input::Tick,
            0xe0..=0xef => {
                let n = next(&mut i);
                key(
                    NAMED[usize::from(n % 16)],
                    KeyModifiers::SHIFT | KeyModifiers::CONTROL,
                )
            }
            0xf0..=0xf7 => Input::Lessons(reload()),
            0xf8..=0xfb => Input::Lessons(Err("lessons/: the directory went away".into())),
            _ => Input::Status("progress not saved: disk full".into()),
        };
        out.push(input);
    }
    out
}
