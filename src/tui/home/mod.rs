//! The home screen: what this is, how long it takes, how far the learner is, where to go
//! next, and the keys that matter. Reads `&App`; the rows it draws are the rows
//! `App::home_entries` offers, in the same order (clicks map through `home_rows`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

use crate::course::LessonState;
use crate::text::width as width_of;
use crate::tui::app::{App, HomeEntry};
use crate::tui::theme::Theme;

mod guide;
mod pages;
use guide::{guide_area, guide_end, key_hint, render_guide};

/// Columns the course map takes at least; a wider window shows the guide to the blocks
/// beside it.
const MAP_W: u16 = 76;
/// The guide needs at least this many columns, and reads best with no more than the most.
const GUIDE_MIN_W: u16 = 36;
const GUIDE_MAX_W: u16 = 56;

/// Rows above the lesson rows: course line, bar, blank, continue, the two notes, blank,
/// the "Lessons" heading.
const HEAD_ROWS: u16 = 8;

/// `about 3 hours` / `about 40 minutes`.
fn duration_words(minutes: u32) -> String {
    if minutes >= 90 {
        format!("about {} hours", (minutes + 30) / 60)
    } else {
        format!("about {minutes} minutes")
    }
}

/// The presenter's clock: `M:SS` for the first hour, then `H:MM:SS`.
pub(crate) fn clock(d: std::time::Duration) -> String {
    let s = d.as_secs();
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h == 0 {
        format!("{m}:{s:02}")
    } else {
        format!("{h}:{m:02}:{s:02}")
    }
}

fn cut(s: &str, width: usize, t: &Theme) -> String {
    crate::text::truncate(s, width, t.sym.ellipsis)
}

/// The lesson's number as its id starts (`06`), else its position.
fn number(app: &App, i: usize) -> String {
    let id = &app.lessons()[i].id;
    let digits: String = id.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() {
        format!("{:02}", i + 1)
    } else {
        digits
    }
}

fn minutes(app: &App, i: usize) -> u32 {
    app.lessons()[i].parsed.as_ref().map_or(0, |l| l.minutes)
}

/// The course line and its bar: lessons, time, done and started, share of time done.
fn course_lines(app: &App, t: &Theme, width: usize) -> [Line<'static>; 2] {
    let n = app.lessons().len();
    let states: Vec<LessonState> = (0..n).map(|i| app.lesson_state(i)).collect();
    let done = states.iter().filter(|s| **s == LessonState::Done).count();
    let started = states
        .iter()
        .filter(|s| **s == LessonState::Started)
        .count();
    let total: u32 = (0..n).map(|i| minutes(app, i)).sum();
    let done_min: u32 = (0..n)
        .filter(|i| states[*i] == LessonState::Done)
        .map(|i| minutes(app, i))
        .sum();
    let d = t.sym.bullet;
    let course = Line::from(vec![
        Span::styled("Course  ", t.heading),
        Span::styled(
            format!(
                "{n} lessons {d} {} {d} {done} done {d} {started} started",
                duration_words(total)
            ),
            t.base,
        ),
    ]);
    let pct = (done_min * 100)
        .checked_div(total)
        .map_or(0, |p| usize::try_from(p).unwrap_or(0));
    let bar_w = width.saturating_sub(8).min(40);
    let full = bar_w * pct / 100;
    let bar = Line::from(vec![
        Span::styled(t.sym.bar_full.repeat(full), t.ok),
        Span::styled(t.sym.bar_empty.repeat(bar_w - full), t.dim),
        Span::styled(format!("  {pct}%"), t.base),
    ]);
    [course, bar]
}

