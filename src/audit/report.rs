//! The human report: what was read, a table of findings by kind (how many, in how many
//! conversations, what each means), the worst conversations and the longest failing streak,
//! then each finding with its conversation, call id, tool, path, what exactly and an
//! excerpt. Every line is cleaned of controls before it is written.

use std::collections::{BTreeMap, HashSet};
use std::io::{self, Write};

use crate::sanitize::clean;
use crate::text::{plural, thousands};
use crate::validate::json::cut;

use super::{Conversation, Kind, Place, Sink, Totals};

/// The most findings listed one by one (`--json` has them all).
pub const MAX_LISTED: usize = 1000;
/// The most unreadable records listed.
const MAX_BAD_LISTED: usize = 50;
/// The most declared names remembered, to count them.
const MAX_NAMES: usize = 100_000;
/// How many of the worst conversations are named.
const WORST: usize = 3;
/// How many conversations' counts are listed one by one.
const MAX_COUNTED: usize = 20;

/// One finding as the list shows it.
#[derive(Debug, Clone)]
struct Listed {
    place: Place,
    call_id: Option<String>,
    tool: Option<String>,
    kind: Kind,
    path: String,
    detail: String,
    excerpt: String,
}

/// What the report gathers from the conversations as they come.
#[derive(Debug, Default)]
pub struct Report {
    files: Vec<String>,
    formats: BTreeMap<&'static str, usize>,
    /// Findings of each kind, and the conversations that have one.
    by_kind: BTreeMap<Kind, (usize, usize)>,
    names: HashSet<String>,
    /// The worst conversations: (problems, order seen, place).
    worst: Vec<(usize, usize, Place)>,
    longest: Option<(u32, Place)>,
    listed: Vec<Listed>,
    not_listed: usize,
    bad: Vec<(Place, String)>,
    seen: usize,
    /// Parts of sessions cut at their size: where each starts, and which part it is.
    cut: Vec<(Place, u32)>,
    /// The first conversations' counts, as a line each.
    counted: Vec<(Place, String)>,
}

/// What a part of a session cut at its size says of itself.
pub fn cut_note(part: u32) -> String {
    format!(
        "part {part} of one MCP session, cut every {} calls: repeats, storms and repairs are \
         not followed from one part into the next",
        thousands(super::convo::MAX_CALLS)
    )
}

impl Report {
    pub fn new(files: &[String]) -> Report {
        Report {
            files: files.to_vec(),
            ..Report::default()
        }
    }

    /// How a conversation is named: `#LINE` in a run of one file, `FILE:LINE` otherwise.
    fn label(&self, place: &Place) -> String {
        if self.files.len() == 1 {
            format!("#{}", place.line)
        } else {
            place.to_string()
        }
    }

    /// Write the report.
    pub fn write(&self, totals: &Totals, out: &mut impl Write) -> io::Result<()> {
        let mut put = |line: &str| writeln!(out, "{}", clean(line, false));
        put(&self.headline(totals))?;
        put("")?;
        if totals.calls == 0 && self.by_kind.is_empty() {
            put("  no tool calls to check")?;
        } else {
            for line in self.table() {
                put(&line)?;
            }
            put("")?;
            put(&self.worst_line())?;
        }
        if !self.counted.is_empty() {
            put("")?;
            for (place, counts) in &self.counted {
                put(&format!("  {:<8} {counts}", self.label(place)))?;
            }
            if totals.conversations > self.counted.len() {
                put(&format!(
                    "  ... and {} more conversations (--json counts each)",
                    thousands(totals.conversations - self.counted.len())
                ))?;
            }
        }
        if !self.listed.is_empty() {
            put("")?;
            for l in &self.listed {
                for line in self.finding_lines(l) {
                    put(&line)?;
                }
            }
            if self.not_listed > 0 {
                put(&format!(
                    "  ... and {} more findings (--json lists every one)",
                    thousands(self.not_listed)
                ))?;
            }
        }
        if !self.cut.is_empty() {
            put("")?;
            for (place, part) in self.cut.iter().take(MAX_BAD_LISTED) {
                put(&format!("  {}: {}", self.label(place), cut_note(*part)))?;
            }
            if self.cut.len() > MAX_BAD_LISTED {
                put(&format!(
                    "  ... and {} more parts",
                    self.cut.len() - MAX_BAD_LISTED
                ))?;
            }
        }
        if !self.bad.is_empty() {
            put("")?;
            put(&format!(
                "  {} could not be read (each skipped, the rest audited):",
                plural(totals.bad_records, "record", "records")
            ))?;
            for (place, why) in &self.bad {
                put(&format!("  {}: {}", self.label(place), cut(why, 200)))?;
            }
            if totals.bad_records > self.bad.len() {
                put(&format!(
                    "  ... and {} more",
                    totals.bad_records - self.bad.len()
                ))?;
            }
        }
        Ok(())
    }

    fn headline(&self, totals: &Totals) -> String {
        let what = match self.files.as_slice() {
            [one] => one.clone(),
            many => format!("{} files", many.len()),
        };
        let formats = match self.formats.len() {
            0 => String::new(),
            1 => format!(" ({})", self.formats.keys().next().copied().unwrap_or("")),
            _ => {
                let parts: Vec<String> = self
                    .formats
                    .iter()
                    .map(|(f, n)| format!("{f} {}", thousands(*n)))
                    .collect();
                format!(" ({})", parts.join(", "))
            }
        };
        let against = match self.names.len() {
            0 => String::new(),
            n => format!(" against {}", plural(n, "declared tool", "declared tools")),
        };
        format!(
            "{what}: {}{formats}, {}{against}",
            plural(totals.conversations, "conversation", "conversations"),
            plural(totals.calls, "tool call", "tool calls")
        )
    }

