//! The conversations of a log, listed: what a reader chooses one from. The list keeps a
//! few numbers a conversation (so a long log stays small in memory); the one chosen is read
//! again whole, from its own line, to be played.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::source::ConversationSource;
use super::{Audit, Catalog, Conversation, Format, Kind, Limits, Options, Place, Sink, Totals};

/// The most conversations listed; the rest are counted.
pub const MAX_LISTED: usize = 100_000;

/// One conversation in the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    pub place: Place,
    pub format: Format,
    pub turns: u32,
    pub calls: usize,
    pub repairs: u32,
    /// Findings that are problems (a repair is not).
    pub problems: usize,
    /// Findings by kind, in the order kinds are listed.
    pub kinds: Vec<(Kind, usize)>,
    /// How many conversations before it share its place (the records of one JSON array).
    pub nth: usize,
}

impl Summary {
    fn of(conv: &Conversation) -> Summary {
        Summary {
            place: conv.place.clone(),
            format: conv.format,
            turns: conv.turns,
            calls: conv.calls.len(),
            repairs: conv.repairs,
            problems: conv.problems(),
            kinds: Kind::ALL
                .iter()
                .map(|&k| (k, conv.count(k)))
                .filter(|(_, n)| *n > 0)
                .collect(),
            nth: 0,
        }
    }
}

/// A log read for its list.
#[derive(Debug, Clone)]
pub struct Listing {
    pub files: Vec<PathBuf>,
    pub totals: Totals,
    pub convs: Vec<Summary>,
    /// Conversations past [`MAX_LISTED`], counted only.
    pub more: usize,
    /// Records that could not be read (the first few), with why.
    pub bad: Vec<(Place, String)>,
    format: Option<Format>,
    limits: Limits,
    tools: Option<Arc<Catalog>>,
    /// The log's text, when it was read from memory rather than a file.
    text: Option<Arc<str>>,
}

#[derive(Default)]
struct Listed {
    convs: Vec<Summary>,
    more: usize,
    bad: Vec<(Place, String)>,
}

impl Sink for Listed {
    fn conversation(&mut self, conv: &Conversation) -> std::io::Result<()> {
        if self.convs.len() < MAX_LISTED {
            let mut summary = Summary::of(conv);
            if let Some(last) = self.convs.last().filter(|l| l.place == summary.place) {
                summary.nth = last.nth + 1;
            }
            self.convs.push(summary);
        } else {
            self.more += 1;
        }
        Ok(())
    }

    fn bad_record(&mut self, place: Place, why: String) -> std::io::Result<()> {
        if self.bad.len() < 20 {
            self.bad.push((place, why));
        }
        Ok(())
    }
}

/// The conversation a run hands over at one place, the `skip`th of those that share it.
struct Chosen {
    place: Place,
    skip: usize,
    found: Option<Conversation>,
}

impl Sink for Chosen {
    fn conversation(&mut self, conv: &Conversation) -> std::io::Result<()> {
        if self.found.is_none() && conv.place == self.place {
            match self.skip {
                0 => self.found = Some(conv.clone()),
                _ => self.skip -= 1,
            }
        }
        Ok(())
    }

    fn bad_record(&mut self, _: Place, _: String) -> std::io::Result<()> {
        Ok(())
    }
}

fn open(path: &Path) -> Result<std::fs::File, String> {
    let shown = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(format!("{shown}: is a directory, not a file of records"));
    }
    Ok(file)
}

/// The file of `place` from the start of its line, when a line still starts there (the file
/// may have changed since it was listed: then `None`, and it is read from its start).
fn open_at(place: &Place) -> Result<Option<std::fs::File>, String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = open(Path::new(place.file.as_ref()))?;
    let Some(before) = place.byte.checked_sub(1) else {
        return Ok(Some(file));
    };
    let mut end = [0u8; 1];
    let starts_a_line = file.seek(SeekFrom::Start(before)).is_ok()
        && file.read_exact(&mut end).is_ok()
        && end[0] == b'\n';
    Ok(starts_a_line.then_some(file))
}

