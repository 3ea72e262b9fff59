//! Plain-text helpers measured in terminal cells: width, greedy word wrap, truncation with
//! an ellipsis, and the text of a drawn buffer; counts in words (`1,164 tool calls`); and the
//! words of a name (`maxResults`: max, results).
//! A leaf: it uses nothing else of the crate.

use ratatui::buffer::Buffer;
use unicode_width::UnicodeWidthStr;

use crate::sanitize::clean;

/// Display width of a string in terminal cells.
pub(crate) fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

fn char_width(ch: char) -> usize {
    width(ch.encode_utf8(&mut [0; 4]))
}

/// The longest prefix of `s` that fits in `max` cells.
fn prefix_within(s: &str, max: usize) -> &str {
    let mut used = 0;
    for (i, ch) in s.char_indices() {
        let w = char_width(ch);
        if used + w > max {
            return &s[..i];
        }
        used += w;
    }
    s
}

/// Cut `s` to at most `max` cells, ending with `ellipsis` when cut. When even the
/// ellipsis does not fit, the first `max` characters are kept without it.
pub fn truncate(s: &str, max: usize, ellipsis: &str) -> String {
    if width(s) <= max {
        return s.to_owned();
    }
    let ew = width(ellipsis);
    if max <= ew {
        return s.chars().take(max).collect();
    }
    let mut out = prefix_within(s, max - ew).to_owned();
    out.push_str(ellipsis);
    out
}

/// Pad or cut to exactly `w` cells.
pub fn fit(s: &str, w: usize, ellipsis: &str) -> String {
    let mut out = truncate(s, w, ellipsis);
    let have = width(&out);
    if have < w {
        out.push_str(&" ".repeat(w - have));
    }
    out
}

/// Greedy word wrap into lines of at most `max` cells; words longer than a line are
/// split. Explicit newlines start a new line; runs of spaces collapse to one.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut out = Vec::new();
    for para in text.split('\n') {
        let mut line = Line::default();
        for word in para.split_whitespace() {
            line.place(word, max, &mut out);
        }
        out.push(line.text);
    }
    out
}

/// As [`wrap`], but a bracketed group (`(pages 2, 4)`) that fits on a line is not broken:
/// the line breaks before it instead.
pub fn wrap_keeping_groups(text: &str, max: usize) -> Vec<String> {
    wrap_keeping(text, max, |words| {
        let closes = |w: &str| w.trim_end_matches([',', ';', '.', ':']).ends_with(')');
        (0..words.len())
            .map(|i| {
                let opens = words[i].starts_with('(') && !closes(words[i]);
                opens.then(|| (i + 1..words.len()).find(|&j| closes(words[j])))?
            })
            .collect()
    })
}

/// As [`wrap`], but a double-quoted string (a JSON string in a call's arguments, a value
/// a message quotes) that fits on a line is not broken at its spaces: the line breaks
/// before it instead, so a break never reads as a newline inside the string. A longer one
/// breaks at its spaces as [`wrap`] would.
pub fn wrap_keeping_strings(text: &str, max: usize) -> Vec<String> {
    wrap_keeping(text, max, |words| {
        let mut open = false;
        (0..words.len())
            .map(|i| {
                let opens = !open && odd_quotes(words[i]);
                open ^= odd_quotes(words[i]);
                // The word that closes the string word `i` opens, if one does.
                let mut still_open = opens;
                opens.then(|| {
                    (i + 1..words.len()).find(|&j| {
                        still_open ^= odd_quotes(words[j]);
                        !still_open
                    })
                })?
            })
            .collect()
    })
}

/// As [`wrap`], but the words from `i` to `ends(words)[i]` (a group that opens at word `i`
/// and closes there) go on one line where they fit: the line breaks before them instead.
/// A group longer than a line breaks as words do.
fn wrap_keeping(
    text: &str,
    max: usize,
    ends: impl Fn(&[&str]) -> Vec<Option<usize>>,
) -> Vec<String> {
    let max = max.max(1);
    let mut out = Vec::new();
    for para in text.split('\n') {
        let mut line = Line::default();
        let words: Vec<&str> = para.split_whitespace().collect();
        let ends = ends(&words);
        let mut i = 0;
        while i < words.len() {
            let group = ends[i].map(|end| (end, words[i..=end].join(" ")));
            match group {
                Some((end, group)) if width(&group) <= max => {
                    line.place(&group, max, &mut out);
                    i = end + 1;
                }
                _ => {
                    line.place(words[i], max, &mut out);
                    i += 1;
                }
            }
        }
        out.push(line.text);
    }
    out
}

