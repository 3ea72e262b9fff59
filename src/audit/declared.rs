//! The declarations a call is judged by: a record's own `tools` (compiled once for every
//! record that repeats them: a log of one agent sends the same list again and again), else
//! the `--tools` file, else none.

use std::sync::Arc;

use crate::validate::{Json, Validator};

/// What the declarations say of a tool name.
#[derive(Debug, Clone, Copy)]
pub enum Lookup<'c> {
    /// Declared, with its compiled schema.
    Tool(&'c Validator),
    /// Declared, but its schema asks for what the validator cannot honour (why).
    Refused(&'c str),
    /// Not among the declarations.
    Unknown,
}

/// One list of declarations, compiled.
#[derive(Debug, Default)]
pub struct Catalog {
    tools: Vec<(String, Result<Validator, String>)>,
}

impl Catalog {
    /// The function tools among `entries` (declarations in any provider's shape; server
    /// tools, which take no schema of ours, are left out).
    pub fn from_entries(entries: &[&Json<'_>]) -> Catalog {
        let mut tools: Vec<(String, Result<Validator, String>)> = Vec::new();
        for e in entries {
            let Some(name) = function_name(e) else {
                continue;
            };
            if tools.iter().any(|(n, _)| n == name) {
                continue;
            }
            let compiled = Validator::options().compile(e).map_err(|e| e.to_string());
            tools.push((name.to_owned(), compiled));
        }
        Catalog { tools }
    }

    /// The declarations of a tools file: a list, an object holding `tools` (an MCP
    /// `tools/list` result, its JSON-RPC response, a request body), or one declaration.
    pub fn from_file<'a>(v: &'a Json<'a>) -> Result<Catalog, String> {
        fn list<'a>(v: &'a Json<'a>) -> Option<Vec<&'a Json<'a>>> {
            match v.get("tools") {
                Some(Json::Array(t)) => Some(t.iter().collect()),
                _ => None,
            }
        }
        let entries: Vec<&Json<'a>> = match v {
            Json::Array(items) => items.iter().collect(),
            Json::Object(_) => list(v)
                .or_else(|| v.get("result").and_then(list))
                .or_else(|| v.get("request").and_then(list))
                .unwrap_or_else(|| vec![v]),
            other => {
                return Err(format!(
                    "a tools file holds a list or an object, not a {}",
                    other.py_type()
                ));
            }
        };
        let catalog = Catalog::from_entries(&entries);
        if catalog.is_empty() {
            return Err("no function tool declarations found".into());
        }
        Ok(catalog)
    }

    pub fn lookup(&self, name: &str) -> Lookup<'_> {
        match self.tools.iter().find(|(n, _)| n == name) {
            Some((_, Ok(v))) => Lookup::Tool(v),
            Some((_, Err(why))) => Lookup::Refused(why),
            None => Lookup::Unknown,
        }
    }

    pub fn has(&self, name: &str) -> bool {
        self.tools.iter().any(|(n, _)| n == name)
    }

    /// The declared names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|(n, _)| n.as_str())
    }

    pub fn len(&self) -> usize {
        self.tools.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}

/// The name of a function tool's declaration; `None` for a provider's own tool.
fn function_name<'a>(e: &'a Json<'_>) -> Option<&'a str> {
    let s = |v: &'a Json<'_>, k: &str| match v.get(k) {
        Some(Json::Str(s)) => Some(s.as_ref()),
        _ => None,
    };
    if let Some(f) = e.get("function") {
        return s(f, "name");
    }
    let typed = s(e, "type");
    let has_schema = ["input_schema", "inputSchema", "parameters"]
        .iter()
        .any(|k| e.get(k).is_some());
    match typed {
        None | Some("function" | "custom") => s(e, "name"),
        Some(_) if has_schema => s(e, "name"),
        Some(_) => None,
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
    pub fn with_fallback(fallback: Option<Catalog>) -> Catalogs {
        Catalogs {
            kept: Vec::new(),
            fallback: fallback.map(Arc::new),
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
