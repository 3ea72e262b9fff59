//! A compiled program must end on every value: no loop of schemas applied in place (`$ref`,
//! `allOf`, `not`, ...) that never steps into a member or an item. Such a loop would
//! validate forever, so it is a compile error.

use crate::validate::error::CompileError;
use crate::validate::program::{NodeId, Program};

/// The nodes `id` applies to the same value.
fn in_place(p: &Program, id: NodeId) -> Vec<NodeId> {
    let node = p.node(id);
    let mut out = Vec::new();
    if let Some(a) = &node.apply {
        out.extend(a.in_place());
        if let Some(name) = a.dynamic.as_ref().and_then(|d| d.anchor.as_ref()) {
            for r in &p.resources {
                for (n, target) in &r.dynamic_anchors {
                    if n == name {
                        out.push(*target);
                    }
                }
            }
        }
    }
    if let Some(o) = &node.obj {
        out.extend(o.dependent_schemas.iter().map(|(_, s)| *s));
    }
    out
}

/// Refuse a program with an in-place loop.
pub(super) fn bounded(p: &Program) -> Result<(), CompileError> {
    if !p.has_in_place {
        return Ok(());
    }
    // 0: not seen, 1: on the current path, 2: done.
    let mut state = vec![0u8; p.nodes.len()];
    for start in 0..p.nodes.len() as NodeId {
        if state[start as usize] != 0 {
            continue;
        }
        let mut stack: Vec<(NodeId, Vec<NodeId>, usize)> = vec![(start, in_place(p, start), 0)];
        state[start as usize] = 1;
        while let Some((id, next, i)) = stack.last_mut() {
            if *i == next.len() {
                state[*id as usize] = 2;
                stack.pop();
                continue;
            }
            let n = next[*i];
            *i += 1;
            match state[n as usize] {
                0 => {
                    state[n as usize] = 1;
                    let succ = in_place(p, n);
                    stack.push((n, succ, 0));
                }
                1 => {
                    return Err(CompileError::Unbounded(
                        "the schema refers to itself in a loop that never steps into a \
                         member or an item (such as {\"$ref\": \"#\"}), so checking a value \
                         would never end"
                            .into(),
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(())
}
