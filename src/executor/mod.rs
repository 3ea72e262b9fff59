//! The tenant-scoped `get_ticket` adapter: an allowlisted registry of handlers, an exact
//! argument contract, trusted `Context`, a `Store` keyed by (tenant, id), and the result
//! `Envelope` the model receives.
//!
//! Check order (first failure wins): tool name, argument shape, ticket_id value, read
//! permission, lookup. Tenant and permission come only from [`Context`]; a `tenant` argument
//! is an extra field and so `invalid_arguments`, even when it names the session's tenant.
//!
//! Switching one [`Safeguard`] off in [`ExecRules`] lets a learner watch what the real code
//! then does: every switch changes the code path below, nothing is looked up in a table.

pub mod cases;
mod store;

use serde_json::{Value, json};

use crate::switches::{Switch, Switches};

use crate::validate::json::{self as vjson, Json};

pub use store::{Store, TicketHandle};

/// Trusted context: comes from authentication, never from the model.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Context {
    pub tenant: String,
    pub can_read_tickets: bool,
    #[serde(default)]
    pub can_write_tickets: bool,
}

impl Context {
    /// The grants of this context by name (`read_tickets`, `write_tickets`), for the trace.
    pub fn permissions(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.can_read_tickets {
            out.push("read_tickets");
        }
        if self.can_write_tickets {
            out.push("write_tickets");
        }
        out
    }

    /// A reader of `tenant` (read allowed, write not).
    pub fn reader(tenant: &str) -> Self {
        Context {
            tenant: tenant.to_owned(),
            can_read_tickets: true,
            can_write_tickets: false,
        }
    }
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
    pub(crate) id: String,
    pub(crate) title: String,
    pub(crate) status: String,
}

impl Ticket {
    /// Copy only the three fields the model may see.
    pub(crate) fn of(r: &Record) -> Ticket {
        Ticket {
            id: r.id.clone(),
            title: r.title.clone(),
            status: r.status.clone(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    UnknownTool,
    InvalidArguments,
    Forbidden,
    NotFound,
}

impl ErrorCode {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownTool => "unknown_tool",
            ErrorCode::InvalidArguments => "invalid_arguments",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::NotFound => "not_found",
        }
    }
}

/// The stable result envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Envelope {
    Ok { ticket: Ticket },
    Err { code: ErrorCode, detail: String },
}

impl Envelope {
    fn err(code: ErrorCode, detail: impl Into<String>) -> Self {
        Envelope::Err {
            code,
            detail: detail.into(),
        }
    }

    #[cfg(test)]
    pub(crate) fn is_ok(&self) -> bool {
        matches!(self, Envelope::Ok { .. })
    }

    /// The error code, or `None` for a success.
    #[cfg(test)]
    pub(crate) fn code(&self) -> Option<ErrorCode> {
        match self {
            Envelope::Ok { .. } => None,
            Envelope::Err { code, .. } => Some(*code),
        }
    }

    /// `ok` for a success, else the error code: the "category" of the result.
    #[cfg(test)]
    pub(crate) fn category(&self) -> &'static str {
        self.code().map_or("ok", ErrorCode::as_str)
    }

    /// The envelope as a JSON value, `ok` first:
    /// `{"ok": true, "ticket": {"id", "title", "status"}}` or
    /// `{"ok": false, "code": "...", "detail": "..."}`.
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Envelope::Ok { ticket } => json!({
                "ok": true,
                "ticket": {"id": ticket.id, "title": ticket.title, "status": ticket.status}
            }),
            Envelope::Err { code, detail } => json!({
                "ok": false,
                "code": code.as_str(),
                "detail": detail
            }),
        }
    }

    /// One line of JSON, spaced the way the contract writes it.
    pub fn to_json(&self) -> String {
        vjson::dumps(&self.to_value())
    }

    /// Does this envelope agree with an expected one? Every field the expected object names
    /// must be equal (so fixtures may leave out `detail`); nothing else is compared.
    #[cfg(test)]
    pub(crate) fn matches(&self, expected: &Value) -> bool {
        let actual = self.to_value();
        match (expected, &actual) {
            (Value::Object(want), Value::Object(got)) => {
                want.iter().all(|(k, v)| got.get(k).is_some_and(|g| g == v))
            }
            _ => false,
        }
    }
}

