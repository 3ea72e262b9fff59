//! The pages of a lesson, by title, on the home screen: under every lesson's row in a tall
//! window, else under the list for the chosen lesson. Where there is no room for all of a
//! lesson's titles, its last line keeps whole titles and says how many more there are;
//! choosing the lesson names them all.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::{chosen_lesson, cut, inner_area, lesson_row_height, number};
use crate::content::lessons::{Item, Lesson};
use crate::text::width as width_of;
use crate::tui::app::App;
use crate::tui::theme::Theme;

/// Columns the line of a lesson's pages is indented by, under its title.
pub(super) const PAGES_INDENT: usize = 7;

/// The titles of lesson `i`'s pages as named under its row (a first page named as the
/// lesson is not named twice).
fn page_titles(app: &App, i: usize) -> Vec<String> {
    let Ok(lesson) = &app.lessons()[i].parsed else {
        return Vec::new();
    };
    lesson
        .pages
        .iter()
        .filter(|p| !p.title.eq_ignore_ascii_case(&lesson.title))
        .map(|p| crate::sanitize::clean(&p.title, false))
        .collect()
}

/// How many lines the titles of lesson `i`'s pages take, one after another, in the `w`
/// columns under its row.
pub(super) fn page_lines_needed(app: &App, i: usize, w: usize) -> usize {
    wrap_titles(&page_titles(app, i), app.theme().sym.bullet, pages_room(w)).len()
}

/// Columns the titles take under a row `w` columns wide.
fn pages_room(w: usize) -> usize {
    w.saturating_sub(PAGES_INDENT).max(8)
}

/// `titles` one after another, wrapped to `w` columns: each is joined to the next by
/// `bullet`, which stays at the end of a line rather than starting the next one.
fn wrap_titles(titles: &[String], bullet: &str, w: usize) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for (k, title) in titles.iter().enumerate() {
        let mut own: Vec<String> = title.split_whitespace().map(str::to_owned).collect();
        if let Some(last) = own.last_mut().filter(|_| k + 1 < titles.len()) {
            last.push(' ');
            last.push_str(bullet);
        }
        words.extend(own);
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in words {
        if line.is_empty() || width_of(&line) + 1 + width_of(&word) > w {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            // A word longer than a line is split as any wrapped text splits it.
            let mut parts = crate::text::wrap(&word, w);
            line = parts.pop().unwrap_or_default();
            lines.extend(parts);
        } else {
            line.push(' ');
            line.push_str(&word);
        }
    }
    lines.push(line);
    lines
}

/// `titles` one after another, wrapped to `w` columns on at most `rows` lines: all of
/// them where they fit, else as many whole titles as leave room on the last line for how
/// many more there are (`The contract • The signature … 7 more`).
fn fit_titles(
    titles: &[String],
    bullet: &str,
    w: usize,
    rows: usize,
    ellipsis: &str,
) -> Vec<String> {
    let all = wrap_titles(titles, bullet, w);
    if all.len() <= rows || rows == 0 {
        return all;
    }
    for shown in (1..titles.len()).rev() {
        let more = format!("{ellipsis} {} more", titles.len() - shown);
        let mut lines = wrap_titles(&titles[..shown], bullet, w);
        match lines.last_mut() {
            Some(last) if width_of(last) + 1 + width_of(&more) <= w => {
                last.push(' ');
                last.push_str(&more);
            }
            _ => lines.push(more),
        }
        if lines.len() <= rows {
            return lines;
        }
    }
    // Not even the first title fits with the count beside it: it is cut on the last line,
    // the count still after it.
    let mut lines = wrap_titles(&titles[..1], bullet, w);
    let rest = lines.split_off(rows.min(lines.len()) - 1).join(" ");
    let more = match titles.len() {
        1 => String::new(),
        n => format!(" {} more", n - 1),
    };
    let room = w.saturating_sub(width_of(&more));
    let last = if width_of(&rest) + width_of(ellipsis) <= room {
        format!("{rest}{ellipsis}")
    } else {
        crate::text::truncate(&rest, room, ellipsis)
    };
    lines.push(last + &more);
    lines
}

/// The pages of lesson `i`, by title, on `rows` lines under it in a tall window (`w`
/// columns wide): whole when they fit, else whole titles and how many more.
pub(super) fn pages_lines(app: &App, i: usize, w: usize, rows: u16) -> Vec<Line<'static>> {
    let t = app.theme();
    let room = pages_room(w);
    let lines = fit_titles(
        &page_titles(app, i),
        t.sym.bullet,
        room,
        usize::from(rows),
        t.sym.ellipsis,
    );
    lines
        .into_iter()
        .map(|l| {
            Line::styled(
                format!("{}{}", " ".repeat(PAGES_INDENT), cut(&l, room, t)),
                t.dim,
            )
        })
        .collect()
}