/// `06 get_ticket contract · page 3 of 6 · 2 left`.
fn continue_words(app: &App, i: usize) -> String {
    let entry = &app.lessons()[i];
    let d = app.theme().sym.bullet;
    let mut s = format!("{} {}", number(app, i), entry.title());
    if app.lesson_state(i) == LessonState::Done {
        s.push_str(&format!(" {d} done"));
        return s;
    }
    if !app.has_begun() {
        s.push_str(&format!(
            " {d} {} pages {d} {} min",
            entry.page_count(),
            minutes(app, i)
        ));
        return s;
    }
    if i == app.lesson() {
        s.push_str(&format!(
            " {d} page {} of {}",
            app.page() + 1,
            entry.page_count()
        ));
    }
    let left = app.left_count(i);
    if left > 0 {
        s.push_str(&format!(" {d} {left} left"));
    }
    s
}

/// What is due for review today and how the last drills went, with the key that starts one.
fn review_words(app: &App) -> String {
    let progress = app.progress();
    let due = progress.rehearsal.due_today().len();
    let trend = progress.rehearsal.trend();
    let mut s = match due {
        0 if trend.is_empty() => {
            "R starts a timed drill; missed rows return here when due".to_owned()
        }
        0 => "nothing due today; R starts a timed drill".to_owned(),
        n => format!("{n} due today: R starts a drill that asks them"),
    };
    // The last drills' scores, oldest first, joined by arrows: "last drill 0%", "drills 48%
    // → 0%".
    let sym = &app.theme().sym;
    let last: Vec<String> = trend
        .iter()
        .rev()
        .take(5)
        .rev()
        .map(|p| format!("{p}%"))
        .collect();
    match last.as_slice() {
        [] => {}
        [one] => s.push_str(&format!(" {} last drill {one}", sym.bullet)),
        many => {
            let joined = many.join(&format!(" {} ", sym.arrow));
            s.push_str(&format!(" {} drills {joined}", sym.bullet));
        }
    }
    s
}

/// The state words of lesson `i` in the course map.
fn state_words(app: &App, i: usize) -> (String, ratatui::style::Style) {
    let t = app.theme();
    match app.lesson_state(i) {
        LessonState::Done => (format!("{} done", t.sym.done), t.ok),
        LessonState::Started => {
            let left = app.left_summary(i).unwrap_or_else(|| "started".to_owned());
            (format!("{} {left}", t.sym.in_progress), t.warn)
        }
        LessonState::Todo => (format!("{} to do", t.sym.todo), t.dim),
        LessonState::Broken => (format!("{} does not parse", t.sym.bad), t.bad),
    }
}

/// Screen rows of the home screen's selectable entries: (top row, entry index, rows it
/// takes), for drawing and clicks. A lesson's row takes more than one when what is left of
/// it is wrapped whole (the chosen lesson's always, every lesson's when all of them fit so)
/// and when its pages are named under it. The lesson rows scroll to keep the selection in
/// view.
pub(crate) fn home_rows(app: &App, area: Rect) -> Vec<(u16, usize, u16)> {
    home_layout(app, area)
        .into_iter()
        .map(|(y, e, rows)| (y, e, rows.height()))
        .collect()
}

/// How one lesson's entry is drawn: what is left of it whole (wrapped) or cut to a line,
/// and how many lines under it name its pages (0: none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct EntryRows {
    lines: u16,
    whole: bool,
    pages: u16,
}

impl EntryRows {
    fn height(self) -> u16 {
        self.lines.saturating_add(self.pages)
    }
}

