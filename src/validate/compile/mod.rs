//! JSON Schema (2020-12, and draft-07 when `$schema` says so) compiled into a [`Program`].
//!
//! Each schema location becomes one node, compiled once however many references reach it.
//! References are resolved here, not while validating: `$ref` against the base the nearest
//! `$id` sets, to a pointer or an anchor in this schema or in a document preloaded into the
//! [`Registry`]; anything else is refused (a validator never goes to the network). Compiling
//! is bounded: a node cap, and a loop of in-place references (`{"$ref": "#"}`) is an error.
//! Unknown keywords are ignored, as the standard says, and named; unknown formats too.

mod build;
mod check;
mod keywords;
pub(crate) mod refs;

use foldhash::{HashMap, HashMapExt};
use smallvec::SmallVec;
use std::rc::Rc;

use super::error::CompileError;
use super::json::Json;
use super::program::{Node, NodeId, Program, Resource, RootShape};
use crate::sanitize::quote;
use refs::{Cx, Index, Loc, Meta, Registry};

/// A dialect of JSON Schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draft {
    D7,
    D2019,
    D2020,
}

/// What `format` does: checked (the default here, since a model's `"2026-02-30"` is a real
/// bug), or a note only (the standard's default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Formats {
    #[default]
    Assert,
    Annotate,
}

impl Formats {
    pub fn parse(name: &str) -> Option<Formats> {
        match name {
            "assert" => Some(Formats::Assert),
            "annotate" => Some(Formats::Annotate),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Formats::Assert => "assert",
            Formats::Annotate => "annotate",
        }
    }
}

/// A keyword the validator does not know, ignored as the standard says and named so no one
/// takes it for checked (an envelope field of a declaration counts too).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct UnknownKeyword {
    pub keyword: String,
    /// A JSON pointer to the object that carries it, from the top of the text given.
    pub at: String,
}

/// A format the standard does not define (`"float"`): a note only, never checked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct UnknownFormat {
    pub format: String,
    /// A JSON pointer to the schema that carries it.
    pub at: String,
}

/// The root schema's node.
const ROOT: NodeId = 0;

/// The most nodes one schema may compile to.
const MAX_NODES: usize = 200_000;

/// Every keyword of the dialects read here (annotations included): what shape detection
/// counts as JSON Schema.
pub(crate) fn is_keyword(k: &str) -> bool {
    build::KNOWN.contains(&k)
}

/// A compiled JSON Schema and what was noted on the way.
pub(crate) struct Compiled {
    pub(crate) program: Program,
    pub(crate) unknown: Vec<UnknownKeyword>,
    pub(crate) unknown_formats: Vec<UnknownFormat>,
}

/// Compile `schema`; `at` is where it sits in the text given (a JSON pointer prefix).
pub(crate) fn json_schema<'d>(
    schema: &'d Json<'d>,
    at: &'d str,
    formats: Formats,
    registry: Option<&'d Registry>,
    draft: Draft,
) -> Result<Compiled, CompileError> {
    let mut c = Compiler {
        docs: smallvec::smallvec![schema],
        doc_uris: smallvec::smallvec![None],
        registry,
        index: None,
        memo: HashMap::new(),
        // Under a kilobyte: a larger block takes the allocator's slow path.
        nodes: Vec::with_capacity(8),
        queue: Vec::new(),
        spare_ptrs: PtrPool::take(),
        res_list: SmallVec::new(),
        res_ids: HashMap::new(),
        last_resource: None,
        dyn_names: Vec::new(),
        dyn_decl: Vec::new(),
        unknown: Vec::new(),
        unknown_formats: Vec::new(),
        formats,
        at,
        in_place: false,
        dynamic: false,
        draft,
    };
    let root_cx = Cx {
        base: refs::default_base(),
        draft,
        validation: true,
        format_assertion: false,
    };
    let root_loc = Loc {
        doc: 0,
        ptr: String::new(),
        cx: root_cx,
    };
    let prefix = |e: CompileError| match e {
        CompileError::Malformed { at: here, what } if !here.contains('#') => {
            CompileError::Malformed {
                at: format!("{at}{here}"),
                what,
            }
        }
        CompileError::Refused(mut r) if !r.at.contains('#') => {
            r.at = format!("{at}{}", r.at);
            CompileError::Refused(r)
        }
        other => other,
    };
    // The root is node 0, compiled first (a reference to it is found without the memo).
    let root = c.alloc().map_err(prefix)?;
    let node = c.build(root, &root_loc, schema).map_err(prefix)?;
    c.nodes[root as usize] = node;
    c.drain().map_err(prefix)?;
    c.finish_dynamic().map_err(prefix)?;
    let mut program = Program {
        nodes: c.nodes,
        root,
        resources: Vec::new(),
        has_in_place: c.in_place,
        dynamic: c.dynamic,
        shape: RootShape::General,
    };
    // The resources' dynamic anchors are read only by a dynamic reference, so a schema
    // that declares none (nearly all) keeps no list of them.
    if !c.dyn_decl.is_empty() || c.dynamic {
        let mut resources = vec![Resource::default(); c.res_list.len()];
        for (res, name, id) in c.dyn_decl {
            resources[res as usize].dynamic_anchors.push((name, id));
        }
        program.resources = resources;
    }
    check::bounded(&program)?;
    program.seal();
    program.shape = crate::validate::eval::shallow::shape(&program);
    Ok(Compiled {
        program,
        unknown: c.unknown,
        unknown_formats: c.unknown_formats,
    })
}

