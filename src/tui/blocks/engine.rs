//! The one place blocks call the real core: the validator and the executor, with rule
//! switches. Widgets never compute a verdict themselves and never read a fixture's
//! `expected` to produce an actual; they ask these functions.

use serde_json::Value;

use crate::content::Content;
use crate::executor::cases::ExecCase;
use crate::executor::{Context, Envelope, ErrorCode, ExecRules, Record, Store};
use crate::validate::cases::{NamedSchema, ValidatorCase, Verdict};
use crate::validate::{CheckKind, Schema, ValidatorRules, Violation};

// ---------------------------------------------------------------- validator

/// A validator rule the learner can switch off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValRule {
    Required,
    Unknown,
    Type,
    BoolGuard,
    Value,
}

impl ValRule {
    pub const ALL: [ValRule; 5] = [
        ValRule::Required,
        ValRule::Unknown,
        ValRule::Type,
        ValRule::BoolGuard,
        ValRule::Value,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ValRule::Required => "required check",
            ValRule::Unknown => "unknown-key check",
            ValRule::Type => "type check",
            ValRule::BoolGuard => "bool guard",
            ValRule::Value => "value constraints",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            ValRule::Required => "required",
            ValRule::Unknown => "unknown",
            ValRule::Type => "type",
            ValRule::BoolGuard => "bool_guard",
            ValRule::Value => "value",
        }
    }

    pub fn from_key(k: &str) -> Option<ValRule> {
        ValRule::ALL.into_iter().find(|r| r.key() == k)
    }
}

/// The ordered checks of the validator pipeline, as drawn.
pub const VAL_STAGES: [CheckKind; 5] = [
    CheckKind::Parse,
    CheckKind::Missing,
    CheckKind::Unknown,
    CheckKind::Type,
    CheckKind::Value,
];

pub fn check_word(kind: CheckKind) -> &'static str {
    match kind {
        CheckKind::Parse => "parse",
        CheckKind::Missing => "missing",
        CheckKind::Unknown => "unknown",
        CheckKind::Type => "type",
        CheckKind::Value => "value",
    }
}

/// The stage label in the pipeline ("required" for the missing check).
pub fn stage_label(kind: CheckKind) -> &'static str {
    match kind {
        CheckKind::Parse => "parse",
        CheckKind::Missing => "required",
        CheckKind::Unknown => "unknown",
        CheckKind::Type => "type",
        CheckKind::Value => "value",
    }
}

/// Arguments as the model wrote them: a JSON value, or raw text to parse first.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgsInput {
    Value(Value),
    Text(String),
}

impl ArgsInput {
    pub fn from_case(args: &Option<Value>, args_text: &Option<String>) -> ArgsInput {
        match (args_text, args) {
            (Some(t), _) => ArgsInput::Text(t.clone()),
            (None, Some(v)) => ArgsInput::Value(v.clone()),
            (None, None) => ArgsInput::Value(Value::Null),
        }
    }

    /// Text for display and editors.
    pub fn display(&self) -> String {
        match self {
            ArgsInput::Text(t) => t.clone(),
            ArgsInput::Value(v) => crate::tui::blocks::common::json_compact(v),
        }
    }
}

/// One validator run.
#[derive(Debug, Clone, PartialEq)]
pub struct ValRun {
    /// The first failure (what the contract's one-line verdict reports).
    pub first: Option<Violation>,
    /// Every failure, in check order (`--all`).
    pub all: Vec<Violation>,
}

impl ValRun {
    pub fn verdict(&self) -> Verdict {
        match &self.first {
            None => Verdict {
                ok: true,
                error: String::new(),
            },
            Some(v) => Verdict {
                ok: false,
                error: v.message.clone(),
            },
        }
    }

    /// `ok` or the check word that fired (`missing`, `unknown`, `type`, `value`, `parse`).
    pub fn outcome(&self) -> &'static str {
        self.first.as_ref().map_or("ok", |v| check_word(v.kind))
    }
}

/// A schema resolved from a fixture reference (a name in `schemas.json` or inline JSON),
/// exactly as `tooldojo check` resolves it.
pub fn resolve_schema(
    schema: &Value,
    required: &[String],
    named: &[(String, NamedSchema)],
) -> Result<Schema, String> {
    crate::validate::cases::resolve_schema(schema, required, named)
}

/// The validator's switches with `off` switched off (everything else on).
pub fn validator_rules(off: Option<ValRule>) -> ValidatorRules {
    let mut r = ValidatorRules::ALL_ON;
    match off {
        None => {}
        Some(ValRule::Required) => r.required = false,
        Some(ValRule::Unknown) => r.unknown = false,
        Some(ValRule::Type) => r.types = false,
        Some(ValRule::BoolGuard) => r.bool_guard = false,
        Some(ValRule::Value) => r.values = false,
    }
    r
}

/// Run the real validator with one rule (or none) switched off. Text goes through the
/// validator's own strict reader (key order kept, repeated keys refused).
pub fn run_validator(schema: &Schema, args: &ArgsInput, off: Option<ValRule>) -> ValRun {
    let rules = validator_rules(off);
    let (first, all) = match args {
        ArgsInput::Value(v) => (
            crate::validate::validate_with(schema, v, &rules).err(),
            crate::validate::validate_all_with(schema, v, &rules),
        ),
        ArgsInput::Text(t) => (
            crate::validate::validate_text(schema, t, &rules).err(),
            crate::validate::validate_text_all(schema, t, &rules),
        ),
    };
    ValRun { first, all }
}

