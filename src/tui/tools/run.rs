//! A declaration's generated scenario (`crate::tools::scenario`) as a run the trace player
//! plays: each planned turn and call in order on a virtual clock, the validator's verdicts
//! as the calls' validation (a refused call runs no attempt and is answered at once), the
//! repaired call and the trap that got through marked.

use crate::orchestrator::Category;
use crate::replay::warn::WarnKind;
use crate::replay::{CallSpec, Clock, ResultSpec, Run, RunBuilder, TurnSpec, Validation};
use crate::sanitize::clean;
use crate::tools::scenario::{Plan, PlannedTurn};

/// How long the model thinks and a simulated tool takes, in virtual milliseconds.
const THINK_MS: u64 = 400;
const TOOL_MS: u64 = 40;

/// The run of `plan`.
pub fn build(plan: &Plan) -> Run {
    let mut b = RunBuilder::new("your-tool", &plan.title, Clock::Virtual);
    b.note(&plan.note);
    let mut t = 0;
    let mut rejected_before = false;
    for turn in &plan.turns {
        let start = t;
        t += THINK_MS;
        match turn {
            PlannedTurn::Final(answer) => {
                b.turn(TurnSpec {
                    start_ms: start,
                    end_ms: t,
                    calls: Vec::new(),
                    final_answer: Some(clean(answer, true)),
                });
            }
            PlannedTurn::Calls(calls) => {
                b.turn(TurnSpec {
                    start_ms: start,
                    end_ms: t,
                    calls: calls.iter().map(|c| c.id.clone()).collect(),
                    final_answer: None,
                });
                let at = t;
                for c in calls {
                    let (validation, category) = match &c.verdict {
                        Ok(()) => (Validation::Passed, Category::Ok),
                        Err(e) => (
                            Validation::Failed(clean(e, false)),
                            Category::InvalidArguments,
                        ),
                    };
                    let spec = CallSpec {
                        id: c.id.clone(),
                        tool: clean(&c.tool, false),
                        at_ms: at,
                        args: c.args.clone(),
                        validation,
                        result: Some(ResultSpec {
                            at_ms: at + TOOL_MS,
                            category,
                            text: c.result.clone(),
                        }),
                    };
                    // A call the validator refuses never reaches the tool: no attempt, and
                    // its error goes back at once.
                    let lane = match c.verdict {
                        Ok(()) => b.call(spec),
                        Err(_) => b.refused(spec),
                    };
                    match (&c.verdict, &c.finding) {
                        (Err(e), _) => {
                            b.finding(Some(lane), WarnKind::InvalidArguments, e);
                            rejected_before = true;
                        }
                        (Ok(()), Some(f)) => b.finding(Some(lane), WarnKind::LetThrough, f),
                        (Ok(()), None) if rejected_before => {
                            b.finding(
                                Some(lane),
                                WarnKind::Repaired,
                                "the model repaired its call after the validator's error",
                            );
                            rejected_before = false;
                        }
                        _ => {}
                    }
                }
                // The next turn starts when the last result is back.
                let ran = calls.iter().any(|c| c.verdict.is_ok());
                t = if ran { at + TOOL_MS } else { at };
            }
        }
    }
    b.build()
}
