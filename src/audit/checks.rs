//! The checks that read a whole conversation once it is read: each call's verdict as a
//! finding, calls left unanswered, the same call again, storms of failing retries, repairs,
//! results that read as errors or as orders, the longest failing streak, and the budgets of
//! `--limits`. The findings end up in call order, a conversation's own last.

type HashMap<K, V> = foldhash::HashMap<K, V>;

use super::Verdict;
use super::convo::{Call, Conversation, Finding};
use super::heuristics;
use super::steps::Format;
use super::{Kind, Limits};

/// How many failing calls in a row, the same each time, make a storm.
pub const STORM: u32 = 3;

/// Run every check on `conv`, adding its findings and counts.
pub fn run(conv: &mut Conversation, limits: &Limits) {
    let mut found: Vec<Finding> = std::mem::take(&mut conv.findings);
    verdicts(conv, &mut found);
    unanswered(conv, &mut found);
    in_order(conv, &mut found);
    results(conv, &mut found);
    over_limits(conv, limits, &mut found);
    // Call order (a stable sort keeps the order found), the conversation's own last.
    found.sort_by_key(|f| {
        (
            f.call.unwrap_or(usize::MAX),
            Kind::ALL.iter().position(|k| *k == f.kind),
        )
    });
    conv.findings = found;
}

fn on_call(kind: Kind, call: usize, detail: String, path: String, excerpt: String) -> Finding {
    Finding {
        kind,
        call: Some(call),
        detail,
        path,
        excerpt: super::convo::excerpt(&excerpt),
        id: None,
    }
}

/// Each call's verdict, as a finding when it is one.
fn verdicts(conv: &Conversation, out: &mut Vec<Finding>) {
    for (i, c) in conv.calls.iter().enumerate() {
        let (kind, detail) = match &c.verdict {
            Verdict::Passed | Verdict::Refused(_) => continue,
            Verdict::Failed(v) => (Kind::InvalidArguments, v.message.clone()),
            Verdict::NotJson(m) => (Kind::ArgsNotJson, m.clone()),
            Verdict::UnknownTool => {
                let known = if conv.declared_names.is_empty() {
                    "no function tool was declared".to_owned()
                } else {
                    format!("declared: {}", short_list(&conv.declared_names))
                };
                (
                    Kind::UnknownTool,
                    format!("{} is not declared ({known})", super::convo::show(&c.tool)),
                )
            }
            Verdict::Undeclared => (
                Kind::Undeclared,
                "no declarations: the record has no tools and no --tools file was given".to_owned(),
            ),
            Verdict::Provided(kind) => (Kind::Undeclared, provided(&c.tool, kind)),
        };
        out.push(on_call(
            kind,
            i,
            detail,
            c.verdict.path().to_owned(),
            c.args_excerpt.clone(),
        ));
    }
}

/// Why a call to a provider-defined tool is not judged.
fn provided(tool: &str, kind: &str) -> String {
    format!(
        "{} is declared as a provider-defined tool ({}) with no input schema: not judged",
        super::convo::show(tool),
        super::convo::show(kind)
    )
}

/// Names for a message: the first few, then how many more.
fn short_list(names: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut s: Vec<String> = names
        .iter()
        .take(SHOWN)
        .map(|n| super::convo::show(n))
        .collect();
    if names.len() > SHOWN {
        s.push(format!("and {} more", names.len() - SHOWN));
    }
    s.join(", ")
}

/// Calls with no result although the conversation went on (a later model turn). A call of
/// the last turn is still waiting, not unanswered. MCP has no turns to go by: every request
/// without a response in the traffic is unanswered (one without an id can never get one).
fn unanswered(conv: &Conversation, out: &mut Vec<Finding>) {
    for (i, c) in conv.calls.iter().enumerate() {
        if c.result.is_some() {
            continue;
        }
        let detail = if conv.format == Format::Mcp {
            if c.id.is_none() {
                "a tools/call with no id is a notification: nothing can answer it".to_owned()
            } else {
                "no response to this request in the traffic".to_owned()
            }
        } else if c.turn < conv.turns {
            format!(
                "no result, and the model went on (turn {} of {})",
                c.turn, conv.turns
            )
        } else {
            continue;
        };
        out.push(on_call(
            Kind::Unanswered,
            i,
            detail,
            String::new(),
            c.args_excerpt.clone(),
        ));
    }
}

/// Words in a tool's name that say it changes something (`resources_create_or_update`,
/// `deleteFile`, `pods-run`).
const CHANGING_WORDS: [&str; 33] = [
    "add",
    "apply",
    "assign",
    "book",
    "cancel",
    "close",
    "create",
    "delete",
    "edit",
    "exec",
    "execute",
    "insert",
    "install",
    "merge",
    "modify",
    "move",
    "patch",
    "post",
    "push",
    "put",
    "remove",
    "rename",
    "run",
    "scale",
    "send",
    "set",
    "start",
    "stop",
    "transfer",
    "uninstall",
    "update",
    "upload",
    "write",
];

