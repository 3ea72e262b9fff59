//! The explain block's word-overlap hint: the content words a key point and an answer
//! share, where simple inflections of one word count as the same word. A hint about
//! words, never a grade.

use std::collections::BTreeSet;

const STOPWORDS: &[&str] = &[
    "that", "this", "with", "from", "they", "them", "then", "than", "have", "what", "when",
    "which", "would", "could", "should", "their", "there", "about", "into", "only", "even", "does",
    "because", "were", "will", "your", "just", "also", "more", "most", "some", "such", "each",
    "every", "been", "being", "here", "while", "where", "after", "before", "other",
];

/// Lower-case content words (4+ letters, no common filler words).
pub fn content_words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() >= 4 && !STOPWORDS.contains(&w.as_str()))
        .collect()
}

/// A lower-case word's light stem, so that simple inflections of one word compare equal:
/// plurals (-s, -es, -ies), -ed, -ing, -ation and a final -e (`claims` and `claim`,
/// `checked` and `checking`, `validation` and `validate`). Only a key for comparing: it
/// is never shown.
pub fn stem(word: &str) -> String {
    let has_vowel = |s: &str| s.chars().any(|c| "aeiouy".contains(c));
    let mut s = word.to_owned();
    if let Some(b) = s.strip_suffix("ies").or_else(|| s.strip_suffix("ied"))
        && b.chars().count() >= 2
    {
        s = format!("{b}y");
    } else if let Some(b) = s.strip_suffix("es")
        && ["s", "x", "z", "ch", "sh"].iter().any(|e| b.ends_with(e))
    {
        s = b.to_owned();
    } else if s.ends_with('s') && !["ss", "us", "is"].iter().any(|e| s.ends_with(e)) {
        s.pop();
    }
    for suffix in ["ation", "ing", "ed"] {
        let Some(b) = s.strip_suffix(suffix) else {
            continue;
        };
        if suffix == "ation" && b.chars().count() >= 3 {
            // `validation` as `validate`.
            s = format!("{b}at");
        } else if b.chars().count() >= 3 && has_vowel(b) {
            let mut b: Vec<char> = b.chars().collect();
            // A doubled last consonant comes from the suffix (`running`, `stopped`).
            if let [.., x, y] = b[..]
                && x == y
                && !"aeioulsz".contains(x)
            {
                b.pop();
            }
            s = b.into_iter().collect();
        }
        break;
    }
    if s.chars().count() > 3 && s.ends_with('e') {
        s.pop();
    }
    s
}

/// The stems of `text`'s content words.
pub fn stems(text: &str) -> BTreeSet<String> {
    content_words(text).iter().map(|w| stem(w)).collect()
}

/// The content words of `point` whose stem is among `stems` (in the point's own form,
/// each stem once).
pub fn shared(point: &str, stems: &BTreeSet<String>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    content_words(point)
        .into_iter()
        .filter(|w| {
            let s = stem(w);
            stems.contains(&s) && seen.insert(s)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_inflections_share_a_stem_and_other_words_do_not() {
        for (a, b) in [
            ("casts", "cast"),
            ("claims", "claim"),
            ("boxes", "box"),
            ("matches", "match"),
            ("passes", "pass"),
            ("queries", "query"),
            ("tried", "tries"),
            ("checked", "checking"),
            ("running", "runs"),
            ("validated", "validates"),
            ("validation", "validate"),
            ("calls", "called"),
            ("cases", "case"),
            ("statuses", "status"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} and {b}");
        }
        for (a, b) in [
            ("string", "strings"),
            ("status", "stat"),
            ("cast", "case"),
            ("check", "cheek"),
        ] {
            let same = stem(a) == stem(b);
            assert_eq!(same, a == "string", "{a} and {b}");
        }
    }
}
