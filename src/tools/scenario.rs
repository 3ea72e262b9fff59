//! A generated scenario for the trace player: a model proposes calls to one of your tools,
//! some trapped, one valid, so the repair loop shows on your own declaration. Every verdict
//! in it is the validator's; the tool's results are simulated (nothing is called).
//!
//! The story, from the tool's own trap report: the model sends a call the schema rejects
//! and is answered with the validator's concise error; it repairs the call, which passes;
//! then it sends one the schema lets through (when there is one), which passes too, and is
//! marked with the fix that would have caught it; then it answers.

use serde_json::{Value, json};

use super::load::Tool;
use super::traps::{Trap, TrapKind, TrapReport};
use crate::validate::ValidatorRules;

/// One proposed call and what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedCall {
    pub id: String,
    pub tool: String,
    pub args: Value,
    /// `Err(message)` when the validator rejects the arguments.
    pub verdict: Result<(), String>,
    /// The trap the call walks into, when it is one.
    pub trap: Option<String>,
    /// For a trap the schema let through: the trap and its fix, or why there is none
    /// (`extra key: note; fix: ...`). The player marks it as let through itself.
    pub finding: Option<String>,
    /// What the model is told.
    pub result: String,
}

/// One model turn: its calls, or its final answer.
#[derive(Debug, Clone, PartialEq)]
pub enum PlannedTurn {
    Calls(Vec<PlannedCall>),
    Final(String),
}

/// The whole generated scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub title: String,
    pub note: String,
    pub turns: Vec<PlannedTurn>,
}

/// The trap a model most often walks into first, among those `pick` accepts.
fn first_trap(report: &TrapReport, pick: impl Fn(&Trap) -> bool) -> Option<&Trap> {
    const ORDER: [TrapKind; 6] = [
        TrapKind::StringForNumber,
        TrapKind::MissingRequired,
        TrapKind::EnumNearMiss,
        TrapKind::NullForField,
        TrapKind::ExtraKey,
        TrapKind::NoUpperBound,
    ];
    ORDER
        .iter()
        .find_map(|k| report.traps.iter().find(|t| t.kind == *k && pick(t)))
        .or_else(|| report.traps.iter().find(|t| pick(t)))
}

/// The scenario for `tool`, from its trap report. `None` when the validator refuses the
/// declaration or no valid arguments could be made.
pub fn plan(tool: &Tool, report: &TrapReport) -> Option<Plan> {
    let validator = tool.validator()?;
    let baseline = report.baseline.clone()?;
    let rules = ValidatorRules::ALL_ON;
    let judge = |args: &Value| validator.check(args, &rules).map_err(|v| v.message);
    let mut n = 0;
    let mut call = |args: Value, trap: Option<&Trap>| {
        n += 1;
        let verdict = judge(&args);
        let result = match &verdict {
            Ok(()) => json!({"ok": true, "simulated": format!("{} ran", tool.name)}),
            Err(e) => json!({"ok": false, "code": "invalid_arguments", "error": e}),
        };
        PlannedCall {
            id: format!("c{n}"),
            tool: tool.name.clone(),
            verdict: verdict.clone(),
            trap: trap.map(|t| t.label.clone()),
            finding: trap.filter(|_| verdict.is_ok()).map(|t| {
                t.fix.as_ref().map_or_else(
                    || format!("{} ({})", t.label, t.why.clone().unwrap_or_default()),
                    |f| format!("{}; fix: {}", t.label, f.text()),
                )
            }),
            result: crate::validate::json::dumps(&result),
            args,
        }
    };
    let mut turns = Vec::new();
    if let Some(bad) = first_trap(report, |t| !t.ok) {
        turns.push(PlannedTurn::Calls(vec![call(bad.args.clone(), Some(bad))]));
    }
    turns.push(PlannedTurn::Calls(vec![call(baseline, None)]));
    let slipped = first_trap(report, |t| t.ok);
    if let Some(t) = slipped {
        turns.push(PlannedTurn::Calls(vec![call(t.args.clone(), Some(t))]));
    }
    let answer = match slipped {
        Some(t) => format!("Done, though the last call carried {}.", t.label),
        None => "Done: every call was checked.".to_owned(),
    };
    turns.push(PlannedTurn::Final(answer));
    Some(Plan {
        title: format!("Your tool {}: a model's calls, judged", tool.name),
        note: format!(
            "A generated run on {}: the model's calls are judged by the validator compiled \
             from your declaration; the tool's results are simulated.",
            tool.name
        ),
        turns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{ToolSet, traps};

    #[test]
    fn the_story_rejects_repairs_and_lets_a_trap_through() {
        let decl = json!({"name": "get", "input_schema": {"type": "object", "required": ["n"],
            "properties": {"n": {"type": "integer"}}}});
        let set = ToolSet::from_value(&decl, None).unwrap();
        let t = &set.tools[0];
        let p = plan(t, &traps::report(t)).unwrap();
        let calls: Vec<&PlannedCall> = p
            .turns
            .iter()
            .filter_map(|t| match t {
                PlannedTurn::Calls(c) => Some(&c[0]),
                PlannedTurn::Final(_) => None,
            })
            .collect();
        assert_eq!(calls.len(), 3);
        assert_eq!(
            calls[0].verdict,
            Err("type error: n expected int, got str".into())
        );
        assert!(calls[0].result.contains("invalid_arguments"));
        assert_eq!(calls[1].verdict, Ok(()));
        assert_eq!(calls[1].args, json!({"n": 1}));
        assert_eq!(calls[2].verdict, Ok(()));
        assert_eq!(
            calls[2].finding.as_deref(),
            Some("extra key: note; fix: add \"additionalProperties\": false"),
            "the player marks it as let through: the text does not say so again"
        );
        assert!(matches!(p.turns.last(), Some(PlannedTurn::Final(_))));
    }
}