/// The lines beyond the first that each lesson's pages get out of `spare` rows, where
/// lesson `k` needs `extra[k]` more to be named whole: the chosen lesson first, then as
/// many other lessons whole as the rest holds (those that need fewest first, so that the
/// most lessons show whole), then what is left one line at a time to those still cut, in
/// the list's order.
pub(super) fn share_spare(extra: &[usize], chosen: Option<usize>, spare: usize) -> Vec<usize> {
    let mut given = vec![0; extra.len()];
    let mut spare = spare;
    if let Some(c) = chosen.filter(|c| *c < extra.len()) {
        given[c] = extra[c].min(spare);
        spare -= given[c];
    }
    let mut order: Vec<usize> = (0..extra.len()).filter(|k| given[*k] < extra[*k]).collect();
    order.sort_by_key(|k| extra[*k]);
    for k in order {
        if extra[k] <= spare {
            given[k] = extra[k];
            spare -= extra[k];
        }
    }
    while spare > 0 {
        let before = spare;
        for k in 0..extra.len() {
            if spare > 0 && given[k] < extra[k] {
                given[k] += 1;
                spare -= 1;
            }
        }
        if spare == before {
            break;
        }
    }
    given
}

/// In a window taller than the list but short of a line of pages under every lesson, the
/// room under the list (which ends above row `end`) names the pages of the chosen lesson
/// (the one Start or Continue opens, when that is chosen), one a line, or one after
/// another in the `map_w` columns it may take (the whole width below the guide).
pub(super) fn draw_chosen_pages(app: &App, area: Rect, buf: &mut Buffer, map_w: u16, end: u16) {
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
        // One a line, and in the rows still free how the lesson begins.
        for title in &titles {
            lines.push(Line::styled(cut(&format!("  {title}"), w, t), t.dim));
        }
        lines.extend(opening_lines(lesson, t, w, room - lines.len()));
    } else {
        // Else one after another, as many lines as there is room for.
        let room_w = w.saturating_sub(2).max(8);
        for l in fit_titles(&titles, t.sym.bullet, room_w, room - 1, t.sym.ellipsis) {
            lines.push(Line::styled(cut(&format!("  {l}"), w, t), t.dim));
        }
    }
    for (dy, line) in lines.iter().enumerate() {
        let y = top + u16::try_from(dy).unwrap_or(u16::MAX);
        buf.set_line(inner.x, y, line, map_w);
    }
}

/// Columns the opening paragraph is wrapped to, at most (a line stays easy to read).
const OPENING_MAX_W: usize = 96;

/// The lesson's opening paragraph (the first prose on its first page), as Markdown; `None`
/// when the page starts with anything else (a heading, a list, a block).
fn opening(lesson: &Lesson) -> Option<&str> {
    let Item::Markdown(md) = lesson.pages.first()?.items.first()? else {
        return None;
    };
    let para = md.trim_start().split("\n\n").next()?.trim();
    let prose = para
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '"' || c == '(');
    prose.then_some(para)
}

