//! What reading the bytes before a case's args gave, kept by those bytes, for every
//! declaration a run has seen (not only the last line's).
//!
//! A line of a JSON-lines run is mostly its declaration: hundreds of bytes of schema and
//! descriptions before a short `"args"`. Reading is deterministic, so a line that starts
//! with the exact bytes an earlier line had before its args gives the same case up to there;
//! it is read from its args on, with what those bytes gave and the compiled schema they were
//! judged with. Finding the earlier line costs a search for the last `"args`, a hash of the
//! bytes around it (see [`key`]) and one comparison of the remembered bytes (a cache hit
//! never parses the declaration). What follows the args (later members, trailing text) is
//! read as always.

use std::ops::Range;

use super::cache::Reading;
use super::{Form, Formats};

/// Bytes hashed at each end of what [`key`] hashes (all of it, when it is short).
const HEAD: usize = 64;
/// The most prefixes kept, and the most bytes they may hold (past either, they start afresh).
const MAX_PREFIXES: usize = 16384;
const MAX_BYTES: usize = 64 << 20;

/// Which member holds the args.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum ArgsKey {
    #[default]
    Args,
    ArgsText,
}

/// The case as reading a prefix left it: which member holds the args, and what came before
/// them (spans are byte ranges of the line).
#[derive(Debug, Clone, Default)]
pub(super) struct Start {
    pub(super) key: ArgsKey,
    pub(super) schema: Option<Range<usize>>,
    /// The compiled schema entry whose text the schema repeats, if one was known.
    pub(super) schema_hit: Option<usize>,
    pub(super) required: Range<usize>,
    pub(super) form: Option<Form>,
    pub(super) formats: Option<Formats>,
    pub(super) seen_required: bool,
}

struct Prefix {
    /// Where its bytes are in [`Prefixes::bytes`].
    at: usize,
    len: usize,
    start: Start,
    /// The compiled schema entry a case from this prefix was judged with, for the reading
    /// (form and formats) it was judged in.
    resolved: Option<(Reading, usize)>,
    /// Its slot in [`Prefixes::slots`] under its [`key`], if it is indexed.
    slot: Option<u32>,
    /// Its [`key`], if it has one.
    key: Option<u64>,
}

/// A prefix's id, as [`Prefixes::find`] and [`Prefixes::record`] give it.
pub(super) type PrefixId = u32;

/// A slot of the index: a prefix's [`key`], where its bytes are and how many, its id (plus
/// one; zero is an empty slot), and the compiled entry it was last judged with (plus one;
/// zero: none yet). Reading ahead reads only slots.
#[derive(Clone, Copy, Default)]
struct Slot {
    hash: u64,
    at: u32,
    len: u32,
    id: u32,
    judged_with: u32,
}

/// Every prefix kept, indexed by its [`key`] (open addressing, the slots at most half full).
#[derive(Default)]
pub(super) struct Prefixes {
    entries: Vec<Prefix>,
    /// Every kept prefix's bytes, one after another.
    bytes: Vec<u8>,
    slots: Vec<Slot>,
    /// The prefix the last line started with or recorded (tried first: a stream often calls
    /// one tool many times in a row).
    last: Option<PrefixId>,
    /// Slots in use.
    indexed: usize,
}

impl Prefixes {
    /// The prefix line `b` starts with, if one is kept: its id and its length (the case so
    /// far is [`Prefixes::start`]). `key` is the line's [`key`], when it was worked out
    /// already.
    pub(super) fn find(&mut self, b: &[u8], key: Option<Option<u64>>) -> Option<(PrefixId, usize)> {
        let last = self.last.filter(|&id| {
            let p = &self.entries[id as usize];
            self.starts(b, p.at, p.len)
        });
        let found = match last {
            Some(id) => id,
            None if self.indexed > 0 => {
                let h = key.unwrap_or_else(|| self::key(b));
                match h.and_then(|h| self.probe(h, b)) {
                    Some(id) => id,
                    // Args that quote `"args` move the line's key: try the other one.
                    None => match first_key(b) {
                        Some(f) if Some(f) != h => self.probe(f, b)?,
                        _ => return None,
                    },
                }
            }
            None => return None,
        };
        self.last = Some(found);
        Some((found, self.entries[found as usize].len))
    }

