use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

fn rec(tenant: &str, id: &str, title: &str, status: &str) -> Record {
    Record {
        tenant: tenant.into(),
        id: id.into(),
        title: title.into(),
        status: status.into(),
        description: None,
    }
}

fn seed_store() -> Store {
    Store::from_records(vec![
        rec("alpha", "TKT-104", "Settings crash", "open"),
        rec("beta", "TKT-104", "Private billing issue", "closed"),
    ])
}

fn ctx(tenant: &str, read: bool) -> Context {
    Context {
        tenant: tenant.into(),
        can_read_tickets: read,
        can_write_tickets: false,
    }
}

fn run(name: &str, args: Value, c: &Context) -> Value {
    execute(name, &args, c, &seed_store()).to_value()
}

fn code(v: &Value) -> &str {
    v["code"].as_str().unwrap_or("ok")
}

#[test]
fn the_eight_fixture_rows() {
    let alpha = ctx("alpha", true);
    let r1 = run("get_ticket", json!({"ticket_id": "TKT-104"}), &alpha);
    assert_eq!(
        r1,
        json!({"ok": true, "ticket": {"id": "TKT-104", "title": "Settings crash", "status": "open"}})
    );
    let r2 = run(
        "get_ticket",
        json!({"ticket_id": "TKT-104"}),
        &ctx("beta", true),
    );
    assert_eq!(r2["ticket"]["title"], "Private billing issue");
    assert_eq!(r2["ticket"]["status"], "closed");
    let rows = [
        (
            "get_ticket",
            json!({"ticket_id": "TKT-999"}),
            ctx("alpha", true),
            "not_found",
        ),
        (
            "get_ticket",
            json!({"ticket_id": "TKT-104"}),
            ctx("alpha", false),
            "forbidden",
        ),
        (
            "delete_ticket",
            json!({"ticket_id": "TKT-104"}),
            ctx("alpha", true),
            "unknown_tool",
        ),
        (
            "get_ticket",
            json!({"ticket_id": 104}),
            ctx("alpha", true),
            "invalid_arguments",
        ),
        (
            "get_ticket",
            json!({"ticket_id": "TKT-104", "tenant": "beta"}),
            ctx("alpha", true),
            "invalid_arguments",
        ),
        (
            "get_ticket",
            Value::Null,
            ctx("alpha", true),
            "invalid_arguments",
        ),
    ];
    for (name, args, c, want) in rows {
        let got = run(name, args.clone(), &c);
        assert_eq!(code(&got), want, "{name} {args}");
        assert_eq!(got["ok"], false);
        assert!(got["detail"].as_str().is_some_and(|d| !d.is_empty()));
    }
}

#[test]
fn edge_cases() {
    let alpha = ctx("alpha", true);
    let rows = [
        (json!(["TKT-104"]), "invalid_arguments"),
        (json!({}), "invalid_arguments"),
        (
            json!({"ticket_id": "TKT-104", "verbose": true}),
            "invalid_arguments",
        ),
        (json!({"ticket_id": "TKT-1040"}), "invalid_arguments"),
        (json!({"ticket_id": "TKT-10"}), "invalid_arguments"),
        (json!({"ticket_id": "tkt-104"}), "invalid_arguments"),
        (json!({"ticket_id": "TKT-104\n"}), "invalid_arguments"),
        (json!({"ticket_id": " TKT-104"}), "invalid_arguments"),
        // Arabic-Indic and fullwidth digits are digits to \d, not to us
        (json!({"ticket_id": "TKT-١٠٤"}), "invalid_arguments"),
        (json!({"ticket_id": "TKT-１０４"}), "invalid_arguments"),
        (json!({"ticket_id": null}), "invalid_arguments"),
        // a tenant argument is refused even when it equals the session's tenant
        (
            json!({"ticket_id": "TKT-104", "tenant": "alpha"}),
            "invalid_arguments",
        ),
    ];
    for (args, want) in rows {
        assert_eq!(
            code(&run("get_ticket", args.clone(), &alpha)),
            want,
            "{args}"
        );
    }
    // unknown tenant: nothing there, and nothing leaks from other tenants
    assert_eq!(
        code(&run(
            "get_ticket",
            json!({"ticket_id": "TKT-104"}),
            &ctx("delta", true)
        )),
        "not_found"
    );
    // order: a bad id beats a missing permission; an unknown tool beats bad args
    assert_eq!(
        code(&run(
            "get_ticket",
            json!({"ticket_id": "x"}),
            &ctx("alpha", false)
        )),
        "invalid_arguments"
    );
    assert_eq!(
        code(&run("nope", json!(null), &ctx("alpha", false))),
        "unknown_tool"
    );
    // permission is checked before the lookup, so a denied reader learns nothing
    assert_eq!(
        code(&run(
            "get_ticket",
            json!({"ticket_id": "TKT-999"}),
            &ctx("alpha", false)
        )),
        "forbidden"
    );
}

