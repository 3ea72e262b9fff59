//! Files that import each other. The import graph between files (a file uses another when
//! one of its paths leads into the other's module) may have circles only inside one module
//! and its own children (the files of `App`, say, that each add to one type): two files that
//! import each other must be a module and its child, and any longer circle must stay within
//! a module and its direct children.

use std::collections::{BTreeMap, BTreeSet};

use super::scan::{module_uses, product_part, reexports};
use super::{Source, read_sources, src_root};

/// Where paths lead: modules to their files, and items a module re-exports (`pub use`) to
/// the module that defines them, so a file that names `crate::blocks::Widget` uses the file
/// the widget is written in, not the module that passes it on.
struct Resolver<'a> {
    by_module: BTreeMap<&'a [String], usize>,
    /// Per file: re-exported name -> the path it stands for.
    reexported: Vec<BTreeMap<String, Vec<String>>>,
}

impl<'a> Resolver<'a> {
    fn new(sources: &'a [Source]) -> Resolver<'a> {
        let by_module: BTreeMap<&[String], usize> = sources
            .iter()
            .enumerate()
            .map(|(i, s)| (s.module.as_slice(), i))
            .collect();
        let is_module = |p: &[String]| by_module.contains_key(p);
        let reexported = sources
            .iter()
            .map(|s| {
                reexports(&product_part(&s.text), &s.module, &is_module)
                    .into_iter()
                    .filter_map(|p| Some((p.last()?.clone(), p)))
                    .collect()
            })
            .collect();
        Resolver {
            by_module,
            reexported,
        }
    }

    fn is_module(&self, path: &[String]) -> bool {
        self.by_module.contains_key(path)
    }

    /// The file a path leads into (through re-exports, at most a few hops).
    fn file_of(&self, path: &[String], hops: usize) -> Option<usize> {
        let k = (1..=path.len())
            .rev()
            .find(|&k| self.by_module.contains_key(&path[..k]))?;
        let file = self.by_module[&path[..k]];
        if let Some(name) = path.get(k)
            && hops < 8
            && let Some(target) = self.reexported[file].get(name)
            && target.as_slice() != path
        {
            let mut onward = target.clone();
            onward.extend(path[k + 1..].iter().cloned());
            return self.file_of(&onward, hops + 1).or(Some(file));
        }
        Some(file)
    }
}

/// For each file, the files its product code (unit tests aside) uses, by index. A module
/// file's own re-exports are not uses: they only pass an item on.
fn graph(sources: &[Source]) -> Vec<BTreeSet<usize>> {
    let r = Resolver::new(sources);
    let is_module = |p: &[String]| r.is_module(p);
    sources
        .iter()
        .enumerate()
        .map(|(me, s)| {
            let text = product_part(&s.text);
            let passed_on: BTreeSet<Vec<String>> = reexports(&text, &s.module, &is_module)
                .into_iter()
                .collect();
            module_uses(&text, &s.module, &is_module)
                .into_iter()
                .filter(|path| !passed_on.contains(path))
                .filter_map(|path| r.file_of(&path, 0))
                .filter(|&to| to != me)
                .collect()
        })
        .collect()
}

/// The strongly connected parts of the graph with more than one file (Tarjan's algorithm).
fn circles(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct Walk<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(w: &mut Walk, v: usize) {
        w.index[v] = Some(w.next);
        w.low[v] = w.next;
        w.next += 1;
        w.stack.push(v);
        w.on_stack[v] = true;
        for &to in w.edges[v].iter() {
            match w.index[to] {
                None => {
                    visit(w, to);
                    w.low[v] = w.low[v].min(w.low[to]);
                }
                Some(i) if w.on_stack[to] => w.low[v] = w.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(w.low[v]) == w.index[v] {
            let mut part = Vec::new();
            while let Some(x) = w.stack.pop() {
                w.on_stack[x] = false;
                part.push(x);
                if x == v {
                    break;
                }
            }
            if part.len() > 1 {
                part.sort_unstable();
                w.out.push(part);
            }
        }
    }
    let n = edges.len();
    let mut w = Walk {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if w.index[v].is_none() {
            visit(&mut w, v);
        }
    }
    w.out
}

/// `child` is a direct child module of `parent`.
fn is_child(parent: &[String], child: &[String]) -> bool {
    child.len() == parent.len() + 1 && child.starts_with(parent)
}

/// Modules whose own circles are being taken apart in their own rewrite: reported only
/// while they still have one (the check fails once one is clean, to be taken off this list).
const PENDING: &[&str] = &[];

/// Every circle the rules do not allow, one message each.
fn violations(sources: &[Source]) -> Vec<String> {
    let edges = graph(sources);
    let name = |i: usize| sources[i].display.clone();
    let mut out = Vec::new();
    for (a, uses) in edges.iter().enumerate() {
        for &b in uses.iter().filter(|&&b| b > a && edges[b].contains(&a)) {
            let (ma, mb) = (&sources[a].module, &sources[b].module);
            if !is_child(ma, mb) && !is_child(mb, ma) {
                out.push(format!(
                    "{} and {} import each other: move what both need where one of them (or a third file) owns it",
                    name(a),
                    name(b)
                ));
            }
        }
    }
    for part in circles(&edges) {
        let modules: Vec<&Vec<String>> = part.iter().map(|&i| &sources[i].module).collect();
        let Some(root) = modules.iter().min_by_key(|m| m.len()) else {
            continue;
        };
        let parent: &[String] = if modules.iter().all(|m| m.len() == root.len()) {
            &root[..root.len().saturating_sub(1)]
        } else {
            root
        };
        let family = modules
            .iter()
            .all(|m| m.as_slice() == parent || is_child(parent, m));
        if !family {
            let files: Vec<String> = part.iter().map(|&i| name(i)).collect();
            out.push(format!(
                "a circle of imports across modules: {}",
                files.join(" -> ")
            ));
        }
    }
    out
}

#[test]
fn no_two_files_import_each_other_and_circles_stay_in_one_module() {
    let sources = read_sources(&src_root());
    let mut bad = violations(&sources);
    for pending in PENDING {
        let mine = |m: &String| {
            let files: Vec<&str> = m.matches("src/").collect();
            !files.is_empty()
                && m.split("src/")
                    .skip(1)
                    .all(|f| f.starts_with(&format!("{pending}/")))
        };
        let before = bad.len();
        bad.retain(|m| !mine(m));
        assert!(
            bad.len() < before,
            "{pending} has no circle of imports any more: take it off PENDING in tests/core/architecture/cycles.rs"
        );
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn a_planted_circle_is_reported() {
    let source = |display: &str, module: &[&str], text: &str| Source {
        display: display.to_owned(),
        module: module.iter().map(|m| m.to_string()).collect(),
        text: text.to_owned(),
    };
    let family = [
        source("src/app/mod.rs", &["app"], "use layout::View;\nmod layout;"),
        source("src/app/layout.rs", &["app", "layout"], "use super::App;"),
    ];
    assert!(violations(&family).is_empty(), "a module and its child");
    let pair = [
        source(
            "src/course/progress.rs",
            &["course", "progress"],
            "use crate::course::review::Cards;",
        ),
        source(
            "src/course/review.rs",
            &["course", "review"],
            "use super::progress::Progress;",
        ),
        source("src/course/mod.rs", &["course"], ""),
    ];
    let bad = violations(&pair);
    assert!(
        bad.iter()
            .any(|m| m
                .starts_with("src/course/progress.rs and src/course/review.rs import each other")),
        "{bad:#?}"
    );
    let long = [
        source("src/a/mod.rs", &["a"], "use crate::b::x::Thing;"),
        source("src/b/x.rs", &["b", "x"], "use crate::c::Other;"),
        source(
            "src/c/mod.rs",
            &["c"],
            "fn f() -> crate::a::Back { todo!() }",
        ),
        source("src/b/mod.rs", &["b"], ""),
    ];
    let bad = violations(&long);
    assert_eq!(bad.len(), 1, "{bad:#?}");
    assert!(
        bad[0].contains("src/a/mod.rs") && bad[0].contains("src/c/mod.rs"),
        "{bad:#?}"
    );
    // Unit tests do not count; grouped uses and `super` chains do.
    let tests_only = [
        source(
            "src/p.rs",
            &["p"],
            "pub struct P;\n#[cfg(test)]\nmod tests { use crate::q::Q; }",
        ),
        source("src/q.rs", &["q"], "use crate::{p::P, other};"),
    ];
    assert!(violations(&tests_only).is_empty());
}
