//! Where things go: the screen's areas, and the current page laid out as a column of
//! segments (text, big title, blocks). The same layout serves drawing, scrolling and mouse
//! clicks; it is worked out once per change and kept until the lesson, page, width or a
//! block changes.

use std::collections::HashMap;
use std::rc::Rc;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use super::{App, MIN_HEIGHT, MIN_WIDTH, NARROW_WIDTH, Screen};
use crate::content::lessons::{Item, Lesson, Page};
use crate::tui::markdown;

/// Tallest a block may be drawn inline (a block asking for more is cut here).
const MAX_BLOCK_HEIGHT: u16 = 500;

/// Rectangles of the current screen; the same function serves drawing and mouse clicks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Areas {
    pub sidebar: Option<Rect>,
    pub main: Rect,
    /// Inside the main pane's border and padding: where the page scrolls.
    pub content: Rect,
    pub bar: Rect,
}

/// One vertical piece of the current page.
pub(crate) enum SegKind {
    Lines(Rc<[Line<'static>]>),
    /// A heading in big letters, one string per big line (projector layout, where it fits).
    Big(Vec<String>),
    Slot(usize),
}

pub(crate) struct Segment {
    pub y: usize,
    pub height: usize,
    pub kind: SegKind,
}

pub(crate) struct PageView {
    pub segments: Vec<Segment>,
    pub height: usize,
}

impl PageView {
    fn new() -> PageView {
        PageView {
            segments: Vec::new(),
            height: 0,
        }
    }

    /// Add a segment below the others.
    fn push(&mut self, kind: SegKind, height: usize) {
        self.segments.push(Segment {
            y: self.height,
            height,
            kind,
        });
        self.height += height;
    }

    fn push_lines(&mut self, lines: Vec<Line<'static>>) {
        self.push_shared(lines.into());
    }

    fn push_shared(&mut self, lines: Rc<[Line<'static>]>) {
        let h = lines.len();
        self.push(SegKind::Lines(lines), h);
    }

    /// Make block `slot` `extra` rows taller, moving what is below it down.
    fn grow_slot(&mut self, slot: usize, extra: usize) {
        let mut below = false;
        for s in &mut self.segments {
            if below {
                s.y += extra;
            } else if matches!(s.kind, SegKind::Slot(i) if i == slot) {
                s.height += extra;
                below = true;
            }
        }
        if below {
            self.height += extra;
        }
    }

    /// Top row and height of block `slot`.
    pub(super) fn slot_span(&self, slot: usize) -> Option<(usize, usize)> {
        self.segments.iter().find_map(|s| match s.kind {
            SegKind::Slot(i) if i == slot => Some((s.y, s.height)),
            _ => None,
        })
    }

    /// The block at page row `y`, and the row inside it.
    pub(super) fn slot_at(&self, y: usize) -> Option<(usize, usize)> {
        self.segments.iter().find_map(|s| match s.kind {
            SegKind::Slot(i) if y >= s.y && y < s.y + s.height => Some((i, y - s.y)),
            _ => None,
        })
    }

    /// The first block that starts at page row `y` or below; when none does, the block
    /// that reaches below `y` (one taller than the view, its top scrolled away).
    pub(super) fn first_slot_below(&self, y: usize) -> Option<usize> {
        let first = |starts: bool| {
            self.segments.iter().find_map(|s| match s.kind {
                SegKind::Slot(i) if (s.y >= y || !starts) && s.y + s.height > y => Some(i),
                _ => None,
            })
        };
        first(true).or_else(|| first(false))
    }

    /// The first row at or below `y` that is not a blank line of text.
    pub(super) fn first_filled_row(&self, y: usize) -> usize {
        for s in self.segments.iter().filter(|s| s.y + s.height > y) {
            let SegKind::Lines(lines) = &s.kind else {
                return y.max(s.y);
            };
            let from = y.saturating_sub(s.y);
            if let Some(k) = lines[from..].iter().position(|l| l.width() > 0) {
                return s.y + from + k;
            }
        }
        y
    }

    /// Drop a trailing blank line.
    fn trim_end(&mut self) {
        if let Some(last) = self.segments.last()
            && matches!(&last.kind, SegKind::Lines(l) if l.len() == 1 && l[0].width() == 0)
        {
            self.height -= 1;
            self.segments.pop();
        }
    }
}

/// What a cached layout was worked out for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ViewKey {
    lesson: usize,
    page: usize,
    width: u16,
    /// The view's height (big titles and blocks that grow into the view depend on it).
    height: u16,
    /// The blocks' version (`PageBlocks` moves it on with every change to them).
    version: u64,
}

/// A page layout and what it was worked out for.
pub(super) struct CachedView {
    key: ViewKey,
    view: Rc<PageView>,
}

/// The page's Markdown as laid out for the last layout, by source text, at one width: a
/// page laid out again because a block changed takes its text from here instead of
/// parsing and wrapping all of it again.
#[derive(Default)]
pub(super) struct TextCache {
    width: u16,
    texts: HashMap<String, Rc<[Line<'static>]>>,
}

/// Columns and rows one big letter takes (tui-big-text, quadrant pixels).
pub(crate) const BIG_CELL_WIDTH: usize = 4;
pub(crate) const BIG_CELL_HEIGHT: usize = 4;

/// `title` split at spaces into lines of at most `chars` characters, or `None` when it
/// cannot be drawn big (empty, not ASCII, or a word longer than a line).
fn big_lines(title: &str, chars: usize) -> Option<Vec<String>> {
    // Printable ASCII only: the big font has no control characters to draw.
    let printable = title.bytes().all(|b| (0x20..0x7f).contains(&b));
    if title.is_empty() || !printable || chars == 0 {
        return None;
    }
    let mut lines: Vec<String> = Vec::new();
    for word in title.split_whitespace() {
        if word.len() > chars {
            return None;
        }
        match lines.last_mut() {
            Some(l) if l.len() + 1 + word.len() <= chars => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    Some(lines)
}

/// Wrap one styled text to `width` columns.
fn wrap_text(
    text: String,
    style: ratatui::style::Style,
    width: u16,
    dim: ratatui::style::Style,
) -> Vec<Line<'static>> {
    markdown::wrap(
        &[Span::styled(text, style)],
        usize::from(width.max(1)),
        "",
        "",
        dim,
    )
}

/// The texts of one layout: those the last one wrapped, and those this one used.
struct Texts {
    last: HashMap<String, Rc<[Line<'static>]>>,
    used: HashMap<String, Rc<[Line<'static>]>>,
}

impl Texts {
    /// The lines of `src`, from the last layout or made now by `make`.
    fn get(&mut self, src: &str, make: impl FnOnce() -> Vec<Line<'static>>) -> Rc<[Line<'static>]> {
        if let Some(lines) = self.used.get(src) {
            return Rc::clone(lines);
        }
        let (key, lines) = self
            .last
            .remove_entry(src)
            .unwrap_or_else(|| (src.to_owned(), Rc::from(make())));
        self.used.insert(key, Rc::clone(&lines));
        lines
    }
}

impl App {
    pub(crate) fn areas(&self, area: Rect) -> Areas {
        let [body, bar] = area.layout(&Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(self.bar_height(area.width)),
        ]));
        let side_w = match area.width {
            0..100 => 24,
            100..140 => 30,
            _ => 36,
        };
        // Each width class has its own choice: below NARROW_WIDTH the list shows only when
        // asked for in this session; it never comes or goes by itself (entering a block
        // does not reflow the page).
        let shown = if area.width >= NARROW_WIDTH {
            self.sidebar_wide
        } else {
            self.sidebar_narrow && area.width >= 80
        };
        let lesson = matches!(self.base_screen(), Screen::Lesson);
        let (sidebar, main) = if shown && lesson {
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

    /// Rows the key bar takes at `width`: two when a focused block's own keys and the
    /// way out do not fit on one, or for the presenter's keys on a narrow screen (the rest
    /// of the keys are behind `?`).
    fn bar_height(&self, width: u16) -> u16 {
        if matches!(self.base_screen(), Screen::Home { .. }) {
            return 1;
        }
        // The presenter's keys come first and leave the page's keys little room.
        if self.demo && width < 110 {
            return 2;
        }
        if !matches!(self.focus, super::Focus::Block(_)) {
            return 1;
        }
        let hints: usize = self
            .block_hints()
            .iter()
            .map(|h| crate::text::width(h.keys) + crate::text::width(h.what) + 3)
            .sum();
        // The help or way-out key on the right takes about this much.
        if hints + 22 > usize::from(width) {
            2
        } else {
            1
        }
    }

    /// Is the lesson list hidden only because the window is narrow (below NARROW_WIDTH
    /// columns, where it shows when asked for), on a lesson page where `s` would show it?
    pub fn sidebar_hidden_by_width(&self) -> bool {
        matches!(self.base_screen(), Screen::Lesson)
            && self.size.width < NARROW_WIDTH
            && self.size.width >= 80
            && self.size.height >= MIN_HEIGHT
            && !self.sidebar_visible()
    }

    pub fn sidebar_visible(&self) -> bool {
        self.areas(self.size).sidebar.is_some()
            && self.size.height >= MIN_HEIGHT
            && self.size.width >= MIN_WIDTH
    }

    pub(super) fn content_area(&self) -> Rect {
        self.areas(self.size).content
    }

    /// The current page laid out at `width` columns (worked out once per change).
    pub(crate) fn page_view(&self, width: u16) -> Rc<PageView> {
        let key = ViewKey {
            lesson: self.lesson,
            page: self.page,
            width,
            height: self.content_area().height,
            version: self.blocks.version(),
        };
        let mut cache = self.view.borrow_mut();
        match cache.as_ref() {
            Some(c) if c.key == key => Rc::clone(&c.view),
            _ => {
                let view = Rc::new(self.lay_out_page(width));
                *cache = Some(CachedView {
                    key,
                    view: Rc::clone(&view),
                });
                view
            }
        }
    }

    /// Lay the current page out at `width` columns, with the Markdown the last layout at
    /// this width already wrapped; what this page does not use is dropped.
    fn lay_out_page(&self, width: u16) -> PageView {
        let mut cache = self.texts.borrow_mut();
        let mut last = std::mem::take(&mut cache.texts);
        if cache.width != width {
            last.clear();
            cache.width = width;
        }
        let mut texts = Texts {
            last,
            used: HashMap::new(),
        };
        let view = self.lay_out_page_with(width, &mut texts);
        cache.texts = texts.used;
        view
    }

    fn lay_out_page_with(&self, width: u16, texts: &mut Texts) -> PageView {
        let mut view = PageView::new();
        let Some(entry) = self.current() else {
            view.push_lines(self.no_lessons_lines(width));
            return view;
        };
        let lesson = match &entry.parsed {
            Ok(l) => l,
            Err(e) => {
                view.push_lines(self.broken_lesson_lines(&e.message, width));
                return view;
            }
        };
        let big = self.push_big_title(&mut view, lesson, width);
        if let Some(page) = lesson.pages.get(self.page) {
            self.push_page(&mut view, page, big, width, texts);
        }
        view.trim_end();
        // A block alone on its page takes the room the page leaves (a trace shows more
        // events, a playground's editors grow), so a tall window is not left blank.
        let room = usize::from(self.content_area().height);
        let fills = self.blocks.len() == 1 && self.blocks.widget(0).is_some_and(|w| w.fills_room());
        if fills && view.height < room {
            view.grow_slot(0, room - view.height);
        }
        view
    }

    /// The message shown when there is no lesson to show.
    fn no_lessons_lines(&self, width: u16) -> Vec<Line<'static>> {
        let msg = match &self.load_error {
            Some(e) => format!("The lessons could not be read.\n\n{e}"),
            None => format!("No lessons found in {}.", self.lessons_from),
        };
        wrap_text(msg, self.theme.warn, width, self.theme.dim)
    }

    /// The page of a lesson file that does not parse: the error and how to go on.
    fn broken_lesson_lines(&self, error: &str, width: u16) -> Vec<Line<'static>> {
        let theme = &self.theme;
        let mut lines = vec![
            Line::styled(
                format!("{} This lesson file does not parse", theme.sym.bad),
                theme.bad,
            ),
            Line::default(),
        ];
        for part in error.lines() {
            lines.extend(wrap_text(part.to_owned(), theme.base, width, theme.dim));
        }
        lines.push(Line::default());
        let hint = if self.watching {
            "Fix the file and save it: the lesson reloads by itself."
        } else {
            "Fix the file and start tooldojo again (or run it with --lessons DIR to reload on save)."
        };
        lines.extend(wrap_text(hint.to_owned(), theme.dim, width, theme.dim));
        lines
    }

    /// A heading in big letters, projector layout only: the lesson title on its first
    /// page, the page title on the others, when it fits in the width (on two lines where
    /// the view is tall enough). Returns the text when it was drawn.
    fn push_big_title<'l>(
        &self,
        view: &mut PageView,
        lesson: &'l Lesson,
        width: u16,
    ) -> Option<&'l str> {
        if !self.present || self.theme.ascii {
            return None;
        }
        let title = match self.page {
            0 => lesson.title.trim(),
            p => lesson.pages.get(p)?.title.trim(),
        };
        // Two big lines (nine rows) only where the view keeps room for text beside them.
        let most = if self.content_area().height >= 18 {
            2
        } else {
            1
        };
        let lines = big_lines(title, usize::from(width) / BIG_CELL_WIDTH)?;
        if lines.len() > most {
            return None;
        }
        let h = lines.len() * BIG_CELL_HEIGHT + 1;
        view.push(SegKind::Big(lines), h);
        Some(title)
    }

    /// The page's own title (unless the big title already says it), its text and blocks.
    fn push_page(
        &self,
        view: &mut PageView,
        page: &Page,
        big: Option<&str>,
        width: u16,
        texts: &mut Texts,
    ) {
        let theme = &self.theme;
        let same_as_big = big.is_some_and(|b| b == page.title.trim());
        if !page.title.trim().is_empty() && !same_as_big {
            let title = crate::sanitize::clean(page.title.trim(), false);
            let mut lines = wrap_text(title, theme.heading, width, theme.dim);
            lines.push(Line::default());
            view.push_lines(lines);
        }
        let mut slot = 0;
        let mut step = 0;
        for item in &page.items {
            match item {
                Item::Markdown(src) if self.demo() => {
                    for part in super::present::paragraphs(src) {
                        if self.step_shown(step) {
                            self.push_markdown(view, &part, width, texts);
                        }
                        step += 1;
                    }
                }
                Item::Markdown(src) => self.push_markdown(view, src, width, texts),
                Item::Block(_) => {
                    if slot < self.blocks.len() && self.step_shown(step) {
                        let h = usize::from(self.slot_height(slot, width));
                        view.push(SegKind::Slot(slot), h);
                        view.push_lines(vec![Line::default()]);
                    }
                    slot += 1;
                    step += 1;
                }
            }
        }
    }

    /// Markdown text and the blank line after it.
    fn push_markdown(&self, view: &mut PageView, src: &str, width: u16, texts: &mut Texts) {
        let lines = texts.get(src, || {
            let mut lines = markdown::render(src, width, &self.theme);
            if !lines.is_empty() {
                lines.push(Line::default());
            }
            lines
        });
        if !lines.is_empty() {
            view.push_shared(lines);
        }
    }

    /// Rows a slot takes at `width`.
    pub(crate) fn slot_height(&self, slot: usize, width: u16) -> u16 {
        match self.blocks.slots().get(slot).map(|s| &s.widget) {
            Some(Ok(w)) => w
                .height_for(width, self.content_area().height)
                .clamp(1, MAX_BLOCK_HEIGHT),
            Some(Err(e)) => {
                let inner = usize::from(width.saturating_sub(4).max(1));
                let rows: usize = e
                    .lines()
                    .map(|l| crate::text::width(l).div_ceil(inner).max(1))
                    .sum();
                u16::try_from(rows.max(1) + 2).unwrap_or(MAX_BLOCK_HEIGHT)
            }
            None => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use ratatui::layout::Rect;

    use super::super::{App, Input, Options};
    use crate::content::Content;
    use crate::course::{BlockEnv, Progress, load_lessons};
    use crate::tui::theme::{Theme, ThemeName};

    fn app() -> App {
        let content = Content::embedded();
        let lessons = load_lessons(&content);
        let opts = Options::new(Theme::new(ThemeName::Default, false));
        let env = BlockEnv::new(content, Vec::new(), 0);
        App::new(
            opts,
            env,
            lessons,
            Progress::default(),
            Rect::new(0, 0, 80, 24),
        )
    }

    fn press(app: &mut App, c: char) {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        let _ = app.update(Input::Key(key));
    }

    #[test]
    fn the_page_layout_is_kept_until_something_it_depends_on_changes() {
        let mut app = app();
        let w = app.content_area().width;
        let first = app.page_view(w);
        assert!(
            Rc::ptr_eq(&first, &app.page_view(w)),
            "asked twice, laid out once"
        );
        press(&mut app, 'j');
        assert!(
            Rc::ptr_eq(&first, &app.page_view(w)),
            "scrolling keeps the layout"
        );
        let narrower = app.page_view(w - 10);
        assert!(
            !Rc::ptr_eq(&first, &narrower),
            "another width, another layout"
        );
        let again = app.page_view(w);
        assert!(!Rc::ptr_eq(&narrower, &again));
        press(&mut app, 'n');
        let next = app.page_view(w);
        assert!(!Rc::ptr_eq(&again, &next), "another page, another layout");
        if app.widget_mut(0).is_some() {
            assert!(!Rc::ptr_eq(&next, &app.page_view(w)), "a block touched");
        }
    }

    /// The Markdown segments of a layout, in order.
    fn texts(view: &super::PageView) -> Vec<Rc<[ratatui::text::Line<'static>]>> {
        view.segments
            .iter()
            .filter_map(|s| match &s.kind {
                super::SegKind::Lines(l) if l.len() > 1 => Some(Rc::clone(l)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_block_change_lays_the_page_out_again_with_its_text_as_wrapped() {
        let mut app = app();
        let w = app.content_area().width;
        // A page with a block and text around it.
        while app.slots().is_empty() || texts(&app.page_view(w)).is_empty() {
            let page = app.page();
            press(&mut app, 'n');
            assert_ne!(page, app.page(), "a page with a block and text");
        }
        let before = app.page_view(w);
        let _ = app.widget_mut(0);
        let after = app.page_view(w);
        assert!(!Rc::ptr_eq(&before, &after), "laid out again");
        let (a, b) = (texts(&before), texts(&after));
        assert_eq!(a.len(), b.len());
        // The page title (first) is wrapped again; the Markdown after it is reused.
        let reused = a.iter().zip(&b).skip(1);
        assert!(reused.clone().count() > 0, "the page has Markdown");
        assert!(reused.clone().all(|(x, y)| Rc::ptr_eq(x, y)), "text reused");
        let narrower = app.page_view(w - 10);
        let c = texts(&narrower);
        assert!(
            !a.iter().zip(&c).any(|(x, y)| Rc::ptr_eq(x, y)),
            "rewrapped"
        );
    }

    #[test]
    fn a_reload_lays_the_page_out_again() {
        let mut app = app();
        let w = app.content_area().width;
        let before = app.page_view(w);
        let lessons = load_lessons(&Content::embedded());
        let _ = app.update(Input::Lessons(lessons));
        assert!(!Rc::ptr_eq(&before, &app.page_view(w)));
    }
}
