//! The grading rows: every fixture row that fits the learner's signatures, plus edge cases
//! kept here in the binary (never in `fixtures/`, so the lessons cannot show them). The
//! expected result of every row, fixture or held back, is computed by running the real
//! validator or executor on exactly what the learner's function is given.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::content::Content;
use crate::error::{UserError, UserResult};
use crate::executor::{
    self, Context, Envelope, ExecRules, Record, Registry, Store, cases as exec_cases,
};
use crate::validate::{self, CheckKind, Validator, ValidatorRules, cases as val_cases};

/// Lessons a failing row sends the learner back to (ids of files in `lessons/`).
pub(crate) const LESSON_VALIDATE: &str = "02-validate-tool-args";
pub(crate) const LESSON_TRAPS: &str = "03-json-traps";
pub(crate) const LESSON_VALUES: &str = "04-value-constraints";
pub(crate) const LESSON_BOUNDARY: &str = "05-executor-boundary";
pub(crate) const LESSON_CONTRACT: &str = "06-get-ticket-contract";
pub(crate) const LESSON_TENANT: &str = "07-tenant-scope-and-copies";

/// What the harness writes into a returned ticket before it looks at the store again.
pub(crate) const MUTATED_TITLE: &str = exec_cases::MUTATED_TITLE;

/// Which of the learner's functions a row calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Function {
    /// `validate_tool_args(schema, required, args)` (Python only).
    Validate,
    /// `execute_tool(name, args, context, records)` / `executeTool(...)`.
    Execute,
}

impl Function {
    pub(crate) const ALL: [Function; 2] = [Function::Validate, Function::Execute];

    /// The name the learner defines, in Python or JavaScript spelling.
    pub(crate) fn name(self, js: bool) -> &'static str {
        match (self, js) {
            (Function::Validate, _) => "validate_tool_args",
            (Function::Execute, false) => "execute_tool",
            (Function::Execute, true) => "executeTool",
        }
    }
}

/// Where a row comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// A row of `fixtures/`, the same the lessons show.
    Fixture,
    /// An edge case kept in the binary; the lessons never show it.
    HeldBack,
}

/// What the learner's function is called with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Call {
    Validate {
        /// Flat-form schema: names and Python type names, in declared order.
        schema: Vec<(String, &'static str)>,
        required: Vec<String>,
        /// The args as JSON text; the harness decodes it the way `json.loads` does.
        args_text: String,
    },
    Execute {
        tool: String,
        args: Value,
        context: Context,
        records: Arc<Vec<Record>>,
        /// After the call, edit the returned ticket and look at the store again.
        mutate: bool,
    },
}

/// What the real code says the row must give.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expected {
    /// `(ok, message)`. When not ok, any of `messages` is right: Python hands `required`
    /// over as a set, so with two names missing either name may be reported first.
    Verdict { ok: bool, messages: Vec<String> },
    /// The envelope (only `ok`, `ticket` and `code` are compared) and, for rows that edit
    /// the returned ticket, whether the store is still the same afterwards.
    Envelope {
        envelope: Envelope,
        store_unchanged_after_edit: Option<bool>,
    },
}

/// One grading row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Unique among the rows of one function (fixture ids as in `fixtures/`, `held-*` else).
    pub(crate) id: String,
    pub function: Function,
    pub(crate) origin: Origin,
    /// The lesson to revisit when the row fails.
    pub(crate) lesson: &'static str,
    pub(crate) call: Call,
    pub(crate) expected: Expected,
}

impl Row {
    /// The request line the harness gets for this row.
    pub(crate) fn request(&self) -> Value {
        match &self.call {
            Call::Validate {
                schema,
                required,
                args_text,
            } => {
                json!({"fn": "validate", "schema": schema, "required": required, "args_text": args_text})
            }
            Call::Execute {
                tool,
                args,
                context,
                records,
                mutate,
            } => {
                let store: Vec<Value> = records.iter().map(record_entry).collect();
                json!({
                    "fn": "execute",
                    "tool": tool,
                    "args_text": serde_json::to_string(args).unwrap_or_default(),
                    "context": context_value(context),
                    "records": store,
                    "mutate": mutate,
                    "mutate_title": MUTATED_TITLE,
                })
            }
        }
    }
}