/// Words that open a tool's name that only reads (`get_post`, `list_runs`).
const READING_WORDS: [&str; 12] = [
    "check", "describe", "fetch", "find", "get", "list", "lookup", "query", "read", "search",
    "show", "view",
];

/// Does the tool's name say it changes something? Its words ([`crate::text::name_words`]):
/// its first or its last is one of
/// [`CHANGING_WORDS`] (`create_issue`, `podsDelete`), and its first is none of
/// [`READING_WORDS`] (`get_data_set` reads).
fn changes(tool: &str) -> bool {
    let words = crate::text::name_words(tool);
    let is = |w: Option<&String>, list: &[&str]| w.is_some_and(|w| list.contains(&w.as_str()));
    let (first, last) = (words.first(), words.last());
    !is(first, &READING_WORDS) && (is(first, &CHANGING_WORDS) || is(last, &CHANGING_WORDS))
}

/// The latest calls that asked to change something, to tell a read again after a change
/// (a check of it) from a repeat, in constant time a call.
#[derive(Default)]
struct Changes<'c> {
    /// Whether each tool's name says it changes something, worked out once a tool.
    named: HashMap<&'c str, bool>,
    /// The latest changing call: where it came, and its tool.
    last: Option<(usize, &'c str)>,
    /// The latest changing call to a tool other than `last`'s.
    other: Option<usize>,
}

impl<'c> Changes<'c> {
    /// Call `i`, `c`, has been made (a call refused before it ran changed nothing).
    fn see(&mut self, i: usize, c: &'c Call) {
        if c.verdict.ok() == Some(false) {
            return;
        }
        let tool = c.tool.as_str();
        if !*self.named.entry(tool).or_insert_with(|| changes(tool)) {
            return;
        }
        if let Some((at, t)) = self.last
            && t != tool
        {
            self.other = Some(at);
        }
        self.last = Some((i, tool));
    }

    /// Did a call to a tool other than `tool` ask to change something after call `first`?
    fn since(&self, first: usize, tool: &str) -> bool {
        let latest = match self.last {
            Some((at, t)) if t != tool => Some(at),
            Some(_) => self.other,
            None => None,
        };
        latest.is_some_and(|at| at > first)
    }
}

/// What needs the calls in order: the same call again after it worked, storms of failing
/// retries, repairs, and the longest failing streak. A call answers to an earlier one only
/// when the model had the earlier one's result as it made it (`Call::saw`): calls made side
/// by side in one turn are neither repeats, retries nor repairs of each other.
fn in_order(conv: &mut Conversation, out: &mut Vec<Finding>) {
    // The first call of each (tool, arguments) that worked.
    let mut worked: HashMap<u64, usize> = HashMap::default();
    // The storm in progress: its call key, its length, its last call, and its finding once
    // made.
    let mut storm: Option<Storm> = None;
    // Per tool: invalid calls answered with an error, their errors not yet read by a later
    // call to it; and the errors read since its last call that passed.
    let mut asked: HashMap<&str, Vec<usize>> = HashMap::default();
    let mut errors_read: HashMap<&str, u32> = HashMap::default();
    let (mut streak, mut longest, mut repairs) = (0u32, 0u32, 0u32);
    let mut changed_by = Changes::default();
    for (i, c) in conv.calls.iter().enumerate() {
        let failing = c.failing();
        streak = if failing { streak + 1 } else { 0 };
        longest = longest.max(streak);
        let first = worked.get(&c.key).copied();
        // Something may have changed what the first one read: this one checks the change.
        let changed = first.is_some_and(|f| changed_by.since(f, &c.tool));
        changed_by.see(i, c);
        if let Some(first) = first
            && c.saw(&conv.calls[first])
            && !changed
        {
            let earlier = &conv.calls[first];
            out.push(on_call(
                Kind::RepeatedCall,
                i,
                format!(
                    "repeats call {} (turn {}): {} with the same arguments, after it worked",
                    super::convo::show(earlier.id_or_dash()),
                    earlier.turn,
                    super::convo::show(&c.tool)
                ),
                String::new(),
                c.args_excerpt.clone(),
            ));
        } else if !failing
            && c.result.is_some()
            && c.verdict.ok() != Some(false)
            && (first.is_none() || changed)
        {
            worked.insert(c.key, i);
        }
        storm = next_storm(storm, conv, i, out);
        if c.verdict != Verdict::UnknownTool {
            let read = read_errors(&mut asked, c, &conv.calls);
            if read > 0 {
                repairs += 1;
                *errors_read.entry(c.tool.as_str()).or_default() += read;
            }
            if c.verdict.invalid() && c.result.as_ref().is_some_and(|a| a.is_error()) {
                asked.entry(c.tool.as_str()).or_default().push(i);
            } else if c.verdict == Verdict::Passed
                && read > 0
                && let Some(n) = errors_read.remove(c.tool.as_str())
            {
                let word = if n == 1 { "repair" } else { "repairs" };
                out.push(on_call(
                    Kind::Repaired,
                    i,
                    format!("the arguments pass after {n} {word}"),
                    String::new(),
                    c.args_excerpt.clone(),
                ));
            }
        }
    }
    conv.longest_failing_streak = longest;
    conv.repairs = repairs;
}

