//! The fast path for the commonest schema: one object of typed arguments, nothing nested
//! (the flat form; `{"type": "object", "properties": {"q": {"type": "string"}}, "required":
//! [...], "additionalProperties": false}`). The verdict and the first failure come from one
//! walk per phase with no path built and nothing allocated, the same failure the explaining
//! pass would find.

use std::borrow::Cow;

use super::found::{Found, What};
use super::{Flags, Quick};
use crate::validate::CheckKind;
use crate::validate::json::{FlatMember, Json, flat_value, same_text};
use crate::validate::json::{kind, kind_of, py_type_of};
use crate::validate::program::{
    ANY_TYPE, Node, NodeId, ObjRules, Program, RootShape, UNDECLARED, admits_kind,
};

/// How simple `p`'s root is: [`RootShape::Shallow`] when it is one object of typed
/// arguments, [`RootShape::Scalars`] when its properties also check values but nothing
/// nested or applied in place.
pub(crate) fn shape(p: &Program) -> RootShape {
    let Some(o) = plain_object(p) else {
        return RootShape::General;
    };
    if o.heads.iter().all(|h| p.node(h.node).only_types) {
        RootShape::Shallow
    } else if o.heads.iter().all(|h| scalar(p.node(h.node))) {
        RootShape::Scalars
    } else {
        RootShape::General
    }
}

/// The root's object rules, when the root checks nothing but one object's properties,
/// required names and (at most) a closed set of names.
fn plain_object(p: &Program) -> Option<&ObjRules> {
    let root = p.node(p.root);
    let o = root.obj.as_deref()?;
    let root_plain = root.always.is_none()
        && root.types.as_ref().is_none_or(|t| t.mask == kind::OBJECT)
        && root.choice.is_none()
        && root.constant.is_none()
        && root.num.is_none()
        && root.text.is_none()
        && root.arr.is_none()
        && root.apply.is_none();
    let obj_plain = o.pattern_properties.is_empty()
        && o.min_properties.is_none()
        && o.max_properties.is_none()
        && o.property_names.is_none()
        && o.dependent_required.is_empty()
        && o.dependent_schemas.is_empty()
        && o.unevaluated.is_none()
        && o.additional.is_none_or(|a| p.node(a).always == Some(false));
    (root_plain && obj_plain).then_some(o)
}

/// Does node `n` check a scalar value by its own keywords alone (nothing nested, nothing
/// applied in place, no reference)?
fn scalar(n: &Node) -> bool {
    n.obj.is_none() && n.arr.is_none() && n.apply.is_none()
}

/// The members of an object as the shallow walk reads them: each one's key and the kind of
/// its value. Parsed args are such members, and so is a flat object read for its kinds only
/// (`json::flat_object`).
pub(crate) trait Members<'x>: Copy {
    fn count(self) -> usize;
    fn key(self, i: usize) -> &'x str;
    fn kind(self, i: usize) -> u8;
}

impl<'x> Members<'x> for &'x [(Cow<'x, str>, Json<'x>)] {
    #[inline(always)]
    fn count(self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn key(self, i: usize) -> &'x str {
        &self[i].0
    }
    #[inline(always)]
    fn kind(self, i: usize) -> u8 {
        kind_of(&self[i].1)
    }
}

impl<'x> Members<'x> for &[FlatMember<'x>] {
    #[inline(always)]
    fn count(self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn key(self, i: usize) -> &'x str {
        self[i].0
    }
    #[inline(always)]
    fn kind(self, i: usize) -> u8 {
        self[i].1
    }
}

/// The first failure of `members` against `o` (a [`RootShape::Shallow`] program), if any.
pub(crate) fn first<'x>(
    p: &'x Program,
    o: &'x ObjRules,
    members: impl Members<'x>,
    f: Flags,
) -> Option<Found<'x>> {
    let n = members.count();
    // The first members' properties, looked up once for the verdict and the failure.
    let mut known: [Option<usize>; 16] = [None; 16];
    for (i, slot) in known.iter_mut().take(n).enumerate() {
        *slot = o.property_index(members.key(i));
    }
    let index = |i: usize| match known.get(i) {
        Some(at) => *at,
        None => o.property_index(members.key(i)),
    };
    // Every property of a shallow root checks its type alone: none is asked of its value.
    if passes_with(o, members, index, f, |_, _| false) {
        return None;
    }
    let found = |kind, path: &'x str, what| {
        Some(Found {
            kind,
            path: Cow::Borrowed(path),
            subject: None,
            what,
        })
    };
    let property = |i: usize| index(i).map(|at| o.heads[at].node);
    if f.required {
        for r in &o.required {
            if !(0..n).any(|i| same_text(members.key(i), r)) {
                return found(CheckKind::Missing, r, What::Missing);
            }
        }
    }
    if f.unknown && o.additional.is_some() {
        for i in 0..n {
            if property(i).is_none() {
                return found(CheckKind::Unknown, members.key(i), What::Unknown);
            }
        }
    }
    if f.types {
        for i in 0..n {
            let Some(t) = property(i).and_then(|s| p.node(s).types.as_ref()) else {
                continue;
            };
            let k = members.kind(i);
            if !admits_kind(t.mask, k, f.bool_guard) {
                let what = What::Type {
                    expected: Cow::Borrowed(&t.name),
                    got: py_type_of(k),
                };
                return found(CheckKind::Type, members.key(i), what);
            }
        }
    }
    None
}

/// Do flat `members` (each key, the kind of its value and its text, as
/// `json::flat_object` reads them) pass `o`, the root of a [`RootShape::Scalars`] program?
/// Only a sure yes is `true`: `false` also means "look closer", and the caller then judges
/// the args parsed, which finds and words the first failure. A property that checks more
/// than its type gets its member's value built from its text and checked as when parsed
/// ([`Quick::member`]).
pub(crate) fn accepts(q: &mut Quick<'_>, o: &ObjRules, members: &[FlatMember<'_>]) -> bool {
    let f = q.f;
    let index = |i: usize| o.property_index(members[i].0);
    let value_ok = |i: usize, node| {
        let (_, kind, text) = members[i];
        // As the object walk checks a member (a `false` property is an unknown one).
        flat_value(kind, text).is_some_and(|v| q.member(node, &v))
    };
    passes_with(o, members, index, f, value_ok)
}

/// Do `members` pass `o`? `index` finds member `i`'s property; only the properties' heads
/// are read, and a property that checks more than its type is asked of `value_ok` (member
/// `i`, the property's node). `false` also when this cannot tell (more than 64 properties,
/// a required name that is not declared), and the caller then looks closer.
#[inline]
fn passes_with<'x>(
    o: &ObjRules,
    members: impl Members<'x>,
    index: impl Fn(usize) -> Option<usize>,
    f: Flags,
    mut value_ok: impl FnMut(usize, NodeId) -> bool,
) -> bool {
    if o.heads.len() > 64 || o.required_at.len() != o.required.len() {
        return false;
    }
    let closed = f.unknown && o.additional.is_some();
    let mut seen = 0u64;
    for i in 0..members.count() {
        match index(i) {
            Some(at) => {
                let head = &o.heads[at];
                let fits = match head.only {
                    0 => value_ok(i, head.node),
                    ANY_TYPE => true,
                    only => !f.types || admits_kind(only, members.kind(i), f.bool_guard),
                };
                if !fits {
                    return false;
                }
                seen |= 1 << at;
            }
            None if closed => return false,
            None => {}
        }
    }
    !f.required
        || o.required_at
            .iter()
            .all(|&at| at != UNDECLARED && seen & (1 << at) != 0)
}
