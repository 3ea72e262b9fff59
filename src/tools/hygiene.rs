//! Hygiene: what a declaration leaves unsaid that a model or a reader needs. Missing
//! descriptions (the tool's and each parameter's), an `enum` without a `type`, a size or an
//! id left unbounded, a `required` name that is no property, a `default` its own schema
//! rejects, keywords and formats the validator does not know (so never checks), and a name
//! the providers would refuse.

use serde_json::Value;

use super::load::Tool;
use super::schema::{self, View, show_path};
use super::traps::{TrapReport, fix};
use crate::sanitize::quote;

/// What a hygiene note is about (stable names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HygieneKind {
    NoToolDescription,
    NoParamDescription,
    EnumWithoutType,
    UnboundedSize,
    UnboundedId,
    RequiredNotProperty,
    DefaultFails,
    UnknownKeyword,
    UnknownFormat,
    BadToolName,
}

/// One note.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Note {
    pub kind: HygieneKind,
    /// The field it is about (empty for the tool or the whole arguments).
    pub path: String,
    pub message: String,
}

/// The notes on `tool`, whose trap report is `traps` (its failing defaults come from there).
pub fn notes(tool: &Tool, traps: &TrapReport) -> Vec<Note> {
    let mut out = Vec::new();
    let mut say = |kind, path: &str, message: String| {
        out.push(Note {
            kind,
            path: path.to_owned(),
            message,
        })
    };
    if !name_ok(&tool.name) {
        say(
            HygieneKind::BadToolName,
            "",
            format!(
                "the name {} is one OpenAI and Anthropic refuse (letters, digits, _ and -, 1 to 64)",
                quote(&tool.name)
            ),
        );
    }
    if tool
        .description
        .as_deref()
        .is_none_or(|d| d.trim().is_empty())
    {
        say(
            HygieneKind::NoToolDescription,
            "",
            "the tool has no description".into(),
        );
    }
    if let Some(root) = tool.schema() {
        fields(root, &mut say);
    }
    for d in &traps.bad_defaults {
        say(
            HygieneKind::DefaultFails,
            &d.path,
            format!(
                "the default of {} ({}) fails its own schema: {}",
                d.path,
                crate::validate::json::dumps(&d.value),
                d.error
            ),
        );
    }
    if let Some(v) = tool.validator() {
        for k in v.unknown_keywords() {
            say(
                HygieneKind::UnknownKeyword,
                "",
                format!(
                    "{} at {} is no keyword the validator knows, so it checks nothing (a typo?)",
                    quote(&k.keyword),
                    at(&k.at)
                ),
            );
        }
        for f in v.unknown_formats() {
            say(
                HygieneKind::UnknownFormat,
                "",
                format!(
                    "format {} at {} is not a standard format: noted, never checked",
                    quote(&f.format),
                    at(&f.at)
                ),
            );
        }
    }
    out
}

fn at(p: &str) -> &str {
    if p.is_empty() { "the root" } else { p }
}

/// OpenAI's and Anthropic's rule for a function's name.
fn name_ok(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn fields(root: &Value, say: &mut impl FnMut(HygieneKind, &str, String)) {
    let top = View::of(root, root, "");
    required_names(&top, "", say);
    for f in schema::fields(root, &top) {
        let path = show_path(&f.path);
        let name = f.name();
        let v = &f.view;
        let item = matches!(f.path.last(), Some(schema::Seg::Index(_)));
        if !item && v.str("description").is_none_or(|d| d.trim().is_empty()) {
            say(
                HygieneKind::NoParamDescription,
                &path,
                format!("{path} has no description"),
            );
        }
        if v.get("enum").is_some() && v.get("type").is_none() {
            say(
                HygieneKind::EnumWithoutType,
                &path,
                format!("{path} has an enum but no type"),
            );
        }
        let unbounded = v.get("maximum").is_none() && v.get("exclusiveMaximum").is_none();
        let numeric = matches!(v.main_type(), Some("integer" | "number"));
        if numeric && unbounded && fix::count_like(&name) && v.get("enum").is_none() {
            say(
                HygieneKind::UnboundedSize,
                &path,
                format!("{path} reads as a size or a count but has no maximum"),
            );
        }
        let loose = ["pattern", "maxLength", "format", "enum", "const"]
            .iter()
            .all(|k| v.get(k).is_none());
        if v.main_type() == Some("string") && fix::id_like(&name) && loose {
            say(
                HygieneKind::UnboundedId,
                &path,
                format!("{path} reads as an id but has no pattern or maxLength"),
            );
        }
        if v.is_object() {
            required_names(v, &path, say);
        }
    }
}

fn required_names(v: &View<'_>, path: &str, say: &mut impl FnMut(HygieneKind, &str, String)) {
    let declared: Vec<&str> = v.properties().iter().map(|p| p.0).collect();
    if declared.is_empty() && v.get("properties").is_none() {
        return;
    }
    for r in v.required() {
        if !declared.contains(&r) {
            let place = if path.is_empty() {
                "the arguments".to_owned()
            } else {
                path.to_owned()
            };
            say(
                HygieneKind::RequiredNotProperty,
                path,
                format!(
                    "{place} require {}, which is not among its properties",
                    quote(r)
                ),
            );
        }
    }
}
