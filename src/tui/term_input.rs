//! Terminal input, read and decoded by the app itself so that no byte sequence can jam it.
//!
//! A reader thread passes the raw bytes of the terminal on; [`decode`] turns the front of the
//! pending bytes into one event at a time. A sequence that is malformed (a control byte in
//! the middle of an escape sequence) is dropped at once, and one that stays unfinished for
//! [`QUIET`] (a lone `ESC [ ?`, typed as Alt+[ and ?, or a stray paste) is dropped too, so
//! Esc, q and Ctrl-C always reach the app.
//!
//! A bracketed paste (the terminal wraps pasted text in `ESC [ 200 ~` ... `ESC [ 201 ~`)
//! becomes one [`Event::Paste`], found in one pass over its bytes however long it is, and
//! kept up to [`PASTE_KEEP`] bytes.

use std::io::{IsTerminal, Read};
use std::time::Duration;

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use tokio::sync::mpsc;

/// How long an unfinished escape sequence may wait for its next byte. Terminals send a
/// sequence in one write, so its bytes arrive together; a lone Esc key waits this long.
pub const QUIET: Duration = Duration::from_millis(40);
/// An escape sequence longer than this is not one a terminal sends for a key or the mouse.
const LONGEST: usize = 64;
const ESC: u8 = 0x1b;

/// One step of decoding: how many bytes were used, and the event they made (none when the
/// bytes were dropped or mean nothing to the app).
pub type Step = (usize, Option<Event>);

/// Decode one event from the front of `buf`. `None` means the bytes so far are an unfinished
/// sequence and more should be waited for; with `quiet` set (nothing more came within
/// [`QUIET`]) an unfinished sequence is decided as it stands, so the answer is never `None`
/// for a non-empty buffer. Every step uses at least one byte.
pub fn decode(buf: &[u8], quiet: bool) -> Option<Step> {
    let first = *buf.first()?;
    if first != ESC {
        return single(buf, quiet, KeyModifiers::NONE);
    }
    match buf.get(1) {
        None => quiet.then(|| (1, Some(key(KeyCode::Esc, KeyModifiers::NONE)))),
        Some(b'[') => csi(buf, quiet),
        Some(b'O') => ss3(buf, quiet),
        // Esc before a control byte is Esc on its own: Ctrl-C must never turn into Alt+Ctrl-C.
        Some(&b) if b < 0x20 => Some((1, Some(key(KeyCode::Esc, KeyModifiers::NONE)))),
        Some(_) => single(&buf[1..], quiet, KeyModifiers::ALT).map(|(n, ev)| (n + 1, ev)),
    }
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, modifiers))
}

/// A key that is one byte or one UTF-8 character (with `mods` already held, e.g. Alt).
fn single(buf: &[u8], quiet: bool, mods: KeyModifiers) -> Option<Step> {
    let b = buf[0];
    let ctrl = mods | KeyModifiers::CONTROL;
    let event = match b {
        b'\r' => key(KeyCode::Enter, mods),
        b'\t' => key(KeyCode::Tab, mods),
        0x7f => key(KeyCode::Backspace, mods),
        0x00 => key(KeyCode::Char(' '), ctrl),
        0x01..=0x1a => key(KeyCode::Char((b - 1 + b'a') as char), ctrl),
        0x1c..=0x1f => key(KeyCode::Char((b - 0x1c + b'4') as char), ctrl),
        0x20..=0x7e => char_key(b as char, mods),
        _ => return utf8(buf, quiet, mods),
    };
    Some((1, Some(event)))
}

fn char_key(c: char, mods: KeyModifiers) -> Event {
    let shift = if c.is_uppercase() {
        KeyModifiers::SHIFT
    } else {
        KeyModifiers::NONE
    };
    key(KeyCode::Char(c), mods | shift)
}

/// A multi-byte UTF-8 character; a broken one is dropped a byte at a time.
fn utf8(buf: &[u8], quiet: bool, mods: KeyModifiers) -> Option<Step> {
    let len = match buf[0] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return Some((1, None)),
    };
    if buf.len() < len {
        // A continuation byte that cannot belong ends the character early.
        if buf[1..].iter().any(|&c| c & 0xc0 != 0x80) {
            return Some((1, None));
        }
        return quiet.then_some((buf.len(), None));
    }
    match std::str::from_utf8(&buf[..len]) {
        Ok(s) => Some((len, s.chars().next().map(|c| char_key(c, mods)))),
        Err(_) => Some((1, None)),
    }
}

