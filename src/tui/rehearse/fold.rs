//! A prompt's JSON laid out compactly for a body of a given width: one member a line, a
//! nested value kept on one line where it fits, a nested value of plain members (a
//! property's `{"type": ..., "maxLength": ...}`, an `enum` list) filled onto as few lines as
//! it takes, and the brackets that close a value at the end of its last member's line.
//! Only the whitespace between tokens changes: every token stays as written (a number as
//! long as it is, a repeated key repeated, an escape escaped), since the question may be
//! about exactly that; a token longer than a line goes on over the next.

use crate::text::{width as width_of, wrap_exact};

/// One JSON value, each scalar and key kept as its own text.
enum Node {
    Leaf(String),
    Object(Vec<(String, Node)>),
    Array(Vec<Node>),
}

/// `text` (after a leading name, as in `find_tickets {...}`, which stays on the first line
/// after `lead`) laid out in lines of at most `width` cells. `None` when the text is not
/// one JSON object or array, or when a line would still not fit (then the text is wrapped
/// as it is).
pub(super) fn fold(text: &str, lead: &str, width: usize) -> Option<Vec<String>> {
    let at = text.find(['{', '['])?;
    let (name, json) = text.split_at(at);
    // Any JSON value at all: no map is built, so a repeated key is not a refusal.
    serde_json::from_str::<serde::de::IgnoredAny>(json).ok()?;
    let mut chars = json.chars().peekable();
    let node = parse(&mut chars)?;
    skip_space(&mut chars);
    if chars.next().is_some() {
        return None;
    }
    let mut out = Vec::new();
    let first = format!("{lead}{name}");
    layout(&node, (0, &first, ""), width, &mut out);
    out.iter().all(|l| width_of(l) <= width).then_some(out)
}

/// A container's members, each with what goes before it, and its two brackets.
type Members<'a> = (Vec<(String, &'a Node)>, char, char);

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

fn skip_space(chars: &mut Chars) {
    while chars.next_if(|c| c.is_whitespace()).is_some() {}
}

/// One value from `chars` (already known to be valid JSON).
fn parse(chars: &mut Chars) -> Option<Node> {
    skip_space(chars);
    match *chars.peek()? {
        '{' => {
            chars.next();
            let mut members = Vec::new();
            loop {
                skip_space(chars);
                if chars.next_if_eq(&'}').is_some() {
                    return Some(Node::Object(members));
                }
                let Node::Leaf(key) = parse(chars)? else {
                    return None;
                };
                skip_space(chars);
                chars.next_if_eq(&':')?;
                members.push((key, parse(chars)?));
                skip_space(chars);
                chars.next_if_eq(&',');
            }
        }
        '[' => {
            chars.next();
            let mut items = Vec::new();
            loop {
                skip_space(chars);
                if chars.next_if_eq(&']').is_some() {
                    return Some(Node::Array(items));
                }
                items.push(parse(chars)?);
                skip_space(chars);
                chars.next_if_eq(&',');
            }
        }
        '"' => {
            let mut s = String::from(chars.next()?);
            let mut escaped = false;
            for c in chars.by_ref() {
                s.push(c);
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => return Some(Node::Leaf(s)),
                    _ => {}
                }
            }
            None
        }
        _ => {
            let mut s = String::new();
            while let Some(c) = chars.next_if(|c| !c.is_whitespace() && !",:]}".contains(*c)) {
                s.push(c);
            }
            (!s.is_empty()).then_some(Node::Leaf(s))
        }
    }
}

impl Node {
    /// The value on one line.
    fn flat(&self) -> String {
        match self {
            Node::Leaf(s) => s.clone(),
            Node::Object(m) => {
                let inner: Vec<String> = m
                    .iter()
                    .map(|(k, v)| format!("{k}: {}", v.flat()))
                    .collect();
                format!("{{{}}}", inner.join(", "))
            }
            Node::Array(a) => {
                let inner: Vec<String> = a.iter().map(Node::flat).collect();
                format!("[{}]", inner.join(", "))
            }
        }
    }

    /// The members with what goes before each (`"key": ` in an object), and the brackets.
    fn members(&self) -> Option<Members<'_>> {
        match self {
            Node::Leaf(_) => None,
            Node::Object(m) => Some((
                m.iter().map(|(k, v)| (format!("{k}: "), v)).collect(),
                '{',
                '}',
            )),
            Node::Array(a) => Some((a.iter().map(|v| (String::new(), v)).collect(), '[', ']')),
        }
    }

    /// A value of plain members: each a scalar or a container of scalars, and (in an
    /// object) at least one a scalar: a property's settings, a list of words, a list of
    /// small records. Such a value is filled, not laid out a member a line; `properties`,
    /// whose every member is an object, is not.
    fn plain(&self) -> bool {
        let leaf = |n: &Node| matches!(n, Node::Leaf(_));
        let Some((members, ..)) = self.members() else {
            return false;
        };
        (matches!(self, Node::Array(_)) || members.iter().any(|(_, v)| leaf(v)))
            && members.iter().all(|(_, v)| {
                v.members()
                    .is_none_or(|(inner, ..)| inner.iter().all(|(_, n)| leaf(n)))
            })
    }
}

