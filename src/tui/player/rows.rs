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

/// The rows the lanes want when every lane gets its own (raced handlers and the run before
/// included).
pub fn rows_wanted(tl: &Timeline, compare: bool) -> usize {
    tl.lanes
        .iter()
        .map(|&l| match l {
            Lane::Call(i) => {
                let ghost = tl.calls[i]
                    .segments
                    .iter()
                    .any(|s| s.kind == SegKind::Ghost);
                1 + usize::from(ghost) + usize::from(compare)
            }
            Lane::Turn(_) => 1,
        })
        .sum()
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
    /// The same call in the run before the last re-run.
    Before,
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
    compare: bool,
) -> Vec<Row> {
    let lanes = &tl.lanes;
    let has_ghost = |l: Lane| match l {
        Lane::Call(i) => tl.calls[i]
            .segments
            .iter()
            .any(|s| s.kind == SegKind::Ghost),
        Lane::Turn(_) => false,
    };
    let rows_of = |l: Lane, ghosts: bool| -> Vec<Row> {
        let mut out = Vec::new();
        if ghosts && has_ghost(l) {
            out.push(Row::Lane(l, Part::NoGhost));
            out.push(Row::Lane(l, Part::Ghost));
        } else {
            out.push(Row::Lane(l, Part::All));
        }
        if compare && matches!(l, Lane::Call(_)) {
            out.push(Row::Lane(l, Part::Before));
        }
        out
    };
    // Count before building: a run of thousands of calls never fits.
    let calls = tl.calls.len();
    let plain = lanes.len() + if compare { calls } else { 0 };
    for ghosts in [true, false] {
        let want = if ghosts {
            rows_wanted(tl, compare)
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