/// `ESC O x`: arrows, Home, End and F1-F4 in the terminal's application mode.
fn ss3(buf: &[u8], quiet: bool) -> Option<Step> {
    let Some(&b) = buf.get(2) else {
        return quiet.then(|| (2, Some(char_key('O', KeyModifiers::ALT))));
    };
    let none = KeyModifiers::NONE;
    let event = match b {
        b'A'..=b'D' | b'H' | b'F' => cursor_key(b).map(|c| key(c, none)),
        b'P'..=b'S' => Some(key(KeyCode::F(1 + b - b'P'), none)),
        // Not a sequence after all: Alt+Shift+O, and the byte decodes on its own.
        _ => return Some((2, Some(char_key('O', KeyModifiers::ALT)))),
    };
    Some((3, event))
}

fn cursor_key(b: u8) -> Option<KeyCode> {
    Some(match b {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'H' => KeyCode::Home,
        b'F' => KeyCode::End,
        _ => return None,
    })
}

/// `ESC [` parameters (0x30-0x3F), intermediates (0x20-0x2F), then a final byte (0x40-0x7E),
/// as ECMA-48 frames a control sequence. Any other byte ends the sequence unfinished: the
/// prefix is dropped and that byte decodes on its own (so Ctrl-C inside one still counts).
fn csi(buf: &[u8], quiet: bool) -> Option<Step> {
    if buf.get(2) == Some(&b'M') {
        return x10_mouse(buf, quiet);
    }
    let mut i = 2;
    while i < buf.len() && (0x30..=0x3f).contains(&buf[i]) {
        i += 1;
    }
    let params_end = i;
    while i < buf.len() && (0x20..=0x2f).contains(&buf[i]) {
        i += 1;
    }
    if i >= LONGEST {
        return Some((i, None));
    }
    match buf.get(i) {
        None if quiet => Some((buf.len(), None)),
        None => None,
        Some(&fin) if (0x40..=0x7e).contains(&fin) => {
            let same_params = i == params_end;
            let event = same_params
                .then(|| csi_event(&buf[2..params_end], fin))
                .flatten();
            Some((i + 1, event))
        }
        Some(_) => Some((i, None)),
    }
}

/// The numbers of a parameter string (`1;5` → [1, 5]); an empty or odd one counts as 1.
fn numbers(params: &[u8]) -> Vec<u32> {
    params
        .split(|&b| b == b';')
        .map(|p| {
            let digits = p.split(|&b| b == b':').next().unwrap_or(&[]);
            std::str::from_utf8(digits)
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(1)
        })
        .collect()
}

/// Modifier keys from the xterm parameter (1 + a bit mask of Shift, Alt, Ctrl).
fn modifiers(param: Option<&u32>) -> KeyModifiers {
    let mask = param.map_or(0, |m| m.saturating_sub(1));
    let mut mods = KeyModifiers::NONE;
    for (bit, m) in [
        (1, KeyModifiers::SHIFT),
        (2, KeyModifiers::ALT),
        (4, KeyModifiers::CONTROL),
    ] {
        if mask & bit != 0 {
            mods |= m;
        }
    }
    mods
}

fn csi_event(params: &[u8], fin: u8) -> Option<Event> {
    if params.first() == Some(&b'<') {
        return sgr_mouse(&numbers(&params[1..]), fin);
    }
    if params
        .first()
        .is_some_and(|b| !b.is_ascii_digit() && *b != b';')
    {
        // Private markers (`?`, `>`, `=`) start replies and reports, never keys.
        return None;
    }
    let n = numbers(params);
    let mods = modifiers(n.get(1));
    let code = match fin {
        b'A'..=b'D' | b'H' | b'F' => cursor_key(fin)?,
        b'Z' => return Some(key(KeyCode::BackTab, KeyModifiers::SHIFT)),
        b'P' | b'Q' | b'S' => KeyCode::F(1 + fin - b'P'),
        // `CSI 1;m R` is F3; other R sequences report the cursor position.
        b'R' if n.first() == Some(&1) => KeyCode::F(3),
        b'~' => tilde_key(n.first().copied().unwrap_or(0))?,
        b'u' => return kitty_key(&n),
        b'M' if n.len() == 3 => {
            return mouse(n[0].checked_sub(32)?, n[1], n[2], true);
        }
        _ => return None,
    };
    Some(key(code, mods))
}

