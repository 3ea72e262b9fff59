//! The course's own words: no lesson sentence follows a seed document's sentence.
//!
//! The seeds (the three documents the product came from) live in the shared folder, not in
//! the repository, so this is a test and not part of `tooldojo check`. It reads every
//! `lessons/NN-*.md`, keeps the prose, and fails on either kind of hit:
//!
//! - an exact run: 8 or more words in a row that a seed has in the same order;
//! - a near run: 12 words in a row that a seed has in the same order with at most two of them
//!   swapped for other words (the "synonyms swapped" copy).
//!
//! Both sides are normalised the same way: lower case, and a word is a run of letters and
//! digits, so punctuation, quotes, apostrophes and line breaks do not matter.
//!
//! What is not prose, and so not compared:
//! - fenced blocks (code, JSON, trace timelines, playground arguments), except the bodies of
//!   `quiz`, `explain` and `checklist` blocks, which learners read as prose and are compared;
//! - code spans (`` `missing required arg: city` ``, `` `budget_exhausted` ``, identifiers,
//!   error strings, fixture values): facts and contract text carry over from the seeds word for
//!   word, and the lessons write them as code. A code span also breaks a run, so the words on
//!   either side of one never join into a run that is in neither place;
//! - the markers of the interactive blocks (`- [x]`, `::`, `---`).
//!
//! A blank line, a heading, a fence and a block marker end a run too. The seed side is one
//! stream of words per file (its lines are wrapped mid-sentence).

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// An exact shared run of this many words fails.
const EXACT: usize = 8;
/// A window of this many words fails when a seed has it with at most [`SUBSTITUTIONS`] words
/// swapped.
const NEAR: usize = 12;
const SUBSTITUTIONS: usize = 2;
/// Index key length: with at most two substitutions in 12 words, one of the three 4-word
/// blocks of the window is unchanged, so every near run shares one of them exactly.
const KEY: usize = 4;

/// Block kinds whose bodies are prose the learner reads.
const PROSE_BLOCKS: [&str; 3] = ["quiz", "explain", "checklist"];

/// One word of a lesson, with the line it is on.
#[derive(Debug, Clone)]
pub(crate) struct Word {
    text: String,
    line: usize,
}

/// A seed document as one stream of words.
pub(crate) struct Seed {
    name: String,
    words: Vec<String>,
}

/// One hit: a stretch of lesson words shared with a seed.
#[derive(Debug)]
pub(crate) struct Hit {
    file: String,
    first_line: usize,
    last_line: usize,
    seed: String,
    /// The lesson's words of the run, and the seed's words where they differ.
    shown: String,
    /// Longest exact run inside the stretch.
    exact: usize,
    /// Fewest substitutions of a near window inside the stretch (`None`: no near window).
    near: Option<usize>,
}

impl std::fmt::Display for Hit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let lines = if self.first_line == self.last_line {
            self.first_line.to_string()
        } else {
            format!("{}-{}", self.first_line, self.last_line)
        };
        let kind = match self.near {
            Some(n) if self.exact < EXACT => format!("{NEAR} words with {n} swapped"),
            Some(n) => format!("{} words in a row; {NEAR} with {n} swapped", self.exact),
            None => format!("{} words in a row", self.exact),
        };
        write!(
            f,
            "{}:{lines}: shared with seed {} ({kind}): {}",
            self.file, self.seed, self.shown
        )
    }
}

