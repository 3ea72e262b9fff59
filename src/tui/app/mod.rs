//! `App`: the sole owner of UI state, a stack of [`Screen`]s over the open lesson. Every
//! input goes through `App::update`, the one place it is dispatched to the screen on top,
//! which returns a `#[must_use]` `Update` saying what the loop must do next; drawing
//! (`ui.rs`) reads `&App` and matches on the same screen in one place too.
//!
//! The jobs live in their own files: `state` (the screens and the small state types),
//! `slots` (the open page's blocks, behind methods that version the page layout), `actions`
//! (keys and mouse to actions), `layout` (screen areas and the cached page layout),
//! `scroll` (keeping the focus in view), `pages` (opening pages, building blocks, recording
//! progress), `reload` (taking in lesson files changed on disk), `live` (taking in progress
//! another window saved), `home` (the home screen's rows), `done` (what is left of each block and lesson), `present` (presenter
//! mode's steps, resets and clock), `peek` (a finding's lesson looked up from the audit),
//! and one file per screen opened over the lessons:
//! `player`, `drill`, `practice`.

mod actions;
mod audit;
mod done;
mod drill;
mod home;
mod layout;
mod live;
mod pages;
mod peek;
mod player;
mod practice;
mod present;
mod reload;
mod scroll;
mod slots;
mod state;
mod tools;

use std::cell::RefCell;

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::layout::Rect;

use crate::content::lessons::{Item, Lesson};
use crate::course::{LessonEntry, Progress};
use crate::error::{UserError, UserResult};
use crate::tui::blocks::{BlockEnv, BlockWidget, KeyHint};
use crate::tui::keys::Context;
use crate::tui::theme::{Theme, ThemeName};

pub(crate) use audit::example_log;
pub(crate) use layout::{PageView, SegKind};
use slots::PageBlocks;
pub(crate) use state::Slot;
pub use state::{Focus, HomeEntry, Overlay, Screen};

/// Below this size the app draws one line asking for a bigger terminal.
pub(crate) const MIN_WIDTH: u16 = 40;
pub(crate) const MIN_HEIGHT: u16 = 12;
/// Below this width the lesson list shows only when asked for with `s` (in this session);
/// from it, it shows unless the learner hid it there.
pub(crate) const NARROW_WIDTH: u16 = 100;
/// Real milliseconds between ticks while a block animates.
const BLOCK_TICK_MS: u64 = 50;

/// Everything that can reach `App::update`.
pub enum Input {
    Key(KeyEvent),
    /// Text the terminal pasted (bracketed paste), one event however long.
    Paste(String),
    Mouse(MouseEvent),
    Resize(u16, u16),
    Tick,
    /// The lesson directory changed: the freshly read lessons.
    Lessons(UserResult<Vec<LessonEntry>>),
    /// A short message for the status line (a save failed, a watcher error).
    Status(String),
    /// A re-run the trace player asked for, made off the loop.
    Rerun(Box<crate::tui::player::rerun::RerunDone>),
    /// A file watcher or a grading run reports.
    Grader(crate::tui::grader::GraderMsg),
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
    /// Both updates at once: the stronger of the two.
    pub fn or(self, other: Update) -> Update {
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
    /// Open on the home screen (the app does, unless `--lesson` names a lesson).
    pub home: bool,
    /// Presenter mode (`--present`): pages go a step at a time, blocks can be reset, a
    /// clock shows; the caller keeps progress in memory only.
    pub demo: bool,
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
            home: false,
            demo: false,
            lessons_from: "lessons/".into(),
            watching: false,
        }
    }
}

