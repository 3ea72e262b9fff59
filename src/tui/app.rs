//! `App`: the sole owner of UI state. Every input goes through `App::update`, which returns a
//! `#[must_use]` `Update` saying what the loop must do next; drawing (`ui.rs`) reads `&App`.

use std::sync::Arc;

use crossterm::event::{KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::Line;

use crate::content::Content;
use crate::content::lessons::{Block, BlockKind, Item, Lesson};
use crate::tui::blocks::{BlockEnv, BlockOutcome, BlockWidget, KeyHint};
use crate::tui::keys::{self, Action, Context};
use crate::tui::markdown;
use crate::tui::progress::{self, Progress};
use crate::tui::theme::{Theme, ThemeName};

/// Below this size the app draws one line asking for a bigger terminal.
pub const MIN_WIDTH: u16 = 40;
pub const MIN_HEIGHT: u16 = 12;
/// Tallest a block may be drawn inline (a block asking for more is cut here).
const MAX_BLOCK_HEIGHT: u16 = 500;
/// Below this width the lesson list steps aside while a block is entered.
pub const NARROW_WIDTH: u16 = 100;

/// One lesson file: parsed, or the error that stopped it.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonEntry {
    /// The file name without `.md`; progress is keyed by it.
    pub id: String,
    /// The name used in messages.
    pub file: String,
    /// The file's text (a reload only rebuilds a lesson whose text changed).
    pub source: String,
    pub parsed: Result<Lesson, String>,
}

impl LessonEntry {
    pub fn from_lesson(lesson: Lesson) -> LessonEntry {
        LessonEntry {
            id: lesson.id.clone(),
            file: lesson.file.clone(),
            source: String::new(),
            parsed: Ok(lesson),
        }
    }

    pub fn title(&self) -> String {
        match &self.parsed {
            Ok(l) => l.title.clone(),
            Err(_) => self.id.clone(),
        }
    }

    pub fn page_count(&self) -> usize {
        match &self.parsed {
            Ok(l) => l.pages.len().max(1),
            Err(_) => 1,
        }
    }
}

/// Read and parse every lesson; a file that does not parse becomes an entry with its error.
pub fn load_lessons(content: &Content) -> Result<Vec<LessonEntry>, String> {
    let names = content.lessons.list("", ".md").map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for rel in names {
        if rel.eq_ignore_ascii_case("README.md") {
            continue;
        }
        let id = rel.trim_end_matches(".md").to_owned();
        match content.lessons.read(&rel) {
            Ok(file) => {
                let parsed =
                    crate::content::lessons::parse_lesson(&file).map_err(|e| e.to_string());
                out.push(LessonEntry {
                    id: crate::sanitize::clean(&id, false),
                    file: crate::sanitize::clean(&file.display, false),
                    source: file.text,
                    parsed,
                });
            }
            Err(e) => out.push(LessonEntry {
                id: crate::sanitize::clean(&id, false),
                file: crate::sanitize::clean(&rel, false),
                source: String::new(),
                parsed: Err(e.to_string()),
            }),
        }
    }
    Ok(out)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Sidebar,
    Page,
    Block(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    Help,
    /// Something the learner must read (a progress file set aside).
    Notice(String),
}

/// One interactive block on the current page.
pub struct Slot {
    /// Index of the item in the page.
    pub item: usize,
    pub kind: BlockKind,
    pub line: usize,
    pub widget: Result<Box<dyn BlockWidget>, String>,
}

/// Everything that can reach `App::update`.
pub enum Input {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    Tick,
    /// The lesson directory changed: the freshly read lessons.
    Lessons(Result<Vec<LessonEntry>, String>),
    /// A short message for the status line (a save failed, a watcher error).
    Status(String),
}

/// What the loop must do after an update.
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Update {
    /// Nothing visible changed.
    None,
    Redraw,
    /// Redraw and write progress.
    Save,
    Quit,
    Suspend,
}

impl Update {
    fn or(self, other: Update) -> Update {
        use Update::*;
        match (self, other) {
            (Quit, _) | (_, Quit) => Quit,
            (Suspend, _) | (_, Suspend) => Suspend,
            (Save, _) | (_, Save) => Save,
            (Redraw, _) | (_, Redraw) => Redraw,
            _ => None,
        }
    }
}

/// Options the app starts with.
#[derive(Clone)]
pub struct Options {
    pub theme: Theme,
    pub present: bool,
    /// `--lesson ID`.
    pub lesson: Option<String>,
    /// Shown in messages about the lesson directory ("lessons/" or the --lessons path).
    pub lessons_from: String,
    pub watching: bool,
}

impl Options {
    pub fn new(theme: Theme) -> Options {
        Options {
            present: theme.name == ThemeName::Projector,
            theme,
            lesson: None,
            lessons_from: "lessons/".into(),
            watching: false,
        }
    }
}

/// Rectangles of the current screen; the same function serves drawing and mouse clicks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    pub sidebar: Option<Rect>,
    pub main: Rect,
    /// Inside the main pane's border and padding: where the page scrolls.
    pub content: Rect,
    pub bar: Rect,
}

