//! The trap a grading row tests, read off the row itself: a short name for lists (the
//! drill's scorecard) and the sentence a failing row's "why" ends with. A wrong answer is
//! told the trap only when it shows it ([`fallen_into`]): a row's trap is one way to get it
//! wrong, not the only one.

use serde_json::Value;

use super::cases::{Call, Expected, Row};
use crate::executor::{Envelope, ErrorCode, Registry};

/// What a row is there to catch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Trap {
    /// A few words: `\d matches Unicode digits`, `not anchored`.
    pub(crate) name: &'static str,
    /// The sentence that explains it.
    pub(crate) why: &'static str,
    /// What a wrong answer shows when it fell into this trap.
    shows: Shows,
}

/// The sign, in a wrong answer, of having fallen into a trap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shows {
    /// The call got past the check the row is about: a success, a verdict of ok, or a
    /// refusal by a check that comes later in the order.
    Accepted,
    /// The right verdict, another message (validator) or another refusal code (executor).
    OtherFailure,
    /// A ticket with fields beyond id, title and status.
    ExtraFields,
    /// The caller's edit of the returned ticket reached the store.
    StoreEdited,
}

const fn trap(name: &'static str, why: &'static str) -> Option<Trap> {
    Some(Trap {
        name,
        why,
        shows: Shows::Accepted,
    })
}

const fn trap_shown(shows: Shows, name: &'static str, why: &'static str) -> Option<Trap> {
    Some(Trap { name, why, shows })
}

/// The trap of `row` that a wrong answer fell into, when it shows it: `value` is the
/// result's JSON value (`[ok, message]` for a validator's tuple, the envelope for the
/// executor), `store_edited` whether the caller's edit of the returned ticket reached the
/// store.
pub(crate) fn fallen_into(row: &Row, value: &Value, store_edited: bool) -> Option<Trap> {
    let trap = of(row)?;
    let got_ok = match value {
        Value::Array(pair) => pair.first().and_then(Value::as_bool),
        Value::Object(envelope) => envelope.get("ok").and_then(Value::as_bool),
        _ => None,
    };
    let got_code = value
        .get("code")
        .and_then(|c| serde_json::from_value::<ErrorCode>(c.clone()).ok());
    // The codes are declared in the order the executor checks them.
    let (want_ok, want_code) = match &row.expected {
        Expected::Verdict { ok, .. } => (*ok, None),
        Expected::Envelope { envelope, .. } => match envelope {
            Envelope::Ok { .. } => (true, None),
            Envelope::Err { code, .. } => (false, Some(*code)),
        },
    };
    let fits = match trap.shows {
        Shows::Accepted => match (got_ok, got_code, want_code) {
            (Some(true), _, _) => !want_ok,
            (Some(false), Some(got), Some(want)) => got as u8 > want as u8,
            _ => false,
        },
        Shows::OtherFailure => got_ok == Some(false) && !want_ok,
        Shows::ExtraFields => value
            .get("ticket")
            .and_then(Value::as_object)
            .is_some_and(|t| {
                t.keys()
                    .any(|k| !["id", "title", "status"].contains(&k.as_str()))
            }),
        Shows::StoreEdited => store_edited,
    };
    fits.then_some(trap)
}

/// The trap `row` tests, when it tests one a name fits.
pub(crate) fn of(row: &Row) -> Option<Trap> {
    match &row.call {
        Call::Validate {
            schema, args_text, ..
        } => validate_trap(schema, args_text, row.id.contains("order")),
        Call::Execute {
            tool,
            args,
            context,
            mutate,
            ..
        } => {
            let refused = match &row.expected {
                Expected::Envelope { envelope, .. } => !matches!(envelope, Envelope::Ok { .. }),
                Expected::Verdict { .. } => false,
            };
            exec_trap(tool, args, context.can_read_tickets, *mutate, refused)
                .or_else(|| row.id.contains("order").then_some(ORDER_EXEC).flatten())
                .or_else(|| description_trap(row))
        }
    }
}

const ORDER_VALIDATE: Option<Trap> = trap_shown(
    Shows::OtherFailure,
    "check order",
    "the checks run in order (missing, unknown, type, value) and the first failure is the answer",
);
const ORDER_EXEC: Option<Trap> = trap_shown(
    Shows::OtherFailure,
    "check order",
    "the checks run in order (tool, shape, id, permission, lookup) and the first failure decides the code",
);

