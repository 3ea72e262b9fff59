//! Drawing. Everything here reads `&App` and writes into a `Buffer`; nothing mutates state.
//! The same code draws the terminal and `tooldojo render`'s text frames.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::course::LessonState;
use crate::text::{truncate, width as width_of};
use crate::tui::app::{App, Focus, MIN_HEIGHT, MIN_WIDTH, Overlay, Screen};
use crate::tui::draw::{above_mark, bordered, centered, popup};
use crate::tui::theme::Theme;

/// Draw the whole app into a frame.
pub fn draw(frame: &mut ratatui::Frame, app: &App) {
    let area = frame.area();
    app.render(area, frame.buffer_mut());
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = &self.theme();
        if area.width == 0 || area.height == 0 {
            return;
        }
        // Text cleaned while this frame is drawn gets stand-ins in the theme's characters.
        let _stand_ins = crate::sanitize::AsciiStandIns::new(t.ascii);
        buf.set_style(area, t.base);
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            render_too_small(area, buf, t);
            return;
        }
        // The one place drawing follows the screen on top.
        match self.screen() {
            Screen::Drill(drill) => drill.render(area, buf, t, self.present()),
            Screen::Practice(practice) => practice.render(area, buf, t, self.present()),
            Screen::Audit(audit) => audit.render(area, buf, t, self.present()),
            Screen::Tools(tools) => tools.render(area, buf, t, self.present()),
            Screen::Player(p) => crate::tui::player::frame::render(p, area, buf, t, self.present()),
            Screen::Home { .. } => {
                let areas = self.areas(area);
                crate::tui::home::render_home(self, areas.main, buf);
                self.render_chrome(area, areas.main, areas.bar, buf);
            }
            Screen::Lesson => {
                let areas = self.areas(area);
                if let Some(side) = areas.sidebar {
                    render_sidebar(self, side, buf);
                }
                render_main(self, areas.main, areas.content, buf);
                self.render_chrome(area, areas.main, areas.bar, buf);
            }
        }
    }
}

impl App {
    /// The key bar and the overlay over the home screen and the lesson pages. The help
    /// sits in the middle of the page's pane (`main`, the lesson list beside it left
    /// alone) when it fits there, else of the whole screen.
    fn render_chrome(&self, area: Rect, main: Rect, bar: Rect, buf: &mut Buffer) {
        crate::tui::keybar::render_bar(self, bar, buf);
        match &self.overlay() {
            Some(Overlay::Help) => super::help::render_help(self, main, area, buf),
            Some(Overlay::Notice(msg)) => render_notice(msg, self.theme(), area, buf),
            None => {}
        }
    }
}

fn render_too_small(area: Rect, buf: &mut Buffer, t: &Theme) {
    let full = format!(
        "Terminal {}x{} is too small: tooldojo needs at least {MIN_WIDTH}x{MIN_HEIGHT}.",
        area.width, area.height
    );
    let text = [
        full,
        format!(
            "Too small ({}x{}): need {MIN_WIDTH}x{MIN_HEIGHT}",
            area.width, area.height
        ),
        format!("Need {MIN_WIDTH}x{MIN_HEIGHT}"),
        format!("{MIN_WIDTH}x{MIN_HEIGHT}"),
    ]
    .into_iter()
    .find(|t| width_of(t) <= usize::from(area.width))
    .unwrap_or_else(|| "!".to_owned());
    let y = area.y + area.height / 2;
    let line = Line::styled(text, t.warn);
    buf.set_line(area.x, y, &line, area.width);
}

/// Screen rows of the sidebar entries: (row, lesson index). Used for drawing and clicks.
pub(crate) fn sidebar_rows(app: &App, area: Rect) -> Vec<(u16, usize)> {
    sidebar_entries(app, area)
        .into_iter()
        .map(|(row, i, _)| (row, i))
        .collect()
}

/// The entries the list shows: (title row, lesson index, status rows). When every lesson
/// fits with its status wrapped whole, each takes the rows it needs; otherwise the chosen
/// one (the open lesson, or the one selected in the list) still does, each other takes two
/// (title and a status cut to one row), and the list scrolls to keep the chosen one.
fn sidebar_entries(app: &App, area: Rect) -> Vec<(u16, usize, Vec<Line<'static>>)> {
    let inner_h = usize::from(area.height.saturating_sub(2));
    let w = usize::from(sidebar_text_width(area.width.saturating_sub(2)));
    let n = app.lessons().len();
    let whole: Vec<_> = (0..n).map(|i| status_rows(app, i, w, true)).collect();
    let sel = if app.focus() == Focus::Sidebar {
        app.sidebar_sel()
    } else {
        app.lesson()
    };
    let statuses: Vec<Vec<Line<'static>>> =
        if whole.iter().map(|s| 1 + s.len()).sum::<usize>() <= inner_h {
            whole
        } else {
            whole
                .into_iter()
                .enumerate()
                .map(|(i, status)| {
                    if i == sel {
                        // The title row and at least one other row of the list stay.
                        let mut status = status;
                        status.truncate(inner_h.saturating_sub(2).max(1));
                        status
                    } else {
                        status_rows(app, i, w, false)
                    }
                })
                .collect()
        };
    let heights: Vec<u16> = statuses
        .iter()
        .map(|s| u16::try_from(1 + s.len()).unwrap_or(u16::MAX))
        .collect();
    let room = u16::try_from(inner_h).unwrap_or(u16::MAX);
    let (first, count) = crate::tui::home::rows_in_view(&heights, Some(sel), room);
    let mut y = area.y + 1;
    statuses
        .into_iter()
        .enumerate()
        .skip(first)
        .take(count)
        .map(|(i, status)| {
            let row = y;
            y = y.saturating_add(heights[i]);
            (row, i, status)
        })
        .collect()
}

