//! The small harness programs (embedded here) that load the learner's file under the
//! machine's own `python3` or `node` and speak JSON lines with the grader, one request and
//! one answer per row.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::Lang;
use super::cases::{Function, Row};
use super::sandbox::{Isolation, Sandboxed, Spawn, Wait, find_program};

const PYTHON_HARNESS: &str = include_str!("harness/harness.py");
const NODE_HARNESS: &str = include_str!("harness/harness.cjs");

/// What the loaded file offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hello {
    /// The graded functions the file defines (or exports).
    pub(crate) functions: Vec<Function>,
    /// Other names it defines, for a helpful message when it defines neither function.
    pub(crate) defined: Vec<String>,
}

/// Why a harness could not be started or did not answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Trouble {
    /// The interpreter is not on PATH.
    NoInterpreter(&'static str),
    /// The system refused to start it.
    Spawn(String),
    /// The file did not load (a syntax error, an exception at import), with where.
    Load(String),
    TimedOut,
    /// The program ended; the text says how.
    Exited(String),
    /// It printed this many bytes, more than the cap.
    Flood(usize),
    /// A line on the harness channel ran past the cap (this many bytes and counting).
    Overlong(usize),
    /// A line on the harness channel that the harness did not write (no or a wrong nonce).
    Forged,
    Cancelled,
}

/// A harness that did not get as far as a loaded file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StartFailure {
    pub(crate) trouble: Trouble,
    /// What the program printed before it failed (cut at the cap).
    pub(crate) output: String,
    /// What held (unknown when it never started).
    pub(crate) isolation: Option<Isolation>,
}

/// One running harness with the learner's file loaded.
pub(crate) struct Harness {
    sandbox: Sandboxed,
    /// Sent in the start line; every answer of the harness carries it.
    nonce: String,
}

/// How one language's harness is started.
struct Runtime {
    program: &'static str,
    script_name: &'static str,
    script: &'static str,
    flags: &'static [&'static str],
    /// Per-process memory caps (Node reserves a large address space up front, so its
    /// private memory is capped with the data limit and its heap with a flag).
    address_space: Option<u64>,
    data: Option<u64>,
    /// Threads the interpreter runs on its own.
    threads: u64,
    env: &'static [(&'static str, &'static str)],
}

const PYTHON: Runtime = Runtime {
    program: "python3",
    script_name: "tooldojo_harness.py",
    script: PYTHON_HARNESS,
    // -I: ignore PYTHON* variables and the user's site-packages. -B: write no bytecode and
    // -u: unbuffered stdout and stderr (-I also ignores PYTHONDONTWRITEBYTECODE and
    // PYTHONUNBUFFERED, so both must be flags): a print reaches the grader as it is made,
    // on the row that made it, even when the row then hangs or crashes.
    flags: &["-I", "-B", "-u", "-X", "utf8"],
    address_space: Some(256 << 20),
    data: None,
    threads: 1,
    env: &[("PYTHONIOENCODING", "utf-8")],
};

const NODE: Runtime = Runtime {
    program: "node",
    script_name: "tooldojo_harness.cjs",
    script: NODE_HARNESS,
    flags: &["--max-old-space-size=256"],
    address_space: Some(2 << 30),
    data: Some(512 << 20),
    threads: 8,
    env: &[],
};

/// A spawn spec for `lang` grading a copy of `source` (the text of `file`), or the
/// interpreter that is missing. The copy keeps the file's name, in a folder of the working
/// directory, so the learner's own directory is never written.
pub(crate) fn spawn_spec(lang: Lang, file: &Path, source: &str) -> Result<Spawn, Trouble> {
    let rt = match lang {
        Lang::Python => &PYTHON,
        Lang::Js => &NODE,
    };
    let program: PathBuf = find_program(rt.program).ok_or(Trouble::NoInterpreter(rt.program))?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "solution".to_owned());
    let copy = format!("code/{name}");
    let mut args: Vec<String> = rt.flags.iter().map(|s| (*s).to_owned()).collect();
    args.push(rt.script_name.to_owned());
    args.push(copy.clone());
    Ok(Spawn {
        program,
        args,
        files: vec![
            (rt.script_name.to_owned(), rt.script.to_owned()),
            (copy, source.to_owned()),
        ],
        env: rt
            .env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
        address_space: rt.address_space,
        data: rt.data,
        threads: rt.threads,
    })
}

