//! The fixed declaration as the fixes view shows it: JSON laid out to the width it has (a
//! value that fits on one line stays on one line, so a wide window shows the whole of a
//! short declaration), each line the fixes added or changed marked `+` in a gutter.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::text::width as width_of;
use crate::tui::theme::Theme;

/// Columns of the gutter that marks a changed line.
const GUTTER: usize = 2;

/// Past this many pairs of lines between the first and the last that differ, the lines
/// are shown unmarked (the comparison is quadratic, and it runs on every draw).
const MOST_PAIRS: usize = 1_000_000;

/// The lines of `fixed`, `width` columns wide, those not in `original` (as laid out alike)
/// marked in the gutter.
pub(super) fn lines(
    original: &Value,
    fixed: &Value,
    width: usize,
    t: &Theme,
) -> Vec<Line<'static>> {
    let room = width.saturating_sub(GUTTER).max(8);
    let before = layout(original, room);
    let after = layout(fixed, room);
    let added = added_lines(&before, &after);
    let mut out = Vec::new();
    for (line, new) in after.iter().zip(added) {
        let body = line.trim_start_matches(' ');
        let indent = (line.len() - body.len()).min(room / 2);
        let spans = crate::tui::draw::highlight_json_line(body, t).spans;
        let first = " ".repeat(indent);
        let cont = " ".repeat((indent + 2).min(room / 2));
        let wrapped = crate::tui::markdown::wrap(&spans, room, &first, &cont, t.base);
        for (i, l) in wrapped.into_iter().enumerate() {
            let mark = if new && i == 0 { "+ " } else { "  " };
            let mut spans = vec![Span::styled(mark, t.ok)];
            spans.extend(l.spans);
            out.push(Line::from(spans));
        }
    }
    out
}

/// `v` as lines of JSON at most `width` wide where they can be: an object or array that
/// fits on the rest of its line is written on it, else one member a line, indented by two.
pub(super) fn layout(v: &Value, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    place(v, (0, "", ""), width, &mut out);
    out
}

/// Lay out `v` at `indent`, after `key` (`"name": ` or nothing) and before `end` (`,` or
/// nothing).
fn place(v: &Value, (indent, key, end): (usize, &str, &str), width: usize, out: &mut Vec<String>) {
    let pad = " ".repeat(indent);
    let one = format!("{pad}{key}{}{end}", compact(v));
    let members = match v {
        Value::Object(m) if !m.is_empty() => m.len(),
        Value::Array(a) if !a.is_empty() => a.len(),
        _ => 0,
    };
    if members == 0 || width_of(&one) <= width {
        out.push(one);
        return;
    }
    let (open, close) = if v.is_object() {
        ('{', '}')
    } else {
        ('[', ']')
    };
    out.push(format!("{pad}{key}{open}"));
    let comma = |i: usize| if i + 1 < members { "," } else { "" };
    match v {
        Value::Object(m) => {
            for (i, (k, x)) in m.iter().enumerate() {
                let key = format!("{}: ", compact(&Value::String(k.clone())));
                place(x, (indent + 2, &key, comma(i)), width, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                place(x, (indent + 2, "", comma(i)), width, out);
            }
        }
        _ => {}
    }
    out.push(format!("{pad}{close}{end}"));
}

/// `v` on one line, with a space after each `:` and `,` (as people write it).
fn compact(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, x)| format!("{}: {}", compact(&Value::String(k.clone())), compact(x)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(compact).collect();
            format!("[{}]", parts.join(", "))
        }
        scalar => scalar.to_string(),
    }
}

/// For each line of `after`, whether it is not one of `before`'s kept in order (a longest
/// common run of lines, a trailing comma aside). The lines the two start and end with
/// alike are kept as they are, and only those between compared; none is marked when
/// those are too many to compare.
fn added_lines(before: &[String], after: &[String]) -> Vec<bool> {
    // A line that only gained or lost its comma (a member added after it) is unchanged.
    let bare = |l: &String| l.strip_suffix(',').unwrap_or(l).to_owned();
    let before: Vec<String> = before.iter().map(bare).collect();
    let after: Vec<String> = after.iter().map(bare).collect();
    let head = before
        .iter()
        .zip(&after)
        .take_while(|(a, b)| a == b)
        .count();
    let tail = before[head..]
        .iter()
        .rev()
        .zip(after[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (b, a) = (
        &before[head..before.len() - tail],
        &after[head..after.len() - tail],
    );
    let mut added = vec![false; after.len()];
    if b.len().saturating_mul(a.len()) <= MOST_PAIRS {
        for (mark, new) in added[head..].iter_mut().zip(middle_added(b, a)) {
            *mark = new;
        }
    }
    added
}

/// For each line of `after`, whether it is not in a longest common run of lines with
/// `before`.
fn middle_added(before: &[String], after: &[String]) -> Vec<bool> {
    let (n, m) = (before.len(), after.len());
    // common[i][j]: the longest common run of before[i..] and after[j..].
    let mut common = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            common[i][j] = if before[i] == after[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let mut added = vec![true; m];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if before[i] == after[j] {
            added[j] = false;
            i += 1;
            j += 1;
        } else if common[i + 1][j] >= common[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn what_fits_stays_on_one_line_and_the_rest_opens_up() {
        let v = json!({"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer", "minimum": 1}}, "required": ["q"]});
        assert_eq!(
            layout(&v, 200),
            vec![
                r#"{"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer", "minimum": 1}}, "required": ["q"]}"#
            ]
        );
        assert_eq!(
            layout(&v, 60),
            vec![
                "{",
                r#"  "type": "object","#,
                r#"  "properties": {"#,
                r#"    "q": {"type": "string"},"#,
                r#"    "n": {"type": "integer", "minimum": 1}"#,
                "  },",
                r#"  "required": ["q"]"#,
                "}",
            ]
        );
        // Read back, the lines are the same value.
        let back: Value = serde_json::from_str(&layout(&v, 30).join("\n")).unwrap();
        assert_eq!(back, v);
        assert_eq!(layout(&json!({}), 1), vec!["{}"]);
    }

    #[test]
    fn lines_the_fixes_added_or_changed_are_marked() {
        let before = json!({"properties": {"q": {"type": "string"}, "n": {"type": "integer"}}});
        let after = json!({"properties": {"q": {"type": "string", "maxLength": 256}, "n": {"type": "integer"}}, "additionalProperties": false});
        let t = Theme::new(crate::tui::theme::ThemeName::Mono, false);
        let shown: Vec<String> = lines(&before, &after, 40, &t)
            .iter()
            .map(|l| l.to_string())
            .collect();
        assert_eq!(
            shown,
            vec![
                "  {",
                r#"    "properties": {"#,
                r#"+     "q": {"#,
                r#"+       "type": "string","#,
                r#"+       "maxLength": 256"#,
                "+     },",
                r#"      "n": {"type": "integer"}"#,
                "    },",
                r#"+   "additionalProperties": false"#,
                "  }",
            ]
        );
    }

    #[test]
    fn a_long_declaration_is_compared_between_its_first_and_last_change() {
        let before: Vec<String> = (0..3000).map(|i| format!("\"p{i}\": 1,")).collect();
        let mut after = before.clone();
        after.insert(1500, "\"maxLength\": 256,".to_owned());
        after[1510] = "\"p1509\": 2,".to_owned();
        let added = added_lines(&before, &after);
        let marked: Vec<usize> = (0..added.len()).filter(|&i| added[i]).collect();
        assert_eq!(marked, vec![1500, 1510]);
    }
}
