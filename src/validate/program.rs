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

/// Bits of [`Types::mask`], one per kind of JSON value as the reader tells them apart.
pub(crate) mod kind {
    pub(crate) const NULL: u8 = 1;
    pub(crate) const BOOL: u8 = 2;
    /// An integer literal (any size).
    pub(crate) const INT: u8 = 4;
    /// A literal with a fraction or an exponent.
    pub(crate) const FLOAT: u8 = 8;
    pub(crate) const STR: u8 = 16;
    pub(crate) const ARRAY: u8 = 32;
    pub(crate) const OBJECT: u8 = 64;
}

/// The kind bit of a value.
#[inline]
pub(crate) fn kind_of(v: &Json<'_>) -> u8 {
    match v {
        Json::Null => kind::NULL,
        Json::Bool(_) => kind::BOOL,
        Json::Int(_) | Json::BigInt(_) => kind::INT,
        Json::Float(_) => kind::FLOAT,
        Json::Str(_) => kind::STR,
        Json::Array(_) => kind::ARRAY,
        Json::Object(_) => kind::OBJECT,
    }
}

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
        let k = kind_of(v);
        self.mask & k != 0 || (!bool_guard && k == kind::BOOL && self.mask & kind::INT != 0)
    }
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
    /// `properties`, in declared order.
    pub(crate) properties: Vec<(Box<str>, NodeId)>,
    /// Name -> index into `properties`, for objects with many properties.
    pub(crate) index: Option<foldhash::HashMap<Box<str>, u32>>,
    /// Each property's [`name_head`] and node, in the same order: a name of up to seven
    /// bytes is found by its head alone, without reading the name kept apart.
    pub(crate) heads: Vec<(u64, NodeId)>,
    pub(crate) pattern_properties: Vec<(Pattern, NodeId)>,
    pub(crate) additional: Option<NodeId>,
    /// Required names in declared order (repeats dropped).
    pub(crate) required: Vec<Box<str>>,
    pub(crate) min_properties: Option<u64>,
    pub(crate) max_properties: Option<u64>,
    pub(crate) property_names: Option<NodeId>,
    pub(crate) dependent_required: Vec<(Box<str>, Vec<Box<str>>)>,
    pub(crate) dependent_schemas: Vec<(Box<str>, NodeId)>,
    pub(crate) unevaluated: Option<NodeId>,
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut o = ObjRules {
            properties: names
                .iter()
                .enumerate()
                .map(|(i, n)| ((*n).into(), i as u32))
                .collect(),
            ..Default::default()
        };
        o.seal();
        let tries = names
            .iter()
            .copied()
            .chain(["abcdef", "abcdefgj", "b", "a\0\0", "\u{7}\0"]);
        for t in tries {
            let slow = names.iter().position(|n| *n == t).map(|i| i as u32);
            assert_eq!(o.property(t), slow, "{t:?}");
        }
    }
}

impl ObjRules {
    /// The declared property called `name`.
    #[inline]
    pub(crate) fn property(&self, name: &str) -> Option<NodeId> {
        if let Some(index) = &self.index {
            return index.get(name).map(|&i| self.properties[i as usize].1);
        }
        let head = name_head(name);
        for (i, &(h, id)) in self.heads.iter().enumerate() {
            if h == head && (name.len() < 8 || super::json::same_text(&self.properties[i].0, name))
            {
                return Some(id);
            }
        }
        None
    }

    /// Fill [`ObjRules::heads`] (and the index, past 16 names) once `properties` is set.
    pub(crate) fn seal(&mut self) {
        self.heads = self
            .properties
            .iter()
            .map(|(n, id)| (name_head(n), *id))
            .collect();
        if self.properties.len() > 16 {
            self.index = Some(
                self.properties
                    .iter()
                    .enumerate()
                    .map(|(i, (n, _))| (n.clone(), i as u32))
                    .collect(),
            );
        }
    }
}

/// A name's first seven bytes and its length (up to 255) in one word: the whole name, for
/// a name of up to seven bytes.
#[inline]
pub(crate) fn name_head(name: &str) -> u64 {
    let b = name.as_bytes();
    let mut a = [0u8; 8];
    let n = b.len().min(7);
    a[..n].copy_from_slice(&b[..n]);
    a[7] = b.len().min(255) as u8;
    u64::from_le_bytes(a)
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
    /// The root is one object of typed arguments and nothing more (see `eval/shallow.rs`).
    pub(crate) shallow: bool,
}

impl Program {
    #[inline]
    pub(crate) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }
}