/// In `rows` free rows under the chosen lesson's pages: a blank row, a heading and the
/// lesson's opening paragraph, `w` columns wide at most (its last line ends in an ellipsis
/// when it is cut; the lesson shows it whole). Nothing when not one of its lines would fit.
fn opening_lines(lesson: &Lesson, t: &Theme, w: usize, rows: usize) -> Vec<Line<'static>> {
    let Some(para) = opening(lesson).filter(|_| rows >= 3) else {
        return Vec::new();
    };
    let text_w = w.saturating_sub(2).min(OPENING_MAX_W);
    let mut text = crate::tui::markdown::render(para, u16::try_from(text_w).unwrap_or(u16::MAX), t);
    let room = rows - 2;
    if text.len() > room {
        text.truncate(room);
        if let Some(last) = text.last_mut() {
            let words: String = last.spans.iter().map(|s| s.content.as_ref()).collect();
            let style = last.spans.first().map_or(t.base, |s| s.style);
            // The whole words that leave room for a space and the ellipsis after them.
            let room = text_w.saturating_sub(1 + width_of(t.sym.ellipsis));
            let kept = crate::text::wrap(&words, room).into_iter().next();
            let cut_words = format!("{} {}", kept.unwrap_or_default(), t.sym.ellipsis);
            *last = Line::styled(cut_words, style);
        }
    }
    let mut lines = vec![Line::default(), Line::styled("How it begins", t.heading)];
    for line in text {
        let mut spans = vec![Span::raw("  ")];
        spans.extend(line.spans);
        lines.push(Line::from(spans));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titles(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn every_shipped_lesson_opens_with_a_paragraph_and_a_cut_one_ends_in_an_ellipsis() {
        let content = crate::content::Content::embedded();
        let lessons = crate::course::load_lessons(&content).expect("shipped lessons");
        let t = Theme::new(crate::tui::theme::ThemeName::Default, false);
        for entry in &lessons {
            let lesson = entry.parsed.as_ref().expect("a shipped lesson parses");
            let para = opening(lesson).unwrap_or_else(|| panic!("{}: no opening", lesson.id));
            assert!(para.len() > 40 && !para.contains("\n\n"), "{}", lesson.id);
            // Room for all of it: a blank row, the heading, then its words in full.
            let whole = opening_lines(lesson, &t, 60, 40);
            assert_eq!(whole[1].to_string(), "How it begins");
            let words: String = whole[2..].iter().map(|l| format!("{l} ")).collect();
            let first = para.split_whitespace().next().unwrap();
            assert!(
                words.trim_start().starts_with(first),
                "{}: {words}",
                lesson.id
            );
            assert!(!words.contains('…'), "{}: {words}", lesson.id);
            // Room for one of its lines: that line ends in an ellipsis.
            let cut = opening_lines(lesson, &t, 60, 3);
            assert_eq!(cut.len(), 3, "{}", lesson.id);
            let last = cut[2].to_string();
            assert!(last.ends_with(" …"), "{}: {last}", lesson.id);
            // Whole words only, from the start of the paragraph.
            let kept = last.trim_end_matches(" …").trim_start();
            let plain = para.replace('`', "");
            let said: Vec<&str> = plain
                .split_whitespace()
                .take(kept.split(' ').count())
                .collect();
            assert_eq!(kept, said.join(" "), "{}", lesson.id);
            // Fewer rows than that: nothing at all.
            assert!(opening_lines(lesson, &t, 60, 2).is_empty());
        }
    }

    #[test]
    fn a_first_page_that_starts_with_anything_but_prose_has_no_opening() {
        let lesson = |md: &str| Lesson {
            id: "x".into(),
            title: "X".into(),
            minutes: 1,
            file: "x.md".into(),
            pages: vec![crate::content::lessons::Page {
                title: "X".into(),
                items: vec![Item::Markdown(md.into())],
            }],
        };
        assert_eq!(opening(&lesson("- a list\n- of two")), None);
        assert_eq!(opening(&lesson("| a | table |")), None);
        assert_eq!(
            opening(&lesson("\nFirst words here.\n\nSecond paragraph.")),
            Some("First words here.")
        );
    }

    #[test]
    fn titles_that_fit_are_all_named() {
        let t = titles(&["One", "Two", "Three"]);
        assert_eq!(fit_titles(&t, "•", 40, 1, "…"), ["One • Two • Three"]);
    }

    #[test]
    fn titles_that_do_not_fit_end_with_how_many_more() {
        let t = titles(&["The contract", "The signature", "Shape traps", "Recap"]);
        let lines = fit_titles(&t, "•", 40, 1, "…");
        assert_eq!(lines, ["The contract • The signature … 2 more"]);
        let t = titles(&[
            "The contract",
            "The signature",
            "Shape traps",
            "Recap",
            "Edge cases",
        ]);
        let lines = fit_titles(&t, "-", 31, 2, "...");
        assert_eq!(
            lines,
            [
                "The contract - The signature -",
                "Shape traps - Recap ... 1 more"
            ]
        );
    }

    #[test]
    fn a_first_title_too_long_for_its_count_is_cut_before_it() {
        let t = titles(&["Run independent reads together", "Recap", "More"]);
        assert_eq!(
            fit_titles(&t, "•", 24, 1, "…"),
            ["Run independent … 2 more"]
        );
        let t = titles(&["Run independent reads together"]);
        assert_eq!(
            fit_titles(&t, "•", 24, 1, "…"),
            ["Run independent reads t…"]
        );
    }

    #[test]
    fn a_bullet_between_titles_ends_a_line_and_a_long_word_is_split() {
        let t = titles(&["Edge cases", "Try your own", "Recap"]);
        assert_eq!(
            wrap_titles(&t, "•", 27),
            ["Edge cases • Try your own •", "Recap"]
        );
        let t = titles(&["abcdefghijkl", "Recap"]);
        assert_eq!(wrap_titles(&t, "•", 8), ["abcdefgh", "ijkl •", "Recap"]);
    }

    #[test]
    fn the_chosen_lesson_is_whole_first_then_the_most_lessons_whole() {
        // Six spare rows: the chosen lesson's three, then the two that need fewest.
        assert_eq!(share_spare(&[2, 1, 3, 0, 2], Some(2), 6), [2, 1, 3, 0, 0]);
        // What is left after that goes a line at a time to those still cut.
        assert_eq!(share_spare(&[4, 1, 5], Some(1), 4), [2, 1, 1]);
        // More than enough: every lesson whole, the rest unused.
        assert_eq!(share_spare(&[1, 2], None, 9), [1, 2]);
    }
}
