//! The timed rehearsal drill without its screen: how a drill is set up, the seeded mix of
//! questions it asks ([`questions`], with the grader's held-back edge cases in `held` and
//! the rows on real declarations and protocols in `real`),
//! what the learner gave and the scorecard ([`score`]), and the Markdown transcript of a
//! drill as it was sat ([`transcript`]).

mod held;
pub mod predict;
pub mod questions;
mod real;
pub mod score;
pub mod transcript;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::course::review::{self, Day};
use crate::practice::Lang;

pub use predict::{Predict, Source};
pub use questions::{Explain, Mix, Pool, Question};
pub use score::{Answer, Failing, Given, Scorecard};

/// How a drill is set up.
#[derive(Debug, Clone)]
pub struct DrillConfig {
    pub seed: u64,
    pub minutes: u32,
    /// Save the transcript here when the drill ends.
    pub transcript: Option<PathBuf>,
    /// A transcript may replace a file already there (`--force`).
    pub force: bool,
    /// Where the write-it round's file and a transcript saved with `w` go (the current
    /// directory unless told otherwise).
    pub dir: PathBuf,
    pub interviewer: bool,
    /// Solo, "let me think" mode: outcomes are held back until the scorecard instead of
    /// shown after each answer (`--reveal-at-end`, or `v`).
    pub reveal_at_end: bool,
    pub mix: Mix,
    /// The language of the write-it round (`--lang`; Python unless told otherwise).
    pub lang: Lang,
    /// The drill is the whole app (`tooldojo rehearse`): leaving it quits. A drill opened
    /// inside the app (`R`) goes back to the screen it was opened from instead.
    pub quits_app: bool,
    /// The day the drill is taken (for the review schedule).
    pub day: Day,
    /// Draw at this many milliseconds into the drill instead of reading the clock
    /// (`tooldojo render`, snapshots).
    pub fixed_clock: Option<u64>,
}

impl DrillConfig {
    /// A drill of `minutes` minutes drawn with `seed`, taken today.
    pub fn new(seed: u64, minutes: u32) -> DrillConfig {
        DrillConfig {
            seed,
            minutes: minutes.max(1),
            transcript: None,
            force: false,
            dir: PathBuf::from("."),
            interviewer: false,
            reveal_at_end: false,
            mix: Mix::default(),
            lang: Lang::Python,
            quits_app: false,
            day: review::today(),
            fixed_clock: None,
        }
    }

    /// The drill `tooldojo render` draws (as `tooldojo rehearse` shows it): a fixed seed,
    /// day and clock, so the screen is the same on every run.
    pub fn fixed() -> DrillConfig {
        DrillConfig {
            day: 20_000,
            fixed_clock: Some(95_000),
            quits_app: true,
            ..DrillConfig::new(1, 10)
        }
    }

    /// The countdown, in milliseconds.
    pub fn limit_ms(&self) -> u64 {
        u64::from(self.minutes) * 60_000
    }

    /// The file of the write-it round: in the drill's directory, named by seed, in its
    /// language.
    pub fn write_file(&self) -> PathBuf {
        let ext = match self.lang {
            Lang::Python => "py",
            Lang::Js => "js",
        };
        self.dir
            .join(format!("tooldojo-rehearsal-{}.{ext}", self.seed))
    }
}

/// The language a drill started from the app writes in: that of the practice file in `dir`
/// (the one the practice screen grades), `solution.py` first; JavaScript when only
/// `solution.js` is there; else Python.
pub fn lang_in(dir: &Path) -> Lang {
    [Lang::Python, Lang::Js]
        .into_iter()
        .find(|l| dir.join(crate::practice::starter::file_name(*l)).exists())
        .unwrap_or(Lang::Python)
}

/// A drill as it was sat, for its transcript: how it was set up, what it asked, what the
/// learner gave, and how long it took.
pub trait Sitting {
    fn config(&self) -> &DrillConfig;
    fn questions(&self) -> &[Question];
    fn answers(&self) -> &[Answer];
    /// Milliseconds since the drill began (frozen once it ended).
    fn elapsed_ms(&self) -> u64;
    /// Lesson titles by id.
    fn titles(&self) -> &BTreeMap<String, String>;
    /// The drill ended because its clock ran out.
    fn time_up(&self) -> bool;

    /// The title of a lesson id (the id itself when unknown).
    fn title_of<'a>(&'a self, lesson: &'a str) -> &'a str {
        self.titles().get(lesson).map_or(lesson, String::as_str)
    }

    fn scorecard(&self) -> Scorecard {
        Scorecard::of(self.answers())
    }
}

/// Put a drill's answers into the review cards and its score into the trend (the write-it
/// round has no card: it is asked every drill). A skip, or the question open when the clock
/// ran out, is a miss; a question the clock ran out before was never seen and changes no
/// card.
pub fn record(s: &dyn Sitting, rehearsal: &mut review::Rehearsal) {
    let cfg = s.config();
    for a in s.answers().iter().filter(|a| a.shown()) {
        let Some(q) = s.questions().get(a.index) else {
            continue;
        };
        if matches!(q, Question::Write { .. }) {
            continue;
        }
        rehearsal.answer(q.id(), a.right(), cfg.day);
    }
    let card = s.scorecard();
    rehearsal.finish(review::DrillRecord {
        day: cfg.day,
        seed: cfg.seed,
        asked: u32::try_from(card.asked).unwrap_or(u32::MAX),
        points: card.points,
    });
}
