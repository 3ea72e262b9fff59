//! `tooldojo audit` on the cases a careful reader of its output would try: a session long
//! enough to be cut in parts, calls made side by side in one turn, a wrong `--format`, MCP
//! records that carry their own result, and the wording of what it finds. Every input is
//! written here, small, for the case it shows.

use serde_json::{Value, json};

use super::support::tooldojo;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = tooldojo(args, None);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_owned()
}

/// The conversation lines of `--json` output.
fn conversations(lines: &[Value]) -> Vec<&Value> {
    lines
        .iter()
        .filter(|l| l["conversation"] == json!(true))
        .collect()
}

#[test]
fn a_session_cut_at_its_size_says_so_in_both_reports() {
    // One MCP session of 100,001 answered calls: more than one conversation keeps.
    let mut log = String::from(
        "{\"jsonrpc\": \"2.0\", \"id\": 0, \"result\": {\"tools\": [{\"name\": \"ping\", \
         \"inputSchema\": {\"type\": \"object\"}}]}}\n",
    );
    for i in 1..=100_001 {
        log.push_str(&format!(
            "{{\"jsonrpc\": \"2.0\", \"id\": {i}, \"method\": \"tools/call\", \"params\": \
             {{\"name\": \"ping\", \"arguments\": {{\"n\": {i}}}}}}}\n\
             {{\"jsonrpc\": \"2.0\", \"id\": {i}, \"result\": {{\"content\": [{{\"type\": \
             \"text\", \"text\": \"pong\"}}]}}}}\n"
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "long.jsonl", &log);
    let (code, out, err) = run(&["audit", "--json", &path]);
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    let convs = conversations(&lines);
    assert_eq!(convs.len(), 2);
    assert_eq!(convs[0]["part"], json!(1));
    assert_eq!(convs[1]["part"], json!(2));
    assert_eq!(convs[0]["calls"], json!(100_000));
    assert_eq!(convs[1]["calls"], json!(1));
    assert!(
        convs[1]["cut"]
            .as_str()
            .unwrap()
            .contains("cut every 100,000 calls"),
        "{}",
        convs[1]
    );
    let (code, out, _) = run(&["audit", &path]);
    assert_eq!(code, 0);
    assert!(
        out.contains("#1: part 1 of one MCP session, cut every 100,000 calls"),
        "{out}"
    );
    assert!(out.contains(": part 2 of one MCP session"), "{out}");
}
