//! The registered tools and the simulated services behind them. `get_ticket` goes through the
//! real executor; `search_tickets` (read) and `close_ticket` (write) are small simulations.
//! Latency, upstream errors and how fast a handler notices a stop come from the scenario,
//! per call and per attempt. The write service remembers idempotency keys.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use futures::FutureExt;
use futures::future::Shared;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::model::ToolDecl;
use super::scenario::AttemptScript;
use super::trace::{EventKind, Outcome, Recorder};
use crate::executor::{self, Context, Envelope, ErrorCode, Record, Store};
use crate::validate::{self, Validator};

/// The allowlist. Anything else is `unknown_tool`; a model-written name never selects code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolKind {
    GetTicket,
    SearchTickets,
    CloseTicket,
}

pub const TOOLS: [ToolKind; 3] = [
    ToolKind::GetTicket,
    ToolKind::SearchTickets,
    ToolKind::CloseTicket,
];

impl ToolKind {
    pub fn from_name(name: &str) -> Option<ToolKind> {
        TOOLS.into_iter().find(|t| t.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            ToolKind::GetTicket => "get_ticket",
            ToolKind::SearchTickets => "search_tickets",
            ToolKind::CloseTicket => "close_ticket",
        }
    }

    /// Writes change state: a timed-out write has an unknown outcome.
    pub fn is_write(self) -> bool {
        matches!(self, ToolKind::CloseTicket)
    }

    /// Argument names masked in the trace for every call of this tool.
    pub fn sensitive_args(self) -> &'static [&'static str] {
        match self {
            // Free text a user typed may carry personal data.
            ToolKind::SearchTickets => &["query"],
            _ => &[],
        }
    }

    /// The declaration shown to the model (name, description, JSON Schema): the one the
    /// validator module ships for this tool.
    pub fn decl(self) -> ToolDecl {
        let d = validate::tools::declaration(self.name()).unwrap_or_default();
        ToolDecl {
            name: self.name().to_owned(),
            description: d["description"].as_str().unwrap_or_default().to_owned(),
            input_schema: d["input_schema"].clone(),
        }
    }

    /// The validator's compiled form of the declaration.
    pub fn schema(self) -> &'static Validator {
        validate::tools::validator(self.name())
            .unwrap_or_else(|| panic!("the validator declares no tool {}", self.name()))
    }
}

/// All declarations, in registry order.
pub fn declarations() -> Vec<ToolDecl> {
    TOOLS.iter().map(|t| t.decl()).collect()
}

/// Validate a proposed call against the allowlist and the tool's declared schema, through
/// the real validator. `Ok` carries the tool and, for raw `args_text`, the parsed arguments
/// (JSON `args` are used as they are). `Err` carries the concise message the model gets back.
pub fn validate_call(
    tool: &str,
    args: Option<&Value>,
    args_text: Option<&str>,
) -> Result<(ToolKind, Option<Value>), (super::trace::Rejection, String)> {
    use super::trace::Rejection;
    let Some(kind) = ToolKind::from_name(tool) else {
        return Err((
            Rejection::UnknownTool,
            format!(
                "unknown tool: {} (registered: get_ticket, search_tickets, close_ticket)",
                crate::sanitize::clean(tool, false)
            ),
        ));
    };
    let rejected = |v: validate::Violation| (Rejection::InvalidArguments, v.message);
    let parsed = match (args, args_text) {
        (None, Some(text)) => {
            // Judged on the text, as `validate` reads it: a number beyond the float range is
            // infinity there, where a parsed value could only hold it as null.
            let rules = validate::ValidatorRules::ALL_ON;
            Some(
                kind.schema()
                    .check_text_to_value(text, &rules)
                    .map_err(rejected)?,
            )
        }
        _ => {
            kind.schema()
                .validate(args.unwrap_or(&Value::Null))
                .map_err(rejected)?;
            None
        }
    };
    Ok((kind, parsed))
}