/// A safeguard a learner may switch off, one at a time. Progress files store the serde name;
/// the command line spells it its own way (`exec --off`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Safeguard {
    /// Only registered names run. Off: a naive adapter that never reads the name runs its
    /// one handler for any name (so `delete_ticket` returns a ticket).
    #[serde(rename = "allowlist")]
    Allowlist,
    /// Args must be an object with exactly the declared fields. Off: extra fields (such as
    /// `tenant`) are ignored and only `ticket_id` is read.
    #[serde(rename = "exact_shape")]
    ExactShape,
    /// ticket_id must be a string `TKT-` + three ASCII digits. Off: any value is looked up
    /// as it is (a number by its digits).
    #[serde(rename = "id_format")]
    IdFormat,
    /// The context must allow reading. Off: anyone may read.
    #[serde(rename = "read_permission")]
    ReadPermission,
    /// Look up by (tenant, id). Off: by id alone, across tenants (the first stored record
    /// with that id wins), so one tenant can read another's ticket.
    #[serde(rename = "tenant_scope")]
    TenantScoping,
    /// Return a copy. Off: the caller's handle aliases the stored record, so changing the
    /// result changes the store.
    #[serde(rename = "copy_on_return")]
    CopyOnReturn,
}

impl Switch for Safeguard {
    const ALL: &'static [Safeguard] = &[
        Safeguard::Allowlist,
        Safeguard::ExactShape,
        Safeguard::IdFormat,
        Safeguard::ReadPermission,
        Safeguard::TenantScoping,
        Safeguard::CopyOnReturn,
    ];
}

impl Safeguard {
    /// Words for the safeguard in a list of switches.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Safeguard::Allowlist => "tool allowlist",
            Safeguard::ExactShape => "exact shape",
            Safeguard::IdFormat => "ticket_id format",
            Safeguard::ReadPermission => "read permission",
            Safeguard::TenantScoping => "tenant scoping",
            Safeguard::CopyOnReturn => "copy on return",
        }
    }
}

/// Which safeguards are on; all are on by default.
pub type ExecRules = Switches<Safeguard>;

/// What a call produced: the envelope, and for a success the handle the caller holds
/// (a private copy, or with `copy_on_return` off an alias of the stored record).
#[derive(Debug, Clone)]
pub struct Outcome {
    pub envelope: Envelope,
    pub(crate) handle: Option<TicketHandle>,
}

impl Outcome {
    fn err(code: ErrorCode, detail: impl Into<String>) -> Self {
        Outcome {
            envelope: Envelope::err(code, detail),
            handle: None,
        }
    }
}

/// A tool handler: already-parsed args, trusted context, the store, the switches.
pub(crate) type Handler = fn(&Json<'_>, &Context, &Store, &ExecRules) -> Outcome;

/// The allowlist: tool name -> handler. A model-given name selects code only by an exact
/// match here; nothing is ever evaluated or loaded by name.
#[derive(Debug, Clone)]
pub(crate) struct Registry {
    tools: Vec<(&'static str, Handler)>,
}

impl Default for Registry {
    fn default() -> Self {
        Registry::standard()
    }
}

impl Registry {
    /// The course's executor: `get_ticket` only.
    pub(crate) fn standard() -> Self {
        Registry {
            tools: vec![("get_ticket", get_ticket as Handler)],
        }
    }

    /// The standard registry, built once.
    pub(crate) fn shared() -> &'static Registry {
        static STANDARD: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
        STANDARD.get_or_init(Registry::standard)
    }

    /// Registered names, in registration order.
    pub(crate) fn names(&self) -> Vec<&'static str> {
        self.tools.iter().map(|(n, _)| *n).collect()
    }

    /// The handler for `name`. With the allowlist off, the naive adapter's behaviour: the
    /// name is not looked at and the first registered handler serves every call.
    pub(crate) fn lookup(&self, name: &str, rules: &ExecRules) -> Option<Handler> {
        let exact = self.tools.iter().find(|(n, _)| *n == name).map(|(_, h)| *h);
        if rules.is_on(Safeguard::Allowlist) {
            exact
        } else {
            exact.or_else(|| self.tools.first().map(|(_, h)| *h))
        }
    }

    /// Run one call through this registry.
    pub(crate) fn execute(
        &self,
        name: &str,
        args: &Json<'_>,
        ctx: &Context,
        store: &Store,
        rules: &ExecRules,
    ) -> Outcome {
        match self.lookup(name, rules) {
            Some(handler) => handler(args, ctx, store, rules),
            None => Outcome::err(
                ErrorCode::UnknownTool,
                format!(
                    "no tool named {} is registered",
                    serde_json::to_string(&vjson::cut(name, 60)).unwrap_or_default()
                ),
            ),
        }
    }
}