/// One vertical piece of the current page.
pub enum SegKind {
    Lines(Vec<Line<'static>>),
    /// The lesson title in big letters (projector mode, where it fits).
    Big(String),
    Slot(usize),
}

pub struct Segment {
    pub y: usize,
    pub height: usize,
    pub kind: SegKind,
}

pub struct PageView {
    pub segments: Vec<Segment>,
    pub height: usize,
}

impl PageView {
    fn slot_span(&self, slot: usize) -> Option<(usize, usize)> {
        self.segments.iter().find_map(|s| match s.kind {
            SegKind::Slot(i) if i == slot => Some((s.y, s.height)),
            _ => None,
        })
    }
}

pub struct App {
    pub theme: Theme,
    pub present: bool,
    pub show_sidebar: bool,
    pub env: BlockEnv,
    pub lessons: Vec<LessonEntry>,
    /// The lesson list could not be read at all.
    pub load_error: Option<String>,
    pub lessons_from: String,
    pub watching: bool,
    pub lesson: usize,
    pub page: usize,
    pub scroll: usize,
    pub focus: Focus,
    /// The focused block was entered (keys go to it).
    pub active: bool,
    pub sidebar_sel: usize,
    pub slots: Vec<Slot>,
    pub overlay: Option<Overlay>,
    pub status: Option<String>,
    pub progress: Progress,
    /// Terminal size, as last reported.
    pub size: Rect,
    /// A block said it is animating: the loop ticks.
    pub animating: bool,
    /// Page and scroll the learner had when a reload cut the lesson short (say, while the
    /// file did not parse); restored when the lesson is whole again.
    pub held_place: Option<(String, usize, usize)>,
}

impl App {
    pub fn new(
        opts: Options,
        env: BlockEnv,
        lessons: Result<Vec<LessonEntry>, String>,
        progress: Progress,
        size: Rect,
    ) -> App {
        let (lessons, load_error) = match lessons {
            Ok(l) => (l, None),
            Err(e) => (Vec::new(), Some(e)),
        };
        let mut app = App {
            show_sidebar: !opts.present && !progress.sidebar_hidden,
            theme: opts.theme,
            present: opts.present,
            env,
            lessons,
            load_error,
            lessons_from: opts.lessons_from,
            watching: opts.watching,
            lesson: 0,
            page: 0,
            scroll: 0,
            focus: Focus::Page,
            active: false,
            sidebar_sel: 0,
            slots: Vec::new(),
            overlay: None,
            status: None,
            progress,
            size,
            animating: false,
            held_place: None,
        };
        // Where to start: --lesson, else where the learner left, else the first unfinished.
        let resume = app.progress.current.clone();
        let mut start = (0, 0, 0, None);
        if let Some(id) = &opts.lesson {
            if let Some(i) = app.lessons.iter().position(|l| &l.id == id) {
                start.0 = i;
                if let Some(pos) = resume.as_ref().filter(|p| &p.lesson == id) {
                    start = (i, pos.page, usize::from(pos.scroll), pos.block);
                }
            }
        } else if let Some(pos) = &resume
            && let Some(i) = app.lessons.iter().position(|l| l.id == pos.lesson)
        {
            start = (i, pos.page, usize::from(pos.scroll), pos.block);
        } else if let Some(i) = app
            .lessons
            .iter()
            .position(|l| !app.progress.lessons.get(&l.id).is_some_and(|p| p.done))
        {
            start.0 = i;
        }
        app.open(start.0, start.1);
        app.scroll = start.2;
        if let Some(b) = start.3.filter(|b| *b < app.slots.len()) {
            app.focus = Focus::Block(b);
        }
        app.clamp_scroll();
        app
    }

    /// Is there a lesson with this id?
    pub fn has_lesson(&self, id: &str) -> bool {
        self.lessons.iter().any(|l| l.id == id)
    }

    pub fn current(&self) -> Option<&LessonEntry> {
        self.lessons.get(self.lesson)
    }

    fn current_lesson(&self) -> Option<&Lesson> {
        self.current().and_then(|e| e.parsed.as_ref().ok())
    }

    /// The page items of the current page (empty for a broken lesson).
    pub fn page_items(&self) -> &[Item] {
        self.current_lesson()
            .and_then(|l| l.pages.get(self.page))
            .map(|p| p.items.as_slice())
            .unwrap_or(&[])
    }

