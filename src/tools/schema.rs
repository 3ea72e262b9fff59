//! A declaration's JSON Schema read the way the trap report, the strict checks and the
//! outline need it: each node seen through its local `$ref`, its `allOf` members and a
//! nullable union (`anyOf: [X, {"type": "null"}]`) as one [`View`], and the fields of the
//! arguments (every property at every depth, array items included) in document order.
//!
//! This is a reading for reports, never for verdicts: every verdict comes from the
//! validator. A `$ref` that leaves the document, an anchor, or a loop deeper than
//! [`MAX_DEPTH`] simply ends the view there.

use serde_json::{Map, Value};

/// How deep fields are followed (recursive schemas stop here).
pub const MAX_DEPTH: usize = 8;

/// How many `$ref`/`allOf` steps one view follows.
const MAX_LAYERS: usize = 16;

/// One step of a path into the arguments.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A path as the validator's messages write it: `city`, `filter.since`, `items[0].qty`,
/// `a["x.y"]`.
pub fn show_path(path: &[Seg]) -> String {
    let mut out = String::new();
    for (i, s) in path.iter().enumerate() {
        match s {
            Seg::Key(k) if i == 0 => out.push_str(k),
            Seg::Key(k) if !k.is_empty() && !k.contains(['.', '[', ']', ' ', '"']) => {
                out.push('.');
                out.push_str(k);
            }
            Seg::Key(k) => {
                out.push('[');
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push(']');
            }
            Seg::Index(n) => {
                out.push('[');
                out.push_str(&n.to_string());
                out.push(']');
            }
        }
    }
    out
}

/// Escape a key for a JSON pointer.
pub fn pointer_key(k: &str) -> String {
    k.replace('~', "~0").replace('/', "~1")
}

/// One schema node as a whole: the node and what it refers to, nearest first.
#[derive(Debug, Clone)]
pub struct View<'a> {
    /// Where the node is written in the schema (a JSON pointer; empty at the root): where a
    /// fix for it goes.
    pub at: String,
    /// The node's own members, then those of its `$ref` target and `allOf` members.
    layers: Vec<(&'a Map<String, Value>, String)>,
    /// A `null` branch beside one other in `anyOf`/`oneOf`, or `"null"` in `type`.
    pub nullable: bool,
    /// The branches of an `anyOf`/`oneOf` that offers more than one non-null choice.
    pub alternatives: Vec<(&'a Value, String)>,
    /// `false`: nothing is valid here.
    pub never: bool,
}

impl<'a> View<'a> {
    /// The view of `node`, written at `at`, inside the schema `root`.
    pub fn of(root: &'a Value, node: &'a Value, at: &str) -> View<'a> {
        let mut v = View {
            at: at.to_owned(),
            layers: Vec::new(),
            nullable: false,
            alternatives: Vec::new(),
            never: matches!(node, Value::Bool(false)),
        };
        v.collect(root, node, at, 0);
        if v.types().contains(&"null") {
            v.nullable = true;
        }
        v
    }

    fn collect(&mut self, root: &'a Value, node: &'a Value, at: &str, steps: usize) {
        let Value::Object(map) = node else {
            return;
        };
        if steps > MAX_LAYERS {
            return;
        }
        self.layers.push((map, at.to_owned()));
        if let Some(Value::String(r)) = map.get("$ref")
            && let Some((target, ptr)) = resolve(root, r)
        {
            self.collect(root, target, &ptr, steps + 1);
        }
        if let Some(Value::Array(all)) = map.get("allOf") {
            for (i, m) in all.iter().enumerate() {
                self.collect(root, m, &format!("{at}/allOf/{i}"), steps + 1);
            }
        }
        for key in ["anyOf", "oneOf"] {
            let Some(Value::Array(branches)) = map.get(key) else {
                continue;
            };
            let (nulls, others): (Vec<_>, Vec<_>) = branches
                .iter()
                .enumerate()
                .map(|(i, b)| (b, format!("{at}/{key}/{i}")))
                .partition(|(b, _)| is_null_schema(b));
            if !nulls.is_empty() {
                self.nullable = true;
            }
            match others.as_slice() {
                [(one, ptr)] => self.collect(root, one, ptr, steps + 1),
                [] => {}
                _ => self.alternatives.extend(others),
            }
        }
    }

    /// The nearest value of a keyword.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.layers.iter().find_map(|(m, _)| m.get(key))
    }

    /// The nearest keyword's value and the pointer of the node that holds it.
    pub fn get_at(&self, key: &str) -> Option<(&'a Value, &str)> {
        self.layers
            .iter()
            .find_map(|(m, at)| m.get(key).map(|v| (v, at.as_str())))
    }

    pub fn str(&self, key: &str) -> Option<&'a str> {
        self.get(key).and_then(Value::as_str)
    }

    pub fn num(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(Value::as_f64)
    }

    /// The declared types (`[]`: any), nearest `type` keyword.
    pub fn types(&self) -> Vec<&'a str> {
        match self.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        }
    }

    /// The type a valid value is made of: the first declared one that is not null, else
    /// what the keywords suggest (`properties`: object, `items`: array, ...).
    pub fn main_type(&self) -> Option<&'a str> {
        if let Some(t) = self.types().into_iter().find(|t| *t != "null") {
            return Some(t);
        }
        if let Some(v) = self.get("const") {
            return json_type(v);
        }
        if let Some(Value::Array(e)) = self.get("enum") {
            return e.iter().find(|v| !v.is_null()).and_then(json_type);
        }
        let has = |k: &str| self.get(k).is_some();
        if has("properties") || has("required") || has("additionalProperties") {
            Some("object")
        } else if has("items") || has("prefixItems") || has("minItems") || has("maxItems") {
            Some("array")
        } else if has("pattern") || has("minLength") || has("maxLength") || has("format") {
            Some("string")
        } else if has("minimum") || has("maximum") || has("multipleOf") {
            Some("number")
        } else {
            None
        }
    }

    /// Is nothing said about the value's type (no `type`, `enum`, `const`)?
    pub fn untyped(&self) -> bool {
        self.get("type").is_none()
            && self.get("enum").is_none()
            && self.get("const").is_none()
            && self.alternatives.is_empty()
    }

    /// Properties over every layer, nearest first, with the pointer of each subschema.
    pub fn properties(&self) -> Vec<(&'a str, &'a Value, String)> {
        let mut out: Vec<(&'a str, &'a Value, String)> = Vec::new();
        for (m, at) in &self.layers {
            let Some(Value::Object(props)) = m.get("properties") else {
                continue;
            };
            for (k, v) in props {
                if !out.iter().any(|(n, _, _)| *n == k) {
                    out.push((k.as_str(), v, format!("{at}/properties/{}", pointer_key(k))));
                }
            }
        }
        out
    }

    /// Required names over every layer, in the order first written.
    pub fn required(&self) -> Vec<&'a str> {
        let mut out: Vec<&'a str> = Vec::new();
        for (m, _) in &self.layers {
            if let Some(Value::Array(req)) = m.get("required") {
                for r in req.iter().filter_map(Value::as_str) {
                    if !out.contains(&r) {
                        out.push(r);
                    }
                }
            }
        }
        out
    }

    /// Does it say the value is an object?
    pub fn is_object(&self) -> bool {
        self.main_type() == Some("object")
    }

    /// Are extra members refused (`additionalProperties` or `unevaluatedProperties` false)?
    pub fn closed(&self) -> bool {
        matches!(self.get("additionalProperties"), Some(Value::Bool(false)))
            || matches!(self.get("unevaluatedProperties"), Some(Value::Bool(false)))
    }
}

