//! The audit screen (`tooldojo audit FILE --tui`, or `A` on the home screen when the app was
//! given a log): the log's conversations listed with their findings, the chosen one's
//! findings and steps under the list (`detail`), and the chosen one
//! played in the trace player, `n` and `p` going to the one after or before (the player's
//! own `[` `]` scrub its time). What it shows
//! comes from the core (`audit::listing`, `audit::source`); here it is only drawn.

mod detail;

use std::cell::RefCell;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::audit::Kind;
use crate::audit::listing::{Listing, Summary};
use crate::audit::source::ConversationSource;
use crate::replay::warn::WarnKind;
use crate::text::{self, fit, plural, thousands, truncate, wrap};
use crate::tui::draw::keybar::{BarKey, Rank, render_keys};
use crate::tui::draw::{self, text_popup};
use crate::tui::keys::{is_char, is_down, is_up, plain};
use crate::tui::player::{Player, PlayerOutcome};
use crate::tui::theme::Theme;

/// What the audit screen asks of the app after a key.
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditUpdate {
    None,
    Redraw,
    Leave,
    Quit,
    Suspend,
    /// Open the lesson that teaches a finding: its id and the page's title.
    Lesson(&'static str, &'static str),
}

/// The list's keys, for its help.
const KEYS: [(&str, &str); 8] = [
    ("j/k Up/Down", "choose a conversation"),
    ("Enter", "play it in the trace player"),
    ("w", "worst first, or back to file order"),
    ("n / p", "in the player: the next or previous conversation"),
    (
        "L",
        "in the player: the lesson of the selected call's finding",
    ),
    ("Esc", "back (from the player: to this list)"),
    ("q", "quit"),
    ("Ctrl-C", "quit now"),
];

/// The keys this screen answers while a conversation plays, for the player's legend (`n`
/// and `p` only when the list holds another).
const PLAYING_KEYS: [(&str, &str); 2] = [
    ("n / p", "the next / previous conversation"),
    ("L", "the lesson of the selected call's finding"),
];

const BAR: [BarKey; 6] = [
    BarKey::new("j/k", "choose", Rank::Focus),
    BarKey::new("Enter", "play", Rank::Focus),
    BarKey::new("w", "worst first", Rank::Rest).brief("w", "worst"),
    BarKey::new("Esc", "back", Rank::Focus),
    BarKey::new("q", "quit", Rank::Always),
    BarKey::new("?", "help", Rank::Always),
];

pub struct AuditScreen {
    listing: Listing,
    /// The list in the order shown (indexes into the listing).
    order: Vec<usize>,
    worst: bool,
    /// The chosen row (an index into `order`).
    sel: usize,
    top: usize,
    /// The conversation playing, and its row.
    playing: Option<(Box<Player>, usize)>,
    /// Why the last conversation could not be opened.
    error: Option<String>,
    help: bool,
    /// The chosen conversation read whole for the detail under the list (by its index
    /// in the listing), or why it could not be.
    chosen: Option<(usize, Result<Box<ConversationSource>, String>)>,
    /// The chosen conversation's lines as last drawn.
    detail: RefCell<detail::Cache>,
    /// The widest label of the line column, and the widest line number in it (`:12`, `#12`).
    widest: (usize, usize),
    /// The list has a line column: some record is not on the line its row number says
    /// (several files, an MCP session over several lines, a blank line or a bad record
    /// before it). Otherwise the row number is the line, and the room goes to findings.
    lines_apart: bool,
    /// Each file's name as the list shows it, with what it shares with the most alike other
    /// (none for a log of one file).
    names: Vec<(String, draw::Shared)>,
    /// Shown to a room (presenter mode): conversations play at a pace a room can follow.
    room: bool,
}

