//! A compiled schema: an arena of nodes indexed by `u32`, one node per schema location.
//! References are plain indices, so recursion is an edge like any other. Each node holds its
//! checks grouped by the kind of value they apply to; a group a schema does not use is `None`
//! and costs one pointer test.

use std::sync::Arc;

use super::decimal::Decimal;
use super::ecma_regex;
use super::format::FormatChecker;
use super::json::Json;
use super::number;

/// A node's index in [`Program::nodes`].
pub(crate) type NodeId = u32;

use super::json::{kind, kind_of};

/// A `type` keyword (or a flat form's Python type): the kinds it accepts and how a message
/// names them (`int`, `str or NoneType`, `int or float`).
#[derive(Debug, Clone)]
pub(crate) struct Types {
    pub(crate) mask: u8,
    pub(crate) name: std::borrow::Cow<'static, str>,
}

impl Types {
    /// Does `v` have one of these types? With the bool guard off, a boolean passes where an
    /// integer would (Python's `isinstance(True, int)`).
    #[inline]
    pub(crate) fn admits(&self, v: &Json<'_>, bool_guard: bool) -> bool {
        admits(self.mask, v, bool_guard)
    }
}

/// Does `v` have one of the kinds in `mask` (see [`Types::admits`])?
#[inline(always)]
pub(crate) fn admits(mask: u8, v: &Json<'_>, bool_guard: bool) -> bool {
    admits_kind(mask, kind_of(v), bool_guard)
}

/// [`admits`] for a value known by its kind bit `k`.
#[inline(always)]
pub(crate) fn admits_kind(mask: u8, k: u8, bool_guard: bool) -> bool {
    mask & k != 0 || (!bool_guard && k == kind::BOOL && mask & kind::INT != 0)
}

/// A numeric bound: its exact value and its text for messages.
#[derive(Debug, Clone)]
pub(crate) struct Bound {
    pub(crate) value: Json<'static>,
    pub(crate) text: Box<str>,
}

impl Bound {
    pub(crate) fn compare(&self, v: &Json<'_>) -> Option<std::cmp::Ordering> {
        number::compare(v, &self.value)
    }
}

/// Checks on numbers.
#[derive(Debug, Clone, Default)]
pub(crate) struct NumRules {
    pub(crate) minimum: Option<Bound>,
    pub(crate) maximum: Option<Bound>,
    pub(crate) exclusive_minimum: Option<Bound>,
    pub(crate) exclusive_maximum: Option<Bound>,
    pub(crate) multiple_of: Option<(Decimal, Box<str>)>,
}

/// A compiled `pattern` (or `patternProperties` key): its text and its ECMA-262 meaning.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    pub(crate) source: Box<str>,
    pub(crate) regex: Arc<ecma_regex::Compiled>,
}

impl Pattern {
    #[inline]
    pub(crate) fn is_match(&self, s: &str) -> bool {
        self.regex.is_match(s)
    }
}

/// Checks on strings.
#[derive(Debug, Clone, Default)]
pub(crate) struct TextRules {
    pub(crate) min_length: Option<u64>,
    pub(crate) max_length: Option<u64>,
    pub(crate) pattern: Option<Pattern>,
    /// A format that is checked (formats asserted and a checker known).
    pub(crate) format: Option<FormatChecker>,
}

/// Checks on objects.
#[derive(Debug, Clone, Default)]
pub(crate) struct ObjRules {
    /// `properties`, in declared order: what a lookup reads of each (see [`Head`]).
    pub(crate) heads: Vec<Head>,
    /// Every property's name, one after another: a lookup compares with them here, in
    /// one run of memory, rather than in each name's own allocation.
    pub(crate) names: String,
    /// For objects with many properties: slots of an open-addressed table by a hash of the
    /// name, each an index into `properties` plus one (zero: empty). Empty otherwise.
    pub(crate) index: Box<[u32]>,
    pub(crate) pattern_properties: Vec<(Pattern, NodeId)>,
    pub(crate) additional: Option<NodeId>,
    /// Required names in declared order (repeats dropped).
    pub(crate) required: Vec<Box<str>>,
    /// Each required name's index into `properties`, in the same order ([`UNDECLARED`]
    /// for a name that is not a declared property).
    pub(crate) required_at: Vec<u32>,
    pub(crate) min_properties: Option<u64>,
    pub(crate) max_properties: Option<u64>,
    pub(crate) property_names: Option<NodeId>,
    pub(crate) dependent_required: Vec<(Box<str>, Vec<Box<str>>)>,
    pub(crate) dependent_schemas: Vec<(Box<str>, NodeId)>,
    pub(crate) unevaluated: Option<NodeId>,
}

