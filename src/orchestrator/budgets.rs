//! Budgets: every limit the loop keeps, each with a default so a scenario may leave any out,
//! and the backoff schedule for retried reads.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The limits of one run. Model turns and tool calls are separate budgets; attempts are not
/// tool calls (they spend `max_attempts`, `retry_budget` and the deadline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Budgets {
    pub max_model_turns: u32,
    pub max_tool_calls: u32,
    /// Virtual milliseconds from the start of the run.
    pub deadline_ms: u64,
    pub call_timeout_ms: u64,
    /// Attempts per call, the first one included.
    pub max_attempts: u32,
    /// The first retry's backoff; each later one doubles, up to `max_backoff_ms`.
    pub backoff_ms: u64,
    pub max_backoff_ms: u64,
    pub max_concurrency: u32,
    pub max_repairs: u32,
    pub max_result_bytes: usize,
    /// Retries the whole run may spend, across all calls.
    pub retry_budget: u32,
    /// In cancel mode, how long a told-to-stop handler may take before it is aborted.
    pub cancel_grace_ms: u64,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            max_model_turns: 6,
            max_tool_calls: 8,
            deadline_ms: 10_000,
            call_timeout_ms: 1_000,
            max_attempts: 3,
            backoff_ms: 100,
            max_backoff_ms: 2_000,
            max_concurrency: 4,
            max_repairs: 1,
            max_result_bytes: 4_096,
            retry_budget: 4,
            cancel_grace_ms: 50,
        }
    }
}

impl Budgets {
    /// Delay before attempt `failed + 1`, after attempt `failed` (1-based) failed: capped
    /// exponential backoff with "equal jitter" (half fixed, half drawn from `rng`).
    pub fn backoff(&self, failed: u32, rng: &mut ChaCha8Rng) -> u64 {
        let shift = failed.saturating_sub(1).min(30);
        let base = self
            .backoff_ms
            .saturating_mul(1u64 << shift)
            .min(self.max_backoff_ms.max(self.backoff_ms));
        let half = base / 2;
        half + rng.random_range(0..=base - half)
    }
}

/// What has been spent so far; a snapshot rides on every trace event (for budget gauges).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Used {
    pub turns: u32,
    /// Tool calls reserved (dispatched or about to be).
    pub tool_calls: u32,
    pub retries: u32,
    pub repairs: u32,
    /// Handlers running right now (each holds a concurrency permit).
    pub in_flight: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn backoff_grows_is_capped_and_is_seeded() {
        let b = Budgets {
            backoff_ms: 100,
            max_backoff_ms: 500,
            ..Budgets::default()
        };
        let mut r1 = ChaCha8Rng::seed_from_u64(7);
        let mut r2 = ChaCha8Rng::seed_from_u64(7);
        let d1: Vec<u64> = (1..=6).map(|a| b.backoff(a, &mut r1)).collect();
        let d2: Vec<u64> = (1..=6).map(|a| b.backoff(a, &mut r2)).collect();
        assert_eq!(d1, d2);
        let bounds = [(50, 100), (100, 200), (200, 400), (250, 500), (250, 500)];
        for (d, (lo, hi)) in d1.iter().zip(bounds) {
            assert!((lo..=hi).contains(d), "{d} not in {lo}..={hi}");
        }
    }
}
