//! The quick pass read straight from the bytes of args, nested ones included: objects and
//! arrays are walked in the text, with nothing parsed into values and nothing allocated,
//! and each scalar is built from its text alone and checked as when parsed
//! ([`Quick::valid`]). Schemas applied in place to an object or array are walked too when
//! they only add conditions (`$ref`, `allOf`) or offer branches (`anyOf`: one that surely
//! passes is enough).
//!
//! Only a sure pass comes out of it. A value that fails, and anything this walk does not
//! read (a key with escapes, a key repeated, text that is not JSON, nesting past [`DEPTH`], more than
//! [`KEYS`] members in one object) or whose schema it does not follow at that value
//! (`enum` or `const` of an object or array, `oneOf`, `not`, `if`, `patternProperties`,
//! `propertyNames`, dependencies, `contains`, `uniqueItems`, `unevaluated*`, a dynamic
//! reference anywhere), gives `None`: the caller then reads the args as always, which also
//! words the first failure. Either way the verdict is the same. A scalar is checked at the
//! depth the parsed reading would check it (schemas applied at once, levels of nesting
//! included), so [`super::MAX_EVAL_DEPTH`] refuses it alike.

use super::Quick;
use crate::validate::json::{
    Json, Parser, flat_value, kind, kind_of, plain_string, same_text, skip_ws, value_kind,
};
use crate::validate::program::{
    ANY_TYPE, ArrRules, Node, NodeId, ObjRules, UNDECLARED, admits_kind,
};

/// The deepest nesting walked (deeper args are read as always).
const DEPTH: u32 = 32;
/// The most members of one object walked (its keys are held to find a repeat).
const KEYS: usize = 16;

