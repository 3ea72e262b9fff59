//! The scenario file (`fixtures/scenarios/*.json`): what the scripted model proposes, the
//! budgets, and how the simulated services behave per call and per attempt.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::budgets::Budgets;
use crate::executor::{Context, Record};
use crate::sanitize::quote;

/// How a timed-out attempt is treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutMode {
    /// The handler is told to stop (it watches a cancellation token) and does so within a grace.
    #[default]
    Cancel,
    /// The caller only stops waiting; the handler runs on and its late finish is recorded.
    Race,
}

/// The most calls a scenario file may declare, over all its turns. A teaching scenario has
/// a handful; the cap keeps a run (every event of which is kept for the player) and its
/// trace within memory whatever the file says.
pub const MAX_CALLS: usize = 10_000;

/// One scenario, as written in its file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The name the scenario is known by (its file stem); set when it is loaded.
    #[serde(skip)]
    pub name: String,
    pub title: String,
    /// One teaching paragraph: what the run shows.
    #[serde(default)]
    pub note: String,
    /// The task the user gave (the first message of the transcript).
    #[serde(default)]
    pub task: Option<String>,
    pub context: Context,
    #[serde(default)]
    pub budgets: Budgets,
    #[serde(default)]
    pub timeouts: TimeoutMode,
    #[serde(default)]
    pub cancel_at_ms: Option<u64>,
    #[serde(default = "default_model_latency")]
    pub model_latency_ms: u64,
    #[serde(default = "default_latency")]
    pub default_latency_ms: u64,
    /// Per call id: how each attempt behaves. Attempts not listed take the defaults.
    #[serde(default)]
    pub calls: BTreeMap<String, CallScript>,
    /// What the scripted model answers, turn by turn.
    pub turns: Vec<Turn>,
    /// Argument names whose values are masked in the trace (beside each tool's own list).
    #[serde(default)]
    pub sensitive_args: Vec<String>,
    /// The write service honours idempotency keys, so the loop sends one with every write
    /// it dispatches (see [`ProposedCall::idempotency_key`] for the key itself).
    #[serde(default)]
    pub idempotency_keys: bool,
    /// Replaces the ticket store for this scenario.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub records: Option<Vec<Record>>,
    /// The default store (`fixtures/tickets.json`), filled in by `load_scenario` when the
    /// scenario brings no records of its own.
    #[serde(skip)]
    pub default_records: Vec<Record>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
}

fn default_model_latency() -> u64 {
    100
}
fn default_latency() -> u64 {
    40
}

/// What `tooldojo check` compares against a real run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    pub stop_reason: String,
    /// call id -> result category, for every call the model proposed.
    #[serde(default)]
    pub results: BTreeMap<String, String>,
}

/// The scripted behaviour of one call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallScript {
    #[serde(default)]
    pub attempts: Vec<AttemptScript>,
}

/// The scripted behaviour of one attempt of a call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptScript {
    /// How long the handler works before it answers (default: the scenario's `default_latency_ms`).
    #[serde(default)]
    pub latency_ms: Option<u64>,
    /// The upstream fails with this message instead of answering.
    #[serde(default)]
    pub error: Option<String>,
    /// In cancel mode: how long the handler takes to notice it was told to stop.
    #[serde(default)]
    pub stop_delay_ms: u64,
}

/// One model response: tool calls, or a final answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Turn {
    Final { r#final: String },
    Calls { calls: Vec<ProposedCall> },
}

/// A turn as written, so a typo inside it is reported with its own message and position.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnRepr {
    #[serde(default)]
    r#final: Option<String>,
    #[serde(default)]
    calls: Option<Vec<ProposedCall>>,
}

impl<'de> Deserialize<'de> for Turn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match TurnRepr::deserialize(d)? {
            TurnRepr {
                r#final: Some(f),
                calls: None,
            } => Ok(Turn::Final { r#final: f }),
            TurnRepr {
                r#final: None,
                calls: Some(calls),
            } => Ok(Turn::Calls { calls }),
            _ => Err(serde::de::Error::custom(
                "a turn has either \"calls\" or \"final\" (exactly one of them)",
            )),
        }
    }
}

/// A tool call as the model wrote it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProposedCall {
    pub id: String,
    pub tool: String,
    /// The arguments as JSON (shared: handing a turn to the loop copies no arguments)...
    #[serde(default, skip_serializing_if = "Option::is_none", with = "shared_args")]
    pub args: Option<Arc<Value>>,
    /// ...or as raw text the model produced (not JSON, repeated keys, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args_text: Option<String>,
    /// The older way to ask for a keyed write: present (whatever its value), it means the
    /// loop sends an idempotency key with this one call. The value itself is never used:
    /// the key always comes from the loop (`RUN_ID/CALL_ID`, the same for every attempt of
    /// the call and for every replay of the run), never from the model's turn. Prefer the
    /// scenario-wide `idempotency_keys`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}

impl ProposedCall {
    /// Does the loop send an idempotency key with this call in `scenario`, its tool a
    /// `write` or not? Only writes carry one.
    pub fn keyed(&self, scenario: &Scenario, write: bool) -> bool {
        write && (scenario.idempotency_keys || self.idempotency_key.is_some())
    }
}

/// Arguments read and written exactly as a plain `Option<Value>` would be.
mod shared_args {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value;

    pub fn serialize<S: Serializer>(v: &Option<Arc<Value>>, s: S) -> Result<S::Ok, S::Error> {
        v.as_deref().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Arc<Value>>, D::Error> {
        Ok(Option::<Value>::deserialize(d)?.map(Arc::new))
    }
}

/// The idempotency key the loop generates for a call: deterministic from the run and the
/// call, so every retry of the call carries the same key and a replay of the run too.
pub fn idempotency_key(run_id: &str, call_id: &str) -> String {
    format!("{run_id}/{call_id}")
}

impl Scenario {
    /// The ticket store this scenario runs against.
    pub fn store_records(&self) -> &[Record] {
        self.records.as_deref().unwrap_or(&self.default_records)
    }

    /// Problems a parser cannot see: repeated call ids, scripts for calls that never appear.
    pub fn lint(&self) -> Result<(), String> {
        let declared: usize = self
            .turns
            .iter()
            .map(|t| match t {
                Turn::Calls { calls } => calls.len(),
                _ => 0,
            })
            .sum();
        if declared > MAX_CALLS {
            return Err(format!(
                "declares {declared} calls; a scenario may declare at most {MAX_CALLS}"
            ));
        }
        let mut seen = std::collections::BTreeSet::new();
        for turn in &self.turns {
            if let Turn::Calls { calls } = turn {
                for c in calls {
                    if c.id.is_empty() {
                        return Err("a call has an empty id".into());
                    }
                    if !seen.insert(c.id.as_str()) {
                        return Err(format!("call id {} is used twice", quote(&c.id)));
                    }
                    if c.args.is_some() && c.args_text.is_some() {
                        return Err(format!("call {} has both args and args_text", quote(&c.id)));
                    }
                }
            }
        }
        for id in self.calls.keys() {
            if !seen.contains(id.as_str()) {
                return Err(format!(
                    "\"calls\" scripts {}, which no turn proposes",
                    quote(id)
                ));
            }
        }
        if self.budgets.max_concurrency == 0 {
            return Err("budgets.max_concurrency must be at least 1".into());
        }
        if self.budgets.max_attempts == 0 {
            return Err("budgets.max_attempts must be at least 1".into());
        }
        Ok(())
    }
}