impl Row {
    /// The store of an execute row as the harness reads it back when nothing changed it:
    /// `{"alpha:TKT-104": {"id", "title", "status", "description"?}, ...}`.
    pub(crate) fn store_value(&self) -> Option<Value> {
        let Call::Execute { records, .. } = &self.call else {
            return None;
        };
        let mut map = serde_json::Map::new();
        for entry in records.iter().map(record_entry) {
            if let Value::Array(mut pair) = entry
                && pair.len() == 2
            {
                let stored = pair.pop().unwrap_or_default();
                let key = pair.pop().and_then(|k| k.as_str().map(str::to_owned));
                map.insert(key.unwrap_or_default(), stored);
            }
        }
        Some(Value::Object(map))
    }
}

/// The context the learner's function gets: the seed's camel-case keys.
pub(crate) fn context_value(ctx: &Context) -> Value {
    json!({"tenant": ctx.tenant, "canReadTickets": ctx.can_read_tickets})
}

/// One store entry: `["alpha:TKT-104", {"id", "title", "status", "description"?}]`.
fn record_entry(r: &Record) -> Value {
    let mut stored = json!({"id": r.id, "title": r.title, "status": r.status});
    if let (Some(d), Value::Object(map)) = (&r.description, &mut stored) {
        map.insert("description".into(), Value::from(d.as_str()));
    }
    json!([format!("{}:{}", r.tenant, r.id), stored])
}

/// Every grading row: fixture rows first, then the held-back edge cases, validator rows
/// before executor rows.
pub fn load(content: &Content) -> UserResult<Vec<Row>> {
    let mut rows = fixture_validator_rows(content)?;
    rows.extend(held_validator_rows()?);
    let records = Arc::new(exec_cases::tickets(content)?);
    rows.extend(fixture_exec_rows(content, &records)?);
    rows.extend(held_exec_rows(&records)?);
    Ok(rows)
}

fn lesson_for_group(group: &str) -> &'static str {
    match group {
        "trap" | "parse" => LESSON_TRAPS,
        "value" => LESSON_VALUES,
        _ => LESSON_VALIDATE,
    }
}

/// Validator fixture rows whose schema is in the flat form and whose args are an object:
/// the only ones `validate_tool_args(schema, required, args)` can be handed.
fn fixture_validator_rows(content: &Content) -> UserResult<Vec<Row>> {
    let named = val_cases::schemas(content)?;
    let mut rows = Vec::new();
    for case in val_cases::validator_cases(content)? {
        let Ok(schema) = val_cases::resolve_schema(&case.schema, &case.required, &named) else {
            continue;
        };
        let text = match (&case.args, &case.args_text) {
            (Some(v), None) => validate::json::dumps(v),
            (None, Some(t)) => t.clone(),
            _ => continue,
        };
        if let Some(row) = validator_row(
            &case.id,
            Origin::Fixture,
            lesson_for_group(&case.group),
            &schema,
            text,
        ) {
            rows.push(row);
        }
    }
    Ok(rows)
}

/// A validate row, or `None` when it does not fit the flat signature.
fn validator_row(
    id: &str,
    origin: Origin,
    lesson: &'static str,
    schema: &Validator,
    args_text: String,
) -> Option<Row> {
    let sig = schema.flat_signature()?;
    if !matches!(validate::parse_args(&args_text), Ok(Value::Object(_))) {
        return None;
    }
    let flat = sig
        .args
        .iter()
        .map(|(n, t)| (n.clone(), t.name()))
        .collect();
    let expected = expected_verdict(schema, &args_text);
    Some(Row {
        id: id.to_owned(),
        function: Function::Validate,
        origin,
        lesson,
        call: Call::Validate {
            schema: flat,
            required: sig.required.clone(),
            args_text,
        },
        expected,
    })
}