impl Harness {
    /// Start the harness and wait (at most `limit`) for the file to load.
    pub(crate) fn start(
        spec: &Spawn,
        js: bool,
        limit: Duration,
        cap: usize,
        cancel: &dyn Fn() -> bool,
    ) -> Result<(Harness, Hello), StartFailure> {
        let mut sandbox = Sandboxed::spawn(spec).map_err(|e| StartFailure {
            trouble: Trouble::Spawn(e.to_string()),
            output: String::new(),
            isolation: None,
        })?;
        let fail = |sandbox: &mut Sandboxed, trouble| StartFailure {
            trouble,
            output: sandbox.take_output().0,
            isolation: Some(sandbox.isolation.clone()),
        };
        let nonce = format!("{:032x}", rand::random::<u128>());
        let start = serde_json::json!({ "start": nonce }).to_string();
        if sandbox.send(&start).is_err() {
            let wait = sandbox.wait_line(Duration::from_millis(200), cap, cancel);
            return Err(fail(&mut sandbox, trouble_of(wait)));
        }
        let line = match sandbox.wait_line(limit, cap, cancel) {
            Wait::Line(line) => line,
            other => return Err(fail(&mut sandbox, trouble_of(other))),
        };
        let msg: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        if msg["nonce"].as_str() != Some(nonce.as_str()) {
            sandbox.kill();
            return Err(fail(&mut sandbox, Trouble::Forged));
        }
        // What loading printed is loading's, not the first row's.
        await_printed(&mut sandbox, &msg);
        if let Some(err) = msg.get("load_error") {
            return Err(fail(&mut sandbox, Trouble::Load(error_text(err))));
        }
        let hello = &msg["hello"];
        let names = |key: &str| -> Vec<String> {
            hello[key]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default()
        };
        let offered = names("functions");
        let functions = Function::ALL
            .into_iter()
            .filter(|f| offered.iter().any(|n| n == f.name(js)))
            .collect();
        let _ = sandbox.take_output();
        Ok((
            Harness { sandbox, nonce },
            Hello {
                functions,
                defined: names("defined"),
            },
        ))
    }

    /// Ask one row; the answer line parsed, or why there is none (the harness is then dead).
    pub(crate) fn ask(
        &mut self,
        row: &Row,
        limit: Duration,
        cap: usize,
        cancel: &dyn Fn() -> bool,
    ) -> Result<Value, Trouble> {
        let line = serde_json::to_string(&row.request()).unwrap_or_default();
        if self.sandbox.send(&line).is_err() {
            return Err(trouble_of(self.sandbox.wait_line(
                Duration::from_millis(200),
                cap,
                cancel,
            )));
        }
        match self.sandbox.wait_line(limit, cap, cancel) {
            Wait::Line(answer) => {
                let value: Value = serde_json::from_str(&answer).map_err(|e| {
                    Trouble::Exited(format!("the harness sent a broken answer: {e}"))
                })?;
                if value["nonce"].as_str() != Some(self.nonce.as_str()) {
                    self.sandbox.kill();
                    return Err(Trouble::Forged);
                }
                await_printed(&mut self.sandbox, &value);
                Ok(value)
            }
            other => Err(trouble_of(other)),
        }
    }

    /// What the program printed since the last call, cut at the cap, and the full byte count.
    pub(crate) fn take_output(&mut self) -> (String, usize) {
        self.sandbox.take_output()
    }

    pub(crate) fn isolation(&self) -> Isolation {
        self.sandbox.isolation.clone()
    }

    /// The most memory the run's processes held together so far (cgroup only).
    pub(crate) fn memory_peak(&self) -> Option<u64> {
        self.sandbox.memory_peak()
    }

