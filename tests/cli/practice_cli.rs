//! `tooldojo practice` on solutions written here: correct ones pass every row, and each
//! classic mistake (or hostile behaviour) is caught on the row that tests it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The reference solutions, shared with the other practice and drill tests.
const PYTHON_GOOD: &str = include_str!("../data/practice/solution.py");
const JS_BODY: &str = include_str!("../data/practice/execute_tool.js");

fn has(program: &str) -> bool {
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    let found = std::env::split_paths(&path).any(|d| d.join(program).is_file());
    if !found {
        eprintln!("skipped: {program} is not installed, so its practice tests cannot run");
    }
    found
}

fn tooldojo(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .args(args)
        .current_dir(cwd)
        // A passing grade ticks the course checklist: in the test's own folder, never in
        // the progress of whoever runs the tests.
        .env("TOOLDOJO_STATE_DIR", cwd.join("state"))
        .env("TOOLDOJO_TEST_SECRET", "do-not-leak")
        .output()
        .expect("run tooldojo")
}

struct Graded {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Graded {
    /// Row ids by kind: PASS, FAIL (a wrong answer), or a failure's tag in capitals
    /// (ERROR, TIMEOUT, FLOOD, NOT-RUN).
    fn rows(&self, kind: &str) -> BTreeSet<String> {
        self.stdout
            .lines()
            .filter_map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let mark = *words.first()?;
                if mark != "PASS" && mark != "FAIL" {
                    return None;
                }
                let tag = words
                    .get(3)
                    .and_then(|w| w.strip_prefix('[')?.strip_suffix(']'));
                let this = tag.map_or(mark.to_owned(), str::to_uppercase);
                (this == kind).then(|| words[2].to_owned())
            })
            .collect()
    }

    fn failing(&self) -> BTreeSet<String> {
        let mut all = BTreeSet::new();
        for s in ["FAIL", "ERROR", "TIMEOUT", "FLOOD", "NOT-RUN"] {
            all.extend(self.rows(s));
        }
        all
    }

    fn line(&self, id: &str) -> &str {
        self.stdout
            .lines()
            .find(|l| l.split_whitespace().any(|w| w == id))
            .unwrap_or_else(|| panic!("no row {id} in\n{}", self.stdout))
    }

    fn summary(&self) -> &str {
        self.stdout.lines().last().unwrap_or("")
    }
}

fn grade(name: &str, text: &str, extra: &[&str]) -> Graded {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, text).unwrap();
    let mut args = vec!["practice", file.to_str().unwrap()];
    if !extra.contains(&"--time-limit-ms") {
        // Generous limits: a busy test machine must not turn a slow row into a failure.
        args.extend_from_slice(&["--time-limit-ms", "10000", "--run-limit-ms", "120000"]);
    }
    args.extend_from_slice(extra);
    let o = tooldojo(&args, dir.path());
    Graded {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|s| (*s).to_owned()).collect()
}

fn python(edit: &str, with: &str) -> String {
    assert!(PYTHON_GOOD.contains(edit), "the edit must apply: {edit}");
    PYTHON_GOOD.replacen(edit, with, 1)
}

#[test]
fn a_correct_python_solution_passes_every_row() {
    if !has("python3") {
        return;
    }
    let g = grade("solution.py", PYTHON_GOOD, &[]);
    assert_eq!(g.code, Some(0), "{}\n{}", g.stdout, g.stderr);
    assert!(g.failing().is_empty());
    let passed = g.rows("PASS");
    for id in [
        "seed-ok",
        "trap-huge-int",
        "order-required-flat",
        "held-order-two-missing",
        "row-8",
        "edge-mutation",
        "held-caller-edits-copy",
    ] {
        assert!(passed.contains(id), "{id} missing from\n{}", g.stdout);
    }
    assert_eq!(g.summary(), format!("{} passed, 0 failed", passed.len()));
}

