//! JSON as people read it: a value on one line, or opened up just enough to fit a width,
//! and where a parse error message points.

use serde_json::Value;

use crate::sanitize::clean;
use crate::text::width as width_of;

/// A JSON value on one line (compact, `", "` and `": "` separators for reading).
pub fn json_compact(value: &Value) -> String {
    let mut out = String::new();
    write_compact(value, &mut out);
    clean(&out, false)
}

fn write_compact(value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_compact(v, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push_str(": ");
                write_compact(v, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// JSON for a small editor: containers are opened up only when their one-line form does
/// not fit in `width` cells at their indent, so short objects stay on one line.
pub fn json_semi_pretty(value: &Value, width: usize) -> String {
    let mut out = String::new();
    write_semi(value, 0, 0, width, &mut out);
    out
}

/// `lead`: cells already on the line after the indent (a key and `": "`).
fn write_semi(value: &Value, indent: usize, lead: usize, width: usize, out: &mut String) {
    let mut compact = String::new();
    write_compact(value, &mut compact);
    // +1 for the comma that may follow.
    let fits = indent + lead + width_of(&compact) < width;
    let pad = " ".repeat(indent + 2);
    match value {
        Value::Object(map) if !fits && !map.is_empty() => {
            out.push_str("{\n");
            for (i, (k, v)) in map.iter().enumerate() {
                out.push_str(&pad);
                let key = Value::String(k.clone()).to_string();
                out.push_str(&key);
                out.push_str(": ");
                write_semi(v, indent + 2, width_of(&key) + 2, width, out);
                if i + 1 < map.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.push_str(&" ".repeat(indent));
            out.push('}');
        }
        Value::Array(items) if !fits && !items.is_empty() => {
            out.push_str("[\n");
            for (i, v) in items.iter().enumerate() {
                out.push_str(&pad);
                write_semi(v, indent + 2, 0, width, out);
                if i + 1 < items.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.push_str(&" ".repeat(indent));
            out.push(']');
        }
        _ => out.push_str(&compact),
    }
}

/// Pull `line L column C` out of a parse error message (serde_json's wording).
pub fn line_col(message: &str) -> Option<(usize, usize)> {
    let idx = message.rfind("line ")?;
    let rest = &message[idx + 5..];
    let mut parts = rest.split_whitespace();
    let line: usize = parts.next()?.trim_end_matches(',').parse().ok()?;
    if parts.next()? != "column" {
        return None;
    }
    let col: usize = parts
        .next()?
        .trim_end_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .ok()?;
    Some((line, col))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semi_pretty_keeps_short_containers_inline_and_stays_json() {
        let v: Value = serde_json::from_str(
            r#"{"schema": {"city": "str", "days": "int"}, "required": ["city"], "long": {"a": [1, 2, 3], "b": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}"#,
        )
        .unwrap();
        let text = json_semi_pretty(&v, 44);
        assert!(
            text.contains("  \"schema\": {\"city\": \"str\", \"days\": \"int\"},\n"),
            "{text}"
        );
        assert!(text.contains("    \"a\": [1, 2, 3],\n"), "{text}");
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn line_col_reads_serde_messages() {
        assert_eq!(
            line_col("invalid JSON: expected value at line 2 column 5"),
            Some((2, 5))
        );
        assert_eq!(line_col("unknown arg: x"), None);
    }
}