    /// The kept prefix of key `h` that line `b` starts with, if any.
    fn probe(&self, h: u64, b: &[u8]) -> Option<PrefixId> {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let s = self.slots[i];
            if s.id == 0 {
                return None;
            }
            if s.hash == h && self.starts(b, s.at as usize, s.len as usize) {
                return Some(s.id - 1);
            }
            i = (i + 1) & mask;
        }
    }

    /// Does line `b` start with the kept bytes at `at`, `len` of them, and go on past them
    /// (to its args)?
    #[inline]
    fn starts(&self, b: &[u8], at: usize, len: usize) -> bool {
        b.len() > len && b[..len] == self.bytes[at..at + len]
    }

    /// The case as reading the bytes of prefix `id` left it.
    pub(super) fn start(&self, id: PrefixId) -> &Start {
        &self.entries[id as usize].start
    }

    /// Are several prefixes indexed (so that reading ahead with [`Prefixes::warm`] may find
    /// one that is not the last line's)?
    pub(super) fn several_indexed(&self) -> bool {
        self.indexed > 1
    }

    /// The first step of reading ahead for a line about to be judged: its [`key`] (for
    /// [`Prefixes::find`] and [`Prefixes::warm`]), with the slot it leads to fetched.
    pub(super) fn fetch_slot(&self, b: &[u8]) -> Option<u64> {
        let h = key(b)?;
        if let Some(s) = self
            .slots
            .get(h as usize & self.slots.len().wrapping_sub(1))
        {
            crate::validate::ahead::prefetch(s);
        }
        Some(h)
    }

    /// The next step: the kept prefix a line of key `h` may start with, found by its key
    /// alone (its bytes not compared), with its bytes fetched. Only reads; what it gives is
    /// a hint: the compiled entry that prefix was last judged with, if any.
    pub(super) fn warm(&self, h: u64) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut i = h as usize & mask;
        let s = loop {
            let s = self.slots[i];
            if s.id == 0 {
                return None;
            }
            if s.hash == h {
                break s;
            }
            i = (i + 1) & mask;
        };
        if let Some(kept) = self.bytes.get(s.at as usize..(s.at + s.len) as usize) {
            crate::validate::ahead::prefetch_all(kept);
        }
        if let Some(entry) = self.entries.get(s.id as usize - 1) {
            crate::validate::ahead::prefetch_value(entry);
        }
        (s.judged_with as usize).checked_sub(1)
    }

    /// Keep `text` up to byte `at` (the start of its args value) and the case so far; the
    /// line did not start with a prefix already kept.
    pub(super) fn record(&mut self, text: &str, at: usize, start: Start) -> PrefixId {
        if self.entries.len() >= MAX_PREFIXES || self.bytes.len() + at > MAX_BYTES {
            self.clear();
        }
        let kept = &text.as_bytes()[..at];
        // Indexed when the line's key lies within the prefix (so every line that starts
        // with it has the same key): always, unless the args key was written with escapes.
        // Also by its first key, when that differs, for lines whose args quote `"args`.
        let primary = key(kept);
        let first = first_key(kept).filter(|&f| Some(f) != primary);
        let (bytes_at, id) = (self.bytes.len(), self.entries.len() as PrefixId);
        self.entries.push(Prefix {
            at: bytes_at,
            len: at,
            start,
            resolved: None,
            slot: None,
            key: primary,
        });
        self.bytes.extend_from_slice(kept);
        for h in primary.into_iter().chain(first) {
            self.index(Slot {
                hash: h,
                at: bytes_at as u32,
                len: at as u32,
                id: id + 1,
                judged_with: 0,
            });
        }
        self.last = Some(id);
        id
    }

    /// Put a slot in the index, growing it to stay at most half full.
    fn index(&mut self, slot: Slot) {
        if (self.indexed + 1) * 2 > self.slots.len() {
            let old = std::mem::take(&mut self.slots);
            self.slots = vec![Slot::default(); (old.len() * 2).max(64)];
            self.indexed = 0;
            for s in old.into_iter().filter(|s| s.id != 0) {
                self.index(s);
            }
        }
        let mask = self.slots.len() - 1;
        let mut i = slot.hash as usize & mask;
        while self.slots[i].id != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
        let entry = &mut self.entries[slot.id as usize - 1];
        if entry.key == Some(slot.hash) {
            entry.slot = Some(i as u32);
        }
        self.indexed += 1;
    }

    /// Remember that a case from prefix `id`, read in `form`, was judged with entry `at`.
    pub(super) fn resolve(&mut self, id: PrefixId, form: Reading, at: usize) {
        if let Some(p) = self.entries.get_mut(id as usize) {
            p.resolved = Some((form, at));
            if let Some(slot) = p.slot.and_then(|i| self.slots.get_mut(i as usize)) {
                slot.judged_with = at as u32 + 1;
            }
        }
    }

    /// The entry a case from prefix `id` read in `form` was judged with, if known.
    pub(super) fn resolved(&self, id: PrefixId, form: Reading) -> Option<usize> {
        match self.entries.get(id as usize)?.resolved {
            Some((f, at)) if f == form => Some(at),
            _ => None,
        }
    }

    /// Forget every prefix (the compiled entries they point to are gone).
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.bytes.clear();
        self.slots.clear();
        self.indexed = 0;
        self.last = None;
    }

    /// How many prefixes are kept.
    #[cfg(test)]
    pub(super) fn count(&self) -> usize {
        self.entries.len()
    }

    /// The bytes of the last prefix found or kept (empty: none).
    #[cfg(test)]
    pub(super) fn last_bytes(&self) -> &[u8] {
        self.last.map_or(&[][..], |id| {
            let p = &self.entries[id as usize];
            &self.bytes[p.at..p.at + p.len]
        })
    }
}

