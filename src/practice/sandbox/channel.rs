//! The readers of a running program: its output (stdout and stderr, as bytes) and the
//! harness channel (line by line, never more than [`LINE_CAP`] bytes of one line held),
//! each on its own thread, each handing what it reads to the sandbox as events.

use std::io::Read;
use std::os::unix::net::UnixStream;
use std::sync::mpsc::Sender;

use super::{Event, LINE_CAP};

pub(super) fn pump_output(mut from: impl Read + Send + 'static, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match from.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(Event::Output(buf[..n].to_vec())).is_err() {
                        break;
                    }
                }
            }
        }
    });
}

/// Read the channel line by line, never holding more than [`LINE_CAP`] bytes of one line:
/// a longer line is reported once and the channel is left unread (the waiter kills the
/// program).
pub(super) fn pump_channel(from: UnixStream, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let mut lines = LineReader::new(from, LINE_CAP);
        loop {
            let event = match lines.next_line() {
                Ok(Some(line)) => Event::Line(String::from_utf8_lossy(&line).into_owned()),
                Ok(None) => break,
                Err(n) => {
                    let _ = tx.send(Event::Overlong(n));
                    return;
                }
            };
            if tx.send(event).is_err() {
                return;
            }
        }
        let _ = tx.send(Event::Closed);
    });
}

/// Lines of at most `cap` bytes from a reader.
pub(crate) struct LineReader<R> {
    from: R,
    cap: usize,
    /// Bytes read but not yet handed out.
    pending: Vec<u8>,
    done: bool,
}

impl<R: Read> LineReader<R> {
    pub(crate) fn new(from: R, cap: usize) -> Self {
        LineReader {
            from,
            cap,
            pending: Vec::new(),
            done: false,
        }
    }

    /// The next line without its newline, `None` at the end, or `Err(bytes)` when a line
    /// runs past the cap (then nothing more is read).
    pub(crate) fn next_line(&mut self) -> Result<Option<Vec<u8>>, usize> {
        let mut buf = [0u8; 16 * 1024];
        loop {
            if let Some(at) = memchr::memchr(b'\n', &self.pending) {
                let mut line: Vec<u8> = self.pending.drain(..=at).collect();
                line.pop();
                return Ok(Some(line));
            }
            if self.pending.len() > self.cap {
                return Err(self.pending.len());
            }
            if self.done {
                return Ok((!self.pending.is_empty()).then(|| std::mem::take(&mut self.pending)));
            }
            match self.from.read(&mut buf) {
                Ok(0) | Err(_) => self.done = true,
                Ok(n) => self.pending.extend_from_slice(&buf[..n]),
            }
        }
    }

    /// The most bytes held at once so far (for the tests of the cap).
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.pending.capacity()
    }
}
