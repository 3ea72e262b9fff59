//! Running a [`Program`] on a value.
//!
//! Two passes. The quick pass ([`Quick`]) answers valid or not: it short-circuits, builds no
//! path and allocates nothing on a valid value (only `unevaluated*` collects what was
//! evaluated, in bit sets). The explaining pass (`explain.rs`) runs only on a value the quick
//! pass refused: it finds every failure with its phase, position and path, and the first
//! failure is the least by phase, then position.
//!
//! The learner's rule switches apply at every depth: `required` (also `dependentRequired`),
//! `unknown` (a member no schema allows: `additionalProperties: false`, a `false` property,
//! `unevaluatedProperties: false`), `types` (`type`), `bool_guard` (a boolean is no integer)
//! and `values` (every other assertion).

mod bytes;
pub(crate) mod explain;
pub(crate) mod found;
pub(crate) mod shallow;
mod unevaluated;

use super::json::Json;
use super::program::{
    ANY_TYPE, Apply, ArrRules, DynamicRef, Node, NodeId, NumRules, ObjRules, Program, TextRules,
    UNDECLARED, admits,
};
use super::{Rule, ValidatorRules};

/// The deepest chain of schemas applied at once (in-place references within nested values);
/// past it the value is refused, never checked on with a stack about to run out.
pub(crate) const MAX_EVAL_DEPTH: u32 = 400;

/// The rule switches, read once.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flags {
    pub(crate) required: bool,
    pub(crate) unknown: bool,
    pub(crate) types: bool,
    pub(crate) bool_guard: bool,
    pub(crate) values: bool,
}

impl Flags {
    pub(crate) fn of(rules: &ValidatorRules) -> Flags {
        Flags {
            required: rules.is_on(Rule::Required),
            unknown: rules.is_on(Rule::Unknown),
            types: rules.is_on(Rule::Types),
            bool_guard: rules.is_on(Rule::BoolGuard),
            values: rules.is_on(Rule::Values),
        }
    }
}

/// A set of member or item indices.
#[derive(Debug, Clone, Default)]
pub(crate) struct Bits(Vec<u64>);

