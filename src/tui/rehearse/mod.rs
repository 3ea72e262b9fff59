//! The timed rehearsal drill: a seeded mix of rows to predict, questions to explain in the
//! learner's own words, and a write-it round graded on every save, under one visible
//! countdown; then a scorecard and a Markdown transcript. In interviewer mode the answers
//! and rubric stay hidden until the interviewer reveals them, and the interviewer scores.
//!
//! `Drill` owns the drill's state on screen; `keys` turns keys into changes, `draw` reads
//! `&Drill`. The questions, the scoring, the transcript and the review cards are the
//! course's ([`crate::course::rehearsal`], [`crate::course::review`]).

mod card;
pub(crate) mod draw;
mod fold;
mod keys;
mod predict;
pub mod write;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use crate::course::rehearsal::{Answer, Given, Sitting, score, transcript};
pub use crate::course::rehearsal::{DrillConfig, Mix, Pool, Question};
use crate::practice::Function;
use crate::tui::blocks::editor::Editor;
use crate::tui::grader::{GraderMsg, Notify};

/// Where the drill is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The question is open.
    Ask,
    /// Answered; waiting for the interviewer to reveal (interviewer mode only).
    Locked,
    /// The answer is shown (and, for explain questions, being scored).
    Reveal,
    /// The scorecard.
    Done,
}

/// What the app must do after the drill took a key or a tick.
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrillUpdate {
    None,
    Redraw,
    /// The drill just ended: record it in the progress (then redraw).
    Finished,
    /// Back to the screen the drill was opened from.
    Leave,
    Quit,
    Suspend,
}

/// A transcript save, for the scorecard's status line.
#[derive(Debug, Clone, PartialEq)]
pub enum Saved {
    To(PathBuf),
    Failed(String),
}

pub struct Drill {
    cfg: DrillConfig,
    questions: Vec<Question>,
    answers: Vec<Answer>,
    /// Lesson titles by id, for links.
    titles: BTreeMap<String, String>,
    cur: usize,
    phase: Phase,
    started: Instant,
    /// When the open question was shown, in drill milliseconds.
    shown_at: u64,
    /// Frozen elapsed time once the drill is over.
    ended_at: Option<u64>,
    /// The drill ended because the clock ran out.
    time_up: bool,
    /// The whole second of the clock last drawn (a tick redraws only when it changes).
    drawn_second: u64,
    /// Predict: the highlighted choice.
    choice: usize,
    /// Explain: the learner's words, whether keys go to the editor, the rubric ticks.
    editor: Editor,
    editing: bool,
    ticked: Vec<bool>,
    point: usize,
    /// `q` or `Esc` was pressed once: the next `q` (or `y`) leaves the drill (quits, when
    /// the drill is the whole app), anything else carries on.
    confirm_quit: bool,
    help: bool,
    scroll: u16,
    /// Rows the open question is moved from where its focus line would put it (PgUp/PgDn).
    shift: i32,
    /// At the last draw: the body's height, and how far `shift` can move the view (up,
    /// down), so PgDn pages and stops at the end.
    view: std::cell::Cell<(u16, (i32, i32))>,
    saved: Option<Saved>,
    /// The scorecard's `w` found this file there: a second `w` replaces it.
    confirm_overwrite: Option<PathBuf>,
    /// The last key was the scorecard's `w`: what it did shows above the key bar when the
    /// transcript's line is scrolled out of view (until the next key).
    pin_status: bool,
    /// The write-it round, while it is open.
    write: Option<write::WriteRound>,
    /// Every grading row; the round grades one function's.
    grading: Vec<crate::practice::Row>,
    /// How the round's grader reaches the event loop (none off screen: nothing is graded).
    notify: Option<Notify>,
}

