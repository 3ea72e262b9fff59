//! Playback: the cursor's virtual time, play/pause, speed, stepping and scrubbing. What is
//! drawn depends only on the timeline and the cursor time, so playing to T and seeking to T
//! land on the same frame.

use super::run::{Lane, Run};

/// Frames a second while playing (the loop ticks only then).
pub const FPS: u64 = 30;
/// Real milliseconds between two ticks.
pub const TICK_MS: u64 = 1000 / FPS;

/// The speeds offered, slowest first.
pub const SPEEDS: [f64; 6] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0];
const NORMAL_SPEED: usize = 2;

/// How long a run should take to play in front of a room, in real milliseconds.
const ROOM_MS: u64 = 10_000;

/// The speed that lets a room follow a run `end_ms` long: the fastest offered that still
/// takes about ten seconds or more, the slowest when even that is quicker.
pub fn room_speed(end_ms: u64) -> f64 {
    SPEEDS
        .iter()
        .rev()
        .copied()
        .find(|s| end_ms as f64 / s >= ROOM_MS as f64)
        .unwrap_or(SPEEDS[0])
}

#[derive(Debug, Clone, PartialEq)]
pub struct Playback {
    /// Virtual time of the cursor, in microseconds (ticks advance by fractions of a ms).
    t_us: u64,
    pub playing: bool,
    speed: usize,
    /// The selected call lane (detail pane, prev/next event of this call).
    pub selected: Option<usize>,
}

impl Default for Playback {
    fn default() -> Self {
        Playback {
            t_us: 0,
            playing: false,
            speed: NORMAL_SPEED,
            selected: None,
        }
    }
}

/// What a key did to playback.
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moved {
    /// Nothing changed.
    Same,
    Changed,
}

impl Playback {
    pub fn t_ms(&self) -> u64 {
        self.t_us / 1000
    }

    pub fn speed(&self) -> f64 {
        SPEEDS[self.speed]
    }

    /// The speed as shown (`0.25x`, `1x`, `8x`).
    pub fn speed_label(&self) -> String {
        let s = self.speed();
        if s.fract() == 0.0 {
            format!("{s:.0}x")
        } else {
            format!("{s}x")
        }
    }

    pub fn set_speed(&mut self, x: f64) {
        self.speed = SPEEDS
            .iter()
            .enumerate()
            .min_by(|a, b| (a.1 - x).abs().total_cmp(&(b.1 - x).abs()))
            .map_or(NORMAL_SPEED, |(i, _)| i);
    }

    pub fn faster(&mut self) -> Moved {
        self.change(|p| p.speed = (p.speed + 1).min(SPEEDS.len() - 1))
    }

    pub fn slower(&mut self) -> Moved {
        self.change(|p| p.speed = p.speed.saturating_sub(1))
    }

    fn change(&mut self, f: impl FnOnce(&mut Playback)) -> Moved {
        let before = self.clone();
        f(self);
        if *self == before {
            Moved::Same
        } else {
            Moved::Changed
        }
    }

    /// Put the cursor at `t` ms (clamped to the run).
    pub fn seek(&mut self, tl: &Run, t: u64) -> Moved {
        let t = t.min(tl.end_ms);
        self.change(|p| p.t_us = t * 1000)
    }

    pub fn at_end(&self, tl: &Run) -> bool {
        self.t_ms() >= tl.end_ms
    }

    /// Space: play from where the cursor is (from the start again when at the end), or pause.
    pub fn toggle(&mut self, tl: &Run) -> Moved {
        if !self.playing && self.at_end(tl) {
            self.t_us = 0;
        }
        self.playing = !self.playing;
        Moved::Changed
    }

    /// One frame of play: the cursor moves by the frame's real time times the speed. Returns
    /// whether it still plays.
    pub fn tick(&mut self, tl: &Run) -> bool {
        if !self.playing {
            return false;
        }
        let step = (TICK_MS as f64 * 1000.0 * self.speed()).round() as u64;
        self.t_us = (self.t_us + step).min(tl.end_ms * 1000);
        if self.at_end(tl) {
            self.playing = false;
        }
        self.playing
    }

    /// The next moment something happens.
    pub fn step_forward(&mut self, tl: &Run) -> Moved {
        match tl.next_time(self.t_ms()) {
            Some(t) => self.seek(tl, t),
            None => self.seek(tl, tl.end_ms),
        }
    }

    pub fn step_back(&mut self, tl: &Run) -> Moved {
        match tl.prev_time(self.t_ms()) {
            Some(t) => self.seek(tl, t),
            None => self.seek(tl, 0),
        }
    }

    /// The selected call's next (or previous) event.
    pub fn call_event(&mut self, tl: &Run, forward: bool) -> Moved {
        let Some(c) = self.selected.and_then(|i| tl.calls.get(i)) else {
            return Moved::Same;
        };
        let now = self.t_ms();
        let times = c.events.iter().map(|&e| tl.events.time(e as usize));
        let target = if forward {
            times.filter(|&t| t > now).min()
        } else {
            times.filter(|&t| t < now).max()
        };
        match target {
            Some(t) => self.seek(tl, t),
            None => Moved::Same,
        }
    }

    /// Scrub by a fraction of the run (`[` `]` move a twentieth).
    pub fn scrub(&mut self, tl: &Run, twentieths: i64) -> Moved {
        let step = (tl.end_ms / 20).max(1) as i64;
        let t = (self.t_ms() as i64 + twentieths * step).max(0) as u64;
        self.seek(tl, t)
    }

    /// Tab / Shift-Tab: the next (previous) call lane, in lane order.
    pub fn select_next(&mut self, tl: &Run, forward: bool) -> Moved {
        let calls: Vec<usize> = tl
            .lanes
            .iter()
            .filter_map(|l| match l {
                Lane::Call(i) => Some(*i),
                Lane::Turn(_) => None,
            })
            .collect();
        if calls.is_empty() {
            return Moved::Same;
        }
        let pos = self
            .selected
            .and_then(|s| calls.iter().position(|&c| c == s));
        let next = match (pos, forward) {
            (None, true) => Some(calls[0]),
            (None, false) => calls.last().copied(),
            (Some(p), true) if p + 1 < calls.len() => Some(calls[p + 1]),
            (Some(p), false) if p > 0 => Some(calls[p - 1]),
            _ => None,
        };
        self.change(|p| p.selected = next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_gets_about_ten_seconds_or_the_slowest_speed() {
        assert_eq!(room_speed(1_250), 0.25, "a short run: as slow as offered");
        assert_eq!(room_speed(5_000), 0.5);
        assert_eq!(room_speed(30_000), 2.0);
        assert_eq!(room_speed(10_000), 1.0);
        assert_eq!(room_speed(10_000_000), 8.0);
    }
}
