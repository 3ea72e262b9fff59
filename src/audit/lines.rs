//! Reading records from a file or stdin a line at a time, in bounded memory: the input is
//! read in large chunks and each line handed over in place. A line longer than
//! `validate --jsonl` reads, or one that is not UTF-8, is handed over as a bad record (with
//! its line number) and skipped without being held. A file that is one JSON document over
//! several lines (a pretty-printed record) is read whole instead, up to the cap of a file.

use std::io::{self, Read};

use crate::input::{MAX_FILE_BYTES, MAX_LINE_BYTES, show_size};
use crate::validate::json::{self, ParseError};

/// Input read at a time.
const CHUNK: usize = 1 << 17;

/// What a line holds.
pub enum Line<'a> {
    /// A record's text (without its line end).
    Text(&'a str),
    /// Not readable as text (why).
    Bad(String),
}

/// Where a line starts: its number (from 1) and the byte it starts at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    pub line: usize,
    pub byte: u64,
}

/// Hand every non-blank line of `input` to `each` with where it starts, until `each` says
/// to stop (`false`).
pub fn read(input: impl Read, each: impl FnMut(At, Line<'_>) -> bool) -> io::Result<()> {
    read_lines(input, At { line: 1, byte: 0 }, true, each)
}

/// [`read`] from a line after the first non-blank one of its file (`input` starts where
/// that line does, at `from`): a record there is never the start of a document over
/// several lines, as it would not be when read from the start.
pub fn read_from(
    input: impl Read,
    from: At,
    each: impl FnMut(At, Line<'_>) -> bool,
) -> io::Result<()> {
    read_lines(input, from, false, each)
}

fn read_lines(
    mut input: impl Read,
    from: At,
    mut first: bool,
    mut each: impl FnMut(At, Line<'_>) -> bool,
) -> io::Result<()> {
    let mut chunk = vec![0u8; CHUNK];
    let mut filled = 0;
    let mut line_no = from.line - 1;
    // Where `chunk` starts in the input.
    let mut base = from.byte;
    // Skipping the rest of a line too long to hold.
    let mut skipping = false;
    loop {
        let n = read_some(&mut input, &mut chunk[filled..])?;
        filled += n;
        let mut start = 0;
        while let Some(off) = memchr::memchr(b'\n', &chunk[start..filled]) {
            let end = start + off;
            if skipping {
                skipping = false;
            } else {
                line_no += 1;
                let at = At {
                    line: line_no,
                    byte: base + start as u64,
                };
                let bytes = &chunk[start..end];
                if first && !is_blank(bytes) {
                    first = false;
                    if opens_a_document(bytes) == Some(true) {
                        let mut whole = chunk[start..filled].to_vec();
                        return document(&mut input, &mut whole, at, each);
                    }
                }
                if !hand_over(at, bytes, &mut each) {
                    return Ok(());
                }
            }
            start = end + 1;
        }
        if n == 0 {
            if start < filled && !skipping {
                line_no += 1;
                let at = At {
                    line: line_no,
                    byte: base + start as u64,
                };
                let bytes = &chunk[start..filled];
                if first && !is_blank(bytes) && opens_a_document(bytes) == Some(true) {
                    let mut whole = bytes.to_vec();
                    return document(&mut input, &mut whole, at, each);
                }
                let _ = hand_over(at, bytes, &mut each);
            }
            return Ok(());
        }
        chunk.copy_within(start..filled, 0);
        filled -= start;
        base += start as u64;
        if filled == chunk.len() {
            if first && !skipping && chunk.len() >= MAX_LINE_BYTES {
                // The first record, on one line: read as a document over several lines
                // would be, up to the cap of a file.
                chunk.truncate(filled);
                let at = At {
                    line: line_no + 1,
                    byte: base,
                };
                return long_first_line(&mut input, chunk, at, &mut each);
            }
            if skipping || chunk.len() >= MAX_LINE_BYTES {
                if !skipping {
                    line_no += 1;
                    let at = At {
                        line: line_no,
                        byte: base,
                    };
                    let go_on = each(
                        at,
                        Line::Bad(format!(
                            "the line is longer than {}, the most a record may be",
                            show_size(MAX_LINE_BYTES as u64)
                        )),
                    );
                    if !go_on {
                        return Ok(());
                    }
                    first = false;
                }
                skipping = true;
                base += filled as u64;
                filled = 0;
            } else {
                chunk.resize(chunk.len() * 2, 0);
            }
        }
    }
}

fn read_some(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match input.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|b| b.is_ascii_whitespace())
}

/// A line's bytes handed over as text (a BOM, a `\r` and blank lines dropped); `false`
/// when `each` says to stop.
fn hand_over(at: At, bytes: &[u8], each: &mut impl FnMut(At, Line<'_>) -> bool) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if is_blank(bytes) {
        return true;
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => each(at, Line::Text(text)),
        Err(e) => each(
            at,
            Line::Bad(format!(
                "the line is not UTF-8 (byte {})",
                e.valid_up_to() + 1
            )),
        ),
    }
}

/// Whether the first line opens a JSON document that goes on past it: `Some(true)` when the
/// line alone stops short at its end, `Some(false)` when it is a record (or not JSON) of
/// its own.
fn opens_a_document(bytes: &[u8]) -> Option<bool> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).ok()?.trim_end();
    if !(text.trim_start().starts_with('{') || text.trim_start().starts_with('[')) {
        return Some(false);
    }
    match json::parse(text) {
        Err(ParseError::Syntax { line, column, .. }) => {
            Some(line == 1 && column == text.chars().count() + 1)
        }
        _ => Some(false),
    }
}