pub struct App {
    theme: Theme,
    present: bool,
    demo: bool,
    /// The screen on top: it takes the keys, clicks and ticks and fills the terminal.
    screen: Screen,
    /// The screens under it, bottom first (the bottom one is `Home` or `Lesson`).
    below: Vec<Screen>,
    /// When the session began (the presenter's clock counts from here).
    started: std::time::Instant,
    /// The lesson list in a window `NARROW_WIDTH` columns wide or more: shown by itself
    /// unless the learner hid it there (a choice kept in the progress file).
    sidebar_wide: bool,
    /// The lesson list in a narrower window: shown (from 80 columns) only once the learner
    /// asks for it with `s`, for this session.
    sidebar_narrow: bool,
    env: BlockEnv,
    lessons: Vec<LessonEntry>,
    /// The lesson list could not be read at all.
    load_error: Option<UserError>,
    lessons_from: String,
    watching: bool,
    lesson: usize,
    page: usize,
    scroll: usize,
    /// The last key scrolled the page itself: the focus line is not pulled back into view.
    view_moved: bool,
    focus: Focus,
    /// The focused block was entered (keys go to it).
    active: bool,
    sidebar_sel: usize,
    /// The open page's blocks and steps (every change to them moves the layout's version).
    blocks: PageBlocks,
    overlay: Option<Overlay>,
    status: Option<String>,
    progress: Progress,
    /// Terminal size, as last reported.
    size: Rect,
    /// Page and scroll the learner had when a reload cut the lesson short (say, while the
    /// file did not parse); restored when the lesson is whole again.
    held_place: Option<(String, usize, usize)>,
    /// Presenter mode: the pages left, as they were, the last left last (`h` at a page's
    /// first step goes back to the page before, as it was left).
    left_pages: Vec<present::LeftPage>,
    /// The page layout for the current lesson, page, view size and blocks' version.
    view: RefCell<Option<layout::CachedView>>,
    /// The Markdown the last page layout wrapped, for the next layout to reuse.
    texts: RefCell<layout::TextCache>,
    /// The player's re-runs are taken by the event loop and run off it.
    background_jobs: bool,
    /// How background grading reaches the event loop (the live app sets it).
    notify: Option<crate::tui::grader::Notify>,
    /// The audit of the log the app was given, while it is not on screen (`A` opens it).
    audit: Option<Box<crate::tui::audit_screen::AuditScreen>>,
    /// The tools file given with `--tools` (the Your tools screen opens on it).
    tools_file: Option<crate::tools::ToolsFile>,
    /// The progress file other windows may save to meanwhile (the live app sets it).
    watch: Option<live::Watch>,
    /// A finding's lesson opened from the audit: where the learner was, for Esc to go back.
    peek: Option<peek::Peek>,
    /// Where `P` looks for the learner's solution: the current directory unless set.
    practice_dir: Option<std::path::PathBuf>,
}

impl App {
    pub fn new(
        opts: Options,
        env: BlockEnv,
        lessons: UserResult<Vec<LessonEntry>>,
        progress: Progress,
        size: Rect,
    ) -> App {
        let (lessons, load_error) = match lessons {
            Ok(l) => (l, None),
            Err(e) => (Vec::new(), Some(e)),
        };
        let mut app = App {
            sidebar_wide: !opts.present && !progress.sidebar_hidden,
            sidebar_narrow: false,
            theme: opts.theme,
            present: opts.present,
            demo: opts.demo,
            screen: Screen::Lesson,
            below: Vec::new(),
            started: std::time::Instant::now(),
            env,
            lessons,
            load_error,
            lessons_from: opts.lessons_from,
            watching: opts.watching,
            lesson: 0,
            page: 0,
            scroll: 0,
            view_moved: false,
            focus: Focus::Page,
            active: false,
            sidebar_sel: 0,
            blocks: PageBlocks::default(),
            overlay: None,
            status: None,
            progress,
            size,
            held_place: None,
            left_pages: Vec::new(),
            view: RefCell::new(None),
            texts: RefCell::new(layout::TextCache::default()),
            background_jobs: false,
            notify: None,
            audit: None,
            tools_file: None,
            watch: None,
            peek: None,
            practice_dir: None,
        };
        app.start_at(opts.lesson.as_deref(), opts.home);
        app
    }

    pub(crate) fn theme(&self) -> &Theme {
        &self.theme
    }

    /// Presenter layout.
    pub(crate) fn present(&self) -> bool {
        self.present
    }

    /// The screen on top.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// The screen at the bottom of the stack: `Home` or `Lesson`, whatever is over it.
    pub(crate) fn base_screen(&self) -> &Screen {
        self.below.first().unwrap_or(&self.screen)
    }

    /// Open `screen` over the one on top; closing it comes back there.
    pub(crate) fn open_screen(&mut self, screen: Screen) {
        let under = std::mem::replace(&mut self.screen, screen);
        self.below.push(under);
    }

    /// Close the screen on top and show the one under it (the home screen, a lesson or
    /// the Your tools screen back in view shows what other windows saved meanwhile).
    pub(crate) fn close_screen(&mut self) {
        self.screen = self.below.pop().unwrap_or(Screen::Lesson);
        if self.watches_progress() {
            let _ = self.look_at_progress();
        }
    }

    /// Put `screen` in place of the bottom of the stack (home and lesson swap there).
    pub(crate) fn set_base(&mut self, screen: Screen) {
        match self.below.first_mut() {
            Some(bottom) => *bottom = screen,
            None => self.screen = screen,
        }
    }

    /// Index of the open lesson.
    pub fn lesson(&self) -> usize {
        self.lesson
    }

    /// Index of the open page in the open lesson.
    pub fn page(&self) -> usize {
        self.page
    }

    /// First row of the page that is in view.
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    pub fn focus(&self) -> Focus {
        self.focus
    }