fn tilde_key(n: u32) -> Option<KeyCode> {
    Some(match n {
        1 | 7 => KeyCode::Home,
        2 => KeyCode::Insert,
        3 => KeyCode::Delete,
        4 | 8 => KeyCode::End,
        5 => KeyCode::PageUp,
        6 => KeyCode::PageDown,
        11..=15 => KeyCode::F((n - 10) as u8),
        17..=21 => KeyCode::F((n - 11) as u8),
        23 | 24 => KeyCode::F((n - 12) as u8),
        _ => return None,
    })
}

/// `CSI code;mods u` (the fixterms / kitty form of a key).
fn kitty_key(n: &[u32]) -> Option<Event> {
    let mods = modifiers(n.get(1));
    let code = match n.first().copied()? {
        13 => KeyCode::Enter,
        9 => KeyCode::Tab,
        27 => KeyCode::Esc,
        127 => KeyCode::Backspace,
        c => KeyCode::Char(char::from_u32(c)?),
    };
    Some(key(code, mods))
}

/// `CSI < b;x;y M` (press) or `m` (release): the SGR mouse report.
fn sgr_mouse(n: &[u32], fin: u8) -> Option<Event> {
    match (n, fin) {
        ([b, x, y], b'M' | b'm') => mouse(*b, *x, *y, fin == b'M'),
        _ => None,
    }
}

/// `CSI M b x y` with the three values as raw bytes offset by 32 (the oldest mouse report).
fn x10_mouse(buf: &[u8], quiet: bool) -> Option<Step> {
    // Every value is at least 32; a control byte ends the report and decodes on its own.
    if let Some(at) = buf.iter().take(6).skip(3).position(|&b| b < 0x20) {
        return Some((3 + at, None));
    }
    if buf.len() < 6 {
        return quiet.then_some((buf.len(), None));
    }
    let v = |i: usize| u32::from(buf[i]).saturating_sub(32);
    let event = buf[3]
        .checked_sub(32)
        .and_then(|b| mouse(u32::from(b), v(4), v(5), true));
    Some((6, event))
}

/// A mouse report: button bits, 1-based column and row, pressed or released.
fn mouse(b: u32, x: u32, y: u32, pressed: bool) -> Option<Event> {
    let button = match b & 3 {
        0 => MouseButton::Left,
        1 => MouseButton::Middle,
        2 => MouseButton::Right,
        _ => MouseButton::Left,
    };
    let kind = if b & 64 != 0 {
        match b & 3 {
            0 => MouseEventKind::ScrollUp,
            1 => MouseEventKind::ScrollDown,
            2 => MouseEventKind::ScrollLeft,
            _ => MouseEventKind::ScrollRight,
        }
    } else if b & 32 != 0 {
        if b & 3 == 3 {
            MouseEventKind::Moved
        } else {
            MouseEventKind::Drag(button)
        }
    } else if pressed && b & 3 != 3 {
        MouseEventKind::Down(button)
    } else {
        MouseEventKind::Up(button)
    };
    let mut modifiers = KeyModifiers::NONE;
    for (bit, m) in [
        (4, KeyModifiers::SHIFT),
        (8, KeyModifiers::ALT),
        (16, KeyModifiers::CONTROL),
    ] {
        if b & bit != 0 {
            modifiers |= m;
        }
    }
    let cell = |v: u32| u16::try_from(v.saturating_sub(1)).unwrap_or(u16::MAX);
    Some(Event::Mouse(MouseEvent {
        kind,
        column: cell(x),
        row: cell(y),
        modifiers,
    }))
}

/// Decode everything in `bytes` at once, as if nothing more were coming (tests, fuzzing).
pub fn decode_all(bytes: &[u8]) -> Vec<Event> {
    let mut all = Bytes::default();
    all.push(bytes);
    std::iter::from_fn(|| all.event(true)).collect()
}

/// The terminal's bytes as they arrive, decoded into events.
pub struct TermInput {
    chunks: mpsc::UnboundedReceiver<Vec<u8>>,
    bytes: Bytes,
    /// An event taken to look at and put back.
    held: Option<Event>,
}