/// A declared property as a lookup reads it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Head {
    /// The name's [`name_head`]: the whole name, for a name of up to seven bytes.
    pub(crate) head: u64,
    pub(crate) node: NodeId,
    /// Where the name is in [`ObjRules::names`], and its length.
    pub(crate) name_at: u32,
    pub(crate) name_len: u32,
    /// The kinds the property's schema admits when its schema checks nothing but its type
    /// ([`ANY_TYPE`]: not even that); 0 when it checks more, or is not known yet
    /// ([`Program::seal`] fills it in once every node is built).
    pub(crate) only: u8,
}

/// [`Head::only`] of a schema that checks nothing.
pub(crate) const ANY_TYPE: u8 = 0x80;
/// [`ObjRules::required_at`] of a required name that is not a declared property.
pub(crate) const UNDECLARED: u32 = u32::MAX;

impl ObjRules {
    /// The index into `properties` of the declared property called `name`.
    #[inline]
    pub(crate) fn property_index(&self, name: &str) -> Option<usize> {
        let head = name_head(name);
        if !self.index.is_empty() {
            let mask = self.index.len() - 1;
            let mut at = index_hash(name) as usize & mask;
            loop {
                let slot = self.index[at] as usize;
                if slot == 0 {
                    return None;
                }
                if self.is_named(slot - 1, head, name) {
                    return Some(slot - 1);
                }
                at = (at + 1) & mask;
            }
        }
        (0..self.heads.len()).find(|&i| self.is_named(i, head, name))
    }

    /// Is property `i` called `name` (whose head is `head`)?
    #[inline(always)]
    fn is_named(&self, i: usize, head: u64, name: &str) -> bool {
        let h = &self.heads[i];
        if h.head != head {
            return false;
        }
        if name.len() < 8 {
            return true;
        }
        let at = h.name_at as usize;
        h.name_len as usize == name.len()
            && self.names.as_bytes().get(at..at + name.len()) == Some(name.as_bytes())
    }

    /// Fetch what judging an object reads first (its heads, the first names and required
    /// indices), so that a run can read ahead for many lines at once.
    pub(crate) fn warm(&self) {
        use crate::validate::ahead::prefetch;
        for h in self.heads.iter().step_by(2) {
            prefetch(h);
        }
        prefetch(self.names.as_ptr());
        prefetch(self.required_at.as_ptr());
    }

    /// The declared property called `name`.
    #[inline]
    pub(crate) fn property(&self, name: &str) -> Option<NodeId> {
        self.property_index(name).map(|i| self.heads[i].node)
    }

    /// Add a declared property (after those added before).
    pub(crate) fn add_property(&mut self, name: &str, node: NodeId) {
        self.heads.push(Head {
            head: name_head(name),
            node,
            name_at: self.names.len() as u32,
            name_len: name.len() as u32,
            only: 0,
        });
        self.names.push_str(name);
    }

    /// Property `i`'s name.
    #[inline]
    pub(crate) fn name(&self, i: usize) -> &str {
        let h = &self.heads[i];
        let at = h.name_at as usize;
        self.names.get(at..at + h.name_len as usize).unwrap_or("")
    }

    /// The declared properties, in declared order: each name and node.
    pub(crate) fn properties(&self) -> impl Iterator<Item = (&str, NodeId)> {
        (0..self.heads.len()).map(|i| (self.name(i), self.heads[i].node))
    }

    /// Fill the index (past 16 properties) and [`ObjRules::required_at`] once every
    /// property and `required` are set.
    pub(crate) fn seal(&mut self) {
        self.index = Box::default();
        if self.heads.len() > 16 {
            let size = (self.heads.len() * 2).next_power_of_two();
            let mut index = vec![0u32; size];
            for i in 0..self.heads.len() {
                let n = self.name(i);
                if self.property_index_in(&index, n).is_some() {
                    continue; // a repeated name: the first one is the one found
                }
                let mut at = index_hash(n) as usize & (size - 1);
                while index[at] != 0 {
                    at = (at + 1) & (size - 1);
                }
                index[at] = i as u32 + 1;
            }
            self.index = index.into();
        }
        self.required_at = self
            .required
            .iter()
            .map(|r| self.property_index(r).map_or(UNDECLARED, |i| i as u32))
            .collect();
    }

    /// `name`'s index in a table being built.
    fn property_index_in(&self, index: &[u32], name: &str) -> Option<usize> {
        let mask = index.len() - 1;
        let mut at = index_hash(name) as usize & mask;
        while index[at] != 0 {
            let i = index[at] as usize - 1;
            if self.name(i) == name {
                return Some(i);
            }
            at = (at + 1) & mask;
        }
        None
    }
}

/// The hash of a name in [`ObjRules::index`].
#[inline]
fn index_hash(name: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0x5eed).hash_one(name)
}