impl Drill {
    /// A drill drawn from `pool`; questions due for review come first.
    pub fn new(
        cfg: DrillConfig,
        pool: &Pool,
        due: &[String],
        titles: BTreeMap<String, String>,
        notify: Option<Notify>,
    ) -> Drill {
        let questions = pool.draw(cfg.seed, due, cfg.mix, cfg.lang);
        let mut d = Drill {
            cfg,
            questions,
            answers: Vec::new(),
            titles,
            cur: 0,
            phase: Phase::Ask,
            started: Instant::now(),
            shown_at: 0,
            ended_at: None,
            time_up: false,
            drawn_second: 0,
            choice: 0,
            editor: Editor::new(""),
            editing: false,
            ticked: Vec::new(),
            point: 0,
            confirm_quit: false,
            help: false,
            scroll: 0,
            shift: 0,
            view: std::cell::Cell::new((1, (0, 0))),
            saved: None,
            confirm_overwrite: None,
            pin_status: false,
            write: None,
            grading: pool.grading.clone(),
            notify,
        };
        d.open_question();
        d
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The open question's index.
    pub fn current(&self) -> usize {
        self.cur
    }

    /// Leaving the drill quits the app (`tooldojo rehearse`) rather than going back.
    pub fn quits_app(&self) -> bool {
        self.cfg.quits_app
    }

    /// What leaving the drill does: quit the app, or go back to where it was opened.
    fn leave(&self) -> DrillUpdate {
        if self.cfg.quits_app {
            DrillUpdate::Quit
        } else {
            DrillUpdate::Leave
        }
    }

    /// Is the drill still running (the clock ticks, `q` asks first)?
    pub fn running(&self) -> bool {
        self.phase != Phase::Done
    }

    /// A text editor has the keys.
    pub fn editing(&self) -> bool {
        self.editing
    }

    pub fn saved(&self) -> Option<&Saved> {
        self.saved.as_ref()
    }

    /// Milliseconds left on the countdown.
    pub fn left_ms(&self) -> u64 {
        self.cfg.limit_ms().saturating_sub(self.elapsed_ms())
    }

    /// The clock moved: end the drill when time is up.
    pub fn tick(&mut self) -> DrillUpdate {
        if self.phase == Phase::Done {
            return DrillUpdate::None;
        }
        if self.left_ms() == 0 {
            self.run_out();
            return DrillUpdate::Finished;
        }
        // The screen shows whole seconds: redraw once a second, not on every tick.
        let second = self.elapsed_ms() / 1000;
        if second == self.drawn_second {
            return DrillUpdate::None;
        }
        self.drawn_second = second;
        DrillUpdate::Redraw
    }

    /// Prepare the open question's state.
    fn open_question(&mut self) {
        self.phase = Phase::Ask;
        self.shown_at = self.elapsed_ms();
        self.choice = 0;
        self.editor = Editor::new("");
        self.ticked.clear();
        self.point = 0;
        self.editing = false;
        self.shift = 0;
        self.write = None;
        match self.questions.get(self.cur) {
            Some(Question::Explain(e)) => {
                self.ticked = vec![false; e.points.len()];
                self.editing = true;
            }
            Some(Question::Write { function, .. }) => {
                let file = self.cfg.write_file();
                let notify = self.notify.clone();
                self.write = Some(write::WriteRound::open(
                    file,
                    *function,
                    self.cfg.lang,
                    &self.grading,
                    self.titles.clone(),
                    notify,
                ));
            }
            Some(_) => {}
            None => self.finish(),
        }
    }

    /// Record the open question's answer and hold it until it is revealed.
    fn answer(&mut self, given: Given, points: u32) {
        let ms = self.elapsed_ms().saturating_sub(self.shown_at);
        self.answers.push(Answer {
            index: self.cur,
            given,
            points,
            ms,
        });
    }

    /// On to the next question (or the scorecard).
    fn next(&mut self) {
        self.cur += 1;
        self.open_question();
    }

    /// Time is up: the open question ran out (a write-it round with a graded file counts
    /// what the grader last said), and every one after it was not reached.
    fn run_out(&mut self) {
        self.time_up = true;
        let mut open = true;
        while self.cur < self.questions.len() {
            if self.answers.last().is_none_or(|a| a.index != self.cur) {
                let ms = self.elapsed_ms().saturating_sub(self.shown_at);
                let (given, points) = match self.write.take() {
                    Some(round) if round.grader().is_some_and(|g| g.report().is_some()) => {
                        let given = round.written();
                        let points = written_points(&given);
                        (given, points)
                    }
                    // The words being typed are kept for the transcript, for no points.
                    _ if open => (
                        Given::OutOfTime {
                            text: self.editor.text(),
                        },
                        0,
                    ),
                    _ => (Given::NotReached, 0),
                };
                self.answers.push(Answer {
                    index: self.cur,
                    given,
                    points,
                    ms,
                });
            }
            open = false;
            self.cur += 1;
            self.shown_at = self.elapsed_ms();
        }
        self.finish();
    }

    fn finish(&mut self) {
        self.write = None;
        self.ended_at = Some(self.elapsed_ms());
        self.phase = Phase::Done;
        self.editing = false;
        self.cur = self.questions.len();
        if let Some(path) = self.cfg.transcript.clone() {
            self.save_transcript(path);
        }
    }

    /// Write the transcript to `path` and remember where (or why not).
    pub fn save_transcript(&mut self, path: PathBuf) {
        self.save_transcript_as(path, self.cfg.force);
    }

    /// The file the scorecard's `w` found there and asks before replacing.
    pub fn confirming_overwrite(&self) -> Option<&std::path::Path> {
        self.confirm_overwrite.as_deref()
    }

    /// Write the transcript to `path`, replacing a file there only when `replace` says so.
    fn save_transcript_as(&mut self, path: PathBuf, replace: bool) {
        let text = transcript::markdown(self);
        let written = crate::safe_file::write(&path, text.as_bytes(), replace);
        self.saved = Some(match written {
            Ok(()) => Saved::To(std::path::absolute(&path).unwrap_or(path)),
            Err(e) => Saved::Failed(format!("{}: {e}", path.display())),
        });
    }

    /// The default transcript path: in the current directory, named by seed.
    pub fn default_transcript(&self) -> PathBuf {
        self.cfg
            .dir
            .join(format!("tooldojo-rehearsal-{}.md", self.cfg.seed))
    }

    /// Answer every open question with its highlighted choice, words left empty and no
    /// rubric point ticked, up to the scorecard (the scorecard `tooldojo render` draws).
    pub fn play_through(&mut self) {
        use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let key = |c| KeyEvent::new(c, KeyModifiers::NONE);
        while self.running() {
            let before = (self.cur, self.phase, self.answers.len());
            if self.editing {
                let _ = self.on_key(key(KeyCode::Esc));
            }
            if self.phase == Phase::Locked {
                let _ = self.on_key(key(KeyCode::Char('r')));
            }
            let _ = self.on_key(key(KeyCode::Enter));
            if (self.cur, self.phase, self.answers.len()) == before {
                let _ = self.on_key(key(KeyCode::Char('s')));
            }
        }
    }

    /// A message from the round's watcher or grader; true when the screen changed. A new
    /// report brings the view back to its result line.
    pub fn grader_msg(&mut self, msg: GraderMsg) -> bool {
        let Some(grader) = self.write.as_mut().and_then(|w| w.grader_mut()) else {
            return false;
        };
        let before = grader.runs();
        let done_before = grader.report().is_some();
        let changed = grader.on_msg(msg);
        let regraded = grader.runs() != before || (!done_before && grader.report().is_some());
        if changed && regraded && self.phase == Phase::Ask {
            self.shift = 0;
        }
        changed
    }

    /// The functions whose every row passed in the round's last report.
    pub fn write_passed(&self) -> Vec<Function> {
        self.write
            .as_ref()
            .and_then(|w| w.grader())
            .map(|g| g.all_passed())
            .unwrap_or_default()
    }

    /// The open write-it round, if any.
    pub fn write_round(&self) -> Option<&write::WriteRound> {
        self.write.as_ref()
    }
}

impl Sitting for Drill {
    fn config(&self) -> &DrillConfig {
        &self.cfg
    }

    fn questions(&self) -> &[Question] {
        &self.questions
    }

    fn answers(&self) -> &[Answer] {
        &self.answers
    }

    /// Milliseconds since the drill began (frozen once it ends).
    fn elapsed_ms(&self) -> u64 {
        if let Some(end) = self.ended_at {
            return end;
        }
        match self.cfg.fixed_clock {
            Some(ms) => ms,
            None => u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        }
    }

    fn titles(&self) -> &BTreeMap<String, String> {
        &self.titles
    }

    fn time_up(&self) -> bool {
        self.time_up
    }
}

/// The points a handed-in round earns: its share of passing rows.
fn written_points(given: &Given) -> u32 {
    match given {
        Given::Written { passed, total, .. } => score::share_points(*passed, *total),
        _ => 0,
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fit_tests;