/// The compiler's state while it works through the locations a schema reaches.
struct Compiler<'d> {
    /// Document 0 is the schema; the rest were loaded from the registry when referenced.
    docs: SmallVec<[&'d Json<'d>; 1]>,
    doc_uris: SmallVec<[Option<String>; 1]>,
    registry: Option<&'d Registry>,
    /// Built the first time a reference needs it.
    index: Option<Index>,
    memo: HashMap<(u32, String), NodeId>,
    nodes: Vec<Node>,
    /// Locations given a node id and waiting to be compiled.
    queue: Vec<(NodeId, Loc, &'d Json<'d>)>,
    /// Pointers of subschemas compiled, kept for the next ones to write theirs into.
    spare_ptrs: PtrPool,
    /// Every resource's base URI, by id.
    res_list: SmallVec<[Rc<str>; 2]>,
    /// The ids by base URI, once there are more than a few resources (empty before).
    res_ids: HashMap<Rc<str>, u32>,
    last_resource: Option<(Rc<str>, u32)>,
    /// `$dynamicAnchor` names some `$dynamicRef` may look up in the dynamic scope.
    dyn_names: Vec<String>,
    /// (resource, name, node) of every compiled `$dynamicAnchor`.
    dyn_decl: Vec<(u32, Box<str>, NodeId)>,
    unknown: Vec<UnknownKeyword>,
    unknown_formats: Vec<UnknownFormat>,
    formats: Formats,
    at: &'d str,
    in_place: bool,
    dynamic: bool,
    /// The dialect of a schema (or loaded document) whose `$schema` does not say.
    draft: Draft,
}

impl<'d> Compiler<'d> {
    /// What a `$schema` URI says (a standard dialect, or a metaschema from the registry).
    fn meta_of(registry: Option<&Registry>, uri: &str) -> Option<Meta> {
        if let Some(draft) = refs::dialect_of(uri) {
            return Some(Meta {
                draft,
                validation: true,
                format_assertion: false,
            });
        }
        let key = refs::normalize(uri)?;
        let (_, doc) = registry?.get(&key)?;
        let draft = match doc.get("$schema") {
            Some(Json::Str(s)) => refs::dialect_of(s).unwrap_or(Draft::D2020),
            _ => Draft::D2020,
        };
        let on = |name: &str| match doc.get("$vocabulary") {
            Some(Json::Object(v)) => v.iter().any(|(k, _)| k.ends_with(name)),
            _ => true,
        };
        Some(Meta {
            draft,
            validation: on("/vocab/validation"),
            format_assertion: doc.get("$vocabulary").is_some() && on("/vocab/format-assertion"),
        })
    }

    /// The node id of location `loc` (value `v`), compiled later if it is new.
    fn request(&mut self, loc: Loc, v: &'d Json<'d>) -> Result<NodeId, CompileError> {
        if loc.doc == 0 && loc.ptr.is_empty() {
            return Ok(ROOT);
        }
        let key = (loc.doc, loc.ptr.clone());
        if let Some(&id) = self.memo.get(&key) {
            return Ok(id);
        }
        let id = self.alloc()?;
        self.memo.insert(key, id);
        self.queue.push((id, loc, v));
        Ok(id)
    }

    fn alloc(&mut self) -> Result<NodeId, CompileError> {
        if self.nodes.len() >= MAX_NODES {
            return Err(CompileError::Unbounded(format!(
                "the schema compiles to more than {MAX_NODES} schemas, the most one may hold"
            )));
        }
        self.nodes.push(Node::default());
        Ok((self.nodes.len() - 1) as NodeId)
    }

    /// Compile every location waiting.
    fn drain(&mut self) -> Result<(), CompileError> {
        while let Some((id, loc, v)) = self.queue.pop() {
            let node = self.build(id, &loc, v)?;
            self.nodes[id as usize] = node;
        }
        Ok(())
    }