    /// Was the focused block entered (keys go to it)?
    pub fn active(&self) -> bool {
        self.active
    }

    pub fn overlay(&self) -> Option<Overlay> {
        self.overlay.clone()
    }

    /// The message on the status line, if any.
    pub(crate) fn status(&self) -> Option<&str> {
        self.status.as_deref()
    }

    /// Terminal size, as last reported.
    pub fn size(&self) -> Rect {
        self.size
    }

    pub(crate) fn lessons(&self) -> &[LessonEntry] {
        &self.lessons
    }

    /// The row selected in the lesson list.
    pub(crate) fn sidebar_sel(&self) -> usize {
        self.sidebar_sel
    }

    /// The interactive blocks of the current page.
    pub(crate) fn slots(&self) -> &[Slot] {
        self.blocks.slots()
    }

    /// Does the loop tick now? While the screen on top animates (each screen says so
    /// itself), and, slowly, while the home screen, a lesson or the Your tools screen looks
    /// at the progress file for other windows' saves.
    pub fn animating(&self) -> bool {
        match &self.screen {
            Screen::Lesson => self.blocks.animating() || self.watches_progress(),
            Screen::Home { .. } | Screen::Tools(_) => self.watches_progress(),
            Screen::Practice(_) => false,
            Screen::Player(p) => p.playing(),
            Screen::Drill(d) => d.running(),
            Screen::Audit(a) => a.animating(),
        }
    }

    /// Does a plain key type text now (an entered block's editor, the drill's answer)? The
    /// loop then takes a run of typed characters that arrived together as one paste.
    pub fn takes_text(&self) -> bool {
        match &self.screen {
            Screen::Home { .. } | Screen::Lesson => {
                self.context() == Context::BlockActive
                    && match self.focus {
                        Focus::Block(i) => self.blocks.widget(i).is_some_and(|w| w.captures_text()),
                        _ => false,
                    }
            }
            Screen::Drill(d) => d.editing(),
            Screen::Tools(s) => s.takes_text(),
            Screen::Player(_) | Screen::Practice(_) | Screen::Audit(_) => false,
        }
    }

    /// How often the loop ticks while the screen on top animates.
    pub fn tick_ms(&self) -> u64 {
        match &self.screen {
            Screen::Player(_) | Screen::Audit(_) => crate::replay::playback::TICK_MS,
            Screen::Lesson if self.blocks.animating() => BLOCK_TICK_MS,
            Screen::Home { .. } | Screen::Lesson | Screen::Tools(_) if self.watches_progress() => {
                u64::try_from(live::LOOK_EVERY.as_millis()).unwrap_or(u64::MAX)
            }
            _ => BLOCK_TICK_MS,
        }
    }

    pub(crate) fn current(&self) -> Option<&LessonEntry> {
        self.lessons.get(self.lesson)
    }

    fn current_lesson(&self) -> Option<&Lesson> {
        self.current().and_then(|e| e.parsed.as_ref().ok())
    }

    /// The page items of the current page (empty for a broken lesson).
    pub(crate) fn page_items(&self) -> &[Item] {
        self.current_lesson()
            .and_then(|l| l.pages.get(self.page))
            .map(|p| p.items.as_slice())
            .unwrap_or(&[])
    }

    /// Which key context is on top.
    pub(crate) fn context(&self) -> Context {
        match &self.overlay {
            Some(Overlay::Help) => return Context::Help,
            Some(Overlay::Notice(_)) => return Context::Notice,
            None => {}
        }
        if matches!(self.screen, Screen::Home { .. }) {
            return Context::Home;
        }
        match self.focus {
            Focus::Sidebar => Context::Sidebar,
            Focus::Page => Context::Reader,
            Focus::Block(_) if self.active => Context::BlockActive,
            Focus::Block(_) => Context::BlockFocused,
        }
    }

