//! `tooldojo rehearse` refuses bad flags with exit 2 before it touches the terminal.

use std::process::Command;

fn rehearse(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .arg("rehearse")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn bad_flags_exit_2_and_say_why() {
    let out = rehearse(&["--minutes", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--minutes"));
    let out = rehearse(&["--transcript", "/no/such/dir/drill.md"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/no/such/dir") && err.contains("does not exist"),
        "{err}"
    );
    let out = rehearse(&["--seed", "x"]);
    assert_eq!(out.status.code(), Some(2));
}
