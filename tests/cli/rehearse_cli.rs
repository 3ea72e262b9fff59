//! `tooldojo rehearse` refuses bad flags with exit 2 before it touches the terminal.

use std::process::Command;

fn rehearse(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tooldojo"))
        .arg("rehearse")
        .args(args)
        // A drill whose flags pass opens the progress store (then finds no terminal): in a
        // folder of the tests' own, never the user's.
        .env(
            "TOOLDOJO_STATE_DIR",
            std::env::temp_dir().join("tooldojo-rehearse-cli-state"),
        )
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
    let out = rehearse(&["--lang", "ruby"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("python") && err.contains("js"), "{err}");
}

#[test]
fn lang_takes_python_js_and_their_short_names() {
    // Without a terminal the app cannot open: a flag that parses gets that far, and no further.
    for lang in ["python", "py", "js", "javascript"] {
        let out = rehearse(&["--lang", lang, "--transcript", "/no/such/dir/d.md"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("does not exist"), "{lang}: {err}");
    }
}

#[test]
fn a_transcript_over_an_existing_file_or_a_link_needs_force() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept.md");
    std::fs::write(&kept, "mine").unwrap();
    let out = rehearse(&["--transcript", kept.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("kept.md") && err.contains("already exists") && err.contains("--force"),
        "{err}"
    );
    let link = dir.path().join("link.md");
    std::os::unix::fs::symlink(dir.path().join("nowhere.md"), &link).unwrap();
    let out = rehearse(&["--transcript", link.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("symbolic link"));
    // With --force the flags are accepted (the drill then needs a terminal, which a test has not).
    let out = rehearse(&["--transcript", kept.to_str().unwrap(), "--force"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("already exists"), "{err}");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "mine");
}
