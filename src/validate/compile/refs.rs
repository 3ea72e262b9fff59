//! References: URIs resolved as RFC 3986 says, JSON pointers, the documents a schema may
//! reach (the schema itself and those preloaded into a [`Registry`]; never the network), and
//! the index of every resource (`$id`) and anchor (`$anchor`, `$dynamicAnchor`) in them.

use foldhash::HashMap;
use std::rc::Rc;

use iri_string::types::{IriReferenceStr, IriStr};

use super::Draft;
use crate::validate::json::{self, Json};

/// The base of a schema that has no `$id`: an absolute URI of its own, so relative references
/// resolve to something that is found in the schema or not at all.
pub(crate) const DEFAULT_BASE: &str = "tooldojo:///schema.json";

/// [`DEFAULT_BASE`] shared: every schema of a thread starts from the same one.
pub(crate) fn default_base() -> Rc<str> {
    thread_local! {
        static BASE: Rc<str> = DEFAULT_BASE.into();
    }
    BASE.with(Rc::clone)
}

/// Documents a schema may reference by URI, loaded beforehand. A validator never fetches:
/// a reference to a document that is neither in the schema nor here is refused.
#[derive(Debug, Default, Clone)]
pub struct Registry {
    docs: Vec<(String, Json<'static>)>,
}

impl Registry {
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Add the document `text` under `uri` (its own `$id`, if any, still applies inside it).
    pub fn add(&mut self, uri: &str, text: &str) -> Result<(), crate::validate::CompileError> {
        let doc = json::parse(text)?.into_owned();
        let key = normalize(uri).ok_or_else(|| {
            crate::validate::CompileError::Shape(format!(
                "not an absolute URI: {}",
                crate::sanitize::quote(uri)
            ))
        })?;
        self.docs.push((key, doc));
        Ok(())
    }

