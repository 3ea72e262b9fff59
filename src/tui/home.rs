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
    if !trend.is_empty() {
        let last: Vec<String> = trend
            .iter()
            .rev()
            .take(5)
            .rev()
            .map(|p| format!("{p}%"))
            .collect();
        s.push_str(&format!(
            " {} drills {}",
            app.theme().sym.bullet,
            last.join(" ")
        ));
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
/// it is wrapped whole: the chosen lesson's always, every lesson's when all of them fit so.
/// The lesson rows scroll to keep the selection in view.
pub(crate) fn home_rows(app: &App, area: Rect) -> Vec<(u16, usize, u16)> {
    let inner = inner_area(area);
    let entries = app.home_entries();
    let mut out = Vec::new();
    let has_continue = matches!(entries.first(), Some(HomeEntry::Continue(_)));
    if has_continue {
        out.push((inner.y + 3, 0, 1));
    }
    let first_lesson = usize::from(has_continue);
    let top = inner.y + HEAD_ROWS;
    // One row at the bottom for the keys, one blank above it.
    let room = inner.bottom().saturating_sub(top).saturating_sub(2);
    let heights = lesson_heights(app, area, room);
    // The chosen lesson in view: the selected one, or the one Continue opens.
    let (skip, count) = rows_in_view(&heights, chosen_lesson(app), room);
    let mut y = top;
    for (k, h) in heights.iter().enumerate().skip(skip).take(count) {
        out.push((y, first_lesson + k, *h));
        y = y.saturating_add(*h);
    }
    out
}

/// Rows each lesson's entry takes in `room` rows: its line, what is left of it wrapped
/// whole where that is shown, and the line of its pages in a tall window.
fn lesson_heights(app: &App, area: Rect, room: u16) -> Vec<u16> {
    let w = usize::from(map_width(inner_area(area)));
    let step = lesson_row_height(app, area);
    let rows = |i: usize, whole: bool| {
        let lines = u16::try_from(lesson_lines(app, i, " ", w, whole).len()).unwrap_or(u16::MAX);
        lines.saturating_add(step - 1)
    };
    let n = app.lessons().len();
    let all_whole: Vec<u16> = (0..n).map(|i| rows(i, true)).collect();
    if all_whole.iter().map(|h| usize::from(*h)).sum::<usize>() <= usize::from(room) {
        return all_whole;
    }
    let chosen = chosen_lesson(app);
    (0..n).map(|i| rows(i, chosen == Some(i))).collect()
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

/// The pages of lesson `i`, by title, for the line under it in a tall window.
fn pages_line(app: &App, i: usize, w: usize) -> Line<'static> {
    let t = app.theme();
    let Ok(lesson) = &app.lessons()[i].parsed else {
        return Line::default();
    };
    // A first page named as the lesson is not named twice.
    let titles: Vec<String> = lesson
        .pages
        .iter()
        .filter(|p| !p.title.eq_ignore_ascii_case(&lesson.title))
        .map(|p| crate::sanitize::clean(&p.title, false))
        .collect();
    let text = titles.join(&format!(" {} ", t.sym.bullet));
    Line::styled(
        format!("       {}", cut(&text, w.saturating_sub(7), t)),
        t.dim,
    )
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
    if map_w < inner.width {
        let guide = Rect {
            x: inner.x + map_w + 2,
            y: inner.y + 3,
            width: inner.width - map_w - 2,
            height: inner.height.saturating_sub(5),
        };
        render_guide(t, guide, buf);
    }
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
        None => {
            let full = "P grades your own code live; T traps your own tools; tooldojo play NAME plays a run";
            let short = "P grades your code; T traps your tools; tooldojo play NAME";
            if crate::text::width(full) <= room {
                full
            } else {
                short
            }
            .to_owned()
        }
    };
    put(buf, inner.y + 5, &note("Also", &also));
    let rows = home_rows(app, area);
    let hidden = app.home_entries().len() - rows.last().map_or(0, |(_, e, _)| e + 1);
    let mut heading = vec![Span::styled("Lessons", t.heading)];
    if hidden > 0 {
        heading.push(Span::styled(
            format!("  {hidden} more below {} Tab", t.sym.arrow),
            t.dim,
        ));
    }
    put(buf, inner.y + 7, &Line::from(heading));
    draw_entries(app, area, buf, map_w);
    if let Some(&(last, _, h)) = rows.last() {
        draw_chosen_pages(app, area, buf, map_w, last + h);
    }
    put(buf, inner.bottom().saturating_sub(1), &key_hint(t, w));
}

/// In a window taller than the list but short of a line of pages under every lesson, the
/// room under the list (which ends above row `end`) names the pages of the chosen lesson
/// (the one Start or Continue opens, when that is chosen), one a line.
fn draw_chosen_pages(app: &App, area: Rect, buf: &mut Buffer, map_w: u16, end: u16) {
    let t = app.theme();
    let inner = inner_area(area);
    // A blank row under the list and above the keys.
    let top = end + 1;
    let bottom = inner.bottom().saturating_sub(2);
    if lesson_row_height(app, area) != 1 || bottom < top + 3 {
        return;
    }
    let Some(i) = chosen_lesson(app) else {
        return;
    };
    let Ok(lesson) = &app.lessons()[i].parsed else {
        return;
    };
    let w = usize::from(map_w);
    let heading = format!("Pages of {} {}", number(app, i), lesson.title);
    let mut lines = vec![Line::styled(
        cut(&crate::sanitize::clean(&heading, false), w, t),
        t.heading,
    )];
    let room = usize::from(bottom - top);
    let titles: Vec<String> = (lesson.pages.iter().enumerate())
        .map(|(k, p)| format!("{} {}", k + 1, crate::sanitize::clean(&p.title, false)))
        .collect();
    if titles.len() < room {
        // One a line.
        for title in &titles {
            lines.push(Line::styled(cut(&format!("  {title}"), w, t), t.dim));
        }
    } else {
        // Else one after another, as many lines as there is room for.
        let text = titles.join(&format!(" {} ", t.sym.bullet));
        let mut wrapped = crate::text::wrap(&text, w.saturating_sub(2).max(8));
        if wrapped.len() >= room {
            wrapped.truncate(room - 1);
            if let Some(l) = wrapped.last_mut() {
                l.push_str(&format!(" {}", t.sym.ellipsis));
            }
        }
        for l in wrapped {
            lines.push(Line::styled(cut(&format!("  {l}"), w, t), t.dim));
        }
    }
    for (dy, line) in lines.iter().enumerate() {
        let y = top + u16::try_from(dy).unwrap_or(u16::MAX);
        buf.set_line(inner.x, y, line, map_w);
    }
}