    /// Which key context is on top.
    pub fn context(&self) -> Context {
        match &self.overlay {
            Some(Overlay::Help) => return Context::Help,
            Some(Overlay::Notice(_)) => return Context::Notice,
            None => {}
        }
        match self.focus {
            Focus::Sidebar => Context::Sidebar,
            Focus::Page => Context::Reader,
            Focus::Block(_) if self.active => Context::BlockActive,
            Focus::Block(_) => Context::BlockFocused,
        }
    }

    /// Hints of the focused block, for the key bar and help.
    pub fn block_hints(&self) -> Vec<KeyHint> {
        match self.focus {
            Focus::Block(i) => match self.slots.get(i).map(|s| &s.widget) {
                Some(Ok(w)) => w.key_hints(self.active),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    // ----- geometry -------------------------------------------------------------------

    pub fn areas(&self, area: Rect) -> Areas {
        let [body, bar] = area.layout(&Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(1),
        ]));
        let side_w = match area.width {
            0..100 => 24,
            100..140 => 30,
            _ => 36,
        };
        // While a block is entered on a narrow terminal it gets the whole width.
        let entered_narrow = self.active && area.width < NARROW_WIDTH;
        let (sidebar, main) = if self.show_sidebar && area.width >= 80 && !entered_narrow {
            let [s, m] = body.layout(&Layout::horizontal([
                Constraint::Length(side_w),
                Constraint::Fill(1),
            ]));
            (Some(s), m)
        } else {
            (None, body)
        };
        let (px, py) = if self.present { (3, 1) } else { (1, 0) };
        let inner = Rect {
            x: main.x + 1,
            y: main.y + 1,
            width: main.width.saturating_sub(2),
            height: main.height.saturating_sub(2),
        };
        let content = Rect {
            x: inner.x + px.min(inner.width / 4),
            y: inner.y + py.min(inner.height / 4),
            width: inner.width.saturating_sub(2 * px.min(inner.width / 4)),
            height: inner.height.saturating_sub(2 * py.min(inner.height / 4)),
        };
        Areas {
            sidebar,
            main,
            content,
            bar,
        }
    }

    /// The current page laid out at `width` columns.
    pub fn page_view(&self, width: u16) -> PageView {
        let mut segments = Vec::new();
        let mut y = 0;
        let mut push = |kind: SegKind, height: usize, segments: &mut Vec<Segment>| {
            segments.push(Segment { y, height, kind });
            y += height;
        };
        let theme = &self.theme;
        let Some(entry) = self.current() else {
            let msg = match &self.load_error {
                Some(e) => format!("The lessons could not be read.\n\n{e}"),
                None => format!("No lessons found in {}.", self.lessons_from),
            };
            let lines = markdown::wrap(
                &[ratatui::text::Span::styled(msg, theme.warn)],
                usize::from(width.max(1)),
                "",
                "",
                theme.dim,
            );
            let h = lines.len();
            push(SegKind::Lines(lines), h, &mut segments);
            return PageView {
                segments,
                height: y,
            };
        };
        let lesson = match &entry.parsed {
            Ok(l) => l,
            Err(e) => {
                let mut lines = vec![
                    Line::styled(
                        format!("{} This lesson file does not parse", theme.sym.bad),
                        theme.bad,
                    ),
                    Line::default(),
                ];
                let w = usize::from(width.max(1));
                for part in e.lines() {
                    lines.extend(markdown::wrap(
                        &[ratatui::text::Span::styled(part.to_owned(), theme.base)],
                        w,
                        "",
                        "",
                        theme.dim,
                    ));
                }
                lines.push(Line::default());
                let hint = if self.watching {
                    "Fix the file and save it: the lesson reloads by itself."
                } else {
                    "Fix the file and start tooldojo again (or run it with --lessons DIR to reload on save)."
                };
                lines.extend(markdown::wrap(
                    &[ratatui::text::Span::styled(hint, theme.dim)],
                    w,
                    "",
                    "",
                    theme.dim,
                ));
                let h = lines.len();
                push(SegKind::Lines(lines), h, &mut segments);
                return PageView {
                    segments,
                    height: y,
                };
            }
        };
        // The lesson title in big letters on its first page, projector mode only.
        let mut big = None;
        if self.present && self.page == 0 && !theme.ascii {
            let title = lesson.title.trim();
            let cols = title.chars().count() * 4;
            if !title.is_empty() && cols <= usize::from(width) && title.is_ascii() {
                push(SegKind::Big(title.to_owned()), 5, &mut segments);
                big = Some(title);
            }
        }
        if let Some(page) = lesson.pages.get(self.page) {
            // The big title already says it.
            let same_as_big = big.is_some_and(|b| b == page.title.trim());
            if !page.title.trim().is_empty() && !same_as_big {
                let style = theme.heading;
                let mut lines = markdown::wrap(
                    &[ratatui::text::Span::styled(
                        crate::sanitize::clean(page.title.trim(), false),
                        style,
                    )],
                    usize::from(width.max(1)),
                    "",
                    "",
                    theme.dim,
                );
                lines.push(Line::default());
                let h = lines.len();
                push(SegKind::Lines(lines), h, &mut segments);
            }
            let mut slot = 0;
            for item in &page.items {
                match item {
                    Item::Markdown(src) => {
                        let mut lines = markdown::render(src, width, theme);
                        if lines.is_empty() {
                            continue;
                        }
                        lines.push(Line::default());
                        let h = lines.len();
                        push(SegKind::Lines(lines), h, &mut segments);
                    }
                    Item::Block(_) => {
                        if slot < self.slots.len() {
                            let h = usize::from(self.slot_height(slot, width));
                            push(SegKind::Slot(slot), h, &mut segments);
                            push(SegKind::Lines(vec![Line::default()]), 1, &mut segments);
                        }
                        slot += 1;
                    }
                }
            }
        }
        // Drop the trailing blank line.
        if let Some(last) = segments.last()
            && matches!(&last.kind, SegKind::Lines(l) if l.len() == 1 && l[0].width() == 0)
        {
            y -= 1;
            segments.pop();
        }
        PageView {
            segments,
            height: y,
        }
    }

    /// Rows a slot takes at `width`.
    pub fn slot_height(&self, slot: usize, width: u16) -> u16 {
        match self.slots.get(slot).map(|s| &s.widget) {
            Some(Ok(w)) => w.height(width).clamp(1, MAX_BLOCK_HEIGHT),
            Some(Err(e)) => {
                let inner = usize::from(width.saturating_sub(4).max(1));
                let rows: usize = e
                    .lines()
                    .map(|l| markdown::width_of(l).div_ceil(inner).max(1))
                    .sum();
                u16::try_from(rows.max(1) + 2).unwrap_or(MAX_BLOCK_HEIGHT)
            }
            None => 1,
        }
    }

    fn content_area(&self) -> Rect {
        self.areas(self.size).content
    }

    fn max_scroll(&self) -> usize {
        let c = self.content_area();
        let view = self.page_view(c.width);
        view.height.saturating_sub(usize::from(c.height))
    }

    fn clamp_scroll(&mut self) {
        self.scroll = self.scroll.min(self.max_scroll());
    }

    /// Scroll so the focused block is in view (its top, if it is taller than the view).
    fn reveal_focus(&mut self) {
        let Focus::Block(i) = self.focus else {
            return;
        };
        let c = self.content_area();
        let view = self.page_view(c.width);
        if let Some((y, h)) = view.slot_span(i) {
            let vh = usize::from(c.height.max(1));
            if y < self.scroll || h > vh {
                self.scroll = y;
            } else if y + h > self.scroll + vh {
                self.scroll = y + h - vh;
            }
        }
        self.clamp_scroll();
    }

    /// Height and drawing width of the focused block (0 when no block has focus).
    fn focused_height(&self) -> (u16, u16) {
        let w = self.content_area().width;
        match self.focus {
            Focus::Block(i) => (self.slot_height(i, w), w),
            _ => (0, w),
        }
    }

    /// After a key inside the focused block: keep its focus line in view and, when the block
    /// just grew, show its new bottom as far as the focus line (or its top) allows.
    fn keep_focus_line(&mut self, old_h: u16, old_w: u16) {
        let Focus::Block(i) = self.focus else {
            return;
        };
        let c = self.content_area();
        let view = self.page_view(c.width);
        let Some((y, h)) = view.slot_span(i) else {
            return;
        };
        let vh = usize::from(c.height.max(1));
        let line = match self.slots.get(i).map(|s| &s.widget) {
            Some(Ok(w)) => w.focus_line(c.width),
            _ => None,
        };
        let anchor = y + line.map_or(0, |l| usize::from(l).min(h.saturating_sub(1)));
        let grew = old_w == c.width && h > usize::from(old_h);
        if grew && y + h > self.scroll + vh {
            self.scroll = (y + h - vh).min(anchor);
        }
        if line.is_some() {
            if anchor < self.scroll {
                self.scroll = anchor;
            } else if anchor >= self.scroll + vh {
                self.scroll = anchor + 1 - vh;
            }
        }
        self.clamp_scroll();
    }

    // ----- lessons, pages, blocks -----------------------------------------------------

    /// Save the states of the current page's blocks into `progress`.
    fn stash_slots(&mut self) {
        if self.slots.is_empty() {
            return;
        }
        let Some(id) = self.current().map(|e| e.id.clone()) else {
            return;
        };
        let lp = self.progress.lessons.entry(id).or_default();
        for (i, slot) in self.slots.iter().enumerate() {
            if let Ok(w) = &slot.widget {
                let state = w.save();
                let key = progress::block_key(self.page, i);
                if state.is_null() {
                    lp.blocks.remove(&key);
                } else {
                    lp.blocks.insert(key, state);
                }
            }
        }
    }

    /// Build the current page's blocks and restore their saved states.
    fn build_slots(&mut self) {
        let blocks: Vec<(usize, Block)> = self
            .page_items()
            .iter()
            .enumerate()
            .filter_map(|(i, it)| match it {
                Item::Block(b) => Some((i, b.clone())),
                Item::Markdown(_) => None,
            })
            .collect();
        let saved = self
            .current()
            .and_then(|e| self.progress.lessons.get(&e.id))
            .cloned()
            .unwrap_or_default();
        self.slots = blocks
            .into_iter()
            .enumerate()
            .map(|(n, (item, block))| {
                let widget = crate::tui::blocks::build(&block, &self.env).map(|mut w| {
                    if let Some(state) = saved.blocks.get(&progress::block_key(self.page, n)) {
                        w.restore(state);
                    }
                    w
                });
                Slot {
                    item,
                    kind: block.kind.clone(),
                    line: block.line,
                    widget,
                }
            })
            .collect();
        self.animating = true;
    }

    /// Record that the current page was seen and which of its blocks are finished.
    fn note_progress(&mut self) {
        let Some(entry) = self.current() else {
            return;
        };
        let id = entry.id.clone();
        let pages = match &entry.parsed {
            Ok(l) => l.pages.len(),
            Err(_) => return,
        };
        let lp = self.progress.lessons.entry(id.clone()).or_default();
        lp.pages_seen.insert(self.page);
        lp.last_page = self.page;
        for (i, slot) in self.slots.iter().enumerate() {
            let key = progress::block_key(self.page, i);
            match &slot.widget {
                Ok(w) if !w.is_done() => {
                    lp.pending.insert(key);
                }
                _ => {
                    lp.pending.remove(&key);
                }
            }
        }
        if (0..pages).all(|p| lp.pages_seen.contains(&p)) && lp.pending.is_empty() {
            lp.done = true;
        }
        self.progress.current = Some(progress::Position {
            lesson: id,
            page: self.page,
            block: match self.focus {
                Focus::Block(b) => Some(b),
                _ => None,
            },
            scroll: u16::try_from(self.scroll).unwrap_or(u16::MAX),
        });
    }

    /// Open lesson `lesson` at `page` (clamped), top of the page.
    pub fn open(&mut self, lesson: usize, page: usize) {
        self.stash_slots();
        self.held_place = None;
        if self.lessons.is_empty() {
            self.slots.clear();
            return;
        }
        self.lesson = lesson.min(self.lessons.len() - 1);
        self.page = page.min(self.lessons[self.lesson].page_count() - 1);
        self.sidebar_sel = self.lesson;
        self.scroll = 0;
        self.active = false;
        if matches!(self.focus, Focus::Block(_)) {
            self.focus = Focus::Page;
        }
        self.build_slots();
        self.note_progress();
    }

    fn next_page(&mut self) -> Update {
        let Some(entry) = self.current() else {
            return Update::None;
        };
        if self.page + 1 < entry.page_count() {
            self.open(self.lesson, self.page + 1);
        } else if self.lesson + 1 < self.lessons.len() {
            self.open(self.lesson + 1, 0);
        } else {
            self.status = Some("This is the last page of the last lesson.".into());
            return Update::Redraw;
        }
        Update::Save
    }

    fn prev_page(&mut self) -> Update {
        if self.current().is_none() {
            return Update::None;
        }
        if self.page > 0 {
            self.open(self.lesson, self.page - 1);
        } else if self.lesson > 0 {
            let last = self.lessons[self.lesson - 1].page_count() - 1;
            self.open(self.lesson - 1, last);
        } else {
            self.status = Some("This is the first page.".into());
            return Update::Redraw;
        }
        Update::Save
    }

    /// Snapshot of everything to persist (block states of the current page included).
    pub fn progress_snapshot(&self) -> Progress {
        let mut p = self.progress.clone();
        if let Some(entry) = self.current() {
            let lp = p.lessons.entry(entry.id.clone()).or_default();
            for (i, slot) in self.slots.iter().enumerate() {
                if let Ok(w) = &slot.widget {
                    let state = w.save();
                    if !state.is_null() {
                        lp.blocks.insert(progress::block_key(self.page, i), state);
                    }
                }
            }
            if let Some(cur) = &mut p.current {
                cur.scroll = u16::try_from(self.scroll).unwrap_or(u16::MAX);
                cur.block = match self.focus {
                    Focus::Block(b) => Some(b),
                    _ => None,
                };
            }
        }
        p
    }

    /// Lesson state for the sidebar: done, started, or not yet.
    pub fn lesson_state(&self, i: usize) -> LessonState {
        let Some(entry) = self.lessons.get(i) else {
            return LessonState::Todo;
        };
        if entry.parsed.is_err() {
            return LessonState::Broken;
        }
        match self.progress.lessons.get(&entry.id) {
            Some(p) if p.done => LessonState::Done,
            Some(p) if p.started() => LessonState::Started,
            _ => LessonState::Todo,
        }
    }

    // ----- update ---------------------------------------------------------------------

    pub fn update(&mut self, input: Input) -> Update {
        match input {
            Input::Key(key) => {
                self.status = None;
                let had_sidebar = self.sidebar_visible();
                let focus = self.focus;
                let (slot_h, width) = self.focused_height();
                let out = self.on_key(key);
                if self.sidebar_visible() != had_sidebar {
                    // The page changed width: keep the focused block, and its focus line, in view.
                    self.reveal_focus();
                    self.keep_focus_line(0, 0);
                } else if focus == self.focus && matches!(out, Update::Save | Update::Redraw) {
                    self.keep_focus_line(slot_h, width);
                }
                out.or(Update::Redraw)
            }
            Input::Mouse(m) => self.on_mouse(m),
            Input::Resize(w, h) => {
                self.size = Rect::new(0, 0, w, h);
                self.clamp_scroll();
                Update::Redraw
            }
            Input::Tick => {
                let mut any = false;
                for slot in &mut self.slots {
                    if let Ok(w) = &mut slot.widget {
                        any |= w.tick();
                    }
                }
                self.animating = any;
                Update::Redraw
            }
            Input::Lessons(result) => self.reload(result),
            Input::Status(msg) => {
                self.status = Some(msg);
                Update::Redraw
            }
        }
    }

    fn on_key(&mut self, key: KeyEvent) -> Update {
        let ctx = self.context();
        if ctx == Context::BlockActive
            && let Focus::Block(i) = self.focus
        {
            if let Some(c) = keys::lookup(Context::BlockActive, &key)
                && c.action != Action::Back
            {
                return self.apply(c.action);
            }
            let (outcome, captures) = match self.slots.get_mut(i).map(|s| &mut s.widget) {
                Some(Ok(w)) => (w.handle_key(key, true), w.captures_text()),
                _ => (BlockOutcome::Ignored, false),
            };
            return match outcome {
                BlockOutcome::Changed => {
                    self.animating = true;
                    self.after_block_change()
                }
                BlockOutcome::Consumed => Update::Redraw,
                BlockOutcome::Release => {
                    self.active = false;
                    self.after_block_change()
                }
                BlockOutcome::Ignored => {
                    if key.code == crossterm::event::KeyCode::Esc {
                        self.active = false;
                        Update::Redraw
                    } else if captures {
                        Update::None
                    } else {
                        // A block that does not take text lets page keys through.
                        match keys::lookup(Context::BlockFocused, &key)
                            .or_else(|| keys::lookup(Context::Reader, &key))
                        {
                            // Focus and page moves end the block's turn themselves.
                            Some(c) if c.action != Action::Activate => self.apply(c.action),
                            _ => Update::None,
                        }
                    }
                }
            };
        }
        if let Some(c) = keys::lookup(ctx, &key) {
            return self.apply(c.action);
        }
        if ctx == Context::BlockFocused
            && let Focus::Block(i) = self.focus
        {
            let outcome = match self.slots.get_mut(i).map(|s| &mut s.widget) {
                Some(Ok(w)) => w.handle_key(key, false),
                _ => BlockOutcome::Ignored,
            };
            match outcome {
                BlockOutcome::Changed => {
                    self.animating = true;
                    return self.after_block_change();
                }
                BlockOutcome::Consumed => return Update::Redraw,
                BlockOutcome::Release => {
                    self.focus = Focus::Page;
                    return Update::Redraw;
                }
                BlockOutcome::Ignored => {}
            }
            if let Some(c) = keys::lookup(Context::Reader, &key) {
                return self.apply(c.action);
            }
        }
        Update::None
    }

    fn after_block_change(&mut self) -> Update {
        self.note_progress();
        self.clamp_scroll();
        Update::Save
    }

    /// Carry out one command.
    pub fn apply(&mut self, action: Action) -> Update {
        let view_h = usize::from(self.content_area().height.max(1));
        match action {
            Action::Quit => return Update::Quit,
            Action::Suspend => return Update::Suspend,
            Action::ToggleHelp => {
                self.overlay = match self.overlay {
                    Some(Overlay::Help) => None,
                    _ => Some(Overlay::Help),
                };
            }
            Action::Back => {
                if self.overlay.is_some() {
                    self.overlay = None;
                } else if self.active {
                    self.active = false;
                } else {
                    self.focus = Focus::Page;
                }
            }
            Action::FocusNext | Action::FocusPrev => {
                let n = self.slots.len();
                let mut order: Vec<Focus> = vec![Focus::Page];
                order.extend((0..n).map(Focus::Block));
                if self.sidebar_visible() {
                    order.push(Focus::Sidebar);
                }
                let at = order.iter().position(|f| *f == self.focus).unwrap_or(0);
                let next = if action == Action::FocusNext {
                    (at + 1) % order.len()
                } else {
                    (at + order.len() - 1) % order.len()
                };
                self.focus = order[next];
                self.active = false;
                if self.focus == Focus::Sidebar {
                    self.sidebar_sel = self.lesson;
                }
                self.reveal_focus();
                self.note_progress();
            }
            Action::Up => match self.focus {
                Focus::Sidebar => self.sidebar_sel = self.sidebar_sel.saturating_sub(1),
                _ => self.scroll = self.scroll.saturating_sub(1),
            },
            Action::Down => match self.focus {
                Focus::Sidebar => {
                    self.sidebar_sel =
                        (self.sidebar_sel + 1).min(self.lessons.len().saturating_sub(1))
                }
                _ => {
                    self.scroll += 1;
                    self.clamp_scroll();
                }
            },
            Action::PageUp => {
                self.scroll = self.scroll.saturating_sub(view_h.saturating_sub(1).max(1))
            }
            Action::PageDown => {
                self.scroll += view_h.saturating_sub(1).max(1);
                self.clamp_scroll();
            }
            Action::Top => self.scroll = 0,
            Action::Bottom => self.scroll = self.max_scroll(),
            Action::NextPage => return self.next_page(),
            Action::PrevPage => return self.prev_page(),
            Action::Left => {
                if self.sidebar_visible() {
                    self.focus = Focus::Sidebar;
                    self.sidebar_sel = self.lesson;
                } else {
                    self.status = Some("The lesson list is hidden: press s to show it.".into());
                }
            }
            Action::Right => {}
            Action::ToggleSidebar => {
                self.show_sidebar = !self.show_sidebar;
                // The projector hides the list by itself: only the learner's own choice is kept.
                if !self.present {
                    self.progress.sidebar_hidden = !self.show_sidebar;
                }
                if !self.sidebar_visible() && self.focus == Focus::Sidebar {
                    self.focus = Focus::Page;
                }
                if self.show_sidebar && !self.sidebar_visible() {
                    self.status =
                        Some("The lesson list needs a window at least 80 columns wide.".into());
                }
                self.reveal_focus();
                return Update::Save;
            }
            Action::Activate => match self.focus {
                Focus::Sidebar => {
                    if self.sidebar_sel == self.lesson {
                        // The lesson already open: back to where the learner was.
                        self.focus = Focus::Page;
                    } else if self.sidebar_sel < self.lessons.len() {
                        let sel = self.sidebar_sel;
                        self.open(sel, self.resume_page(sel));
                        self.focus = Focus::Page;
                        return Update::Save;
                    }
                }
                Focus::Page => {
                    // Enter on the page: take the first block in view.
                    let c = self.content_area();
                    let view = self.page_view(c.width);
                    let first = view
                        .segments
                        .iter()
                        .filter_map(|s| match s.kind {
                            SegKind::Slot(i) if s.y + s.height > self.scroll => Some(i),
                            _ => None,
                        })
                        .next();
                    if let Some(i) = first {
                        self.focus = Focus::Block(i);
                        self.active = self.slots[i].widget.is_ok();
                        self.reveal_focus();
                    }
                }
                Focus::Block(i) => {
                    if self.slots.get(i).is_some_and(|s| s.widget.is_ok()) {
                        self.active = true;
                    } else {
                        self.status =
                            Some("This block could not be built; see the message in it.".into());
                    }
                }
            },
        }
        Update::Redraw
    }

    /// The page to open lesson `i` at from the lesson list: where the learner left it,
    /// or the first page once the lesson is finished.
    pub fn resume_page(&self, i: usize) -> usize {
        self.lessons
            .get(i)
            .and_then(|e| self.progress.lessons.get(&e.id))
            .filter(|p| !p.done)
            .map_or(0, |p| p.last_page)
    }

    pub fn sidebar_visible(&self) -> bool {
        self.areas(self.size).sidebar.is_some()
            && self.size.height >= MIN_HEIGHT
            && self.size.width >= MIN_WIDTH
    }

    fn on_mouse(&mut self, m: MouseEvent) -> Update {
        let areas = self.areas(self.size);
        let pos = Position::new(m.column, m.row);
        match m.kind {
            MouseEventKind::ScrollDown => {
                self.scroll += 3;
                self.clamp_scroll();
                Update::Redraw
            }
            MouseEventKind::ScrollUp => {
                self.scroll = self.scroll.saturating_sub(3);
                Update::Redraw
            }
            MouseEventKind::Down(MouseButton::Left) => {
                if self.overlay.is_some() {
                    return Update::None;
                }
                if let Some(side) = areas.sidebar
                    && side.contains(pos)
                {
                    let rows = crate::tui::ui::sidebar_rows(self, side);
                    if let Some((_, i)) = rows.iter().find(|(r, _)| *r == m.row) {
                        let i = *i;
                        self.focus = Focus::Sidebar;
                        self.sidebar_sel = i;
                        if i != self.lesson {
                            self.open(i, self.resume_page(i));
                            return Update::Save;
                        }
                    }
                    return Update::Redraw;
                }
                if areas.content.contains(pos) {
                    let y = self.scroll + usize::from(m.row - areas.content.y);
                    let view = self.page_view(areas.content.width);
                    let hit = view.segments.iter().find_map(|s| match s.kind {
                        SegKind::Slot(i) if y >= s.y && y < s.y + s.height => Some((i, y - s.y)),
                        _ => None,
                    });
                    let target = hit.map_or(Focus::Page, |(i, _)| Focus::Block(i));
                    if target != self.focus {
                        self.focus = target;
                        self.active = false;
                    }
                    // Hand the click to the block itself (select a row, pick a choice, flip a
                    // switch), in the block's own coordinates: its top border is row 0.
                    if let Some((i, row)) = hit
                        && let Some(Ok(w)) = self.slots.get_mut(i).map(|s| &mut s.widget)
                    {
                        let row = u16::try_from(row).unwrap_or(u16::MAX);
                        let col = m.column - areas.content.x;
                        match w.handle_click(row, col) {
                            BlockOutcome::Changed => return self.after_block_change(),
                            BlockOutcome::Release => {
                                self.active = false;
                                return self.after_block_change();
                            }
                            BlockOutcome::Consumed | BlockOutcome::Ignored => {}
                        }
                    }
                    return Update::Redraw;
                }
                Update::None
            }
            _ => Update::None,
        }
    }

    /// New lesson files arrived: keep the learner where they are when possible.
    fn reload(&mut self, result: Result<Vec<LessonEntry>, String>) -> Update {
        let lessons = match result {
            Ok(l) => l,
            Err(e) => {
                self.status = Some(format!("Reloading lessons failed: {e}"));
                return Update::Redraw;
            }
        };
        let current_id = self.current().map(|e| e.id.clone());
        let old_source = self.current().map(|e| e.source.clone());
        self.stash_slots();
        self.slots.clear();
        self.lessons = lessons;
        self.load_error = None;
        let idx = current_id
            .as_ref()
            .and_then(|id| self.lessons.iter().position(|l| &l.id == id));
        let (scroll, focus, active) = (self.scroll, self.focus, self.active);
        match idx {
            Some(i) => {
                let changed = self.lessons[i].source != old_source.unwrap_or_default();
                let id = self.lessons[i].id.clone();
                let (want_page, want_scroll) = match self.held_place.take() {
                    Some((held, p, s)) if held == id => (p, s),
                    _ => (self.page, scroll),
                };
                // `open` would stash again: the stash above is already done.
                self.lesson = i;
                self.page = want_page.min(self.lessons[i].page_count() - 1);
                if self.page != want_page || self.lessons[i].parsed.is_err() {
                    self.held_place = Some((id, want_page, want_scroll));
                }
                self.sidebar_sel = self.sidebar_sel.min(self.lessons.len() - 1);
                self.build_slots();
                if self.lessons[i].parsed.is_ok() {
                    self.note_progress();
                }
                self.scroll = want_scroll;
                self.focus = match focus {
                    Focus::Block(b) if b < self.slots.len() => Focus::Block(b),
                    Focus::Block(_) => Focus::Page,
                    f => f,
                };
                self.active = active && matches!(self.focus, Focus::Block(_));
                self.clamp_scroll();
                if changed {
                    let what = match &self.lessons[i].parsed {
                        Ok(_) => format!("Reloaded {}", self.lessons[i].file),
                        Err(_) => format!("{} no longer parses", self.lessons[i].file),
                    };
                    self.status = Some(what);
                }
            }
            None => {
                if !self.lessons.is_empty() {
                    self.open(self.lesson.min(self.lessons.len() - 1), 0);
                }
                self.status = Some("The lesson you were reading is gone; showing another.".into());
            }
        }
        Update::Save
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LessonState {
    Done,
    Started,
    Todo,
    Broken,
}

/// Is this key Ctrl-C (the loop quits on it whatever else is going on)?
pub fn is_ctrl_c(key: &KeyEvent) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(key.code, crossterm::event::KeyCode::Char('c' | 'C'))
}

/// A shared environment for blocks built from `content` and `records`.
pub fn block_env(content: Content, records: Vec<crate::executor::Record>, seed: u64) -> BlockEnv {
    BlockEnv {
        content: Arc::new(content),
        records: Arc::new(records),
        seed,
    }
}
