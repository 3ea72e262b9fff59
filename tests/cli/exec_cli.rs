//! `tooldojo exec` run as a user runs it.

use std::process::Output;

use crate::support::{exec_with_records, tooldojo};

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn one_call_per_invocation() {
    let o = tooldojo(
        &[
            "exec",
            "--tool",
            "get_ticket",
            "--args",
            r#"{"ticket_id": "TKT-104"}"#,
            "--tenant",
            "beta",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        out(&o),
        "{\"ok\": true, \"ticket\": {\"id\": \"TKT-104\", \"title\": \"Private billing issue\", \"status\": \"closed\"}}\n"
    );
    let rows = [
        (
            vec![
                "--tool",
                "delete_ticket",
                "--args",
                r#"{"ticket_id": "TKT-104"}"#,
                "--tenant",
                "alpha",
            ],
            "unknown_tool",
        ),
        (
            vec![
                "--tool",
                "get_ticket",
                "--args",
                r#"{"ticket_id": "TKT-104"}"#,
                "--tenant",
                "alpha",
                "--deny-read",
            ],
            "forbidden",
        ),
        (
            vec![
                "--tool",
                "get_ticket",
                "--args",
                r#"{"ticket_id": "TKT-999"}"#,
                "--tenant",
                "alpha",
            ],
            "not_found",
        ),
        (
            vec![
                "--tool",
                "get_ticket",
                "--args",
                "null",
                "--tenant",
                "alpha",
            ],
            "invalid_arguments",
        ),
        (
            vec![
                "--tool",
                "get_ticket",
                "--args",
                "{nope",
                "--tenant",
                "alpha",
            ],
            "invalid_arguments",
        ),
        (
            vec![
                "--tool",
                "get_ticket",
                "--args",
                r#"{"ticket_id": "TKT-104", "tenant": "alpha"}"#,
                "--tenant",
                "alpha",
            ],
            "invalid_arguments",
        ),
    ];
    for (args, code) in rows {
        let mut all = vec!["exec"];
        all.extend(args.iter().copied());
        let o = tooldojo(&all, None);
        assert_eq!(o.status.code(), Some(0));
        assert!(
            out(&o).starts_with(&format!(
                "{{\"ok\": false, \"code\": \"{code}\", \"detail\": "
            )),
            "{args:?}: {}",
            out(&o)
        );
    }
}

#[test]
fn records_from_a_file_and_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.json");
    std::fs::write(
        &path,
        r#"[{"tenant": "t1", "id": "TKT-001", "title": "Mine", "status": "open"}]"#,
    )
    .unwrap();
    let at = format!("@{}", path.display());
    let o = tooldojo(
        &[
            "exec",
            "--tool",
            "get_ticket",
            "--args",
            r#"{"ticket_id": "TKT-001"}"#,
            "--tenant",
            "t1",
            "--records",
            &at,
        ],
        None,
    );
    assert!(out(&o).contains("\"title\": \"Mine\""), "{}", out(&o));
    // TKT-104 is not in this store
    let o = tooldojo(
        &[
            "exec",
            "--tool",
            "get_ticket",
            "--args",
            r#"{"ticket_id": "TKT-104"}"#,
            "--tenant",
            "alpha",
            "--records",
            &at,
        ],
        None,
    );
    assert!(out(&o).contains("not_found"));
    std::fs::write(&path, "[\n  {\"tenant\": \"t1\",}\n]").unwrap();
    let o = tooldojo(&exec_with_records("t1", &at), None);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("r.json:2:"), "{err}");
    std::fs::write(&path, r#"[{"tenant": "a", "id": "TKT-001", "title": "x", "status": "open"}, {"tenant": "a", "id": "TKT-001", "title": "y", "status": "open"}]"#).unwrap();
    let o = tooldojo(&exec_with_records("a", &at), None);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn jsonl_cases() {
    let input = concat!(
        r#"{"tool": "get_ticket", "args": {"ticket_id": "TKT-104"}, "context": {"tenant": "alpha", "can_read_tickets": true}}"#,
        "\n",
        r#"{"tool": "get_ticket", "args": {"ticket_id": "TKT-104", "ticket_id": "TKT-999"}, "context": {"tenant": "alpha", "can_read_tickets": true}}"#,
        "\n",
        r#"{"tool": "rm", "args": {"ticket_id": "TKT-104", "ticket_id": "TKT-999"}, "context": {"tenant": "alpha", "can_read_tickets": true}}"#,
        "\n",
        r#"{"tool": "get_ticket", "args_text": "[1", "context": {"tenant": "alpha", "can_read_tickets": true}}"#,
        "\n",
        r#"{"tool": "get_ticket", "args": {}}"#,
        "\n",
    );
    let o = tooldojo(&["exec", "--jsonl"], Some(input));
    let lines: Vec<String> = out(&o).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 5);
    assert!(lines[0].starts_with("{\"ok\": true"));
    assert!(
        lines[1].contains("invalid_arguments") && lines[1].contains("duplicate arg: ticket_id")
    );
    assert!(lines[2].contains("unknown_tool"));
    assert!(lines[3].contains("invalid_arguments"));
    assert_eq!(
        lines[4],
        "{\"ok\": false, \"error\": \"bad case: missing \\\"context\\\"\"}"
    );
}

#[test]
fn switching_scoping_off_leaks_across_tenants() {
    let args = [
        "exec",
        "--tool",
        "get_ticket",
        "--args",
        r#"{"ticket_id": "TKT-104"}"#,
        "--tenant",
        "delta",
    ];
    assert!(out(&tooldojo(&args, None)).contains("not_found"));
    let mut off = args.to_vec();
    off.extend(["--off", "tenant_scoping"]);
    assert!(out(&tooldojo(&off, None)).contains("Settings crash"));
}