/// Lower-case words of a piece of text: runs of letters and digits.
fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Take the code spans out of one line: the text between them, as separate pieces (a code
/// span ends a run). An unclosed backtick leaves the rest of the line as code.
fn outside_code_spans(line: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = line;
    loop {
        let Some(open) = rest.find('`') else {
            pieces.push(rest);
            return pieces;
        };
        pieces.push(&rest[..open]);
        let ticks = rest[open..].chars().take_while(|&c| c == '`').count();
        let after = &rest[open + ticks..];
        let fence = "`".repeat(ticks);
        match after.find(&fence) {
            Some(close) => rest = &after[close + ticks..],
            None => return pieces,
        }
    }
}

/// The block markers a prose block line starts with, taken off.
fn strip_block_marker(line: &str) -> &str {
    let t = line.trim_start();
    for marker in ["- [x]", "- [X]", "- [ ]"] {
        if let Some(rest) = t.strip_prefix(marker) {
            return rest;
        }
    }
    t
}

/// The prose of one lesson file as runs of words (a run never crosses a code span, a blank
/// line, a heading, a fence or a block marker).
pub(crate) fn lesson_runs(text: &str) -> Vec<Vec<Word>> {
    let mut runs: Vec<Vec<Word>> = vec![Vec::new()];
    let mut fence: Option<(String, bool)> = None; // (the fence, is its body prose?)
    let cut = |runs: &mut Vec<Vec<Word>>| {
        if !runs.last().is_some_and(Vec::is_empty) {
            runs.push(Vec::new());
        }
    };
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let trimmed = raw.trim_start();
        if let Some((open, prose)) = &fence {
            if trimmed.starts_with(open.as_str())
                && trimmed.trim_start_matches('`').trim().is_empty()
            {
                fence = None;
                cut(&mut runs);
                continue;
            }
            if !*prose {
                continue;
            }
            if trimmed == "---" {
                cut(&mut runs);
                continue;
            }
        } else if trimmed.starts_with("```") {
            let ticks = trimmed.chars().take_while(|&c| c == '`').count();
            let info = trimmed[ticks..].split_whitespace().next().unwrap_or("");
            fence = Some(("`".repeat(ticks), PROSE_BLOCKS.contains(&info)));
            cut(&mut runs);
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            cut(&mut runs);
            if trimmed.is_empty() {
                continue;
            }
        }
        let body = if fence.is_some() {
            if trimmed.starts_with("- [") {
                cut(&mut runs);
            }
            strip_block_marker(raw)
        } else {
            raw
        };
        // In a quiz choice the text before ` :: ` and the why after it are separate runs.
        for (n, part) in body.split(" :: ").enumerate() {
            if n > 0 {
                cut(&mut runs);
            }
            for (m, piece) in outside_code_spans(part).into_iter().enumerate() {
                if m > 0 {
                    cut(&mut runs);
                }
                for w in words_of(piece) {
                    runs.last_mut().unwrap().push(Word { text: w, line });
                }
            }
        }
        if trimmed.starts_with('#') {
            cut(&mut runs);
        }
    }
    runs.retain(|r| !r.is_empty());
    runs
}

/// Where each 4-word key starts in the seeds: (seed index, word index).
fn index(seeds: &[Seed]) -> HashMap<&[String], Vec<(usize, usize)>> {
    let mut at: HashMap<&[String], Vec<(usize, usize)>> = HashMap::new();
    for (s, seed) in seeds.iter().enumerate() {
        for p in 0..seed.words.len().saturating_sub(KEY - 1) {
            at.entry(&seed.words[p..p + KEY]).or_default().push((s, p));
        }
    }
    at
}

/// A shared stretch before merging: lesson words `start..end`, against seed `seed` at `at`.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    seed: usize,
    at: usize,
    exact: usize,
    near: Option<usize>,
}

/// Every exact run of [`EXACT`] and near window of [`NEAR`] words in one run of lesson words.
fn spans_in(
    run: &[Word],
    seeds: &[Seed],
    idx: &HashMap<&[String], Vec<(usize, usize)>>,
) -> Vec<Span> {
    let text: Vec<String> = run.iter().map(|w| w.text.clone()).collect();
    let n = text.len();
    let mut tried = HashSet::new();
    let mut spans = Vec::new();
    for i in 0..n {
        for b in (0..NEAR).step_by(KEY) {
            if i + b + KEY > n {
                break;
            }
            let Some(places) = idx.get(&text[i + b..i + b + KEY]) else {
                continue;
            };
            for &(s, p) in places {
                if p < b || !tried.insert((i, s, p - b)) {
                    continue;
                }
                let j = p - b;
                let seed = &seeds[s].words;
                let same = |k: usize| i + k < n && j + k < seed.len() && text[i + k] == seed[j + k];
                let exact = (0..).take_while(|&k| same(k)).count();
                let near = (i + NEAR <= n && j + NEAR <= seed.len())
                    .then(|| (0..NEAR).filter(|&k| !same(k)).count())
                    .filter(|&d| d <= SUBSTITUTIONS);
                if exact >= EXACT || near.is_some() {
                    let end = i + exact.max(if near.is_some() { NEAR } else { 0 });
                    spans.push(Span {
                        start: i,
                        end,
                        seed: s,
                        at: j,
                        exact,
                        near,
                    });
                }
            }
        }
    }
    spans
}

