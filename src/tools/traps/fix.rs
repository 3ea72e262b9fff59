//! The fix for a trap the schema lets through: one keyword added (or narrowed) at one node,
//! the smallest change that makes the validator reject the trap while the valid arguments
//! still pass (`tests/core/realworld_traps.rs` applies every fix on every real declaration
//! and checks both). Numbers in a fix (`"maximum": 100`) are placeholders for the tool's
//! real limit. Where no keyword would do (an `anyOf` branch takes the value, the pattern
//! itself matches it), the trap says why instead.

use serde_json::{Value, json};

use super::{Trap, TrapKind};
use crate::tools::schema::{Seg, View, json_type};
use crate::tools::strict::Provider;
use crate::validate::Form;

/// What a declaration without any schema offers instead of a fix.
pub const SCHEMALESS: &str = "the declaration has no parameters schema: declare one";

/// Said beside fixes that carry a number, which the report can only guess.
pub const STAND_IN: &str = "A number in a fix (a maxLength of 256, a maximum of 100) is a stand-in \
     the report cannot know: write the largest value your tool really takes.";

/// One keyword to add at one node of the schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Fix {
    /// The node that gets it (a JSON pointer into the schema; empty for its root).
    pub at: String,
    pub key: String,
    pub value: Value,
    /// The field it guards (`per_page`; empty for the whole arguments).
    pub field: String,
    /// The strict modes it would cost the declaration (see `cost.rs`), when any.
    pub costs: Vec<Provider>,
}

impl Fix {
    fn new(view: &View<'_>, key: &str, value: Value, path: &[Seg]) -> Fix {
        Fix {
            at: view.at.clone(),
            key: key.to_owned(),
            value,
            field: crate::tools::schema::show_path(path),
            costs: Vec::new(),
        }
    }

    /// The keyword as it is written: `"maximum": 100`.
    pub fn snippet(&self) -> String {
        format!(
            "{}: {}",
            serde_json::to_string(&self.key).unwrap_or_default(),
            crate::validate::json::dumps(&self.value)
        )
    }

    /// The fix in words: `add "maximum": 100 to per_page`.
    pub fn text(&self) -> String {
        let verb = if matches!(self.key.as_str(), "type" | "pattern") {
            "set"
        } else {
            "add"
        };
        if self.field.is_empty() {
            format!("{verb} {}", self.snippet())
        } else {
            format!("{verb} {} on {}", self.snippet(), self.field)
        }
    }
}

pub(super) fn text_or_null<S: serde::Serializer>(
    fix: &Option<Fix>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match fix {
        Some(f) => s.serialize_str(&f.text()),
        None => s.serialize_none(),
    }
}

/// The fix for `trap` (which the schema let through) on the field or object `view` at
/// `path`, or why there is none.
pub(super) fn for_trap(
    trap: &Trap,
    view: &View<'_>,
    path: &[Seg],
) -> (Option<Fix>, Option<String>) {
    let name = match path.last() {
        Some(Seg::Key(k)) => k.as_str(),
        _ => "",
    };
    let fix = |key: &str, value: Value| (Some(Fix::new(view, key, value, path)), None);
    let why = |w: &str| (None, Some(w.to_owned()));
    match trap.kind {
        TrapKind::ExtraKey => {
            let declared: Vec<&str> = view.properties().iter().map(|p| p.0).collect();
            match view.required().into_iter().find(|r| !declared.contains(r)) {
                Some(r) => {
                    let r = crate::sanitize::quote(r);
                    (
                        None,
                        Some(format!(
                            "\"required\" names {r}, which is not a property: closing the \
                             object would refuse every call, so declare {r} (or fix the name) \
                             first"
                        )),
                    )
                }
                None => fix("additionalProperties", json!(false)),
            }
        }
        TrapKind::EmptyObject => match view.properties().first() {
            Some((first, _, _)) => fix("required", json!([first])),
            None => why("the schema declares no members to require"),
        },
        TrapKind::NoUpperBound => fix("maximum", json!(suggested_max(name, view))),
        TrapKind::NoLowerBound => fix("minimum", json!(0)),
        TrapKind::OverLong if view.get("maxLength").is_none() => {
            fix("maxLength", json!(if id_like(name) { 64 } else { 256 }))
        }
        TrapKind::TooManyItems if view.get("maxItems").is_none() => fix("maxItems", json!(100)),
        TrapKind::WrongItemType => item_fix(trap, view, path),
        TrapKind::PatternMiss => match view.get_at("pattern") {
            Some((Value::String(p), at)) if !anchored(p) => (
                Some(Fix {
                    at: at.to_owned(),
                    ..Fix::new(view, "pattern", json!(anchor(p)), path)
                }),
                None,
            ),
            _ => why("the pattern itself matches it: tighten the pattern"),
        },
        TrapKind::UnicodeDigits => why("the pattern takes those characters: spell digits as [0-9]"),
        TrapKind::EnumNearMiss => why("the schema takes strings beside the enum values"),
        TrapKind::InvalidFormat => why("this format is only noted, not checked"),
        TrapKind::StringForNumber
        | TrapKind::BoolForNumber
        | TrapKind::FloatForInteger
        | TrapKind::NumberForString
        | TrapKind::StringForBool
        | TrapKind::StringForObject
        | TrapKind::LoneItemForList
        | TrapKind::NullForField => type_fix(trap, view, path),
        _ => why("the schema accepts it as written"),
    }
}