/// The home screen's entries in view: (top row, entry index, how it is drawn). The
/// Continue row is one line that never holds pages.
fn home_layout(app: &App, area: Rect) -> Vec<(u16, usize, EntryRows)> {
    let inner = inner_area(area);
    let entries = app.home_entries();
    let mut out = Vec::new();
    let has_continue = matches!(entries.first(), Some(HomeEntry::Continue(_)));
    if has_continue {
        let one = EntryRows {
            lines: 1,
            whole: false,
            pages: 0,
        };
        out.push((inner.y + 3, 0, one));
    }
    let first_lesson = usize::from(has_continue);
    let top = inner.y + HEAD_ROWS;
    // One row at the bottom for the keys, one blank above it, unless that blank row is all
    // that keeps the last lesson out of view.
    let mut room = inner.bottom().saturating_sub(top).saturating_sub(2);
    let mut rows = lesson_rows(app, area, room);
    if total_height(&rows) > usize::from(room) {
        let taller = lesson_rows(app, area, room + 1);
        if total_height(&taller) <= usize::from(room + 1) {
            (room, rows) = (room + 1, taller);
        }
    }
    let heights: Vec<u16> = rows.iter().map(|r| r.height()).collect();
    // The chosen lesson in view: the selected one, or the one Continue opens.
    let (skip, count) = rows_in_view(&heights, chosen_lesson(app), room);
    // Pages named below the guide take the whole width, so they may need fewer lines.
    let map_w = map_width(inner);
    let guide_end = guide_end(app.theme(), inner, map_w);
    let mut y = top;
    for (k, r) in rows.iter().enumerate().skip(skip).take(count) {
        let mut r = *r;
        if r.pages > 1 && y.saturating_add(r.lines) >= guide_end {
            let need = pages::page_lines_needed(app, k, usize::from(inner.width));
            r.pages = r.pages.min(u16::try_from(need.max(1)).unwrap_or(u16::MAX));
        }
        out.push((y, first_lesson + k, r));
        y = y.saturating_add(r.height());
    }
    out
}

/// Rows the lesson entries take in all.
fn total_height(rows: &[EntryRows]) -> usize {
    rows.iter().map(|r| usize::from(r.height())).sum()
}

/// How each lesson's entry is drawn in `room` rows: what is left of it wrapped whole where
/// that fits (every lesson's, else the chosen one's), and in a tall window its pages, on a
/// line or as many as they take: the chosen lesson's whole, then the spare rows shared so
/// that as many other lessons as they hold show whole too.
fn lesson_rows(app: &App, area: Rect, room: u16) -> Vec<EntryRows> {
    let inner = inner_area(area);
    let map_w = map_width(inner);
    let w = usize::from(map_w);
    let pages = lesson_row_height(app, area) - 1;
    let entry = |i: usize, whole: bool| EntryRows {
        lines: u16::try_from(lesson_lines(app, i, " ", w, whole).len()).unwrap_or(u16::MAX),
        whole,
        pages,
    };
    let n = app.lessons().len();
    let chosen = chosen_lesson(app).filter(|c| *c < n);
    // Lines beyond the first that lesson `i`'s pages need in `w` columns.
    let extra = |i: usize, w: usize| pages::page_lines_needed(app, i, w).saturating_sub(1);
    let chosen_extra = chosen.filter(|_| pages > 0).map_or(0, |c| extra(c, w));
    let mut rows: Vec<EntryRows> = (0..n).map(|i| entry(i, true)).collect();
    if total_height(&rows) + chosen_extra > usize::from(room) {
        rows = (0..n).map(|i| entry(i, chosen == Some(i))).collect();
    }
    if pages == 0 {
        return rows;
    }
    let room = usize::from(room);
    let mut used = total_height(&rows);
    let mut needs: Vec<usize> = (0..n).map(|i| extra(i, w)).collect();
    // Where the chosen lesson's pages do not fit whole, the lessons farthest from it give
    // up their line of pages.
    if let Some(c) = chosen {
        let mut far: Vec<usize> = (0..n).filter(|k| *k != c).collect();
        far.sort_by_key(|k| std::cmp::Reverse((k.abs_diff(c), *k)));
        for k in far {
            if used + chosen_extra <= room {
                break;
            }
            rows[k].pages = 0;
            needs[k] = 0;
            used -= 1;
        }
    }
    let spare = room.saturating_sub(used);
    let mut given = pages::share_spare(&needs, chosen, spare);
    // Pages named below the guide's last line take the whole width, so they may need fewer
    // lines: where the first share puts them, they are measured again and shared once more.
    let guide_end = guide_end(app.theme(), inner, map_w);
    let mut y = usize::from(inner.y + HEAD_ROWS);
    for (k, r) in rows.iter().enumerate() {
        if r.pages > 0 && y + usize::from(r.lines) >= usize::from(guide_end) {
            needs[k] = extra(k, usize::from(inner.width));
        }
        y += usize::from(r.height()) + given[k];
    }
    given = pages::share_spare(&needs, chosen, spare);
    for (r, g) in rows.iter_mut().zip(given) {
        r.pages = r.pages.saturating_add(u16::try_from(g).unwrap_or(0));
    }
    rows
}