/// The status of lesson `i` in a list `w` cells wide: its mark and word (or what is left),
/// then its study time. With `wrap` it takes as many rows as it needs; without, one row, cut.
fn status_rows(app: &App, i: usize, w: usize, wrap: bool) -> Vec<Line<'static>> {
    let t = &app.theme();
    let entry = &app.lessons()[i];
    let (mark, word, style) = match app.lesson_state(i) {
        LessonState::Done => (t.sym.done, "done", t.ok),
        LessonState::Started => (t.sym.in_progress, "", t.warn),
        LessonState::Todo => (t.sym.todo, "to do", t.dim),
        LessonState::Broken => (t.sym.bad, "error", t.bad),
    };
    let word = match word {
        "" => app.left_summary(i).unwrap_or_else(|| "started".to_owned()),
        w => w.to_owned(),
    };
    let minutes = entry
        .parsed
        .as_ref()
        .map(|l| format!(" {} {} min", t.sym.bullet, l.minutes))
        .unwrap_or_default();
    let indent = width_of(t.sym.pointer).max(1) + 1;
    let room = w.saturating_sub(indent);
    let status = format!("{mark} {word}");
    let mut texts = if wrap {
        crate::text::wrap(&status, room.max(1))
    } else {
        vec![truncate(
            &status,
            room.saturating_sub(width_of(&minutes)),
            t.sym.ellipsis,
        )]
    };
    // The study time ends the last row, or takes a row of its own when it does not fit there.
    let last_fits = texts
        .last()
        .is_some_and(|l| width_of(l) + width_of(&minutes) <= room);
    if !wrap || last_fits || minutes.is_empty() {
        let last = texts.len() - 1;
        return texts
            .into_iter()
            .enumerate()
            .map(|(k, text)| {
                let mut spans = vec![Span::raw(" ".repeat(indent)), Span::styled(text, style)];
                if k == last {
                    spans.push(Span::styled(minutes.clone(), t.dim));
                }
                Line::from(spans)
            })
            .collect();
    }
    let mut rows: Vec<Line<'static>> = texts
        .drain(..)
        .map(|text| {
            Line::from(vec![
                Span::raw(" ".repeat(indent)),
                Span::styled(text, style),
            ])
        })
        .collect();
    rows.push(Line::from(vec![
        Span::raw(" ".repeat(indent)),
        Span::styled(
            minutes
                .trim_start_matches([' '])
                .trim_start_matches(t.sym.bullet)
                .trim_start()
                .to_owned(),
            t.dim,
        ),
    ]));
    rows
}

/// Columns of text in a lesson list `inner` columns wide: a column inside the right border
/// stays free, unless the list is so narrow that a title would be cut for it.
fn sidebar_text_width(inner: u16) -> u16 {
    if inner >= 24 { inner - 1 } else { inner }
}

fn render_sidebar(app: &App, area: Rect, buf: &mut Buffer) {
    let t = &app.theme();
    let focused = app.focus() == Focus::Sidebar;
    let done = (0..app.lessons().len())
        .filter(|i| app.lesson_state(*i) == LessonState::Done)
        .count();
    let block = bordered(t, focused)
        .title(Line::styled(
            " Lessons ",
            if focused { t.focus } else { t.heading },
        ))
        .title_bottom(Line::styled(
            format!(" {done}/{} done ", app.lessons().len()),
            t.dim,
        ));
    // Lessons scrolled out of the list say so: at 80x24 not all of them fit.
    let entries = sidebar_entries(app, area);
    let above = entries.first().map_or(0, |(_, i, _)| *i);
    let below = entries
        .last()
        .map_or(0, |(_, i, _)| app.lessons().len().saturating_sub(i + 1));
    let mut block = block;
    if above > 0 {
        block = block.title(Line::styled(format!(" {above} above "), t.dim).right_aligned());
    }
    if below > 0 {
        block = block.title_bottom(Line::styled(format!(" {below} more "), t.dim).right_aligned());
    }
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width < 4 {
        return;
    }
    let w = usize::from(sidebar_text_width(inner.width));
    for (row, i, status) in entries {
        let current = i == app.lesson();
        let selected = focused && i == app.sidebar_sel();
        let pointer = if current { t.sym.pointer } else { " " };
        let pw = width_of(pointer).max(1);
        let title = truncate(
            &app.lessons()[i].title(),
            w.saturating_sub(pw + 1),
            t.sym.ellipsis,
        );
        let title_style = if current { t.accent } else { t.base };
        let title_line = Line::from(vec![
            Span::styled(format!("{pointer:<pw$} "), t.accent),
            Span::styled(title, title_style),
        ]);
        let lines = std::iter::once(title_line).chain(status);
        for (k, line) in lines.enumerate() {
            let y = row.saturating_add(u16::try_from(k).unwrap_or(u16::MAX));
            if y >= inner.bottom() {
                break;
            }
            buf.set_line(inner.x, y, &line, inner.width);
            if selected {
                buf.set_style(Rect::new(inner.x, y, inner.width, 1), t.selected);
            }
        }
    }
}