/// The real validator's verdict; with several required names missing, each of their
/// messages is a right answer.
fn expected_verdict(schema: &Validator, args_text: &str) -> Expected {
    let all = schema.check_all(args_text, &ValidatorRules::ALL_ON);
    let Some(first) = all.first() else {
        return Expected::Verdict {
            ok: true,
            messages: vec![String::new()],
        };
    };
    let messages = if first.kind == CheckKind::Missing {
        all.iter()
            .filter(|v| v.kind == CheckKind::Missing)
            .map(|v| v.message.clone())
            .collect()
    } else {
        vec![first.message.clone()]
    };
    Expected::Verdict {
        ok: false,
        messages,
    }
}

/// Held-back validator cases: (id, lesson, flat schema, required, args text).
const HELD_VALIDATOR: &[(&str, &str, &str, &[&str], &str)] = &[
    (
        "held-bool-count",
        LESSON_TRAPS,
        r#"{"title": "str", "count": "int"}"#,
        &["title"],
        r#"{"title": "Standup", "count": true}"#,
    ),
    (
        "held-bool-retries",
        LESSON_TRAPS,
        r#"{"retries": "int"}"#,
        &[],
        r#"{"retries": false}"#,
    ),
    (
        "held-bool-where-bool",
        LESSON_TRAPS,
        r#"{"notify": "bool", "count": "int"}"#,
        &["notify"],
        r#"{"notify": true, "count": 0}"#,
    ),
    (
        "held-order-all-three",
        LESSON_VALIDATE,
        r#"{"city": "str", "days": "int"}"#,
        &["city"],
        r#"{"unit": "C", "days": "3"}"#,
    ),
    (
        "held-order-unknown-before-type",
        LESSON_VALIDATE,
        r#"{"city": "str", "days": "int"}"#,
        &["city"],
        r#"{"city": 5, "zone": "UTC"}"#,
    ),
    (
        "held-order-types-as-written",
        LESSON_TRAPS,
        r#"{"city": "str", "days": "int"}"#,
        &[],
        r#"{"days": "3", "city": 5}"#,
    ),
    (
        "held-order-two-missing",
        LESSON_VALIDATE,
        r#"{"origin": "str", "target": "str"}"#,
        &["origin", "target"],
        r#"{"via": "Lyon"}"#,
    ),
];

fn held_validator_rows() -> UserResult<Vec<Row>> {
    HELD_VALIDATOR
        .iter()
        .map(|(id, lesson, schema, required, args)| {
            let required: Vec<String> = required.iter().map(|s| (*s).to_owned()).collect();
            let schema = Validator::options()
                .form(Some(validate::Form::Flat))
                .required(&required)
                .compile_text(schema)
                .map_err(|e| UserError::new(format!("held-back case {id}: {e}")))?;
            validator_row(id, Origin::HeldBack, lesson, &schema, (*args).to_owned()).ok_or_else(
                || {
                    UserError::new(format!(
                        "held-back case {id} does not fit the flat signature"
                    ))
                },
            )
        })
        .collect()
}

/// Every get_ticket row and edge case. Rows written as raw text are handed over as that
/// text (a string), since the learner's function takes already-decoded arguments.
fn fixture_exec_rows(content: &Content, records: &Arc<Vec<Record>>) -> UserResult<Vec<Row>> {
    let mut rows = Vec::new();
    for case in exec_cases::get_ticket_cases(content)? {
        let args = match (&case.args, &case.args_text) {
            (Some(v), None) => v.clone(),
            (None, Some(t)) => Value::String(t.clone()),
            _ => continue,
        };
        let lesson = (case.group == "row").then_some(LESSON_CONTRACT);
        rows.push(exec_row(
            &case.id,
            Origin::Fixture,
            lesson,
            &case.tool,
            args,
            case.context.clone(),
            records,
            case.mutate_result,
        ));
    }
    Ok(rows)
}

