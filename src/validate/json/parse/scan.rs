//! Scanning text: where a run of plain string characters (nothing to unescape, nothing to
//! refuse) ends, and where whitespace does.

/// Where the run of plain string text from `at` ends: the first `"`, `\\` or control
/// character, or the end of `b`. Eight bytes at a time for the first words (most strings
/// are short): a word holds one of those bytes when one of its bytes is zero after xor with
/// `"` or `\\`, or is below 0x20; the lowest flagged byte is always a true one (the borrow
/// only ever flags bytes above it). Past them (a description), the quote or backslash is
/// found by `memchr` and the run before it searched for a control character.
#[inline(always)]
pub(crate) fn plain_run(b: &[u8], at: usize) -> usize {
    const SHORT_WORDS: usize = 2;
    let mut i = at;
    for _ in 0..SHORT_WORDS {
        let Some(chunk) = b.get(i..i + 8) else {
            return plain_tail(b, i);
        };
        let w = word(chunk);
        let stops = below_space(w)
            | zero_byte(w ^ (LO * u64::from(b'"')))
            | zero_byte(w ^ (LO * u64::from(b'\\')));
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    plain_long(b, i)
}

/// Past the whitespace JSON allows from byte `i`.
#[inline(always)]
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\t' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

#[inline(always)]
fn word(chunk: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(chunk);
    u64::from_le_bytes(a)
}

/// The high bit of each byte of `v` that is zero (exact for the lowest one).
#[inline(always)]
fn zero_byte(v: u64) -> u64 {
    v.wrapping_sub(LO) & !v & HI
}

/// The high bit of each byte of `w` below 0x20 (exact for the lowest one).
#[inline(always)]
fn below_space(w: u64) -> u64 {
    w.wrapping_sub(LO * 0x20) & !w & HI
}

/// [`plain_run`] byte by byte, for the last few bytes.
#[inline(always)]
fn plain_tail(b: &[u8], mut i: usize) -> usize {
    while let Some(&c) = b.get(i) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

/// [`plain_run`] past its first words.
#[inline(never)]
fn plain_long(b: &[u8], at: usize) -> usize {
    let rest = b.get(at..).unwrap_or_default();
    let stop = memchr::memchr2(b'"', b'\\', rest).map_or(b.len(), |j| at + j);
    // A control character before the quote stops the run there: looked for four words at
    // a time (a word with none flags nothing), then word by word where one was seen.
    let mut i = at;
    while let Some(block) = b.get(i..i + 32).filter(|_| i + 32 <= stop) {
        let low = below_space(word(&block[..8]))
            | below_space(word(&block[8..16]))
            | below_space(word(&block[16..24]))
            | below_space(word(&block[24..]));
        if low != 0 {
            break;
        }
        i += 32;
    }
    while let Some(chunk) = b.get(i..i + 8).filter(|_| i + 8 <= stop) {
        let low = below_space(word(chunk));
        if low != 0 {
            return i + (low.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < stop {
        if b[i] < 0x20 {
            return i;
        }
        i += 1;
    }
    stop
}

#[cfg(test)]
mod tests {
    use super::plain_run;

    /// The byte-by-byte reading of [`plain_run`].
    fn slow(b: &[u8], at: usize) -> usize {
        (at..b.len())
            .find(|&i| b[i] == b'"' || b[i] == b'\\' || b[i] < 0x20)
            .unwrap_or(b.len())
    }

    #[test]
    fn the_word_scan_stops_where_the_byte_scan_does() {
        // Every byte value at every offset of two words, after every start, among plain
        // ASCII and multi-byte text, with stops before and after it.
        let fillers: [&[u8]; 3] = [
            b"abcdefghijklmnopqrstuvwx",
            "éèüßçñøåæœ€£".as_bytes(),
            &[0xff; 24],
        ];
        for filler in fillers {
            for at in 0..20 {
                for stop in 0..=255u8 {
                    for start in 0..4 {
                        let mut b = filler.to_vec();
                        b[at] = stop;
                        assert_eq!(plain_run(&b, start), slow(&b, start), "{b:?} from {start}");
                        b.push(b'"');
                        b[(at + 5) % 20] = b'\\';
                        assert_eq!(plain_run(&b, start), slow(&b, start), "{b:?} from {start}");
                    }
                }
            }
        }
        // Long runs (past the first words): a stop, then a quote or backslash, anywhere
        // in 70 bytes, with the end of the text at every length.
        let long: Vec<u8> = fillers
            .iter()
            .flat_map(|f| f.iter().copied())
            .take(70)
            .collect();
        for stop in [0u8, 0x1f, b'\n', b'"', b'\\', 0x20, 0x7f, 0xff] {
            for at in 0..70 {
                for quote in [None, Some(at / 2), Some(at + 3)] {
                    let mut b = long.clone();
                    b[at] = stop;
                    if let Some(q) = quote.filter(|&q| q < b.len()) {
                        b[q] = b'"';
                    }
                    for end in [b.len(), at + 1, at / 2 + 17] {
                        let b = &b[..end.min(b.len())];
                        for start in (0..3).filter(|&s| s <= b.len()) {
                            assert_eq!(plain_run(b, start), slow(b, start), "{b:?} from {start}");
                        }
                    }
                }
            }
        }
    }
}