/// Does `word` hold an odd number of double quotes not escaped by a backslash (so that it
/// opens or closes a string)?
fn odd_quotes(word: &str) -> bool {
    let mut odd = false;
    let mut escaped = false;
    for c in word.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => odd = !odd,
            _ => {}
        }
    }
    odd
}

/// Wrap into lines of at most `max` cells without losing a character: a line breaks after
/// a run of spaces, which stays at the end of the line with the word before it (and goes on
/// to the next line when even alone they do not fit), a word longer than a line is split, and
/// explicit newlines start a new line. Joined with the newlines, the lines are the text again:
/// unlike [`wrap`], which collapses runs of spaces, this is for text whose every space counts.
pub fn wrap_exact(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut out = Vec::new();
    for para in text.split('\n') {
        let mut line = Line::default();
        let mut rest = para;
        while !rest.is_empty() {
            let word_end = rest.find(' ').unwrap_or(rest.len());
            let end = rest[word_end..]
                .find(|c: char| c != ' ')
                .map_or(rest.len(), |i| word_end + i);
            let (word, spaces) = rest[..end].split_at(word_end);
            if line.width + width(word) + spaces.len() > max && !line.text.is_empty() {
                line.close(&mut out);
            }
            line.append(word, false, max, &mut out);
            line.append(spaces, true, max, &mut out);
            rest = &rest[end..];
        }
        out.push(line.text);
    }
    out
}

/// The line being filled by [`wrap`] or [`wrap_exact`], with its width so far.
#[derive(Default)]
struct Line {
    text: String,
    width: usize,
}

impl Line {
    /// Add one word, closing lines into `out` as they fill up.
    fn place(&mut self, word: &str, max: usize, out: &mut Vec<String>) {
        let mut word = word;
        loop {
            let ww = width(word);
            let need = if self.text.is_empty() {
                ww
            } else {
                self.width + 1 + ww
            };
            if need <= max {
                if !self.text.is_empty() {
                    self.text.push(' ');
                }
                self.text.push_str(word);
                self.width = need;
                return;
            }
            if !self.text.is_empty() {
                out.push(std::mem::take(&mut self.text));
                self.width = 0;
                continue;
            }
            // A word longer than the line: split it.
            let head = prefix_within(word, max);
            if head.is_empty() {
                // A single character wider than the line.
                out.push(word.to_owned());
                return;
            }
            out.push(head.to_owned());
            word = &word[head.len()..];
            if word.is_empty() {
                return;
            }
        }
    }

    /// Add `piece` (a run of spaces, or a word) right after what is there, closing lines into
    /// `out` as they fill up: a word that does not fit starts the next line (and is split
    /// when it is longer than a line), spaces fill the line and run on to the next.
    fn append(&mut self, piece: &str, spaces: bool, max: usize, out: &mut Vec<String>) {
        let mut rest = piece;
        while !rest.is_empty() {
            let room = max.saturating_sub(self.width);
            let w = width(rest);
            if w <= room {
                self.text.push_str(rest);
                self.width += w;
                return;
            }
            if !spaces && !self.text.is_empty() {
                self.close(out);
                continue;
            }
            let mut head = prefix_within(rest, room);
            if head.is_empty() {
                if !self.text.is_empty() {
                    self.close(out);
                    continue;
                }
                // A single character wider than the line: a line of its own.
                head = rest.chars().next().map_or(rest, |c| &rest[..c.len_utf8()]);
            }
            self.text.push_str(head);
            self.width += width(head);
            rest = &rest[head.len()..];
        }
    }

    fn close(&mut self, out: &mut Vec<String>) {
        out.push(std::mem::take(&mut self.text));
        self.width = 0;
    }
}

