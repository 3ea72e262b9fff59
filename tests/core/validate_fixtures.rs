//! The shipped fixture tables: ids the lessons rely on, the named schemas, and the
//! teaching switches (each one must flip at least one row of the real tables).

use std::collections::HashSet;

use tooldojo::content::Content;
use tooldojo::executor::{ExecRules, Safeguard, cases as exec_cases};
use tooldojo::switches::Switch;
use tooldojo::validate::{Rule, ValidatorRules, cases as val_cases, tools};

#[test]
fn lesson_facing_ids_exist() {
    let c = Content::embedded();
    let v = val_cases::validator_cases(&c).unwrap();
    let g = exec_cases::get_ticket_cases(&c).unwrap();
    let vid: Vec<&str> = v.iter().map(|r| r.id.as_str()).collect();
    for id in ["seed-ok", "seed-missing", "seed-unknown", "seed-type"] {
        assert!(vid.contains(&id), "{id}");
    }
    let groups: HashSet<&str> = v.iter().map(|r| r.group.as_str()).collect();
    for grp in ["seed", "trap", "value", "parse", "order"] {
        assert!(groups.contains(grp), "{grp}");
    }
    let rows: Vec<&str> = g
        .iter()
        .filter(|r| r.group == "row")
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(
        rows,
        [
            "row-1", "row-2", "row-3", "row-4", "row-5", "row-6", "row-7", "row-8"
        ]
    );
    for id in [
        "edge-array",
        "edge-empty-object",
        "edge-extra-field",
        "edge-four-digit",
        "edge-unknown-tenant",
        "edge-permission-denied",
        "edge-mutation",
    ] {
        let row = g
            .iter()
            .find(|r| r.id == id)
            .unwrap_or_else(|| panic!("{id}"));
        assert_eq!(row.group, "edge");
        assert_eq!(row.mutate_result, id == "edge-mutation");
    }
    for r in &v {
        assert!(
            !r.reason.trim().is_empty() && !r.reason.contains('\n'),
            "{}",
            r.id
        );
    }
    for r in &g {
        assert!(
            !r.reason.trim().is_empty() && !r.reason.contains('\n'),
            "{}",
            r.id
        );
    }
}

#[test]
fn named_schemas_match_the_built_in_declarations() {
    let c = Content::embedded();
    let named = val_cases::schemas(&c).unwrap();
    let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
    for n in [
        "weather",
        "search_tickets",
        "get_ticket",
        "close_ticket",
        "create_event",
    ] {
        assert!(names.contains(&n), "{n}");
    }
    for d in tools::declarations() {
        let name = d["name"].as_str().unwrap();
        let (_, entry) = named.iter().find(|(n, _)| n == name).unwrap();
        assert_eq!(entry.schema, d, "{name}");
    }
    for (name, entry) in &named {
        val_cases::resolve_schema(&serde_json::Value::String(name.clone()), &[], &named)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!entry.description.is_empty(), "{name}");
    }
}

#[test]
fn tickets_cover_the_scenarios() {
    let recs = exec_cases::tickets(&Content::embedded()).unwrap();
    let tenants: HashSet<&str> = recs.iter().map(|r| r.tenant.as_str()).collect();
    assert!(
        ["alpha", "beta", "gamma"]
            .iter()
            .all(|t| tenants.contains(t))
    );
    assert!(recs.iter().any(|r| r.status == "open") && recs.iter().any(|r| r.status == "closed"));
    assert!(recs.iter().any(|r| r.title.contains("delete_ticket")));
    assert!(
        recs.iter()
            .any(|r| r.description.as_ref().is_some_and(|d| d.len() > 4096))
    );
    let seed = |t: &str| {
        recs.iter()
            .find(|r| r.tenant == t && r.id == "TKT-104")
            .unwrap()
    };
    assert_eq!(
        (seed("alpha").title.as_str(), seed("alpha").status.as_str()),
        ("Settings crash", "open")
    );
    assert_eq!(
        (seed("beta").title.as_str(), seed("beta").status.as_str()),
        ("Private billing issue", "closed")
    );
    assert!(tooldojo::executor::Store::try_from_records(recs).is_ok());
}

/// Every validator switch flips at least one row of the shipped table.
#[test]
fn each_validator_switch_flips_a_row() {
    let c = Content::embedded();
    let named = val_cases::schemas(&c).unwrap();
    let cases = val_cases::validator_cases(&c).unwrap();
    for &name in Rule::ALL {
        let rules = ValidatorRules::without([name]);
        let flipped = cases
            .iter()
            .filter(|case| {
                let on = val_cases::run_case(case, &named, &ValidatorRules::ALL_ON).unwrap();
                let off = val_cases::run_case(case, &named, &rules).unwrap();
                on != off
            })
            .count();
        assert!(flipped > 0, "switching {name:?} off changes no row");
    }
}

/// Every executor switch flips at least one row of the shipped table.
#[test]
fn each_exec_switch_flips_a_row() {
    let c = Content::embedded();
    let records = exec_cases::tickets(&c).unwrap();
    let cases = exec_cases::get_ticket_cases(&c).unwrap();
    for &name in Safeguard::ALL {
        let rules = ExecRules::without([name]);
        let flipped: Vec<&str> = cases
            .iter()
            .filter(|case| {
                let on = exec_cases::run_case(case, &records, &ExecRules::ALL_ON).unwrap();
                let off = exec_cases::run_case(case, &records, &rules).unwrap();
                on.passes(&case.expected) != off.passes(&case.expected)
            })
            .map(|case| case.id.as_str())
            .collect();
        assert!(!flipped.is_empty(), "switching {name:?} off changes no row");
        if name == Safeguard::CopyOnReturn {
            assert_eq!(flipped, ["edge-mutation"]);
        }
    }
}
