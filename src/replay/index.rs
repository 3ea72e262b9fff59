//! Indexes built once with the timeline, so that a frame costs what is on screen rather than
//! what is in the run: each lane's state as pieces of time (how many lanes are in each state
//! at T, the first busy lane at T), the lanes still changing at T, every lane's activity
//! spans sorted by the state the lane ends in (the grouped rows' density strips), and calls
//! by id (the same call in another run).

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use crate::text::width as width_of;

use super::lanes::{Lane, LaneState, Lanes, SegKind};

/// How many lane states there are (`LaneState as usize` indexes arrays of this length).
pub(crate) const STATES: usize = 6;

/// Every state, in order.
pub(crate) const ALL_STATES: [LaneState; STATES] = [
    LaneState::Later,
    LaneState::Waiting,
    LaneState::Running,
    LaneState::Backoff,
    LaneState::Ok,
    LaneState::Failed,
];

/// Lanes whose labels decide the label column's width.
const LABELLED_LANES: usize = 200;

#[derive(Debug, Clone, Default)]
pub(crate) struct LaneIndex {
    /// Per state: when each stretch of a lane in that state begins and ends, sorted.
    begins: [Vec<u64>; STATES],
    ends: [Vec<u64>; STATES],
    /// The same for the turns' lanes alone.
    turn_begins: [Vec<u64>; STATES],
    turn_ends: [Vec<u64>; STATES],
    /// From each time on, the first lane (in lane order) that is busy; `u32::MAX` for none.
    busy: Vec<(u64, u32)>,
    /// Per lane: the state it keeps once nothing on it changes any more.
    last_state: Vec<LaneState>,
    /// Lanes between their first activity and their last change.
    changing: Stab,
    /// Activity spans of every lane, by the state the lane ends in: starts and ends, sorted.
    span_starts: [Vec<u64>; STATES],
    span_ends: [Vec<u64>; STATES],
    /// The lane of each call.
    call_lane: Vec<u32>,
    /// Calls with a handler that ran on after its caller gave up.
    ghosts: Vec<u32>,
    /// Call id -> (turn, first call with that id in that turn, how many calls have both).
    by_id: HashMap<String, Vec<(u32, u32, u32)>>,
    /// The widest label among the first lanes.
    label_w: Option<usize>,
}