/// The screen as a reader sees it: one line per row, the cells a wide character covers
/// read once, trailing spaces trimmed.
pub fn screen_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let mut line = String::new();
        let mut skip = 0;
        for x in area.left()..area.right() {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let sym = buf.cell((x, y)).map_or(" ", |c| c.symbol());
            line.push_str(if sym.is_empty() { " " } else { sym });
            skip = width(sym).saturating_sub(1);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Every cell's symbol as it is stored, one line per row, nothing trimmed: the exact
/// grid a region was drawn as.
pub fn cell_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// Indices as ranges counted from 1, for people: `[3, 4, 5, 7]` reads `4-6, 8`.
pub(crate) fn number_ranges(nums: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < nums.len() {
        let mut j = i;
        while j + 1 < nums.len() && nums[j + 1] == nums[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            format!("{}", nums[i] + 1)
        } else {
            format!("{}-{}", nums[i] + 1, nums[j] + 1)
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// Untrusted prose from a lesson (a question, a choice, a model answer): cleaned for the
/// terminal, single line breaks joined into spaces (Markdown soft breaks), blank lines kept
/// as paragraph breaks.
pub fn prose(text: &str) -> String {
    let cleaned = clean(text, true);
    let mut paras: Vec<String> = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    for line in cleaned.lines() {
        if line.trim().is_empty() {
            if !cur.is_empty() {
                paras.push(cur.join(" "));
                cur.clear();
            }
        } else {
            cur.push(line.trim());
        }
    }
    if !cur.is_empty() {
        paras.push(cur.join(" "));
    }
    paras.join("\n")
}

/// `1,164`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `1 tool call`, `2 tool calls`, `1,164 tool calls`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// A name's words, lower case: split at `_`, `-` and other marks, where a lower-case
/// letter meets an upper-case one (`maxResults`: max, results), and between letters and
/// digits (`quantity1`: quantity, 1).
pub fn name_words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            prev = None;
            out.push(String::new());
            continue;
        }
        let split = prev.is_some_and(|p| {
            (p.is_lowercase() && c.is_uppercase()) || (p.is_numeric() != c.is_numeric())
        });
        if split {
            out.push(String::new());
        }
        prev = Some(c);
        match out.last_mut() {
            Some(w) => w.extend(c.to_lowercase()),
            None => out.push(c.to_lowercase().collect()),
        }
    }
    out.retain(|w| !w.is_empty());
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_count_in_words_has_its_thousands_marked() {
        assert_eq!(super::plural(0, "call", "calls"), "0 calls");
        assert_eq!(super::plural(1, "retry", "retries"), "1 retry");
        assert_eq!(super::plural(999, "turn", "turns"), "999 turns");
        assert_eq!(
            super::plural(1164, "tool call", "tool calls"),
            "1,164 tool calls"
        );
        assert_eq!(super::thousands(1_000_000), "1,000,000");
    }

    #[test]
    fn a_bracketed_group_that_fits_wraps_whole() {
        let text = "2 left: the quiz (page 4), unread (page 2)";
        assert_eq!(
            wrap_keeping_groups(text, 39),
            ["2 left: the quiz (page 4), unread", "(page 2)"]
        );
        assert_eq!(wrap(text, 39)[0], "2 left: the quiz (page 4), unread (page");
        // A group longer than a line breaks as words do.
        assert_eq!(wrap_keeping_groups("a (b c d e)", 5), ["a (b", "c d", "e)"]);
        assert_eq!(
            wrap_keeping_groups("x (pages 2, 4), y", 40),
            ["x (pages 2, 4), y"]
        );
    }

    use super::*;

    #[test]
    fn a_quoted_string_that_fits_is_never_broken_at_its_spaces() {
        // Compact JSON has no spaces but those in its strings: it moves to a line of its own.
        let args = r#"passed | {"query":"login timeout","page_size":20}"#;
        assert_eq!(
            wrap_keeping_strings(args, 42),
            ["passed |", r#"{"query":"login timeout","page_size":20}"#]
        );
        assert_eq!(wrap(args, 42)[1], r#"timeout","page_size":20}"#);
        // Where the string fits, the line breaks before it, never inside it.
        let lines = wrap_keeping_strings(r#"got "a b c" then more words here"#, 10);
        assert_eq!(lines, ["got", "\"a b c\"", "then more", "words here"]);
        assert_eq!(
            wrap(r#"got "a b c" then more words here"#, 10)[0],
            "got \"a b"
        );
        // An escaped quote does not close the string.
        let lines = wrap_keeping_strings(r#"x "say \"hi there\" now" y"#, 22);
        assert_eq!(lines, ["x", r#""say \"hi there\" now""#, "y"]);
        // A string longer than a line breaks at its spaces, as wrap does.
        let long = r#"{"q":"one two three four five six"}"#;
        assert_eq!(wrap_keeping_strings(long, 12), wrap(long, 12));
        // An unclosed quote keeps nothing together that does not fit.
        let lines = wrap_keeping_strings(r#"a "b c d e f g h i j k l m"#, 6);
        assert!(lines.iter().all(|l| width(l) <= 6), "{lines:?}");
    }

    #[test]
    fn prose_joins_soft_breaks_and_keeps_paragraphs() {
        assert_eq!(prose("a\nb\n\nc\u{1b}"), "a b\nc\u{241b}");
        assert_eq!(prose("  one  \n"), "one");
    }

    #[test]
    fn wrap_splits_on_words_and_long_words() {
        assert_eq!(wrap("one two three", 7), vec!["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("a\nb", 10), vec!["a", "b"]);
        assert_eq!(wrap("", 5), vec![""]);
        assert_eq!(wrap("ab 日本語", 4), vec!["ab", "日本", "語"]);
    }

    #[test]
    fn wrap_exact_keeps_every_space_and_tab_where_wrap_collapses_them() {
        assert_eq!(wrap("a  b", 10), vec!["a b"]);
        assert_eq!(wrap_exact("a  b", 10), vec!["a  b"]);
        assert_eq!(
            wrap_exact("one two three", 7),
            vec!["one ", "two ", "three"]
        );
        assert_eq!(wrap_exact("ab   cd", 3), vec!["ab ", "  ", "cd"]);
        assert_eq!(wrap_exact("  lead", 4), vec!["  ", "lead"]);
        assert_eq!(wrap_exact("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap_exact("ab 日本語", 4), vec!["ab ", "日本", "語"]);
        assert_eq!(wrap_exact("日", 1), vec!["日"]);
        assert_eq!(wrap_exact("", 5), vec![""]);
        let texts = [
            "(False, \"missing required arg:  city\")",
            "  x \t y  \n\n trailing   ",
            "aaaa bbbb  cccc   dddd    eeee     ffff",
        ];
        for text in texts {
            for max in 1..12 {
                let lines = wrap_exact(text, max);
                assert_eq!(lines.join(""), text.replace('\n', ""), "{text:?} at {max}");
                assert!(lines.iter().all(|l| width(l) <= max), "{lines:?}");
            }
        }
    }

    #[test]
    fn truncate_adds_ellipsis() {
        assert_eq!(truncate("abcdef", 4, "..."), "a...");
        assert_eq!(truncate("abc", 4, "..."), "abc");
        assert_eq!(truncate("日本語", 5, "…"), "日本…");
        assert_eq!(fit("ab", 4, "~"), "ab  ");
        assert_eq!(width("日本"), 4);
    }

    #[test]
    fn buffer_texts_differ_only_in_trimming_and_wide_cells() {
        let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 5, 1));
        buf.set_string(0, 0, "日x", ratatui::style::Style::default());
        assert_eq!(screen_text(&buf), "日x\n");
        let cells = cell_text(&buf);
        assert_eq!(cells.chars().filter(|c| *c == '日').count(), 1);
        assert!(cells.ends_with("  \n"), "{cells:?}");
    }

    #[test]
    fn indices_read_as_ranges_from_one() {
        assert_eq!(number_ranges(&[0]), "1");
        assert_eq!(number_ranges(&[3, 4, 5, 7]), "4-6, 8");
        assert_eq!(number_ranges(&[]), "");
    }
}
