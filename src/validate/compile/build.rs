//! One schema object compiled into a [`Node`]: every keyword of its dialect read, the
//! subschemas compiled (references queued), unknown keywords and formats noted.

use super::refs::{self, Loc};
use super::{Compiler, Draft, Formats, UnknownFormat, UnknownKeyword, keywords};
use crate::validate::error::CompileError;
use crate::validate::format;
use crate::validate::json::Json;
use crate::validate::program::{
    Apply, ArrRules, DynamicRef, Node, NodeId, NumRules, ObjRules, TextRules,
};

/// Keywords that only annotate (or that the compiler reads elsewhere): never checks, never
/// unknown.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "$vocabulary",
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$defs",
    "definitions",
];

/// The validation vocabulary: annotations when a metaschema turns it off.
const VALIDATION: &[&str] = &[
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
];

/// Every keyword read in some dialect.
pub(super) const KNOWN: &[&str] = &[
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "format",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "dependentSchemas",
    "dependencies",
    "unevaluatedProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "unevaluatedItems",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$dynamicRef",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "$vocabulary",
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$defs",
    "definitions",
];

/// What a schema object collects while its keywords are read. A group of rules is made
/// when a keyword of it is first read (most schemas use one or two groups, and a leaf
/// property none), already in the box the node keeps it in.
#[derive(Default)]
struct Parts {
    node: Node,
    num: Option<Box<NumRules>>,
    text: Option<Box<TextRules>>,
    obj: Option<Box<ObjRules>>,
    arr: Option<Box<ArrRules>>,
    apply: Option<Box<Apply>>,
    excl_min_flag: bool,
    excl_max_flag: bool,
    tuple: bool,
}

impl Parts {
    fn num(&mut self) -> &mut NumRules {
        self.num.get_or_insert_default()
    }
    fn text(&mut self) -> &mut TextRules {
        self.text.get_or_insert_default()
    }
    fn obj(&mut self) -> &mut ObjRules {
        self.obj.get_or_insert_default()
    }
    fn arr(&mut self) -> &mut ArrRules {
        self.arr.get_or_insert_default()
    }
    fn apply(&mut self) -> &mut Apply {
        self.apply.get_or_insert_default()
    }
}

impl<'d> Compiler<'d> {
    /// Compile the schema `v` at `loc` into node `id`.
    pub(super) fn build(
        &mut self,
        id: NodeId,
        loc: &Loc,
        v: &'d Json<'d>,
    ) -> Result<Node, CompileError> {
        let map = match v {
            Json::Bool(b) => {
                return Ok(Node {
                    always: Some(*b),
                    ..Node::default()
                });
            }
            Json::Object(map) => map,
            other => {
                return Err(CompileError::malformed(
                    &self.place(loc),
                    format!(
                        "a schema must be an object or a boolean, got {}",
                        other.to_text()
                    ),
                ));
            }
        };
        let reg = self.registry;
        let meta = move |u: &str| Self::meta_of(reg, u);
        let cx = refs::enter(v, loc.cx.clone(), loc.ptr.is_empty(), &meta);
        let mut p = Parts::default();
        p.node.resource = self.resource(&cx.base);
        if cx.draft != Draft::D7 {
            if let Some(Json::Str(a)) = v.get("$dynamicAnchor") {
                self.dyn_decl.push((p.node.resource, a.as_ref().into(), id));
            }
        }
        // Draft-07: `$ref` ignores every keyword beside it.
        let only_ref = cx.draft == Draft::D7 && v.get("$ref").is_some();
        let here = Here {
            loc,
            cx: &cx,
            place: self.local_place(loc),
        };
        for (k, val) in map {
            let k = k.as_ref();
            if only_ref && k != "$ref" {
                continue;
            }
            // The annotations most schemas carry, known to check nothing in any dialect.
            if matches!(k, "description" | "title" | "default" | "examples") {
                continue;
            }
            if !self.keyword(&mut p, &here, k, val)? {
                if ANNOTATIONS.contains(&k) || (!cx.validation && VALIDATION.contains(&k)) {
                    continue;
                }
                if k == "additionalItems" {
                    continue;
                }
                self.unknown.push(UnknownKeyword {
                    keyword: k.to_owned(),
                    at: self.place(loc),
                });
            }
        }
        if p.tuple {
            // `additionalItems` is what `items` is past a tuple.
            p.arr().items = match v.get("additionalItems") {
                Some(extra) => Some(self.child(loc, &cx, &["additionalItems"], extra)?),
                None => None,
            };
        }
        self.finish(p, &here.place)
    }

