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
        let mut listed = Listed::default();
        let opts = Options {
            format: None,
            limits,
            keep: false,
            excerpts: false,
        };
        let mut run = Audit::new(opts, None, &mut listed);
        // Reading memory cannot fail, and the sink never does.
        let _ = run.read(name, text.as_bytes());
        let totals = run.totals;
        Listing {
            files: vec![PathBuf::from(name)],
            totals,
            convs: listed.convs,
            more: listed.more,
            bad: listed.bad,
            format: None,
            limits,
            tools: None,
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
        let reader: Box<dyn std::io::Read + '_> = match &self.text {
            Some(text) => Box::new(text.as_bytes()),
            None => Box::new(open(Path::new(s.place.file.as_ref()))?),
        };
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
        run.read(&s.place.file, reader)
            .map_err(|e| format!("{}: {e}", s.place.file))?;
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
