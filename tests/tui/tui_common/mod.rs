//! Shared helpers for the TUI tests: lessons built in code (no parser needed), a scripted
//! key driver, and a stand-in block widget.
#![allow(dead_code)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block as Frame, Borders, Paragraph, Widget};

use tooldojo::content::Content;
use tooldojo::content::lessons::{Block, BlockKind, BlockSpec, Item, Lesson, Page};
use tooldojo::course::LessonEntry;
use tooldojo::course::progress::Progress;
use tooldojo::tui::app::{App, Input, Options, Update};
use tooldojo::tui::blocks::{BlockOutcome, BlockWidget, KeyHint, RenderCtx};
use tooldojo::tui::theme::{Theme, ThemeName};

pub fn md(s: &str) -> Item {
    Item::Markdown(s.to_owned())
}

pub fn block(kind: BlockKind, key: &str, value: &str, line: usize) -> Item {
    Item::Block(Block {
        kind,
        options: vec![(key.to_owned(), value.to_owned())],
        body: String::new(),
        line,
        spec: BlockSpec::None,
    })
}

pub fn lessons() -> Vec<LessonEntry> {
    let first = Lesson {
        id: "01-untrusted-input".into(),
        title: "Untrusted input".into(),
        minutes: 10,
        file: "lessons/01-untrusted-input.md".into(),
        pages: vec![
            Page {
                title: "A model proposes, your code decides".into(),
                items: vec![
                    md(
                        "A language model does not *call* tools. It writes text that **looks** like a call, and your code decides whether anything runs.\n\nThree things can be wrong with a proposed call:\n\n- the tool does not exist\n- the arguments have the wrong shape\n- the caller may not do it\n\nThe call the model wrote:\n\n```json\n{\"tool\": \"get_ticket\", \"args\": {\"ticket_id\": \"TKT-104\"}, \"limit\": 10, \"dry\": false}\n```\n",
                    ),
                    block(BlockKind::Predict, "fixture", "get_ticket", 24),
                    md("Keep `ticket_id` a string: `\"TKT-104\"`, never a number.\n"),
                ],
            },
            Page {
                title: "The order of checks".into(),
                items: vec![md(
                    "1. Tool name\n2. Argument shape\n3. Value\n4. Permission\n5. Lookup\n\n> The first failure wins.\n",
                )],
            },
        ],
    };
    let third = Lesson {
        id: "03-bool-int-trap".into(),
        title: "The bool is not an int".into(),
        minutes: 8,
        file: "lessons/03-bool-int-trap.md".into(),
        pages: vec![Page {
            title: "True is not 1".into(),
            items: vec![md(
                "In Python `isinstance(True, int)` is `True`. A validator must check for bool first.\n",
            )],
        }],
    };
    vec![
        LessonEntry::from_lesson(first),
        LessonEntry {
            id: "02-broken".into(),
            file: "lessons/02-broken.md".into(),
            source: "x".into(),
            parsed: Err("lessons/02-broken.md:7: unknown block kind `predcit`".into()),
        },
        LessonEntry::from_lesson(third),
    ]
}

pub fn options(name: ThemeName, ascii: bool) -> Options {
    Options::new(Theme::new(name, ascii))
}

pub fn env() -> tooldojo::tui::blocks::BlockEnv {
    let content = Content::embedded();
    let records = tooldojo::executor::cases::tickets(&content).expect("shipped tickets");
    tooldojo::course::BlockEnv::new(content, records, 0)
}

pub fn new_app(w: u16, h: u16, name: ThemeName, ascii: bool) -> App {
    App::new(
        options(name, ascii),
        env(),
        Ok(lessons()),
        Progress::default(),
        Rect::new(0, 0, w, h),
    )
}