    /// A subschema of the location `loc`, reached through `tokens`: compiled now.
    fn child(
        &mut self,
        parent: &Loc,
        cx: &Cx,
        tokens: &[&str],
        v: &'d Json<'d>,
    ) -> Result<NodeId, CompileError> {
        // The pointer's room comes from the pool of those whose subschemas are compiled.
        let mut ptr = self
            .spare_ptrs
            .0
            .pop()
            .unwrap_or_else(|| String::with_capacity(64));
        ptr.clear();
        ptr.reserve(parent.ptr.len() + tokens.iter().map(|t| t.len() + 1).sum::<usize>());
        ptr.push_str(&parent.ptr);
        for t in tokens {
            refs::push_token(&mut ptr, t);
        }
        // Not memoised: a subschema is reached once from its parent, and a reference to it
        // compiles its own copy (references are memoised, so recursion still ends).
        let id = self.alloc()?;
        let loc = Loc {
            doc: parent.doc,
            ptr,
            cx: cx.clone(),
        };
        let node = self.build(id, &loc, v)?;
        self.nodes[id as usize] = node;
        self.spare_ptrs.0.push(loc.ptr);
        Ok(id)
    }

    /// The id of a resource (by its base URI; the last one asked is remembered, since
    /// subschemas share their parent's base).
    fn resource(&mut self, base: &Rc<str>) -> u32 {
        if let Some((b, id)) = &self.last_resource {
            if Rc::ptr_eq(b, base) {
                return *id;
            }
        }
        let id = self.resource_id(base);
        self.last_resource = Some((base.clone(), id));
        id
    }

    /// The id of the resource at `base`, a new one if it is not known yet: looked for along
    /// the list while there are few, in a map past that.
    fn resource_id(&mut self, base: &Rc<str>) -> u32 {
        const LISTED: usize = 16;
        let n = self.res_list.len() as u32;
        if self.res_ids.is_empty() {
            if let Some(i) = self.res_list.iter().position(|b| **b == **base) {
                return i as u32;
            }
            if self.res_list.len() < LISTED {
                self.res_list.push(base.clone());
                return n;
            }
            self.res_ids = (0..n)
                .map(|i| (self.res_list[i as usize].clone(), i))
                .collect();
        }
        let id = *self.res_ids.entry(base.clone()).or_insert(n);
        if id == n {
            self.res_list.push(base.clone());
        }
        id
    }