fn validate_trap(schema: &[(String, &'static str)], args_text: &str, order: bool) -> Option<Trap> {
    let Ok(Value::Object(args)) = serde_json::from_str::<Value>(args_text) else {
        return None;
    };
    for (name, ty) in schema {
        match (args.get(name), *ty) {
            (Some(Value::Bool(_)), "int" | "float") => {
                return trap(
                    "bool is a subclass of int",
                    "bool is a subclass of int: isinstance(True, int) is True, so test for bool first",
                );
            }
            (Some(Value::Number(n)), "int") if n.is_f64() => {
                return trap(
                    "3.0 is a float",
                    "json.loads reads a number with a point or an exponent (3.0, 1e2) as a float, and a float is not an int",
                );
            }
            (Some(Value::Number(n)), "float") if !n.is_f64() => {
                return trap(
                    "3 is not a float",
                    "json.loads reads 3 as an int, and isinstance(3, float) is False",
                );
            }
            (Some(Value::Null), _) => {
                return trap(
                    "null is None",
                    "null arrives as None, which is no str, int or float: a present key with None still fails the type check",
                );
            }
            _ => {}
        }
    }
    if order {
        return ORDER_VALIDATE;
    }
    None
}

fn exec_trap(
    tool: &str,
    args: &Value,
    can_read: bool,
    mutate: bool,
    refused: bool,
) -> Option<Trap> {
    if !Registry::shared().names().contains(&tool) {
        return trap(
            "tool not on the allowlist",
            "only registered tools run: an unknown name is refused with unknown_tool before anything else is looked at",
        );
    }
    let Value::Object(map) = args else {
        return trap(
            "arguments not an object",
            "the arguments must be an object (a dict): a list, a string or null is invalid_arguments",
        );
    };
    if map.contains_key("tenant") {
        return trap(
            "tenant read from the arguments",
            "the arguments carried a tenant and the call went on: the tenant comes from the session's context only, and an extra key makes the call invalid",
        );
    }
    if map.keys().any(|k| k != "ticket_id") {
        return trap(
            "extra key",
            "the arguments hold exactly ticket_id: any other key (verbose, limit) makes the call invalid_arguments",
        );
    }
    if mutate {
        return trap_shown(
            Shows::StoreEdited,
            "the stored object was returned",
            "the stored object was returned: return a copy",
        );
    }
    let id = match map.get("ticket_id") {
        Some(Value::String(id)) => id_trap(id),
        Some(Value::Bool(_)) => trap(
            "bool is not an id",
            "ticket_id must be a string: true is a bool (and a bool is an int in Python), so it is invalid_arguments",
        ),
        Some(Value::Number(_)) => trap(
            "ticket_id is not a string",
            "ticket_id must be a string: a number such as 104 is invalid_arguments",
        ),
        _ => None,
    };
    id.or(if !can_read && refused {
        PERMISSION
    } else {
        None
    })
}

const PERMISSION: Option<Trap> = trap(
    "read permission from the context",
    "whether the caller may read comes from the context (canReadTickets): refuse with forbidden",
);

/// The id traps: other digits, a final newline, extra characters, the wrong case.
fn id_trap(id: &str) -> Option<Trap> {
    let rest = id.strip_prefix("TKT-");
    if id.chars().any(|c| c.is_numeric() && !c.is_ascii_digit()) {
        return trap(
            "\\d matches Unicode digits",
            "\\d takes Arabic-Indic, Devanagari and fullwidth digits too: allow only ASCII 0-9 ([0-9], or re.ASCII)",
        );
    }
    if id.ends_with('\n') {
        return trap(
            "$ matches before a final newline",
            "$ matches just before a final newline, so an id ending in \\n passes re.match(r\"TKT-\\d{3}$\"): match the whole id (re.fullmatch, or \\Z)",
        );
    }
    let is_id = |s: &str| {
        s.len() == 7 && s.starts_with("TKT-") && s[4..].bytes().all(|b| b.is_ascii_digit())
    };
    if !is_id(id) && (0..id.len()).any(|i| id.get(i..i + 7).is_some_and(is_id)) {
        return trap(
            "not anchored",
            "the pattern is not anchored: TKT-\\d{3} also matches inside a longer id; match the whole id",
        );
    }
    if rest.is_none() && id.to_ascii_uppercase().starts_with("TKT-") {
        return trap(
            "ids are case-sensitive",
            "ids are case-sensitive: tkt-104 is not TKT-104, so it is invalid_arguments",
        );
    }
    None
}

/// A stored description that must not go out with the ticket.
fn description_trap(row: &Row) -> Option<Trap> {
    let (Call::Execute { records, .. }, Expected::Envelope { envelope, .. }) =
        (&row.call, &row.expected)
    else {
        return None;
    };
    let Envelope::Ok { ticket } = envelope else {
        return None;
    };
    records
        .iter()
        .any(|r| r.id == ticket.id && r.description.is_some())
        .then_some(Trap {
            name: "only id, title and status",
            why: "the stored object went out whole, description and all: return only id, title and status",
            shows: Shows::ExtraFields,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;

    #[test]
    fn the_held_back_rows_name_their_traps() {
        let rows = super::super::cases::load(&Content::embedded()).unwrap();
        let name = |id: &str| {
            let row = rows
                .iter()
                .find(|r| r.id == id)
                .unwrap_or_else(|| panic!("{id}"));
            of(row).map(|t| t.name)
        };
        assert_eq!(name("held-bool-count"), Some("bool is a subclass of int"));
        assert_eq!(
            name("held-devanagari-digits"),
            Some("\\d matches Unicode digits")
        );
        assert_eq!(
            name("held-mixed-digits"),
            Some("\\d matches Unicode digits")
        );
        assert_eq!(
            name("held-trailing-newline"),
            Some("$ matches before a final newline")
        );
        assert_eq!(name("held-unanchored-prefix"), Some("not anchored"));
        assert_eq!(name("held-unanchored-suffix"), Some("not anchored"));
        assert_eq!(
            name("held-tenant-equals-session"),
            Some("tenant read from the arguments")
        );
        assert_eq!(
            name("held-caller-edits-copy"),
            Some("the stored object was returned")
        );
        assert_eq!(
            name("held-description-stays"),
            Some("only id, title and status")
        );
        assert_eq!(
            name("held-order-tool-first"),
            Some("tool not on the allowlist")
        );
        assert_eq!(name("held-order-two-missing"), Some("check order"));
    }
}
