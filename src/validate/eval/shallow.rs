//! The fast path for the commonest schema: one object of typed arguments, nothing nested
//! (the flat form; `{"type": "object", "properties": {"q": {"type": "string"}}, "required":
//! [...], "additionalProperties": false}`). The verdict and the first failure come from one
//! walk per phase with no path built and nothing allocated, the same failure the explaining
//! pass would find.

use std::borrow::Cow;

use super::Flags;
use super::found::{Found, What};
use crate::validate::CheckKind;
use crate::validate::json::{Json, same_text};
use crate::validate::program::{ANY_TYPE, ObjRules, Program, UNDECLARED, admits, kind};

/// The root's object rules, when the program is that simple.
pub(crate) fn shallow(p: &Program) -> Option<&ObjRules> {
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
        && o.additional.is_none_or(|a| p.node(a).always == Some(false))
        && o.heads.iter().all(|h| p.node(h.node).only_types);
    (root_plain && obj_plain).then_some(o)
}

/// The first failure of `fields` against `o` (a [`shallow`] program), if any.
pub(crate) fn first<'x>(
    p: &'x Program,
    o: &'x ObjRules,
    fields: &'x [(Cow<'x, str>, Json<'x>)],
    f: Flags,
) -> Option<Found<'x>> {
    // The first members' properties, looked up once for the verdict and the failure.
    let mut known: [Option<usize>; 16] = [None; 16];
    for (slot, (k, _)) in known.iter_mut().zip(fields) {
        *slot = o.property_index(k);
    }
    let index = |i: usize, k: &str| match known.get(i) {
        Some(at) => *at,
        None => o.property_index(k),
    };
    if passes(o, fields, index, f) {
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
    let property = |i: usize, k: &str| index(i, k).map(|at| o.heads[at].node);
    if f.required {
        for r in &o.required {
            if !fields.iter().any(|(k, _)| same_text(k, r)) {
                return found(CheckKind::Missing, r, What::Missing);
            }
        }
    }
    if f.unknown && o.additional.is_some() {
        for (i, (k, _)) in fields.iter().enumerate() {
            if property(i, k).is_none() {
                return found(CheckKind::Unknown, k, What::Unknown);
            }
        }
    }
    if f.types {
        for (i, (k, v)) in fields.iter().enumerate() {
            let Some(t) = property(i, k).and_then(|s| p.node(s).types.as_ref()) else {
                continue;
            };
            if !t.admits(v, f.bool_guard) {
                let what = What::Type {
                    expected: Cow::Borrowed(&t.name),
                    got: v.py_type(),
                };
                return found(CheckKind::Type, k, what);
            }
        }
    }
    None
}

/// Do `fields` pass `o` (a [`shallow`] program)? `index` finds member `i`'s property;
/// only the properties' heads are read; `false` also when this cannot tell (more than 64 properties, a
/// required name that is not declared), and [`first`] then looks closer.
#[inline]
fn passes(
    o: &ObjRules,
    fields: &[(Cow<'_, str>, Json<'_>)],
    index: impl Fn(usize, &str) -> Option<usize>,
    f: Flags,
) -> bool {
    if o.heads.len() > 64 || o.required_at.len() != o.required.len() {
        return false;
    }
    let closed = f.unknown && o.additional.is_some();
    let mut seen = 0u64;
    for (i, (k, v)) in fields.iter().enumerate() {
        match index(i, k) {
            Some(i) => {
                let only = o.heads[i].only;
                if only == 0 || (f.types && only != ANY_TYPE && !admits(only, v, f.bool_guard)) {
                    return false;
                }
                seen |= 1 << i;
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