/// How many of the errors waiting on `c`'s tool the model had read when it made `c` (a
/// repair attempt when any), those taken off the list.
fn read_errors(
    asked: &mut HashMap<&str, Vec<usize>>,
    c: &super::convo::Call,
    calls: &[super::convo::Call],
) -> u32 {
    let Some(waiting) = asked.get_mut(c.tool.as_str()) else {
        return 0;
    };
    let before = waiting.len();
    waiting.retain(|&e| !c.saw(&calls[e]));
    (before - waiting.len()) as u32
}

/// A run of the same failing call, each made after the one before it had failed.
#[derive(Debug, Clone, Copy)]
struct Storm {
    key: u64,
    length: u32,
    last: usize,
    /// Its finding, once the run is long enough to be one.
    finding: Option<usize>,
}

/// The storm after call `i`: longer when it retries the storm's last call after its
/// failure came back, untouched by the same call made beside that one, else ended (a new
/// one begun when the call failed).
fn next_storm(
    storm: Option<Storm>,
    conv: &Conversation,
    i: usize,
    out: &mut Vec<Finding>,
) -> Option<Storm> {
    let c = &conv.calls[i];
    if !c.failing() {
        return None;
    }
    let fresh = Some(Storm {
        key: c.key,
        length: 1,
        last: i,
        finding: None,
    });
    let Some(mut s) = storm.filter(|s| s.key == c.key) else {
        return fresh;
    };
    if !c.saw(&conv.calls[s.last]) {
        // Made beside the storm's last call: not a retry of it.
        return Some(s);
    }
    s.length += 1;
    s.last = i;
    match s.finding {
        Some(at) => out[at].detail = storm_detail(s.length, c),
        None if s.length >= STORM => {
            out.push(on_call(
                Kind::RetryStorm,
                i,
                storm_detail(s.length, c),
                String::new(),
                c.args_excerpt.clone(),
            ));
            s.finding = Some(out.len() - 1);
        }
        None => {}
    }
    Some(s)
}

fn storm_detail(n: u32, c: &super::convo::Call) -> String {
    let why = match (&c.verdict.error(&c.tool), &c.result) {
        (Some(e), _) => super::convo::excerpt(e),
        (None, Some(a)) => super::convo::excerpt(&a.excerpt),
        (None, None) => String::new(),
    };
    format!("{n} in a row, the same call failing each time: {why}")
}

/// Results that read as errors sent as data, or as orders.
fn results(conv: &Conversation, out: &mut Vec<Finding>) {
    for (i, c) in conv.calls.iter().enumerate() {
        let Some(a) = &c.result else { continue };
        if let Some(sign) = a.unflagged_error() {
            out.push(on_call(
                Kind::ErrorNotFlagged,
                i,
                heuristics::unflagged_detail(conv.format, &sign.sign),
                String::new(),
                a.excerpt.clone(),
            ));
        }
        if let Some(phrase) = &a.orders {
            out.push(on_call(
                Kind::InstructionInResult,
                i,
                heuristics::orders_detail(phrase),
                String::new(),
                a.excerpt.clone(),
            ));
        }
    }
}

/// A budget of `--limits` the conversation went past: one finding each.
fn over_limits(conv: &Conversation, limits: &Limits, out: &mut Vec<Finding>) {
    let checks = [
        ("turns", limits.turns, conv.turns),
        ("calls", limits.calls, conv.calls.len() as u32),
        ("repairs", limits.repairs, conv.repairs),
    ];
    for (what, limit, used) in checks {
        let Some(limit) = limit else { continue };
        if used > limit {
            out.push(Finding {
                kind: Kind::OverLimit,
                call: None,
                detail: format!("{used} {what}, over the limit of {limit}"),
                path: String::new(),
                excerpt: String::new(),
                id: None,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::changes;

    #[test]
    fn a_name_changes_something_by_its_first_or_last_word_unless_it_opens_with_a_read() {
        for tool in [
            "resources_create_or_update",
            "podsDelete",
            "pods_run",
            "helm_install",
            "book_reservation",
            "send-email",
            "set_lamp",
        ] {
            assert!(changes(tool), "{tool}");
        }
        for tool in [
            "get_post",
            "get_run_status",
            "get_data_set",
            "get_close_price",
            "list_runs",
            "pods_log",
            "search",
            "",
        ] {
            assert!(!changes(tool), "{tool}");
        }
    }
}
