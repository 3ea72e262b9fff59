//! `unevaluatedProperties` and `unevaluatedItems` in the explaining pass: which members or
//! items the schemas applied at a value cover, and the failures of the rest.

use super::explain::Explain;
use super::found::Seg;
use super::{Ann, MAX_EVAL_DEPTH, has};
use crate::validate::json::Json;
use crate::validate::program::{Node, NodeId};

impl<'x> Explain<'x> {
    /// `unevaluated*`: members or items no schema applied here evaluated.
    pub(super) fn unevaluated(&mut self, n: &'x Node, v: &'x Json<'x>) {
        let mut seen = Ann::default();
        if self.strict {
            self.q.checks_pub(n, v, &mut seen);
        } else {
            self.cover(n, v, &mut seen);
        }
        match v {
            Json::Object(fields) => {
                let Some(u) = n.obj.as_ref().and_then(|o| o.unevaluated) else {
                    return;
                };
                for (i, (k, x)) in fields.iter().enumerate() {
                    if !seen.seen.get(i) {
                        self.push(Seg::Key(k), i);
                        self.member(u, x);
                        self.pop();
                    }
                }
            }
            Json::Array(items) => {
                let Some(u) = n.arr.as_ref().and_then(|a| a.unevaluated) else {
                    return;
                };
                for (i, x) in items.iter().enumerate() {
                    if seen.seen.get(i) {
                        continue;
                    }
                    if self.q.is_false(u) {
                        if self.q.f.values {
                            self.value(|| {
                                format!("has the item [{i}], which no schema here allows")
                            });
                        }
                        break;
                    }
                    if !self.q.valid(u, x, None) {
                        self.push(Seg::Index(i), i);
                        self.node(u, x);
                        self.pop();
                    }
                }
            }
            _ => {}
        }
    }

    /// What the schemas at this value cover, whether they pass or not (passing branches
    /// only, for `anyOf`/`oneOf`/`if`).
    fn cover(&mut self, n: &'x Node, v: &'x Json<'x>, seen: &mut Ann) {
        match v {
            Json::Object(fields) => {
                if let Some(o) = &n.obj {
                    for (i, (k, _)) in fields.iter().enumerate() {
                        let hit = o.property(k).is_some()
                            || o.pattern_properties.iter().any(|(p, _)| p.is_match(k))
                            || o.additional.is_some()
                            || o.unevaluated.is_some();
                        if hit {
                            seen.seen.set(i);
                        }
                    }
                }
            }
            Json::Array(items) => {
                if let Some(a) = &n.arr {
                    for (i, x) in items.iter().enumerate() {
                        let hit = i < a.prefix.len()
                            || a.items.is_some()
                            || a.unevaluated.is_some()
                            || a.contains.is_some_and(|c| self.q.valid(c, x, None));
                        if hit {
                            seen.seen.set(i);
                        }
                    }
                }
            }
            _ => {}
        }
        let Some(ap) = &n.apply else {
            self.cover_dependent(n, v, seen);
            return;
        };
        let dynamic = ap.dynamic.as_ref().map(|d| self.q.dynamic_target(d));
        for s in ap
            .refs
            .iter()
            .copied()
            .chain(dynamic)
            .chain(ap.all_of.iter().copied())
        {
            self.cover_id(s, v, seen);
        }
        for group in [&ap.any_of, &ap.one_of] {
            let mut any = false;
            for s in group.iter() {
                any |= self.q.valid(*s, v, Some(seen));
            }
            if !any {
                for s in group.iter() {
                    self.cover_id(*s, v, seen);
                }
            }
        }
        if let Some(cond) = ap.if_ {
            let branch = if self.q.valid(cond, v, Some(seen)) {
                ap.then
            } else {
                ap.else_
            };
            if let Some(b) = branch {
                self.cover_id(b, v, seen);
            }
        }
        self.cover_dependent(n, v, seen);
    }

    fn cover_dependent(&mut self, n: &'x Node, v: &'x Json<'x>, seen: &mut Ann) {
        if let (Some(o), Json::Object(fields)) = (&n.obj, v) {
            for (k, s) in &o.dependent_schemas {
                if has(fields, k) {
                    self.cover_id(*s, v, seen);
                }
            }
        }
    }

    fn cover_id(&mut self, id: NodeId, v: &'x Json<'x>, seen: &mut Ann) {
        let n = self.q.p.node(id);
        if n.always.is_some() || self.depth >= MAX_EVAL_DEPTH {
            return;
        }
        self.depth += 1;
        let entered = self.q.enter(n);
        self.cover(n, v, seen);
        self.q.leave(entered);
        self.depth -= 1;
    }
}
