//! Which lanes get a row of their own at a given height and time: every lane when they fit
//! (with a row for raced handlers and for the run before), otherwise a window around the
//! selected or busiest lane and the rest grouped by state, never dropped.

use std::ops::Range;

use crate::replay::index::ALL_STATES;
use crate::replay::run::{Lane, LaneState, Run};

/// One drawn row of the lane area.
#[derive(Debug, Clone, PartialEq)]
pub enum Row {
    Lane(Lane, Part),
    /// Lanes that do not fit, grouped by their state (the word) at the cursor.
    Group(String, Grouped),
}

/// The lanes of a group row: every lane in one of `states` at the cursor, except the lanes
/// at positions `shown` (they have rows of their own).
#[derive(Debug, Clone, PartialEq)]
pub struct Grouped {
    pub states: Vec<LaneState>,
    pub shown: Range<usize>,
    /// How many lanes that is.
    pub lanes: usize,
    /// How many of them are turns' lanes (the rest are calls').
    pub turns: usize,
}

/// The rows the lanes want when every lane gets its own (raced handlers, the run before and
/// its raced handlers included).
pub fn rows_wanted(tl: &Run, before: Option<&Run>) -> usize {
    let own = tl.lanes.len() + tl.index.ghost_calls().len();
    let Some(b) = before else { return own };
    // Each call of `b` with a raced handler, found by the calls of `tl` that are it.
    let before_ghosts: usize = b
        .index
        .ghost_calls()
        .iter()
        .filter_map(|&j| {
            let c = &b.calls[j as usize];
            let (first, _) = b.index.find_call(&c.id, c.turn)?;
            let (_, n) = tl.index.find_call(&c.id, c.turn)?;
            (first == j as usize).then_some(n)
        })
        .sum();
    own + tl.calls.len() + before_ghosts
}

/// Whether call `i` has a handler that ran on after its caller gave up.
fn has_ghost(tl: &Run, i: usize) -> bool {
    tl.index.has_ghost(i)
}

/// Call `i` of `tl` in the run `before` (the same id proposed in the same turn).
pub fn same_call(before: &Run, tl: &Run, i: usize) -> Option<usize> {
    let c = &tl.calls[i];
    before
        .index
        .find_call(&c.id, c.turn)
        .map(|(first, _)| first)
}

/// Whether call `i` of `tl` had a raced handler in the run `before`.
fn before_has_ghost(before: &Run, tl: &Run, i: usize) -> bool {
    same_call(before, tl, i).is_some_and(|j| has_ghost(before, j))
}

/// Which part of a lane a row shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Everything (raced handlers drawn over the caller's waits).
    All,
    /// The caller's side; the raced handlers have a row of their own below.
    NoGhost,
    /// Race mode: handlers that ran on after their caller gave up.
    Ghost,
    /// The same call in the run before the last re-run (its raced handlers drawn over its
    /// waits).
    Before,
    /// The run before, the caller's side; its raced handlers have `BeforeGhost` below.
    BeforeNoGhost,
    /// The run before: its handlers that ran on after their caller gave up.
    BeforeGhost,
}

impl Part {
    /// A row of the run before the last re-run.
    pub fn is_before(self) -> bool {
        matches!(self, Part::Before | Part::BeforeNoGhost | Part::BeforeGhost)
    }

    /// A row of raced handlers only.
    pub fn is_ghost(self) -> bool {
        matches!(self, Part::Ghost | Part::BeforeGhost)
    }

    /// A row without the raced handlers (they have their own row).
    pub fn without_ghosts(self) -> bool {
        matches!(self, Part::NoGhost | Part::BeforeNoGhost)
    }
}

