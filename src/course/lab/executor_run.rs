//! What the executor playground runs: the real get_ticket executor with one safeguard
//! switched off, on a fresh store, and fixture rows run as `tooldojo check` runs them.

use serde_json::Value;

use super::ArgsInput;
use crate::executor::cases::ExecCase;
use crate::executor::{Context, Envelope, ErrorCode, ExecRules, Record, Safeguard, Store};

/// The executor's ordered checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    Name,
    Shape,
    Value,
    Permission,
    Lookup,
}

impl Stage {
    pub const ALL: [Stage; 5] = [
        Stage::Name,
        Stage::Shape,
        Stage::Value,
        Stage::Permission,
        Stage::Lookup,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Stage::Name => "name",
            Stage::Shape => "shape",
            Stage::Value => "value",
            Stage::Permission => "permission",
            Stage::Lookup => "lookup",
        }
    }
}

/// One executor run.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecRun {
    /// The envelope as the model would see it (the contract's JSON shape, plus `detail`).
    pub envelope: Value,
    /// The check that stopped the call (`Lookup` for a missing record, `None` on success).
    pub fired: Option<Stage>,
    /// For calls whose result is mutated afterwards: did the store change?
    pub store_changed: Option<bool>,
    /// Fixture rows: the real result agrees with the row's `expected` (free runs: true).
    pub agrees: bool,
}

impl ExecRun {
    /// `ok` or the error code.
    pub fn outcome(&self) -> String {
        if self.envelope.get("ok").and_then(Value::as_bool) == Some(true) {
            "ok".to_owned()
        } else {
            self.envelope
                .get("code")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_owned()
        }
    }

    /// The envelope without `detail`, for comparing with a fixture's expected envelope.
    pub fn contract_envelope(&self) -> Value {
        let mut v = self.envelope.clone();
        if let Value::Object(m) = &mut v {
            m.remove("detail");
        }
        v
    }

    /// The tenant whose stored ticket came back (matched by id and title in `records`).
    pub fn ticket_owner<'r>(&self, records: &'r [crate::executor::Record]) -> Option<&'r str> {
        let ticket = self.envelope.get("ticket")?;
        let (id, title) = (ticket.get("id")?.as_str()?, ticket.get("title")?.as_str()?);
        records
            .iter()
            .find(|r| r.id == id && r.title == title)
            .map(|r| r.tenant.as_str())
    }

    /// A flip cell's words and whether the result is sound for a session of `tenant`: a
    /// ticket of another tenant is named as the leak it is.
    pub fn flip_words(&self, records: &[crate::executor::Record], tenant: &str) -> (String, bool) {
        let ok = self.outcome() == "ok";
        match self.ticket_owner(records) {
            Some(owner) if owner != tenant => {
                let owner = crate::sanitize::clean(owner, false);
                (format!("{}: LEAK, {owner}'s ticket", self.words()), false)
            }
            Some(owner) => {
                let owner = crate::sanitize::clean(owner, false);
                (format!("{} ({owner}'s own)", self.words()), ok)
            }
            None => (self.words(), ok && self.store_changed != Some(true)),
        }
    }

    /// A flip cell's words: the outcome, whose ticket came back, whether the store changed.
    pub(super) fn words(&self) -> String {
        let mut s = self.outcome();
        // Two successes can differ in whose ticket came back: name it.
        if self.store_changed.is_none()
            && let Some(title) = self
                .envelope
                .pointer("/ticket/title")
                .and_then(Value::as_str)
        {
            s.push_str(&format!(": {}", crate::sanitize::clean(title, false)));
        }
        if self.store_changed == Some(true) {
            s.push_str(", store changed");
        }
        s
    }
}

/// Which check refused the call. The envelope carries only a code; `invalid_arguments`
/// is split into shape and value by the executor's detail, worded by the validator
/// (`type error: ...` and `value error: ...` are the value check, everything else the
/// shape check). A test pins this on real rows.
pub fn stage_of(envelope: &Envelope) -> Option<Stage> {
    match envelope {
        Envelope::Ok { .. } => None,
        Envelope::Err { code, detail } => Some(match code {
            ErrorCode::UnknownTool => Stage::Name,
            ErrorCode::InvalidArguments
                if detail.starts_with("type error:") || detail.starts_with("value error:") =>
            {
                Stage::Value
            }
            ErrorCode::InvalidArguments => Stage::Shape,
            ErrorCode::Forbidden => Stage::Permission,
            ErrorCode::NotFound => Stage::Lookup,
        }),
    }
}

/// Run the real executor with one safeguard (or none) switched off, on a fresh store built
/// from `records`. With `mutate`, the caller then changes the returned ticket the way a
/// careless caller would, and the store is compared with what it held before.
pub fn run_exec(
    tool: &str,
    args: &ArgsInput,
    ctx: &Context,
    records: &[Record],
    off: Option<Safeguard>,
    mutate: bool,
) -> ExecRun {
    let rules = ExecRules::without(off);
    let store = Store::from_records(records.to_vec());
    let outcome = match args {
        ArgsInput::Value(v) => crate::executor::execute_with(tool, v, ctx, &store, &rules),
        ArgsInput::Text(t) => crate::executor::execute_text(tool, t, ctx, &store, &rules),
    };
    let store_changed = match (mutate, outcome.handle) {
        (true, Some(mut handle)) => {
            let before = store.records();
            handle.set_title("changed by the caller");
            handle.set_status("closed-by-caller");
            Some(store.records() != before)
        }
        _ => None,
    };
    ExecRun {
        envelope: outcome.envelope.to_value(),
        fired: stage_of(&outcome.envelope),
        store_changed,
        agrees: true,
    }
}

/// Run a get_ticket fixture row on a fresh store, exactly as `tooldojo check` does
/// (mutation rows included). `Err` when the row itself is broken.
pub fn run_exec_case(
    case: &ExecCase,
    records: &[Record],
    off: Option<Safeguard>,
) -> Result<ExecRun, String> {
    let run = crate::executor::cases::run_case(case, records, &ExecRules::without(off))?;
    Ok(ExecRun {
        fired: stage_of(&run.envelope),
        agrees: run.passes(&case.expected),
        envelope: run.envelope.to_value(),
        store_changed: run.store_changed,
    })
}

fn read_word(ctx: &Context) -> &'static str {
    if ctx.can_read_tickets {
        "allowed"
    } else {
        "denied"
    }
}

/// Short human words for a trusted context: `alpha, read allowed`.
pub fn context_words(ctx: &Context) -> String {
    let tenant = crate::sanitize::clean(&ctx.tenant, false);
    format!("{tenant}, read {}", read_word(ctx))
}

/// The shortest words for a trusted context, for narrow table cells: `alpha, allowed`.
pub fn context_short(ctx: &Context) -> String {
    let tenant = crate::sanitize::clean(&ctx.tenant, false);
    format!("{tenant}, {}", read_word(ctx))
}