/// Lay `node` out at `depth` (two spaces each), after `before` and followed by `after`.
fn layout(
    node: &Node,
    (depth, before, after): (usize, &str, &str),
    w: usize,
    out: &mut Vec<String>,
) {
    let indent = "  ".repeat(depth);
    let one = format!("{indent}{before}{}{after}", node.flat());
    let Some((members, open, close)) =
        (node.members()).filter(|(m, ..)| width_of(&one) > w && !m.is_empty())
    else {
        if width_of(&one) <= w || depth == 0 {
            out.push(one);
        } else {
            // A scalar too long for a line: split, the rest hanging under it.
            let room = w.saturating_sub(indent.len() + 2).max(8);
            let text = format!("{before}{}{after}", node.flat());
            for (i, part) in wrap_exact(&text, room).into_iter().enumerate() {
                let pad = if i == 0 { "" } else { "  " };
                out.push(format!("{indent}{pad}{part}"));
            }
        }
        return;
    };
    let last = members.len().saturating_sub(1);
    if depth > 0 && node.plain() {
        fill(&members, (&indent, before, after), (open, close), w, out);
        return;
    }
    // The brackets that close a value end its last member's line.
    out.push(format!("{indent}{before}{open}"));
    for (i, (key, v)) in members.iter().enumerate() {
        let end = if i < last {
            ",".to_owned()
        } else {
            format!("{close}{after}")
        };
        layout(v, (depth + 1, key, &end), w, out);
    }
}

/// Members flat, as many a line as fit: the first after `before` and the bracket, the rest
/// hanging two spaces in.
fn fill(
    members: &[(String, &Node)],
    (indent, before, after): (&str, &str, &str),
    (open, close): (char, char),
    w: usize,
    out: &mut Vec<String>,
) {
    let hang = format!("{indent}  ");
    let room = w.saturating_sub(hang.len()).max(8);
    let last = members.len().saturating_sub(1);
    let mut line = format!("{indent}{before}{open}");
    let mut fresh = true;
    for (i, (key, v)) in members.iter().enumerate() {
        let end = if i < last {
            ",".to_owned()
        } else {
            format!("{close}{after}")
        };
        let item = format!("{key}{}{end}", v.flat());
        let gap = if fresh { "" } else { " " };
        if width_of(&line) + gap.len() + width_of(&item) <= w {
            line.push_str(gap);
            line.push_str(&item);
            fresh = false;
            continue;
        }
        out.push(std::mem::replace(&mut line, hang.clone()));
        let parts = wrap_exact(&item, room);
        let n = parts.len();
        for (j, part) in parts.into_iter().enumerate() {
            line.push_str(&part);
            if j + 1 < n {
                out.push(std::mem::replace(&mut line, hang.clone()));
            }
        }
        fresh = false;
    }
    out.push(line);
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn a_folded_prompt_keeps_every_token_as_written() {
        let text = r#"{"city": "Paris", "days": 123456789012345678901234567890, "n": 1e2, "s": "a\u202eb, {\"x\": [1]}", "e": {}, "l": []}"#;
        let laid = fold(text, "", 60).expect("one JSON object");
        assert_eq!(
            laid,
            [
                "{",
                r#"  "city": "Paris","#,
                r#"  "days": 123456789012345678901234567890,"#,
                r#"  "n": 1e2,"#,
                r#"  "s": "a\u202eb, {\"x\": [1]}","#,
                r#"  "e": {},"#,
                r#"  "l": []}"#,
            ]
        );
        // What fits on one line stays on one line.
        let one = fold(text, "args: ", 200).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(
            one[0].split_whitespace().collect::<String>(),
            format!("args: {text}")
                .split_whitespace()
                .collect::<String>()
        );
    }

    #[test]
    fn a_repeated_key_stays_repeated_and_a_name_stays_in_front() {
        let laid = fold(
            r#"get_ticket {"ticket_id": "TKT-999", "ticket_id": "TKT-104"}"#,
            "schema: ",
            40,
        )
        .expect("laid out");
        assert_eq!(
            laid,
            [
                "schema: get_ticket {",
                r#"  "ticket_id": "TKT-999","#,
                r#"  "ticket_id": "TKT-104"}"#,
            ]
        );
    }

    #[test]
    fn a_property_folds_to_one_line_where_it_fits_and_fills_where_it_does_not() {
        let text = r#"t {"type": "object", "properties": {"repo": {"type": "string", "maxLength": 256}, "query": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Words to look for."}, "state": {"enum": ["open", "closed", "all"]}}, "required": ["repo"]}"#;
        let laid = fold(text, "schema: ", 64).expect("laid out");
        assert_eq!(
            laid,
            [
                "schema: t {",
                r#"  "type": "object","#,
                r#"  "properties": {"#,
                r#"    "repo": {"type": "string", "maxLength": 256},"#,
                r#"    "query": {"type": "string", "minLength": 1,"#,
                r#"      "maxLength": 200, "description": "Words to look for."},"#,
                r#"    "state": {"enum": ["open", "closed", "all"]}},"#,
                r#"  "required": ["repo"]}"#,
            ]
        );
    }

    #[test]
    fn a_line_too_wide_or_a_text_that_is_not_json_is_left_to_wrap() {
        assert_eq!(fold(r#"{"a": 1"#, "", 80), None);
        assert_eq!(fold("execute_tool(\"x\", {})", "", 80), None);
        assert_eq!(
            fold(r#"{"a_very_long_key_name": {"b": 1, "c": 2}}"#, "", 10),
            None
        );
        // A string longer than a line is split, the rest hanging under it.
        let long = format!(r#"{{"p": {{"note": "{}", "n": 1}}}}"#, "x".repeat(60));
        let laid = fold(&long, "", 40).expect("laid out");
        assert!(laid.iter().all(|l| l.chars().count() <= 40), "{laid:#?}");
        assert_eq!(laid.concat().matches('x').count(), 60, "{laid:#?}");
    }
}