#[test]
fn mutating_a_result_never_changes_the_store() {
    let store = seed_store();
    let out = execute_with(
        "get_ticket",
        &json!({"ticket_id": "TKT-104"}),
        &ctx("alpha", true),
        &store,
        &ExecRules::ALL_ON,
    );
    let mut h = out.handle.unwrap();
    assert!(!h.is_shared());
    h.set_title("pwned");
    h.set_status("closed");
    assert_eq!(h.ticket().title, "pwned");
    let stored = store.get("alpha", "TKT-104").unwrap();
    assert_eq!(
        (stored.title.as_str(), stored.status.as_str()),
        ("Settings crash", "open")
    );
}

fn off(safeguard: Safeguard) -> ExecRules {
    ExecRules::without([safeguard])
}

fn run_with(name: &str, args: Value, c: &Context, rules: &ExecRules) -> Value {
    execute_with(name, &args, c, &seed_store(), rules)
        .envelope
        .to_value()
}

#[test]
fn each_switch_changes_real_behaviour() {
    let alpha = ctx("alpha", true);
    let id = json!({"ticket_id": "TKT-104"});
    // allowlist off: the one handler serves any name
    assert_eq!(
        code(&run_with(
            "delete_ticket",
            id.clone(),
            &alpha,
            &off(Safeguard::Allowlist)
        )),
        "ok"
    );
    // shape off: the tenant argument is ignored (tenant still comes from the context)
    let r = run_with(
        "get_ticket",
        json!({"ticket_id": "TKT-104", "tenant": "beta"}),
        &alpha,
        &off(Safeguard::ExactShape),
    );
    assert_eq!(r["ticket"]["title"], "Settings crash");
    // id format off: a number is looked up by its digits, and is simply not found
    assert_eq!(
        code(&run_with(
            "get_ticket",
            json!({"ticket_id": 104}),
            &alpha,
            &off(Safeguard::IdFormat)
        )),
        "not_found"
    );
    // permission off: a denied reader reads
    assert_eq!(
        code(&run_with(
            "get_ticket",
            id.clone(),
            &ctx("alpha", false),
            &off(Safeguard::ReadPermission)
        )),
        "ok"
    );
    // scoping off: an unknown tenant reads alpha's ticket; beta gets alpha's too
    let leak = run_with(
        "get_ticket",
        id.clone(),
        &ctx("delta", true),
        &off(Safeguard::TenantScoping),
    );
    assert_eq!(leak["ticket"]["title"], "Settings crash");
    let beta = run_with(
        "get_ticket",
        id.clone(),
        &ctx("beta", true),
        &off(Safeguard::TenantScoping),
    );
    assert_eq!(beta["ticket"]["title"], "Settings crash");
    // copy off: the caller's write lands in the store
    let store = seed_store();
    let out = execute_with(
        "get_ticket",
        &id,
        &alpha,
        &store,
        &off(Safeguard::CopyOnReturn),
    );
    let mut h = out.handle.unwrap();
    assert!(h.is_shared());
    h.set_title("pwned");
    assert_eq!(store.get("alpha", "TKT-104").unwrap().title, "pwned");
    assert_eq!(
        store.get("beta", "TKT-104").unwrap().title,
        "Private billing issue"
    );
}

