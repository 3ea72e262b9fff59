//! Keys of the drill. While the answer editor has the keys every key types (`q` and `s`
//! too), `Esc` leaves it, `Ctrl-S` skips and `Ctrl-Z` undoes; otherwise the keys below act.
//! `q` and `Esc` leave the drill (asking once while it runs): back to where it was opened,
//! or out of the app when the drill is the whole app. `Ctrl-C` always quits.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Drill, DrillUpdate, Phase};
use crate::course::rehearsal::Question;
use crate::course::rehearsal::score::{Given, pick_points, share_points};
use crate::tui::draw::keybar::{BarKey, Rank, pick_keys};
use crate::tui::keys::{is_char, is_down, is_up, plain};

fn ctrl(key: &KeyEvent, c: char) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char(c)
}

impl Drill {
    /// One key press.
    /// Pasted text goes into the answer being typed, as one edit; elsewhere it is dropped
    /// (a pasted `q` must not quit).
    pub fn on_paste(&mut self, text: &str) -> DrillUpdate {
        if !self.editing {
            return DrillUpdate::None;
        }
        let _ = self.editor.paste(text);
        DrillUpdate::Redraw
    }

    pub fn on_key(&mut self, key: KeyEvent) -> DrillUpdate {
        if ctrl(&key, 'c') {
            return DrillUpdate::Quit;
        }
        // While an answer is being typed, Ctrl-Z undoes (as Ctrl-U does).
        if ctrl(&key, 'z') && !self.editing {
            return DrillUpdate::Suspend;
        }
        if self.editing {
            if plain(&key, KeyCode::Esc) {
                self.editing = false;
            } else if ctrl(&key, 's') && self.phase == Phase::Ask {
                // Skipping must not need a key that types: Ctrl-S (or Esc, then s).
                return self.skip();
            } else {
                self.editor.input(key);
            }
            return DrillUpdate::Redraw;
        }
        if self.confirm_quit {
            self.confirm_quit = false;
            return if is_char(&key, 'q') || is_char(&key, 'y') {
                self.leave()
            } else {
                DrillUpdate::Redraw
            };
        }
        if self.help {
            self.help = false;
            return DrillUpdate::Redraw;
        }
        if is_char(&key, '?') {
            self.help = true;
            return DrillUpdate::Redraw;
        }
        if self.phase == Phase::Done {
            return self.scorecard_key(key);
        }
        if is_char(&key, 'q') || plain(&key, KeyCode::Esc) {
            self.confirm_quit = true;
            return DrillUpdate::Redraw;
        }
        // The mode is chosen while a question is open: once an answer is locked or shown,
        // how it is scored must not change under it.
        if self.phase == Phase::Ask && is_char(&key, 'i') {
            self.cfg.interviewer = !self.cfg.interviewer;
            return DrillUpdate::Redraw;
        }
        if is_char(&key, 'v') {
            self.cfg.reveal_at_end = !self.cfg.reveal_at_end;
            return DrillUpdate::Redraw;
        }
        if plain(&key, KeyCode::PageDown) || plain(&key, KeyCode::PageUp) {
            // A page at a time: the view's height less a line kept for context.
            let (page, (least, most)) = self.view.get();
            let page = i32::from(page.saturating_sub(1).max(1));
            let step = if plain(&key, KeyCode::PageDown) {
                page
            } else {
                -page
            };
            self.shift = self.shift.saturating_add(step).clamp(least, most);
            return DrillUpdate::Redraw;
        }
        if self.phase == Phase::Ask && (is_char(&key, 's') || ctrl(&key, 's')) {
            return self.skip();
        }
        let out = match self.questions.get(self.cur).cloned() {
            Some(Question::Predict(p)) => self.predict_key(key, &p.choices, &p.answer),
            Some(Question::Explain(_)) => self.explain_key(key),
            Some(Question::Write { .. }) => self.write_key(key),
            None => DrillUpdate::None,
        };
        match out {
            DrillUpdate::Redraw => self.after_step(),
            other => other,
        }
    }