/// A name's first seven bytes and its length (up to 255) in one word: the whole name, for
/// a name of up to seven bytes.
#[inline]
pub(crate) fn name_head(name: &str) -> u64 {
    let b = name.as_bytes();
    let len = (b.len().min(255) as u64) << 56;
    // The first bytes as one little-endian word, read in at most two overlapping loads (no
    // copy of a variable length, which would be a call).
    let n = b.len();
    let u16_at = |i: usize| u64::from(u16::from_le_bytes([b[i], b[i + 1]]));
    let u32_at = |i: usize| u64::from(u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]));
    let bytes = match n {
        0 => 0,
        1 => u64::from(b[0]),
        2..=3 => u16_at(0) | (u16_at(n - 2) << (8 * (n - 2))),
        4..=7 => u32_at(0) | (u32_at(n - 4) << (8 * (n - 4))),
        _ => u32_at(0) | (u32_at(3) << 24),
    };
    bytes | len
}

/// Checks on arrays.
#[derive(Debug, Clone, Default)]
pub(crate) struct ArrRules {
    /// `prefixItems` (draft-07: `items` as an array).
    pub(crate) prefix: Vec<NodeId>,
    /// `items` past the prefix (draft-07: `additionalItems`, or `items` as one schema).
    pub(crate) items: Option<NodeId>,
    pub(crate) contains: Option<NodeId>,
    pub(crate) min_contains: Option<u64>,
    pub(crate) max_contains: Option<u64>,
    pub(crate) min_items: Option<u64>,
    pub(crate) max_items: Option<u64>,
    pub(crate) unique: bool,
    pub(crate) unevaluated: Option<NodeId>,
}

/// A `$dynamicRef`: where it points without a dynamic scope, and, when that target carries a
/// `$dynamicAnchor` of the fragment's name, the name to look up in the dynamic scope.
#[derive(Debug, Clone)]
pub(crate) struct DynamicRef {
    pub(crate) target: NodeId,
    pub(crate) anchor: Option<Box<str>>,
}

/// Applicators that apply to the same value as their node (in place).
#[derive(Debug, Clone, Default)]
pub(crate) struct Apply {
    pub(crate) refs: Vec<NodeId>,
    pub(crate) dynamic: Option<DynamicRef>,
    pub(crate) all_of: Vec<NodeId>,
    pub(crate) any_of: Vec<NodeId>,
    pub(crate) one_of: Vec<NodeId>,
    pub(crate) not: Option<NodeId>,
    pub(crate) if_: Option<NodeId>,
    pub(crate) then: Option<NodeId>,
    pub(crate) else_: Option<NodeId>,
}

impl Apply {
    /// Every node this one applies in place (for the cycle check).
    pub(crate) fn in_place(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.refs
            .iter()
            .chain(self.dynamic.iter().map(|d| &d.target))
            .chain(&self.all_of)
            .chain(&self.any_of)
            .chain(&self.one_of)
            .chain(&self.not)
            .chain(&self.if_)
            .chain(&self.then)
            .chain(&self.else_)
            .copied()
    }
}

/// One schema location, compiled.
#[derive(Debug, Clone, Default)]
pub(crate) struct Node {
    /// A boolean schema (`true`, `false`); also a schema object with no checks (`true`).
    pub(crate) always: Option<bool>,
    pub(crate) types: Option<Types>,
    /// `enum`: an empty list accepts nothing.
    pub(crate) choice: Option<Box<[Json<'static>]>>,
    pub(crate) constant: Option<Box<Json<'static>>>,
    pub(crate) num: Option<Box<NumRules>>,
    pub(crate) text: Option<Box<TextRules>>,
    pub(crate) obj: Option<Box<ObjRules>>,
    pub(crate) arr: Option<Box<ArrRules>>,
    pub(crate) apply: Option<Box<Apply>>,
    /// The resource (an `$id`, or the document) this location belongs to.
    pub(crate) resource: u32,
    /// Only `types` is set (a flat argument, `{"type": "string"}`): checked in line.
    pub(crate) only_types: bool,
}

impl Node {
    /// Does this node collect what its members or items evaluated, for `unevaluated*`?
    pub(crate) fn has_unevaluated(&self) -> bool {
        self.obj.as_ref().is_some_and(|o| o.unevaluated.is_some())
            || self.arr.as_ref().is_some_and(|a| a.unevaluated.is_some())
    }
}

/// A resource's `$dynamicAnchor`s: name -> node.
#[derive(Debug, Clone, Default)]
pub(crate) struct Resource {
    pub(crate) dynamic_anchors: Vec<(Box<str>, NodeId)>,
}

/// A whole compiled schema.
#[derive(Debug, Clone, Default)]
pub(crate) struct Program {
    pub(crate) nodes: Vec<Node>,
    pub(crate) root: NodeId,
    pub(crate) resources: Vec<Resource>,
    /// Some node applies another in place, or collects `unevaluated*`: failures then need
    /// sorting by position, since a walk meets them out of order.
    pub(crate) has_in_place: bool,
    /// Some node has a `$dynamicRef` whose target may change with the dynamic scope.
    pub(crate) dynamic: bool,
    /// How simple the root is, for the fast paths of `eval/shallow.rs`.
    pub(crate) shape: RootShape,
}

/// How simple a program's root is (see `eval/shallow.rs`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum RootShape {
    /// Anything else.
    #[default]
    General,
    /// One object of typed arguments and nothing more: judged by the shallow walk.
    Shallow,
    /// One object whose properties check scalar values only (their type, and also `enum`,
    /// `const`, bounds, lengths, `pattern` or `format`): flat args that pass are told so
    /// from their bytes, and any others are judged parsed.
    Scalars,
}