/// The keys that matter, in as many whole words as `w` columns hold: the longest
/// wording that fits, never a word cut.
fn key_hint(t: &Theme, w: usize) -> Line<'static> {
    let wordings: [&[(&str, &str)]; 4] = [
        &[
            ("Tab", "moves"),
            ("Enter", "opens"),
            ("Esc", "goes back (from a lesson, here)"),
            ("?", "every key"),
        ],
        &[
            ("Tab", "moves"),
            ("Enter", "opens"),
            ("Esc", "back"),
            ("?", "keys"),
        ],
        &[("Tab", "moves"), ("Enter", "opens"), ("?", "keys")],
        &[("Tab", "moves"), ("Enter", "opens")],
    ];
    let width = |keys: &[(&str, &str)]| -> usize {
        keys.iter()
            .map(|(k, what)| width_of(k) + 1 + width_of(what))
            .sum::<usize>()
            + 2 * keys.len().saturating_sub(1)
    };
    let keys = wordings.into_iter().find(|k| width(k) <= w).unwrap_or(&[]);
    let mut spans = Vec::new();
    for (n, (k, what)) in keys.iter().enumerate() {
        if n > 0 {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled((*k).to_owned(), t.key));
        spans.push(Span::styled(format!(" {what}"), t.dim));
    }
    Line::from(spans)
}

/// The Continue row and the lesson rows, the selected one marked.
fn draw_entries(app: &App, area: Rect, buf: &mut Buffer, map_w: u16) {
    let w = usize::from(map_w);
    let t = app.theme();
    let inner = inner_area(area);
    let entries = app.home_entries();
    let two = lesson_row_height(app, area) == 2;
    for (y, e, h) in home_rows(app, area) {
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
            HomeEntry::Lesson(i) => lesson_lines(app, i, pointer, w, h > 1 + u16::from(two)),
        };
        let marked = lines.len();
        if let HomeEntry::Lesson(i) = entries[e]
            && two
        {
            lines.push(pages_line(app, i, w));
        }
        for (k, line) in lines.iter().enumerate() {
            let y = y.saturating_add(u16::try_from(k).unwrap_or(u16::MAX));
            if y >= inner.bottom().saturating_sub(1) {
                break;
            }
            buf.set_line(inner.x, y, line, map_w);
            if selected && k < marked {
                buf.set_style(Rect::new(inner.x, y, map_w, 1), t.selected);
            }
        }
    }
}

/// What each kind of block asks of the learner, beside the map on a wide window.
const GUIDE: &[(&str, &str)] = &[
    (
        "predict",
        "guess how the real code judges each row, then reveal what it returns",
    ),
    (
        "playground",
        "edit a call's arguments and switch a check off: which rows flip?",
    ),
    ("trace", "play a real orchestrator run, event by event"),
    ("quiz", "pick an answer; every choice explains itself"),
    ("explain", "answer in your own words, then compare"),
    ("checklist", "tick what you can now do"),
];

/// The guide to a lesson's blocks and to when they are done.
fn render_guide(t: &Theme, area: Rect, buf: &mut Buffer) {
    let w = usize::from(area.width);
    let mut lines = vec![Line::styled("How a lesson works", t.heading)];
    let intro = "Read a page, then use its blocks: Tab reaches the next one, Enter goes in, Esc comes back out.";
    lines.extend(
        crate::text::wrap(intro, w)
            .into_iter()
            .map(|l| Line::styled(l, t.base)),
    );
    lines.push(Line::default());
    for (kind, what) in GUIDE {
        for (n, part) in crate::text::wrap(what, w.saturating_sub(12))
            .into_iter()
            .enumerate()
        {
            let label = if n == 0 { *kind } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!("{label:<11} "), t.accent),
                Span::styled(part, t.base),
            ]));
        }
    }
    lines.push(Line::default());
    let rule = format!(
        "A block is done when its frame says {} done; a lesson, when every page has been opened and every block is done.",
        t.sym.ok
    );
    lines.extend(
        crate::text::wrap(&rule, w)
            .into_iter()
            .map(|l| Line::styled(l, t.dim)),
    );
    for (n, line) in lines.iter().take(usize::from(area.height)).enumerate() {
        let y = area.y + u16::try_from(n).unwrap_or(0);
        buf.set_line(area.x, y, line, area.width);
    }
}

/// `▶ 06 get_ticket contract     12 min  ◐ 2 left: predict rows 4-8`: what is left cut to
/// the row, or (`whole`) wrapped under itself on as many rows as it needs.
fn lesson_lines(app: &App, i: usize, pointer: &str, w: usize, whole: bool) -> Vec<Line<'static>> {
    let t = app.theme();
    let title_w = (w / 3).clamp(12, 40);
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
        crate::text::wrap(&state, room)
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