/// Run a validator fixture row. `Err` when the row itself is broken.
pub fn run_validator_case(
    case: &ValidatorCase,
    named: &[(String, NamedSchema)],
    off: Option<ValRule>,
) -> Result<ValRun, String> {
    let schema = resolve_schema(&case.schema, &case.required, named)?;
    let args = match (&case.args, &case.args_text) {
        (Some(v), None) => ArgsInput::Value(v.clone()),
        (None, Some(t)) => ArgsInput::Text(t.clone()),
        (Some(_), Some(_)) => return Err("the row has both args and args_text".into()),
        (None, None) => return Err("the row has neither args nor args_text".into()),
    };
    Ok(run_validator(&schema, &args, off))
}

// ---------------------------------------------------------------- executor

/// An executor rule the learner can switch off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExecRule {
    Allowlist,
    ExactShape,
    IdFormat,
    ReadPermission,
    TenantScope,
    CopyOnReturn,
}

impl ExecRule {
    pub const ALL: [ExecRule; 6] = [
        ExecRule::Allowlist,
        ExecRule::ExactShape,
        ExecRule::IdFormat,
        ExecRule::ReadPermission,
        ExecRule::TenantScope,
        ExecRule::CopyOnReturn,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ExecRule::Allowlist => "tool allowlist",
            ExecRule::ExactShape => "exact shape",
            ExecRule::IdFormat => "ticket_id format",
            ExecRule::ReadPermission => "read permission",
            ExecRule::TenantScope => "tenant scoping",
            ExecRule::CopyOnReturn => "copy on return",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            ExecRule::Allowlist => "allowlist",
            ExecRule::ExactShape => "exact_shape",
            ExecRule::IdFormat => "id_format",
            ExecRule::ReadPermission => "read_permission",
            ExecRule::TenantScope => "tenant_scope",
            ExecRule::CopyOnReturn => "copy_on_return",
        }
    }

    pub fn from_key(k: &str) -> Option<ExecRule> {
        ExecRule::ALL.into_iter().find(|r| r.key() == k)
    }
}

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
}

/// The executor's switches with `off` switched off (everything else on).
pub fn exec_rules(off: Option<ExecRule>) -> ExecRules {
    let mut r = ExecRules::ALL_ON;
    match off {
        None => {}
        Some(ExecRule::Allowlist) => r.allowlist = false,
        Some(ExecRule::ExactShape) => r.exact_shape = false,
        Some(ExecRule::IdFormat) => r.id_format = false,
        Some(ExecRule::ReadPermission) => r.read_permission = false,
        Some(ExecRule::TenantScope) => r.tenant_scoping = false,
        Some(ExecRule::CopyOnReturn) => r.copy_on_return = false,
    }
    r
}

/// Which check refused the call. The envelope carries only a code; `invalid_arguments`
/// is split into shape and value by the executor's detail (`ticket_id must ...` is the
/// value check, everything else the shape check). A test pins this on real rows.
pub fn stage_of(envelope: &Envelope) -> Option<Stage> {
    match envelope {
        Envelope::Ok { .. } => None,
        Envelope::Err { code, detail } => Some(match code {
            ErrorCode::UnknownTool => Stage::Name,
            ErrorCode::InvalidArguments if detail.starts_with("ticket_id must") => Stage::Value,
            ErrorCode::InvalidArguments => Stage::Shape,
            ErrorCode::Forbidden => Stage::Permission,
            ErrorCode::NotFound => Stage::Lookup,
        }),
    }
}

/// Run the real executor with one rule (or none) switched off, on a fresh store built
/// from `records`. With `mutate`, the caller then changes the returned ticket the way a
/// careless caller would, and the store is compared with what it held before.
pub fn run_exec(
    tool: &str,
    args: &ArgsInput,
    ctx: &Context,
    records: &[Record],
    off: Option<ExecRule>,
    mutate: bool,
) -> ExecRun {
    let rules = exec_rules(off);
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
    off: Option<ExecRule>,
) -> Result<ExecRun, String> {
    let run = crate::executor::cases::run_case(case, records, &exec_rules(off))?;
    Ok(ExecRun {
        fired: stage_of(&run.envelope),
        agrees: run.passes(&case.expected),
        envelope: run.envelope.to_value(),
        store_changed: run.store_changed,
    })
}

/// Short human words for a trusted context: `alpha, read allowed`.
pub fn context_words(ctx: &Context) -> String {
    format!(
        "{}, read {}",
        crate::sanitize::clean(&ctx.tenant, false),
        if ctx.can_read_tickets {
            "allowed"
        } else {
            "denied"
        }
    )
}

/// The shortest words for a trusted context, for narrow table cells: `alpha, allowed`.
pub fn context_short(ctx: &Context) -> String {
    format!(
        "{}, {}",
        crate::sanitize::clean(&ctx.tenant, false),
        if ctx.can_read_tickets {
            "allowed"
        } else {
            "denied"
        }
    )
}

/// Loaded fixture tables a block needs, with a message naming the file on error.
pub fn load_named_schemas(content: &Content) -> Result<Vec<(String, NamedSchema)>, String> {
    crate::validate::cases::schemas(content).map_err(|e| e.to_string())
}