    /// Processes killed for memory and forks refused since the last call (cgroup only).
    pub(crate) fn overrun(&mut self) -> (u64, u64) {
        self.sandbox.overrun()
    }
}

/// Wait (200 ms at most) for every byte the harness says the file has printed by the time
/// it sent `msg`: output can reach the grader after the line it came before.
fn await_printed(sandbox: &mut Sandboxed, msg: &Value) {
    if let Some(total) = msg["printed"].as_u64() {
        sandbox.await_output(total, Duration::from_millis(200));
    }
}

fn error_text(err: &Value) -> String {
    let message = err["error"].as_str().unwrap_or("the file did not load");
    match err["line"].as_u64() {
        Some(line) => format!("{message} (line {line})"),
        None => message.to_owned(),
    }
}

fn trouble_of(wait: Wait) -> Trouble {
    match wait {
        Wait::Line(_) => Trouble::Exited("the harness answered out of turn".into()),
        Wait::TimedOut => Trouble::TimedOut,
        Wait::Flood(n) => Trouble::Flood(n),
        Wait::Cancelled => Trouble::Cancelled,
        Wait::Exited(status) => Trouble::Exited(exit_text(status)),
        Wait::Overlong(n) => Trouble::Overlong(n),
    }
}

fn exit_text(status: Option<std::process::ExitStatus>) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status {
        Some(s) if s.signal().is_some() => format!(
            "the program was killed by signal {}",
            s.signal().unwrap_or(0)
        ),
        Some(s) => format!("the program exited with code {}", s.code().unwrap_or(-1)),
        None => "the program stopped answering".to_owned(),
    }
}

