//! The in-memory ticket store, keyed by the (tenant, id) pair (never a joined string, so
//! no tenant name can be crafted to collide with another tenant's key).
//!
//! Each record lives in its own shared cell. That is what makes the `copy_on_return`
//! switch honest: with it on the caller gets a private copy; with it off the caller gets
//! the very cell the store holds, and writing through it changes the store.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use super::{Record, Ticket};

type Cell = Arc<RwLock<Record>>;

/// Read a cell, even if a writer panicked while holding it.
pub(crate) fn read<T>(cell: &Cell, f: impl FnOnce(&Record) -> T) -> T {
    let guard = cell.read().unwrap_or_else(|e| e.into_inner());
    f(&guard)
}

fn write<T>(cell: &Cell, f: impl FnOnce(&mut Record) -> T) -> T {
    let mut guard = cell.write().unwrap_or_else(|e| e.into_inner());
    f(&mut guard)
}

/// The ticket store, keyed by (tenant, id) as a pair.
#[derive(Debug, Default)]
pub struct Store {
    /// tenant -> id -> record: a lookup needs both parts, and no string is ever joined.
    cells: HashMap<String, HashMap<String, Cell>>,
    /// Keys in the order the records were given (for listing and id-only lookups).
    order: Vec<(String, String)>,
}

impl Clone for Store {
    /// A deep copy: the clone shares no record with the original.
    fn clone(&self) -> Self {
        Store::from_records(self.records())
    }
}

impl Store {
    /// Build a store; a later record with the same (tenant, id) replaces an earlier one.
    pub fn from_records(records: Vec<Record>) -> Store {
        let mut store = Store::default();
        for r in records {
            store.insert(r);
        }
        store
    }

    /// Build a store, refusing two records with the same (tenant, id).
    pub fn try_from_records(records: Vec<Record>) -> Result<Store, String> {
        let mut store = Store::default();
        for r in records {
            if store.cell(&r.tenant, &r.id).is_some() {
                return Err(format!(
                    "two records for tenant {:?} and id {:?}",
                    r.tenant, r.id
                ));
            }
            store.insert(r);
        }
        Ok(store)
    }

    /// Add or replace a record.
    pub(crate) fn insert(&mut self, r: Record) {
        if let Some(cell) = self.cell(&r.tenant, &r.id) {
            write(&cell, |slot| *slot = r);
        } else {
            self.order.push((r.tenant.clone(), r.id.clone()));
            self.cells
                .entry(r.tenant.clone())
                .or_default()
                .insert(r.id.clone(), Arc::new(RwLock::new(r)));
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    /// The cell of (tenant, id).
    pub(crate) fn cell(&self, tenant: &str, id: &str) -> Option<Cell> {
        self.cells.get(tenant)?.get(id).cloned()
    }

    /// The first stored cell with this id, whatever its tenant (the unscoped lookup that
    /// the `tenant_scoping` switch exists to forbid).
    pub(crate) fn cell_by_id(&self, id: &str) -> Option<Cell> {
        self.order
            .iter()
            .find(|(_, i)| i == id)
            .and_then(|(t, i)| self.cell(t, i))
    }

    /// A copy of the record of (tenant, id).
    #[cfg(test)]
    pub(crate) fn get(&self, tenant: &str, id: &str) -> Option<Record> {
        self.cell(tenant, id).map(|c| read(&c, Record::clone))
    }

    /// Copies of every record, in the order given.
    pub(crate) fn records(&self) -> Vec<Record> {
        self.order
            .iter()
            .filter_map(|(t, i)| self.cell(t, i))
            .map(|c| read(&c, Record::clone))
            .collect()
    }

    /// Set the status of (tenant, id); `false` if there is no such record.
    #[cfg(test)]
    pub(crate) fn set_status(&self, tenant: &str, id: &str, status: &str) -> bool {
        match self.cell(tenant, id) {
            Some(c) => {
                write(&c, |r| r.status = status.to_owned());
                true
            }
            None => false,
        }
    }
}

/// What the caller of a successful `get_ticket` holds.
#[derive(Debug, Clone)]
pub enum TicketHandle {
    /// Its own copy (the safe default).
    Copy(Ticket),
    /// The stored record itself (`copy_on_return` off): writes go to the store.
    Shared(Arc<RwLock<Record>>),
}

impl TicketHandle {
    /// What the handle shows now.
    #[cfg(test)]
    pub(crate) fn ticket(&self) -> Ticket {
        match self {
            TicketHandle::Copy(t) => t.clone(),
            TicketHandle::Shared(c) => read(c, Ticket::of),
        }
    }

    /// Change the title, as a careless caller might.
    pub(crate) fn set_title(&mut self, title: &str) {
        match self {
            TicketHandle::Copy(t) => t.title = title.to_owned(),
            TicketHandle::Shared(c) => write(c, |r| r.title = title.to_owned()),
        }
    }

    /// Change the status, as a careless caller might.
    pub(crate) fn set_status(&mut self, status: &str) {
        match self {
            TicketHandle::Copy(t) => t.status = status.to_owned(),
            TicketHandle::Shared(c) => write(c, |r| r.status = status.to_owned()),
        }
    }

    /// Does this handle alias a stored record?
    #[cfg(test)]
    pub(crate) fn is_shared(&self) -> bool {
        matches!(self, TicketHandle::Shared(_))
    }
}