impl Quick<'_> {
    /// Does the JSON value at byte `at` of `text` surely pass node `id`? Where the value
    /// ends (just past it) when it does; `None` when it fails or this walk cannot tell.
    pub(crate) fn passes_bytes(&mut self, id: NodeId, text: &str, at: usize) -> Option<usize> {
        if self.p.dynamic {
            return None;
        }
        self.value_bytes(id, text, at, 0)
    }

    /// The value at `i` against node `id`, as [`Quick::valid`] judges it.
    fn value_bytes(&mut self, id: NodeId, text: &str, i: usize, depth: u32) -> Option<usize> {
        let p = self.p;
        let n = p.node(id);
        if let Some(b) = n.always {
            return if b || !self.f.values {
                self.skip(text, i, depth).map(|(_, end)| end)
            } else {
                None
            };
        }
        match *text.as_bytes().get(i)? {
            b'{' => self.structure_bytes(n, kind::OBJECT, text, i, depth),
            b'[' => self.structure_bytes(n, kind::ARRAY, text, i, depth),
            _ => {
                let (v, end) = scalar(text, i)?;
                // Checked as the parsed reading checks it, as deep in schemas applied at
                // once (the walk's depth is that count here), so its limit bites alike.
                self.depth = depth;
                self.valid(id, &v, None).then_some(end)
            }
        }
    }

    /// The object or array (kind `k`) at `i` against node `n`: its own rules, then the
    /// schemas it applies in place that this walk follows (`$ref`, `allOf`, `anyOf`).
    fn structure_bytes(
        &mut self,
        n: &Node,
        k: u8,
        text: &str,
        i: usize,
        depth: u32,
    ) -> Option<usize> {
        if self.f.types
            && !n
                .types
                .as_ref()
                .is_none_or(|t| admits_kind(t.mask, k, self.f.bool_guard))
        {
            return None;
        }
        if n.constant.is_some() || n.choice.is_some() {
            return None;
        }
        let end = if k == kind::OBJECT {
            let o = n.obj.as_deref();
            if o.is_some_and(|o| !self.follows(o)) {
                return None;
            }
            self.object_bytes(o, text, i, depth)?
        } else {
            let a = n.arr.as_deref();
            let unfollowed = |a: &ArrRules| {
                a.contains.is_some() || a.unevaluated.is_some() || a.unique && self.f.values
            };
            if a.is_some_and(unfollowed) {
                return None;
            }
            self.array_bytes(a, text, i, depth)?
        };
        let Some(ap) = n.apply.as_deref() else {
            return Some(end);
        };
        let followed =
            ap.dynamic.is_none() && ap.one_of.is_empty() && ap.not.is_none() && ap.if_.is_none();
        if !followed {
            return None;
        }
        for &s in ap.refs.iter().chain(&ap.all_of) {
            if self.value_bytes(s, text, i, depth + 1)? != end {
                return None;
            }
        }
        let any = ap.any_of.is_empty()
            || ap
                .any_of
                .iter()
                .any(|&s| self.value_bytes(s, text, i, depth + 1) == Some(end));
        any.then_some(end)
    }

    /// Does this walk follow object rules `o` (nothing but properties, a closed set of
    /// names or a schema for the rest, required names and counts)?
    fn follows(&self, o: &ObjRules) -> bool {
        o.pattern_properties.is_empty()
            && o.property_names.is_none()
            && o.dependent_required.is_empty()
            && o.dependent_schemas.is_empty()
            && o.unevaluated.is_none()
            && o.heads.len() <= 64
            && !o.required_at.contains(&UNDECLARED)
    }

    /// The object at `i`, against rules `o` (none: any members, only read).
    fn object_bytes(
        &mut self,
        o: Option<&ObjRules>,
        text: &str,
        i: usize,
        depth: u32,
    ) -> Option<usize> {
        if depth >= DEPTH {
            return None;
        }
        let b = text.as_bytes();
        let mut keys = [""; KEYS];
        let (mut count, mut seen) = (0, 0u64);
        let mut j = skip_ws(b, i + 1);
        let end = if b.get(j) == Some(&b'}') {
            j + 1
        } else {
            loop {
                if count == KEYS || b.get(j) != Some(&b'"') {
                    return None;
                }
                let (key, after) = plain_string(text, j)?;
                if keys[..count].iter().any(|k| same_text(k, key)) {
                    return None;
                }
                keys[count] = key;
                count += 1;
                j = skip_ws(b, after);
                if b.get(j) != Some(&b':') {
                    return None;
                }
                j = skip_ws(b, j + 1);
                j = match o {
                    Some(o) => self.property_bytes(o, key, &mut seen, text, j, depth + 1)?,
                    None => self.skip(text, j, depth + 1)?.1,
                };
                match after_item(b, j, b'}')? {
                    Ok(next) => j = next,
                    Err(end) => break end,
                }
            }
        };
        let Some(o) = o else { return Some(end) };
        if self.f.values && outside(o.min_properties, o.max_properties, count) {
            return None;
        }
        let missing = o.required_at.iter().any(|&at| seen & (1 << at) == 0);
        (!(self.f.required && missing)).then_some(end)
    }

    /// Member `key`'s value at `i`, against the schema `o` gives it (its property's, or the
    /// one for the rest); its property is added to `seen`.
    fn property_bytes(
        &mut self,
        o: &ObjRules,
        key: &str,
        seen: &mut u64,
        text: &str,
        i: usize,
        depth: u32,
    ) -> Option<usize> {
        let Some(at) = o.property_index(key) else {
            return match o.additional {
                Some(s) => self.member_bytes(s, text, i, depth),
                None => self.skip(text, i, depth).map(|(_, end)| end),
            };
        };
        *seen |= 1 << at;
        let h = &o.heads[at];
        match h.only {
            0 => self.member_bytes(h.node, text, i, depth),
            ANY_TYPE => self.skip(text, i, depth).map(|(_, end)| end),
            mask => self.typed(mask, text, i, depth),
        }
    }

    /// A member's value against the schema that applies to it, as [`Quick::member`] judges
    /// it (a `false` schema: an unknown member).
    fn member_bytes(&mut self, s: NodeId, text: &str, i: usize, depth: u32) -> Option<usize> {
        let n = self.p.node(s);
        if n.only_types {
            let mask = n.types.as_ref().map_or(ANY_TYPE, |t| t.mask);
            return self.typed(mask, text, i, depth);
        }
        if n.always == Some(false) {
            return if self.f.unknown {
                None
            } else {
                self.skip(text, i, depth).map(|(_, end)| end)
            };
        }
        self.value_bytes(s, text, i, depth)
    }

    /// The value at `i`, whose schema checks its type alone (`mask`; [`ANY_TYPE`]: none).
    fn typed(&mut self, mask: u8, text: &str, i: usize, depth: u32) -> Option<usize> {
        let (k, end) = self.skip(text, i, depth)?;
        let fits = mask == ANY_TYPE || !self.f.types || admits_kind(mask, k, self.f.bool_guard);
        fits.then_some(end)
    }

    /// The array at `i`, against rules `a` (none: any items, only read).
    fn array_bytes(
        &mut self,
        a: Option<&ArrRules>,
        text: &str,
        i: usize,
        depth: u32,
    ) -> Option<usize> {
        if depth >= DEPTH {
            return None;
        }
        let b = text.as_bytes();
        let mut count = 0usize;
        let mut j = skip_ws(b, i + 1);
        let end = if b.get(j) == Some(&b']') {
            j + 1
        } else {
            loop {
                let s = a.and_then(|a| a.prefix.get(count).copied().or(a.items));
                j = match s {
                    Some(s) if self.is_false(s) && self.f.values => return None,
                    Some(s) if !self.is_false(s) => self.value_bytes(s, text, j, depth + 1)?,
                    _ => self.skip(text, j, depth + 1)?.1,
                };
                count += 1;
                match after_item(b, j, b']')? {
                    Ok(next) => j = next,
                    Err(end) => break end,
                }
            }
        };
        let Some(a) = a else { return Some(end) };
        (!(self.f.values && outside(a.min_items, a.max_items, count))).then_some(end)
    }

    /// Read past the value at `i`, checking nothing but that it is JSON this walk reads:
    /// its kind and where it ends.
    fn skip(&mut self, text: &str, i: usize, depth: u32) -> Option<(u8, usize)> {
        match *text.as_bytes().get(i)? {
            b'{' => Some((kind::OBJECT, self.object_bytes(None, text, i, depth)?)),
            b'[' => Some((kind::ARRAY, self.array_bytes(None, text, i, depth)?)),
            _ => match value_kind(text, i) {
                Some((k, _, end)) => Some((k, end)),
                None => scalar(text, i).map(|(v, end)| (kind_of(&v), end)),
            },
        }
    }
}