/// A type keyword that leaves out the trap's value type.
fn type_fix(trap: &Trap, view: &View<'_>, path: &[Seg]) -> (Option<Fix>, Option<String>) {
    let wrong = value_at(&trap.args, path)
        .and_then(json_type)
        .unwrap_or("null");
    if view.untyped() {
        let t = view.main_type().unwrap_or("string");
        return (Some(Fix::new(view, "type", json!(t), path)), None);
    }
    let types = view.types();
    let drop = if types.contains(&wrong) {
        Some(wrong)
    } else if wrong == "integer" && types.contains(&"number") {
        Some("number")
    } else {
        None
    };
    let Some(drop) = drop else {
        let w = if view.alternatives.is_empty() {
            "the schema accepts it as written"
        } else {
            "an anyOf/oneOf branch accepts it: narrow that branch"
        };
        return (None, Some(w.to_owned()));
    };
    let kept: Vec<&str> = types.into_iter().filter(|t| *t != drop).collect();
    let value = match kept.as_slice() {
        [one] => json!(one),
        many => json!(many),
    };
    let at = view
        .get_at("type")
        .map_or(view.at.clone(), |(_, a)| a.to_owned());
    (
        Some(Fix {
            at,
            ..Fix::new(view, "type", value, path)
        }),
        None,
    )
}

/// `items` with a type, or a type on items that have none.
fn item_fix(trap: &Trap, view: &View<'_>, path: &[Seg]) -> (Option<Fix>, Option<String>) {
    // The valid item the trap replaced says what type the items are.
    let items = value_at(&trap.control, path).and_then(Value::as_array);
    let good = items.and_then(|a| a.first()).and_then(json_type);
    match view.get_at("items") {
        None => {
            let t = good.unwrap_or("string");
            (
                Some(Fix::new(view, "items", json!({"type": t}), path)),
                None,
            )
        }
        Some((sub, at)) if sub.get("type").is_none() && sub.is_object() => {
            let t = good.unwrap_or("string");
            let mut f = Fix::new(view, "type", json!(t), path);
            f.at = format!("{at}/items");
            f.field = format!("{}[0]", f.field);
            (Some(f), None)
        }
        Some(_) => (None, Some("the items schema accepts it".into())),
    }
}

fn value_at<'v>(v: &'v Value, path: &[Seg]) -> Option<&'v Value> {
    let mut cur = v;
    for seg in path {
        cur = match seg {
            Seg::Key(k) => cur.get(k)?,
            Seg::Index(i) => cur.get(i)?,
        };
    }
    Some(cur)
}

/// Does a name say it counts or sizes something? Judged by its words (`per_page`,
/// `maxResults`, `top_k`), so that an id or a number that names one thing (`account_id`,
/// `pullNumber`, `issue_number`, `topic`) is not taken for a count.
pub(crate) fn count_like(name: &str) -> bool {
    const COUNTS: [&str; 16] = [
        "limit", "size", "count", "perpage", "top", "max", "maximum", "page", "offset", "depth",
        "length", "len", "quantity", "qty", "total", "retries",
    ];
    let words = crate::text::name_words(name);
    let counts =
        |w: &str| COUNTS.contains(&w) || w.strip_suffix('s').is_some_and(|w| COUNTS.contains(&w));
    let word = |i: usize| words.get(i).map_or("", String::as_str);
    // `num` and `number` count only before what they count (`num_results`, `numberOfItems`),
    // not as an operand (`num1`) or as one thing's number.
    let before_a_word = |i: usize| word(i + 1).starts_with(char::is_alphabetic);
    matches!(words.as_slice(), [one] if one == "n" || one == "k")
        || (word(0) == "num" && before_a_word(0))
        || (word(0) == "number" && word(1) == "of")
        || words.iter().any(|w| counts(w))
}