impl Listing {
    /// Read `files` for their list (each must open; a record that cannot be read is listed
    /// with why, and the rest read on).
    pub fn read(
        files: &[PathBuf],
        format: Option<Format>,
        limits: Limits,
        tools: Option<Arc<Catalog>>,
    ) -> Result<Listing, String> {
        let readers = files
            .iter()
            .map(|f| open(f))
            .collect::<Result<Vec<_>, _>>()?;
        let mut listed = Listed::default();
        let opts = Options {
            format,
            limits,
            keep: false,
            excerpts: false,
        };
        let mut run = Audit::new(opts, tools.clone(), &mut listed);
        for (path, reader) in files.iter().zip(readers) {
            let name = path.display().to_string();
            run.read(&name, reader)
                .map_err(|e| format!("{name}: {e}"))?;
        }
        let totals = run.totals;
        Ok(Listing {
            files: files.to_vec(),
            totals,
            convs: listed.convs,
            more: listed.more,
            bad: listed.bad,
            format,
            limits,
            tools,
            text: None,
        })
    }

    /// A log held in memory (a shipped example), named `name`.
    pub fn from_text(name: &str, text: Arc<str>, limits: Limits) -> Listing {
        Listing::from_text_with(name, text, None, limits, None)
    }

    /// [`Listing::from_text`] read as [`Listing::read`] reads files: in `format` when one is
    /// named, with `tools` for records that carry no declarations.
    pub fn from_text_with(
        name: &str,
        text: Arc<str>,
        format: Option<Format>,
        limits: Limits,
        tools: Option<Arc<Catalog>>,
    ) -> Listing {
        let mut listed = Listed::default();
        let opts = Options {
            format,
            limits,
            keep: false,
            excerpts: false,
        };
        let mut run = Audit::new(opts, tools.clone(), &mut listed);
        // Reading memory cannot fail, and the sink never does.
        let _ = run.read(name, text.as_bytes());
        let totals = run.totals;
        Listing {
            files: vec![PathBuf::from(name)],
            totals,
            convs: listed.convs,
            more: listed.more,
            bad: listed.bad,
            format,
            limits,
            tools,
            text: Some(text),
        }
    }

    /// Findings of each kind over the whole list.
    pub fn by_kind(&self) -> Vec<(Kind, usize)> {
        Kind::ALL
            .iter()
            .map(|&k| {
                let n = self
                    .convs
                    .iter()
                    .flat_map(|s| s.kinds.iter())
                    .filter(|(kind, _)| *kind == k)
                    .map(|(_, n)| n)
                    .sum();
                (k, n)
            })
            .filter(|(_, n)| *n > 0)
            .collect()
    }

