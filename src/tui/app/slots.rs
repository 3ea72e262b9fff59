//! The blocks of the open page and how much of the page shows. They are kept behind the
//! methods of `PageBlocks`: every change to what the page layout depends on besides the
//! lesson, the page and the view's size goes through one of them, and each moves
//! `version` on, so a layout cached for an older version is never drawn.

use super::state::Slot;
use crate::tui::blocks::BlockWidget;

#[derive(Default)]
pub(crate) struct PageBlocks {
    slots: Vec<Slot>,
    /// Presenter mode: how many steps of the page are shown (`None`: all).
    steps_shown: Option<usize>,
    version: u64,
}

impl PageBlocks {
    /// The blocks of the page, in order.
    pub(crate) fn slots(&self) -> &[Slot] {
        &self.slots
    }

    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Moves on with every change the page layout depends on.
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    pub(crate) fn steps_shown(&self) -> Option<usize> {
        self.steps_shown
    }

    /// The built widget of block `i`, to read it.
    pub(crate) fn widget(&self, i: usize) -> Option<&dyn BlockWidget> {
        self.slots.get(i)?.widget.as_ref().ok().map(|w| w.as_ref())
    }

    /// The widget of block `i`, to change it (its height may change with it).
    pub(crate) fn widget_mut(&mut self, i: usize) -> Option<&mut Box<dyn BlockWidget>> {
        self.version += 1;
        self.slots.get_mut(i).and_then(|s| s.widget.as_mut().ok())
    }

    /// Block `i` built anew (or its build error) in its place.
    pub(crate) fn rebuild(&mut self, i: usize, widget: Result<Box<dyn BlockWidget>, String>) {
        self.version += 1;
        if let Some(slot) = self.slots.get_mut(i) {
            slot.widget = widget;
        }
    }

    /// A new page's blocks.
    pub(crate) fn set(&mut self, slots: Vec<Slot>) {
        self.version += 1;
        self.slots = slots;
    }

    /// The page's blocks taken out (the page is left with none).
    pub(crate) fn take(&mut self) -> Vec<Slot> {
        self.version += 1;
        std::mem::take(&mut self.slots)
    }

    pub(crate) fn clear(&mut self) {
        self.set(Vec::new());
    }

    pub(crate) fn set_steps(&mut self, shown: Option<usize>) {
        self.version += 1;
        self.steps_shown = shown;
    }

    /// Does a block animate (the loop then ticks)?
    pub(crate) fn animating(&self) -> bool {
        self.slots
            .iter()
            .any(|s| s.widget.as_ref().is_ok_and(|w| w.animating()))
    }

    /// One frame of every block's animation (a frame may change a block's height).
    pub(crate) fn tick(&mut self) {
        self.version += 1;
        for slot in &mut self.slots {
            if let Ok(w) = &mut slot.widget {
                let _ = w.tick();
            }
        }
    }
}