impl AuditScreen {
    /// The list, or straight the player when the log holds one conversation; `room`:
    /// shown to a room (presenter mode).
    pub fn new(listing: Listing, room: bool) -> AuditScreen {
        let order = (0..listing.convs.len()).collect();
        let widest = widest_labels(&listing);
        let names = file_names(&listing);
        let lines_apart = listing.files.len() > 1
            || listing
                .convs
                .iter()
                .enumerate()
                .any(|(i, c)| c.place.line != i + 1);
        let mut s = AuditScreen {
            listing,
            order,
            worst: false,
            sel: 0,
            top: 0,
            playing: None,
            error: None,
            help: false,
            chosen: None,
            detail: RefCell::default(),
            widest,
            lines_apart,
            names,
            room,
        };
        if s.listing.convs.len() == 1 {
            s.play(0);
        } else {
            s.read_chosen();
        }
        s
    }

    /// Read the chosen row's conversation for the detail, unless it is read already.
    fn read_chosen(&mut self) {
        let Some(&i) = self.order.get(self.sel) else {
            self.chosen = None;
            return;
        };
        if self.chosen.as_ref().is_none_or(|(at, _)| *at != i) {
            let read = self.listing.open(i).map(Box::new);
            self.chosen = Some((i, read));
        }
    }

    pub fn listing(&self) -> &Listing {
        &self.listing
    }

    /// The player, when a conversation is playing.
    pub fn player(&self) -> Option<&Player> {
        self.playing.as_ref().map(|(p, _)| p.as_ref())
    }

    pub fn player_mut(&mut self) -> Option<&mut Player> {
        self.playing.as_mut().map(|(p, _)| p.as_mut())
    }

    pub fn animating(&self) -> bool {
        self.player().is_some_and(Player::playing)
    }

    /// Play the conversation of row `row` (false, and the reason shown, when it cannot).
    pub fn play(&mut self, row: usize) -> bool {
        let Some(&i) = self.order.get(row) else {
            return false;
        };
        let opened = self.listing.open(i).and_then(|s| {
            let p = Player::open(&s).map_err(|e| e.to_string())?;
            Ok((s, p))
        });
        match opened {
            Ok((source, mut p)) => {
                self.sel = row;
                p.status = Some(self.where_note(row));
                let skip = usize::from(self.order.len() < 2);
                p.host_keys = PLAYING_KEYS[skip..].to_vec();
                if self.room {
                    // In front of a room: slow enough to tell as it plays.
                    p.pb.set_speed(crate::replay::playback::room_speed(p.tl.end_ms));
                    p.demo = true;
                }
                self.playing = Some((Box::new(p), row));
                // The detail under the list is of the row played, for when the list is back.
                self.chosen = Some((i, Ok(Box::new(source))));
                self.error = None;
                true
            }
            Err(e) => {
                self.error = Some(crate::sanitize::clean(&e, false));
                false
            }
        }
    }