#[test]
fn a_pass_claims_a_checklist_tick_only_where_progress_is_saved() {
    if !has("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("solution.py");
    std::fs::write(&file, PYTHON_GOOD).unwrap();
    let state = dir.path().join("state");
    std::fs::create_dir(&state).unwrap();
    let later = r#"{"version": 9, "lessons": {}}"#;
    std::fs::write(state.join("progress.json"), later).unwrap();
    let args = [
        "practice",
        file.to_str().unwrap(),
        "--time-limit-ms",
        "10000",
    ];
    let o = tooldojo(&args, dir.path());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("ticked"), "nothing was saved:\n{stderr}");
    assert_eq!(
        std::fs::read_to_string(state.join("progress.json")).unwrap(),
        later
    );
    // A progress file this version writes: the tick is saved and said.
    std::fs::remove_file(state.join("progress.json")).unwrap();
    let o = tooldojo(&args, dir.path());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("ticked on the course checklist"),
        "{stderr}"
    );
    assert!(state.join("progress.json").is_file());
}

#[test]
fn correct_javascript_passes_as_commonjs_and_as_an_es_module() {
    if !has("node") {
        return;
    }
    let cjs = format!("'use strict';\n{JS_BODY}\nmodule.exports = {{ executeTool }};\n");
    let esm = format!(
        "{}\n",
        JS_BODY.replace("function executeTool", "export function executeTool")
    );
    for (name, text) in [
        ("solution.js", &cjs),
        ("solution.cjs", &cjs),
        ("solution.mjs", &esm),
        ("esm.js", &esm),
    ] {
        let g = grade(name, text, &[]);
        assert_eq!(g.code, Some(0), "{name}\n{}\n{}", g.stdout, g.stderr);
        assert!(g.rows("PASS").contains("held-unanchored-suffix"), "{name}");
        assert!(
            g.rows("PASS").iter().all(|id| !id.starts_with("seed")),
            "JS grades executeTool only"
        );
    }
}

#[test]
fn a_missing_bool_guard_fails_exactly_the_bool_rows() {
    if !has("python3") {
        return;
    }
    let g = grade(
        "s.py",
        &python(
            "if isinstance(value, bool) and want is not bool:",
            "if False:",
        ),
        &[],
    );
    assert_eq!(g.code, Some(1));
    assert_eq!(
        g.failing(),
        set(&[
            "held-bool-count",
            "held-bool-retries",
            "trap-false-as-int",
            "trap-true-as-int"
        ])
    );
    assert!(
        g.line("trap-true-as-int")
            .contains("revisit lesson 03-json-traps")
    );
}

#[test]
fn an_unanchored_id_pattern_is_caught_on_the_id_rows() {
    if !has("python3") {
        return;
    }
    let g = grade(
        "s.py",
        &python(
            "TICKET_ID.fullmatch(ticket_id)",
            "TICKET_ID.search(ticket_id)",
        ),
        &[],
    );
    assert_eq!(g.code, Some(1));
    assert_eq!(
        g.failing(),
        set(&[
            "edge-four-digit",
            "edge-trailing-newline",
            "held-trailing-newline",
            "held-unanchored-prefix",
            "held-unanchored-suffix"
        ]),
        "a pattern searched anywhere lets a prefix, a suffix and a newline through"
    );
    let dollar = python("r\"TKT-[0-9]{3}\"", "r\"^TKT-\\d{3}$\"").replace(
        "TICKET_ID.fullmatch(ticket_id)",
        "TICKET_ID.match(ticket_id)",
    );
    let unicode = grade("s.py", &dollar, &[]);
    assert_eq!(
        unicode.failing(),
        set(&[
            "edge-trailing-newline",
            "edge-unicode-digits",
            "held-devanagari-digits",
            "held-mixed-digits",
            "held-trailing-newline"
        ]),
        "\\d and $ let Unicode digits and a trailing newline through"
    );
}

#[test]
fn no_tenant_scoping_is_caught() {
    if !has("python3") {
        return;
    }
    let g = grade(
        "s.py",
        &python(
            "records.get(context[\"tenant\"] + \":\" + ticket_id)",
            "next((v for k, v in records.items() if k.endswith(\":\" + ticket_id)), None)",
        ),
        &[],
    );
    assert_eq!(g.code, Some(1));
    assert_eq!(g.failing(), set(&["edge-unknown-tenant", "row-2"]));
    assert!(
        g.line("row-2").contains("Settings crash"),
        "alpha's ticket leaked to beta"
    );
}