fn render_main(app: &App, main: Rect, content: Rect, buf: &mut Buffer) {
    let t = &app.theme();
    let focused = app.focus() == Focus::Page;
    let (title, pages) = match app.current() {
        Some(e) => (e.title(), e.page_count()),
        None => ("tooldojo".to_owned(), 1),
    };
    let view = app.page_view(content.width);
    let page_label = format!(" page {}/{} ", app.page() + 1, pages);
    // Scrolled down, the top says how much is above and the key back, as the bottom
    // says what is below; it gives way to the title on a narrow window.
    let above = (app.scroll() > 0)
        .then(|| format!(" {} ", above_mark(t.sym.ellipsis, app.scroll(), "k/PgUp")));
    let room = usize::from(main.width)
        .saturating_sub(width_of(&page_label) + 6)
        .max(1);
    let above = above.filter(|a| width_of(&title) + width_of(a) <= room);
    let room = room
        .saturating_sub(above.as_deref().map_or(0, width_of))
        .max(1);
    let mut block = bordered(t, focused).title(Line::styled(
        format!(" {} ", truncate(&title, room, t.sym.ellipsis)),
        if focused { t.focus } else { t.heading },
    ));
    if let Some(above) = above {
        block = block.title(Line::styled(above, t.dim).right_aligned());
    }
    block = block.title(Line::styled(page_label, t.dim).right_aligned());
    let steps = app.step_counter().map(|(shown, total)| {
        let clock = crate::tui::home::clock(app.elapsed());
        format!(" step {shown}/{total} {} {clock} ", t.sym.bullet)
    });
    // A lesson list hidden by a narrow window says so, with the key that shows it.
    // It gives way to what is cut above and below the page.
    let mut hidden = app
        .sidebar_hidden_by_width()
        .then_some(" lessons hidden: s ");
    let vh = usize::from(content.height);
    if view.height > vh {
        let room = usize::from(main.width)
            .saturating_sub(2 + steps.as_deref().map_or(0, width_of))
            .saturating_sub(1);
        let whole = lines_shown(app, view.height, vh, room);
        let beside =
            hidden.map(|h| lines_shown(app, view.height, vh, room.saturating_sub(width_of(h))));
        if beside.as_ref().is_some_and(|b| *b != whole) {
            hidden = None;
        }
        block = block.title_bottom(Line::styled(whole, t.dim).right_aligned());
    }
    if let Some(steps) = steps {
        block = block.title_bottom(Line::styled(steps, t.accent));
    }
    if let Some(hidden) = hidden {
        block = block.title_bottom(Line::styled(hidden, t.dim));
    }
    block.render(main, buf);
    if content.width == 0 || content.height == 0 {
        return;
    }
    crate::tui::page::draw_page(app, &view, content, buf);
}

/// The page's rows in view, for the main pane's bottom border, with what is cut above and
/// below (`more above` left out when `room` is too narrow for it).
fn lines_shown(app: &App, height: usize, vh: usize, room: usize) -> String {
    let first = app.scroll() + 1;
    let last = (app.scroll() + vh).min(height);
    let below = if last < height {
        format!("{} more below", app.theme().sym.arrow)
    } else {
        "end of page".to_owned()
    };
    let long = format!(" lines {first}-{last} of {height}  more above, {below} ");
    if first > 1 && width_of(&long) <= room {
        long
    } else {
        format!(" lines {first}-{last} of {height}  {below} ")
    }
}

fn render_notice(msg: &str, t: &Theme, area: Rect, buf: &mut Buffer) {
    let w = area.width.saturating_sub(8).clamp(10, 70);
    let inner_w = usize::from(w.saturating_sub(4).max(1));
    let rows: usize = msg
        .lines()
        .map(|l| width_of(l).div_ceil(inner_w).max(1) + 1)
        .sum::<usize>()
        + 3;
    let h = u16::try_from(rows)
        .unwrap_or(u16::MAX)
        .min(area.height.saturating_sub(2));
    let r = centered(area, w, h);
    let title = Line::styled(format!(" {} Notice ", t.sym.bad), t.warn);
    let inner = popup(r, buf, t, title, Some("Enter closes"));
    let inner = Rect {
        x: inner.x + 1,
        width: inner.width.saturating_sub(2),
        ..inner
    };
    Paragraph::new(msg.to_owned())
        .style(Style::default().patch(t.base))
        .wrap(Wrap { trim: true })
        .render(inner, buf);
}