impl TermInput {
    /// Start reading the terminal (standard input, or `/dev/tty` when input is redirected)
    /// on a thread of its own. The thread ends with the process.
    pub fn start() -> std::io::Result<TermInput> {
        let mut source: Box<dyn Read + Send> = if std::io::stdin().is_terminal() {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open("/dev/tty")?)
        };
        let (tx, chunks) = mpsc::unbounded_channel();
        std::thread::Builder::new()
            .name("terminal-input".into())
            .spawn(move || {
                let mut buf = [0u8; READ];
                loop {
                    match source.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => {
                            if tx.send(buf[..n].to_vec()).is_err() {
                                break;
                            }
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
            })?;
        Ok(TermInput {
            chunks,
            bytes: Bytes::default(),
            held: None,
        })
    }

    /// The next event; `None` once the terminal is gone. Safe to cancel (in `select!`):
    /// bytes are kept in `self` between calls.
    pub async fn next(&mut self) -> Option<Event> {
        if let Some(event) = self.held.take() {
            return Some(event);
        }
        loop {
            if let Some(event) = self.bytes.event(false) {
                return Some(event);
            }
            if !self.bytes.waiting() {
                let chunk = self.chunks.recv().await?;
                self.bytes.push(&chunk);
                continue;
            }
            // An unfinished sequence or paste: wait briefly for the rest, else decide it.
            match tokio::time::timeout(self.bytes.patience(), self.chunks.recv()).await {
                Ok(Some(chunk)) => self.bytes.push(&chunk),
                Ok(None) | Err(_) => {
                    if let Some(event) = self.bytes.event(true) {
                        return Some(event);
                    }
                }
            }
        }
    }

    /// The next event if one is decided already, without waiting: what the loop takes
    /// before it draws, so a burst of input costs one frame, not one a key.
    pub fn ready(&mut self) -> Option<Event> {
        if let Some(event) = self.held.take() {
            return Some(event);
        }
        loop {
            if let Some(event) = self.bytes.event(false) {
                return Some(event);
            }
            let chunk = self.chunks.try_recv().ok()?;
            self.bytes.push(&chunk);
        }
    }
}

impl TermInput {
    /// Add to `text` the typed characters that have already arrived, up to the first
    /// other event (kept for the next call) or [`PASTE_KEEP`] bytes: a paste from a
    /// terminal without bracketed paste, taken as one edit.
    pub fn typed_run(&mut self, text: &mut String) {
        while text.len() < PASTE_KEEP {
            let Some(event) = self.ready() else { return };
            match typed_char(&event) {
                Some(c) => text.push(c),
                None => {
                    self.held = Some(event);
                    return;
                }
            }
        }
    }
}

/// The character a plain key press types (no Ctrl or Alt), if it is one.
pub fn typed_char(event: &Event) -> Option<char> {
    match event {
        Event::Key(k)
            if k.is_press()
                && !k
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            match k.code {
                KeyCode::Char(c) => Some(c),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Bytes the reader asks for at a time: a read that returns fewer is all the terminal
/// wrote at once.
const READ: usize = 4096;

/// The bytes a bracketed paste is wrapped in (the app turns that mode on).
const PASTE_START: &[u8] = b"\x1b[200~";
const PASTE_END: &[u8] = b"\x1b[201~";
/// Bytes of one paste kept; the rest is dropped unread (an editor takes far less, and
/// says that it cut the paste).
pub const PASTE_KEEP: usize = 1 << 20;
/// How long a paste may pause before what came of it is taken as the whole paste.
const PASTE_QUIET: Duration = Duration::from_millis(500);
/// After a paste paused, bytes arriving this many at once (more than any key's sequence)
/// are the rest of it: nobody types that fast.
const PASTE_TAIL: usize = LONGEST;

/// The terminal's bytes not decoded yet, and a bracketed paste under way. Every byte is
/// looked at a bounded number of times, so input of any length decodes in linear time.
#[derive(Default)]
pub struct Bytes {
    buf: Vec<u8>,
    /// Bytes of `buf` already decoded.
    used: usize,
    paste: Option<Vec<u8>>,
    /// Where in `buf` a lone Esc ended what the terminal wrote at once: that is the Esc
    /// key, whatever comes next (terminals write a sequence in one go).
    lone_esc: Option<usize>,
    /// A paste was taken when it paused, before its end marker came: what arrives next
    /// may be the rest of it (a busy machine can stall a long paste).
    paused: bool,
}

impl Bytes {
    /// Bytes the terminal wrote at once (one read).
    pub fn push(&mut self, chunk: &[u8]) {
        if self.used == self.buf.len() {
            self.buf.clear();
            self.used = 0;
            self.lone_esc = None;
        } else if self.used > READ && self.used * 2 > self.buf.len() {
            self.buf.drain(..self.used);
            self.lone_esc = self.lone_esc.and_then(|i| i.checked_sub(self.used));
            self.used = 0;
        }
        self.buf.extend_from_slice(chunk);
        if chunk.len() < READ && chunk.last() == Some(&ESC) {
            self.lone_esc = Some(self.buf.len() - 1);
        }
    }

    fn rest(&self) -> &[u8] {
        &self.buf[self.used..]
    }

    /// More bytes are needed to decide what came (an unfinished sequence or paste).
    fn waiting(&self) -> bool {
        self.paste.is_some() || !self.rest().is_empty()
    }

    /// How long to wait for the rest of what is unfinished.
    fn patience(&self) -> Duration {
        if self.paste.is_some() {
            PASTE_QUIET
        } else {
            QUIET
        }
    }

    /// The next event, decoding as far as the bytes allow; with `quiet`, whatever is
    /// unfinished is decided as it stands (a paste ends there).
    pub fn event(&mut self, quiet: bool) -> Option<Event> {
        loop {
            if self.paste.is_some() {
                return self.paste_step(quiet);
            }
            if self.rest().is_empty() {
                return None;
            }
            if std::mem::take(&mut self.paused) && self.paste_goes_on() {
                self.paste = Some(Vec::new());
                continue;
            }
            if self.rest().starts_with(PASTE_START) {
                self.used += PASTE_START.len();
                self.paste = Some(Vec::new());
                continue;
            }
            if self.lone_esc == Some(self.used) {
                self.used += 1;
                self.lone_esc = None;
                return Some(key(KeyCode::Esc, KeyModifiers::NONE));
            }
            let (used, event) = decode(self.rest(), quiet)?;
            self.used += used.clamp(1, self.rest().len());
            if event.is_some() {
                return event;
            }
        }
    }

    /// After a paused paste, whether the bytes that came next are more of it: the end
    /// marker is among them (before any Ctrl-C), or they came in a run longer than any
    /// key's sequence. Keys typed after a stray paste start are short, so they stay keys.
    fn paste_goes_on(&self) -> bool {
        let rest = self.rest();
        if rest.starts_with(PASTE_START) {
            return false;
        }
        let upto = memchr::memchr(0x03, rest).unwrap_or(rest.len());
        upto >= PASTE_TAIL || memchr::memmem::find(&rest[..upto], PASTE_END).is_some()
    }

    /// Take what is there of the paste under way; the paste event once its end came. A
    /// Ctrl-C byte ends a paste too (a terminal never pastes one), so that it still quits.
    fn paste_step(&mut self, quiet: bool) -> Option<Event> {
        let rest = &self.buf[self.used..];
        let ctrl_c = memchr::memchr(0x03, rest);
        let end = match memchr::memmem::find(&rest[..ctrl_c.unwrap_or(rest.len())], PASTE_END) {
            Some(i) => Some((i, PASTE_END.len())),
            None => ctrl_c.map(|i| (i, 0)),
        };
        // Bytes that may be the start of the end marker wait for the next chunk.
        let take = match end {
            Some((i, _)) => i,
            None if quiet => rest.len(),
            None => rest.len().saturating_sub(PASTE_END.len() - 1),
        };
        let text = self.paste.as_mut()?;
        let room = PASTE_KEEP.saturating_sub(text.len());
        text.extend_from_slice(&rest[..take.min(room)]);
        self.used += take;
        if let Some((_, marker)) = end {
            self.used += marker;
        } else if !quiet {
            return None;
        } else {
            self.paused = true;
        }
        let text = self.paste.take()?;
        Some(Event::Paste(String::from_utf8_lossy(&text).into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bytes: &[u8]) -> Vec<(KeyCode, KeyModifiers)> {
        decode_all(bytes)
            .into_iter()
            .filter_map(|e| match e {
                Event::Key(k) => Some((k.code, k.modifiers)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_partial_private_sequence_does_not_swallow_what_follows() {
        // Unfinished and then quiet: dropped, the next q is a q.
        assert_eq!(decode(b"\x1b[?", false), None);
        assert_eq!(decode(b"\x1b[?", true), Some((3, None)));
        // Ctrl-C or Esc inside the sequence ends it and counts.
        assert_eq!(
            keys(b"\x1b[?\x03"),
            vec![(KeyCode::Char('c'), KeyModifiers::CONTROL)]
        );
        assert_eq!(
            keys(b"\x1b[?\x1b"),
            vec![(KeyCode::Esc, KeyModifiers::NONE)]
        );
        assert_eq!(
            keys(b"\x1b[Ma\x03"),
            vec![(KeyCode::Char('c'), KeyModifiers::CONTROL)]
        );
        assert_eq!(
            keys(b"\x1b\x03"),
            vec![
                (KeyCode::Esc, KeyModifiers::NONE),
                (KeyCode::Char('c'), KeyModifiers::CONTROL)
            ]
        );
    }

    #[test]
    fn common_keys_decode() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            keys(b"q\r\t\x7f"),
            vec![
                (KeyCode::Char('q'), none),
                (KeyCode::Enter, none),
                (KeyCode::Tab, none),
                (KeyCode::Backspace, none),
            ]
        );
        assert_eq!(
            keys(b"\x1b[A\x1bOB\x1b[1;5C\x1b[5~\x1b[3~\x1b[Z"),
            vec![
                (KeyCode::Up, none),
                (KeyCode::Down, none),
                (KeyCode::Right, KeyModifiers::CONTROL),
                (KeyCode::PageUp, none),
                (KeyCode::Delete, none),
                (KeyCode::BackTab, KeyModifiers::SHIFT),
            ]
        );
        assert_eq!(
            keys("xé١G".as_bytes()),
            vec![
                (KeyCode::Char('x'), none),
                (KeyCode::Char('é'), none),
                (KeyCode::Char('١'), none),
                (KeyCode::Char('G'), KeyModifiers::SHIFT),
            ]
        );
        assert_eq!(
            keys(b"\x1bx\x1a"),
            vec![
                (KeyCode::Char('x'), KeyModifiers::ALT),
                (KeyCode::Char('z'), KeyModifiers::CONTROL),
            ]
        );
        assert_eq!(keys(b"\x1b"), vec![(KeyCode::Esc, none)]);
        assert_eq!(decode(b"\x1b", false), None, "a lone Esc waits briefly");
    }

    #[test]
    fn mouse_reports_decode() {
        let events = decode_all(b"\x1b[<0;5;3M\x1b[<65;1;1M");
        let kinds: Vec<_> = events
            .iter()
            .map(|e| match e {
                Event::Mouse(m) => (m.kind, m.column, m.row),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            vec![
                (MouseEventKind::Down(MouseButton::Left), 4, 2),
                (MouseEventKind::ScrollDown, 0, 0),
            ]
        );
    }

    #[test]
    fn replies_and_unknown_sequences_make_no_event() {
        assert!(decode_all(b"\x1b[?62;22c\x1b[?1u\x1b[I\x1b[99~").is_empty());
        let long = [b"\x1b[".as_slice(), &[b'1'; 200]].concat();
        assert!(decode_all(&long).is_empty());
    }

    fn pasted(events: &[Event]) -> Vec<&str> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Paste(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_bracketed_paste_is_one_event_and_keys_go_on_after_it() {
        let events = decode_all(b"a\x1b[200~q{\"x\": 1}\n\x1b[A\x1b[201~q");
        assert_eq!(pasted(&events), vec!["q{\"x\": 1}\n\x1b[A"]);
        assert_eq!(events.len(), 3, "{events:?}");
        assert_eq!(
            keys(b"\x1b[200~hi\x1b[201~q"),
            vec![(KeyCode::Char('q'), KeyModifiers::NONE)]
        );
    }

    #[test]
    fn an_esc_that_ends_a_write_is_the_esc_key() {
        let mut bytes = Bytes::default();
        bytes.push(b"\x1b");
        bytes.push(b"q");
        assert_eq!(
            bytes.event(false),
            Some(key(KeyCode::Esc, KeyModifiers::NONE))
        );
        assert_eq!(bytes.event(false), Some(char_key('q', KeyModifiers::NONE)));
        // Within one write it is still Alt.
        bytes.push(b"\x1bq");
        assert_eq!(bytes.event(false), Some(char_key('q', KeyModifiers::ALT)));
    }

    #[test]
    fn a_paste_in_many_chunks_is_put_together_and_capped() {
        let mut bytes = Bytes::default();
        bytes.push(b"\x1b[200~");
        let chunk = [b'x'; 4096];
        for _ in 0..(PASTE_KEEP / 4096 + 8) {
            bytes.push(&chunk);
            assert!(bytes.event(false).is_none(), "waits for the end marker");
        }
        // The end marker split across two chunks.
        bytes.push(b"yy\x1b[20");
        assert!(bytes.event(false).is_none());
        bytes.push(b"1~\x03");
        match bytes.event(false) {
            Some(Event::Paste(t)) => assert_eq!(t.len(), PASTE_KEEP),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            bytes.event(false),
            Some(key(KeyCode::Char('c'), KeyModifiers::CONTROL))
        );
    }

    #[test]
    fn a_paste_that_never_ends_is_taken_when_quiet_and_ctrl_c_ends_one() {
        let mut bytes = Bytes::default();
        bytes.push(b"\x1b[200~half a paste");
        assert!(bytes.event(false).is_none());
        assert_eq!(bytes.patience(), PASTE_QUIET);
        assert_eq!(pasted(&[bytes.event(true).unwrap()]), vec!["half a paste"]);
        assert!(!bytes.waiting());
        let events = decode_all(b"\x1b[200~abc\x03q");
        assert_eq!(pasted(&events), vec!["abc"]);
        assert_eq!(
            keys(b"\x1b[200~abc\x03q"),
            vec![
                (KeyCode::Char('c'), KeyModifiers::CONTROL),
                (KeyCode::Char('q'), KeyModifiers::NONE)
            ]
        );
    }

    #[test]
    fn a_paste_that_pauses_goes_on_when_its_rest_comes() {
        let mut bytes = Bytes::default();
        bytes.push(b"\x1b[200~{\"note\": \"");
        assert_eq!(pasted(&[bytes.event(true).unwrap()]), vec!["{\"note\": \""]);
        // The rest: a long run, a tab and a newline in it (never keys), then the marker.
        let mut tail = vec![b'x'; 4096];
        tail.extend_from_slice(b"\t\n\"}\x1b[201~q");
        bytes.push(&tail);
        match bytes.event(false) {
            Some(Event::Paste(t)) => assert!(t.ends_with("x\t\n\"}") && t.len() == 4100),
            other => panic!("{other:?}"),
        }
        assert_eq!(bytes.event(false), Some(char_key('q', KeyModifiers::NONE)));
        // A short rest that holds the end marker goes on too.
        bytes.push(b"\x1b[200~ab");
        assert_eq!(pasted(&[bytes.event(true).unwrap()]), vec!["ab"]);
        bytes.push(b"c\x1b[201~");
        assert_eq!(pasted(&[bytes.event(false).unwrap()]), vec!["c"]);
    }

    #[test]
    fn keys_typed_after_a_stray_paste_start_stay_keys() {
        let mut bytes = Bytes::default();
        bytes.push(b"\x1b[200~");
        assert_eq!(pasted(&[bytes.event(true).unwrap()]), vec![""]);
        bytes.push(b"q");
        assert_eq!(bytes.event(false), Some(char_key('q', KeyModifiers::NONE)));
        // A long run with a Ctrl-C early in it is not the rest of a paste either.
        bytes.push(b"\x1b[200~a");
        assert_eq!(pasted(&[bytes.event(true).unwrap()]), vec!["a"]);
        let mut run = b"\x03".to_vec();
        run.extend_from_slice(&[b'y'; 100]);
        bytes.push(&run);
        assert_eq!(
            bytes.event(false),
            Some(key(KeyCode::Char('c'), KeyModifiers::CONTROL))
        );
    }

    proptest::proptest! {
        /// Any bytes decode without a panic, every step moves on, and once quiet nothing is
        /// left waiting; a Ctrl-C after any bytes is always seen.
        #[test]
        fn any_bytes_decode_and_ctrl_c_gets_through(
            bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..80)
        ) {
            let mut rest = bytes.as_slice();
            while !rest.is_empty() {
                let (used, _) = decode(rest, true).expect("quiet decides");
                proptest::prop_assert!(used >= 1 && used <= rest.len());
                rest = &rest[used..];
            }
            let mut with_ctrl_c = bytes.clone();
            with_ctrl_c.push(0x03);
            let events = decode_all(&with_ctrl_c);
            let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
            proptest::prop_assert_eq!(events.last().cloned(), Some(ctrl_c));
        }
    }
}
