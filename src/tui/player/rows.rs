//! Which lanes get a row of their own at a given height and time: every lane when they fit
//! (with a row for raced handlers and for the run before), otherwise a window around the
//! selected or busiest lane and the rest grouped by state, never dropped.

use super::model::{Lane, LaneState, SegKind, Timeline};

/// One drawn row of the lane area.
#[derive(Debug, Clone, PartialEq)]
pub enum Row {
    Lane(Lane, Part),
    /// Lanes that do not fit, grouped by their state (the word) at the cursor.
    Group(String, Vec<Lane>),
}

/// The rows the lanes want when every lane gets its own (raced handlers, the run before and
/// its raced handlers included).
pub fn rows_wanted(tl: &Timeline, before: Option<&Timeline>) -> usize {
    tl.lanes
        .iter()
        .map(|&l| match l {
            Lane::Call(i) => {
                let was = before.map(|b| 1 + usize::from(before_has_ghost(b, tl, i)));
                1 + usize::from(has_ghost(tl, i)) + was.unwrap_or(0)
            }
            Lane::Turn(_) => 1,
        })
        .sum()
}

/// Whether call `i` has a handler that ran on after its caller gave up.
fn has_ghost(tl: &Timeline, i: usize) -> bool {
    tl.calls[i]
        .segments
        .iter()
        .any(|s| s.kind == SegKind::Ghost)
}

/// Call `i` of `tl` in the run `before` (the same id proposed in the same turn).
pub fn same_call(before: &Timeline, tl: &Timeline, i: usize) -> Option<usize> {
    let c = &tl.calls[i];
    before
        .calls
        .iter()
        .position(|x| x.id == c.id && x.turn == c.turn)
}

/// Whether call `i` of `tl` had a raced handler in the run `before`.
fn before_has_ghost(before: &Timeline, tl: &Timeline, i: usize) -> bool {
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

/// The state of any lane at `t` (turns: thinking is running, answered is ok).
pub fn lane_state(tl: &Timeline, lane: Lane, t: u64) -> LaneState {
    match lane {
        Lane::Call(i) => tl.call_state(i, t),
        Lane::Turn(i) => {
            let turn = &tl.turns[i];
            if t < turn.start {
                LaneState::Later
            } else if t < turn.end {
                LaneState::Running
            } else {
                LaneState::Ok
            }
        }
    }
}

/// Which lanes get a row of their own; the rest are grouped by state, never dropped.
pub fn choose_rows(
    tl: &Timeline,
    t: u64,
    selected: Option<usize>,
    rows: usize,
    before: Option<&Timeline>,
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
    let states: Vec<LaneState> = lanes.iter().map(|&l| lane_state(tl, l, t)).collect();
    let mut kinds: Vec<LaneState> = states.clone();
    kinds.sort();
    kinds.dedup();
    let group_rows = kinds.len().min(rows.saturating_sub(1)).max(1);
    let own = (rows - group_rows) / if compare { 2 } else { 1 };
    let own = own.max(usize::from(rows > group_rows));
    let focus = selected
        .and_then(|s| lanes.iter().position(|l| *l == Lane::Call(s)))
        .or_else(|| {
            states.iter().position(|s| {
                matches!(
                    s,
                    LaneState::Running | LaneState::Waiting | LaneState::Backoff
                )
            })
        })
        .unwrap_or(0);
    let first = focus
        .saturating_sub(own / 2)
        .min(lanes.len() - own.min(lanes.len()));
    let shown = first..(first + own).min(lanes.len());
    let mut out: Vec<Row> = Vec::new();
    for &l in &lanes[shown.clone()] {
        out.extend(with_before(l));
    }
    out.truncate(rows - group_rows);
    let mut groups: Vec<(LaneState, Vec<Lane>)> = Vec::new();
    for (i, &l) in lanes.iter().enumerate() {
        if shown.contains(&i) {
            continue;
        }
        match groups.iter_mut().find(|(s, _)| *s == states[i]) {
            Some((_, v)) => v.push(l),
            None => groups.push((states[i], vec![l])),
        }
    }
    groups.sort_by_key(|(s, _)| *s);
    // More kinds than rows: the last row takes the rest, and says so.
    let mut rows_out: Vec<Row> = Vec::new();
    let keep = group_rows.saturating_sub(1);
    let overflow = groups.len() > group_rows;
    for (n, (s, v)) in groups.into_iter().enumerate() {
        if overflow && n >= keep {
            match rows_out.last_mut() {
                Some(Row::Group(label, lanes)) if n > keep => {
                    *label = "other".to_owned();
                    lanes.extend(v);
                }
                _ => rows_out.push(Row::Group(s.word().to_owned(), v)),
            }
        } else {
            rows_out.push(Row::Group(s.word().to_owned(), v));
        }
    }
    out.extend(rows_out);
    out
}