/// Execute a model-proposed call. Order: tool name, argument shape, ticket_id value,
/// read permission, lookup.
pub fn execute(name: &str, args: &Value, ctx: &Context, store: &Store) -> Envelope {
    execute_with(name, args, ctx, store, &ExecRules::ALL_ON).envelope
}

/// [`execute`] with some safeguards switched off; also returns the caller's handle.
pub(crate) fn execute_with(
    name: &str,
    args: &Value,
    ctx: &Context,
    store: &Store,
    rules: &ExecRules,
) -> Outcome {
    Registry::shared().execute(name, &Json::from_value(args), ctx, store, rules)
}

/// Execute with raw argument text: text that is not JSON, or repeats a key, is
/// `invalid_arguments` (after the tool-name check, which comes first).
pub fn execute_text(
    name: &str,
    text: &str,
    ctx: &Context,
    store: &Store,
    rules: &ExecRules,
) -> Outcome {
    let registry = Registry::shared();
    if registry.lookup(name, rules).is_none() {
        return registry.execute(name, &Json::Null, ctx, store, rules);
    }
    match vjson::parse(text) {
        Ok(args) => registry.execute(name, &args, ctx, store, rules),
        Err(e) => Outcome::err(ErrorCode::InvalidArguments, e.message()),
    }
}

/// The `get_ticket` handler.
fn get_ticket(args: &Json<'_>, ctx: &Context, store: &Store, rules: &ExecRules) -> Outcome {
    use ErrorCode::*;
    // 2. argument shape and 3. the ticket_id value: the validator's checks against the
    // registered declaration, so the orchestrator and this adapter word a bad call alike.
    if let Err(v) = check_args(args, rules) {
        return Outcome::err(InvalidArguments, v.message);
    }
    let id: String = match args.get("ticket_id") {
        Some(Json::Str(s)) => s.to_string(),
        Some(other) => other.show(),
        None => String::new(),
    };
    // 4. read permission, from the trusted context only
    if rules.is_on(Safeguard::ReadPermission) && !ctx.can_read_tickets {
        return Outcome::err(Forbidden, "this session may not read tickets");
    }
    // 5. lookup, scoped to the context's tenant
    let cell = if rules.is_on(Safeguard::TenantScoping) {
        store.cell(&ctx.tenant, &id)
    } else {
        store.cell_by_id(&id)
    };
    let Some(cell) = cell else {
        return Outcome::err(
            NotFound,
            format!(
                "no ticket {} for this tenant",
                serde_json::to_string(&vjson::cut(&id, 40)).unwrap_or_default()
            ),
        );
    };
    let ticket = store::read(&cell, Ticket::of);
    let handle = if rules.is_on(Safeguard::CopyOnReturn) {
        TicketHandle::Copy(ticket.clone())
    } else {
        TicketHandle::Shared(cell)
    };
    Outcome {
        envelope: Envelope::Ok { ticket },
        handle: Some(handle),
    }
}

/// The argument checks of `get_ticket`, in the validator's order and words (missing, unknown,
/// type, value), against the declaration the orchestrator shows the model: one source for
/// both. `exact_shape` off lets extra fields through; `id_format` off skips the type and
/// value checks, so any `ticket_id` is looked up as it is.
fn check_args(args: &Json<'_>, rules: &ExecRules) -> Result<(), crate::validate::Violation> {
    use crate::validate::{self, Rule, ValidatorRules};
    let validator = validate::tools::validator("get_ticket")
        .expect("the validator declares get_ticket, the executor's one tool");
    let mut checks = ValidatorRules::ALL_ON;
    checks.set(Rule::Unknown, rules.is_on(Safeguard::ExactShape));
    let format = rules.is_on(Safeguard::IdFormat);
    checks.set(Rule::Types, format);
    checks.set(Rule::Values, format);
    validator.check(args, &checks)
}

#[cfg(test)]
mod tests;