/// The lesson chosen on the home screen: the selected lesson, or the one Start or Continue
/// opens when that is selected.
fn chosen_lesson(app: &App) -> Option<usize> {
    match app.home_entries().get(app.home_sel()) {
        Some(HomeEntry::Continue(i) | HomeEntry::Lesson(i)) => Some(*i),
        None => None,
    }
}

/// Which of a list of rows, each `heights[k]` screen rows tall, show in `room` rows with row
/// `chosen` in view: the first shown and how many. The list shows from its top unless the
/// chosen row would fall below the room; at least one row shows.
pub(crate) fn rows_in_view(heights: &[u16], chosen: Option<usize>, room: u16) -> (usize, usize) {
    let room = usize::from(room);
    let mut first = 0;
    if let Some(c) = chosen.filter(|c| *c < heights.len()) {
        let mut used: usize = heights[..=c].iter().map(|h| usize::from(*h)).sum();
        while first < c && used > room {
            used -= usize::from(heights[first]);
            first += 1;
        }
    }
    let mut used = 0;
    let mut count = 0;
    for h in &heights[first..] {
        used += usize::from(*h);
        if used > room && count > 0 {
            break;
        }
        count += 1;
    }
    (first, count)
}

/// Rows each lesson takes in the list: two (its pages under its title) when the window
/// is tall enough for every lesson that way, else one.
fn lesson_row_height(app: &App, area: Rect) -> u16 {
    let inner = inner_area(area);
    let lessons = u16::try_from(app.lessons().len()).unwrap_or(u16::MAX);
    let two = HEAD_ROWS
        .saturating_add(lessons.saturating_mul(2))
        .saturating_add(2);
    if inner.height >= two { 2 } else { 1 }
}

/// Columns the course map takes of `inner`: all of them, or in a wide window what the guide
/// beside it leaves (the guide takes up to GUIDE_MAX_W).
fn map_width(inner: Rect) -> u16 {
    if inner.width >= MAP_W + 2 + GUIDE_MIN_W {
        let guide_w = (inner.width - MAP_W - 2).min(GUIDE_MAX_W);
        inner.width - guide_w - 2
    } else {
        inner.width
    }
}

fn inner_area(area: Rect) -> Rect {
    Rect {
        x: area.x + 3,
        y: area.y + 2,
        width: area.width.saturating_sub(6),
        height: area.height.saturating_sub(3),
    }
}

/// The frame's title: the whole motto where it fits on the top border, else the name.
fn frame_title(width: u16) -> &'static str {
    const FULL: &str = " tooldojo: never trust a tool call a model proposes ";
    if width_of(FULL) + 4 <= usize::from(width) {
        FULL
    } else {
        " tooldojo "
    }
}