/// Held-back executor cases: (id, lesson, tool, args JSON, tenant, may read, edit result).
const HELD_EXEC: &[(&str, &str, &str, &str, &str, bool, bool)] = &[
    (
        "held-devanagari-digits",
        LESSON_CONTRACT,
        "get_ticket",
        r#"{"ticket_id": "TKT-\u0967\u0966\u096a"}"#,
        "alpha",
        true,
        false,
    ),
    (
        "held-mixed-digits",
        LESSON_CONTRACT,
        "get_ticket",
        r#"{"ticket_id": "TKT-1\uff105"}"#,
        "alpha",
        true,
        false,
    ),
    (
        "held-trailing-newline",
        LESSON_CONTRACT,
        "get_ticket",
        r#"{"ticket_id": "TKT-105\n"}"#,
        "alpha",
        true,
        false,
    ),
    (
        "held-unanchored-prefix",
        LESSON_CONTRACT,
        "get_ticket",
        r#"{"ticket_id": "XTKT-104"}"#,
        "alpha",
        true,
        false,
    ),
    (
        "held-unanchored-suffix",
        LESSON_CONTRACT,
        "get_ticket",
        r#"{"ticket_id": "TKT-1044"}"#,
        "alpha",
        true,
        false,
    ),
    (
        "held-tenant-equals-session",
        LESSON_TENANT,
        "get_ticket",
        r#"{"ticket_id": "TKT-104", "tenant": "beta"}"#,
        "beta",
        true,
        false,
    ),
    (
        "held-caller-edits-copy",
        LESSON_TENANT,
        "get_ticket",
        r#"{"ticket_id": "TKT-120"}"#,
        "beta",
        true,
        true,
    ),
    (
        "held-description-stays",
        LESSON_TENANT,
        "get_ticket",
        r#"{"ticket_id": "TKT-105"}"#,
        "alpha",
        true,
        false,
    ),
    (
        "held-bool-id",
        LESSON_CONTRACT,
        "get_ticket",
        r#"{"ticket_id": true}"#,
        "alpha",
        true,
        false,
    ),
    (
        "held-order-tool-first",
        LESSON_BOUNDARY,
        "close_ticket",
        r#"null"#,
        "alpha",
        false,
        false,
    ),
    (
        "held-order-value-before-permission",
        LESSON_CONTRACT,
        "get_ticket",
        r#"{"ticket_id": 104}"#,
        "beta",
        false,
        false,
    ),
    (
        "held-order-permission-before-lookup",
        LESSON_CONTRACT,
        "get_ticket",
        r#"{"ticket_id": "TKT-555"}"#,
        "gamma",
        false,
        false,
    ),
];

