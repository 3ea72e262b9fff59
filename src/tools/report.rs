//! One declaration's whole report: honoured or refused, strict readiness, the traps and the
//! hygiene notes; and the `tools --json` line of each declaration (and of each skipped
//! entry, which carries the same fields so every line reads alike).

use serde_json::{Value, json};

use super::hygiene::{self, Note};
use super::load::{Skipped, Tool, ToolSet};
use super::strict::{self, Readiness, Reason, StrictRule, Verdict};
use super::traps::{self, TrapReport};

/// Everything said of one declaration.
#[derive(Debug, Clone)]
pub struct Report<'t> {
    pub tool: &'t Tool,
    pub strict: Readiness,
    pub traps: TrapReport,
    pub hygiene: Vec<Note>,
    /// Where the first declaration with the same name is, when this one repeats it.
    pub duplicate_of: Option<String>,
}

impl<'t> Report<'t> {
    /// The report on the `i`th declaration of `set`.
    pub fn of(set: &'t ToolSet, i: usize) -> Report<'t> {
        let tool = &set.tools[i];
        let traps = traps::report(tool);
        let hygiene = hygiene::notes(tool, &traps);
        let duplicate_of = set
            .duplicates
            .iter()
            .find(|d| d.again == i)
            .map(|d| set.tools[d.first].place());
        Report {
            tool,
            strict: strict_of(tool),
            traps,
            hygiene,
            duplicate_of,
        }
    }

    /// The `tools --json` line.
    pub fn to_json(&self) -> Value {
        let traps: Vec<Value> = self
            .traps
            .traps
            .iter()
            .map(|t| {
                let mut v = serde_json::to_value(t).unwrap_or(Value::Null);
                if let Value::Object(m) = &mut v {
                    m.insert(
                        "fix_cost".into(),
                        t.fix.as_ref().map_or(Value::Null, |f| f.cost_json()),
                    );
                }
                v
            })
            .collect();
        // A declaration without a name says so as null.
        let name = Some(&self.tool.name).filter(|n| !n.is_empty());
        json!({
            "name": name,
            "shape": self.tool.format.name(),
            "at": self.tool.at,
            "honoured": self.tool.honoured(),
            "refused": self.tool.refusal(),
            "strict": self.strict,
            "strict_declared": self.tool.strict_declared(),
            "traps": traps,
            "through": self.traps.through(),
            "note": self.traps.note,
            "unjudged": self.traps.unjudged,
            "hygiene": self.hygiene,
            "duplicate_of": self.duplicate_of,
        })
    }
}

/// Both strict verdicts on a declaration; not judged when the validator could not read it
/// (it refuses it, and no schema is where the declaration's shape keeps one).
pub fn strict_of(tool: &Tool) -> Readiness {
    if tool.honoured() || tool.schema().is_some() {
        return strict::readiness(tool.schema());
    }
    let not = Verdict {
        ok: false,
        reasons: vec![Reason {
            rule: StrictRule::NotRead,
            at: String::new(),
            message: format!(
                "not judged: the validator could not read the declaration (it has no schema \
                 where an {} declaration keeps one)",
                tool.format.label()
            ),
        }],
    };
    Readiness {
        openai: not.clone(),
        anthropic: not,
    }
}

/// The `tools --json` line of an entry that is not a function tool.
pub fn skipped_json(set: &ToolSet, s: &Skipped) -> Value {
    let why = format!(
        "not a function tool: a {} tool is defined by its provider, with no schema to \
         check its arguments against",
        crate::sanitize::quote(&s.kind)
    );
    let not = json!({"ok": false, "reasons": [why.clone()]});
    json!({
        "name": s.name,
        "shape": set.shape.format.map_or("unknown", |f| f.name()),
        "at": s.at,
        "skipped": s.kind,
        "honoured": false,
        "refused": why,
        "strict": {"openai": not, "anthropic": not},
        "traps": [],
    })
}

/// Every line of `tools --json`, in file order (skipped entries where they stand); `seen` is
/// handed each declaration's report as its line is made.
pub fn json_lines<'a>(
    set: &'a ToolSet,
    mut seen: impl FnMut(&Report<'_>) + 'a,
) -> impl Iterator<Item = Value> + 'a {
    let mut tools = 0..set.tools.len();
    let mut skipped = set.skipped.iter().peekable();
    let mut next_tool = tools.next();
    std::iter::from_fn(move || {
        let tool_entry = next_tool.map(|i| set.tools[i].entry);
        match (tool_entry, skipped.peek()) {
            (Some(e), Some(s)) if s.entry < e => skipped.next().map(|s| skipped_json(set, s)),
            (Some(_), _) => {
                let i = next_tool?;
                next_tool = tools.next();
                let r = Report::of(set, i);
                seen(&r);
                Some(r.to_json())
            }
            (None, Some(_)) => skipped.next().map(|s| skipped_json(set, s)),
            (None, None) => None,
        }
    })
}
