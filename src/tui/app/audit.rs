//! The audit screen as a screen of the app: opened by `tooldojo audit FILE --tui`, or with
//! `A` from the home screen on the log the app was given (`tooldojo --audit FILE`), else on
//! the shipped example. A finding's lesson (`L` in its player) opens as a peek (`peek`):
//! Esc or `A` comes back to the audit as it was left.

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

use super::{App, Screen, Update};
use crate::audit::listing::Listing;
use crate::tui::audit_screen::{AuditScreen, AuditUpdate};
use crate::tui::player::PlayerOutcome;

/// The shipped example log (named by its place among the fixtures), read with the default
/// limits: what `A` opens without a log, and what `render audit` draws.
pub(crate) fn example_log(
    content: &crate::content::Content,
) -> Result<Listing, crate::error::UserError> {
    let file = content.fixtures.read(crate::content::AUDIT_EXAMPLE)?;
    let limits = crate::audit::Limits::default();
    Ok(Listing::from_text(&file.display, file.text.into(), limits))
}

impl App {
    /// The log `A` audits.
    pub fn set_audit_log(&mut self, listing: Listing) {
        self.audit = Some(Box::new(AuditScreen::new(listing, self.demo)));
    }

    /// The name of the log `A` audits, cleaned, when the app was given one.
    pub(crate) fn audit_log_name(&self) -> Option<String> {
        let screen = match &self.screen {
            Screen::Audit(a) => Some(a.as_ref()),
            _ => self.audit.as_deref(),
        }?;
        let files = &screen.listing().files;
        let name = match files.as_slice() {
            [one] => one.file_name().map_or_else(
                || one.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            many => format!("{} files", many.len()),
        };
        Some(crate::sanitize::clean(&name, false))
    }

    /// The app was given a log to audit.
    pub fn has_audit_log(&self) -> bool {
        self.audit.is_some() || matches!(self.screen, Screen::Audit(_))
    }

    /// Open the audit screen on the log (as it was left); without one, on the shipped example.
    pub(super) fn open_audit(&mut self) -> Update {
        if matches!(self.screen, Screen::Audit(_)) {
            return Update::None;
        }
        // Back from a finding's lesson: where the learner was goes back under the audit.
        self.end_peek();
        match self.audit.take() {
            Some(screen) => {
                self.open_screen(Screen::Audit(screen));
                Update::Redraw
            }
            None => {
                self.open_audit_example();
                Update::Redraw
            }
        }
    }

    /// The audit screen on the shipped example log, kept for `A` as a given log is.
    fn open_audit_example(&mut self) {
        match example_log(&self.env.content) {
            Ok(listing) => self.open_screen(Screen::Audit(Box::new(AuditScreen::new(
                listing, self.demo,
            )))),
            Err(e) => self.status = Some(e.message),
        }
    }

    /// Open the audit screen at start (`audit --tui`).
    pub fn open_audit_now(&mut self) -> Update {
        self.open_audit()
    }

    /// The audit screen, when it is the screen on top.
    pub fn audit_screen(&self) -> Option<&AuditScreen> {
        match &self.screen {
            Screen::Audit(a) => Some(a),
            _ => None,
        }
    }

    pub fn audit_screen_mut(&mut self) -> Option<&mut AuditScreen> {
        match &mut self.screen {
            Screen::Audit(a) => Some(a),
            _ => None,
        }
    }

    /// What the audit screen asked for after a key.
    pub(super) fn audit_outcome(&mut self, out: AuditUpdate) -> Update {
        match out {
            AuditUpdate::None => Update::None,
            AuditUpdate::Redraw => Update::Redraw,
            AuditUpdate::Leave => {
                self.park_audit();
                Update::Redraw
            }
            AuditUpdate::Quit => Update::Quit,
            AuditUpdate::Suspend => Update::Suspend,
            AuditUpdate::Lesson(id, page) => self.audit_lesson(id, page),
        }
    }

    /// Close the audit screen, keeping it for `A`.
    fn park_audit(&mut self) {
        if matches!(self.screen, Screen::Audit(_)) {
            let under = self.below.pop().unwrap_or(Screen::Lesson);
            if let Screen::Audit(a) = std::mem::replace(&mut self.screen, under) {
                self.audit = Some(a);
            }
        }
    }

    /// A finding's lesson, at the page that teaches it, as a peek (the audit kept for Esc
    /// and `A`).
    fn audit_lesson(&mut self, id: &str, page: &str) -> Update {
        let Some(lesson) = self.lessons.iter().position(|l| l.id == id) else {
            self.status = Some(format!("The lesson {id} is not among the loaded lessons."));
            return Update::Redraw;
        };
        let at = self.lessons[lesson]
            .parsed
            .as_ref()
            .ok()
            .and_then(|l| l.pages.iter().position(|p| p.title == page))
            .unwrap_or(0);
        self.park_audit();
        // Whatever else was open goes: the lesson is the bottom of the stack.
        while !self.below.is_empty() {
            self.close_screen();
        }
        self.peek_at(lesson, at);
        self.status = Some("Esc or A goes back to the audit.".into());
        Update::Save
    }

    /// A click while the audit screen is on top: the player's, when one plays.
    pub(super) fn mouse_to_audit(&mut self, m: MouseEvent) -> Update {
        if m.kind != MouseEventKind::Down(MouseButton::Left) {
            return Update::None;
        }
        let Some(p) = self.audit_screen_mut().and_then(|a| a.player_mut()) else {
            return Update::None;
        };
        match p.handle_click(m.column, m.row) {
            PlayerOutcome::Changed => Update::Redraw,
            _ => Update::None,
        }
    }
}