fn held_exec_rows(records: &Arc<Vec<Record>>) -> UserResult<Vec<Row>> {
    HELD_EXEC
        .iter()
        .map(|(id, lesson, tool, args, tenant, can_read, mutate)| {
            let args: Value = serde_json::from_str(args)
                .map_err(|e| UserError::new(format!("held-back case {id}: {e}")))?;
            let context = Context {
                tenant: (*tenant).to_owned(),
                can_read_tickets: *can_read,
                can_write_tickets: false,
            };
            Ok(exec_row(
                id,
                Origin::HeldBack,
                Some(lesson),
                tool,
                args,
                context,
                records,
                *mutate,
            ))
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn exec_row(
    id: &str,
    origin: Origin,
    lesson: Option<&'static str>,
    tool: &str,
    args: Value,
    context: Context,
    records: &Arc<Vec<Record>>,
    mutate: bool,
) -> Row {
    let store = Store::from_records(records.to_vec());
    let before = store.records();
    let outcome = executor::execute_with(tool, &args, &context, &store, &ExecRules::ALL_ON);
    let store_unchanged_after_edit = mutate.then(|| {
        if let Some(mut handle) = outcome.handle.clone() {
            handle.set_title(MUTATED_TITLE);
            handle.set_status("deleted");
        }
        store.records() == before
    });
    let lesson = lesson
        .unwrap_or_else(|| exec_lesson(tool, &args, &context, records, mutate, &outcome.envelope));
    Row {
        id: id.to_owned(),
        function: Function::Execute,
        origin,
        lesson,
        call: Call::Execute {
            tool: tool.to_owned(),
            args,
            context,
            records: Arc::clone(records),
            mutate,
        },
        expected: Expected::Envelope {
            envelope: outcome.envelope,
            store_unchanged_after_edit,
        },
    }
}

/// The lesson that teaches what an edge-case row tests, read off the row itself.
fn exec_lesson(
    tool: &str,
    args: &Value,
    ctx: &Context,
    records: &[Record],
    mutate: bool,
    env: &Envelope,
) -> &'static str {
    let tenant_known = records.iter().any(|r| r.tenant == ctx.tenant);
    let has_description = |id: &str| {
        records
            .iter()
            .any(|r| r.tenant == ctx.tenant && r.id == id && r.description.is_some())
    };
    if !Registry::shared().names().contains(&tool) || !args.is_object() {
        LESSON_BOUNDARY
    } else if mutate || args.get("tenant").is_some() || !tenant_known {
        LESSON_TENANT
    } else if let Envelope::Ok { ticket } = env
        && has_description(&ticket.id)
    {
        LESSON_TENANT
    } else {
        LESSON_CONTRACT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<Row> {
        load(&Content::embedded()).unwrap()
    }

    #[test]
    fn every_lesson_named_exists() {
        let lessons = crate::content::lessons::load_all(&Content::embedded()).unwrap();
        for row in rows() {
            assert!(
                lessons.iter().any(|l| l.id == row.lesson),
                "{}: {}",
                row.id,
                row.lesson
            );
        }
    }

    #[test]
    fn ids_are_unique_per_function() {
        let rows = rows();
        for f in Function::ALL {
            let mut ids: Vec<&str> = rows
                .iter()
                .filter(|r| r.function == f)
                .map(|r| r.id.as_str())
                .collect();
            let n = ids.len();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), n);
        }
    }

    #[test]
    fn only_flat_object_rows_reach_validate() {
        let rows = rows();
        let ids: Vec<&str> = rows
            .iter()
            .filter(|r| r.function == Function::Validate)
            .map(|r| r.id.as_str())
            .collect();
        assert!(ids.contains(&"seed-ok") && ids.contains(&"trap-huge-int"));
        assert!(!ids.contains(&"parse-array") && !ids.contains(&"parse-duplicate"));
        assert!(
            !ids.contains(&"value-page-size-huge"),
            "JSON Schema rows need constraints"
        );
    }

    #[test]
    fn two_missing_names_accept_either() {
        let row = rows()
            .into_iter()
            .find(|r| r.id == "held-order-two-missing")
            .unwrap();
        let Expected::Verdict {
            ok: false,
            messages,
        } = row.expected
        else {
            panic!()
        };
        assert_eq!(
            messages,
            [
                "missing required arg: origin",
                "missing required arg: target"
            ]
        );
    }

    #[test]
    fn held_back_rows_get_the_real_executors_answers() {
        let rows = rows();
        let code = |id: &str| {
            let row = rows.iter().find(|r| r.id == id).unwrap();
            let Expected::Envelope { envelope, .. } = &row.expected else {
                panic!()
            };
            envelope.category()
        };
        assert_eq!(code("held-unanchored-suffix"), "invalid_arguments");
        assert_eq!(code("held-mixed-digits"), "invalid_arguments");
        assert_eq!(code("held-order-tool-first"), "unknown_tool");
        assert_eq!(
            code("held-order-value-before-permission"),
            "invalid_arguments"
        );
        assert_eq!(code("held-order-permission-before-lookup"), "forbidden");
        assert_eq!(code("held-description-stays"), "ok");
    }

    #[test]
    fn raw_text_rows_are_handed_over_as_strings() {
        let row = rows()
            .into_iter()
            .find(|r| r.id == "edge-duplicate-key")
            .unwrap();
        let Call::Execute { args, .. } = &row.call else {
            panic!()
        };
        assert!(args.is_string());
        assert!(row.show_expected(false).contains("invalid_arguments"));
    }
}
