//! `tooldojo practice` against hostile learner code: the user's terminal, the grader's
//! channel, forged passes, the grader's environment, the network and Unix sockets, memory
//! and process bombs, raw escapes and the learner's own directory.
//!
//! Each probe runs inside the learner's `execute_tool` and prints `PROBE ...` lines, which
//! the report carries as the row's output; `practice --json` says what held on this machine.
//! A claim the report makes is checked against what the code could really do. Where
//! `TOOLDOJO_REQUIRE_SANDBOX=1` (CI), every kind of isolation must also have held.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const PYTHON_GOOD: &str = include_str!("../data/practice/solution.py");
const JS_BODY: &str = include_str!("../data/practice/execute_tool.js");

fn has(program: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()));
    if !found {
        eprintln!("skipped: {program} is not installed");
    }
    found
}

fn require_sandbox() -> bool {
    std::env::var_os("TOOLDOJO_REQUIRE_SANDBOX").is_some_and(|v| v == "1")
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_tooldojo")
}

/// `tooldojo` with its progress kept in a folder of the tests' own: a row that passes
/// ticks the course checklist, never in the progress of whoever runs the tests.
fn tooldojo() -> Command {
    let mut cmd = Command::new(bin());
    cmd.env(
        "TOOLDOJO_STATE_DIR",
        std::env::temp_dir().join("tooldojo-practice-sandbox-state"),
    );
    cmd
}

struct Run {
    code: Option<i32>,
    json: Value,
    stderr: String,
}

impl Run {
    fn rows(&self) -> &Vec<Value> {
        self.json["rows"].as_array().expect("rows")
    }

