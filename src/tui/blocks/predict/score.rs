//! Revealing rows, the score, and the review queue of missed rows.

use crate::tui::blocks::BlockWidget;
use crate::tui::blocks::common;
use crate::tui::theme::Theme;

use super::PredictWidget;

impl PredictWidget {
    /// (right on first reveal, rows revealed at least once, all rows).
    pub fn score(&self) -> (usize, usize, usize) {
        let revealed = self.rows.iter().filter(|r| r.first.is_some()).count();
        let right = self
            .rows
            .iter()
            .filter(|r| r.first.as_ref().is_some_and(|f| f.1))
            .count();
        (right, revealed, self.rows.len())
    }

    /// Ids of rows missed, in the order they were missed.
    pub fn queue(&self) -> &[String] {
        &self.queue
    }

    pub fn in_review(&self) -> bool {
        self.review
    }

    /// The rows the table shows, in order: all of them, or the rows the review asks again.
    pub(super) fn visible(&self) -> Vec<usize> {
        if self.review {
            self.pass
                .iter()
                .filter_map(|id| self.rows.iter().position(|r| r.id() == id))
                .collect()
        } else {
            (0..self.rows.len()).collect()
        }
    }

    /// The row under the cursor.
    pub(super) fn current(&self) -> Option<usize> {
        self.visible().get(self.cursor).copied()
    }

    /// Run the real code on row `i` and judge the pick; a miss joins the review queue,
    /// a right answer in review leaves it (and stays in view with its verdict).
    pub(super) fn reveal(&mut self, i: usize) {
        let actual = self.rows[i].case.run();
        let row = &mut self.rows[i];
        let Some(word) = row.pick_word().map(str::to_owned) else {
            return;
        };
        let right = word == actual.outcome;
        row.revealed = true;
        row.locked = true;
        if row.first.is_none() {
            row.first = Some((word, right));
        }
        row.actual = Some(actual);
        let id = row.id().to_owned();
        if right {
            if self.review {
                self.queue.retain(|q| q != &id);
            }
        } else if !self.queue.contains(&id) {
            self.queue.push(id);
        }
        let n = self.visible().len();
        if self.cursor >= n {
            self.cursor = n.saturating_sub(1);
        }
    }

    /// Show only the missed rows, each ready for a fresh prediction.
    pub(super) fn enter_review(&mut self) {
        self.review = true;
        self.cursor = 0;
        self.pass = self.queue.clone();
        for id in self.queue.clone() {
            if let Some(r) = self.rows.iter_mut().find(|r| r.id() == id) {
                r.reset_current();
            }
        }
    }

    pub(super) fn leave_review(&mut self) {
        self.review = false;
        self.cursor = 0;
        self.pass.clear();
        // Rows not replayed show their first reveal again.
        for row in &mut self.rows {
            if !row.revealed
                && let Some((word, _)) = row.first.clone()
            {
                row.pick = row.option_index(&word);
                row.locked = true;
                row.revealed = true;
                if row.actual.is_none() {
                    row.actual = Some(row.case.run());
                }
            }
        }
    }

    /// In review, the next row of the review still to predict after the cursor (around to
    /// the first), as an index into `visible()`.
    pub(super) fn next_in_review(&self) -> Option<usize> {
        if !self.review {
            return None;
        }
        let visible = self.visible();
        let n = visible.len();
        (1..=n)
            .map(|k| (self.cursor + k) % n)
            .find(|&pos| !self.rows[visible[pos]].revealed)
    }

    /// The score for the top border: the longest wording that fits beside the title at
    /// `width` (the score never runs into the title).
    pub(super) fn status(&self, theme: &Theme, width: u16, active: bool, demo: bool) -> String {
        let d = common::dot(theme);
        let title = self.title();
        if demo {
            // Shown to a room: nothing is scored, so only how far the table has gone.
            let shown = self.rows.iter().filter(|r| r.revealed).count();
            let total = self.rows.len();
            return [
                format!("{shown} of {total} rows shown"),
                format!("{shown}/{total} shown"),
                format!("{shown}/{total}"),
            ]
            .into_iter()
            .find(|s| common::border_fits(width, &title, s, active))
            .unwrap_or_default();
        }
        let (right, revealed, total) = self.score();
        let review = if self.queue.is_empty() {
            String::new()
        } else {
            format!(" {d} review {}", self.queue.len())
        };
        [
            format!("score {right}/{revealed} {d} {revealed} of {total} revealed{review}"),
            format!("score {right}/{revealed} {d} {revealed}/{total}{review}"),
            format!("{right}/{revealed} right{review}"),
            format!("{right}/{revealed}"),
        ]
        .into_iter()
        .find(|s| common::border_fits(width, &title, s, active))
        .unwrap_or_default()
    }
}