/// Where a line's index key is taken: the bytes before the last `"args` in it. A line that
/// starts with a kept prefix has the same bytes there, since the prefix ends with its own
/// `"args": ` (or `"args_text": `), unless what follows has `"args` too (args that quote
/// the word): [`first_key`] then finds it. Searched from the end, since args are short
/// beside a declaration. `None`: no `"args` at all.
fn key_span(b: &[u8]) -> Option<usize> {
    // By its `g`, a letter far rarer in args than a quote.
    memchr::memrchr_iter(b'g', b)
        .filter_map(|i| i.checked_sub(3))
        .find(|&at| b[at..].starts_with(b"\"args"))
}

/// Where a line's other key is taken: the bytes before the first `"args` in it, which lies
/// within any kept prefix the line starts with (each ends with its own `"args": `).
fn first_key_span(b: &[u8]) -> Option<usize> {
    static ARGS: std::sync::OnceLock<memchr::memmem::Finder<'static>> = std::sync::OnceLock::new();
    ARGS.get_or_init(|| memchr::memmem::Finder::new(b"\"args"))
        .find(b)
}

/// A line's index key: a hash of its first and last [`HEAD`] bytes before the last `"args`
/// and of how many there are. Two declarations of one tool that differ only past their first
/// bytes (their descriptions, a property more) get different keys; any that collide are
/// told apart by comparing their bytes.
fn key(b: &[u8]) -> Option<u64> {
    key_span(b).map(|n| hash_span(&b[..n]))
}

/// A line's other key: [`key`] over the bytes before its first `"args`.
fn first_key(b: &[u8]) -> Option<u64> {
    first_key_span(b).map(|n| hash_span(&b[..n]))
}

/// The hash of a key's span: its first and last [`HEAD`] bytes and its length.
fn hash_span(span: &[u8]) -> u64 {
    let n = span.len();
    if n <= 2 * HEAD {
        hash(span, n as u64)
    } else {
        hash(&span[n - HEAD..], hash(&span[..HEAD], n as u64))
    }
}

/// A hash of `b`, two words at a time in two lanes, from `seed`.
fn hash(b: &[u8], seed: u64) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let word = |s: &[u8]| u64::from_le_bytes(s.try_into().unwrap_or([0; 8]));
    let (mut x, mut y) = (0x243f_6a88_85a3_08d3u64 ^ seed, 0x1319_8a2e_0370_7344u64);
    let mut pairs = b.chunks_exact(16);
    for pair in &mut pairs {
        let (a, c) = pair.split_at(8);
        x = (x ^ word(a)).wrapping_mul(K).rotate_left(29);
        y = (y ^ word(c)).wrapping_mul(K).rotate_left(31);
    }
    let rest = pairs.remainder();
    let mut tail = [0u8; 16];
    tail[..rest.len()].copy_from_slice(rest);
    x = (x ^ word(&tail[..8]) ^ rest.len() as u64)
        .wrapping_mul(K)
        .rotate_left(29);
    y = (y ^ word(&tail[8..])).wrapping_mul(K).rotate_left(31);
    (x ^ y.rotate_left(17)).wrapping_mul(K)
}