#[test]
fn text_args() {
    let store = seed_store();
    let alpha = ctx("alpha", true);
    let go = |t: &str| execute_text("get_ticket", t, &alpha, &store, &ExecRules::ALL_ON).envelope;
    assert!(go(r#"{"ticket_id": "TKT-104"}"#).is_ok());
    assert_eq!(
        go(r#"{"ticket_id": "TKT-104""#).code(),
        Some(ErrorCode::InvalidArguments)
    );
    let dup = go(r#"{"ticket_id": "TKT-999", "ticket_id": "TKT-104"}"#);
    assert_eq!(dup.code(), Some(ErrorCode::InvalidArguments));
    assert!(dup.to_json().contains("duplicate arg: ticket_id"));
    let unknown = execute_text("rm", "not json", &alpha, &store, &ExecRules::ALL_ON);
    assert_eq!(unknown.envelope.code(), Some(ErrorCode::UnknownTool));
}

#[test]
fn envelope_json_puts_ok_first() {
    let e = execute(
        "get_ticket",
        &json!({"ticket_id": "TKT-104"}),
        &ctx("alpha", true),
        &seed_store(),
    );
    assert_eq!(
        e.to_json(),
        r#"{"ok": true, "ticket": {"id": "TKT-104", "title": "Settings crash", "status": "open"}}"#
    );
    let e = execute("x", &json!({}), &ctx("alpha", true), &seed_store());
    assert!(
        e.to_json()
            .starts_with(r#"{"ok": false, "code": "unknown_tool", "detail": "#)
    );
    assert!(e.matches(&json!({"ok": false, "code": "unknown_tool"})));
    assert!(!e.matches(&json!({"ok": false, "code": "not_found"})));
}

#[test]
fn store_is_keyed_by_the_pair() {
    // A joined "tenant:id" key would make these two collide.
    let store = Store::from_records(vec![
        rec("a:b", "TKT-001", "one", "open"),
        rec("a", "b:TKT-001", "two", "open"),
    ]);
    assert_eq!(store.len(), 2);
    assert_eq!(store.get("a:b", "TKT-001").unwrap().title, "one");
    assert!(Store::try_from_records(vec![rec("a", "TKT-001", "x", "open"); 2]).is_err());
    // A clone is deep.
    let c = store.clone();
    assert!(c.set_status("a:b", "TKT-001", "closed"));
    assert_eq!(store.get("a:b", "TKT-001").unwrap().status, "open");
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "(TKT-[0-9]{3}|TKT-[0-9]{1,4}|[a-zA-Z0-9 -]{0,8})".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec(("(ticket_id|tenant|id|[a-z]{1,4})", inner), 0..3)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn arb_store() -> impl Strategy<Value = Vec<Record>> {
    prop::collection::vec(("(alpha|beta|gamma)", 100u32..110, any::<bool>()), 0..12).prop_map(
        |rows| {
            rows.into_iter()
                .map(|(t, n, open)| {
                    let id = format!("TKT-{n}");
                    // The title names its owner, so a leak cannot hide.
                    rec(
                        &t,
                        &id,
                        &format!("{t}/{id}"),
                        if open { "open" } else { "closed" },
                    )
                })
                .collect()
        },
    )
}

proptest! {
    #[test]
    fn a_returned_ticket_belongs_to_the_context_tenant(
        records in arb_store(),
        name in "(get_ticket|delete_ticket|get_tickets)",
        args in arb_json(),
        tenant in "(alpha|beta|gamma|delta)",
        read in any::<bool>(),
        ticket_id in "TKT-10[0-9]",
        wrap in any::<bool>(),
    ) {
        let store = Store::from_records(records);
        let c = ctx(&tenant, read);
        // Half the time make the args well-formed so the lookup is exercised.
        let args = if wrap { json!({"ticket_id": ticket_id}) } else { args };
        let out = execute_with(&name, &args, &c, &store, &ExecRules::ALL_ON);
        if let Envelope::Ok { ticket } = &out.envelope {
            prop_assert!(read);
            prop_assert_eq!(&name, "get_ticket");
            prop_assert_eq!(&ticket.title, &format!("{tenant}/{}", ticket.id));
            let stored = store.get(&tenant, &ticket.id).unwrap();
            prop_assert_eq!(&Ticket::of(&stored), ticket);
        }
    }

    #[test]
    fn no_text_panics(text in ".{0,40}", name in "(get_ticket|[a-z_]{0,10})") {
        let store = seed_store();
        let _ = execute_text(&name, &text, &ctx("alpha", true), &store, &ExecRules::ALL_ON);
    }

    #[test]
    fn mutating_results_never_changes_the_store(records in arb_store(), id in "TKT-10[0-9]", tenant in "(alpha|beta|gamma)") {
        let store = Store::from_records(records);
        let before = store.records();
        let out = execute_with("get_ticket", &json!({"ticket_id": id}), &ctx(&tenant, true), &store, &ExecRules::ALL_ON);
        if let Some(mut h) = out.handle {
            h.set_title("changed by the caller");
            h.set_status("deleted");
        }
        prop_assert_eq!(store.records(), before);
    }
}

#[test]
fn safeguard_names_in_progress_files() {
    let keys: Vec<Value> = Safeguard::ALL
        .iter()
        .map(|s| serde_json::to_value(s).unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "allowlist",
            "exact_shape",
            "id_format",
            "read_permission",
            "tenant_scope",
            "copy_on_return"
        ]
    );
}
