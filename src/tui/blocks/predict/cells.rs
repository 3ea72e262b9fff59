//! Fitting a table cell so that what tells its row apart from the others survives: when
//! a cell is too wide, the part shared with other rows is cut from the middle
//! (`{"city": "Par…"days": true}`), never the part that differs.

use crate::text::{fit, width};

/// `text` as drawn in a theme: with ASCII-only drawing, an ellipsis (a cell's mark for
/// what was left out) is written `...` and every other character as a JSON escape
/// (`TKT-\u0661\u0660\u0664`), which also shows what the row is about.
pub(super) fn for_theme(text: &str, ascii: bool) -> String {
    if !ascii || text.is_ascii() {
        return text.to_owned();
    }
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else if c == '…' {
            out.push_str("...");
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out
}

/// Characters two texts share at the start.
fn common_prefix(a: &[char], b: &[char]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Where the shown tail starts for a difference at `d`: at the start of the field or word
/// the difference is in, so the tail reads `"days": true}` rather than `ue}`.
fn tail_start(chars: &[char], d: usize) -> usize {
    let d = d.min(chars.len());
    let back = |limit: usize, stops: &[char]| {
        (d.saturating_sub(limit)..d)
            .rev()
            .find(|&i| stops.contains(&chars[i]))
    };
    let at = back(24, &[',', '{', '[', '(']).or_else(|| back(10, &[' ']));
    match at {
        Some(i) => {
            let mut j = i + 1;
            while j < d && chars[j] == ' ' {
                j += 1;
            }
            j
        }
        None => d.saturating_sub(2),
    }
}

/// The longest start of `chars` that fits in `w` cells.
fn head(chars: &[char], w: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in chars {
        let cw = width(&c.to_string());
        if used + cw > w {
            break;
        }
        used += cw;
        out.push(*c);
    }
    out
}

/// For each of `texts`, the characters it shares at the start with the most alike of the
/// other texts (an equal text is not another). Sorted, the most alike text is a neighbour,
/// so this takes one sort, not a comparison of every pair.
pub(super) fn shared_starts(texts: &[String]) -> Vec<usize> {
    let chars: Vec<Vec<char>> = texts.iter().map(|t| t.chars().collect()).collect();
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by(|&a, &b| texts[a].cmp(&texts[b]));
    // One entry per distinct text, in order, with the texts that spell it.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in &order {
        match groups.last_mut() {
            Some(g) if texts[g[0]] == texts[i] => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut out = vec![0; texts.len()];
    for (k, group) in groups.iter().enumerate() {
        let here = &chars[group[0]];
        let before = k.checked_sub(1).map(|p| &chars[groups[p][0]]);
        let after = groups.get(k + 1).map(|g| &chars[g[0]]);
        let d = [before, after]
            .into_iter()
            .flatten()
            .map(|o| common_prefix(here, o))
            .max()
            .unwrap_or(0);
        for &i in group {
            out[i] = d;
        }
    }
    out
}

/// `text` in exactly `w` cells. When it does not fit, the part where it differs from the
/// other texts of its column stays visible (a middle ellipsis takes what the rows share);
/// `shared` is what `shared_starts` says of it.
pub(super) fn distinct_fit(text: &str, shared: usize, w: usize, ellipsis: &str) -> String {
    let ew = width(ellipsis);
    if width(text) <= w || w < 2 * ew + 6 {
        return fit(text, w, ellipsis);
    }
    let chars: Vec<char> = text.chars().collect();
    let d = shared;
    // The plain cut already shows a few characters past the difference.
    let shown = chars.len().min(d + 3);
    if width(&chars[..shown].iter().collect::<String>()) + ew <= w {
        return fit(text, w, ellipsis);
    }
    let start = tail_start(&chars, d);
    let tail: String = chars[start..].iter().collect();
    let lead = w.saturating_sub(ew + width(&tail));
    if lead >= 4 {
        return fit(
            &format!("{}{ellipsis}{tail}", head(&chars[..start], lead)),
            w,
            ellipsis,
        );
    }
    // Even the tail is too long: start where it starts, or later so that the first
    // differing character and the one after it are still in view.
    let room = w.saturating_sub(2 * ew).max(1);
    let mut from = start;
    while from < d
        && width(
            &chars[from..(d + 2).min(chars.len())]
                .iter()
                .collect::<String>(),
        ) > room
    {
        from += 1;
    }
    let rest: String = chars[from..].iter().collect();
    format!("{ellipsis}{}", fit(&rest, w - ew, ellipsis))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|s| (*s).to_owned()).collect()
    }

    /// Every text of a column fitted in `w` cells.
    fn column(rows: &[String], w: usize) -> Vec<String> {
        let shared = shared_starts(rows);
        rows.iter()
            .zip(shared)
            .map(|(r, d)| distinct_fit(r, d, w, "…"))
            .collect()
    }

    #[test]
    fn shared_starts_match_every_pair_compared() {
        let rows = all(&["abcd", "abxy", "abc", "zzz", "abcd", "", "abcq", "é1", "é2"]);
        let slow: Vec<usize> = rows
            .iter()
            .map(|r| {
                let a: Vec<char> = r.chars().collect();
                rows.iter()
                    .filter(|o| *o != r)
                    .map(|o| common_prefix(&a, &o.chars().collect::<Vec<_>>()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        assert_eq!(shared_starts(&rows), slow);
        assert_eq!(shared_starts(&all(&["same", "same"])), vec![0, 0]);
    }

    #[test]
    fn ascii_drawing_escapes_other_characters() {
        assert_eq!(for_theme("TKT-١٠٤", true), "TKT-\\u0661\\u0660\\u0664");
        assert_eq!(for_theme("TKT-١٠٤", false), "TKT-١٠٤");
        assert_eq!(for_theme("{…, \"n\": 7}", true), "{..., \"n\": 7}");
    }

    #[test]
    fn keeps_the_differing_tail() {
        let rows = all(&[
            r#"{"city": "Paris", "days": true}"#,
            r#"{"city": "Paris", "days": false}"#,
            r#"{"city": "Paris", "days": 3.0}"#,
        ]);
        let cells = column(&rows, 24);
        assert!(cells[0].contains("true"), "{cells:?}");
        assert!(cells[1].contains("false"), "{cells:?}");
        assert!(cells[2].contains("3.0"), "{cells:?}");
        assert!(cells.iter().all(|c| width(c) == 24), "{cells:?}");
        let narrow = column(&rows, 9);
        assert!(
            narrow[0].contains('t') && narrow[1].contains('f'),
            "{narrow:?}"
        );
        assert!(narrow.iter().all(|c| width(c) == 9), "{narrow:?}");
    }

    #[test]
    fn short_text_and_early_difference_are_cut_at_the_end() {
        let rows = all(&["abc", "TKT-104 and a long tail that goes on", "TKT-2"]);
        let cells = column(&rows, 10);
        assert_eq!(cells[0], "abc       ");
        assert_eq!(cells[1], "TKT-104 a…");
    }
}