#[test]
fn returning_the_stored_object_is_caught_on_the_edit_rows() {
    if !has("python3") {
        return;
    }
    let g = grade(
        "s.py",
        &python(
            "{\"ok\": True, \"ticket\": {k: stored[k] for k in (\"id\", \"title\", \"status\")}}",
            "{\"ok\": True, \"ticket\": stored}",
        ),
        &[],
    );
    assert_eq!(g.code, Some(1));
    for id in ["edge-mutation", "held-caller-edits-copy"] {
        assert!(
            g.line(id).contains("store changed after the edit"),
            "{}",
            g.line(id)
        );
    }
    assert!(
        g.line("edge-description-not-copied")
            .contains("description")
    );
}

fn process_state(pid: i32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit(')')
        .next()?
        .split_whitespace()
        .next()?
        .chars()
        .next()
}

#[test]
fn an_endless_loop_is_stopped_with_its_whole_process_group() {
    if !has("python3") {
        return;
    }
    // Two children with command lines no other test uses: one in the group, one that
    // leaves it (a new session). The code cannot write outside its own directory, and its
    // /proc is its own, so the children are found by their command lines.
    let in_group = 3_000_000 + std::process::id();
    let own_session = 4_000_000 + std::process::id();
    let looping = python(
        "    if stored is None:",
        &format!(
            "    if ticket_id == \"TKT-999\":\n        import subprocess\n        subprocess.Popen([\"sleep\", \"{in_group}\"])\n        subprocess.Popen([\"sleep\", \"{own_session}\"], start_new_session=True)\n        while True:\n            pass\n    if stored is None:"
        ),
    );
    let g = grade(
        "s.py",
        &looping,
        &["--time-limit-ms", "1500", "--run-limit-ms", "120000"],
    );
    assert_eq!(g.code, Some(1));
    assert_eq!(g.rows("TIMEOUT"), set(&["row-3"]), "{}", g.stdout);
    assert_eq!(
        g.failing(),
        set(&["row-3"]),
        "the rows after the loop still run"
    );
    assert!(g.line("row-3").contains("no answer within 1500 ms"));
    assert!(
        running(&format!("sleep\0{in_group}\0")).is_empty(),
        "the learner's child survived"
    );
    let session_child = running(&format!("sleep\0{own_session}\0"));
    if !g.stderr.contains("refused a process-id namespace") {
        assert!(
            session_child.is_empty(),
            "a child in its own session survived"
        );
    } else {
        eprintln!("no process-id namespace here: a child in its own session escapes");
        for pid in session_child {
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
        }
    }
}