    pub(crate) fn get(&self, uri: &str) -> Option<(usize, &Json<'static>)> {
        self.docs
            .iter()
            .enumerate()
            .find(|(_, (u, _))| u == uri)
            .map(|(i, (_, d))| (i, d))
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }
}

/// `uri` in normal form, without its fragment; `None` when it is not an absolute URI.
pub(crate) fn normalize(uri: &str) -> Option<String> {
    let iri = IriStr::new(uri).ok()?;
    Some(iri.to_absolute().normalize().to_string())
}

/// Resolve `reference` against `base`: the absolute URI (normal form, no fragment) and the
/// fragment (percent-encoded, as written).
pub(crate) fn resolve(base: &str, reference: &str) -> Result<(String, String), String> {
    let (front, fragment) = match reference.split_once('#') {
        Some((f, frag)) => (f, frag.to_owned()),
        None => (reference, String::new()),
    };
    if front.is_empty() {
        return Ok((base.to_owned(), fragment));
    }
    let r = IriReferenceStr::new(front).map_err(|e| format!("not a URI reference: {e}"))?;
    let b = IriStr::new(base)
        .map_err(|e| format!("bad base URI {}: {e}", crate::sanitize::quote(base)))?
        .to_absolute();
    // Neither side has a fragment left, so neither has the resolved URI.
    Ok((r.resolve_against(b).and_normalize().to_string(), fragment))
}

/// The tokens of a JSON-pointer fragment (`/a~1b/%25`): percent-decoded, then `~1` and `~0`
/// undone. `None` when the fragment is not a pointer or not valid UTF-8 once decoded.
pub(crate) fn pointer_tokens(fragment: &str) -> Option<Vec<String>> {
    let decoded = percent_decode(fragment)?;
    if decoded.is_empty() {
        return Some(Vec::new());
    }
    let rest = decoded.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The tokens of a JSON pointer as this compiler writes them (`/a/b~1c`: no percent-encoding).
pub(crate) fn split_pointer(ptr: &str) -> Vec<String> {
    match ptr.strip_prefix('/') {
        None => Vec::new(),
        Some(rest) => rest
            .split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    }
}

/// Append one token to a JSON pointer, escaped.
pub(crate) fn push_token(ptr: &mut String, token: &str) {
    ptr.push('/');
    if token.bytes().any(|b| b == b'~' || b == b'/') {
        ptr.push_str(&token.replace('~', "~0").replace('/', "~1"));
    } else {
        ptr.push_str(token);
    }
}

/// The value `tokens` lead to from `v`.
pub(crate) fn walk<'v, 'a>(v: &'v Json<'a>, tokens: &[String]) -> Option<&'v Json<'a>> {
    let mut at = v;
    for t in tokens {
        at = match at {
            Json::Object(_) => at.get(t)?,
            Json::Array(items) => {
                if t.len() > 1 && t.starts_with('0') {
                    return None;
                }
                items.get(t.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(at)
}

/// What a metaschema (a `$schema` URI) says: the dialect and which vocabularies are on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Meta {
    pub(crate) draft: Draft,
    pub(crate) validation: bool,
    pub(crate) format_assertion: bool,
}

/// How the compiler reads a `$schema` URI (the standard dialects, or a metaschema loaded in
/// the registry).
pub(crate) type MetaFn<'f> = &'f dyn Fn(&str) -> Option<Meta>;

/// The dialect a `$schema` URI names, if it is one we know.
pub(crate) fn dialect_of(uri: &str) -> Option<Draft> {
    let u = uri.trim_end_matches('#');
    let u = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"))?;
    Some(match u {
        "json-schema.org/draft/2020-12/schema" => Draft::D2020,
        "json-schema.org/draft/2019-09/schema" => Draft::D2019,
        "json-schema.org/draft-07/schema"
        | "json-schema.org/draft-06/schema"
        | "json-schema.org/draft-04/schema" => Draft::D7,
        _ => return None,
    })
}

/// Where a schema lives, and what applies there: a document, a pointer into it, the base URI,
/// the dialect, whether validation keywords and format assertions are on, its resource.
#[derive(Debug, Clone)]
pub(crate) struct Loc {
    pub(crate) doc: u32,
    pub(crate) ptr: String,
    pub(crate) cx: Cx,
}

/// What applies at a schema location (inherited by its subschemas).
#[derive(Debug, Clone)]
pub(crate) struct Cx {
    pub(crate) base: Rc<str>,
    pub(crate) draft: Draft,
    /// The validation vocabulary (type, enum, bounds, required, ...) is on.
    pub(crate) validation: bool,
    /// The metaschema asks for format assertion.
    pub(crate) format_assertion: bool,
}

/// Every resource and anchor of the documents seen so far.
#[derive(Debug, Default)]
pub(crate) struct Index {
    pub(crate) resources: HashMap<String, Loc>,
    pub(crate) anchors: HashMap<String, Loc>,
    /// `$dynamicAnchor` name -> every location declaring it.
    pub(crate) dynamic: HashMap<String, Vec<Loc>>,
    indexed: Vec<bool>,
}

/// Keywords whose value is one schema, per dialect.
fn schema_keys(draft: Draft) -> &'static [&'static str] {
    match draft {
        Draft::D7 => &[
            "additionalItems",
            "additionalProperties",
            "contains",
            "propertyNames",
            "not",
            "if",
            "then",
            "else",
            "items",
        ],
        _ => &[
            "additionalItems",
            "additionalProperties",
            "contains",
            "propertyNames",
            "not",
            "if",
            "then",
            "else",
            "items",
            "unevaluatedItems",
            "unevaluatedProperties",
            "contentSchema",
        ],
    }
}

/// Keywords whose value is a list of schemas.
const LIST_KEYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Keywords whose value maps names to schemas.
const MAP_KEYS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

impl Index {
    /// Index document `doc` (once) from its root at `cx`.
    pub(crate) fn index_doc(&mut self, doc: u32, root: &Json<'_>, cx: Cx, meta: MetaFn<'_>) {
        let i = doc as usize;
        if self.indexed.len() <= i {
            self.indexed.resize(i + 1, false);
        }
        if self.indexed[i] {
            return;
        }
        self.indexed[i] = true;
        let root_loc = Loc {
            doc,
            ptr: String::new(),
            cx: cx.clone(),
        };
        self.resources
            .entry(cx.base.to_string())
            .or_insert(root_loc);
        self.walk(doc, root, String::new(), cx, true, meta);
    }

    fn walk(&mut self, doc: u32, v: &Json<'_>, ptr: String, cx: Cx, root: bool, meta: MetaFn<'_>) {
        let Json::Object(_) = v else { return };
        // A location keeps the context it is entered with (its parent's): compiling it
        // enters it again.
        let outer = cx.clone();
        let cx = enter(v, cx, root, meta);
        let here = |_: &Cx| Loc {
            doc,
            ptr: ptr.clone(),
            cx: outer.clone(),
        };
        if let Some(Json::Str(_)) = v.get("$id") {
            self.resources
                .entry(cx.base.to_string())
                .or_insert_with(|| here(&cx));
        }
        if cx.draft == Draft::D7 {
            if let Some(Json::Str(id)) = v.get("$id") {
                if let Some(name) = id.strip_prefix('#') {
                    let key = format!("{}#{name}", cx.base);
                    self.anchors.entry(key).or_insert_with(|| here(&cx));
                }
            }
        } else {
            for key in ["$anchor", "$dynamicAnchor"] {
                if let Some(Json::Str(name)) = v.get(key) {
                    let full = format!("{}#{name}", cx.base);
                    self.anchors.entry(full).or_insert_with(|| here(&cx));
                    if key == "$dynamicAnchor" {
                        self.dynamic
                            .entry(name.to_string())
                            .or_default()
                            .push(here(&cx));
                    }
                }
            }
        }
        let Json::Object(members) = v else { return };
        for (k, sub) in members {
            let mut p = ptr.clone();
            push_token(&mut p, k);
            if schema_keys(cx.draft).contains(&k.as_ref()) && !matches!(sub, Json::Array(_)) {
                self.walk(doc, sub, p, cx.clone(), false, meta);
            } else if LIST_KEYS.contains(&k.as_ref()) {
                if let Json::Array(items) = sub {
                    for (i, item) in items.iter().enumerate() {
                        let mut q = p.clone();
                        push_token(&mut q, &i.to_string());
                        self.walk(doc, item, q, cx.clone(), false, meta);
                    }
                }
            } else if MAP_KEYS.contains(&k.as_ref()) {
                if let Json::Object(entries) = sub {
                    for (name, item) in entries {
                        let mut q = p.clone();
                        push_token(&mut q, name);
                        self.walk(doc, item, q, cx.clone(), false, meta);
                    }
                }
            }
        }
    }
}

/// The context inside schema object `v` reached with `cx`: its `$id` moves the base, and
/// at a resource root its `$schema` may change the dialect. Draft-07 ignores an `$id`
/// beside `$ref`, and reads an `$id` of `#name` as an anchor, not a base.
pub(crate) fn enter(v: &Json<'_>, mut cx: Cx, root: bool, meta: MetaFn<'_>) -> Cx {
    // Only `$` keywords change the context (most schemas have none).
    match v {
        Json::Object(m) if m.iter().any(|(k, _)| k.starts_with('$')) => {}
        _ => return cx,
    }
    let meta_here = match v.get("$schema") {
        Some(Json::Str(s)) => meta(s),
        _ => None,
    };
    let draft_here = meta_here.map(|m| m.draft);
    let id = match v.get("$id") {
        Some(Json::Str(id)) => Some(id),
        _ => None,
    };
    let d = draft_here.unwrap_or(cx.draft);
    let ignored =
        d == Draft::D7 && (v.get("$ref").is_some() || id.is_some_and(|i| i.starts_with('#')));
    if let Some(id) = id.filter(|_| !ignored) {
        if let Ok((abs, _)) = resolve(&cx.base, id) {
            cx.base = abs.into();
        }
        if let Some(m) = meta_here {
            cx.set_meta(m);
        }
    } else if root {
        if let Some(m) = meta_here {
            cx.set_meta(m);
        }
    }
    cx
}

impl Cx {
    fn set_meta(&mut self, m: Meta) {
        self.draft = m.draft;
        self.validation = m.validation;
        self.format_assertion = m.format_assertion;
    }
}