    /// Where a location is, for errors: its pointer in the schema (the declaration's prefix
    /// is put in front once, at the end), or `URI#pointer` in a loaded document.
    fn local_place<'l>(&self, loc: &'l Loc) -> std::borrow::Cow<'l, str> {
        match &self.doc_uris[loc.doc as usize] {
            Some(uri) => format!("{uri}#{}", loc.ptr).into(),
            None => std::borrow::Cow::Borrowed(&loc.ptr),
        }
    }

    /// Where a schema location is, for messages: a JSON pointer from the top of the text
    /// (a loaded document's locations start with its URI).
    fn place(&self, loc: &Loc) -> String {
        let (front, hash) = match &self.doc_uris[loc.doc as usize] {
            Some(uri) => (uri.as_str(), "#"),
            None => (self.at, ""),
        };
        let mut out = String::with_capacity(front.len() + hash.len() + loc.ptr.len());
        out.push_str(front);
        out.push_str(hash);
        out.push_str(&loc.ptr);
        out
    }

    fn ensure_index(&mut self) {
        if self.index.is_some() {
            return;
        }
        let mut index = Index::default();
        let reg = self.registry;
        let meta = move |u: &str| Self::meta_of(reg, u);
        for (i, doc) in self.docs.iter().enumerate() {
            let base = match &self.doc_uris[i] {
                Some(u) => u.as_str().into(),
                None => refs::default_base(),
            };
            index.index_doc(i as u32, doc, default_cx(base, self.draft), &meta);
        }
        self.index = Some(index);
    }

    /// Load `uri` from the registry as a new document (indexed), if it is there.
    fn load(&mut self, uri: &str) -> bool {
        let Some(reg) = self.registry else {
            return false;
        };
        let Some((_, doc)) = reg.get(uri) else {
            return false;
        };
        if self.doc_uris.iter().any(|u| u.as_deref() == Some(uri)) {
            return false;
        }
        let n = self.docs.len() as u32;
        self.docs.push(doc);
        self.doc_uris.push(Some(uri.to_owned()));
        let meta = move |u: &str| Self::meta_of(Some(reg), u);
        if let Some(index) = &mut self.index {
            index.index_doc(n, doc, default_cx(uri.into(), self.draft), &meta);
        }
        true
    }

    /// The location a reference (`$ref`, `$dynamicRef`) written at `loc` points to.
    fn target(
        &mut self,
        keyword: &str,
        reference: &str,
        loc: &Loc,
        cx: &Cx,
    ) -> Result<(Loc, &'d Json<'d>), CompileError> {
        let at = self.local_place(loc).into_owned();
        let (uri, fragment) = refs::resolve(&cx.base, reference)
            .map_err(|e| CompileError::malformed(&at, format!("\"{keyword}\": {e}")))?;
        self.ensure_index();
        for attempt in 0..2 {
            if let Some(found) = self.find(&uri, &fragment) {
                return Ok(found);
            }
            if attempt == 0 && !self.load(&uri) {
                break;
            }
        }
        let index = self.index.as_ref().expect("indexed above");
        let known = index.resources.contains_key(&uri);
        let reason = if known {
            format!("{} points to nothing in the schema", quote(reference))
        } else if uri.starts_with("http://") || uri.starts_with("https://") {
            format!(
                "the remote reference {} is not loaded (a validator never fetches)",
                quote(reference)
            )
        } else {
            format!("{} names no schema this schema holds", quote(reference))
        };
        Err(CompileError::refused(keyword, &at, reason))
    }

    /// A URI and fragment looked up in the index.
    fn find(&self, uri: &str, fragment: &str) -> Option<(Loc, &'d Json<'d>)> {
        let index = self.index.as_ref()?;
        match refs::pointer_tokens(fragment) {
            Some(tokens) => {
                let root = index.resources.get(uri)?;
                let start = refs::walk(self.docs[root.doc as usize], &root_tokens(&root.ptr))?;
                let reg = self.registry;
                let meta = move |u: &str| Self::meta_of(reg, u);
                let mut cx = root.cx.clone();
                let mut here = start;
                let mut ptr = root.ptr.clone();
                for (i, t) in tokens.iter().enumerate() {
                    if matches!(here, Json::Object(_)) {
                        cx = refs::enter(here, cx, i == 0 && root.ptr.is_empty(), &meta);
                    }
                    here = refs::walk(here, std::slice::from_ref(t))?;
                    refs::push_token(&mut ptr, t);
                }
                Some((
                    Loc {
                        doc: root.doc,
                        ptr,
                        cx,
                    },
                    here,
                ))
            }
            _ => {
                let loc = index.anchors.get(&format!("{uri}#{fragment}"))?;
                let v = refs::walk(self.docs[loc.doc as usize], &root_tokens(&loc.ptr))?;
                Some((loc.clone(), v))
            }
        }
    }

    /// Compile every `$dynamicAnchor` a dynamic reference may land on (each compiled one
    /// may hold more dynamic references).
    fn finish_dynamic(&mut self) -> Result<(), CompileError> {
        let mut done = 0;
        while done < self.dyn_names.len() {
            let name = self.dyn_names[done].clone();
            done += 1;
            let locs = self
                .index
                .as_ref()
                .and_then(|i| i.dynamic.get(&name))
                .cloned()
                .unwrap_or_default();
            for loc in locs {
                let Some(v) = refs::walk(self.docs[loc.doc as usize], &root_tokens(&loc.ptr))
                else {
                    continue;
                };
                self.request(loc, v)?;
            }
            self.drain()?;
        }
        Ok(())
    }
}

/// Pointer buffers kept for the next subschemas; handed back to the thread when the
/// compiler is done, so the next schema's start with room too.
struct PtrPool(Vec<String>);

thread_local! {
    static PTRS: std::cell::Cell<Vec<String>> = const { std::cell::Cell::new(Vec::new()) };
}

impl PtrPool {
    fn take() -> PtrPool {
        PtrPool(PTRS.with(|p| p.take()))
    }
}

impl Drop for PtrPool {
    fn drop(&mut self) {
        // A few buffers of modest size: a deep or long-named schema's are let go.
        let mut kept = std::mem::take(&mut self.0);
        kept.retain(|p| p.capacity() <= 1024);
        kept.truncate(32);
        PTRS.with(|p| {
            let other = p.take();
            p.set(if other.len() > kept.len() {
                other
            } else {
                kept
            });
        });
    }
}

fn default_cx(base: Rc<str>, draft: Draft) -> Cx {
    Cx {
        base,
        draft,
        validation: true,
        format_assertion: false,
    }
}

/// The tokens of a pointer this compiler wrote (`/a/b~1c`).
fn root_tokens(ptr: &str) -> Vec<String> {
    refs::split_pointer(ptr)
}