/// Live (not zombie) processes whose command line is `cmdline`, after the kernel has had a
/// moment to finish a kill.
fn running(cmdline: &str) -> Vec<i32> {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        let live: Vec<i32> = std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter(|e| {
                std::fs::read(e.path().join("cmdline")).is_ok_and(|c| c == cmdline.as_bytes())
            })
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter(|&pid| matches!(process_state(pid), Some(s) if s != 'Z'))
            .collect();
        if live.is_empty() || std::time::Instant::now() > until {
            return live;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_print_flood_is_cut_and_named() {
    if !has("python3") {
        return;
    }
    let flood = python(
        "    if stored is None:",
        "    if ticket_id == \"TKT-107\":\n        while True:\n            print(\"spam\" * 50)\n    if stored is None:",
    );
    let g = grade("s.py", &flood, &[]);
    assert_eq!(g.code, Some(1));
    assert_eq!(g.failing(), set(&["edge-injection-title"]));
    assert!(g.line("edge-injection-title").contains("[flood]"));
    assert!(g.stderr.contains("KiB"), "{}", g.stderr);
}

#[test]
fn a_syntax_error_is_reported_with_its_line() {
    if !has("python3") {
        return;
    }
    let broken = python("    return (True, \"\")", "    return (True, \"\"\n");
    let g = grade("s.py", &broken, &[]);
    assert_eq!(g.code, Some(1), "{}", g.stderr);
    assert!(g.line("seed-ok").starts_with("FAIL") && g.line("seed-ok").contains("[error]"));
    assert!(g.line("seed-ok").contains("SyntaxError") && g.line("seed-ok").contains("(line "));
    assert!(g.rows("NOT-RUN").contains("row-1"));
    assert!(g.summary().starts_with("0 passed"));
    if has("node") {
        let js = grade(
            "s.js",
            "function executeTool(name {\n}\nmodule.exports = { executeTool };\n",
            &[],
        );
        assert_eq!(js.code, Some(1));
        assert!(js.line("row-1").contains("SyntaxError"), "{}", js.stdout);
    }
}

#[test]
fn crashes_and_raised_errors_name_their_row_and_the_rest_still_run() {
    if !has("python3") {
        return;
    }
    let crash = python(
        "    if stored is None:",
        "    if ticket_id == \"TKT-107\":\n        import os\n        os._exit(3)\n    if ticket_id == \"TKT-105\":\n        raise KeyError(\"oops\")\n    if stored is None:",
    );
    let g = grade("s.py", &crash, &[]);
    assert_eq!(
        g.failing(),
        set(&["edge-injection-title", "held-description-stays"])
    );
    assert!(
        g.line("edge-injection-title")
            .contains("exited with code 3")
    );
    assert!(g.line("held-description-stays").contains("KeyError"));
    if has("node") {
        let js = format!(
            "{}\nmodule.exports = {{ executeTool }};\n",
            JS_BODY.replace(
                "  if (!stored)",
                "  if (id === 'TKT-999') process.exit(4);\n  if (!stored)",
            )
        );
        let g = grade("s.js", &js, &[]);
        assert_eq!(g.failing(), set(&["row-3"]), "{}", g.stdout);
    }
}

#[test]
fn the_code_gets_no_stdin_and_a_scrubbed_environment() {
    if !has("python3") {
        return;
    }
    let nosy = python(
        "    if stored is None:",
        "    import os, sys\n    if sys.stdin is not None and sys.stdin.read() != \"\":\n        return None\n    if \"TOOLDOJO_TEST_SECRET\" in os.environ or os.getcwd() == \"/\":\n        return None\n    if stored is None:",
    );
    let g = grade("s.py", &nosy, &[]);
    assert_eq!(g.code, Some(0), "{}\n{}", g.stdout, g.stderr);
}

#[test]
fn a_file_defining_neither_function_cannot_be_graded() {
    if has("python3") {
        let g = grade("s.py", "def helper():\n    return 1\n", &[]);
        assert_eq!(g.code, Some(2));
        assert!(
            g.stderr
                .contains("defines none of validate_tool_args, execute_tool"),
            "{}",
            g.stderr
        );
        assert!(g.stderr.contains("helper"));
    }
    if has("node") {
        let g = grade("s.js", "module.exports = { executetool() {} };\n", &[]);
        assert_eq!(g.code, Some(2));
        assert!(
            g.stderr.contains("executetool"),
            "the message lists what it exports: {}",
            g.stderr
        );
    }
}

#[test]
fn only_the_functions_a_file_defines_are_graded() {
    if !has("python3") {
        return;
    }
    let only = PYTHON_GOOD
        .split("def execute_tool")
        .next()
        .unwrap()
        .to_owned();
    let g = grade("s.py", &only, &[]);
    assert_eq!(g.code, Some(0), "{}", g.stderr);
    assert!(g.rows("PASS").contains("seed-ok") && !g.rows("PASS").contains("row-1"));
    assert!(g.stderr.contains("execute_tool is not defined"));
}

fn starter_in(dir: &Path, lang: &str) -> (Output, PathBuf) {
    let o = tooldojo(
        &["practice", "--lang", lang, "--dir", dir.to_str().unwrap()],
        dir,
    );
    let name = if lang == "js" {
        "solution.js"
    } else {
        "solution.py"
    };
    (o, dir.join(name))
}

#[test]
fn a_starter_is_written_once_says_where_and_solves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for lang in ["python", "js"] {
        let (o, path) = starter_in(dir.path(), lang);
        assert_eq!(o.status.code(), Some(0));
        assert!(
            String::from_utf8_lossy(&o.stdout)
                .contains(path.file_name().unwrap().to_str().unwrap())
        );
        let (again, _) = starter_in(dir.path(), lang);
        assert_eq!(again.status.code(), Some(2), "never overwrites");
        assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
        let program = if lang == "js" { "node" } else { "python3" };
        if has(program) {
            let g = tooldojo(&["practice", path.to_str().unwrap()], dir.path());
            assert_eq!(g.status.code(), Some(1), "a starter passes nothing");
            assert!(
                String::from_utf8_lossy(&g.stdout)
                    .lines()
                    .last()
                    .unwrap()
                    .starts_with("0 passed")
            );
        }
    }
}

#[test]
fn a_starter_dir_that_does_not_exist_is_created_and_said() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("new/deeper");
    let o = tooldojo(&["practice", "--dir", dir.to_str().unwrap()], root.path());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("Created the directory"), "{out}");
    assert!(dir.join("solution.py").is_file());
    // A file where the directory should be is a clear error, not a crash.
    let file = root.path().join("plain");
    std::fs::write(&file, "x").unwrap();
    let o = tooldojo(&["practice", "--dir", file.to_str().unwrap()], root.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a directory"));
}

