//! Reading what the user hands us (files, `@FILE` flags, JSON lines) with a cap on its size,
//! so `/dev/zero` or a runaway file ends in one clear error instead of an abort or a machine
//! out of memory. Text is UTF-8; a leading byte-order mark is accepted and dropped; a file
//! that is not UTF-8 is refused with the line where it stops being so.

use std::io::{BufRead, Read};
use std::path::Path;

use crate::error::{UserError, UserResult};

/// The largest file read whole: an `@FILE` argument, a schema, a records file, a lesson.
pub(crate) const MAX_FILE_BYTES: u64 = 16 << 20;
/// The largest scenario file (it is read whole, then run).
pub(crate) const MAX_SCENARIO_BYTES: u64 = 16 << 20;
/// The longest JSON line in `--jsonl` input.
pub(crate) const MAX_LINE_BYTES: usize = 4 << 20;

/// The error for a JSON line over [`MAX_LINE_BYTES`] (line numbers count from 1).
pub(crate) fn line_too_long(line: usize) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!(
            "line {line} is longer than {}, the most tooldojo reads in one line",
            show_size(MAX_LINE_BYTES as u64)
        ),
    )
}

/// Read the next line (without its `\n`) into `buf`, at most [`MAX_LINE_BYTES`] long.
/// `Ok(false)` at the end of the input; a longer line is an error, found without reading
/// more than the cap.
pub(crate) fn next_line(
    reader: &mut impl std::io::BufRead,
    buf: &mut Vec<u8>,
    line: usize,
) -> std::io::Result<bool> {
    buf.clear();
    let n = reader
        .by_ref()
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > MAX_LINE_BYTES {
        return Err(line_too_long(line));
    }
    Ok(true)
}

/// Say a size the way a person reads it (`16 MiB`, `512 KiB`, `300 bytes`).
pub(crate) fn show_size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes % (1 << 10) == 0 {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}

/// Read a file of at most `limit` bytes as text. `display` names it in errors.
pub(crate) fn read_text(path: &Path, limit: u64, display: &str) -> UserResult<String> {
    let file = std::fs::File::open(path).map_err(|e| UserError::new(format!("{display}: {e}")))?;
    read_capped(file, limit, display)
}

/// Read at most `limit` bytes from `reader` as text; more is an error, never a truncation.
pub(crate) fn read_capped(reader: impl Read, limit: u64, display: &str) -> UserResult<String> {
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| UserError::new(format!("{display}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(UserError::new(format!(
            "{display}: larger than {}, the most tooldojo reads",
            show_size(limit)
        )));
    }
    text_of(bytes, display)
}

/// UTF-8 text of `bytes` without a leading byte-order mark, or an error naming the line and
/// column where the bytes stop being UTF-8.
pub(crate) fn text_of(mut bytes: Vec<u8>, display: &str) -> UserResult<String> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&good[start..]).chars().count() + 1;
        UserError::new(format!("{display}:{line}:{column}: not UTF-8 text"))
    })
}

/// `FILE:LINE:COL: not JSON: what`, how a loader says a file is not JSON.
pub(crate) fn not_json(display: &str, line: usize, column: usize, what: &str) -> String {
    format!("{display}:{line}:{column}: not JSON: {what}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_the_cap_is_refused_not_cut() {
        let err = read_capped(&b"abcdef"[..], 5, "f.json").unwrap_err();
        assert_eq!(
            err.message,
            "f.json: larger than 5 bytes, the most tooldojo reads"
        );
        assert_eq!(read_capped(&b"abcde"[..], 5, "f").unwrap(), "abcde");
    }

    #[test]
    fn an_endless_reader_stops_at_the_cap() {
        let err = read_capped(std::io::repeat(0), 1 << 20, "/dev/zero").unwrap_err();
        assert!(err.message.contains("larger than 1 MiB"), "{}", err.message);
    }

    #[test]
    fn a_bom_is_dropped_and_bad_utf8_names_its_line() {
        assert_eq!(read_capped(&b"\xEF\xBB\xBF{}"[..], 10, "f").unwrap(), "{}");
        let err = read_capped(&b"ok\nab\xFFc"[..], 100, "f.md").unwrap_err();
        assert_eq!(err.message, "f.md:2:3: not UTF-8 text");
    }
}