/// Draw the home screen into `area` (everything above the key bar).
pub(crate) fn render_home(app: &App, area: Rect, buf: &mut Buffer) {
    let t = app.theme();
    let mut frame = Block::default()
        .borders(Borders::ALL)
        .border_set(t.sym.border)
        .border_style(t.border)
        .title(Line::styled(frame_title(area.width), t.heading));
    if app.demo() {
        let clock = format!(" presenting {} {} ", t.sym.bullet, clock(app.elapsed()));
        frame = frame.title(Line::styled(clock, t.accent).right_aligned());
    }
    frame.render(area, buf);
    let inner = inner_area(area);
    if inner.width < 10 || inner.height < 6 {
        return;
    }
    let map_w = map_width(inner);
    if let Some(guide) = guide_area(inner, map_w) {
        render_guide(t, guide, buf);
    }
    // The row under the guide's last line: below it the map may take the whole width.
    let guide_end = guide_end(t, inner, map_w);
    let w = usize::from(map_w);
    let put = |buf: &mut Buffer, y: u16, line: &Line| {
        if y < inner.bottom() {
            buf.set_line(inner.x, y, line, map_w);
        }
    };
    let [course, bar] = course_lines(app, t, w);
    put(buf, inner.y, &course);
    put(buf, inner.y + 1, &bar);
    let note = |label: &str, text: &str| {
        Line::from(vec![
            Span::styled(format!("  {label:<10} "), t.dim),
            Span::styled(cut(text, w.saturating_sub(13), t), t.dim),
        ])
    };
    put(buf, inner.y + 4, &note("Review", &review_words(app)));
    let room = w.saturating_sub(13);
    let also = match app.audit_log_name() {
        Some(log) => {
            let full = format!("A audits {log}; T traps your own tools; P grades your own code");
            let short = format!("A audits {log}; T your tools; P your code");
            if crate::text::width(&full) <= room {
                full
            } else {
                short
            }
        }
        None => [
            "P grades your own code live; T traps your own tools; A audits an example log; \
             tooldojo play NAME plays a run",
            "P grades your code; T traps your tools; A audits an example log; tooldojo play NAME",
            "P your code; T your tools; A example log; tooldojo play NAME",
        ]
        .into_iter()
        .find(|w| crate::text::width(w) <= room)
        .unwrap_or("P your code; T your tools; A example log")
        .to_owned(),
    };
    put(buf, inner.y + 5, &note("Also", &also));
    let rows = home_rows(app, area);
    put(buf, inner.y + 7, &lessons_heading(app, &rows));
    draw_entries(app, area, buf, map_w, guide_end);
    if let Some(&(last, _, h)) = rows.last() {
        let under = last + h + 1;
        let width = if under >= guide_end {
            inner.width
        } else {
            map_w
        };
        pages::draw_chosen_pages(app, area, buf, width, last + h);
    }
    put(buf, inner.bottom().saturating_sub(1), &key_hint(t, w));
}

/// The heading over the lesson rows, with how many lessons the list scrolls past above
/// and below it (`Lessons  3 more above, 5 more below`) and the key that brings them.
fn lessons_heading(app: &App, rows: &[(u16, usize, u16)]) -> Line<'static> {
    let t = app.theme();
    let entries = app.home_entries();
    let first_lesson = usize::from(matches!(entries.first(), Some(HomeEntry::Continue(_))));
    let shown: Vec<usize> = (rows.iter())
        .map(|(_, e, _)| *e)
        .filter(|e| *e >= first_lesson)
        .collect();
    let above = shown.first().map_or(0, |e| e - first_lesson);
    let below = entries.len() - shown.last().map_or(first_lesson, |e| e + 1);
    let mut heading = vec![Span::styled("Lessons", t.heading)];
    // The key that brings them: Tab goes down the list, Shift-Tab up it.
    let words = match (above, below) {
        (0, 0) => None,
        (0, b) => Some(format!("{b} more below {} Tab", t.sym.arrow)),
        (a, 0) => Some(format!("{a} more above {} Shift-Tab", t.sym.arrow)),
        (a, b) => Some(format!(
            "{a} more above, {b} more below {} Shift-Tab/Tab",
            t.sym.arrow
        )),
    };
    if let Some(words) = words {
        heading.push(Span::styled(format!("  {words}"), t.dim));
    }
    Line::from(heading)
}