impl Program {
    #[inline]
    pub(crate) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The root's object rules, read ahead of judging (see [`ObjRules::warm`]).
    #[inline]
    pub(crate) fn warm_root(&self) -> Option<&ObjRules> {
        self.nodes.get(self.root as usize)?.obj.as_deref()
    }

    /// Fetch the nodes of `o`'s properties that check more than a type (the next step of
    /// reading ahead, after [`ObjRules::warm`]).
    pub(crate) fn warm_members(&self, o: &ObjRules) {
        let checked = o.heads.iter().filter(|h| h.only == 0);
        for node in checked.filter_map(|h| self.nodes.get(h.node as usize)) {
            crate::validate::ahead::prefetch(node);
        }
    }

    /// Once every node is built: each property's [`Head::only`], so a lookup that checks
    /// only a type need not read the property's node.
    pub(crate) fn seal(&mut self) {
        for i in 0..self.nodes.len() {
            let count = self.nodes[i].obj.as_ref().map_or(0, |o| o.heads.len());
            for j in 0..count {
                let Some(o) = &self.nodes[i].obj else {
                    break;
                };
                let only = match self.nodes.get(o.heads[j].node as usize) {
                    Some(n) if n.only_types => n.types.as_ref().map_or(ANY_TYPE, |t| t.mask),
                    Some(n) if n.always == Some(true) => ANY_TYPE,
                    _ => 0,
                };
                if let Some(o) = &mut self.nodes[i].obj {
                    o.heads[j].only = only;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_names_the_python_type_its_values_have() {
        let values = [
            Json::Null,
            Json::Bool(true),
            Json::Int(1),
            Json::BigInt("123456789012345678901".into()),
            Json::Float(1.0),
            Json::Str("x".into()),
            Json::Array(vec![]),
            Json::Object(vec![]),
        ];
        let names = [
            "NoneType", "bool", "int", "int", "float", "str", "list", "dict",
        ];
        for (v, name) in values.iter().zip(names) {
            assert_eq!(v.py_type(), name, "{v:?}");
        }
    }

    #[test]
    fn a_name_is_found_by_its_head_as_by_comparing_names() {
        // Names alike in their first bytes, lengths around the head's seven, a NUL and a tab
        // where a length byte might be mistaken for one.
        let names = [
            "",
            "a",
            "ab",
            "abcdefg",
            "abcdefgh",
            "abcdefgi",
            "abcdefg\0",
            "a\0",
            "a\t",
            "\u{7}",
            "\u{8}abcdef",
            "é",
            "éa",
            "abcdefghijklmnop",
            "abcdefghijklmnoq",
        ];
        let long_a = "x".repeat(300);
        let long_b = format!("{}y", "x".repeat(299));
        let long_c = "x".repeat(301);
        let mut names: Vec<&str> = names.to_vec();
        names.extend([long_a.as_str(), long_b.as_str()]);
        let many: Vec<String> = (0..40).map(|i| format!("field_{i}")).collect();
        let tries: Vec<&str> = names
            .iter()
            .copied()
            .chain(many.iter().map(String::as_str))
            .chain([
                "abcdef", "abcdefgj", "b", "a\0\0", "\u{7}\0", &long_c, "field_40",
            ])
            .collect();
        // A few names (looked up along the heads), and enough for the hashed index, with
        // a repeated name (the first is found).
        let mut with_many = names.clone();
        with_many.extend(many.iter().map(String::as_str));
        with_many.push("field_3");
        for names in [names, with_many] {
            let mut o = ObjRules {
                required: vec!["b".into(), "abcdefgh".into()],
                ..Default::default()
            };
            for (i, n) in names.iter().enumerate() {
                o.add_property(n, i as u32);
            }
            o.seal();
            assert_eq!(o.index.is_empty(), names.len() <= 16);
            for t in &tries {
                let slow = names.iter().position(|n| n == t).map(|i| i as u32);
                assert_eq!(o.property(t), slow, "{t:?}");
            }
            assert_eq!(o.required_at, [UNDECLARED, 4]);
        }
    }
}
