//! A declaration's schema as an outline to read: one row a field, nested fields indented
//! under their parent, each with its type and constraints in words, and the weak spots the
//! trap report found marked beside it (`no maximum`, `extra keys allowed`).

use serde_json::Value;

use super::schema::{self, Seg, View, show_path};
use super::traps::{TrapKind, TrapReport};

/// One row of the outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// How deep the field sits (0: a top-level member).
    pub depth: usize,
    /// The member's name (`"repo"`), `[]` for an array's items, empty for the object's own
    /// closing row.
    pub name: String,
    /// Its type and constraints in words (`string, required, pattern ^a$`).
    pub summary: String,
    /// The weak spots traps got through, in words (`no maximum`).
    pub weak: Vec<String>,
    /// The path of the field in the arguments (empty for the whole).
    pub path: String,
}

/// The outline of `schema`, marked with what `traps` let through. The last row is the
/// arguments object's own: whether extra keys are allowed.
pub fn rows(schema: Option<&Value>, traps: &TrapReport) -> Vec<Row> {
    let Some(root) = schema else {
        return vec![Row {
            depth: 0,
            name: String::new(),
            summary: "no parameters schema".into(),
            weak: weak_of_object(traps, ""),
            path: String::new(),
        }];
    };
    let top = View::of(root, root, "");
    let mut out: Vec<Row> = schema::fields(root, &top)
        .iter()
        .map(|f| {
            let path = show_path(&f.path);
            let name = match f.path.last() {
                Some(Seg::Key(k)) => crate::sanitize::quote(k),
                _ => "[]".into(),
            };
            Row {
                depth: f.depth() - 1,
                name,
                summary: summary(&f.view, f.required),
                weak: weak(traps, &path),
                path,
            }
        })
        .collect();
    let extra = if top.closed() {
        "additionalProperties: false"
    } else {
        "additionalProperties: not set"
    };
    out.push(Row {
        depth: 0,
        name: String::new(),
        summary: extra.into(),
        weak: weak_of_object(traps, ""),
        path: String::new(),
    });
    out
}

/// The words for one weak spot a let-through trap shows.
fn spot(kind: TrapKind) -> Option<&'static str> {
    Some(match kind {
        TrapKind::NoUpperBound => "no maximum",
        TrapKind::NoLowerBound => "no minimum",
        TrapKind::OverLong => "no maxLength",
        TrapKind::TooManyItems => "no maxItems",
        TrapKind::PatternMiss => "pattern not anchored",
        TrapKind::UnicodeDigits => "pattern takes other digits",
        TrapKind::WrongItemType => "items not typed",
        TrapKind::NullForField
        | TrapKind::NumberForString
        | TrapKind::StringForNumber
        | TrapKind::BoolForNumber
        | TrapKind::FloatForInteger
        | TrapKind::StringForBool
        | TrapKind::StringForObject
        | TrapKind::LoneItemForList => "takes other types",
        TrapKind::EnumNearMiss => "takes near misses",
        TrapKind::InvalidFormat => "format not checked",
        _ => return None,
    })
}

fn weak(traps: &TrapReport, path: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in traps.traps.iter().filter(|t| t.ok && t.path == path) {
        let w = match t.kind {
            // Anchoring fixes a pattern that is not; one that is matches the value itself.
            TrapKind::PatternMiss if t.fix.is_none() => Some("pattern matches it"),
            kind => spot(kind),
        };
        if let Some(w) = w
            && !out.iter().any(|o| o == w)
        {
            out.push(w.to_owned());
        }
    }
    out.extend(weak_of_object(traps, path));
    out
}

/// `extra keys allowed`, when an extra member got into the object at `path`.
fn weak_of_object(traps: &TrapReport, path: &str) -> Vec<String> {
    let extra = traps.traps.iter().any(|t| {
        t.ok && t.kind == TrapKind::ExtraKey
            && t.path.rsplit_once('.').map_or("", |(p, _)| p) == path
    });
    if extra {
        vec!["extra keys allowed".into()]
    } else {
        Vec::new()
    }
}