/// What a handler produced.
#[derive(Debug, Clone, PartialEq)]
pub struct HandlerOut {
    pub outcome: Outcome,
    /// The result envelope as JSON text (what the model would be shown).
    pub body: String,
    pub error: Option<String>,
    /// An upstream failure that a retry may cure (scripted 5xx-like errors). A refused
    /// idempotency key, for one, is not.
    pub transient: bool,
}

impl HandlerOut {
    /// A failure no retry will cure.
    pub fn error(msg: impl Into<String>) -> HandlerOut {
        let msg = msg.into();
        HandlerOut {
            outcome: Outcome::Error,
            body: json!({"ok": false, "code": "error", "detail": msg}).to_string(),
            error: Some(msg),
            transient: false,
        }
    }

    fn upstream(msg: &str) -> HandlerOut {
        HandlerOut {
            transient: true,
            ..HandlerOut::error(msg)
        }
    }

    pub fn cancelled() -> HandlerOut {
        HandlerOut {
            outcome: Outcome::Cancelled,
            body: r#"{"ok":false,"code":"cancelled"}"#.to_owned(),
            error: None,
            transient: false,
        }
    }

    fn from_envelope(env: Envelope) -> HandlerOut {
        match env {
            Envelope::Ok { ticket } => HandlerOut {
                outcome: Outcome::Ok,
                body: ok_ticket_json(&ticket),
                error: None,
                transient: false,
            },
            Envelope::Err { code, detail } => {
                let outcome = match code {
                    ErrorCode::Forbidden => Outcome::Forbidden,
                    ErrorCode::NotFound => Outcome::NotFound,
                    ErrorCode::UnknownTool | ErrorCode::InvalidArguments => Outcome::Error,
                };
                let mut body = json!({"ok": false, "code": code});
                if !detail.is_empty() {
                    body["detail"] = json!(detail);
                }
                HandlerOut {
                    outcome,
                    body: body.to_string(),
                    error: (outcome == Outcome::Error).then_some(detail),
                    transient: false,
                }
            }
        }
    }
}

/// `{"ok":true,"ticket":{...}}` without building a `Value` first (the hot path).
fn ok_ticket_json(ticket: &executor::Ticket) -> String {
    #[derive(serde::Serialize)]
    struct OkTicket<'a> {
        ok: bool,
        ticket: &'a executor::Ticket,
    }
    serde_json::to_string(&OkTicket { ok: true, ticket })
        .unwrap_or_else(|_| r#"{"ok":true}"#.to_owned())
}

/// Who an attempt is, for the service's own trace lines.
#[derive(Clone)]
pub struct AttemptInfo {
    pub rec: Recorder,
    pub turn: u32,
    pub call_id: Arc<str>,
    pub attempt: u32,
}

/// The first keyed request's result, awaited by repeats that arrive while it works. Every
/// waiter is woken in the order it started waiting (a `watch` channel wakes in an order of
/// its own choosing, which would let two replays of one key swap places between runs).
type FirstResult = Shared<oneshot::Receiver<HandlerOut>>;

enum KeyEntry {
    Pending { args: Value, first: FirstResult },
    Done { args: Value, result: HandlerOut },
}

struct ServiceState {
    records: Vec<Record>,
    store: Store,
    keys: HashMap<String, KeyEntry>,
}

/// The simulated backend of one run: the ticket store (shared by reads and writes) and the
/// write service's idempotency-key memory.
pub struct Services {
    ctx: Context,
    state: Mutex<ServiceState>,
    default_latency_ms: u64,
}

/// What the write service decided when a keyed request arrived.
enum KeyRole {
    Owner(oneshot::Sender<HandlerOut>),
    Waiter(FirstResult),
    Replay(HandlerOut),
    Refuse,
}

impl Services {
    pub fn new(ctx: Context, records: Vec<Record>, default_latency_ms: u64) -> Arc<Services> {
        let store = Store::from_records(records.clone());
        Arc::new(Services {
            ctx,
            state: Mutex::new(ServiceState {
                records,
                store,
                keys: HashMap::new(),
            }),
            default_latency_ms,
        })
    }