    /// Skip the open question: words already written are kept with the skip, for no
    /// points.
    fn skip(&mut self) -> DrillUpdate {
        let text = self.editor.text();
        self.answer(Given::Skipped { text }, 0);
        self.next();
        self.after_step()
    }

    /// A step may have ended the drill.
    fn after_step(&self) -> DrillUpdate {
        if self.phase == Phase::Done {
            DrillUpdate::Finished
        } else {
            DrillUpdate::Redraw
        }
    }

    fn scorecard_key(&mut self, key: KeyEvent) -> DrillUpdate {
        // A second `w` replaces the file the first one found; any other key keeps it.
        let confirming = self.confirm_overwrite.take();
        self.pin_status = is_char(&key, 'w');
        if is_char(&key, 'q') {
            return self.leave();
        }
        if plain(&key, KeyCode::Esc) || plain(&key, KeyCode::Enter) {
            return if confirming.is_some() {
                DrillUpdate::Redraw
            } else {
                DrillUpdate::Leave
            };
        }
        // The last draw says how far the scorecard can scroll: it stops at the end. The card
        // may have grown shorter since the last key (a taller or wider window, a shorter
        // status line): a key moves from the line shown, not from a scroll past the end.
        let (page, (_, most)) = self.view.get();
        let page = page.saturating_sub(1).max(1);
        let end = u16::try_from(most.max(0)).unwrap_or(u16::MAX);
        let top = self.scroll.min(end);
        if is_char(&key, 'w') {
            let path = self
                .cfg
                .transcript
                .clone()
                .unwrap_or_else(|| self.default_transcript());
            let replace = confirming.as_ref() == Some(&path);
            if !replace && !self.cfg.force && std::fs::symlink_metadata(&path).is_ok() {
                self.confirm_overwrite = Some(path);
            } else {
                self.save_transcript_as(path, replace || self.cfg.force);
            }
        } else if is_down(&key) {
            self.scroll = top.saturating_add(1).min(end);
        } else if plain(&key, KeyCode::PageDown) {
            self.scroll = top.saturating_add(page).min(end);
        } else if is_up(&key) {
            self.scroll = top.saturating_sub(1);
        } else if plain(&key, KeyCode::PageUp) {
            self.scroll = top.saturating_sub(page);
        } else if is_char(&key, 'g') || plain(&key, KeyCode::Home) {
            self.scroll = 0;
        } else if is_char(&key, 'G') || plain(&key, KeyCode::End) {
            self.scroll = end;
        } else {
            return DrillUpdate::Redraw;
        }
        DrillUpdate::Redraw
    }

    /// Reveal what the interviewer has been holding back.
    fn reveal_key(&mut self, key: &KeyEvent) -> bool {
        if self.phase == Phase::Locked && is_char(key, 'r') {
            self.phase = Phase::Reveal;
            return true;
        }
        false
    }

    fn predict_key(&mut self, key: KeyEvent, choices: &[&str], answer: &str) -> DrillUpdate {
        match self.phase {
            Phase::Ask => {
                let digit = match key.code {
                    KeyCode::Char(c) if key.modifiers.is_empty() => c.to_digit(10),
                    _ => None,
                };
                let n = choices.len();
                // A number picks (as arrows do); Enter answers, so a number pressed on the
                // way to Enter never skips the outcome.
                if let Some(d) = digit.filter(|d| (1..=n as u32).contains(d)) {
                    self.choice = d as usize - 1;
                    return DrillUpdate::Redraw;
                } else if is_down(&key) || plain(&key, KeyCode::Right) || is_char(&key, 'l') {
                    self.choice = (self.choice + 1) % n.max(1);
                    return DrillUpdate::Redraw;
                } else if is_up(&key) || plain(&key, KeyCode::Left) || is_char(&key, 'h') {
                    self.choice = (self.choice + n.max(1) - 1) % n.max(1);
                    return DrillUpdate::Redraw;
                } else if !plain(&key, KeyCode::Enter) {
                    return DrillUpdate::None;
                }
                let pick = choices.get(self.choice).copied().unwrap_or_default();
                self.answer(Given::Pick(pick.to_owned()), pick_points(pick, answer));
                self.after_answer();
                DrillUpdate::Redraw
            }
            Phase::Locked => {
                if self.reveal_key(&key) {
                    DrillUpdate::Redraw
                } else {
                    DrillUpdate::None
                }
            }
            Phase::Reveal if plain(&key, KeyCode::Enter) || is_char(&key, 'n') => {
                self.next();
                DrillUpdate::Redraw
            }
            _ => DrillUpdate::None,
        }
    }

