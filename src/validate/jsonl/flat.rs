//! The quickest way through a line: a call to a tool seen before, with its args as the
//! case's last member, judged straight from the bytes of its args with nothing parsed into
//! values and nothing to drop:
//! - flat args against one object of typed arguments only (the shallow walk over
//!   `json::flat_object`: each member's key, the kind of its value and its text): every
//!   verdict, the first failure included;
//! - flat args against one whose properties also check values (`enum`, bounds, `pattern`,
//!   `format`): a pass, each checked value built from its text alone;
//! - any other args (nested ones included) against any other schema: a pass, when the byte
//!   walk of `eval/bytes.rs` can tell one.
//!
//! Args that fail there, any other line, and any doubt (escapes, a repeated key, text that
//! is not JSON, a schema the walk does not follow) are read as always, which words the
//! first failure; the verdict is the same either way.

use super::Lines;
use super::prefix::{ArgsKey, PrefixId};
use crate::validate::json::{FLAT_MAX, flat_object, skip_ws};

impl Lines<'_> {
    /// Judge the line `text`, which starts with kept prefix `id` (its args' value at byte
    /// `at`), straight from its bytes and write its verdict; `None` (nothing written) when
    /// it is not such a line.
    pub(super) fn flat_line(&mut self, text: &str, id: PrefixId, at: usize) -> Option<bool> {
        let start = self.prefixes.start(id);
        if self.opts.all || start.key != ArgsKey::Args {
            return None;
        }
        let reading = (
            start.form.or(self.opts.form),
            start.formats.unwrap_or(self.opts.formats),
        );
        let entry = self.prefixes.resolved(id, reading)?;
        let v = self.cache.get(entry).as_ref().ok()?;
        let mut members = [("", 0u8, ""); FLAT_MAX];
        let b = text.as_bytes();
        let (root, out) = (v.root_word(), &mut self.out);
        let flat = flat_object(text, at, &mut members).filter(|&(_, end)| closes(b, end));
        let judged = flat.and_then(|(n, _)| {
            v.judge_flat(&members[..n], &self.opts.rules, |found| {
                super::push_failure(out, root, found)
            })
        });
        let passed = match judged {
            Some(passed) => passed,
            // Nested args, or a schema the flat walk does not follow: a sure pass read
            // from the bytes, or read as always.
            None => closes(b, v.passes_bytes(text, at, &self.opts.rules)?).then_some(true)?,
        };
        if passed {
            out.push_str(super::PASSED);
        }
        self.stats.from_bytes += 1;
        Some(passed)
    }
}

/// Does the case close right after its args (which end at `end`), with nothing after it?
fn closes(b: &[u8], end: usize) -> bool {
    let close = skip_ws(b, end);
    b.get(close) == Some(&b'}') && skip_ws(b, close + 1) == b.len()
}