    /// Read one keyword into `p`; `false` when this dialect does not know it.
    fn keyword(
        &mut self,
        p: &mut Parts,
        h: &Here<'_>,
        k: &str,
        val: &'d Json<'d>,
    ) -> Result<bool, CompileError> {
        let (d, on) = (h.cx.draft, h.cx.validation);

        match k {
            "type" if on => p.node.types = Some(keywords::types(&h.place, val)?),
            "enum" if on => match val {
                Json::Array(items) => {
                    p.node.choice = Some(items.iter().map(|i| i.clone().into_owned()).collect());
                }
                _ => return Err(CompileError::malformed(&h.place, "\"enum\" must be a list")),
            },
            "const" if on => p.node.constant = Some(Box::new(val.clone().into_owned())),
            "minimum" if on => p.num().minimum = Some(keywords::bound(&h.place, k, val)?),
            "maximum" if on => p.num().maximum = Some(keywords::bound(&h.place, k, val)?),
            "exclusiveMinimum" if on => match val {
                Json::Bool(b) => p.excl_min_flag = *b,
                _ => p.num().exclusive_minimum = Some(keywords::bound(&h.place, k, val)?),
            },
            "exclusiveMaximum" if on => match val {
                Json::Bool(b) => p.excl_max_flag = *b,
                _ => p.num().exclusive_maximum = Some(keywords::bound(&h.place, k, val)?),
            },
            "multipleOf" if on => p.num().multiple_of = Some(keywords::multiple_of(&h.place, val)?),
            "minLength" if on => p.text().min_length = Some(keywords::count(&h.place, k, val)?),
            "maxLength" if on => p.text().max_length = Some(keywords::count(&h.place, k, val)?),
            "pattern" if on => {
                let Json::Str(src) = val else {
                    return Err(CompileError::malformed(
                        &h.place,
                        "\"pattern\" must be a string",
                    ));
                };
                p.text().pattern = Some(keywords::pattern(&h.place, "pattern", src)?);
            }
            "format" => self.format(p, h, val)?,
            "required" if on => p.obj().required = keywords::names(&h.place, k, val)?,
            "minProperties" if on => {
                p.obj().min_properties = Some(keywords::count(&h.place, k, val)?)
            }
            "maxProperties" if on => {
                p.obj().max_properties = Some(keywords::count(&h.place, k, val)?)
            }
            "minItems" if on => p.arr().min_items = Some(keywords::count(&h.place, k, val)?),
            "maxItems" if on => p.arr().max_items = Some(keywords::count(&h.place, k, val)?),
            "minContains" if on && d != Draft::D7 => {
                p.arr().min_contains = Some(keywords::count(&h.place, k, val)?);
            }
            "maxContains" if on && d != Draft::D7 => {
                p.arr().max_contains = Some(keywords::count(&h.place, k, val)?);
            }
            "uniqueItems" if on => match val {
                Json::Bool(b) => p.arr().unique = *b,
                _ => {
                    return Err(CompileError::malformed(
                        &h.place,
                        "\"uniqueItems\" must be true or false",
                    ));
                }
            },
            "dependentRequired" if on && d != Draft::D7 => {
                for (name, list) in entries(h, k, val)? {
                    let names = keywords::names(&h.place, k, list)?;
                    p.obj().dependent_required.push((name.into(), names));
                }
            }
            "dependencies" if d != Draft::D2019 => {
                for (name, dep) in entries(h, k, val)? {
                    if let Json::Array(_) = dep {
                        if on {
                            let names = keywords::names(&h.place, k, dep)?;
                            p.obj().dependent_required.push((name.into(), names));
                        }
                    } else {
                        let id = self.child(h.loc, h.cx, &[k, name], dep)?;
                        p.obj().dependent_schemas.push((name.into(), id));
                    }
                }
            }
            _ => return self.applicator(p, h, k, val),
        }
        Ok(true)
    }