    /// The list's order with the worst conversations first (then in file order).
    pub fn worst_first(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.convs.len()).collect();
        order.sort_by(|&a, &b| self.convs[b].problems.cmp(&self.convs[a].problems));
        order
    }

    /// Conversation `i` read again whole, ready to play.
    pub fn open(&self, i: usize) -> Result<ConversationSource, String> {
        let s = self
            .convs
            .get(i)
            .ok_or_else(|| format!("there is no conversation {}", i + 1))?;
        let mut chosen = Chosen {
            place: s.place.clone(),
            skip: s.nth,
            found: None,
        };
        let opts = Options {
            format: self.format,
            limits: self.limits,
            keep: true,
            excerpts: true,
        };
        let mut run = Audit::new(opts, self.tools.clone(), &mut chosen).only_at(s.place.line);
        let place = &s.place;
        // From its own line when another conversation starts before it (so its line does
        // not start the file), else from the start: a long log is not read again up to it.
        let after_another = self
            .convs
            .iter()
            .any(|c| c.place.file == place.file && c.place.line < place.line);
        let read = match (&self.text, after_another) {
            (Some(text), true) => match text.as_bytes().get(place.byte as usize..) {
                Some(rest) => run.read_from(place, rest),
                None => run.read(&place.file, text.as_bytes()),
            },
            (Some(text), false) => run.read(&place.file, text.as_bytes()),
            (None, true) => match open_at(place)? {
                Some(rest) => run.read_from(place, rest),
                None => run.read(&place.file, open(Path::new(place.file.as_ref()))?),
            },
            (None, false) => run.read(&place.file, open(Path::new(place.file.as_ref()))?),
        };
        read.map_err(|e| format!("{}: {e}", place.file))?;
        let conv = chosen
            .found
            .ok_or_else(|| format!("{}: the conversation is no longer there", s.place))?;
        let source = ConversationSource::new(conv, &s.place.file);
        Ok(source.numbered(i + 1, self.convs.len() + self.more))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One Anthropic request a tool call, as a record of a JSON array.
    fn record(tool: &str, id: &str) -> String {
        format!(
            r#"{{"model": "m", "max_tokens": 10,
  "tools": [{{"name": "{tool}", "input_schema": {{"type": "object"}}}}],
  "messages": [
    {{"role": "user", "content": "go"}},
    {{"role": "assistant", "content": [{{"type": "tool_use", "id": "{id}", "name": "{tool}", "input": {{}}}}]}}
  ]}}"#
        )
    }

    /// Conversation `i` of `listing` as reading `text` from its start finds it.
    fn from_the_start(listing: &Listing, i: usize, text: &[u8]) -> Result<String, String> {
        let s = &listing.convs[i];
        let mut chosen = Chosen {
            place: s.place.clone(),
            skip: s.nth,
            found: None,
        };
        let opts = Options {
            format: None,
            limits: Limits::default(),
            keep: true,
            excerpts: true,
        };
        let mut run = Audit::new(opts, None, &mut chosen).only_at(s.place.line);
        run.read(&s.place.file, text).map_err(|e| e.to_string())?;
        chosen.found.map(|c| format!("{c:?}")).ok_or_default()
    }

    trait OkOrDefault {
        fn ok_or_default(self) -> Result<String, String>;
    }

    impl OkOrDefault for Option<String> {
        fn ok_or_default(self) -> Result<String, String> {
            self.ok_or_else(|| "not found".to_owned())
        }
    }

    #[test]
    fn a_conversation_read_again_from_its_own_line_is_the_one_listed() {
        let desk = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/audit/support-desk.jsonl"),
        )
        .unwrap();
        let desk: Vec<&str> = desk.lines().collect();
        let mcp = [
            r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}"#,
            r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "f", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]}}"#,
            r#"{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "f", "arguments": {"q": 1}}}"#,
        ];
        let mut log = format!("{}\n{}\n", desk[0], desk[1]).into_bytes();
        log.extend_from_slice(b"\xff\n\n");
        log.extend_from_slice(format!("{}\r\n", desk[2]).as_bytes());
        log.extend_from_slice(format!("{}\n{}\n", mcp.join("\n"), desk[3]).as_bytes());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        std::fs::write(&path, &log).unwrap();
        let listing =
            Listing::read(std::slice::from_ref(&path), None, Limits::default(), None).unwrap();
        let text = Arc::<str>::from(String::from_utf8_lossy(&log).into_owned());
        let in_memory =
            Listing::from_text(&path.display().to_string(), text.clone(), Limits::default());
        assert_eq!(listing.convs.len(), 5, "{:?}", listing.convs);
        for i in 0..listing.convs.len() {
            let want = from_the_start(&listing, i, &log).unwrap();
            let got = listing.open(i).map(|s| format!("{:?}", s.conversation()));
            assert_eq!(got.as_ref(), Ok(&want), "conversation {i}");
            let want = from_the_start(&in_memory, i, text.as_bytes()).unwrap();
            let got = in_memory.open(i).map(|s| format!("{:?}", s.conversation()));
            assert_eq!(got.as_ref(), Ok(&want), "conversation {i}, in memory");
        }
        // The file changed since it was listed: a conversation no longer where it was is
        // said to be gone, never another one shown in its place.
        let mut changed = b"{\"new\": 1}\n".to_vec();
        changed.extend_from_slice(&log);
        std::fs::write(&path, &changed).unwrap();
        for i in 1..listing.convs.len() {
            let err = listing.open(i).unwrap_err();
            assert!(err.contains("no longer there"), "{i}: {err}");
        }
    }

    #[test]
    fn each_record_of_a_json_array_is_played_as_itself() {
        let text = format!(
            "[\n{},\n{},\n{}\n]\n",
            record("first", "c1"),
            record("second", "c2"),
            record("third", "c3")
        );
        let listing = Listing::from_text("arr.json", Arc::from(text), Limits::default());
        assert_eq!(listing.convs.len(), 3);
        let nth: Vec<usize> = listing.convs.iter().map(|s| s.nth).collect();
        assert_eq!(nth, [0, 1, 2], "the records share one place");
        for (i, tool) in ["first", "second", "third"].into_iter().enumerate() {
            let source = listing.open(i).unwrap();
            let calls = &source.conversation().calls;
            assert_eq!(calls.len(), 1);
            assert_eq!(calls[0].tool, tool, "conversation {i} plays its own record");
        }
    }
}