#[test]
fn an_unknown_extension_needs_lang() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("solution.txt");
    std::fs::write(&file, "x").unwrap();
    let o = tooldojo(&["practice", file.to_str().unwrap()], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--lang"));
}

#[test]
fn a_missing_file_is_said_to_be_missing_before_its_language_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["practice", "good.txt"][..],
        &["practice", "good.txt", "--watch"],
        &["practice", "good.py"],
    ] {
        let o = tooldojo(args, dir.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        let name = args[1];
        assert!(
            err.starts_with(&format!("tooldojo: {name}: No such file")),
            "{args:?}: {err}"
        );
        assert!(!err.contains("cannot tell the language"), "{args:?}: {err}");
    }
    // A file that is there with a name that says no language keeps its own words.
    std::fs::write(dir.path().join("good.txt"), "x").unwrap();
    let o = tooldojo(&["practice", "good.txt"], dir.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("good.txt: cannot tell the language from the file name"),
        "{err}"
    );
}

#[test]
fn javascript_mistakes_are_caught_on_their_rows() {
    if !has("node") {
        return;
    }
    let cjs =
        |body: String| format!("'use strict';\n{body}\nmodule.exports = {{ executeTool }};\n");
    let unanchored = cjs(JS_BODY.replace("/^TKT-[0-9]{3}$/", "/TKT-\\d{3}/"));
    let g = grade("s.js", &unanchored, &[]);
    assert_eq!(g.code, Some(1));
    assert_eq!(
        g.failing(),
        set(&[
            "edge-four-digit",
            "edge-trailing-newline",
            "held-trailing-newline",
            "held-unanchored-prefix",
            "held-unanchored-suffix"
        ])
    );
    let aliased = cjs(JS_BODY.replace(
        "ticket: { id: stored.id, title: stored.title, status: stored.status }",
        "ticket: stored",
    ));
    let g = grade("s.js", &aliased, &[]);
    for id in ["edge-mutation", "held-caller-edits-copy"] {
        assert!(
            g.line(id).contains("store changed after the edit"),
            "{}",
            g.line(id)
        );
    }
}