/// Press keys given as a script: single characters, or `<Tab>`, `<S-Tab>`, `<Esc>`,
/// `<Enter>`, `<Down>`, `<Up>`, `<Left>`, `<PgDn>`, `<PgUp>`, `<C-c>`, `<C-z>`.
pub fn press(app: &mut App, script: &str) -> Vec<Update> {
    let mut out = Vec::new();
    let mut rest = script;
    while !rest.is_empty() {
        let (key, next) = if rest.starts_with('<') && rest.contains('>') {
            let end = rest.find('>').unwrap();
            let name = &rest[1..end];
            let key = match name {
                "Tab" => KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE),
                "S-Tab" => KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT),
                "Esc" => KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE),
                "Enter" => KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE),
                "Down" => KeyEvent::new(KeyCode::Down, KeyModifiers::NONE),
                "Up" => KeyEvent::new(KeyCode::Up, KeyModifiers::NONE),
                "Left" => KeyEvent::new(KeyCode::Left, KeyModifiers::NONE),
                "PgDn" => KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE),
                "PgUp" => KeyEvent::new(KeyCode::PageUp, KeyModifiers::NONE),
                "C-c" => KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
                "C-z" => KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL),
                other => panic!("unknown key <{other}>"),
            };
            (key, &rest[end + 1..])
        } else {
            let ch = rest.chars().next().unwrap();
            (
                KeyEvent::new(KeyCode::Char(ch), KeyModifiers::NONE),
                &rest[ch.len_utf8()..],
            )
        };
        out.push(app.update(Input::Key(key)));
        rest = next;
    }
    out
}

/// Draw the app at its size and return the text.
pub fn screen(app: &App) -> String {
    tooldojo::text::screen_text(&tooldojo::tui::screens::draw_to_buffer(app))
}

/// A stand-in block: `rows` numbered lines tall; keeps typed text when it captures text.
pub struct Fake {
    pub rows: u16,
    pub text: bool,
    pub typed: String,
    pub done: bool,
}

impl Fake {
    pub fn boxed(rows: u16, text: bool) -> Box<dyn BlockWidget> {
        Box::new(Fake {
            rows,
            text,
            typed: String::new(),
            done: false,
        })
    }
}

impl BlockWidget for Fake {
    fn title(&self) -> String {
        "Fake".into()
    }
    fn handle_click(&mut self, row: u16, col: u16) -> BlockOutcome {
        self.typed = format!("click@{row},{col}");
        BlockOutcome::Changed
    }
    fn height(&self, _width: u16) -> u16 {
        self.rows
    }
    fn render(&self, area: Rect, buf: &mut Buffer, ctx: &RenderCtx) {
        let mut lines: Vec<Line> = (1..=self.rows.saturating_sub(2))
            .map(|i| Line::from(format!("fake row {i}")))
            .collect();
        if !lines.is_empty() {
            lines[0] = Line::from(format!(
                "typed={} focused={} active={}",
                self.typed, ctx.focused, ctx.active
            ));
        }
        Paragraph::new(lines)
            .block(
                Frame::default()
                    .borders(Borders::ALL)
                    .border_set(ctx.theme.sym.border),
            )
            .render(area, buf);
    }
    fn handle_key(&mut self, key: KeyEvent, active: bool) -> BlockOutcome {
        if !active {
            return BlockOutcome::Ignored;
        }
        match key.code {
            KeyCode::Char(c) if self.text => {
                self.typed.push(c);
                BlockOutcome::Changed
            }
            KeyCode::Char('x') => {
                self.done = true;
                BlockOutcome::Changed
            }
            _ => BlockOutcome::Ignored,
        }
    }
    fn key_hints(&self, active: bool) -> Vec<KeyHint> {
        if active {
            vec![KeyHint::new("x", "finish")]
        } else {
            vec![KeyHint::new("Enter", "start")]
        }
    }
    fn captures_text(&self) -> bool {
        self.text
    }
    fn save(&self) -> serde_json::Value {
        serde_json::json!({"typed": self.typed})
    }
    fn is_done(&self) -> bool {
        self.done
    }
}

/// The shipped course with lesson 06 begun: pages 1 to 3 seen, page 3 the learner's place.
pub fn lesson_six_begun() -> Progress {
    serde_json::from_value(serde_json::json!({
        "version": 1,
        "current": {"lesson": "06-get-ticket-contract", "page": 2},
        "lessons": {"06-get-ticket-contract": {"pages_seen": [0, 1, 2], "last_page": 2}}
    }))
    .expect("a progress file")
}
