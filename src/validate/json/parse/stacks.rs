//! The reader's stacks of members and items: objects and arrays are read onto them and
//! moved out when they close. A reader of a long text starts with the room the thread's
//! last one left (see [`STACKS`]) and hands its own back when dropped.

use super::super::Json;
use super::{Field, Parser, recycle};

/// Texts shorter than this are read with stacks of their own, not the thread's.
const SHARED_FROM: usize = 2048;

/// The most members (or items) a stack handed back keeps room for: past it, the room of one
/// huge text is given back to the allocator rather than held for the rest of the thread.
const KEPT_STACK: usize = 1024;

thread_local! {
    /// The members and items stacks of the last reader of this thread, empty, with their
    /// room: the next reader starts with it instead of growing its own from nothing (a
    /// schema of a few dozen members would otherwise grow, and copy, its stack five times).
    static STACKS: std::cell::Cell<(Vec<Field<'static>>, Vec<Json<'static>>)> =
        const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        if !self.shared {
            return;
        }
        let keep = |n: usize| n > 0 && n <= KEPT_STACK;
        let (f, i) = (self.fields.capacity(), self.items.capacity());
        if !keep(f) && !keep(i) {
            return;
        }
        let fields = if keep(f) {
            recycle(std::mem::take(&mut self.fields))
        } else {
            Vec::new()
        };
        let items = if keep(i) {
            recycle(std::mem::take(&mut self.items))
        } else {
            Vec::new()
        };
        // Another reader of this thread may have handed back its own meanwhile: keep the
        // larger room of each.
        STACKS.with(|s| {
            let (f0, i0) = s.take();
            s.set((roomier(f0, fields), roomier(i0, items)));
        });
    }
}

/// Whichever of two vectors has more room.
fn roomier<T>(a: Vec<T>, b: Vec<T>) -> Vec<T> {
    if a.capacity() > b.capacity() { a } else { b }
}

/// The stacks the thread's last reader of a long text handed back, empty, for the next.
fn take_shared<'a>() -> (Vec<Field<'a>>, Vec<Json<'a>>) {
    let (fields, items) = STACKS.with(|s| s.take());
    (recycle(fields), recycle(items))
}

/// The entries of `stack` above `below`, moved out in one copy into a vector of their
/// exact size (the stack keeps its room).
#[inline]
fn take_above<T>(stack: &mut Vec<T>, below: usize) -> Vec<T> {
    if below == 0 {
        let mut out = Vec::with_capacity(stack.len());
        out.append(stack);
        out
    } else {
        stack.split_off(below)
    }
}

impl<'a> Parser<'a> {
    /// A reader of a whole text, starting with the stacks the last one of this thread left
    /// when the text is long enough to need much room (a short one grows its own, for less
    /// than taking them and handing them back costs).
    pub(crate) fn new(src: &'a str) -> Self {
        if src.len() < SHARED_FROM {
            return Parser::with_stacks(src, Vec::new(), Vec::new());
        }
        let (fields, items) = take_shared();
        let mut p = Parser::with_stacks(src, fields, items);
        p.shared = true;
        p
    }

    /// The members above `below` on the stack, moved out (see [`take_above`]). With stacks
    /// of its own, the outermost object takes the stack itself: no copy.
    pub(super) fn take_fields(&mut self, below: usize) -> Vec<Field<'a>> {
        if below == 0 && !self.shared {
            return std::mem::take(&mut self.fields);
        }
        take_above(&mut self.fields, below)
    }

    /// [`Parser::take_fields`] for the items of an array.
    pub(super) fn take_items(&mut self, below: usize) -> Vec<Json<'a>> {
        if below == 0 && !self.shared {
            return std::mem::take(&mut self.items);
        }
        take_above(&mut self.items, below)
    }
}
