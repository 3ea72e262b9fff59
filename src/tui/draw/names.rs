//! Names cut in the middle when too long (`update_res…baggages`), so that names sharing a
//! start, an end or both still read apart: what each name shares with the most alike other,
//! and the cut that keeps the part where it differs in view.

use crate::text::{truncate, width};

/// What a name shares with the most alike other name: characters at its start, and at
/// its end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shared {
    pub start: usize,
    pub end: usize,
}

/// For each of `names`, the characters it shares at the start with the most alike of the
/// others (an equal name is not another, so equal names get the same answer). Sorted, the
/// most alike other name is next to the run of names equal to it.
fn shared_starts(names: &[Vec<char>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| names[a].cmp(&names[b]));
    let common = |a: &[char], b: &[char]| a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let mut out = vec![0; names.len()];
    let mut first = 0;
    while first < order.len() {
        let name = &names[order[first]];
        let end = first + order[first..].partition_point(|&j| names[j] == *name);
        let near = [first.checked_sub(1), Some(end)];
        let most = near
            .into_iter()
            .flatten()
            .filter_map(|j| order.get(j))
            .map(|&j| common(name, &names[j]))
            .max()
            .unwrap_or(0);
        for &i in &order[first..end] {
            out[i] = most;
        }
        first = end;
    }
    out
}

/// What each of `names` shares with the most alike other, at its start and at its end.
pub fn shared(names: &[String]) -> Vec<Shared> {
    let fwd: Vec<Vec<char>> = names.iter().map(|n| n.chars().collect()).collect();
    let back: Vec<Vec<char>> = fwd
        .iter()
        .map(|n| n.iter().rev().copied().collect())
        .collect();
    shared_starts(&fwd)
        .into_iter()
        .zip(shared_starts(&back))
        .map(|(start, end)| Shared { start, end })
        .collect()
}

/// `s` in at most `w` cells; when too long, its start and end with an ellipsis between
/// (`update_res…baggages`), cut so that the part where it differs from the most alike
/// other name (`alike`) stays in view when it can.
pub fn cut_middle(s: &str, w: usize, ellipsis: &str, alike: Shared) -> String {
    let ew = width(ellipsis);
    if width(s) <= w {
        return s.to_owned();
    }
    if w < ew + 2 {
        return truncate(s, w, ellipsis);
    }
    let chars: Vec<char> = s.chars().collect();
    let room = w - ew;
    // The start a little longer than the end, unless the difference needs otherwise.
    let even = room / 2 + 1;
    let head_n = if alike.start < even {
        even
    } else if alike.start + 2 <= room {
        alike.start + 1
    } else if alike.end + 2 <= room {
        room - (alike.end + 1).max(room - even)
    } else {
        even
    }
    .min(room - 1);
    let head = truncate(s, head_n, "");
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in chars.iter().rev() {
        let cw = width(c.encode_utf8(&mut [0; 4]));
        if used + cw > room - width(&head) {
            break;
        }
        used += cw;
        tail.push(*c);
    }
    let tail: String = tail.into_iter().rev().collect();
    format!("{head}{ellipsis}{tail}")
}

#[cfg(test)]
mod tests {
    use super::{cut_middle, shared};

    /// Every name of `names` cut to `w` cells.
    fn cut_all(names: &[&str], w: usize, ellipsis: &str) -> Vec<String> {
        let owned: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        let alike = shared(&owned);
        names
            .iter()
            .zip(alike)
            .map(|(n, a)| cut_middle(n, w, ellipsis, a))
            .collect()
    }

    fn all_differ(cut: &[String]) -> bool {
        cut.iter()
            .enumerate()
            .all(|(i, c)| !cut[i + 1..].contains(c))
    }

    #[test]
    fn a_middle_cut_keeps_both_ends_apart() {
        let names = [
            "update_reservation_baggages",
            "update_reservation_flights",
            "update_reservation_passengers",
            "list_directory",
            "list_directory_with_sizes",
            "search_direct_flight",
            "search_onestop_flight",
        ];
        for (w, ellipsis) in [10, 14, 19, 24]
            .into_iter()
            .flat_map(|w| [(w, "…"), (w + 2, "...")])
        {
            let cut = cut_all(&names, w, ellipsis);
            assert!(all_differ(&cut), "{cut:?}");
            assert!(cut.iter().all(|c| crate::text::width(c) <= w), "{cut:?}");
        }
        let cut = cut_all(&names, 19, "…");
        assert_eq!(cut[0], "update_res…baggages");
        assert_eq!(cut[3], "list_directory");
        assert_eq!(cut_all(&names, 14, "…")[5], "search_d…light");
    }
}
