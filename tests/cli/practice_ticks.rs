//! `tooldojo practice FILE` passing every row ticks the checklist items that wait for the
//! grader, in the learner's progress file. Skipped, with a message, without python3.

use std::process::Command;

const SOLUTION: &str = r#"
import re

ID = re.compile(r"TKT-[0-9]{3}")


def validate_tool_args(schema, required, args):
    for name in sorted(required):
        if name not in args:
            return (False, "missing required arg: " + name)
    for name in args:
        if name not in schema:
            return (False, "unknown arg: " + name)
    for name, value in args.items():
        want = schema[name]
        if isinstance(value, bool) and want is not bool:
            return (False, "type error: %s expected %s, got bool" % (name, want.__name__))
        if not isinstance(value, want):
            got = type(value).__name__
            return (False, "type error: %s expected %s, got %s" % (name, want.__name__, got))
    return (True, "")


def execute_tool(name, args, context, records):
    if name != "get_ticket":
        return {"ok": False, "code": "unknown_tool"}
    if not isinstance(args, dict) or list(args) != ["ticket_id"]:
        return {"ok": False, "code": "invalid_arguments"}
    ticket_id = args["ticket_id"]
    if not isinstance(ticket_id, str) or not ID.fullmatch(ticket_id):
        return {"ok": False, "code": "invalid_arguments"}
    if context.get("canReadTickets") is not True:
        return {"ok": False, "code": "forbidden"}
    found = records.get("%s:%s" % (context["tenant"], ticket_id))
    if found is None:
        return {"ok": False, "code": "not_found"}
    return {"ok": True, "ticket": {"id": found["id"], "title": found["title"], "status": found["status"]}}
"#;

#[test]
fn a_full_pass_ticks_the_course_checklist_in_the_progress_file() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIPPED: python3 is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("solution.py");
    std::fs::write(&file, SOLUTION).unwrap();
    let state = dir.path().join("state");
    let out = Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .arg("practice")
        .arg(&file)
        .env("TOOLDOJO_STATE_DIR", &state)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("ticked on the course checklist"),
        "{stderr}"
    );
    let progress: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(state.join("progress.json")).unwrap())
            .unwrap();
    let lesson = progress["lessons"]
        .as_object()
        .unwrap()
        .iter()
        .find(|(id, _)| id.starts_with("14-"))
        .map(|(_, l)| l)
        .expect("lesson 14 recorded");
    let blocks = lesson["blocks"].as_object().unwrap();
    assert!(
        blocks
            .values()
            .any(|b| b["ticked"] == serde_json::json!([true, true])),
        "{blocks:?}"
    );
    // A failing file ticks nothing (and leaves the ticks already earned).
    let broken = dir.path().join("broken.py");
    std::fs::write(&broken, SOLUTION.replace("is not True", "is None")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .arg("practice")
        .arg(&broken)
        .env("TOOLDOJO_STATE_DIR", &state)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("ticked on the course checklist"));
}