    /// The keywords that hold subschemas; `false` for one this dialect does not know.
    fn applicator(
        &mut self,
        p: &mut Parts,
        h: &Here<'_>,
        k: &str,
        val: &'d Json<'d>,
    ) -> Result<bool, CompileError> {
        let d = h.cx.draft;
        let one = |c: &mut Self| c.child(h.loc, h.cx, &[k], val);
        match k {
            "properties" => {
                if let Json::Object(m) = val {
                    let o = p.obj();
                    o.heads.reserve_exact(m.len());
                    o.names.reserve_exact(m.iter().map(|(n, _)| n.len()).sum());
                }
                for (name, s) in entries(h, k, val)? {
                    let id = self.child(h.loc, h.cx, &[k, name], s)?;
                    p.obj().add_property(name, id);
                }
            }
            "patternProperties" => {
                for (src, s) in entries(h, k, val)? {
                    let pat = keywords::pattern(&h.place, k, src)?;
                    let id = self.child(h.loc, h.cx, &[k, src], s)?;
                    p.obj().pattern_properties.push((pat, id));
                }
            }
            "additionalProperties" => p.obj().additional = Some(one(self)?),
            "propertyNames" => p.obj().property_names = Some(one(self)?),
            "dependentSchemas" if d != Draft::D7 => {
                for (name, s) in entries(h, k, val)? {
                    let id = self.child(h.loc, h.cx, &[k, name], s)?;
                    p.obj().dependent_schemas.push((name.into(), id));
                }
            }
            "unevaluatedProperties" if d != Draft::D7 => p.obj().unevaluated = Some(one(self)?),
            "unevaluatedItems" if d != Draft::D7 => p.arr().unevaluated = Some(one(self)?),
            // An array of schemas is a tuple (draft-07 and 2019-09; read the same way in a
            // 2020-12 schema rather than refused, since older declarations write it so).
            "items" => match val {
                Json::Array(items) => {
                    p.tuple = true;
                    p.arr().prefix = self.list(h, k, items)?;
                }
                _ => p.arr().items = Some(one(self)?),
            },
            "prefixItems" if d == Draft::D2020 => match val {
                Json::Array(items) => p.arr().prefix = self.list(h, k, items)?,
                _ => return Err(self.not_a_list(h, k)),
            },
            "contains" => p.arr().contains = Some(one(self)?),
            "allOf" | "anyOf" | "oneOf" => {
                let Json::Array(items) = val else {
                    return Err(self.not_a_list(h, k));
                };
                if items.is_empty() {
                    return Err(CompileError::malformed(
                        &h.place,
                        format!("\"{k}\" must list at least one schema"),
                    ));
                }
                let ids = self.list(h, k, items)?;
                match k {
                    "allOf" => p.apply().all_of = ids,
                    "anyOf" => p.apply().any_of = ids,
                    _ => p.apply().one_of = ids,
                }
            }
            "not" => p.apply().not = Some(one(self)?),
            "if" => p.apply().if_ = Some(one(self)?),
            "then" => p.apply().then = Some(one(self)?),
            "else" => p.apply().else_ = Some(one(self)?),
            "$ref" => {
                let r = self.reference(h, k, val)?;
                let (tloc, tv) = self.target(k, r, h.loc, h.cx)?;
                p.apply().refs.push(self.request(tloc, tv)?);
            }
            "$dynamicRef" if d == Draft::D2020 => {
                let r = self.reference(h, k, val)?;
                let (tloc, tv) = self.target(k, r, h.loc, h.cx)?;
                let target = self.request(tloc, tv)?;
                let frag = r.split_once('#').map_or("", |(_, f)| f);
                let bookend = !frag.is_empty()
                    && !frag.starts_with('/')
                    && matches!(tv.get("$dynamicAnchor"), Some(Json::Str(a)) if a == frag);
                let anchor = bookend.then(|| {
                    self.dynamic = true;
                    if !self.dyn_names.iter().any(|n| n == frag) {
                        self.dyn_names.push(frag.to_owned());
                    }
                    frag.into()
                });
                p.apply().dynamic = Some(DynamicRef { target, anchor });
            }
            "$recursiveRef" if d == Draft::D2019 => {
                return Err(CompileError::refused(
                    k,
                    &h.place,
                    "2019-09's $recursiveRef is not supported (2020-12's $dynamicRef is)",
                ));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `format`: checked when formats are asserted and the standard defines it (each format
    /// it defines has a checker); a format it does not define is a note, named with `--all`.
    fn format(&mut self, p: &mut Parts, h: &Here<'_>, val: &Json<'_>) -> Result<(), CompileError> {
        let Json::Str(name) = val else {
            return Err(CompileError::malformed(
                &h.place,
                "\"format\" must be a string",
            ));
        };
        let assert = self.formats == Formats::Assert || h.cx.format_assertion;
        match format::checker(name) {
            Some(c) if assert => p.text().format = Some(c),
            Some(_) => {}
            None => self.unknown_formats.push(UnknownFormat {
                format: name.to_string(),
                at: self.place(h.loc),
            }),
        }
        Ok(())
    }

    fn reference<'v>(
        &self,
        h: &Here<'_>,
        k: &str,
        val: &'v Json<'_>,
    ) -> Result<&'v str, CompileError> {
        match val {
            Json::Str(r) => Ok(r),
            _ => Err(CompileError::malformed(
                &h.place,
                format!("\"{k}\" must be a string"),
            )),
        }
    }

    fn list(
        &mut self,
        h: &Here<'_>,
        k: &str,
        items: &'d [Json<'d>],
    ) -> Result<Vec<NodeId>, CompileError> {
        let mut ids = Vec::with_capacity(items.len());
        for (i, s) in items.iter().enumerate() {
            ids.push(self.child(h.loc, h.cx, &[k, &i.to_string()], s)?);
        }
        Ok(ids)
    }

    fn not_a_list(&self, h: &Here<'_>, k: &str) -> CompileError {
        CompileError::malformed(&h.place, format!("\"{k}\" must be a list of schemas"))
    }

    /// Put the parts together: draft-4 exclusive flags, the property index, the groups a
    /// schema uses.
    fn finish(&mut self, mut p: Parts, at: &str) -> Result<Node, CompileError> {
        if p.excl_min_flag {
            let plain = p.num().minimum.take();
            p.num().exclusive_minimum = Some(exclusive(at, "minimum", plain)?);
        }
        if p.excl_max_flag {
            let plain = p.num().maximum.take();
            p.num().exclusive_maximum = Some(exclusive(at, "maximum", plain)?);
        }
        let mut node = p.node;
        node.num = p.num.filter(|num| {
            num.minimum.is_some()
                || num.maximum.is_some()
                || num.exclusive_minimum.is_some()
                || num.exclusive_maximum.is_some()
                || num.multiple_of.is_some()
        });
        node.text = p.text.filter(|t| {
            t.min_length.is_some()
                || t.max_length.is_some()
                || t.pattern.is_some()
                || t.format.is_some()
        });
        if let Some(mut o) = p.obj {
            o.seal();
            if !o.dependent_schemas.is_empty() || o.unevaluated.is_some() {
                self.in_place = true;
            }
            let used = !o.heads.is_empty()
                || !o.pattern_properties.is_empty()
                || o.additional.is_some()
                || !o.required.is_empty()
                || o.min_properties.is_some()
                || o.max_properties.is_some()
                || o.property_names.is_some()
                || !o.dependent_required.is_empty()
                || !o.dependent_schemas.is_empty()
                || o.unevaluated.is_some();
            node.obj = used.then_some(o);
        }
        if let Some(a) = p.arr {
            if a.unevaluated.is_some() {
                self.in_place = true;
            }
            let used = !a.prefix.is_empty()
                || a.items.is_some()
                || a.contains.is_some()
                || a.min_items.is_some()
                || a.max_items.is_some()
                || a.unique
                || a.unevaluated.is_some();
            node.arr = used.then_some(a);
        }
        if let Some(ap) = p.apply {
            if ap.in_place().next().is_some() {
                self.in_place = true;
                node.apply = Some(ap);
            }
        }
        let empty = node.types.is_none()
            && node.choice.is_none()
            && node.constant.is_none()
            && node.num.is_none()
            && node.text.is_none()
            && node.obj.is_none()
            && node.arr.is_none()
            && node.apply.is_none();
        if empty {
            node.always = Some(true);
        }
        node.only_types = node.types.is_some()
            && node.choice.is_none()
            && node.constant.is_none()
            && node.num.is_none()
            && node.text.is_none()
            && node.obj.is_none()
            && node.arr.is_none()
            && node.apply.is_none();
        Ok(node)
    }
}

/// Where a keyword is being read: its location, the context inside its schema, and the
/// location as messages name it.
struct Here<'h> {
    loc: &'h Loc,
    cx: &'h refs::Cx,
    /// Where this schema is, as errors say it (the compiler puts the declaration's own
    /// prefix in front at the end).
    place: std::borrow::Cow<'h, str>,
}

/// The members of a keyword whose value maps names to schemas (or to name lists).
fn entries<'d>(
    h: &Here<'_>,
    k: &str,
    val: &'d Json<'d>,
) -> Result<impl Iterator<Item = (&'d str, &'d Json<'d>)> + use<'d>, CompileError> {
    match val {
        Json::Object(m) => Ok(m.iter().map(|(n, s)| (n.as_ref(), s))),
        _ => Err(CompileError::malformed(
            &h.place,
            format!("\"{k}\" must be an object"),
        )),
    }
}

/// Draft-4 `"exclusiveMinimum": true` (or Maximum) turns the plain bound (`key`) exclusive;
/// without that bound the flag has nothing to act on.
fn exclusive(
    at: &str,
    key: &str,
    plain: Option<crate::validate::program::Bound>,
) -> Result<crate::validate::program::Bound, CompileError> {
    let flag = if key == "minimum" {
        "exclusiveMinimum"
    } else {
        "exclusiveMaximum"
    };
    plain.ok_or_else(|| CompileError::malformed(at, format!("\"{flag}\": true needs a \"{key}\"")))
}