/// A field's type and constraints in words.
pub fn summary(v: &View<'_>, required: bool) -> String {
    let mut parts: Vec<String> = Vec::new();
    let types = v.types();
    if let Some(Value::Array(values)) = v.get("enum") {
        let shown: Vec<String> = values.iter().take(6).map(short).collect();
        let more = if values.len() > 6 { " | ..." } else { "" };
        parts.push(format!("{}{more}", shown.join(" | ")));
    } else if let Some(c) = v.get("const") {
        parts.push(format!("always {}", short(c)));
    } else if types.is_empty() {
        parts.push(match v.main_type() {
            Some(t) => format!("{t} (no type keyword)"),
            None if !v.alternatives.is_empty() => format!("one of {} shapes", v.alternatives.len()),
            None => "any value (no type)".into(),
        });
    } else if types.contains(&"array") {
        let items = v
            .get("items")
            .and_then(|i| i.get("type"))
            .and_then(Value::as_str);
        parts.push(match items {
            Some(t) => format!("array of {t}"),
            None => "array".into(),
        });
    } else {
        parts.push(
            types
                .iter()
                .filter(|t| **t != "null")
                .copied()
                .collect::<Vec<_>>()
                .join(" or "),
        );
    }
    if v.nullable {
        parts.push("or null".into());
    }
    if required {
        parts.push("required".into());
    }
    let bounds = [
        ("minimum", ">="),
        ("exclusiveMinimum", ">"),
        ("maximum", "<="),
        ("exclusiveMaximum", "<"),
    ];
    for (key, sign) in bounds {
        if let Some(n) = v.get(key) {
            parts.push(format!("{sign} {n}"));
        }
    }
    let words = [
        ("minLength", "at least", "characters"),
        ("maxLength", "at most", "characters"),
        ("minItems", "at least", "items"),
        ("maxItems", "at most", "items"),
        ("multipleOf", "a multiple of", ""),
    ];
    for (key, before, after) in words {
        if let Some(n) = v.get(key) {
            let after = if n.as_f64() == Some(1.0) {
                after.trim_end_matches('s')
            } else {
                after
            };
            parts.push(format!("{before} {n} {after}").trim_end().to_owned());
        }
    }
    if let Some(p) = v.str("pattern") {
        parts.push(format!("pattern {p}"));
    }
    if let Some(f) = v.str("format") {
        parts.push(format!("format {f}"));
    }
    if let Some(d) = v.get("default") {
        parts.push(format!("default {}", short(d)));
    }
    parts.join(", ")
}

fn short(v: &Value) -> String {
    crate::validate::json::dumps(v)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tools::{ToolSet, traps};

    #[test]
    fn rows_indent_nested_fields_and_mark_what_got_through() {
        let decl = json!({"name": "t", "input_schema": {"type": "object", "required": ["repo"], "properties": {
            "repo": {"type": "string", "pattern": "^a$"},
            "per_page": {"type": "integer", "minimum": 1},
            "state": {"type": "string", "enum": ["open", "closed"]},
            "filter": {"type": "object", "properties": {"since": {"type": ["string", "null"], "format": "date"}}}
        }}});
        let set = ToolSet::from_value(&decl, None).unwrap();
        let t = &set.tools[0];
        let rows = rows(t.schema(), &traps::report(t));
        let shown: Vec<(usize, &str, &str)> = rows
            .iter()
            .map(|r| (r.depth, r.name.as_str(), r.summary.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                (0, "\"repo\"", "string, required, pattern ^a$"),
                (0, "\"per_page\"", "integer, >= 1"),
                (0, "\"state\"", "\"open\" | \"closed\""),
                (0, "\"filter\"", "object"),
                (1, "\"since\"", "string, or null, format date"),
                (0, "", "additionalProperties: not set"),
            ]
        );
        assert_eq!(rows[1].weak, ["no maximum"]);
        assert!(
            rows[3].weak.contains(&"extra keys allowed".to_owned()),
            "{:?}",
            rows[3].weak
        );
        assert_eq!(rows[5].weak, ["extra keys allowed"]);
    }

    #[test]
    fn a_pattern_that_lets_a_trap_through_says_whether_anchoring_would_stop_it() {
        let decl = json!({"name": "t", "input_schema": {"type": "object", "properties": {
            "loose": {"type": "string", "pattern": "[a-z]+"},
            "wide": {"type": "string", "pattern": "^.+$"}
        }}});
        let set = ToolSet::from_value(&decl, None).unwrap();
        let t = &set.tools[0];
        let report = traps::report(t);
        let through = |field: &str| {
            report
                .traps
                .iter()
                .any(|x| x.ok && x.kind == TrapKind::PatternMiss && x.path.ends_with(field))
        };
        let rows = rows(t.schema(), &report);
        assert!(through("loose"), "{:?}", report.traps);
        assert!(
            rows[0].weak.contains(&"pattern not anchored".to_owned()),
            "{:?}",
            rows[0]
        );
        assert!(through("wide"), "{:?}", report.traps);
        assert!(
            rows[1].weak.contains(&"pattern matches it".to_owned()),
            "{:?}",
            rows[1]
        );
        assert!(!rows[1].weak.contains(&"pattern not anchored".to_owned()));
    }
}