    fn explain_key(&mut self, key: KeyEvent) -> DrillUpdate {
        match self.phase {
            Phase::Ask if is_char(&key, 'e') => self.editing = true,
            Phase::Ask if plain(&key, KeyCode::Enter) => {
                self.phase = if self.cfg.interviewer {
                    Phase::Locked
                } else {
                    Phase::Reveal
                };
            }
            Phase::Locked if is_char(&key, 'r') => self.phase = Phase::Reveal,
            Phase::Reveal if is_down(&key) => {
                self.point = (self.point + 1).min(self.ticked.len().saturating_sub(1));
            }
            Phase::Reveal if is_up(&key) => self.point = self.point.saturating_sub(1),
            // With nothing written there is nothing to compare: no point can be ticked, and
            // Enter counts it as a skip.
            Phase::Reveal if self.nothing_written() && plain(&key, KeyCode::Enter) => {
                let text = self.editor.text();
                self.answer(Given::Skipped { text }, 0);
                self.next();
            }
            Phase::Reveal if self.nothing_written() => return DrillUpdate::None,
            Phase::Reveal if is_char(&key, ' ') || is_char(&key, 'x') => {
                if let Some(t) = self.ticked.get_mut(self.point) {
                    *t = !*t;
                }
            }
            Phase::Reveal if plain(&key, KeyCode::Enter) => {
                let got = self.ticked.iter().filter(|t| **t).count();
                let points = share_points(got, self.ticked.len());
                let given = Given::Words {
                    text: self.editor.text(),
                    ticked: self.ticked.clone(),
                };
                self.answer(given, points);
                self.next();
            }
            _ => return DrillUpdate::None,
        }
        DrillUpdate::Redraw
    }

    /// Solo, an explanation left empty: there is nothing to hold against the rubric. (An
    /// interviewer ticks what was said, so an empty editor can still score there.)
    pub(super) fn nothing_written(&self) -> bool {
        !self.cfg.interviewer && self.editor.text().trim().is_empty()
    }

    fn write_key(&mut self, key: KeyEvent) -> DrillUpdate {
        match self.phase {
            // The round asks before it writes a starter: Enter writes it (a skip, nothing).
            Phase::Ask if plain(&key, KeyCode::Enter) && self.write_asking() => {
                if let Some(round) = self.write.as_mut() {
                    round.start();
                }
                self.shift = 0;
                DrillUpdate::Redraw
            }
            Phase::Ask if plain(&key, KeyCode::Enter) => {
                let given = self.write_result();
                let points = super::written_points(&given);
                self.answer(given, points);
                // The grader's report is the outcome: nobody need reveal it.
                if self.cfg.reveal_at_end {
                    self.next();
                } else {
                    self.phase = Phase::Reveal;
                }
                DrillUpdate::Redraw
            }
            Phase::Reveal if plain(&key, KeyCode::Enter) || is_char(&key, 'n') => {
                self.next();
                DrillUpdate::Redraw
            }
            _ => DrillUpdate::None,
        }
    }

    /// An answer was just given: hold it for the interviewer, go straight on when the
    /// outcomes wait for the scorecard, else show the outcome.
    fn after_answer(&mut self) {
        if self.cfg.interviewer {
            self.phase = Phase::Locked;
        } else if self.cfg.reveal_at_end {
            self.next();
        } else {
            self.phase = Phase::Reveal;
        }
    }

    /// The write-it round asks before it writes a starter.
    fn write_asking(&self) -> bool {
        self.write.as_ref().is_some_and(|w| w.asking())
    }