impl Bits {
    pub(crate) fn set(&mut self, i: usize) {
        let w = i / 64;
        if self.0.len() <= w {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << (i % 64);
    }

    pub(crate) fn get(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    fn union(&mut self, other: &Bits) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
}

/// What the schemas applied to one value evaluated (for `unevaluated*`): its members (an
/// object) or its items (an array).
#[derive(Debug, Clone, Default)]
pub(crate) struct Ann {
    pub(crate) seen: Bits,
}

impl Ann {
    fn merge(&mut self, other: &Ann) {
        self.seen.union(&other.seen);
    }
}

#[inline]
fn mark(ann: &mut Option<&mut Ann>, i: usize) {
    if let Some(a) = ann {
        a.seen.set(i);
    }
}

/// Is `name` a member of `fields`?
#[inline]
pub(crate) fn has(fields: &[(std::borrow::Cow<'_, str>, Json<'_>)], name: &str) -> bool {
    fields.iter().any(|(k, _)| super::json::same_text(k, name))
}

/// The quick pass.
pub(crate) struct Quick<'p> {
    pub(crate) p: &'p Program,
    pub(crate) f: Flags,
    /// The resources entered, outermost first (kept only for a dynamic program).
    scope: Vec<u32>,
    depth: u32,
}

impl<'p> Quick<'p> {
    pub(crate) fn new(p: &'p Program, f: Flags) -> Quick<'p> {
        Quick {
            p,
            f,
            scope: Vec::new(),
            depth: 0,
        }
    }

    /// Is the `false` schema `id`?
    #[inline]
    pub(crate) fn is_false(&self, id: NodeId) -> bool {
        self.p.node(id).always == Some(false)
    }

    /// Does `v` pass node `id`? With `ann`, what it evaluated is added there (when it passes).
    pub(crate) fn valid(&mut self, id: NodeId, v: &Json<'_>, ann: Option<&mut Ann>) -> bool {
        let n = self.p.node(id);
        if let Some(b) = n.always {
            return b || !self.f.values;
        }
        if self.depth >= MAX_EVAL_DEPTH {
            return false;
        }
        self.depth += 1;
        let entered = self.enter(n);
        let ok = if n.has_unevaluated() || ann.is_some() {
            let mut local = Ann::default();
            let ok = self.checks(n, v, Some(&mut local)) && self.unevaluated(n, v, &mut local);
            if let (true, Some(a)) = (ok, ann) {
                a.merge(&local);
            }
            ok
        } else {
            self.checks(n, v, None)
        };
        if entered {
            self.scope.pop();
        }
        self.depth -= 1;
        ok
    }

    /// Enter node `n`'s resource into the dynamic scope (`true` if it was pushed).
    #[inline]
    pub(crate) fn enter(&mut self, n: &Node) -> bool {
        if self.p.dynamic && self.scope.last() != Some(&n.resource) {
            self.scope.push(n.resource);
            return true;
        }
        false
    }

    pub(crate) fn leave(&mut self, entered: bool) {
        if entered {
            self.scope.pop();
        }
    }

    /// The dynamic scope of another pass (a branch explained apart starts where it is).
    pub(crate) fn scope_from(&mut self, other: &Quick<'_>) {
        self.scope.clone_from(&other.scope);
        self.depth = other.depth;
    }

    /// What node `n`'s own keywords and in-place schemas evaluated at `v` (its
    /// `unevaluated*` aside), added to `ann`.
    pub(crate) fn checks_pub(&mut self, n: &Node, v: &Json<'_>, ann: &mut Ann) {
        self.checks(n, v, Some(ann));
    }

    /// Where a `$dynamicRef` lands: the outermost resource in scope with the anchor.
    pub(crate) fn dynamic_target(&self, d: &DynamicRef) -> NodeId {
        if let Some(name) = &d.anchor {
            for &res in &self.scope {
                let anchors = &self.p.resources[res as usize].dynamic_anchors;
                if let Some((_, id)) = anchors.iter().find(|(n, _)| n == name) {
                    return *id;
                }
            }
        }
        d.target
    }

    fn checks(&mut self, n: &Node, v: &Json<'_>, mut ann: Option<&mut Ann>) -> bool {
        if let Some(t) = &n.types {
            if self.f.types && !t.admits(v, self.f.bool_guard) {
                return false;
            }
        }
        if self.f.values {
            if let Some(c) = &n.constant {
                if !c.same_as(v) {
                    return false;
                }
            }
            if let Some(options) = &n.choice {
                if !options.iter().any(|o| o.same_as(v)) {
                    return false;
                }
            }
        }
        let ok = match v {
            Json::Int(_) | Json::BigInt(_) | Json::Float(_) => match &n.num {
                Some(num) if self.f.values => num_ok(num, v),
                _ => true,
            },
            Json::Str(s) => match &n.text {
                Some(t) if self.f.values => text_ok(t, s),
                _ => true,
            },
            Json::Object(fields) => match &n.obj {
                Some(o) => self.object(o, fields, ann.as_deref_mut()),
                None => true,
            },
            Json::Array(items) => match &n.arr {
                Some(a) => self.array(a, items, ann.as_deref_mut()),
                None => true,
            },
            _ => true,
        };
        if !ok {
            return false;
        }
        if let Some(ap) = &n.apply {
            if !self.apply(ap, v, ann.as_deref_mut()) {
                return false;
            }
        }
        if let (Some(o), Json::Object(fields)) = (&n.obj, v) {
            for (k, s) in &o.dependent_schemas {
                if has(fields, k) && !self.valid(*s, v, ann.as_deref_mut()) {
                    return false;
                }
            }
        }
        true
    }

    /// A member's value against the schema that applies to it (`false`: an unknown member).
    #[inline]
    fn member(&mut self, s: NodeId, v: &Json<'_>) -> bool {
        let n = self.p.node(s);
        if n.only_types {
            return match &n.types {
                Some(t) => !self.f.types || t.admits(v, self.f.bool_guard),
                None => true,
            };
        }
        if n.always == Some(false) {
            return !self.f.unknown;
        }
        self.valid(s, v, None)
    }

    fn object(
        &mut self,
        o: &ObjRules,
        fields: &[(std::borrow::Cow<'_, str>, Json<'_>)],
        mut ann: Option<&mut Ann>,
    ) -> bool {
        if self.f.required {
            for (k, deps) in &o.dependent_required {
                if has(fields, k) && !deps.iter().all(|d| has(fields, d)) {
                    return false;
                }
            }
        }
        if self.f.values {
            let n = fields.len() as u64;
            if o.min_properties.is_some_and(|m| n < m) || o.max_properties.is_some_and(|m| n > m) {
                return false;
            }
        }
        // The declared properties met (their indices, while there are at most 64).
        let mut seen = 0u64;
        for (i, (k, v)) in fields.iter().enumerate() {
            let mut matched = false;
            if let Some(at) = o.property_index(k) {
                matched = true;
                seen |= 1u64.checked_shl(at as u32).unwrap_or(0);
                let h = &o.heads[at];
                let ok = match h.only {
                    0 => self.member(h.node, v),
                    ANY_TYPE => true,
                    mask => !self.f.types || admits(mask, v, self.f.bool_guard),
                };
                if !ok {
                    return false;
                }
            }
            for (pat, s) in &o.pattern_properties {
                if pat.is_match(k) {
                    matched = true;
                    if !self.member(*s, v) {
                        return false;
                    }
                }
            }
            if !matched {
                if let Some(s) = o.additional {
                    matched = true;
                    if !self.member(s, v) {
                        return false;
                    }
                }
            }
            if matched {
                mark(&mut ann, i);
            }
            if let Some(pn) = o.property_names {
                if !self.valid(pn, &Json::Str(k.clone()), None) {
                    return false;
                }
            }
        }
        if self.f.required {
            let tracked = o.heads.len() <= 64;
            let present = |(j, r): (usize, &str)| match o.required_at.get(j) {
                Some(&at) if tracked && at != UNDECLARED => seen & (1 << at) != 0,
                _ => has(fields, r),
            };
            if !o.required.iter().map(|r| &**r).enumerate().all(present) {
                return false;
            }
        }
        true
    }

    fn array(&mut self, a: &ArrRules, items: &[Json<'_>], mut ann: Option<&mut Ann>) -> bool {
        if self.f.values {
            let n = items.len() as u64;
            if a.min_items.is_some_and(|m| n < m) || a.max_items.is_some_and(|m| n > m) {
                return false;
            }
            if a.unique && repeated(items).is_some() {
                return false;
            }
        }
        for (i, item) in items.iter().enumerate() {
            let s = a.prefix.get(i).copied().or(a.items);
            let Some(s) = s else { break };
            if self.is_false(s) {
                if self.f.values {
                    return false;
                }
            } else if !self.valid(s, item, None) {
                return false;
            }
            mark(&mut ann, i);
        }
        if let Some(c) = a.contains {
            let mut count = 0u64;
            for (i, item) in items.iter().enumerate() {
                if self.valid(c, item, None) {
                    count += 1;
                    mark(&mut ann, i);
                }
            }
            if self.f.values && !contains_ok(a, count) {
                return false;
            }
        }
        true
    }

    fn apply(&mut self, ap: &Apply, v: &Json<'_>, mut ann: Option<&mut Ann>) -> bool {
        for r in &ap.refs {
            if !self.valid(*r, v, ann.as_deref_mut()) {
                return false;
            }
        }
        if let Some(d) = &ap.dynamic {
            let t = self.dynamic_target(d);
            if !self.valid(t, v, ann.as_deref_mut()) {
                return false;
            }
        }
        for s in &ap.all_of {
            if !self.valid(*s, v, ann.as_deref_mut()) {
                return false;
            }
        }
        if !ap.any_of.is_empty() {
            let ok = match ann.as_deref_mut() {
                None => ap.any_of.iter().any(|s| self.valid(*s, v, None)),
                Some(a) => {
                    let mut any = false;
                    for s in &ap.any_of {
                        any |= self.valid(*s, v, Some(a));
                    }
                    any
                }
            };
            if !ok {
                return false;
            }
        }
        if !ap.one_of.is_empty() {
            let mut passed = 0;
            let mut kept = Ann::default();
            for s in &ap.one_of {
                let mut sub = Ann::default();
                let want = ann.is_some().then_some(&mut sub);
                if self.valid(*s, v, want) {
                    passed += 1;
                    kept = sub;
                }
            }
            if passed == 0 || (passed > 1 && self.f.values) {
                return false;
            }
            if let Some(a) = ann.as_deref_mut() {
                a.merge(&kept);
            }
        }
        if let Some(not) = ap.not {
            if self.f.values && self.valid(not, v, None) {
                return false;
            }
        }
        if let Some(cond) = ap.if_ {
            if ap.then.is_some() || ap.else_.is_some() || ann.is_some() {
                let branch = if self.valid(cond, v, ann.as_deref_mut()) {
                    ap.then
                } else {
                    ap.else_
                };
                if let Some(b) = branch {
                    if !self.valid(b, v, ann) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// `unevaluatedProperties` / `unevaluatedItems`, after everything else at this value.
    fn unevaluated(&mut self, n: &Node, v: &Json<'_>, local: &mut Ann) -> bool {
        match v {
            Json::Object(fields) => {
                let Some(u) = n.obj.as_ref().and_then(|o| o.unevaluated) else {
                    return true;
                };
                for (i, (_, x)) in fields.iter().enumerate() {
                    if !local.seen.get(i) {
                        if !self.member(u, x) {
                            return false;
                        }
                        local.seen.set(i);
                    }
                }
                true
            }
            Json::Array(items) => {
                let Some(u) = n.arr.as_ref().and_then(|a| a.unevaluated) else {
                    return true;
                };
                for (i, x) in items.iter().enumerate() {
                    if !local.seen.get(i) {
                        let ok = if self.is_false(u) {
                            !self.f.values
                        } else {
                            self.valid(u, x, None)
                        };
                        if !ok {
                            return false;
                        }
                        local.seen.set(i);
                    }
                }
                true
            }
            _ => true,
        }
    }
}

/// Do `contains`' matches fall within `minContains`..`maxContains`?
pub(crate) fn contains_ok(a: &ArrRules, count: u64) -> bool {
    count >= a.min_contains.unwrap_or(1) && a.max_contains.is_none_or(|m| count <= m)
}

/// The first pair of equal items (by JSON Schema's equality), if any.
pub(crate) fn repeated(items: &[Json<'_>]) -> Option<(usize, usize)> {
    for j in 1..items.len() {
        for i in 0..j {
            if items[i].same_as(&items[j]) {
                return Some((i, j));
            }
        }
    }
    None
}

/// Do a number's bounds and `multipleOf` hold?
pub(crate) fn num_ok(c: &NumRules, v: &Json<'_>) -> bool {
    use std::cmp::Ordering::{Greater, Less};
    let cmp = |b: &Option<super::program::Bound>, pass: fn(std::cmp::Ordering) -> bool| {
        b.as_ref().is_none_or(|b| b.compare(v).is_some_and(pass))
    };
    cmp(&c.minimum, |o| o != Less)
        && cmp(&c.maximum, |o| o != Greater)
        && cmp(&c.exclusive_minimum, |o| o == Greater)
        && cmp(&c.exclusive_maximum, |o| o == Less)
        && c.multiple_of
            .as_ref()
            .is_none_or(|(m, _)| multiple_ok(m, v))
}

pub(crate) fn multiple_ok(m: &super::decimal::Decimal, v: &Json<'_>) -> bool {
    if let (Json::Int(i), Some(step)) = (v, m.as_int()) {
        return i % step == 0;
    }
    super::decimal::Decimal::of(v).is_some_and(|d| d.is_multiple_of(m))
}

/// The length of a string in code points.
#[inline]
pub(crate) fn chars(s: &str) -> u64 {
    if s.is_ascii() {
        s.len() as u64
    } else {
        s.chars().count() as u64
    }
}

/// Do a string's lengths, pattern and format hold?
pub(crate) fn text_ok(t: &TextRules, s: &str) -> bool {
    if t.min_length.is_some() || t.max_length.is_some() {
        let n = chars(s);
        if t.min_length.is_some_and(|m| n < m) || t.max_length.is_some_and(|m| n > m) {
            return false;
        }
    }
    t.pattern.as_ref().is_none_or(|p| p.is_match(s)) && t.format.is_none_or(|f| f.is_valid(s))
}