    fn table(&self) -> Vec<String> {
        let mut out = vec![format!(
            "  {:<34} {:>7} {:>15}   what it means",
            "findings", "found", "conversations"
        )];
        for kind in Kind::ALL {
            let (n, convs) = self.by_kind.get(&kind).copied().unwrap_or((0, 0));
            if n == 0 && matches!(kind, Kind::OverLimit | Kind::Undeclared | Kind::Repaired) {
                continue;
            }
            let name = if kind == Kind::Repaired {
                "  of which repaired".to_owned()
            } else {
                kind.label()
            };
            out.push(format!(
                "  {name:<34} {:>7} {:>15}   {}",
                thousands(n),
                thousands(convs),
                kind.meaning()
            ));
        }
        out
    }

    fn worst_line(&self) -> String {
        let worst: Vec<String> = self
            .worst
            .iter()
            .enumerate()
            .map(|(i, (n, _, p))| {
                let label = self.label(p);
                if i == 0 {
                    format!("{label} ({})", problems(*n))
                } else {
                    format!("{label} ({n})")
                }
            })
            .collect();
        let worst = if worst.is_empty() {
            "none".to_owned()
        } else {
            worst.join(", ")
        };
        let streak = match &self.longest {
            Some((n, p)) if *n > 0 => format!("{n} ({})", self.label(p)),
            _ => "0".to_owned(),
        };
        format!("  worst conversations   {worst}      longest failing streak: {streak}")
    }

    fn finding_lines(&self, l: &Listed) -> Vec<String> {
        let call = (l.call_id.as_deref(), l.tool.as_deref());
        let head = finding_head(&self.label(&l.place), call, l.kind, &l.path);
        let mut out = vec![
            format!("  {head}"),
            format!("       {}", cut(&l.detail, 200)),
        ];
        if !l.excerpt.is_empty() {
            out.push(format!("       | {}", l.excerpt));
        }
        out
    }
}

impl Sink for Report {
    fn conversation(&mut self, conv: &Conversation) -> io::Result<()> {
        self.seen += 1;
        if self.counted.len() < MAX_COUNTED {
            self.counted.push((conv.place.clone(), counts(conv)));
        }
        if conv.part > 0 {
            self.cut.push((conv.place.clone(), conv.part));
        }
        *self.formats.entry(conv.format.title()).or_default() += 1;
        for n in conv.declared_names.iter() {
            if self.names.len() < MAX_NAMES && !self.names.contains(n) {
                self.names.insert(n.clone());
            }
        }
        let mut kinds: Vec<Kind> = Vec::new();
        for f in &conv.findings {
            self.by_kind.entry(f.kind).or_default().0 += 1;
            if !kinds.contains(&f.kind) {
                kinds.push(f.kind);
            }
            if self.listed.len() < MAX_LISTED {
                let call = f.call.and_then(|i| conv.calls.get(i));
                self.listed.push(Listed {
                    place: conv.place.clone(),
                    call_id: call
                        .map(|c| c.id_or_dash().to_owned())
                        .or_else(|| f.id.clone()),
                    tool: call.map(|c| c.tool.clone()),
                    kind: f.kind,
                    path: f.path.clone(),
                    detail: f.detail.clone(),
                    excerpt: f.excerpt.clone(),
                });
            } else {
                self.not_listed += 1;
            }
        }
        for k in kinds {
            self.by_kind.entry(k).or_default().1 += 1;
        }
        let problems = conv.problems();
        if problems > 0 {
            self.worst.push((problems, self.seen, conv.place.clone()));
            self.worst.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            self.worst.truncate(WORST);
        }
        let streak = conv.longest_failing_streak;
        if self.longest.as_ref().is_none_or(|(n, _)| streak > *n) {
            self.longest = Some((streak, conv.place.clone()));
        }
        Ok(())
    }

    fn bad_record(&mut self, place: Place, why: String) -> io::Result<()> {
        if self.bad.len() < MAX_BAD_LISTED {
            self.bad.push((place, why));
        }
        Ok(())
    }
}

/// A finding's first line after its record's label: the call's id and tool (if it has a
/// call), the finding's kind and where in the arguments.
pub(crate) fn finding_head(
    label: &str,
    (id, tool): (Option<&str>, Option<&str>),
    kind: Kind,
    path: &str,
) -> String {
    let mut head = label.to_owned();
    if let Some(id) = id {
        head.push_str(&format!(" call {}", cut(id, 40)));
    }
    if let Some(tool) = tool {
        head.push_str(&format!("  {}", cut(tool, 40)));
    }
    head.push_str(&format!("  {}", kind.label()));
    if !path.is_empty() {
        head.push_str(&format!("  at {}", cut(path, 60)));
    }
    head
}

/// A conversation's counts on one line: turns, calls, the most in one turn, repairs, the
/// longest failing streak.
pub(crate) fn counts(conv: &Conversation) -> String {
    let mut parts = vec![
        plural(conv.turns as usize, "turn", "turns"),
        plural(conv.calls.len(), "call", "calls"),
    ];
    if conv.max_parallel > 1 {
        parts.push(format!("up to {} in one turn", conv.max_parallel));
    }
    parts.push(plural(conv.repairs as usize, "repair", "repairs"));
    parts.push(format!(
        "longest failing streak {}",
        conv.longest_failing_streak
    ));
    parts.join(", ")
}

/// A conversation's problems in words (`1 problem`): every finding but a repair, which is
/// good news, so a call refused and then repaired counts once, as the table's `of which
/// repaired` row has it. The worst conversations are ranked by it and the player's title
/// for a conversation says the same count.
pub fn problems(n: usize) -> String {
    plural(n, "problem", "problems")
}