/// Does a name say it identifies something?
pub(crate) fn id_like(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "id" || n.ends_with("_id") || n.ends_with("_ids") || (name.ends_with("Id") && n.len() > 2)
}

fn suggested_max(name: &str, view: &View<'_>) -> i64 {
    if count_like(name) {
        100
    } else if view.main_type() == Some("integer") {
        10_000
    } else {
        1_000_000
    }
}

/// Is the pattern anchored at both ends?
fn anchored(p: &str) -> bool {
    p.starts_with('^') && p.ends_with('$') && !p.ends_with("\\$")
}

/// The pattern anchored at both ends, its own anchors kept.
fn anchor(p: &str) -> String {
    let body = p.strip_prefix('^').unwrap_or(p);
    let body = match body.strip_suffix('$') {
        Some(b) if !b.ends_with('\\') => b,
        _ => body,
    };
    if body.contains('|') {
        format!("^(?:{body})$")
    } else {
        format!("^{body}$")
    }
}

/// A copy of a declaration (of `form`) with the fixes applied, each where its pointer says.
/// A `required` fix adds its names to the list already there.
pub fn apply_fixes(decl: &Value, form: Form, fixes: &[&Fix]) -> Value {
    let mut copy = decl.clone();
    let Some(schema) = form.schema_in(decl) else {
        return copy;
    };
    let prefix = [
        "",
        "/inputSchema",
        "/input_schema",
        "/parameters",
        "/function/parameters",
    ]
    .into_iter()
    .find(|p| decl.pointer(p).is_some_and(|v| std::ptr::eq(v, schema)))
    .unwrap_or("");
    for fix in fixes {
        let Some(Value::Object(node)) = copy.pointer_mut(&format!("{prefix}{}", fix.at)) else {
            continue;
        };
        match (fix.key.as_str(), node.get_mut("required"), &fix.value) {
            ("required", Some(Value::Array(have)), Value::Array(add)) => {
                for a in add {
                    if !have.contains(a) {
                        have.push(a.clone());
                    }
                }
            }
            _ => {
                node.insert(fix.key.clone(), fix.value.clone());
            }
        }
    }
    copy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_anchored_the_smallest_way() {
        assert_eq!(anchor("[a-z]+"), "^[a-z]+$");
        assert_eq!(anchor("^[a-z]+"), "^[a-z]+$");
        assert_eq!(anchor("a|b"), "^(?:a|b)$");
        assert!(anchored("^a$") && !anchored("^a\\$") && !anchored("a$"));
    }

    #[test]
    fn names_say_sizes_and_ids() {
        assert!(count_like("per_page") && count_like("maxResults") && count_like("n"));
        for name in [
            "perPage",
            "top_k",
            "topK",
            "numResults",
            "pageSize",
            "item_count",
            "limits",
        ] {
            assert!(count_like(name), "{name}");
        }
        assert!(count_like("numberOfItems") && count_like("MAX_RESULTS") && count_like("perpage"));
        assert!(count_like("quantity1") && count_like("num_items") && count_like("top10"));
        assert!(!count_like("city"));
        // An id, or a number that names one thing, is no count.
        for name in [
            "account_id",
            "pullNumber",
            "issue_number",
            "topic",
            "phoneNumber",
            "stop",
        ] {
            assert!(!count_like(name), "{name}");
        }
        assert!(id_like("ticket_id") && id_like("userId") && id_like("id"));
        assert!(!id_like("paid") && !id_like("valid"));
    }

    #[test]
    fn fixes_land_where_the_schema_is() {
        let decl = json!({"type": "function", "function": {"name": "f", "parameters":
            {"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}}}});
        let f1 = Fix {
            at: "".into(),
            key: "additionalProperties".into(),
            value: json!(false),
            field: "".into(),
            costs: Vec::new(),
        };
        let f2 = Fix {
            at: "/properties/a".into(),
            key: "maximum".into(),
            value: json!(100),
            field: "a".into(),
            costs: Vec::new(),
        };
        let f3 = Fix {
            at: "".into(),
            key: "required".into(),
            value: json!(["b"]),
            field: "".into(),
            costs: Vec::new(),
        };
        let out = apply_fixes(&decl, Form::OpenaiChat, &[&f1, &f2, &f3]);
        let p = &out["function"]["parameters"];
        assert_eq!(p["additionalProperties"], json!(false));
        assert_eq!(p["properties"]["a"]["maximum"], json!(100));
        assert_eq!(p["required"], json!(["a", "b"]));
        assert_eq!(f2.text(), "add \"maximum\": 100 on a");
        assert_eq!(f1.text(), "add \"additionalProperties\": false");
    }
}