    pub fn on_key(&mut self, key: KeyEvent) -> AuditUpdate {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            return AuditUpdate::Quit;
        }
        if ctrl && key.code == KeyCode::Char('z') {
            return AuditUpdate::Suspend;
        }
        if self.playing.is_some() {
            return self.player_key(key);
        }
        if self.help {
            self.help = false;
            return AuditUpdate::Redraw;
        }
        let last = self.order.len().saturating_sub(1);
        if is_char(&key, '?') {
            self.help = true;
        } else if is_char(&key, 'q') {
            return AuditUpdate::Quit;
        } else if plain(&key, KeyCode::Esc) {
            return AuditUpdate::Leave;
        } else if plain(&key, KeyCode::Enter) {
            self.play(self.sel);
        } else if is_char(&key, 'w') {
            self.worst = !self.worst;
            self.order = if self.worst {
                self.listing.worst_first()
            } else {
                (0..self.listing.convs.len()).collect()
            };
            self.sel = 0;
            self.top = 0;
        } else if is_down(&key) {
            self.sel = (self.sel + 1).min(last);
        } else if is_up(&key) {
            self.sel = self.sel.saturating_sub(1);
        } else if plain(&key, KeyCode::PageDown) {
            self.sel = (self.sel + 10).min(last);
        } else if plain(&key, KeyCode::PageUp) {
            self.sel = self.sel.saturating_sub(10);
        } else if plain(&key, KeyCode::Home) || is_char(&key, 'g') {
            self.sel = 0;
        } else if plain(&key, KeyCode::End) || is_char(&key, 'G') {
            self.sel = last;
        } else {
            return AuditUpdate::None;
        }
        self.read_chosen();
        AuditUpdate::Redraw
    }

    /// What the player's status line says of the conversation playing.
    fn where_note(&self, row: usize) -> String {
        let of = self.order.len();
        let lesson = "L a finding's lesson";
        if of > 1 {
            // The title numbers the conversation in the file; worst first, say the place in the list.
            let place = if self.worst {
                format!("{} of {of} in the list, worst first", row + 1)
            } else {
                format!("conversation {} of {of}", row + 1)
            };
            format!("{place}; n/p another; Esc the list; {lesson}")
        } else {
            format!("{lesson}; Esc back")
        }
    }

    /// A key while a conversation plays: `n` `p` and `L` are the screen's, the rest the
    /// player's; the player's way out comes back to the list (or out, for a log of one).
    fn player_key(&mut self, key: KeyEvent) -> AuditUpdate {
        let Some((p, row)) = self.playing.as_mut() else {
            return AuditUpdate::None;
        };
        let row = *row;
        let legend = p.panel != crate::tui::player::Panel::None;
        if !legend && (is_char(&key, 'n') || is_char(&key, 'p')) {
            let next = if is_char(&key, 'n') {
                row + 1
            } else {
                row.wrapping_sub(1)
            };
            if next < self.order.len() {
                self.play(next);
            }
            return AuditUpdate::Redraw;
        }
        if !legend && is_char(&key, 'L') {
            return self.lesson_of_selected().unwrap_or(AuditUpdate::None);
        }
        match p.handle_key(key) {
            PlayerOutcome::Exit => {
                self.playing = None;
                if self.listing.convs.len() == 1 {
                    AuditUpdate::Leave
                } else {
                    AuditUpdate::Redraw
                }
            }
            PlayerOutcome::Changed => AuditUpdate::Redraw,
            PlayerOutcome::Same => AuditUpdate::None,
            PlayerOutcome::Ignored if is_char(&key, 'q') => AuditUpdate::Quit,
            PlayerOutcome::Ignored => AuditUpdate::None,
        }
    }

    /// The lesson of the selected call's first finding (or of the run's first).
    fn lesson_of_selected(&self) -> Option<AuditUpdate> {
        let p = self.player()?;
        let sel = p.pb.selected;
        let w =
            p.tl.warnings
                .iter()
                .find(|w| sel.is_none() || w.call == sel)?;
        let kind = match w.kind {
            WarnKind::Repaired => Kind::Repaired,
            WarnKind::Finding(name) => Kind::parse(name.trim_end_matches(" (heuristic)"))?,
            _ => return None,
        };
        let lesson = kind.lesson();
        Some(AuditUpdate::Lesson(lesson.id, lesson.page))
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, t: &Theme, present: bool) {
        if let Some((p, _)) = &self.playing {
            crate::tui::player::frame::render(p, area, buf, t, present);
            return;
        }
        let draw::ScreenAreas { head, body, bar } = draw::screen(area, buf, t, present);
        let l = &self.listing;
        let files = match l.files.as_slice() {
            [one] => one.display().to_string(),
            many => format!("{} files", many.len()),
        };
        let title = format!(
            " Audit {} {}",
            draw::dot(t),
            crate::sanitize::clean(&files, false)
        );
        buf.set_line(head.x, head.y, &Line::styled(title, t.heading), head.width);
        let mut pieces = vec![format!(
            "{}, {}",
            plural(l.totals.conversations, "conversation", "conversations"),
            plural(l.totals.calls, "tool call", "tool calls")
        )];
        for (k, n) in l.by_kind() {
            pieces.push(format!("{} {}", k.name(), thousands(n)));
        }
        let lines = pack(
            &pieces,
            draw::dot(t),
            usize::from(head.width).saturating_sub(1),
        );
        // The counts take what they need, up to a third of the body, so none is cut unseen.
        let room = usize::from(body.height / 3).max(1);
        let extra = u16::try_from(lines.len().saturating_sub(1).min(room)).unwrap_or(0);
        for (i, text) in lines.iter().take(usize::from(extra) + 1).enumerate() {
            let text = truncate(&format!(" {text}"), usize::from(head.width), t.sym.ellipsis);
            let y = head.y + 1 + u16::try_from(i).unwrap_or(0);
            buf.set_line(head.x, y, &Line::styled(text, t.dim), head.width);
        }
        let body = Rect {
            y: body.y + extra,
            height: body.height - extra,
            ..body
        };
        self.list(body, buf, t);
        render_keys(&BAR, None, t, bar, buf);
        if self.help {
            let mut text: Vec<String> = KEYS.iter().map(|(k, w)| format!("{k:<9} {w}")).collect();
            text.push(String::new());
            text.extend(wrap(
                "Each call of the log was checked again against the declarations its model \
                 was given. Any key closes this.",
                50,
            ));
            text_popup(area, buf, t, " Keys ", &text);
        }
    }

    /// The list of conversations, the chosen one kept in view.
    fn list(&self, area: Rect, buf: &mut Buffer, t: &Theme) {
        let w = usize::from(area.width);
        let mut lines: Vec<Line> = Vec::new();
        if let Some(e) = &self.error {
            for l in wrap(&format!("Could not play it: {e}"), w) {
                lines.push(Line::styled(l, t.bad));
            }
        }
        let order = if self.worst {
            "worst first"
        } else {
            "in file order"
        };
        let column = self.line_column(w);
        let line = if self.lines_apart {
            format!("{} ", fit("line", column, ""))
        } else {
            String::new()
        };
        lines.push(Line::styled(
            truncate(
                &format!(
                    "  {:>5}  {line}{:<18} {:>5} {:>5}  findings ({order})",
                    "#", "format", "turns", "calls"
                ),
                w,
                t.sym.ellipsis,
            ),
            t.dim,
        ));
        let head = lines.len();
        // The list takes the rows it needs, up to half the area when a detail goes below.
        let mut cache = self.detail.borrow_mut();
        let chosen = self.chosen.as_ref().map(|(i, _)| *i);
        let detail = cache.get(chosen, w, t, || self.detail_lines(w, t));
        let room = if detail.is_empty() {
            usize::from(area.height)
        } else {
            usize::from(area.height / 2).max(head + 3)
        };
        let rows = room.saturating_sub(head + 1).max(1);
        let top = self.sel.saturating_sub(rows - 1).min(self.sel);
        let top = top.max(self.top.min(self.sel));
        for (row, &i) in self.order.iter().enumerate().skip(top).take(rows) {
            lines.push(self.row_line(row, i, (w, column), t));
        }
        let l = &self.listing;
        if l.more > 0 {
            lines.push(Line::styled(
                format!("  ... and {} more not listed", thousands(l.more)),
                t.dim,
            ));
        } else if l.totals.bad_records > 0 {
            let first = l
                .bad
                .first()
                .map(|(p, why)| format!(" (line {}: {why})", p.line));
            let text = format!(
                "  {} could not be read{}",
                plural(l.totals.bad_records, "record", "records"),
                first.unwrap_or_default()
            );
            lines.push(Line::styled(
                truncate(&crate::sanitize::clean(&text, false), w, t.sym.ellipsis),
                t.warn,
            ));
        }
        if self.order.is_empty() {
            lines.push(Line::styled("  no conversations in this log", t.dim));
        }
        let used = u16::try_from(lines.len())
            .unwrap_or(u16::MAX)
            .min(area.height);
        Paragraph::new(lines).render(area, buf);
        let below = Rect {
            y: area.y + used,
            height: area.height - used,
            ..area
        };
        self.draw_detail(detail, below, buf, t);
    }

    /// The chosen conversation's lines, as wide as the list.
    fn detail_lines(&self, w: usize, t: &Theme) -> Vec<Line<'static>> {
        let Some((i, read)) = &self.chosen else {
            return Vec::new();
        };
        match read {
            Ok(source) => detail::lines(source.conversation(), &self.label(*i), w, t),
            Err(e) => wrap(&format!(" Could not read it: {e}"), w)
                .into_iter()
                .map(|l| Line::styled(crate::sanitize::clean(&l, false), t.bad))
                .collect(),
        }
    }

    /// The detail below a rule, with what does not fit counted (Enter plays it whole).
    fn draw_detail(&self, lines: &[Line<'static>], area: Rect, buf: &mut Buffer, t: &Theme) {
        if area.height < 3 || lines.is_empty() {
            return;
        }
        let rule = t.sym.border.horizontal_top.repeat(usize::from(area.width));
        buf.set_line(
            area.x,
            area.y + 1,
            &Line::styled(rule, t.border),
            area.width,
        );
        let room = usize::from(area.height - 2);
        let mut shown: Vec<Line<'static>> = lines.iter().take(room).cloned().collect();
        if lines.len() > room {
            let more = lines.len() - room + 1;
            shown.truncate(room - 1);
            shown.push(Line::styled(
                format!("  ... {more} more lines: Enter plays it, every call in full"),
                t.dim,
            ));
        }
        let rest = Rect {
            y: area.y + 2,
            height: area.height - 2,
            ..area
        };
        Paragraph::new(shown).render(rest, buf);
    }

    /// How the list's line column names conversation `i`.
    fn label(&self, i: usize) -> String {
        let (file, line) = label_parts(&self.listing, i);
        format!("{file}{line}")
    }

    /// The line column's width in a list `w` cells wide: every label whole when the window
    /// has room (one more cell for every two past 80), never under 9 cells, and always the
    /// line number whole with a little of the file's name.
    fn line_column(&self, w: usize) -> usize {
        let (label, number) = self.widest;
        // Never so narrow that two files' names read alike (a one-cell ellipsis, the first
        // character where each differs from its most alike other).
        let apart = self
            .names
            .iter()
            .map(|(n, a)| text::width(n).min(a.start.min(a.end) + 3))
            .max()
            .unwrap_or(0);
        let room = (9 + w.saturating_sub(80) / 2).max(apart + number);
        label.min(room).max(9).max(number + 3)
    }

    /// Conversation `i`'s label in `column` cells: the file's name cut in the middle when it
    /// does not fit, the line number kept whole.
    fn label_in(&self, i: usize, column: usize, t: &Theme) -> String {
        let (file, line) = label_parts(&self.listing, i);
        let room = column.saturating_sub(text::width(&line));
        // Cut where it keeps the part that tells this file from the most alike other.
        let alike = self
            .names
            .iter()
            .find(|(n, _)| *n == file)
            .map(|(_, a)| *a)
            .unwrap_or_default();
        let cut = draw::cut_middle(&file, room, t.sym.ellipsis, alike);
        fit(&format!("{cut}{line}"), column, t.sym.ellipsis)
    }

    fn row_line(
        &self,
        row: usize,
        i: usize,
        (w, column): (usize, usize),
        t: &Theme,
    ) -> Line<'static> {
        let s: &Summary = &self.listing.convs[i];
        let mark = if row == self.sel { t.sym.pointer } else { " " };
        let findings = if s.kinds.is_empty() {
            "none".to_owned()
        } else {
            let parts: Vec<String> = s
                .kinds
                .iter()
                .map(|&(k, n)| detail::counted(k, n, t))
                .collect();
            parts.join(", ")
        };
        let line = if self.lines_apart {
            format!("{} ", self.label_in(i, column, t))
        } else {
            String::new()
        };
        let text = format!(
            "{mark} {:>5}  {line}{:<18} {:>5} {:>5}  {findings}",
            i + 1,
            s.format.title(),
            s.turns,
            s.calls
        );
        let style = match (row == self.sel, s.problems) {
            (true, _) => t.selected,
            (false, 0) => t.base,
            (false, _) => t.warn,
        };
        Line::from(Span::styled(
            truncate(&crate::sanitize::clean(&text, false), w, t.sym.ellipsis),
            style,
        ))
    }
}

