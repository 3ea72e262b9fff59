//! The declarations a call is judged by: a record's own `tools` (compiled once for every
//! record that repeats them: a log of one agent sends the same list again and again), else
//! the `--tools` file, else none.

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use crate::tools::{ToolSet, ToolsFormat};
use crate::validate::{Json, Validator};

/// What the declarations say of a tool name.
#[derive(Debug, Clone)]
pub enum Lookup<'c> {
    /// Declared, with its compiled schema.
    Tool(&'c Validator),
    /// Declared, but its schema asks for what the validator cannot honour, or the list it
    /// is in could not be read (why): not judged.
    Refused(String),
    /// Declared as a provider-defined tool of this `type` (`memory_20250818`): the
    /// provider defines its input, and the declaration has no schema to judge it by.
    Provided(String),
    /// Not among the declarations.
    Unknown,
}

/// One list of declarations, read by the tool loader (server tools are left out there), or
/// why it could not be read.
#[derive(Debug)]
pub struct Catalog {
    set: Result<ToolSet, String>,
    /// The declared names, in order, made once for every conversation that shares them.
    names: Arc<[String]>,
}

impl Catalog {
    fn of(set: Result<ToolSet, String>) -> Catalog {
        let names = set
            .iter()
            .flat_map(|s| s.tools.iter().map(|t| t.name.clone()))
            .collect();
        Catalog { set, names }
    }

    /// The declarations among `entries` (each a tool in its provider's shape).
    pub fn from_entries(entries: &[&Json<'_>]) -> Catalog {
        let list = Value::Array(entries.iter().map(|e| e.to_value()).collect());
        Catalog::of(ToolSet::from_value(&list, None).map_err(|e| e.to_string()))
    }

    /// The declarations of a tools file (`--tools`): any shape the tool loader reads.
    pub fn read(path: &Path, format: Option<ToolsFormat>) -> Result<Catalog, String> {
        let set = ToolSet::read(path, format).map_err(|e| e.to_string())?;
        if set.tools.is_empty() {
            return Err(format!(
                "{}: no function tool declarations in it",
                path.display()
            ));
        }
        Ok(Catalog::of(Ok(set)))
    }

    /// The declarations of several tools files as one list, in the order given (a name
    /// declared twice is judged by its first declaration).
    pub fn read_all(paths: &[&Path], format: Option<ToolsFormat>) -> Result<Catalog, String> {
        let mut all: Option<ToolSet> = None;
        for path in paths {
            let set = Catalog::read(path, format)?.set?;
            match &mut all {
                Some(all) => {
                    all.entries += set.entries;
                    all.tools.extend(set.tools);
                }
                None => all = Some(set),
            }
        }
        all.map(|set| Catalog::of(Ok(set)))
            .ok_or_else(|| "no --tools file given".to_owned())
    }

    pub fn lookup(&self, name: &str) -> Lookup<'_> {
        let set = match &self.set {
            Ok(set) => set,
            Err(why) => {
                return Lookup::Refused(format!("the record's tools cannot be read: {why}"));
            }
        };
        match set.get(name) {
            Some(t) => match t.validator() {
                Some(v) => Lookup::Tool(v),
                None => Lookup::Refused(t.refusal().unwrap_or_default()),
            },
            None => match set.skipped.iter().find(|s| s.name.as_deref() == Some(name)) {
                Some(s) => Lookup::Provided(s.kind.clone()),
                None => Lookup::Unknown,
            },
        }
    }

    pub fn has(&self, name: &str) -> bool {
        self.set.as_ref().is_ok_and(|s| s.get(name).is_some())
    }

    /// The declared names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// The declared names, in order, shared.
    pub fn name_list(&self) -> Arc<[String]> {
        self.names.clone()
    }

    pub fn len(&self) -> usize {
        self.set.as_ref().map_or(0, |s| s.tools.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How many lists of declarations to keep compiled.
const KEPT: usize = 8;

/// The compiled lists seen lately, by their exact value, and the `--tools` fallback.
#[derive(Debug, Default)]
pub struct Catalogs {
    kept: Vec<(Vec<Json<'static>>, Arc<Catalog>)>,
    fallback: Option<Arc<Catalog>>,
}

impl Catalogs {
    /// With the declarations of `--tools`, for records that carry none.
    pub fn with_fallback(fallback: Option<Arc<Catalog>>) -> Catalogs {
        Catalogs {
            kept: Vec::new(),
            fallback,
        }
    }

    pub fn fallback(&self) -> Option<Arc<Catalog>> {
        self.fallback.clone()
    }

    /// The compiled list for `entries`, compiled now unless it was seen lately.
    pub fn get(&mut self, entries: &[&Json<'_>]) -> Arc<Catalog> {
        let hit = self.kept.iter().position(|(key, _)| {
            key.len() == entries.len() && key.iter().zip(entries).all(|(a, b)| a == *b)
        });
        if let Some(at) = hit {
            let entry = self.kept.remove(at);
            let catalog = entry.1.clone();
            self.kept.push(entry);
            return catalog;
        }
        let catalog = Arc::new(Catalog::from_entries(entries));
        if self.kept.len() == KEPT {
            self.kept.remove(0);
        }
        let key = entries.iter().map(|e| (*e).clone().into_owned()).collect();
        self.kept.push((key, catalog.clone()));
        catalog
    }
}