/// The Continue row and the lesson rows, the selected one marked; `guide_end` is the row
/// under the guide's last line.
fn draw_entries(app: &App, area: Rect, buf: &mut Buffer, map_w: u16, guide_end: u16) {
    let w = usize::from(map_w);
    let t = app.theme();
    let inner = inner_area(area);
    let entries = app.home_entries();
    for (y, e, rows) in home_layout(app, area) {
        let selected = e == app.home_sel();
        let pointer = if selected { t.sym.pointer } else { " " };
        let mut lines = match entries[e] {
            HomeEntry::Continue(i) => vec![Line::from(vec![
                Span::styled(format!("{pointer} "), t.accent),
                Span::styled(
                    format!(
                        "{:<10} ",
                        if app.has_begun() { "Continue" } else { "Start" }
                    ),
                    t.heading,
                ),
                Span::styled(
                    cut(&continue_words(app, i), w.saturating_sub(13), t),
                    t.base,
                ),
            ])],
            HomeEntry::Lesson(i) => lesson_lines(app, i, pointer, w, rows.whole),
        };
        let marked = lines.len();
        // Pages named below the guide's last line take the whole width.
        let pages_y = y.saturating_add(u16::try_from(marked).unwrap_or(u16::MAX));
        let pages_w = if pages_y >= guide_end {
            inner.width
        } else {
            map_w
        };
        if let HomeEntry::Lesson(i) = entries[e]
            && rows.pages > 0
        {
            lines.extend(pages::pages_lines(app, i, usize::from(pages_w), rows.pages));
        }
        for (k, line) in lines.iter().enumerate() {
            let y = y.saturating_add(u16::try_from(k).unwrap_or(u16::MAX));
            if y >= inner.bottom().saturating_sub(1) {
                break;
            }
            let width = if k < marked { map_w } else { pages_w };
            buf.set_line(inner.x, y, line, width);
            if selected && k < marked {
                buf.set_style(Rect::new(inner.x, y, map_w, 1), t.selected);
            }
        }
    }
}

/// Columns of the title column in a list `w` wide: as wide as the longest title, but at
/// least 12 and leaving what is left of a lesson [`STATE_MIN`] columns beside it.
fn title_width(app: &App, w: usize) -> usize {
    let longest = (0..app.lessons().len())
        .map(|i| width_of(&app.lessons()[i].title()))
        .max()
        .unwrap_or(0);
    // The pointer, the number and the minutes around the title: `▶ 06 TITLE 15 min  `.
    let most = w.saturating_sub(HEAD_FIXED + STATE_MIN).max(12);
    longest.clamp(12, most)
}

/// Columns of a lesson row besides its title and its state: `▶ 06 `, ` 15 min  `.
const HEAD_FIXED: usize = 14;
/// Columns a lesson row keeps for what is left of it beside a long title.
const STATE_MIN: usize = 24;

/// `▶ 06 get_ticket contract     12 min  ◐ 2 left: predict rows 4-8`: what is left cut to
/// the row, or (`whole`) wrapped under itself on as many rows as it needs.
fn lesson_lines(app: &App, i: usize, pointer: &str, w: usize, whole: bool) -> Vec<Line<'static>> {
    let t = app.theme();
    let title_w = title_width(app, w);
    let title = cut(&app.lessons()[i].title(), title_w, t);
    let (state, style) = state_words(app, i);
    let head = format!(
        "{pointer} {} {title:<title_w$} {:>3} min  ",
        number(app, i),
        minutes(app, i)
    );
    let head_w = width_of(&head);
    let room = w.saturating_sub(head_w);
    let parts = if whole && room >= 8 {
        crate::text::wrap_keeping_groups(&state, room)
    } else {
        vec![cut(&state, room, t)]
    };
    parts
        .into_iter()
        .enumerate()
        .map(|(k, part)| {
            let lead = if k == 0 {
                head.clone()
            } else {
                " ".repeat(head_w)
            };
            Line::from(vec![Span::styled(lead, t.base), Span::styled(part, style)])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_hours_from_ninety_minutes() {
        assert_eq!(duration_words(40), "about 40 minutes");
        assert_eq!(duration_words(170), "about 3 hours");
    }

    #[test]
    fn the_presenter_clock_shows_seconds_until_an_hour() {
        use std::time::Duration;
        assert_eq!(clock(Duration::from_millis(999)), "0:00");
        assert_eq!(clock(Duration::from_secs(12)), "0:12");
        assert_eq!(clock(Duration::from_secs(59 * 60 + 59)), "59:59");
        assert_eq!(clock(Duration::from_secs(3600 + 59)), "1:00:59");
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
    }
}