/// The scalar at `i`, built from its text, and where it ends. A string with escapes is read
/// by the strict reader (as when parsed whole, a lone surrogate included).
fn scalar(text: &str, i: usize) -> Option<(Json<'_>, usize)> {
    if let Some((k, t, end)) = value_kind(text, i) {
        return Some((flat_value(k, t)?, end));
    }
    if text.as_bytes().get(i) != Some(&b'"') {
        return None;
    }
    let mut p = Parser::inside_object(text, i);
    let v = p.next_value().ok()?;
    Some((v, p.offset()))
}

/// Is a count of `n` members or items outside `min`..=`max`?
fn outside(min: Option<u64>, max: Option<u64>, n: usize) -> bool {
    let n = n as u64;
    min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m)
}

/// After a member or item that ends at `j`: where the next one starts (`Ok`), or where the
/// object or array that `close` closes ends (`Err`); `None` for anything else.
fn after_item(b: &[u8], j: usize, close: u8) -> Option<Result<usize, usize>> {
    let j = skip_ws(b, j);
    match *b.get(j)? {
        b',' => Some(Ok(skip_ws(b, j + 1))),
        c if c == close => Some(Err(j + 1)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::validate::json::parse;
    use crate::validate::{Rule, Validator, ValidatorRules};

    /// A small random stream (a linear congruential one: the cases are the same each run).
    struct Dice(u64);

    impl Dice {
        fn roll(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) as usize % n
        }
    }

    const KEYS: [&str; 7] = ["q", "tags", "filter", "since", "items", "id", "x"];
    const SCALARS: [&str; 12] = [
        "1",
        "0",
        "2.5",
        "-3",
        "true",
        "null",
        "\"a\"",
        "\"bc\"",
        "\"x y\"",
        "\"2026-02-30\"",
        "\"2026-02-28\"",
        "\"a\\\"b\"",
    ];

    /// A random JSON value up to `depth` deep, in the spacing models write.
    fn value(d: &mut Dice, depth: u32) -> String {
        match (depth, d.roll(6)) {
            (0, _) | (_, 0..=2) => SCALARS[d.roll(SCALARS.len())].to_owned(),
            (_, 3) => {
                let items: Vec<String> = (0..d.roll(4)).map(|_| value(d, depth - 1)).collect();
                format!("[{}]", items.join(", "))
            }
            _ => object(d, depth - 1),
        }
    }

    fn object(d: &mut Dice, depth: u32) -> String {
        let mut parts = Vec::new();
        for _ in 0..d.roll(5) {
            let k = KEYS[d.roll(KEYS.len())];
            // Now and then a key twice, which only the reader may judge.
            if d.roll(20) != 0
                && parts
                    .iter()
                    .any(|p: &String| p.starts_with(&format!("\"{k}\"")))
            {
                continue;
            }
            parts.push(format!("\"{k}\": {}", value(d, depth)));
        }
        format!("{{{}}}", parts.join(", "))
    }

    /// Nested schemas of the shapes real declarations have, and some this walk leaves to
    /// the parsed reading.
    fn schemas() -> Vec<serde_json::Value> {
        let since = json!({"type": "string", "format": "date"});
        let filter = json!({"type": "object", "properties": {"since": since, "id": {"type": "integer", "minimum": 0}}, "required": ["since"], "additionalProperties": false});
        vec![
            json!({"type": "object", "properties": {
                "q": {"type": "string", "minLength": 1},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
                "filter": filter,
                "items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}, "x": {"enum": ["a", 1]}}, "required": ["id"]}, "minItems": 1},
                "x": {"type": ["array", "null"], "prefixItems": [{"type": "integer"}], "items": false}},
                "required": ["q"], "additionalProperties": false}),
            json!({"type": "object", "properties": {
                "filter": {"$ref": "#/$defs/f"},
                "tags": {"anyOf": [{"type": "array", "items": {"type": "number"}}, {"type": "null"}]},
                "items": {"allOf": [{"type": "array"}, {"maxItems": 1}]}},
                "additionalProperties": {"type": ["string", "object"]},
                "minProperties": 1, "maxProperties": 3,
                "$defs": {"f": filter}}),
            json!({"type": "object", "properties": {
                "items": {"type": "array", "uniqueItems": true},
                "filter": {"type": "object", "patternProperties": {"^s": {"type": "string"}}},
                "tags": {"oneOf": [{"type": "array"}, {"type": "object"}]},
                "x": {"type": "object", "properties": {"q": {"const": "a"}}, "dependentRequired": {"q": ["id"]}}}}),
            json!({"city": "str", "tags": "list", "filter": "dict"}),
        ]
    }

    /// The walk says "passed" only where the parsed reading does, under every rule switch,
    /// and for args it reads whole whose schema it follows it says so wherever that reading
    /// does: it is exact, not only safe.
    #[test]
    fn the_byte_walk_passes_exactly_what_the_parsed_reading_passes() {
        let offs = [
            vec![],
            vec![Rule::Required],
            vec![Rule::Unknown],
            vec![Rule::Types],
            vec![Rule::Values],
            vec![Rule::BoolGuard, Rule::Values],
        ];
        let (mut walked, mut passed) = (0, 0);
        let mut d = Dice(7);
        for (which, schema) in schemas().iter().enumerate() {
            let v = Validator::options().compile_value(schema).unwrap();
            for _ in 0..1500 {
                let text = object(&mut d, 3);
                let Ok(args) = parse(&text) else { continue };
                for off in &offs {
                    let rules = ValidatorRules::without(off.iter().copied());
                    let parsed = v.judge(&args, &rules, |_| {});
                    let fast = v.passes_bytes(&text, 0, &rules);
                    if let Some(end) = fast {
                        assert!(parsed, "{schema} {text} {off:?}");
                        assert_eq!(end, text.len(), "{text}");
                    }
                    let followed = which != 2;
                    if followed && parsed {
                        assert!(fast.is_some(), "{schema} {text} {off:?}");
                    }
                    walked += usize::from(fast.is_some());
                    passed += usize::from(parsed);
                }
            }
        }
        assert!(walked > 3000 && passed > walked, "{walked} of {passed}");
    }

    /// What the walk does not read is left to the parsed reading, which words it.
    #[test]
    fn text_the_walk_does_not_read_is_left_to_the_parsed_reading() {
        let v = Validator::options()
            .compile_value(&json!({"type": "object", "properties": {"a": {"type": "array"}}}))
            .unwrap();
        let rules = ValidatorRules::default();
        let deep = format!("{{\"a\": {}1{}}}", "[".repeat(40), "]".repeat(40));
        for text in [
            r#"{"a": [1, 2]}"#,
            r#"{"a": ["x\n\ud800"]}"#,
            r#"{"a": [1, 2], "a": []}"#,
            "{\"a\": [1, \"x\u{1}\"]}",
            r#"{"a": [1, "x\q"]}"#,
            r#"{"a": [1, 2}"#,
            r#"{"a": [01]}"#,
            r#"{"a": [1,]}"#,
            r#"{"a": {"k": 1, "k": 2}}"#,
            deep.as_str(),
        ] {
            let fast = v.passes_bytes(text, 0, &rules);
            let read = [r#"{"a": [1, 2]}"#, r#"{"a": ["x\n\ud800"]}"#].contains(&text);
            assert_eq!(fast.is_some(), read, "{text}");
        }
        // Past the nesting walked, the parsed reading still passes it.
        assert!(v.judge(&parse(&deep).unwrap(), &rules, |_| {}));
    }

    /// A chain of references as long as the quick pass allows is judged alike both ways,
    /// at the top of the args and nested in them.
    #[test]
    fn a_long_reference_chain_meets_the_same_depth_limit_both_ways() {
        for links in [396, 397, 398, 399] {
            let mut defs = serde_json::Map::new();
            for i in 0..links {
                defs.insert(
                    format!("d{i}"),
                    json!({"$ref": format!("#/$defs/d{}", i + 1)}),
                );
            }
            defs.insert(format!("d{links}"), json!({"type": "integer"}));
            let schema = json!({"type": "object", "properties": {
                "a": {"$ref": "#/$defs/d0"},
                "n": {"type": "array", "items": {"items": {"$ref": "#/$defs/d0"}}}},
                "$defs": defs});
            let v = Validator::options().compile_value(&schema).unwrap();
            let rules = ValidatorRules::default();
            for text in [r#"{"a": 1}"#, r#"{"n": [[1]]}"#] {
                let parsed = v.judge(&parse(text).unwrap(), &rules, |_| {});
                let fast = v.passes_bytes(text, 0, &rules);
                assert_eq!(fast.is_some(), parsed, "{links} links, {text}");
            }
        }
    }
}
