//! The explaining pass: every failure of a value the quick pass refused, each with its
//! phase (missing, unknown, type, value), its position and its path.
//!
//! The first failure is the least by phase over the whole value, then by position: a
//! failure's position is the indices of the members and items on its path, in the order the
//! model wrote them, and a shorter path (outer) comes before a longer one; at one position,
//! the order the checks meet them (required names in declared order). A schema without
//! in-place applicators is walked in exactly that order, so its first failure is found by
//! one walk per phase that stops at the first; otherwise every failure is collected and
//! sorted.
//!
//! Combinators: `allOf`, `$ref`, `if`/`then`/`else` and `dependentSchemas` report their
//! subschemas' failures as their own. An `anyOf`/`oneOf` that nothing matches is a type
//! error when every branch refuses the value's type (`expected str or NoneType`); when one
//! branch takes the type, that branch's failures are reported; otherwise a value error lists
//! each branch's first failure, briefly. `not`, `const` and a `oneOf` matched twice are
//! value errors; a `false` schema for a member is an unknown member.

use std::borrow::Cow;

use smallvec::SmallVec;

use super::found::{Found, Seg, What, render};
use super::{Flags, MAX_EVAL_DEPTH, Quick, chars, contains_ok, has, multiple_ok, repeated};
use crate::sanitize::quote;
use crate::validate::CheckKind;
use crate::validate::json::{self, Json};
use crate::validate::program::{
    Apply, ArrRules, Node, NodeId, NumRules, ObjRules, Program, TextRules, Types,
};

type Fields<'x> = [(Cow<'x, str>, Json<'x>)];

/// A failure with its position (the indices on its path).
pub(crate) type Placed<'x> = (Vec<u32>, Found<'x>);

pub(crate) struct Explain<'x> {
    pub(super) q: Quick<'x>,
    pub(super) segs: SmallVec<[Seg<'x>; 8]>,
    pub(super) pos: SmallVec<[u32; 8]>,
    /// Keep only the first failure of the lowest phase met (a walk in position order finds
    /// the first failure so), instead of collecting every one.
    pub(super) best: bool,
    pub(super) done: bool,
    /// Read `unevaluated*` strictly: only what passing schemas evaluated counts (the
    /// standard's rule; the first reading also counts what failing ones covered, so a
    /// member that fails its own schema is not also called unknown).
    pub(super) strict: bool,
    pub(super) root: &'static str,
    pub(super) out: Vec<Placed<'x>>,
    /// The failure kept in `best` mode.
    kept: Option<Found<'x>>,
    pub(super) depth: u32,
}

/// Every failure of `v` against `p` (which refused it), sorted, repeats dropped.
pub(crate) fn all<'x>(
    p: &'x Program,
    f: Flags,
    v: &'x Json<'x>,
    root: &'static str,
) -> Vec<Found<'x>> {
    let mut out = Vec::new();
    for strict in [false, true] {
        let mut e = Explain::new(p, f, root);
        e.strict = strict;
        e.node(p.root, v);
        out = e.out;
        if !out.is_empty() {
            break;
        }
    }
    if out.is_empty() {
        out.push((
            Vec::new(),
            Found {
                kind: CheckKind::Value,
                path: Cow::Borrowed(""),
                subject: None,
                what: What::Value("does not match the schema".into()),
            },
        ));
    }
    sorted(out, root)
}

/// The first failure of `v` against `p` (which refused it).
pub(crate) fn first<'x>(
    p: &'x Program,
    f: Flags,
    v: &'x Json<'x>,
    root: &'static str,
) -> Found<'x> {
    if !p.has_in_place {
        let mut e = Explain::new(p, f, root);
        e.best = true;
        e.node(p.root, v);
        if let Some(found) = e.kept.take() {
            return found;
        }
    }
    all(p, f, v, root).swap_remove(0)
}

fn sorted<'x>(mut out: Vec<Placed<'x>>, root: &str) -> Vec<Found<'x>> {
    out.sort_by(|(pa, a), (pb, b)| a.kind.cmp(&b.kind).then_with(|| pa.cmp(pb)));
    let mut seen: Vec<(CheckKind, String)> = Vec::new();
    let mut kept = Vec::with_capacity(out.len());
    for (_, f) in out {
        let key = (f.kind, f.message(root));
        if !seen.contains(&key) {
            seen.push(key);
            kept.push(f);
        }
    }
    kept
}