    /// Hints of the focused block, for the key bar and help.
    pub(crate) fn block_hints(&self) -> Vec<KeyHint> {
        match self.focus {
            Focus::Block(i) => self
                .blocks
                .widget(i)
                .map(|w| w.key_hints(self.active))
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// Show an overlay (the help, or a notice the learner must read).
    pub(crate) fn show_overlay(&mut self, overlay: Overlay) {
        self.overlay = Some(overlay);
    }

    /// Put the focus somewhere (a block index past the page's blocks is ignored).
    pub(crate) fn set_focus(&mut self, focus: Focus) {
        if !matches!(focus, Focus::Block(i) if i >= self.blocks.len()) {
            self.focus = focus;
        }
    }

    /// Hide the lesson list for this run (the learner's saved choice is left alone).
    pub(crate) fn hide_sidebar(&mut self) {
        self.sidebar_wide = false;
        self.sidebar_narrow = false;
    }

    /// The widget of block `i`, to change its state; the page layout is worked out again.
    pub(crate) fn widget_mut(&mut self, i: usize) -> Option<&mut Box<dyn BlockWidget>> {
        self.blocks.widget_mut(i)
    }

    /// Put another widget in block `i`'s place (a tool or test driving a stand-in).
    pub fn replace_widget(&mut self, i: usize, widget: Box<dyn BlockWidget>) {
        self.blocks.rebuild(i, Ok(widget));
    }

    /// The progress to change it directly (a tool or test setting up a learner's history).
    pub fn progress_mut(&mut self) -> &mut Progress {
        &mut self.progress
    }

    /// The one place input is dispatched: keys, clicks and ticks go to the screen on top;
    /// the rest (a resize, reloaded lessons, background results) is the app's.
    pub fn update(&mut self, input: Input) -> Update {
        match input {
            Input::Key(key) => match &mut self.screen {
                Screen::Home { .. } | Screen::Lesson => self.on_key_input(key),
                Screen::Player(_) => self.key_to_player(key),
                Screen::Drill(d) => {
                    let out = d.on_key(key);
                    self.drill_outcome(out)
                }
                Screen::Practice(p) => {
                    let out = p.on_key(key);
                    self.practice_outcome(out)
                }
                Screen::Audit(a) => {
                    let out = a.on_key(key);
                    self.audit_outcome(out)
                }
                Screen::Tools(s) => {
                    let out = s.on_key(key);
                    self.tools_outcome(out)
                }
            },
            Input::Paste(text) => match &mut self.screen {
                Screen::Home { .. } | Screen::Lesson => self.on_paste(&text),
                Screen::Drill(d) => {
                    let out = d.on_paste(&text);
                    self.drill_outcome(out)
                }
                Screen::Tools(s) => {
                    let out = s.on_paste(&text);
                    self.tools_outcome(out)
                }
                Screen::Player(_) | Screen::Practice(_) | Screen::Audit(_) => Update::None,
            },
            Input::Mouse(m) => match &mut self.screen {
                Screen::Home { .. } | Screen::Lesson => self.on_mouse(m),
                Screen::Player(_) => self.mouse_to_player(m),
                Screen::Audit(_) => self.mouse_to_audit(m),
                Screen::Drill(_) | Screen::Practice(_) | Screen::Tools(_) => Update::None,
            },
            Input::Tick => match &mut self.screen {
                Screen::Lesson => {
                    let out = if self.blocks.animating() {
                        self.tick_blocks()
                    } else {
                        Update::None
                    };
                    out.or(self.look_on_tick())
                }
                Screen::Home { .. } | Screen::Tools(_) => self.look_on_tick(),
                Screen::Player(p) => {
                    let _ = p.tick();
                    Update::Redraw
                }
                Screen::Drill(d) => {
                    let out = d.tick();
                    self.drill_outcome(out)
                }
                Screen::Audit(a) => {
                    if let Some(p) = a.player_mut() {
                        let _ = p.tick();
                    }
                    Update::Redraw
                }
                Screen::Practice(_) => Update::None,
            },
            Input::Resize(w, h) => {
                self.size = Rect::new(0, 0, w, h);
                self.clamp_scroll();
                // The page rewraps: the line an entered block points at stays in view (a
                // block only focused leaves the reader's place alone).
                if self.active {
                    self.keep_focus_line(0, 0);
                }
                Update::Redraw
            }
            Input::Lessons(result) => self.reload(result),
            Input::Status(msg) => {
                self.status = Some(msg);
                Update::Redraw
            }
            Input::Rerun(done) => self.player_rerun_done(*done),
            Input::Grader(msg) => self.grader_msg(msg),
        }
    }

    /// A key: handle it, then keep the focused block (and its focus line) in view when the
    /// key reached the blocks (a key that left them alone, `?` say, leaves the view alone).
    fn on_key_input(&mut self, key: KeyEvent) -> Update {
        self.status = None;
        let had_sidebar = self.sidebar_visible();
        let focus = self.focus;
        let (slot_h, width) = self.focused_height();
        let version = self.blocks.version();
        self.view_moved = false;
        let out = self.on_key(key);
        if self.sidebar_visible() != had_sidebar {
            // The page changed width: keep the focused block, and its focus line, in view.
            self.reveal_focus();
            self.keep_focus_line(0, 0);
        } else if focus == self.focus
            && !self.view_moved
            && self.blocks.version() != version
            && matches!(out, Update::Save | Update::Redraw)
        {
            self.keep_focus_line(slot_h, width);
        }
        out.or(Update::Redraw)
    }
}