    fn lock(&self) -> MutexGuard<'_, ServiceState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// One attempt's handler. In cancel mode it watches `stop` and gives up (after the
    /// scripted `stop_delay_ms`); in race mode nobody ever tells it to stop.
    pub async fn handle(
        self: Arc<Self>,
        kind: ToolKind,
        args: Arc<Value>,
        key: Option<String>,
        script: AttemptScript,
        stop: CancellationToken,
        info: AttemptInfo,
    ) -> HandlerOut {
        let latency = Duration::from_millis(script.latency_ms.unwrap_or(self.default_latency_ms));
        // A keyed write registers its key on arrival, before the work.
        let role = match (&key, kind.is_write() && script.error.is_none()) {
            (Some(k), true) if self.ctx.can_write_tickets => Some(self.arrive(k, &args)),
            _ => None,
        };
        let owner = matches!(role, Some(KeyRole::Owner(_)));
        let work = async {
            tokio::time::sleep(latency).await;
            if let Some(e) = &script.error {
                return HandlerOut::upstream(e);
            }
            match role {
                None => self.process(kind, &args, &info, None),
                Some(KeyRole::Owner(tx)) => {
                    let out = self.process(kind, &args, &info, key.as_deref());
                    let _ = tx.send(out.clone());
                    out
                }
                Some(KeyRole::Replay(out)) => {
                    self.replayed(&args, &info);
                    out
                }
                Some(KeyRole::Waiter(first)) => match first.await {
                    Ok(out) => {
                        self.replayed(&args, &info);
                        out
                    }
                    Err(_) => HandlerOut::error(
                        "the first request with this idempotency key was abandoned; nothing applied",
                    ),
                },
                Some(KeyRole::Refuse) => HandlerOut::error(
                    "idempotency key reused with different arguments; refused, nothing applied",
                ),
            }
        };
        tokio::select! {
            biased;
            out = work => out,
            _ = stop.cancelled() => {
                if script.stop_delay_ms > 0 {
                    tokio::time::sleep(Duration::from_millis(script.stop_delay_ms)).await;
                }
                if let (Some(k), true) = (&key, owner) {
                    self.abandon(k);
                }
                HandlerOut::cancelled()
            }
        }
    }

    fn arrive(&self, key: &str, args: &Value) -> KeyRole {
        let mut st = self.lock();
        match st.keys.get(key) {
            None => {
                let (tx, rx) = oneshot::channel();
                st.keys.insert(
                    key.to_owned(),
                    KeyEntry::Pending {
                        args: args.clone(),
                        first: rx.shared(),
                    },
                );
                KeyRole::Owner(tx)
            }
            Some(KeyEntry::Pending { args: a, first }) if a == args => {
                KeyRole::Waiter(first.clone())
            }
            Some(KeyEntry::Done { args: a, result }) if a == args => {
                KeyRole::Replay(result.clone())
            }
            Some(_) => KeyRole::Refuse,
        }
    }

    /// A keyed request that was told to stop before it was applied leaves no trace.
    fn abandon(&self, key: &str) {
        let mut st = self.lock();
        if matches!(st.keys.get(key), Some(KeyEntry::Pending { .. })) {
            st.keys.remove(key);
        }
    }

    fn replayed(&self, args: &Value, info: &AttemptInfo) {
        info.rec.emit(
            info.turn,
            EventKind::WriteApplied {
                call_id: info.call_id.clone(),
                attempt: info.attempt,
                ticket_id: ticket_id_of(args),
                replayed: true,
            },
        );
    }

    /// The work itself, at the moment the service gets to it.
    fn process(
        &self,
        kind: ToolKind,
        args: &Value,
        info: &AttemptInfo,
        key: Option<&str>,
    ) -> HandlerOut {
        match kind {
            ToolKind::GetTicket => {
                let st = self.lock();
                HandlerOut::from_envelope(executor::execute(
                    "get_ticket",
                    args,
                    &self.ctx,
                    &st.store,
                ))
            }
            ToolKind::SearchTickets => self.search(args),
            ToolKind::CloseTicket => self.close(args, info, key),
        }
    }

    /// `search_tickets`: the tenant's tickets whose title or description holds the query.
    fn search(&self, args: &Value) -> HandlerOut {
        if !self.ctx.can_read_tickets {
            return HandlerOut::from_envelope(Envelope::Err {
                code: ErrorCode::Forbidden,
                detail: String::new(),
            });
        }
        let query = args["query"].as_str().unwrap_or_default().to_lowercase();
        let page = args["page_size"].as_u64().unwrap_or(10) as usize;
        let st = self.lock();
        let hits: Vec<&str> = st
            .records
            .iter()
            .filter(|r| r.tenant == self.ctx.tenant)
            .filter(|r| {
                r.title.to_lowercase().contains(&query)
                    || r.description
                        .as_deref()
                        .is_some_and(|d| d.to_lowercase().contains(&query))
            })
            .map(|r| r.id.as_str())
            .collect();
        let total = hits.len();
        let page: Vec<&str> = hits.into_iter().take(page).collect();
        HandlerOut {
            outcome: Outcome::Ok,
            body: json!({"ok": true, "ids": page, "total": total}).to_string(),
            error: None,
            transient: false,
        }
    }

    /// `close_ticket`: the write. A keyed request's result is remembered for replays.
    fn close(&self, args: &Value, info: &AttemptInfo, key: Option<&str>) -> HandlerOut {
        if !self.ctx.can_write_tickets {
            if let Some(k) = key {
                self.abandon(k);
            }
            return HandlerOut::from_envelope(Envelope::Err {
                code: ErrorCode::Forbidden,
                detail: String::new(),
            });
        }
        let id = ticket_id_of(args);
        let mut st = self.lock();
        let tenant = &self.ctx.tenant;
        let Some(rec) = st
            .records
            .iter_mut()
            .find(|r| &r.tenant == tenant && r.id == id)
        else {
            let out = HandlerOut::from_envelope(Envelope::Err {
                code: ErrorCode::NotFound,
                detail: String::new(),
            });
            remember(&mut st, key, args, &out);
            return out;
        };
        rec.status = "closed".to_owned();
        let ticket = executor::Ticket {
            id: rec.id.clone(),
            title: rec.title.clone(),
            status: rec.status.clone(),
        };
        let records = st.records.clone();
        st.store = Store::from_records(records);
        let out = HandlerOut::from_envelope(Envelope::Ok { ticket });
        remember(&mut st, key, args, &out);
        drop(st);
        info.rec.emit(
            info.turn,
            EventKind::WriteApplied {
                call_id: info.call_id.clone(),
                attempt: info.attempt,
                ticket_id: id,
                replayed: false,
            },
        );
        out
    }
}

/// A keyed write's result, kept so a repeat of the key replays it.
fn remember(st: &mut ServiceState, key: Option<&str>, args: &Value, out: &HandlerOut) {
    if let Some(k) = key {
        st.keys.insert(
            k.to_owned(),
            KeyEntry::Done {
                args: args.clone(),
                result: out.clone(),
            },
        );
    }
}

fn ticket_id_of(args: &Value) -> String {
    args["ticket_id"].as_str().unwrap_or_default().to_owned()
}

#[cfg(test)]
mod tests {
    use super::validate_call;

    #[test]
    fn a_number_beyond_the_float_range_in_args_text_is_a_float_not_null() {
        let (_, message) = validate_call(
            "search_tickets",
            None,
            Some(r#"{"query": "x", "page_size": 1e400}"#),
        )
        .unwrap_err();
        assert!(message.contains("got float"), "{message}");
        let (_, message) =
            validate_call("search_tickets", None, Some(r#"{"query": 1e400}"#)).unwrap_err();
        assert!(
            !message.contains("null") && !message.contains("NoneType"),
            "{message}"
        );
    }
}