/// The last part of a path, for a narrow column.
fn file_tail(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Conversation `i`'s label in two parts: the file's name (cleaned; none for a log of one
/// file) and where in it (`:12`, or `#12` for a log of one file).
fn label_parts(listing: &Listing, i: usize) -> (String, String) {
    let place = &listing.convs[i].place;
    if listing.files.len() > 1 {
        let file = crate::sanitize::clean(file_tail(&place.file), false);
        (file, format!(":{}", place.line))
    } else {
        (String::new(), format!("#{}", place.line))
    }
}

/// Each file's name as [`label_parts`] shows it, with what it shares with the most alike
/// other; none for a log of one file (its rows name no file).
fn file_names(listing: &Listing) -> Vec<(String, draw::Shared)> {
    if listing.files.len() < 2 {
        return Vec::new();
    }
    let names: Vec<String> = listing
        .files
        .iter()
        .map(|p| crate::sanitize::clean(file_tail(&p.to_string_lossy()), false))
        .collect();
    let alike = draw::shared(&names);
    names.into_iter().zip(alike).collect()
}

/// The widest label of the listing, and its widest line number.
fn widest_labels(listing: &Listing) -> (usize, usize) {
    (0..listing.convs.len()).fold((0, 0), |(label, number), i| {
        let (file, line) = label_parts(listing, i);
        let n = text::width(&line);
        (label.max(text::width(&file) + n), number.max(n))
    })
}

/// Pieces joined by `sep` into lines of at most `width` cells, a piece never split.
fn pack(pieces: &[String], sep: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for piece in pieces {
        match lines.last_mut() {
            Some(line)
                if crate::text::width(line)
                    + crate::text::width(sep)
                    + 2
                    + crate::text::width(piece)
                    <= width =>
            {
                line.push_str(&format!(" {sep} {piece}"));
            }
            _ => lines.push(piece.clone()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::audit::Limits;
    use crate::tui::theme::ThemeName;

    fn draw(s: &AuditScreen, width: u16, t: &Theme) {
        let area = Rect::new(0, 0, width, 30);
        let mut buf = Buffer::empty(area);
        s.render(area, &mut buf, t, false);
    }

    #[test]
    fn the_detail_is_built_again_only_when_the_row_the_width_or_the_theme_changes() {
        let log = include_str!("../../fixtures/audit/support-desk.jsonl");
        let listing = Listing::from_text("support-desk.jsonl", Arc::from(log), Limits::default());
        let mut s = AuditScreen::new(listing, false);
        let builds = |s: &AuditScreen| s.detail.borrow().builds;
        let t = Theme::new(ThemeName::Default, false);
        for _ in 0..3 {
            draw(&s, 100, &t);
        }
        assert_eq!(builds(&s), 1, "frames alike build it once");
        let _ = s.on_key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
        draw(&s, 100, &t);
        draw(&s, 100, &t);
        assert_eq!(builds(&s), 2, "another row");
        draw(&s, 120, &t);
        assert_eq!(builds(&s), 3, "another width");
        draw(&s, 120, &Theme::new(ThemeName::Default, true));
        assert_eq!(builds(&s), 4, "another theme");
    }

    #[test]
    fn a_room_is_played_a_conversation_at_a_pace_it_can_follow() {
        let log = include_str!("../../fixtures/audit/support-desk.jsonl");
        for room in [false, true] {
            let listing =
                Listing::from_text("support-desk.jsonl", Arc::from(log), Limits::default());
            let mut s = AuditScreen::new(listing, room);
            assert!(s.play(1));
            let p = s.player().unwrap();
            let pace = if room {
                crate::replay::playback::room_speed(p.tl.end_ms)
            } else {
                1.0
            };
            assert!(
                (p.pb.speed() - pace).abs() < 1e-9,
                "{room}: {}",
                p.pb.speed()
            );
            assert_eq!(p.demo, room);
        }
    }
}