    /// Every `PROBE` line the code printed, over all rows.
    fn probes(&self) -> String {
        self.rows()
            .iter()
            .filter_map(|r| r["output"].as_str())
            .flat_map(str::lines)
            .filter(|l| l.starts_with("PROBE "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn held(&self, key: &str) -> bool {
        let held = self.json[key].as_bool().unwrap_or(false);
        if !held {
            eprintln!("this machine did not hold {key}");
            assert!(!require_sandbox(), "{key} must hold here: {}", self.json);
        }
        held
    }

    /// The first `execute_tool` row (where the probes run).
    fn first_exec(&self) -> &Value {
        self.rows()
            .iter()
            .find(|r| r["function"] == "execute")
            .expect("an execute row")
    }
}

fn practice(dir: &Path, name: &str, text: &str, extra: &[&str], env: &[(&str, &str)]) -> Run {
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    // A pass ticks the checklist in the progress file: never the real one.
    let home = tempfile::tempdir().unwrap();
    let mut cmd = tooldojo();
    cmd.env("HOME", home.path()).env_remove("XDG_DATA_HOME");
    cmd.args(["practice", "--json", file.to_str().unwrap()])
        .args(["--time-limit-ms", "10000", "--run-limit-ms", "120000"])
        .args(extra)
        .current_dir(dir)
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    parse(cmd.output().expect("run tooldojo"))
}

fn parse(o: Output) -> Run {
    let stdout = String::from_utf8_lossy(&o.stdout).replace('\r', "");
    let json = match (stdout.find('{'), stdout.rfind('}')) {
        (Some(a), Some(b)) => serde_json::from_str(&stdout[a..=b]).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(json.is_object(), "no report:\n{stdout}\n{stderr}");
    Run {
        code: o.status.code(),
        json,
        stderr,
    }
}

/// A Python solution that runs `probe()` (defined in `code`) on its first call and prints
/// what it returns, then answers like the reference solution.
fn python_probe(code: &str) -> String {
    format!(
        "{PYTHON_GOOD}\n_real = execute_tool\n_done = []\n{code}\n\ndef execute_tool(name, args, context, records):\n    if not _done:\n        _done.append(1)\n        print('PROBE ' + str(probe()), flush=True)\n    return _real(name, args, context, records)\n"
    )
}

#[test]
fn the_code_cannot_open_the_users_terminal_nor_keep_an_inherited_descriptor() {
    if !has("python3") || !has("script") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let probe = r#"
import os, fcntl, termios
def probe():
    out = []
    try:
        fd = os.open("/dev/tty", os.O_RDWR)
        out.append("tty-opened")
        try:
            fcntl.ioctl(fd, termios.TIOCSTI, b"x")
            out.append("tiocsti-worked")
        except OSError:
            out.append("tiocsti-refused")
    except OSError as e:
        out.append("tty-refused:%d" % e.errno)
    for fd in (0, 1, 2):
        try:
            fcntl.ioctl(fd, termios.TIOCSTI, b"x")
            out.append("fd%d-tiocsti-worked" % fd)
        except OSError:
            pass
    out.append("fds:" + ",".join(sorted(os.listdir("/proc/self/fd"), key=int)))
    return " ".join(out)
"#;
    let file = dir.path().join("s.py");
    std::fs::write(&file, python_probe(probe)).unwrap();
    // A pty for the grader (so it has a terminal to steal), and descriptor 7 left open by
    // the shell that starts it.
    let inner = format!(
        "exec 7</etc/hostname; exec {} practice --json {} --time-limit-ms 10000 --run-limit-ms 120000",
        bin(),
        file.display()
    );
    let home = tempfile::tempdir().unwrap();
    let o = Command::new("script")
        .args(["-qec", &inner, "/dev/null"])
        .env("HOME", home.path())
        .env("TOOLDOJO_STATE_DIR", home.path().join("state"))
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let run = parse(o);
    let probes = run.probes();
    assert!(probes.contains("tty-refused"), "{probes}");
    assert!(!probes.contains("tty-opened"), "{probes}");
    assert!(!probes.contains("tiocsti-worked"), "{probes}");
    let fds: Vec<&str> = probes
        .split("fds:")
        .nth(1)
        .unwrap_or("")
        .trim()
        .split(',')
        .collect();
    // 0-2, the channel, and the directory listdir opened: nothing inherited.
    assert!(fds.len() <= 5 && !fds.contains(&"7"), "{fds:?}");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

/// The most resident memory `pid` has had, while it runs (read until it exits).
fn watch_peak(child: &mut std::process::Child) -> u64 {
    let mut peak = 0;
    loop {
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()));
        if let Ok(text) = status
            && let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        {
            peak = peak.max(kb << 10);
        }
        if child.try_wait().unwrap().is_some() {
            return peak;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn megabytes_on_the_channel_without_a_newline_fail_the_row_and_the_grader_stays_small() {
    if !has("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let probe = "import os\ndef probe():\n    while True:\n        os.write(3, b'x' * (1 << 20))\n";
    let file = dir.path().join("s.py");
    std::fs::write(&file, python_probe(probe)).unwrap();
    let mut child = tooldojo()
        .args(["practice", "--json", file.to_str().unwrap()])
        .args(["--time-limit-ms", "3000", "--run-limit-ms", "120000"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let peak = watch_peak(&mut child);
    let run = parse(child.wait_with_output().unwrap());
    assert_eq!(
        run.code,
        Some(1),
        "an overflow fails rows, never aborts the grader"
    );
    let first = run.first_exec();
    assert_eq!(first["status"], "error", "{first}");
    assert!(
        first["note"]
            .as_str()
            .unwrap_or("")
            .contains("descriptor 3"),
        "{first}"
    );
    assert!(peak < 200 << 20, "the grader grew to {} MiB", peak >> 20);
}

/// The ids of the rows that did not pass.
fn failing(run: &Run) -> Vec<String> {
    run.rows()
        .iter()
        .filter(|r| r["status"] != "pass")
        .map(|r| r["id"].as_str().unwrap_or("").to_owned())
        .collect()
}

/// Every row the honest file fails, the patched copy fails too: patching the harness forged nothing.
fn assert_no_forged_pass(honest: &Run, patched: &Run) {
    let forged: Vec<String> = failing(honest)
        .into_iter()
        .filter(|id| !failing(patched).contains(id))
        .collect();
    assert!(forged.is_empty(), "forged passes: {forged:?}");
}

#[test]
fn a_python_harness_patched_by_the_learner_still_fails_a_wrong_store() {
    if !has("python3") {
        return;
    }
    let wrong = PYTHON_GOOD.replace(
        "    return {\"ok\": True, \"ticket\": {k: stored[k] for k in (\"id\", \"title\", \"status\")}}",
        "    stored[\"views\"] = stored.get(\"views\", 0) + 1\n    return {\"ok\": True, \"ticket\": stored}",
    );
    assert_ne!(wrong, PYTHON_GOOD);
    let forged = format!(
        "import __main__, json\n__main__.snapshot = lambda records: 'same'\njson.dumps = lambda *a, **k: '{{}}'\njson.JSONEncoder.encode = lambda self, o: '{{}}'\n{wrong}"
    );
    let dir = tempfile::tempdir().unwrap();
    let honest = practice(dir.path(), "honest.py", &wrong, &[], &[]);
    let patched = practice(dir.path(), "forged.py", &forged, &[], &[]);
    assert_eq!(honest.code, Some(1));
    assert_eq!(patched.code, Some(1), "a forged pass");
    for id in ["edge-mutation", "held-caller-edits-copy"] {
        assert!(
            failing(&honest).iter().any(|f| f == id),
            "{:?}",
            failing(&honest)
        );
    }
    assert_no_forged_pass(&honest, &patched);
}

#[test]
fn a_javascript_harness_patched_by_the_learner_still_fails_a_wrong_store() {
    if !has("node") {
        return;
    }
    let wrong = JS_BODY.replace(
        "  return { ok: true, ticket: { id: stored.id, title: stored.title, status: stored.status } };",
        "  stored.views = (stored.views || 0) + 1;\n  return { ok: true, ticket: stored };",
    );
    assert_ne!(wrong, JS_BODY);
    let honest_text = format!("{wrong}\nmodule.exports = {{ executeTool }};\n");
    let forged_text = format!(
        "JSON.stringify = () => '[]';\nObject.keys = () => [];\nMap.prototype.forEach = function () {{}};\nObject.prototype.toJSON = function () {{ return {{}}; }};\n{honest_text}"
    );
    let dir = tempfile::tempdir().unwrap();
    let honest = practice(dir.path(), "honest.js", &honest_text, &[], &[]);
    let patched = practice(dir.path(), "forged.js", &forged_text, &[], &[]);
    assert_eq!(honest.code, Some(1));
    assert_eq!(patched.code, Some(1), "a forged pass");
    assert!(failing(&honest).iter().any(|f| f == "edge-mutation"));
    assert_no_forged_pass(&honest, &patched);
}

#[test]
fn the_graders_environment_cannot_be_read_through_proc() {
    if !has("python3") {
        return;
    }
    let secret = format!("planted-secret-{}", std::process::id());
    let probe = format!(
        r#"
import os
def probe():
    found, seen = [], 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        seen += 1
        for path in ("/proc/%s/environ" % pid, "/proc/%s/task/%s/environ" % (pid, pid)):
            try:
                if b"{secret}" in open(path, "rb").read():
                    found.append(path)
            except OSError:
                pass
    if "{secret}" in repr(dict(os.environ)):
        found.append("os.environ")
    return "environ found=%s seen=%d" % (",".join(found) or "none", seen)
"#
    );
    let dir = tempfile::tempdir().unwrap();
    let run = practice(
        dir.path(),
        "s.py",
        &python_probe(&probe),
        &[],
        &[("TOOLDOJO_PLANTED", &secret)],
    );
    let probes = run.probes();
    assert!(probes.contains("environ found=none"), "{probes}");
    run.held("fs_isolated");
}

#[test]
fn no_network_no_unix_sockets_no_capabilities_no_way_back_into_the_graders_namespaces() {
    if !has("python3") {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = tcp.local_addr().unwrap().port();
    // A socket anyone may connect to, in a folder anyone may enter.
    let open = tempfile::Builder::new()
        .prefix("tooldojo-socket-")
        .tempdir_in("/tmp")
        .unwrap();
    std::fs::set_permissions(open.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let sock = open.path().join("agent.sock");
    let _unix = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    std::fs::set_permissions(&sock, std::fs::Permissions::from_mode(0o777)).unwrap();
    let probe = format!(
        r#"
import os, socket, ctypes
def probe():
    out = []
    s = socket.socket()
    s.settimeout(2)
    try:
        s.connect(("127.0.0.1", {port}))
        out.append("tcp-connected")
    except OSError as e:
        out.append("tcp-refused")
    u = socket.socket(socket.AF_UNIX)
    try:
        u.connect({sock:?})
        out.append("unix-connected")
    except OSError as e:
        out.append("unix-refused")
    status = open("/proc/self/status").read()
    field = {{l.split(":")[0]: l.split()[1] for l in status.splitlines() if ":" in l and len(l.split()) > 1}}
    out.append("caps=" + ",".join(field.get(k, "?") for k in ("CapEff", "CapPrm", "CapInh", "CapAmb")))
    gain = field.get("CapBnd") == "0000000000000000" or field.get("NoNewPrivs") == "1"
    out.append("gain=" + ("none" if gain else "POSSIBLE"))
    out.append("uid=%d" % os.getuid())
    libc = ctypes.CDLL(None, use_errno=True)
    own = os.readlink("/proc/self/ns/net")
    joined = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        for kind in ("net", "mnt", "pid", "user"):
            try:
                fd = os.open("/proc/%s/ns/%s" % (pid, kind), os.O_RDONLY)
            except OSError:
                continue
            if libc.setns(fd, 0) == 0:
                joined += 1
            os.close(fd)
    out.append("setns=%d" % joined)
    return " ".join(out)
"#
    );
    let dir = tempfile::tempdir().unwrap();
    let run = practice(dir.path(), "s.py", &python_probe(&probe), &[], &[]);
    let probes = run.probes();
    assert!(probes.contains("PROBE "), "{}\n{}", run.json, run.stderr);
    if run.held("net_isolated") {
        assert!(probes.contains("tcp-refused"), "{probes}");
    }
    if run.held("fs_isolated") {
        assert!(probes.contains("unix-refused"), "{probes}");
    }
    if run.held("caps_dropped") {
        assert!(
            probes.contains(
                "caps=0000000000000000,0000000000000000,0000000000000000,0000000000000000"
            ),
            "{probes}"
        );
        assert!(probes.contains("setns=0"), "{probes}");
        assert!(!probes.contains("uid=0 "), "{probes}");
    }
    drop(tcp);
}

/// Six forks of 200 MiB each: under each process's own cap (a fork of 1 GiB is refused
/// outright), over the run's. Each holds its block until all six have said theirs is
/// touched, so on a busy machine the first ones cannot be gone before the last allocate.
#[test]
fn six_forks_of_a_big_python_share_one_memory_cap() {
    if !has("python3") {
        return;
    }
    let probe = r#"
import os, select, time
def probe():
    ready_r, ready_w = os.pipe()
    kids = []
    for _ in range(6):
        pid = os.fork()
        if pid == 0:
            try:
                os.close(ready_r)
                block = bytearray(200 << 20)
                for i in range(0, len(block), 4096):
                    block[i] = 1
                os.write(ready_w, b"x")
                time.sleep(60)
                os._exit(0)
            finally:
                os._exit(1)
        kids.append(pid)
    os.close(ready_w)
    held, gone, until = 0, [], time.time() + 8
    # Until all six hold their block, one of them is gone (the cap killed it), or time is up.
    while held < 6 and not gone and time.time() < until:
        if select.select([ready_r], [], [], 0.1)[0]:
            held += len(os.read(ready_r, 6))
        gone = [pid for pid in kids if os.waitpid(pid, os.WNOHANG)[0] != 0]
    for pid in kids:
        if pid not in gone:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
            os.waitpid(pid, 0)
    return "allocated=%d" % held
"#;
    let text = python_probe(probe).replace(
        "        print('PROBE ' + str(probe()), flush=True)\n",
        "        print('PROBE ' + str(probe()), flush=True)\n        return {'ok': False, 'code': 'after-the-bomb'}\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let run = practice(dir.path(), "s.py", &text, &[], &[]);
    let first = run.first_exec();
    match run.json["limits"]["kind"].as_str() {
        Some("cgroup") => {
            assert_eq!(first["status"], "memory", "{first}");
            let peak = first["memory_peak"].as_u64().unwrap_or(0);
            assert!(peak <= (1 << 30) + (16 << 20), "{} MiB", peak >> 20);
        }
        other => {
            assert!(!require_sandbox(), "no cgroup here: {other:?}");
            eprintln!("no cgroup here: memory is capped per process only ({other:?})");
        }
    }
}

#[test]
fn node_buffers_are_capped() {
    if !has("node") {
        return;
    }
    let text = format!(
        "{JS_BODY}\nconst held = [];\nmodule.exports = {{ executeTool(...a) {{ if (!held.length) {{ for (let i = 0; i < 40; i += 1) held.push(Buffer.alloc(64 << 20, 1)); }} return executeTool(...a); }} }};\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let run = practice(dir.path(), "s.js", &text, &[], &[]);
    let first = run.first_exec();
    assert_eq!(first["status"], "memory", "{first}");
    if let Some(peak) = first["memory_peak"].as_u64() {
        assert!(peak <= (1 << 30) + (16 << 20), "{} MiB", peak >> 20);
    }
}

#[test]
fn four_hundred_children_are_refused() {
    if !has("python3") {
        return;
    }
    let probe = r#"
import os, time
def probe():
    started, error = 0, ""
    for _ in range(400):
        try:
            pid = os.fork()
        except OSError as e:
            error = str(e)
            break
        if pid == 0:
            time.sleep(20)
            os._exit(0)
        started += 1
    return "started=%d %s" % (started, error)
"#;
    let text = python_probe(probe).replace(
        "        print('PROBE ' + str(probe()), flush=True)\n",
        "        print('PROBE ' + str(probe()), flush=True)\n        return {'ok': False, 'code': 'after-the-bomb'}\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let run = practice(dir.path(), "s.py", &text, &[], &[]);
    let probes = run.probes();
    let started: u64 = probes
        .split("started=")
        .nth(1)
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(u64::MAX);
    let tasks = run.json["limits"]["tasks"].as_u64().unwrap_or(0);
    assert!(started < 400 && started <= tasks, "{probes} (cap {tasks})");
    assert_eq!(
        run.first_exec()["status"],
        "processes",
        "{probes}\n{}",
        run.first_exec()
    );
}

fn raw_controls(text: &str) -> Vec<char> {
    text.replace("\u{1b}[2J\u{1b}[H", "")
        .chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\r')
                || ('\u{80}'..='\u{9f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
        })
        .collect()
}

#[test]
fn a_file_that_defines_neither_function_reports_without_raw_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases: Vec<(&str, String)> = Vec::new();
    if has("python3") {
        cases.push((
            "broken.py",
            "print('\\x1b]52;c;SGVsbG8=\\x07 last \\x9b31m')\nraise ValueError('\\x1b[31mred\\u202e')\n"
                .to_owned(),
        ));
    }
    if has("node") {
        cases.push((
            "exports.js",
            "module.exports = { '\\u001b]52;c;QUFB\\u0007': 1, 'a\\u202eb': 2 };\n".to_owned(),
        ));
    }
    for (name, text) in cases {
        let file = dir.path().join(name);
        std::fs::write(&file, &text).unwrap();
        let o = tooldojo()
            .args(["practice", file.to_str().unwrap()])
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("defines none"), "{err}");
        assert!(raw_controls(&err).is_empty(), "{name}: {err:?}");
        // The same with --watch, on stdout, until the first screen is drawn.
        let mut watch = tooldojo()
            .args(["practice", file.to_str().unwrap(), "--watch"])
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = watch.stdout.take().unwrap();
        let mut seen = Vec::new();
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !String::from_utf8_lossy(&seen).contains("waiting for the next save")
            && std::time::Instant::now() < until
        {
            let mut buf = [0u8; 4096];
            match std::io::Read::read(&mut out, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => seen.extend_from_slice(&buf[..n]),
            }
        }
        let _ = watch.kill();
        let _ = watch.wait();
        let shown = String::from_utf8_lossy(&seen);
        assert!(shown.contains("defines none"), "{shown}");
        assert!(raw_controls(&shown).is_empty(), "{name}: {shown:?}");
    }
}

#[test]
fn the_learners_directory_stays_as_it_was() {
    if !has("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let text = format!("import json, re, collections\n{PYTHON_GOOD}");
    let run = practice(dir.path(), "s.py", &text, &[], &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, vec!["s.py"], "no __pycache__, nothing else");
}