impl<'x> Explain<'x> {
    fn new(p: &'x Program, f: Flags, root: &'static str) -> Explain<'x> {
        Explain {
            q: Quick::new(p, f),
            segs: SmallVec::new(),
            pos: SmallVec::new(),
            best: false,
            done: false,
            strict: false,
            root,
            out: Vec::new(),
            kept: None,
            depth: 0,
        }
    }

    /// The path here, with one more step.
    fn path(&self, extra: Option<Seg<'x>>) -> Cow<'x, str> {
        match (self.segs.as_slice(), extra) {
            ([], None) => Cow::Borrowed(""),
            ([], Some(Seg::Key(k))) => Cow::Borrowed(k),
            ([Seg::Key(k)], None) => Cow::Borrowed(*k),
            (segs, extra) => {
                let mut all = segs.to_vec();
                all.extend(extra);
                render(&all)
            }
        }
    }

    pub(super) fn emit(&mut self, kind: CheckKind, path: Cow<'x, str>, what: What<'x>) {
        self.emit_as(kind, path, None, what);
    }

    fn emit_as(
        &mut self,
        kind: CheckKind,
        path: Cow<'x, str>,
        subject: Option<String>,
        what: What<'x>,
    ) {
        if !self.wants(kind) {
            return;
        }
        let found = Found {
            kind,
            path,
            subject,
            what,
        };
        if self.best {
            self.kept = Some(found);
            // Nothing but a parse failure comes before a missing name.
            self.done = kind == CheckKind::Missing;
        } else {
            self.out.push((self.pos.to_vec(), found));
        }
    }

    /// Would a failure of this phase be kept?
    #[inline]
    pub(super) fn wants(&self, kind: CheckKind) -> bool {
        !self.done && (!self.best || self.kept.as_ref().is_none_or(|b| kind < b.kind))
    }

    pub(super) fn value(&mut self, text: impl FnOnce() -> String) {
        if !self.wants(CheckKind::Value) {
            return;
        }
        let path = self.path(None);
        self.emit(CheckKind::Value, path, What::Value(text()));
    }

    pub(super) fn push(&mut self, seg: Seg<'x>, at: usize) {
        self.segs.push(seg);
        self.pos.push(at as u32);
    }

    pub(super) fn pop(&mut self) {
        self.segs.pop();
        self.pos.pop();
    }

    /// Report why `v` fails node `id`.
    pub(crate) fn node(&mut self, id: NodeId, v: &'x Json<'x>) {
        if self.done {
            return;
        }
        let n = self.q.p.node(id);
        if let Some(b) = n.always {
            if !b && self.q.f.values {
                self.value(|| "is not allowed (the schema is false)".into());
            }
            return;
        }
        if self.depth >= MAX_EVAL_DEPTH {
            self.value(|| "nests schemas too deeply to check".into());
            return;
        }
        self.depth += 1;
        let entered = self.q.enter(n);
        self.body(n, v);
        self.q.leave(entered);
        self.depth -= 1;
    }

    fn body(&mut self, n: &'x Node, v: &'x Json<'x>) {
        let f = self.q.f;
        if let Some(t) = &n.types {
            if f.types && !t.admits(v, f.bool_guard) {
                if !self.wants(CheckKind::Type) {
                    return;
                }
                let path = self.path(None);
                let what = What::Type {
                    expected: Cow::Borrowed(&t.name),
                    got: v.py_type(),
                };
                self.emit(CheckKind::Type, path, what);
                return;
            }
        }
        if f.values {
            if let (Some(num), Json::Int(_) | Json::BigInt(_) | Json::Float(_)) = (&n.num, v) {
                self.numbers(num, v);
            }
            self.choices(n, v);
            if let (Some(t), Json::Str(s)) = (&n.text, v) {
                self.text(t, s, v);
            }
        }
        match v {
            Json::Object(fields) => {
                if let Some(o) = &n.obj {
                    self.object(o, fields);
                }
            }
            Json::Array(items) => {
                if let Some(a) = &n.arr {
                    self.array(a, items);
                }
            }
            _ => {}
        }
        if let Some(ap) = &n.apply {
            self.apply(ap, v);
        }
        if let (Some(o), Json::Object(fields)) = (&n.obj, v) {
            for (k, s) in &o.dependent_schemas {
                if has(fields, k) && !self.q.valid(*s, v, None) {
                    self.node(*s, v);
                }
            }
        }
        if n.has_unevaluated() {
            self.unevaluated(n, v);
        }
    }

    fn numbers(&mut self, c: &NumRules, v: &Json<'_>) {
        use std::cmp::Ordering::{Greater, Less};
        let shown = v.show();
        type Pass = fn(std::cmp::Ordering) -> bool;
        let checks: [(&Option<crate::validate::program::Bound>, &str, Pass); 4] = [
            (&c.minimum, ">=", |o| o != Less),
            (&c.maximum, "<=", |o| o != Greater),
            (&c.exclusive_minimum, ">", |o| o == Greater),
            (&c.exclusive_maximum, "<", |o| o == Less),
        ];
        for (b, op, pass) in checks {
            let Some(b) = b else { continue };
            if !b.compare(v).is_some_and(pass) {
                self.value(|| format!("must be {op} {}, got {shown}", b.text));
            }
        }
        if let Some((m, text)) = &c.multiple_of {
            if !multiple_ok(m, v) {
                self.value(|| format!("must be a multiple of {text}, got {shown}"));
            }
        }
    }

    /// `enum` and `const`.
    fn choices(&mut self, n: &Node, v: &Json<'_>) {
        if let Some(options) = n
            .choice
            .as_ref()
            .filter(|o| !o.iter().any(|x| x.same_as(v)))
        {
            let listed = options
                .iter()
                .map(Json::to_text)
                .collect::<Vec<_>>()
                .join(", ");
            let listed = json::cut(&listed, 80);
            let text = match options.len() {
                0 => format!("accepts no value (the enum is empty), got {}", v.show()),
                1 => format!("must be {listed}, got {}", v.show()),
                _ => format!("must be one of {listed}, got {}", v.show()),
            };
            self.value(|| text);
        }
        if let Some(c) = n.constant.as_ref().filter(|c| !c.same_as(v)) {
            self.value(|| format!("must be {}, got {}", json::cut(&c.to_text(), 80), v.show()));
        }
    }

    fn text(&mut self, t: &TextRules, s: &str, v: &Json<'_>) {
        if t.min_length.is_some() || t.max_length.is_some() {
            let n = chars(s);
            let unit = |m: u64| if m == 1 { "character" } else { "characters" };
            if let Some(min) = t.min_length.filter(|&m| n < m) {
                self.value(|| {
                    format!(
                        "must be at least {min} {} long, got {n} ({})",
                        unit(min),
                        v.show()
                    )
                });
            }
            if let Some(max) = t.max_length.filter(|&m| n > m) {
                self.value(|| {
                    format!(
                        "must be at most {max} {} long, got {n} ({})",
                        unit(max),
                        v.show()
                    )
                });
            }
        }
        if let Some(p) = t.pattern.as_ref().filter(|p| !p.is_match(s)) {
            self.value(|| format!("must match the pattern {}, got {}", p.source, v.show()));
        }
        if let Some(fc) = t.format.filter(|fc| !fc.is_valid(s)) {
            self.value(|| format!("must be {}, got {}", fc.what, v.show()));
        }
    }

    /// A member's value against the schema that applies to it.
    pub(super) fn member(&mut self, s: NodeId, x: &'x Json<'x>) {
        if self.q.is_false(s) {
            if self.q.f.unknown && self.wants(CheckKind::Unknown) {
                let path = self.path(None);
                self.emit(CheckKind::Unknown, path, What::Unknown);
            }
        } else if !self.q.valid(s, x, None) {
            self.node(s, x);
        }
    }

    fn object(&mut self, o: &'x ObjRules, fields: &'x Fields<'x>) {
        let f = self.q.f;
        if f.required {
            for r in &o.required {
                if !has(fields, r) && self.wants(CheckKind::Missing) {
                    let path = self.path(Some(Seg::Key(r)));
                    self.emit(CheckKind::Missing, path, What::Missing);
                }
            }
            for (k, deps) in &o.dependent_required {
                if !has(fields, k) {
                    continue;
                }
                for d in deps {
                    if !has(fields, d) {
                        let path = self.path(Some(Seg::Key(d)));
                        let note = format!("needed with {}", self.path(Some(Seg::Key(k))));
                        self.emit(CheckKind::Missing, path, What::MissingWith(note));
                    }
                }
            }
        }
        if f.values {
            let n = fields.len() as u64;
            let word = |m: u64| if m == 1 { "property" } else { "properties" };
            if let Some(m) = o.min_properties.filter(|&m| n < m) {
                self.value(|| format!("must have at least {m} {}, got {n}", word(m)));
            }
            if let Some(m) = o.max_properties.filter(|&m| n > m) {
                self.value(|| format!("must have at most {m} {}, got {n}", word(m)));
            }
        }
        for (i, (k, x)) in fields.iter().enumerate() {
            if let Some(pn) = o.property_names {
                self.pos.push(i as u32);
                self.key(pn, k);
                self.pos.pop();
            }
            self.push(Seg::Key(k), i);
            let mut matched = false;
            if let Some(s) = o.property(k) {
                matched = true;
                self.member(s, x);
            }
            for (pat, s) in &o.pattern_properties {
                if pat.is_match(k) {
                    matched = true;
                    self.member(*s, x);
                }
            }
            if let (false, Some(s)) = (matched, o.additional) {
                self.member(s, x);
            }
            self.pop();
        }
    }

    /// A member's key against `propertyNames`: the key's own failure, said of the key.
    fn key(&mut self, pn: NodeId, k: &'x str) {
        let key = Json::Str(Cow::Borrowed(k));
        if self.q.valid(pn, &key, None) {
            return;
        }
        let inner = {
            let mut e = Explain::new(self.q.p, self.q.f, "key");
            e.node(pn, &key);
            sorted(e.out, "key").into_iter().next()
        };
        let Some(inner) = inner else { return };
        let at = self.path(None);
        let subject = if at.is_empty() {
            format!("the key {}", quote(k))
        } else {
            format!("the key {} of {at}", quote(k))
        };
        let what = match inner.what {
            What::Type { expected, got } => What::Type {
                expected: Cow::Owned(expected.into_owned()),
                got,
            },
            What::Value(t) => What::Value(t),
            other => What::Value(format!(
                "is refused by propertyNames ({})",
                inner_text(&other)
            )),
        };
        self.emit_as(inner.kind, at, Some(subject), what);
    }

    fn array(&mut self, a: &'x ArrRules, items: &'x [Json<'x>]) {
        let f = self.q.f;
        let n = items.len() as u64;
        let word = |m: u64| if m == 1 { "item" } else { "items" };
        if f.values {
            if let Some(m) = a.min_items.filter(|&m| n < m) {
                self.value(|| format!("must have at least {m} {}, got {n}", word(m)));
            }
            if let Some(m) = a.max_items.filter(|&m| n > m) {
                self.value(|| format!("must have at most {m} {}, got {n}", word(m)));
            }
            if let Some((i, j)) = a.unique.then(|| repeated(items)).flatten() {
                let shown = items[j].show();
                self.value(|| format!("must hold unique items, but [{j}] repeats [{i}] ({shown})"));
            }
        }
        // Failures about the whole list come before those of its items.
        let past = (0..items.len()).find(|&i| {
            a.prefix
                .get(i)
                .copied()
                .or(a.items)
                .is_some_and(|s| self.q.is_false(s))
        });
        if let (Some(m), true) = (past, f.values) {
            let m = m as u64;
            self.value(|| format!("must have at most {m} {}, got {n}", word(m)));
        }
        if let Some(c) = a.contains {
            let count = items.iter().filter(|x| self.q.valid(c, x, None)).count() as u64;
            if f.values && !contains_ok(a, count) {
                let min = a.min_contains.unwrap_or(1);
                let text = if count < min {
                    format!(
                        "must hold at least {min} {} that match \"contains\", got {count}",
                        word(min)
                    )
                } else {
                    let max = a.max_contains.unwrap_or(u64::MAX);
                    format!(
                        "must hold at most {max} {} that match \"contains\", got {count}",
                        word(max)
                    )
                };
                self.value(|| text);
            }
        }
        for (i, item) in items.iter().enumerate() {
            let Some(s) = a.prefix.get(i).copied().or(a.items) else {
                break;
            };
            if self.q.is_false(s) {
                break;
            }
            if !self.q.valid(s, item, None) {
                self.push(Seg::Index(i), i);
                self.node(s, item);
                self.pop();
            }
        }
    }

    fn apply(&mut self, ap: &'x Apply, v: &'x Json<'x>) {
        let dynamic = ap.dynamic.as_ref().map(|d| self.q.dynamic_target(d));
        let in_place: Vec<NodeId> = ap
            .refs
            .iter()
            .copied()
            .chain(dynamic)
            .chain(ap.all_of.iter().copied())
            .collect();
        for s in in_place {
            if !self.q.valid(s, v, None) {
                self.node(s, v);
            }
        }
        if !ap.any_of.is_empty() && !ap.any_of.iter().any(|s| self.q.valid(*s, v, None)) {
            self.union(&ap.any_of, v, "anyOf");
        }
        if !ap.one_of.is_empty() {
            let passing: Vec<usize> = (0..ap.one_of.len())
                .filter(|&i| self.q.valid(ap.one_of[i], v, None))
                .collect();
            if passing.is_empty() {
                self.union(&ap.one_of, v, "oneOf");
            } else if passing.len() > 1 && self.q.f.values {
                let which: Vec<String> = passing.iter().map(|i| format!("#{}", i + 1)).collect();
                self.value(|| {
                    format!(
                        "matches {} of the oneOf schemas ({}), not exactly one",
                        passing.len(),
                        which.join(", ")
                    )
                });
            }
        }
        if let Some(not) = ap.not {
            if self.q.f.values && self.q.valid(not, v, None) {
                self.value(|| format!("must not match the \"not\" schema, got {}", v.show()));
            }
        }
        if let Some(cond) = ap.if_ {
            let branch = if self.q.valid(cond, v, None) {
                ap.then
            } else {
                ap.else_
            };
            if let Some(b) = branch.filter(|b| !self.q.valid(*b, v, None)) {
                self.node(b, v);
            }
        }
    }

    /// The node a branch stands for: itself, or what a lone `$ref` in it points to.
    fn through_ref(&self, mut id: NodeId) -> &'x Node {
        for _ in 0..8 {
            let n = self.q.p.node(id);
            match n.apply.as_deref() {
                Some(Apply { refs, .. }) if refs.len() == 1 && n.types.is_none() => id = refs[0],
                _ => return n,
            }
        }
        self.q.p.node(id)
    }

    /// The `type` a branch declares (through a lone `$ref`), if any.
    fn gate(&self, id: NodeId) -> Option<&'x Types> {
        self.through_ref(id).types.as_ref()
    }

    /// Does a branch tell itself apart by a member fixed with `const` or `enum` that the
    /// value has with another value (a tagged union's tag)?
    fn tag_differs(&self, id: NodeId, v: &Json<'_>) -> bool {
        let (Some(o), Json::Object(fields)) = (&self.through_ref(id).obj, v) else {
            return false;
        };
        o.properties().any(|(name, p)| {
            let p = self.q.p.node(p);
            let Some((_, x)) = fields.iter().find(|(k, _)| k == name) else {
                return false;
            };
            p.constant.as_ref().is_some_and(|c| !c.same_as(x))
                || p.choice
                    .as_ref()
                    .is_some_and(|c| !c.iter().any(|o| o.same_as(x)))
        })
    }

    /// An `anyOf`/`oneOf` that no branch matched.
    fn union(&mut self, branches: &'x [NodeId], v: &'x Json<'x>, word: &str) {
        let f = self.q.f;
        let mut names: Vec<&'x str> = Vec::new();
        let mut plausible: Vec<(usize, NodeId)> = Vec::new();
        for (i, &b) in branches.iter().enumerate() {
            match self.gate(b) {
                Some(t) if f.types && !t.admits(v, f.bool_guard) => {
                    for w in t.name.split(" or ") {
                        if !names.contains(&w) {
                            names.push(w);
                        }
                    }
                }
                _ => plausible.push((i, b)),
            }
        }
        // A tagged union: the branch whose tag the value carries is the one meant.
        if f.values && plausible.len() > 1 {
            let tagged: Vec<(usize, NodeId)> = plausible
                .iter()
                .copied()
                .filter(|(_, b)| !self.tag_differs(*b, v))
                .collect();
            if tagged.len() == 1 {
                plausible = tagged;
            }
        }
        match plausible.as_slice() {
            [] => {
                let path = self.path(None);
                let what = What::Type {
                    expected: Cow::Owned(names.join(" or ")),
                    got: v.py_type(),
                };
                self.emit(CheckKind::Type, path, what);
            }
            [(_, only)] => self.node(*only, v),
            many => {
                let mut parts = Vec::new();
                for (i, b) in many.iter().take(3) {
                    if let Some(m) = self.branch_first(*b, v) {
                        parts.push(format!("#{} {m}", i + 1));
                    }
                }
                if many.len() > 3 {
                    parts.push("...".into());
                }
                self.value(|| format!("matches none of the {word} schemas: {}", parts.join("; ")));
            }
        }
    }

    /// A branch's first failure, as a message, with paths from here.
    fn branch_first(&mut self, b: NodeId, v: &'x Json<'x>) -> Option<String> {
        let mut e = Explain::new(self.q.p, self.q.f, self.root);
        e.segs = self.segs.clone();
        e.pos = self.pos.clone();
        e.depth = self.depth;
        e.q.scope_from(&self.q);
        e.node(b, v);
        sorted(e.out, self.root)
            .first()
            .map(|f| f.message(self.root))
    }
}

/// The words of a failure without its subject (for a key's failure of another kind).
fn inner_text(w: &What<'_>) -> String {
    match w {
        What::Value(t) | What::Whole(t) | What::MissingWith(t) => t.clone(),
        What::Type { expected, got } => format!("expected {expected}, got {got}"),
        What::Missing => "missing".into(),
        What::Unknown => "unknown".into(),
    }
}