/// Which lanes get a row of their own; the rest are grouped by state, never dropped.
pub fn choose_rows(
    tl: &Run,
    t: u64,
    selected: Option<usize>,
    rows: usize,
    before: Option<&Run>,
) -> Vec<Row> {
    let lanes = &tl.lanes;
    let compare = before.is_some();
    let rows_of = |l: Lane, ghosts: bool| -> Vec<Row> {
        let Lane::Call(i) = l else {
            return vec![Row::Lane(l, Part::All)];
        };
        let mut out = Vec::new();
        if ghosts && has_ghost(tl, i) {
            out.push(Row::Lane(l, Part::NoGhost));
            out.push(Row::Lane(l, Part::Ghost));
        } else {
            out.push(Row::Lane(l, Part::All));
        }
        match before {
            Some(b) if ghosts && before_has_ghost(b, tl, i) => {
                out.push(Row::Lane(l, Part::BeforeNoGhost));
                out.push(Row::Lane(l, Part::BeforeGhost));
            }
            Some(_) => out.push(Row::Lane(l, Part::Before)),
            None => {}
        }
        out
    };
    // Count before building: a run of thousands of calls never fits.
    let calls = tl.calls.len();
    let plain = lanes.len() + if compare { calls } else { 0 };
    for ghosts in [true, false] {
        let want = if ghosts {
            rows_wanted(tl, before)
        } else {
            plain
        };
        if want <= rows {
            return lanes.iter().flat_map(|&l| rows_of(l, ghosts)).collect();
        }
    }
    let with_before = |l: Lane| rows_of(l, false);
    if rows == 0 {
        return Vec::new();
    }
    // Grouping: the states present decide how many group rows to keep back.
    let ix = &tl.index;
    let counts = ALL_STATES.map(|s| ix.count(s, t));
    let turns = ALL_STATES.map(|s| ix.count_turns(s, t));
    let kinds = counts.iter().filter(|&&n| n > 0).count();
    let group_rows = kinds.min(rows.saturating_sub(1)).max(1);
    let own = (rows - group_rows) / if compare { 2 } else { 1 };
    let own = own.max(usize::from(rows > group_rows));
    let focus = selected
        .and_then(|s| ix.call_lane(s))
        .or_else(|| ix.first_busy(t))
        .unwrap_or(0);
    let first = focus
        .saturating_sub(own / 2)
        .min(lanes.len() - own.min(lanes.len()));
    let shown = first..(first + own).min(lanes.len());
    let mut out: Vec<Row> = Vec::new();
    let mut left = counts;
    let mut left_turns = turns;
    for &l in &lanes[shown.clone()] {
        out.extend(with_before(l));
        let s = tl.lane_state(l, t) as usize;
        left[s] -= 1;
        if let Lane::Turn(_) = l {
            left_turns[s] -= 1;
        }
    }
    out.truncate(rows - group_rows);
    out.extend(group_rows_for(&left, &left_turns, group_rows, &shown));
    out
}

/// The group rows for `left[state]` lanes in each state (those without a row of their own),
/// `turns[state]` of them turns', in state order; more kinds than rows: the last row takes
/// the rest, and says so.
fn group_rows_for(
    left: &[usize],
    turns: &[usize],
    group_rows: usize,
    shown: &Range<usize>,
) -> Vec<Row> {
    let groups: Vec<(LaneState, usize)> = ALL_STATES
        .iter()
        .map(|&s| (s, left[s as usize]))
        .filter(|&(_, n)| n > 0)
        .collect();
    let one = |s: LaneState, n: usize| {
        let g = Grouped {
            states: vec![s],
            shown: shown.clone(),
            lanes: n,
            turns: turns[s as usize],
        };
        Row::Group(s.word().to_owned(), g)
    };
    let mut rows_out: Vec<Row> = Vec::new();
    let keep = group_rows.saturating_sub(1);
    let overflow = groups.len() > group_rows;
    for (n, (s, count)) in groups.into_iter().enumerate() {
        if overflow && n >= keep {
            match rows_out.last_mut() {
                Some(Row::Group(label, g)) if n > keep => {
                    *label = "other".to_owned();
                    g.states.push(s);
                    g.lanes += count;
                    g.turns += turns[s as usize];
                }
                _ => rows_out.push(one(s, count)),
            }
        } else {
            rows_out.push(one(s, count));
        }
    }
    rows_out
}