/// The stretches of a lane that count as activity in a density strip (attempts, a turn's
/// thinking), as (start, end).
pub(crate) fn run_spans(tl: Lanes<'_>, lane: Lane) -> impl Iterator<Item = (u64, u64)> + '_ {
    let (turn, calls) = match lane {
        Lane::Turn(i) => (Some((tl.turns[i].start, tl.turns[i].end)), &[][..]),
        Lane::Call(i) => (None, tl.calls[i].segments.as_slice()),
    };
    turn.into_iter().chain(
        calls
            .iter()
            .filter(|s| s.kind == SegKind::Run)
            .map(|s| (s.start, s.end)),
    )
}

/// Every time at which something a lane's state depends on changes, sorted, without repeats.
fn breaks(tl: Lanes<'_>, lane: Lane) -> Vec<u64> {
    let mut out = match lane {
        Lane::Turn(i) => vec![tl.turns[i].start, tl.turns[i].end],
        Lane::Call(i) => {
            let c = &tl.calls[i];
            let mut v = vec![c.proposed_ms];
            v.extend(c.result.as_ref().map(|r| r.t_ms));
            v.extend(c.segments.iter().flat_map(|s| [s.start, s.end]));
            v
        }
    };
    out.sort_unstable();
    out.dedup();
    out
}

/// A lane's state as pieces: (from, until, state), `until` `None` for the last one. The state
/// is constant between two breaks, so it is read at each.
fn pieces(tl: Lanes<'_>, lane: Lane, at: &[u64]) -> Vec<(u64, Option<u64>, LaneState)> {
    let mut out: Vec<(u64, Option<u64>, LaneState)> = Vec::new();
    let starts = (at.first() != Some(&0)).then_some(0).into_iter();
    let starts: Vec<u64> = starts.chain(at.iter().copied()).collect();
    for (k, &from) in starts.iter().enumerate() {
        let s = tl.lane_state(lane, from);
        let until = starts.get(k + 1).copied();
        match out.last_mut() {
            Some(last) if last.2 == s => last.1 = until,
            _ => out.push((from, until, s)),
        }
    }
    out
}

fn busy(s: LaneState) -> bool {
    matches!(
        s,
        LaneState::Running | LaneState::Waiting | LaneState::Backoff
    )
}

impl LaneIndex {
    pub(crate) fn build(tl: Lanes<'_>) -> LaneIndex {
        let mut ix = LaneIndex::default();
        let mut busy_edges: Vec<(u64, bool, u32)> = Vec::new();
        let mut changing = Vec::new();
        for (p, &lane) in tl.order.iter().enumerate() {
            let p = p as u32;
            let at = breaks(tl, lane);
            for (from, until, s) in pieces(tl, lane, &at) {
                ix.begins[s as usize].push(from);
                ix.ends[s as usize].extend(until);
                if let Lane::Turn(_) = lane {
                    ix.turn_begins[s as usize].push(from);
                    ix.turn_ends[s as usize].extend(until);
                }
                if busy(s) {
                    busy_edges.push((from, true, p));
                    busy_edges.extend(until.map(|u| (u, false, p)));
                }
            }
            let settle = at.last().copied().unwrap_or(0);
            let last = tl.lane_state(lane, settle);
            ix.last_state.push(last);
            let mut first = None::<u64>;
            for (a, b) in run_spans(tl, lane) {
                ix.span_starts[last as usize].push(a);
                ix.span_ends[last as usize].push(b);
                first = Some(first.map_or(a, |f| f.min(a)));
            }
            if let Some(f) = first.filter(|&f| f < settle) {
                changing.push((f, settle, p));
            }
            if let Lane::Call(i) = lane {
                if ix.call_lane.len() <= i {
                    ix.call_lane.resize(i + 1, u32::MAX);
                }
                ix.call_lane[i] = p;
            }
        }
        let turns = ix.turn_begins.iter_mut().chain(ix.turn_ends.iter_mut());
        for v in ix.begins.iter_mut().chain(ix.ends.iter_mut()).chain(turns) {
            v.sort_unstable();
        }
        for v in ix.span_starts.iter_mut().chain(ix.span_ends.iter_mut()) {
            v.sort_unstable();
        }
        ix.busy = sweep_first(busy_edges);
        ix.changing = Stab::build(&changing);
        ix.calls(tl);
        ix.label_w = tl
            .order
            .iter()
            .take(LABELLED_LANES)
            .map(|&l| width_of(&tl.lane_label(l)))
            .max();
        ix
    }

    /// Calls by id, and the ones with a raced handler.
    fn calls(&mut self, tl: Lanes<'_>) {
        for (i, c) in tl.calls.iter().enumerate() {
            let i = i as u32;
            if c.segments.iter().any(|s| s.kind == SegKind::Ghost) {
                self.ghosts.push(i);
            }
            let turns = self.by_id.entry(c.id.clone()).or_default();
            match turns.iter_mut().find(|(turn, _, _)| *turn == c.turn) {
                Some((_, _, n)) => *n += 1,
                None => turns.push((c.turn, i, 1)),
            }
        }
    }

    /// How many lanes are in state `s` at `t`.
    pub(crate) fn count(&self, s: LaneState, t: u64) -> usize {
        let k = s as usize;
        self.begins[k].partition_point(|&b| b <= t) - self.ends[k].partition_point(|&e| e <= t)
    }

    /// How many of the lanes in state `s` at `t` are turns' (the rest are calls').
    pub(crate) fn count_turns(&self, s: LaneState, t: u64) -> usize {
        let k = s as usize;
        self.turn_begins[k].partition_point(|&b| b <= t)
            - self.turn_ends[k].partition_point(|&e| e <= t)
    }

    /// The first lane (its position in lane order) waiting, running or in backoff at `t`.
    pub(crate) fn first_busy(&self, t: u64) -> Option<usize> {
        let k = self.busy.partition_point(|&(at, _)| at <= t);
        let (_, p) = *self.busy.get(k.checked_sub(1)?)?;
        (p != u32::MAX).then_some(p as usize)
    }

    /// Where call `i`'s lane is in lane order.
    pub(crate) fn call_lane(&self, i: usize) -> Option<usize> {
        self.call_lane
            .get(i)
            .filter(|&&p| p != u32::MAX)
            .map(|&p| p as usize)
    }

    /// Calls with a raced handler.
    pub(crate) fn ghost_calls(&self) -> &[u32] {
        &self.ghosts
    }

    pub(crate) fn has_ghost(&self, i: usize) -> bool {
        self.ghosts.binary_search(&(i as u32)).is_ok()
    }

    /// The first call with this id proposed in this turn, and how many there are.
    pub(crate) fn find_call(&self, id: &str, turn: u32) -> Option<(usize, usize)> {
        let turns = self.by_id.get(id)?;
        let &(_, first, n) = turns.iter().find(|(t, _, _)| *t == turn)?;
        Some((first as usize, n as usize))
    }

    /// The widest label among the first lanes.
    pub(crate) fn label_width(&self) -> Option<usize> {
        self.label_w
    }

    /// For each state, how many activity spans of the lanes in that state at `t` cover each
    /// column of the plot (spans cut at `t`), leaving out the lanes in `shown`. The plot
    /// starts at column `x0`, is `w` wide, and `col` places a time in it (never decreasing).
    pub(crate) fn density(
        &self,
        tl: Lanes<'_>,
        t: u64,
        shown: Range<usize>,
        x0: u16,
        w: u16,
        col: impl Fn(u64) -> u16,
    ) -> [Vec<usize>; STATES] {
        let w = usize::from(w);
        if w == 0 {
            return Default::default();
        }
        let mut diff: [Vec<i64>; STATES] = std::array::from_fn(|_| vec![0; w + 1]);
        let last = usize::from(col(t) - x0).min(w.saturating_sub(1));
        let mut add = |s: LaneState, a: u64, b_col: usize, n: i64| {
            let a = usize::from(col(a) - x0);
            if a <= b_col {
                diff[s as usize][a] += n;
                diff[s as usize][b_col + 1] -= n;
            }
        };
        // Lanes still changing at t: read one by one. The prefix counts below take every
        // span of a lane by its last state, so a changing lane's spans come off there.
        let mut now = Vec::new();
        self.changing.at(t, &mut now);
        for &p in &now {
            let p = p as usize;
            let lane = tl.order[p];
            let state = tl.lane_state(lane, t);
            for (a, b) in run_spans(tl, lane).filter(|&(a, _)| a <= t) {
                let full = usize::from(col(b) - x0).min(last);
                add(self.last_state[p], a, full, -1);
                if !shown.contains(&p) {
                    add(state, a, usize::from(col(b.min(t)) - x0), 1);
                }
            }
        }
        // Lanes with a row of their own are not in a group.
        for p in shown.filter(|p| now.binary_search(&(*p as u32)).is_err()) {
            for (a, b) in run_spans(tl, tl.order[p]).filter(|&(a, _)| a <= t) {
                let full = usize::from(col(b) - x0).min(last);
                add(self.last_state[p], a, full, -1);
            }
        }
        let from = column_starts(t, x0, last, &col);
        std::array::from_fn(|k| {
            let mut out = vec![0usize; w];
            let mut run = 0i64;
            let (starts, ends) = (&self.span_starts[k], &self.span_ends[k]);
            for (x, cell) in out.iter_mut().enumerate().take(last + 1) {
                run += diff[k][x];
                // Spans that began by the column's last moment, less those over before it.
                let upto = if x == last { t } else { from[x + 1] - 1 };
                let settled =
                    starts.partition_point(|&a| a <= upto) - ends.partition_point(|&b| b < from[x]);
                *cell = (settled as i64 + run).max(0) as usize;
            }
            out
        })
    }
}

/// For each plot column up to `last` (and the one after), the first time placed at or past
/// it (times up to `t` only; past `t` nothing is drawn).
fn column_starts(t: u64, x0: u16, last: usize, col: &impl Fn(u64) -> u16) -> Vec<u64> {
    (0..=last + 1)
        .map(|x| {
            let (mut lo, mut hi) = (0u64, t + 1);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if usize::from(col(mid) - x0) >= x {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            lo
        })
        .collect()
}

/// Busy stretches as (time, starts, lane) -> from each time on, the first busy lane.
fn sweep_first(mut edges: Vec<(u64, bool, u32)>) -> Vec<(u64, u32)> {
    // At one moment, ends before starts: a lane busy on both sides stays busy.
    edges.sort_unstable_by_key(|&(at, starts, p)| (at, starts, p));
    let mut set = BTreeSet::new();
    let mut out: Vec<(u64, u32)> = Vec::new();
    for (k, &(at, starts, p)) in edges.iter().enumerate() {
        if starts {
            set.insert(p);
        } else {
            set.remove(&p);
        }
        if edges.get(k + 1).is_none_or(|n| n.0 != at) {
            out.push((at, set.first().copied().unwrap_or(u32::MAX)));
        }
    }
    out
}

/// Half-open intervals [from, until) of lanes, found by a time inside them: a segment tree
/// over the intervals' ends, each interval kept at the few nodes that cover it exactly.
#[derive(Debug, Clone, Default)]
struct Stab {
    /// The ends of all intervals, sorted without repeats; leaf k is [at[k], at[k+1]).
    at: Vec<u64>,
    /// Node n holds items[first[n]..first[n + 1]].
    first: Vec<u32>,
    items: Vec<u32>,
}

impl Stab {
    fn build(spans: &[(u64, u64, u32)]) -> Stab {
        let mut at: Vec<u64> = spans.iter().flat_map(|&(a, b, _)| [a, b]).collect();
        at.sort_unstable();
        at.dedup();
        let m = at.len();
        let leaf = |v: u64| at.partition_point(|&x| x < v);
        // Each interval's nodes, as (node, lane), in two passes: count, then place.
        let mut placed: Vec<(u32, u32)> = Vec::new();
        for &(a, b, p) in spans {
            let (mut l, mut r) = (leaf(a) + m, leaf(b) + m);
            while l < r {
                if l & 1 == 1 {
                    placed.push((l as u32, p));
                    l += 1;
                }
                if r & 1 == 1 {
                    r -= 1;
                    placed.push((r as u32, p));
                }
                l >>= 1;
                r >>= 1;
            }
        }
        placed.sort_unstable();
        let mut first = vec![0u32; 2 * m + 1];
        for &(n, _) in &placed {
            first[n as usize + 1] += 1;
        }
        for n in 1..first.len() {
            first[n] += first[n - 1];
        }
        let items = placed.into_iter().map(|(_, p)| p).collect();
        Stab { at, first, items }
    }

    /// The lanes whose interval holds `t`, sorted, into `out`.
    fn at(&self, t: u64, out: &mut Vec<u32>) {
        let k = self.at.partition_point(|&x| x <= t);
        if k == 0 {
            return;
        }
        let mut n = k - 1 + self.at.len();
        while n >= 1 {
            let (a, b) = (self.first[n] as usize, self.first[n + 1] as usize);
            out.extend_from_slice(&self.items[a..b]);
            n >>= 1;
        }
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orchestrator::{TimeoutMode, load_scenario_generated, run_blocking};
    use crate::replay::run::Run;

    fn timeline(calls: usize, race: bool) -> Run {
        let mut s = load_scenario_generated(calls, 4);
        if race {
            s.timeouts = TimeoutMode::Race;
            s.budgets.call_timeout_ms = 30;
        }
        Run::from_trace(&s, run_blocking(&s, 3))
    }

    /// Each state's density the slow way: every lane not shown, read at `t`.
    fn naive_density(
        tl: Lanes<'_>,
        t: u64,
        shown: &Range<usize>,
        w: usize,
        col: &impl Fn(u64) -> u16,
    ) -> [Vec<usize>; STATES] {
        let mut out: [Vec<usize>; STATES] = std::array::from_fn(|_| vec![0; w]);
        for (p, &lane) in tl.order.iter().enumerate() {
            if shown.contains(&p) {
                continue;
            }
            let s = tl.lane_state(lane, t) as usize;
            for (a, b) in run_spans(tl, lane).filter(|&(a, _)| a <= t) {
                for x in col(a)..=col(b.min(t)) {
                    out[s][usize::from(x)] += 1;
                }
            }
        }
        out
    }

    #[test]
    fn lookups_agree_with_reading_every_lane() {
        for (calls, race) in [(60, false), (90, true)] {
            let tl = timeline(calls, race);
            let end = tl.end_ms.max(1);
            for w in [7u16, 50] {
                let col = |at: u64| (at.min(end) * u64::from(w - 1) / end) as u16;
                for t in (0..=end).step_by((end / 97).max(1) as usize).chain([end]) {
                    for s in ALL_STATES {
                        let n = tl.lanes.iter().filter(|&&l| tl.lane_state(l, t) == s);
                        assert_eq!(tl.index.count(s, t), n.count(), "{s:?} at {t}");
                    }
                    let busy = tl.lanes.iter().position(|&l| busy(tl.lane_state(l, t)));
                    assert_eq!(tl.index.first_busy(t), busy, "busy at {t}");
                    let shown = 4..11;
                    let got = tl.index.density(tl.view(), t, shown.clone(), 0, w, col);
                    let want = naive_density(tl.view(), t, &shown, usize::from(w), &col);
                    assert_eq!(got, want, "density at {t}, {w} wide, race {race}");
                }
            }
        }
    }

    #[test]
    fn stab_finds_exactly_the_intervals_holding_a_time() {
        let spans: Vec<(u64, u64, u32)> = (0..200u32)
            .map(|i| {
                let a = u64::from(i * 37 % 101);
                (a, a + 1 + u64::from(i * 13 % 29), i)
            })
            .collect();
        let stab = Stab::build(&spans);
        for t in 0..140 {
            let mut got = Vec::new();
            stab.at(t, &mut got);
            let want: Vec<u32> = spans
                .iter()
                .filter(|&&(a, b, _)| a <= t && t < b)
                .map(|&(_, _, p)| p)
                .collect();
            assert_eq!(got, want, "at {t}");
        }
    }
}
