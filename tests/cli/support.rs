//! Running the built binary the way a user does, shared by the subcommand test modules.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Run `tooldojo ARGS`, feeding `stdin` when given (an empty, closed stdin otherwise).
pub fn tooldojo(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tooldojo");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    if let Some(input) = stdin {
        pipe.write_all(input.as_bytes()).expect("write stdin");
    }
    drop(pipe);
    child.wait_with_output().expect("wait for tooldojo")
}

/// `exec` of `get_ticket` with empty arguments for `tenant`, its tickets read from `records`
/// (`@FILE`): the call the records-file tests make.
pub fn exec_with_records<'a>(tenant: &'a str, records: &'a str) -> [&'a str; 9] {
    [
        "exec",
        "--tool",
        "get_ticket",
        "--args",
        "{}",
        "--tenant",
        tenant,
        "--records",
        records,
    ]
}