/// Which graded functions a file that did not load seems to define, read from its text.
pub(crate) fn functions_in_source(text: &str, lang: Lang) -> Vec<Function> {
    let defines = |name: &str| match lang {
        Lang::Python => text.lines().any(|l| {
            let l = l.trim_start();
            l.strip_prefix("def ")
                .or_else(|| l.strip_prefix("async def "))
                .is_some_and(|rest| rest.trim_start().starts_with(name))
        }),
        Lang::Js => text.contains(name),
    };
    lang.functions()
        .iter()
        .copied()
        .filter(|f| defines(f.name(lang.is_js())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;
    use crate::practice::cases;

    /// Is `lang`'s interpreter on this machine? Without it a test is skipped, saying so,
    /// except where `TOOLDOJO_REQUIRE_SANDBOX=1` (CI) says every practice path must run.
    fn interpreter_here(lang: Lang) -> bool {
        let program = if lang.is_js() { "node" } else { "python3" };
        if find_program(program).is_some() {
            return true;
        }
        let required = std::env::var_os("TOOLDOJO_REQUIRE_SANDBOX").is_some_and(|v| v == "1");
        assert!(
            !required,
            "no {program} here, and TOOLDOJO_REQUIRE_SANDBOX=1"
        );
        eprintln!("skipped: no interpreter for {}", lang.name());
        false
    }

    /// Each call writes 18 bytes: `héllo ✓` and its newline (11 in UTF-8), three raw
    /// bytes, `e` and a newline on stderr, two bytes named in hex.
    const PER_ROW: u64 = 18;

    /// Ask three rows of a file that writes [`PER_ROW`] bytes on every call: each answer
    /// says how many bytes the file has written in all, and the row's output is all of its
    /// own bytes and none of the next row's.
    fn answers_count_what_the_file_wrote(lang: Lang, name: &str, source: &str) {
        if !interpreter_here(lang) {
            return;
        }
        let spec = spawn_spec(lang, Path::new(name), source).unwrap();
        let limit = Duration::from_secs(20);
        let (mut h, _) = Harness::start(&spec, lang.is_js(), limit, 1 << 16, &|| false)
            .unwrap_or_else(|f| panic!("{f:?}"));
        let rows: Vec<Row> = cases::load(&Content::embedded())
            .unwrap()
            .into_iter()
            .filter(|r| r.function == Function::Execute)
            .take(3)
            .collect();
        for (i, row) in rows.iter().enumerate() {
            let answer = h.ask(row, limit, 1 << 16, &|| false).unwrap();
            assert_eq!(
                answer["printed"].as_u64(),
                Some(PER_ROW * (i as u64 + 1)),
                "{answer}"
            );
            let (output, bytes) = h.take_output();
            assert_eq!(bytes as u64, PER_ROW, "row {i}: {output:?}");
            assert_eq!(output.matches("héllo ✓").count(), 1, "row {i}: {output:?}");
        }
    }

    #[test]
    fn a_javascript_answer_counts_the_bytes_the_file_wrote_in_utf8() {
        let source = "function executeTool() {\n  console.log('héllo ✓');\n  process.stdout.write(Buffer.from([1, 2, 3]));\n  console.error('e');\n  process.stderr.write('6869', 'hex');\n  return { ok: false, code: 'unknown_tool' };\n}\nmodule.exports = { executeTool };\n";
        answers_count_what_the_file_wrote(Lang::Js, "s.js", source);
    }

    #[test]
    fn a_python_answer_counts_the_bytes_the_file_wrote_in_utf8() {
        let source = "import sys\ndef execute_tool(name, args, context, records):\n    print('héllo ✓')\n    sys.stdout.buffer.write(bytes([1, 2, 3]))\n    print('e', file=sys.stderr)\n    sys.stderr.write(bytes.fromhex('6869').decode())\n    return {'ok': False, 'code': 'unknown_tool'}\n";
        answers_count_what_the_file_wrote(Lang::Python, "s.py", source);
    }

    /// Start a file that prints `héllo ✓` (11 bytes) while it loads, and then loads (`ok`)
    /// or raises (`bad`). The first line the harness sends (its hello or its load error) says
    /// how many bytes that was, so the grader can wait for them before the first row.
    fn first_line_counts_what_loading_printed(lang: Lang, name: &str, ok: &str, bad: &str) {
        if !interpreter_here(lang) {
            return;
        }
        for source in [ok, bad] {
            let spec = spawn_spec(lang, Path::new(name), source).unwrap();
            let mut sandbox = Sandboxed::spawn(&spec).unwrap();
            sandbox.send(r#"{"start": "n"}"#).unwrap();
            let line = match sandbox.wait_line(Duration::from_secs(20), 1 << 16, &|| false) {
                Wait::Line(line) => line,
                other => panic!("{other:?}"),
            };
            let first: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(first["printed"].as_u64(), Some(11), "{source}: {line}");
            sandbox.await_output(11, Duration::from_secs(5));
            assert_eq!(sandbox.take_output().0, "héllo ✓\n", "{source}");
        }
        // Started for grading, the file's first row prints nothing of its loading.
        let spec = spawn_spec(lang, Path::new(name), ok).unwrap();
        let limit = Duration::from_secs(20);
        let (mut h, _) = Harness::start(&spec, lang.is_js(), limit, 1 << 16, &|| false)
            .unwrap_or_else(|f| panic!("{f:?}"));
        let rows = cases::load(&Content::embedded()).unwrap();
        let row = rows
            .iter()
            .find(|r| r.function == Function::Execute)
            .unwrap();
        h.ask(row, limit, 1 << 16, &|| false).unwrap();
        assert_eq!(h.take_output(), (String::new(), 0));
    }

    #[test]
    fn a_javascript_hello_counts_what_loading_printed() {
        let ok = "console.log('héllo ✓');\nmodule.exports = { executeTool() { return {}; } };\n";
        let bad = "console.log('héllo ✓');\nthrow new Error('no');\n";
        first_line_counts_what_loading_printed(Lang::Js, "s.js", ok, bad);
    }

    #[test]
    fn a_python_hello_counts_what_loading_printed() {
        let ok =
            "print('héllo ✓')\ndef execute_tool(name, args, context, records):\n    return {}\n";
        let bad = "print('héllo ✓')\nraise ValueError('no')\n";
        first_line_counts_what_loading_printed(Lang::Python, "s.py", ok, bad);
    }
}