/// Resolve a `$ref` inside the document: `#`, `#/json/pointer`. Anything else: `None`.
pub fn resolve<'a>(root: &'a Value, r: &str) -> Option<(&'a Value, String)> {
    let ptr = local_pointer(r)?;
    root.pointer(&ptr).map(|v| (v, ptr))
}

/// The JSON pointer a document-local `$ref` names (`#/$defs/a%20b` -> `/$defs/a b`).
pub fn local_pointer(r: &str) -> Option<String> {
    let ptr = r.strip_prefix('#')?;
    if !ptr.is_empty() && !ptr.starts_with('/') {
        return None;
    }
    Some(percent_decode(ptr))
}

fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_owned();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(h) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(h, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn is_null_schema(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("null")
        || v.get("const").is_some_and(Value::is_null)
        || v.get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.len() == 1 && e[0].is_null())
}

/// JSON Schema's name for a value's type (`integer` for a whole number).
pub fn json_type(v: &Value) -> Option<&'static str> {
    Some(match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    })
}

/// One field of the arguments: a property at some depth, or the first item of an array.
#[derive(Debug, Clone)]
pub struct Field<'a> {
    /// Where the value sits in the arguments.
    pub path: Vec<Seg>,
    pub view: View<'a>,
    /// Its parent object requires it (items are never "required").
    pub required: bool,
    /// The index of its parent field in the list (`None` at the top level).
    pub parent: Option<usize>,
}

impl Field<'_> {
    /// The field's own name (`since`, `[0]`).
    pub fn name(&self) -> String {
        match self.path.last() {
            Some(Seg::Key(k)) => k.clone(),
            Some(Seg::Index(i)) => format!("[{i}]"),
            None => String::new(),
        }
    }

    pub fn depth(&self) -> usize {
        self.path.len()
    }
}