/// A first line longer than a line may be: held up to the cap of a file (as the same record
/// pretty-printed would be), handed over, and the lines after it read as ever.
fn long_first_line(
    input: &mut dyn Read,
    mut held: Vec<u8>,
    at: At,
    each: &mut dyn FnMut(At, Line<'_>) -> bool,
) -> io::Result<()> {
    let mut searched = 0;
    let end = loop {
        if let Some(off) = memchr::memchr(b'\n', &held[searched..]) {
            break Some(searched + off);
        }
        searched = held.len();
        if held.len() as u64 > MAX_FILE_BYTES {
            break None;
        }
        let before = held.len();
        (&mut *input)
            .take(CHUNK as u64 * 8)
            .read_to_end(&mut held)?;
        if held.len() == before {
            break Some(held.len());
        }
    };
    let Some(end) = end else {
        let _ = each(
            at,
            Line::Bad(format!(
                "the line is longer than {}, the most a record may be",
                show_size(MAX_FILE_BYTES)
            )),
        );
        return Ok(());
    };
    if !hand_over(at, &held[..end], &mut |n, l| each(n, l)) {
        return Ok(());
    }
    let rest = io::Cursor::new(held.get(end + 1..).unwrap_or(&[]).to_vec());
    let mut chained = rest.chain(input);
    let after: &mut dyn Read = &mut chained;
    let next = At {
        line: at.line + 1,
        byte: at.byte + end as u64 + 1,
    };
    read_lines(after, next, true, each)
}

/// The rest of the input as one record starting at `line_no`, read whole up to the cap of
/// a file.
fn document(
    input: &mut impl Read,
    whole: &mut Vec<u8>,
    at: At,
    mut each: impl FnMut(At, Line<'_>) -> bool,
) -> io::Result<()> {
    let room = MAX_FILE_BYTES.saturating_sub(whole.len() as u64);
    input.take(room + 1).read_to_end(whole)?;
    if whole.len() as u64 > MAX_FILE_BYTES {
        let _ = each(
            at,
            Line::Bad(format!(
                "a JSON document over several lines is read whole, and this one is larger \
                 than {}; write one record a line (JSON Lines) instead",
                show_size(MAX_FILE_BYTES)
            )),
        );
        return Ok(());
    }
    let bytes = whole.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(whole);
    let _ = match std::str::from_utf8(bytes) {
        Ok(text) => each(at, Line::Text(text)),
        Err(e) => each(
            at,
            Line::Bad(format!(
                "the document is not UTF-8 (byte {})",
                e.valid_up_to() + 1
            )),
        ),
    };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<(usize, Result<String, String>)> {
        let mut out = Vec::new();
        read(input, |n, l| {
            out.push((
                n.line,
                match l {
                    Line::Text(t) => Ok(t.to_owned()),
                    Line::Bad(b) => Err(b),
                },
            ));
            true
        })
        .unwrap();
        out
    }

    #[test]
    fn json_lines_come_one_a_line_with_their_numbers() {
        let got = lines(b"{\"a\": 1}\r\n\n  \n{\"b\": 2}\n\xff\n{\"c\": 3}");
        assert_eq!(got.len(), 4);
        assert_eq!(got[0], (1, Ok("{\"a\": 1}".into())));
        assert_eq!(got[1], (4, Ok("{\"b\": 2}".into())));
        assert_eq!(got[2].0, 5);
        assert!(got[2].1.as_ref().unwrap_err().contains("not UTF-8"));
        assert_eq!(got[3], (6, Ok("{\"c\": 3}".into())));
    }

    /// Every line `read` hands over of `input`, with where it starts.
    fn starts(input: &[u8]) -> Vec<(At, Result<String, String>)> {
        let mut out = Vec::new();
        read(input, |at, l| {
            out.push((at, text_of(l)));
            true
        })
        .unwrap();
        out
    }

    fn text_of(l: Line<'_>) -> Result<String, String> {
        match l {
            Line::Text(t) => Ok(t.to_owned()),
            Line::Bad(b) => Err(b),
        }
    }

    #[test]
    fn each_line_says_the_byte_it_starts_at_and_is_read_the_same_from_there() {
        let mut input = b"\xEF\xBB\xBF{\"a\": 1}\r\n\n  \n{\"b\": 2}\n\xff\n".to_vec();
        input.extend(vec![b'x'; MAX_LINE_BYTES + 10]);
        input.extend_from_slice(b"\n{\"c\": 3}\r\n\n{\"d\": 4}");
        let all = starts(&input);
        assert_eq!(all.len(), 6);
        for (i, (at, line)) in all.iter().enumerate() {
            let rest = &input[at.byte as usize..];
            if let Ok(text) = line {
                let rest = rest.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(rest);
                assert!(rest.starts_with(text.as_bytes()), "line {}", at.line);
            }
            if i == 0 {
                continue;
            }
            let mut again = Vec::new();
            read_from(rest, *at, |at, l| {
                again.push((at, text_of(l)));
                true
            })
            .unwrap();
            assert_eq!(again, all[i..], "read from line {}", at.line);
        }
        // After a first line longer than a line may be, read as a document would be.
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\n{\"ok\": 1}\n");
        let got = starts(&input);
        let second = At {
            line: 2,
            byte: MAX_LINE_BYTES as u64 + 11,
        };
        assert_eq!(got[1], (second, Ok("{\"ok\": 1}".into())));
    }

    #[test]
    fn a_document_over_several_lines_is_one_record() {
        let got = lines(b"\xEF\xBB\xBF[\n  {\"role\": \"user\",\n   \"content\": \"hi\"}\n]\n");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0, 1);
        assert!(got[0].1.as_ref().unwrap().contains("\"content\": \"hi\""));
    }

    #[test]
    fn a_line_too_long_is_skipped_and_the_next_one_read() {
        let mut input = b"{\"ok\": 0}\n".to_vec();
        input.extend(vec![b'x'; MAX_LINE_BYTES + 10]);
        input.extend_from_slice(b"\n{\"ok\": 1}\n");
        let got = lines(&input);
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], (1, Ok("{\"ok\": 0}".into())));
        assert_eq!(got[1].0, 2);
        assert!(got[1].1.as_ref().unwrap_err().contains("longer than 4 MiB"));
        assert_eq!(got[2], (3, Ok("{\"ok\": 1}".into())));
    }

    #[test]
    fn a_long_first_line_is_read_as_a_document_would_be() {
        // One record on one line, longer than a line may be: held up to the cap of a
        // file, as the same record over several lines is; the lines after it read on.
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\n{\"ok\": 1}\n");
        let got = lines(&input);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, 1);
        assert_eq!(got[0].1.as_ref().map(String::len), Ok(MAX_LINE_BYTES + 10));
        assert_eq!(got[1], (2, Ok("{\"ok\": 1}".into())));
        let huge = vec![b'x'; MAX_FILE_BYTES as usize + CHUNK];
        let got = lines(&huge);
        assert_eq!(got.len(), 1);
        assert!(
            got[0]
                .1
                .as_ref()
                .unwrap_err()
                .contains("longer than 16 MiB")
        );
    }
}
