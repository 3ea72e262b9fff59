//! The fixture suites of `tooldojo check`: validator rows, get_ticket rows, wire rows, one
//! ticket world (the same ticket in every store) and scenarios, each run through the real
//! code and compared with what its fixture expects.

use std::collections::HashSet;

use serde_json::json;

use super::CheckRow;
use crate::content::Content;
use crate::course::lab::wire;
use crate::error::{UserError, UserResult};
use crate::executor::{ExecRules, Record, cases as exec_cases};
use crate::orchestrator::{load_scenario, results_map, run_blocking, scenario_names};
use crate::validate::{ValidatorRules, cases as val_cases};

/// A fixture's row ids must be unique: lessons name rows by them.
fn unique_ids<'a>(file: &str, ids: impl Iterator<Item = &'a str>) -> UserResult<()> {
    let mut seen = HashSet::new();
    for id in ids {
        if !seen.insert(id) {
            return Err(UserError::new(format!(
                "{file}: the id {} is used twice",
                crate::sanitize::quote(id)
            )));
        }
    }
    Ok(())
}

/// One row per case of a fixture file, in file order. A case the real code cannot run at
/// all (a broken row, not a mismatch) is an error naming the file and the row.
fn fixture_rows<C>(
    file: &str,
    cases: &[C],
    id: impl Fn(&C) -> &str,
    run: impl Fn(&C) -> Result<CheckRow, String>,
) -> UserResult<Vec<CheckRow>> {
    unique_ids(file, cases.iter().map(&id))?;
    cases
        .iter()
        .map(|case| {
            run(case).map_err(|e| {
                UserError::new(format!(
                    "{file}: row {}: {e}",
                    crate::sanitize::quote(id(case))
                ))
            })
        })
        .collect()
}

/// The validator fixture rows against the real validator.
pub(crate) fn validator_rows(content: &Content) -> UserResult<Vec<CheckRow>> {
    let named = val_cases::schemas(content)?;
    let cases = val_cases::validator_cases(content)?;
    let file = format!("fixtures/{}", val_cases::VALIDATOR_CASES);
    fixture_rows(
        &file,
        &cases,
        |c| &c.id,
        |case| {
            let verdict = val_cases::run_case(case, &named, &ValidatorRules::ALL_ON)?;
            Ok(CheckRow {
                suite: "validator".into(),
                name: case.id.clone(),
                expected: json!({"ok": case.expected.ok, "error": case.expected.error}),
                actual: json!({"ok": verdict.ok, "error": verdict.error}),
                pass: verdict == case.expected,
            })
        },
    )
}

/// The get_ticket fixture rows against the real executor (each on a fresh store).
pub(crate) fn get_ticket_rows(content: &Content) -> UserResult<Vec<CheckRow>> {
    let records = exec_cases::tickets(content)?;
    let cases = exec_cases::get_ticket_cases(content)?;
    let file = format!("fixtures/{}", exec_cases::GET_TICKET_CASES);
    fixture_rows(
        &file,
        &cases,
        |c| &c.id,
        |case| {
            let run = exec_cases::run_case(case, &records, &ExecRules::ALL_ON)?;
            Ok(CheckRow {
                suite: "get_ticket".into(),
                name: case.id.clone(),
                expected: case.expected.clone(),
                actual: run.actual(),
                pass: run.passes(&case.expected),
            })
        },
    )
}

/// The wire rows against the protocols' pairing rules: which call each recorded result
/// answers, and how it says it failed.
pub(crate) fn wire_rows(content: &Content) -> UserResult<Vec<CheckRow>> {
    let cases = wire::wire_cases(content)?;
    let file = format!("fixtures/{}", wire::WIRE_CASES);
    fixture_rows(
        &file,
        &cases,
        |c| &c.id,
        |case| {
            let run = wire::run(case)?;
            let actual = run.expected_form();
            Ok(CheckRow {
                suite: "wire".into(),
                name: case.id.clone(),
                expected: serde_json::to_value(&case.expected).unwrap_or_default(),
                actual: serde_json::to_value(&actual).unwrap_or_default(),
                pass: actual == case.expected,
            })
        },
    )
}

/// Every scenario's expected stop reason and per-call categories against a real run (seed 0).
pub fn scenario_rows(content: &Content) -> UserResult<Vec<CheckRow>> {
    let mut rows = Vec::new();
    for name in scenario_names(content)? {
        let scenario = load_scenario(content, &name)?;
        let run = run_blocking(&scenario, 0);
        let actual = json!({
            "stop_reason": run.stop_reason,
            "results": results_map(&run.results),
        });
        let (expected, pass) = match &scenario.expected {
            Some(exp) => {
                let expected = json!({"stop_reason": exp.stop_reason, "results": exp.results});
                let pass = expected == actual;
                (expected, pass)
            }
            None => (json!("(the scenario declares no \"expected\")"), false),
        };
        rows.push(CheckRow {
            suite: "scenario".to_owned(),
            name,
            expected,
            actual,
            pass,
        });
    }
    Ok(rows)
}

/// One ticket world: a ticket that several stores hold (`fixtures/tickets.json` and each
/// scenario's own records) is the same ticket in all of them, by title and status. One row
/// per (tenant, id) held more than once; expected is the first store's record (tickets.json
/// first, then scenarios in name order), actual the first store that disagrees.
pub(crate) fn ticket_rows(content: &Content) -> UserResult<Vec<CheckRow>> {
    let mut stores: Vec<(String, Vec<Record>)> = vec![(
        format!("fixtures/{}", exec_cases::TICKETS),
        exec_cases::tickets(content)?,
    )];
    for name in scenario_names(content)? {
        if let Some(records) = load_scenario(content, &name)?.records {
            stores.push((format!("scenario {name}"), records));
        }
    }
    let mut seen: Vec<(String, Vec<(&str, &Record)>)> = Vec::new();
    for (store, records) in &stores {
        for r in records {
            let key = format!("{}:{}", r.tenant, r.id);
            match seen.iter_mut().find(|(k, _)| *k == key) {
                Some((_, holders)) => holders.push((store, r)),
                None => seen.push((key, vec![(store, r)])),
            }
        }
    }
    let shown = |store: &str, r: &Record| format!("{}, {} ({store})", r.title, r.status);
    Ok(seen
        .into_iter()
        .filter(|(_, holders)| holders.len() > 1)
        .map(|(key, holders)| {
            let (first_store, first) = holders[0];
            let differs = holders
                .iter()
                .find(|(_, r)| r.title != first.title || r.status != first.status);
            let (actual, pass) = match differs {
                Some((store, r)) => (shown(store, r), false),
                None => (format!("the same in all {} stores", holders.len()), true),
            };
            CheckRow {
                suite: "tickets".into(),
                name: key,
                expected: json!(shown(first_store, first)),
                actual: json!(actual),
                pass,
            }
        })
        .collect())
}