/// The hits of one lesson file: overlapping stretches merged, one hit per stretch.
pub(crate) fn hits_in(file: &str, text: &str, seeds: &[Seed]) -> Vec<Hit> {
    let idx = index(seeds);
    let mut hits = Vec::new();
    for run in lesson_runs(text) {
        let mut spans = spans_in(&run, seeds, &idx);
        spans.sort_by_key(|s| (s.start, s.end));
        let mut merged: Vec<Span> = Vec::new();
        for s in spans {
            match merged.last_mut() {
                Some(m) if s.start < m.end => {
                    m.end = m.end.max(s.end);
                    m.exact = m.exact.max(s.exact);
                    m.near = match (m.near, s.near) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                }
                _ => merged.push(s),
            }
        }
        for m in merged {
            let seed = &seeds[m.seed];
            let mut shown = String::new();
            for (k, w) in run[m.start..m.end].iter().enumerate() {
                if !shown.is_empty() {
                    shown.push(' ');
                }
                shown.push_str(&w.text);
                match seed.words.get(m.at + k) {
                    Some(sw) if *sw != w.text => {
                        let _ = write!(shown, "[seed: {sw}]");
                    }
                    _ => {}
                }
            }
            hits.push(Hit {
                file: file.to_owned(),
                first_line: run[m.start].line,
                last_line: run[m.end - 1].line,
                seed: seed.name.clone(),
                shown,
                exact: m.exact,
                near: m.near,
            });
        }
    }
    hits
}

fn seeds_in(dir: &Path) -> Vec<Seed> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| Seed {
            name: p.file_name().unwrap().to_string_lossy().into_owned(),
            words: words_of(&std::fs::read_to_string(&p).unwrap()),
        })
        .collect()
}

fn lesson_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".md") && name.as_bytes().first().is_some_and(u8::is_ascii_digit)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn no_lesson_follows_a_seed_sentence() {
    let Some(dir) = crate::shared::shared("seeds") else {
        return;
    };
    let seeds = seeds_in(&dir);
    assert!(!seeds.is_empty(), "no seed documents in {}", dir.display());
    let files = lesson_files();
    assert!(files.len() >= 14, "lessons not found");
    let mut hits = Vec::new();
    for path in &files {
        let name = format!("lessons/{}", path.file_name().unwrap().to_string_lossy());
        hits.extend(hits_in(
            &name,
            &std::fs::read_to_string(path).unwrap(),
            &seeds,
        ));
    }
    let report: Vec<String> = hits.iter().map(ToString::to_string).collect();
    assert!(
        hits.is_empty(),
        "{} passages follow a seed too closely (rewrite them from the idea, in the course's \
         own words):\n{}",
        hits.len(),
        report.join("\n")
    );
}

fn seed(text: &str) -> Vec<Seed> {
    vec![Seed {
        name: "planted.txt".into(),
        words: words_of(text),
    }]
}

const SEED_TEXT: &str = "Intro. Return a stable result envelope with either data or a \
    controlled error code, always. Later the loop keeps the identifier in the orchestration \
    layer so results can be attached to the correct request.";

#[test]
fn a_planted_copy_is_caught_exactly() {
    let lesson = "# T\n\nSo we return a stable result envelope with either data or a\ncontrolled \
                  error code.\n";
    let hits = hits_in("x.md", lesson, &seed(SEED_TEXT));
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!((hits[0].first_line, hits[0].last_line), (3, 4));
    assert_eq!(hits[0].exact, 13);
    assert!(
        hits[0]
            .to_string()
            .starts_with("x.md:3-4: shared with seed planted.txt")
    );
}

#[test]
fn a_copy_with_two_words_swapped_is_caught() {
    // 12 words, two swapped, and no 8 in a row unchanged.
    let lesson = "The loop keeps the id in the orchestration tier so results \
                  can be attached to the right request.";
    let hits = hits_in("x.md", lesson, &seed(SEED_TEXT));
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].near, Some(2));
    assert!(hits[0].exact < EXACT);
    assert!(
        hits[0].shown.contains("id[seed: identifier]"),
        "{}",
        hits[0].shown
    );
}

#[test]
fn three_swaps_or_seven_words_pass() {
    let three = "The loop keeps the id in the orchestration tier so answers can be attached.";
    assert!(hits_in("x.md", three, &seed(SEED_TEXT)).is_empty());
    let seven = "It returns a stable result envelope with either, nothing more.";
    assert!(hits_in("x.md", seven, &seed(SEED_TEXT)).is_empty());
}

#[test]
fn code_and_punctuation_are_handled() {
    // Case and punctuation do not hide a copy.
    let shouting = "RETURN A STABLE, RESULT ENVELOPE -- WITH EITHER DATA OR...";
    assert_eq!(hits_in("x.md", shouting, &seed(SEED_TEXT)).len(), 1);
    // Code spans and fenced code are not prose, and a code span breaks a run.
    let code = "Return a stable `result envelope with either data` or a controlled error.\n\n\
                ```python\nreturn a stable result envelope with either data or a\n```\n";
    assert!(hits_in("x.md", code, &seed(SEED_TEXT)).is_empty());
    // A quiz's prose is compared; its markers are not.
    let quiz = "```quiz\nQ?\n- [x] fine :: return a stable result envelope with either data \
                or a controlled error code\n```\n";
    let hits = hits_in("x.md", quiz, &seed(SEED_TEXT));
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].first_line, 3);
}