#[test]
#[allow(unsafe_code)]
fn watch_regrades_on_save_and_stops_cleanly_on_ctrl_c() {
    use std::io::Read;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};
    if !has("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("w.py");
    std::fs::write(&file, PYTHON_GOOD).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .args([
            "practice",
            file.to_str().unwrap(),
            "--watch",
            "--time-limit-ms",
            "10000",
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let seen = Arc::new(Mutex::new(String::new()));
    let mut out = child.stdout.take().unwrap();
    let sink = Arc::clone(&seen);
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    let wait_for = |needle: &str| {
        let until = Instant::now() + Duration::from_secs(20);
        while !seen.lock().unwrap().contains(needle) {
            assert!(
                Instant::now() < until,
                "never saw {needle:?} in\n{}",
                seen.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait_for("All ");
    // Each run says which it is and when it was graded.
    wait_for("run 1 \u{b7} graded at 0:0");
    let broken = python(
        "if isinstance(value, bool) and want is not bool:",
        "if False:",
    );
    std::fs::write(&file, broken).unwrap();
    wait_for("First failing row: trap-true-as-int");
    wait_for("run 2 \u{b7} graded at ");
    assert!(
        seen.lock().unwrap().contains(" s\n"),
        "the run's time in seconds"
    );
    assert!(
        seen.lock()
            .unwrap()
            .contains("revisit   lesson 03-json-traps")
    );
    // SAFETY: sending SIGINT to the child this test started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    reader.join().unwrap();
    assert_eq!(status.code(), Some(0), "Ctrl-C ends watch mode cleanly");
    assert!(seen.lock().unwrap().contains("stopped watching"));
}

#[test]
fn a_failing_row_says_which_trap_it_fell_into() {
    if !has("python3") {
        return;
    }
    let cases: [(&str, &str, &str, &str); 4] = [
        (
            "        if isinstance(value, bool) and want is not bool:\n            return (False, f\"type error: {name} expected {want.__name__}, got bool\")\n",
            "",
            "held-bool-count",
            "bool is a subclass of int: isinstance(True, int) is True",
        ),
        (
            r#"re.compile(r"TKT-[0-9]{3}")"#,
            r#"re.compile(r"TKT-\d{3}")"#,
            "held-devanagari-digits",
            "\\d takes Arabic-Indic, Devanagari and fullwidth digits too",
        ),
        (
            "TICKET_ID.fullmatch(ticket_id)",
            "TICKET_ID.match(ticket_id)",
            "held-unanchored-suffix",
            "the pattern is not anchored",
        ),
        (
            r#"{k: stored[k] for k in ("id", "title", "status")}"#,
            "stored",
            "held-caller-edits-copy",
            "the stored object was returned: return a copy",
        ),
    ];
    for (edit, with, row, why) in cases {
        let g = grade("solution.py", &python(edit, with), &[]);
        assert!(g.failing().contains(row), "{row} fails:\n{}", g.stdout);
        let line = g.line(row);
        assert!(line.contains(why), "{row} names its trap ({why}):\n{line}");
        assert!(!line.contains("the contract says"), "{line}");
    }
}

#[test]
fn python_prints_are_kept_on_the_row_that_printed_them_even_when_it_hangs_or_crashes() {
    if !has("python3") {
        return;
    }
    let printing = python(
        "    if name != \"get_ticket\":",
        "    print(\"debug\", name, repr(args.get(\"ticket_id\")) if isinstance(args, dict) else None)\n    if args == {\"ticket_id\": \"TKT-107\"}:\n        while True:\n            pass\n    if args == {\"ticket_id\": \"TKT-105\"}:\n        import os\n        os._exit(3)\n    if name != \"get_ticket\":",
    );
    assert_prints_stay_on_their_rows("s.py", &printing);
}

#[test]
fn javascript_logs_are_kept_on_the_row_that_logged_them_even_when_it_hangs_or_crashes() {
    if !has("node") {
        return;
    }
    let edit = "  if (name !== 'get_ticket')";
    assert!(JS_BODY.contains(edit));
    // A long log on every row, one on stderr too: enough bytes that a reader of the output
    // is still busy with them when the answer comes.
    let logging = JS_BODY.replacen(
        edit,
        "  const shown = args && typeof args === 'object' && typeof args.ticket_id === 'string' ? `'${args.ticket_id}'` : null;\n  console.log('debug', name, shown, 'é'.repeat(28000));\n  console.error('e'.repeat(2000));\n  if (shown === \"'TKT-107'\") for (;;) {}\n  if (shown === \"'TKT-105'\") process.exit(3);\n  if (name !== 'get_ticket')",
        1,
    );
    let cjs = format!("'use strict';\n{logging}\nmodule.exports = {{ executeTool }};\n");
    assert_prints_stay_on_their_rows("s.js", &cjs);
}

/// Grade `text`, which prints `debug NAME 'ID'` on every call, hangs on TKT-107 and exits
/// on TKT-105: each row's output holds its own print and no other, and the text report
/// shows the first failing row's.
fn assert_prints_stay_on_their_rows(name: &str, text: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();
    // Generous per row: node restarts after the crash, and a busy machine must not time out
    // any row but the one that hangs.
    let limits = ["--time-limit-ms", "8000", "--run-limit-ms", "120000"];
    let mut args = vec!["practice", path, "--json"];
    args.extend_from_slice(&limits);
    let o = tooldojo(&args, dir.path());
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = report["rows"].as_array().unwrap();
    let mut checked = 0;
    for row in rows.iter().filter(|r| r["function"] == "execute") {
        let output = row["output"].as_str().unwrap();
        let call = row["call"].as_str().unwrap();
        // One print per row, on its own row: the id it printed is the one it was called with.
        assert_eq!(output.matches("debug").count(), 1, "{row}");
        let id = output.split_whitespace().nth(2).unwrap();
        if let Some(id) = id.strip_prefix("'TKT-").and_then(|i| i.strip_suffix('\'')) {
            assert!(call.contains(&format!("\"TKT-{id}\"")), "{row}");
            checked += 1;
        }
    }
    assert!(checked > 10, "{rows:?}");
    let row = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap();
    assert_eq!(row("edge-injection-title")["status"], "timed_out");
    assert!(
        row("edge-injection-title")["output"]
            .as_str()
            .unwrap()
            .contains("TKT-107")
    );
    assert!(
        row("held-description-stays")["output"]
            .as_str()
            .unwrap()
            .contains("TKT-105")
    );
    // The text report shows what the first failing row printed.
    let mut args = vec!["practice", path];
    args.extend_from_slice(&limits);
    let text = tooldojo(&args, dir.path());
    let stderr = String::from_utf8_lossy(&text.stderr);
    assert!(
        stderr.contains("| debug get_ticket 'TKT-107'"),
        "the print is shown:\n{stderr}"
    );
}

#[test]
fn lang_python_grades_a_file_whatever_its_name() {
    if !has("python3") {
        return;
    }
    for name in ["sol.txt", "solution"] {
        let g = grade(name, PYTHON_GOOD, &["--lang", "python"]);
        assert_eq!(g.code, Some(0), "{name}:\n{}\n{}", g.stdout, g.stderr);
        assert_eq!(g.summary(), "65 passed, 0 failed", "{name}");
    }
    if has("node") {
        let js = format!("{JS_BODY}\nmodule.exports = {{ executeTool }};\n");
        for name in ["sol.txt", "solution"] {
            let g = grade(name, &js, &["--lang", "js"]);
            assert_eq!(g.code, Some(0), "{name}:\n{}\n{}", g.stdout, g.stderr);
        }
    }
}

#[test]
fn a_directory_or_a_time_limit_too_short_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("dd")).unwrap();
    let o = tooldojo(&["practice", "dd"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("dd: is a directory"), "{err}");
    let file = dir.path().join("s.py");
    std::fs::write(&file, PYTHON_GOOD).unwrap();
    for flag in ["--time-limit-ms", "--run-limit-ms"] {
        let o = tooldojo(&["practice", file.to_str().unwrap(), flag, "0"], dir.path());
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(o.stdout.is_empty(), "{flag}: nothing graded");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(flag) && err.contains("at least 100"), "{err}");
    }
}

#[test]
fn a_flood_shows_a_capped_part_of_what_it_printed_and_says_how_much_was_cut() {
    if !has("python3") {
        return;
    }
    let flood = python(
        "    if stored is None:",
        "    if ticket_id == \"TKT-107\":\n        while True:\n            print(\"spam\" * 50, end=\"\")\n    if stored is None:",
    );
    let g = grade("s.py", &flood, &[]);
    assert!(g.line("edge-injection-title").contains("[flood]"));
    let shown = g
        .stderr
        .lines()
        .find(|l| l.trim_start().starts_with("| spam"))
        .unwrap_or_else(|| panic!("{}", g.stderr));
    assert!(shown.len() < 400, "{} bytes on one line", shown.len());
    assert!(shown.contains("more characters on this line"), "{shown}");
}

#[test]
fn a_wrong_code_is_not_explained_by_a_trap_it_did_not_fall_into() {
    if !has("python3") {
        return;
    }
    let refuses = "def execute_tool(name, args, context, records):\n    return {\"ok\": False, \"code\": \"not_found\"}\n";
    let g = grade("s.py", refuses, &[]);
    for row in ["held-description-stays", "held-caller-edits-copy"] {
        let line = g.line(row);
        assert!(!line.contains("description and all"), "{line}");
        assert!(!line.contains("the stored object was returned"), "{line}");
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.py");
    std::fs::write(&file, refuses).unwrap();
    let o = tooldojo(&["practice", file.to_str().unwrap(), "--json"], dir.path());
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = report["rows"].as_array().unwrap();
    let row = |id: &str| rows.iter().find(|r| r["id"] == id).unwrap();
    assert!(row("held-description-stays")["trap"].is_null());
    assert_eq!(
        row("held-devanagari-digits")["trap"],
        "\\d matches Unicode digits",
        "an id let through to the lookup fell into the digits trap"
    );
}