    /// The grader's last word on the learner's file.
    pub(super) fn write_result(&self) -> Given {
        match &self.write {
            Some(round) => round.written(),
            None => Given::Written {
                passed: 0,
                total: 0,
                report: vec!["not graded".to_owned()],
                failing: Vec::new(),
            },
        }
    }

    /// The keys that act now, for the key bar and the help.
    pub(crate) fn hints(&self) -> Vec<BarKey> {
        use Rank::{Always, Focus, Rest, Scroll};
        let key = BarKey::new;
        if self.editing {
            // Every key types, `q`, `s` and `?` too: Ctrl-S skips, Ctrl-C quits, Esc leads
            // back to the others.
            return vec![
                key("Esc", "done typing", Always),
                key("Ctrl-S", "skip", Always),
                key("Ctrl-C", "quit", Always),
            ];
        }
        let mut out = match (self.phase, self.questions.get(self.cur)) {
            (Phase::Done, _) if self.confirm_overwrite.is_some() => vec![
                key("w", "replace the file", Focus).brief("w", "replace"),
                key("other keys", "keep it", Focus).brief("any key", "keep"),
            ],
            (Phase::Done, _) => vec![
                key("w", "save transcript", Focus).brief("w", "save"),
                key("j/k", "scroll", Scroll),
                key("PgUp/PgDn", "page", Scroll),
                key("g/G", "top/end", Scroll),
                key("Enter", "back to lessons", Focus).brief("Enter", "back"),
            ],
            (Phase::Locked, _) => vec![key("r", "interviewer: reveal", Focus).brief("r", "reveal")],
            (Phase::Ask, Some(Question::Predict(p))) => vec![
                key(pick_keys!(p.choices.len()), "pick", Focus),
                key("arrows", "move", Focus),
                key("Enter", "answer", Focus),
            ],
            (Phase::Ask, Some(Question::Explain(_))) => vec![
                key("e", "edit answer", Focus).brief("e", "edit"),
                key("Enter", "compare", Focus),
            ],
            (Phase::Ask, Some(Question::Write { .. })) if self.write_asking() => vec![
                key("Enter", "write the starter", Focus).brief("Enter", "write"),
                key("s", "skip, nothing written", Focus).brief("s", "skip"),
            ],
            (Phase::Ask, Some(Question::Write { .. })) => {
                vec![key("Enter", "hand it in", Focus).brief("Enter", "hand in")]
            }
            (Phase::Reveal, Some(Question::Explain(_))) if self.nothing_written() => {
                vec![key("Enter", "next (a skip)", Focus).brief("Enter", "next")]
            }
            (Phase::Reveal, Some(Question::Explain(_))) => vec![
                key("j/k", "point", Focus),
                key("Space", "covered", Focus),
                key("Enter", "score, next", Focus).brief("Enter", "next"),
            ],
            (Phase::Reveal, _) => vec![key("Enter", "next", Focus)],
            _ => Vec::new(),
        };
        if self.cfg.quits_app {
            out.push(key("q", "quit", Always));
        } else {
            out.push(key("q", "leave the drill", Always).brief("q", "leave"));
            out.push(key("Ctrl-C", "quit", Always));
        }
        out.push(key("?", "help", Always));
        if self.phase == Phase::Ask && !self.write_asking() {
            out.push(key("s", "skip", Rest));
        }
        if self.phase != Phase::Done {
            if !self.cfg.interviewer {
                let what = if self.cfg.reveal_at_end {
                    "outcomes after each answer"
                } else {
                    "outcomes at the end"
                };
                out.push(key("v", what, Rest).brief("v", "outcomes"));
            }
            if self.phase == Phase::Ask {
                out.push(key("i", "interviewer mode", Rest).brief("i", "interviewer"));
            }
            out.push(key("PgUp/PgDn", "scroll the question", Scroll).brief("PgUp/PgDn", "scroll"));
        }
        out
    }

    pub fn help_open(&self) -> bool {
        self.help
    }

    pub fn confirming_quit(&self) -> bool {
        self.confirm_quit
    }
}
