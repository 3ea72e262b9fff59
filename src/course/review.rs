//! Spaced review across sessions: a question missed in a drill gets a card with an SM-2
//! style interval; it comes back in the drills on or after its due day until it has been
//! answered right often enough for the interval to grow out of the way. Past drills are
//! kept as a short trend for the home screen. Everything here is saved in the progress file
//! under one optional key, so older progress files load unchanged.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How many past drills the trend keeps.
const TREND_LEN: usize = 30;
/// SM-2's floor and starting point for the ease factor, in hundredths.
const EASE_MIN: u32 = 130;
const EASE_START: u32 = 250;

/// Days since 1970-01-01 (UTC): the unit of every interval.
pub type Day = i64;

/// Today, in days since 1970-01-01 (UTC).
pub fn today() -> Day {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    Day::try_from(secs / 86_400).unwrap_or(0)
}

/// One question's place in the review schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// Right answers in a row since the last miss.
    pub streak: u32,
    /// Days until it comes back after the last answer.
    pub interval: u32,
    /// SM-2's ease factor, in hundredths (250 = 2.5).
    pub ease: u32,
    /// The day it is due again.
    pub due: Day,
}

impl Card {
    /// A card for a question just missed on `day`.
    pub fn missed_on(day: Day) -> Card {
        Card {
            streak: 0,
            interval: 1,
            ease: EASE_START,
            due: day + 1,
        }
        .after(false, day)
    }

    /// The card after an answer on `day` (SM-2 with quality 4 for right, 1 for wrong).
    #[must_use]
    pub fn after(self, right: bool, day: Day) -> Card {
        let quality: i64 = if right { 4 } else { 1 };
        let miss = 5 - quality;
        let change = 10 - miss * (8 + miss * 2);
        let ease = (i64::from(self.ease) + change).max(i64::from(EASE_MIN));
        let ease = u32::try_from(ease).unwrap_or(EASE_START);
        let (streak, interval) = if right {
            let interval = match self.streak {
                0 => 1,
                1 => 6,
                _ => (u64::from(self.interval) * u64::from(ease)).div_ceil(100) as u32,
            };
            (self.streak + 1, interval)
        } else {
            (0, 1)
        };
        Card {
            streak,
            interval,
            ease,
            due: day + i64::from(interval),
        }
    }
}

/// One finished drill, for the trend.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrillRecord {
    pub day: Day,
    pub seed: u64,
    /// Questions asked (answered or run out of time).
    pub asked: u32,
    /// Points scored, in hundredths of a question.
    pub points: u32,
}

impl DrillRecord {
    /// The score as a whole percentage of the questions asked.
    pub fn percent(&self) -> u32 {
        self.points.checked_div(self.asked).unwrap_or(0)
    }
}

/// What the progress file keeps about rehearsal.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rehearsal {
    /// Cards by question id.
    #[serde(default)]
    pub cards: BTreeMap<String, Card>,
    /// Past drills, oldest first.
    #[serde(default)]
    pub drills: Vec<DrillRecord>,
}

impl Rehearsal {
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty() && self.drills.is_empty()
    }

    /// Record one answer: a miss creates or resets a card; a right answer moves an existing
    /// card on (a question never missed needs no card).
    pub fn answer(&mut self, id: &str, right: bool, day: Day) {
        match self.cards.get(id) {
            Some(card) => {
                let next = card.after(right, day);
                self.cards.insert(id.to_owned(), next);
            }
            None if !right => {
                self.cards.insert(id.to_owned(), Card::missed_on(day));
            }
            None => {}
        }
    }

    /// Add a finished drill to the trend (only the last few are kept).
    pub fn finish(&mut self, record: DrillRecord) {
        self.drills.push(record);
        let extra = self.drills.len().saturating_sub(TREND_LEN);
        self.drills.drain(..extra);
    }

    /// The question ids due for review today.
    pub fn due_today(&self) -> Vec<String> {
        self.due_on(today())
    }

    /// Scores of past drills in percent, oldest first (for a sparkline on the home screen).
    pub fn trend(&self) -> Vec<u32> {
        self.drills.iter().map(DrillRecord::percent).collect()
    }

    /// Ids due on or before `day`, the most overdue first.
    pub fn due_on(&self, day: Day) -> Vec<String> {
        let mut due: Vec<(&String, &Card)> =
            self.cards.iter().filter(|(_, c)| c.due <= day).collect();
        due.sort_by_key(|(id, c)| (c.due, (*id).clone()));
        due.into_iter().map(|(id, _)| id.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_miss_comes_back_tomorrow_and_right_answers_push_it_out() {
        let mut r = Rehearsal::default();
        r.answer("validator/seed-bool", false, 100);
        assert_eq!(r.due_on(100), Vec::<String>::new());
        assert_eq!(r.due_on(101), vec!["validator/seed-bool".to_owned()]);
        r.answer("validator/seed-bool", true, 101);
        let c = r.cards["validator/seed-bool"];
        assert_eq!((c.streak, c.interval, c.due), (1, 1, 102));
        r.answer("validator/seed-bool", true, 102);
        let c = r.cards["validator/seed-bool"];
        assert_eq!((c.streak, c.interval, c.due), (2, 6, 108));
        r.answer("validator/seed-bool", true, 108);
        let c = r.cards["validator/seed-bool"];
        // 6 days times the ease (which a miss lowered and right answers keep where it is).
        assert_eq!(c.interval, (6 * c.ease).div_ceil(100));
        assert!(c.interval > 6 && c.due == 108 + i64::from(c.interval));
    }

    #[test]
    fn ease_follows_sm2_and_never_drops_below_its_floor() {
        let fresh = Card {
            streak: 0,
            interval: 1,
            ease: 250,
            due: 0,
        };
        // SM-2: quality 4 leaves the ease, quality 1 takes 0.54 off.
        assert_eq!(fresh.after(true, 0).ease, 250);
        assert_eq!(fresh.after(false, 0).ease, 196);
        let mut c = fresh;
        for _ in 0..10 {
            c = c.after(false, 0);
        }
        assert_eq!(c.ease, EASE_MIN);
        assert_eq!((c.streak, c.interval, c.due), (0, 1, 1));
    }

    #[test]
    fn a_miss_resets_the_streak() {
        let mut r = Rehearsal::default();
        r.answer("a", false, 10);
        r.answer("a", true, 11);
        r.answer("a", true, 12);
        r.answer("a", false, 18);
        let c = r.cards["a"];
        assert_eq!((c.streak, c.interval, c.due), (0, 1, 19));
    }

    #[test]
    fn right_answers_without_a_card_leave_nothing() {
        let mut r = Rehearsal::default();
        r.answer("never-missed", true, 5);
        assert!(r.cards.is_empty());
    }

    #[test]
    fn due_lists_the_most_overdue_first() {
        let mut r = Rehearsal::default();
        r.answer("b", false, 3);
        r.answer("a", false, 5);
        r.answer("c", false, 9);
        assert_eq!(r.due_on(7), vec!["b".to_owned(), "a".to_owned()]);
    }

    #[test]
    fn trend_keeps_the_last_drills() {
        let mut r = Rehearsal::default();
        for i in 0..40u32 {
            r.finish(DrillRecord {
                day: 1,
                seed: u64::from(i),
                asked: 4,
                points: i * 10,
            });
        }
        let t = r.trend();
        assert_eq!(t.len(), TREND_LEN);
        assert_eq!(t.last(), Some(&(39 * 10 / 4)));
    }
}