/// Every field of the arguments under the root view, parents before children, in the
/// order written; array items appear as a field at index 0.
pub fn fields<'a>(root: &'a Value, top: &View<'a>) -> Vec<Field<'a>> {
    let mut out = Vec::new();
    walk(root, top, &[], None, &mut out);
    out
}

fn walk<'a>(
    root: &'a Value,
    view: &View<'a>,
    path: &[Seg],
    parent: Option<usize>,
    out: &mut Vec<Field<'a>>,
) {
    if path.len() >= MAX_DEPTH {
        return;
    }
    let required = view.required();
    for (name, sub, at) in view.properties() {
        let mut p = path.to_vec();
        p.push(Seg::Key(name.to_owned()));
        let child = View::of(root, sub, &at);
        let me = out.len();
        out.push(Field {
            path: p.clone(),
            view: child.clone(),
            required: required.contains(&name),
            parent,
        });
        descend(root, &child, &p, me, out);
    }
}

fn descend<'a>(
    root: &'a Value,
    view: &View<'a>,
    path: &[Seg],
    me: usize,
    out: &mut Vec<Field<'a>>,
) {
    match view.main_type() {
        Some("object") => walk(root, view, path, Some(me), out),
        Some("array") => {
            let Some((items, at)) = view.get_at("items") else {
                return;
            };
            if !items.is_object() || path.len() >= MAX_DEPTH {
                return;
            }
            let mut p = path.to_vec();
            p.push(Seg::Index(0));
            let item = View::of(root, items, &format!("{at}/items"));
            let i = out.len();
            out.push(Field {
                path: p.clone(),
                view: item.clone(),
                required: false,
                parent: Some(me),
            });
            descend(root, &item, &p, i, out);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn views_see_through_refs_all_of_and_nullable_unions() {
        let root = json!({
            "type": "object",
            "$defs": {"Since": {"type": "string", "format": "date"}},
            "properties": {
                "since": {"$ref": "#/$defs/Since", "description": "d"},
                "maybe": {"anyOf": [{"type": "integer", "maximum": 3}, {"type": "null"}]},
                "both": {"allOf": [{"type": "object", "properties": {"a": {}}}, {"properties": {"b": {}}, "required": ["b"]}]},
                "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
            }
        });
        let top = View::of(&root, &root, "");
        let props = top.properties();
        let since = View::of(&root, props[0].1, &props[0].2);
        assert_eq!(since.at, "/properties/since");
        assert_eq!(since.str("format"), Some("date"));
        assert_eq!(since.get_at("type").unwrap().1, "/$defs/Since");
        let maybe = View::of(&root, props[1].1, &props[1].2);
        assert!(maybe.nullable);
        assert_eq!(maybe.main_type(), Some("integer"));
        assert_eq!(maybe.num("maximum"), Some(3.0));
        let both = View::of(&root, props[2].1, &props[2].2);
        let names: Vec<&str> = both.properties().iter().map(|p| p.0).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(both.required(), ["b"]);
        let either = View::of(&root, props[3].1, &props[3].2);
        assert_eq!(either.alternatives.len(), 2);
        assert!(!either.untyped());
    }

    #[test]
    fn fields_come_parents_first_with_items_at_index_zero() {
        let root = json!({"type": "object", "required": ["filter"], "properties": {
            "filter": {"type": "object", "properties": {"since": {"type": "string"}}},
            "items": {"type": "array", "items": {"type": "object", "properties": {"qty": {"type": "integer"}}}}
        }});
        let top = View::of(&root, &root, "");
        let f = fields(&root, &top);
        let paths: Vec<String> = f.iter().map(|f| show_path(&f.path)).collect();
        assert_eq!(
            paths,
            [
                "filter",
                "filter.since",
                "items",
                "items[0]",
                "items[0].qty"
            ]
        );
        assert!(f[0].required && !f[1].required);
        assert_eq!(f[4].parent, Some(3));
        assert_eq!(f[4].view.at, "/properties/items/items/properties/qty");
    }

    #[test]
    fn a_recursive_schema_stops_at_the_depth_cap() {
        let root = json!({"type": "object", "properties": {"child": {"$ref": "#"}}});
        let top = View::of(&root, &root, "");
        assert_eq!(fields(&root, &top).len(), MAX_DEPTH);
    }

    #[test]
    fn paths_read_like_the_validators() {
        let p = [Seg::Key("a".into()), Seg::Index(2), Seg::Key("x.y".into())];
        assert_eq!(show_path(&p), "a[2][\"x.y\"]");
        assert_eq!(pointer_key("a/b~c"), "a~1b~0c");
        assert_eq!(
            resolve(&json!({"$defs": {"a b": 1}}), "#/$defs/a%20b")
                .unwrap()
                .0,
            &json!(1)
        );
    }
}
