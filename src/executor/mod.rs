//! The tenant-scoped `get_ticket` adapter: an allowlisted registry of handlers, an exact
//! argument contract, trusted `Context`, a `Store` keyed by (tenant, id), and the result
//! `Envelope` of seed 004.
//!
//! OWNER: foundation helper. The items below are the interface other modules use;
//! add freely, do not rename.

use serde_json::Value;

/// Trusted context: comes from authentication, never from the model.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Context {
    pub tenant: String,
    pub can_read_tickets: bool,
    #[serde(default)]
    pub can_write_tickets: bool,
}

/// A stored ticket (the `fixtures/tickets.json` record format).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    pub tenant: String,
    pub id: String,
    pub title: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// What the model gets back: only id, title and status.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ticket {
    pub id: String,
    pub title: String,
    pub status: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    UnknownTool,
    InvalidArguments,
    Forbidden,
    NotFound,
}

/// The stable result envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Envelope {
    Ok { ticket: Ticket },
    Err { code: ErrorCode, detail: String },
}

/// The ticket store, keyed by (tenant, id) as a pair.
#[derive(Debug, Clone, Default)]
pub struct Store {
    _todo: (),
}

impl Store {
    pub fn from_records(records: Vec<Record>) -> Store {
        let _ = records;
        unimplemented!("foundation helper")
    }
}

/// Execute a model-proposed call. Order: tool name, argument shape, ticket_id value,
/// read permission, lookup.
pub fn execute(name: &str, args: &Value, ctx: &Context, store: &Store) -> Envelope {
    let _ = (name, args, ctx, store);
    unimplemented!("foundation helper")
}
