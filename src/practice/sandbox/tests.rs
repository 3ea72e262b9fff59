//! The sandbox on real processes: a shell stands in for the interpreter.

use super::*;

fn shell(script: &str) -> Sandboxed {
    let spec = Spawn {
        program: find_program("sh").expect("a POSIX shell"),
        args: vec!["-c".into(), script.into()],
        files: vec![("note.txt".into(), "hello".into())],
        env: vec![("EXTRA".into(), "1".into())],
        address_space: None,
        data: None,
        threads: 0,
    };
    Sandboxed::spawn(&spec).unwrap()
}

fn line(s: &mut Sandboxed) -> String {
    match s.wait_line(Duration::from_secs(5), 1 << 16, &|| false) {
        Wait::Line(l) => l,
        other => panic!("{other:?}"),
    }
}

#[test]
fn no_stdin_a_fresh_directory_and_a_scrubbed_environment() {
    let mut s = shell("cat; echo \"stdin done $(cat note.txt) $(env | sort | tr '\\n' ' ')\" >&3");
    let l = line(&mut s);
    assert!(l.starts_with("stdin done hello "), "{l}");
    assert!(l.contains("EXTRA=1") && l.contains("PATH="));
    assert!(!l.contains("CARGO"), "the caller's environment leaked: {l}");
}

#[test]
fn no_network_interface_but_loopback_when_isolated() {
    let mut s =
        shell("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ' ' >&3; echo >&3");
    let l = line(&mut s);
    if s.isolation.network == Network::Isolated {
        assert_eq!(l.trim(), "lo", "an isolated namespace has only a loopback");
    } else {
        eprintln!(
            "network namespaces are refused here: {:?}",
            s.isolation.network
        );
    }
}

/// Live (not zombie) processes whose command line is exactly `args`.
fn running(args: &[&str]) -> Vec<String> {
    let want = args.join("\0") + "\0";
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| std::fs::read(e.path().join("cmdline")).is_ok_and(|c| c == want.as_bytes()))
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter(|stat| {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.is_empty() && !state.starts_with('Z')
        })
        .collect()
}

/// Wait (briefly) for a process started in the background to show its command line.
fn appears(args: &[&str]) -> usize {
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        let n = running(args).len();
        if n > 0 || Instant::now() > until {
            return n;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Wait (briefly) for the kernel to finish killing what a kill left.
fn gone(args: &[&str]) -> Vec<String> {
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        let left = running(args);
        if left.is_empty() || Instant::now() > until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_timeout_kills_the_whole_group() {
    let nonce = format!("{}", 1_000_000 + std::process::id());
    let mut s = shell(&format!("sleep {nonce} & echo started >&3; sleep 30"));
    assert_eq!(line(&mut s), "started");
    assert_eq!(appears(&["sleep", &nonce]), 1, "the child runs");
    assert!(matches!(
        s.wait_line(Duration::from_millis(200), 1 << 16, &|| false),
        Wait::TimedOut
    ));
    let left = gone(&["sleep", &nonce]);
    assert!(left.is_empty(), "the background child survived: {left:?}");
}

#[test]
fn a_process_that_leaves_the_group_dies_too_in_its_own_pid_namespace() {
    let Some(setsid) = find_program("setsid") else {
        eprintln!("no setsid here: nothing to try");
        return;
    };
    let setsid = setsid.display().to_string();
    let nonce = format!("{}", 2_000_000 + std::process::id());
    let mut s = shell(&format!(
        "{setsid} sleep {nonce} & sleep 0.2; echo started >&3; sleep 30"
    ));
    assert_eq!(line(&mut s), "started");
    assert_eq!(appears(&["sleep", &nonce]), 1, "the child runs");
    let isolated = s.isolation.pids_isolated;
    drop(s);
    let left = gone(&["sleep", &nonce]);
    if isolated {
        assert!(left.is_empty(), "a setsid child survived: {left:?}");
    } else {
        eprintln!("process-id namespaces are refused here; the setsid child escaped");
        for stat in left {
            let pid: i32 = stat.split(' ').next().unwrap().parse().unwrap();
            // SAFETY: a plain kill of the test's own leftover process.
            #[allow(unsafe_code)]
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

#[test]
fn a_program_that_cannot_start_is_an_error_not_a_hang() {
    let spec = Spawn {
        program: PathBuf::from("/nonexistent/interpreter"),
        args: vec![],
        files: vec![],
        env: vec![],
        address_space: None,
        data: None,
        threads: 0,
    };
    assert!(Sandboxed::spawn(&spec).is_err());
}

#[test]
fn a_flood_is_stopped_at_the_cap() {
    let mut s = shell("while :; do echo spam; done");
    match s.wait_line(Duration::from_secs(5), 4096, &|| false) {
        Wait::Flood(n) => assert!(n > 4096),
        other => panic!("{other:?}"),
    }
    let (kept, printed) = s.take_output();
    assert!(kept.len() <= 4096 && printed > 4096);
}

#[test]
fn a_program_that_kills_itself_is_reported_killed() {
    use std::os::unix::process::ExitStatusExt;
    let mut s = shell("kill -9 $$; echo still here >&3");
    match s.wait_line(Duration::from_secs(5), 4096, &|| false) {
        Wait::Exited(Some(status)) => assert_eq!(status.signal(), Some(9)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_early_exit_is_reported_with_its_code() {
    let mut s = shell("exit 7");
    match s.wait_line(Duration::from_secs(5), 4096, &|| false) {
        Wait::Exited(Some(status)) => assert_eq!(status.code(), Some(7)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_channel_line_longer_than_the_cap_is_refused_with_bounded_memory() {
    // Eight megabytes and no newline: the reader stops after a little more than the cap.
    let data = vec![b'x'; 8 << 20];
    let mut lines = channel::LineReader::new(&data[..], 1 << 20);
    match lines.next_line() {
        Err(n) => assert!(n > 1 << 20 && n < (1 << 20) + (64 << 10), "{n}"),
        Ok(line) => panic!("an endless line was accepted: {:?}", line.map(|l| l.len())),
    }
    assert!(lines.held() < 3 << 20, "held {} bytes", lines.held());
    let mut ok = channel::LineReader::new(&b"one\ntwo\nlast"[..], 16);
    assert_eq!(ok.next_line(), Ok(Some(b"one".to_vec())));
    assert_eq!(ok.next_line(), Ok(Some(b"two".to_vec())));
    assert_eq!(ok.next_line(), Ok(Some(b"last".to_vec())));
    assert_eq!(ok.next_line(), Ok(None));
}

#[test]
fn a_harness_that_floods_its_channel_is_stopped_not_the_grader() {
    let mut s = shell("head -c 8000000 /dev/zero | tr '\\0' x >&3; sleep 30");
    match s.wait_line(Duration::from_secs(10), 1 << 16, &|| false) {
        Wait::Overlong(n) => assert!(n > LINE_CAP && n < 2 * LINE_CAP, "{n}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_channel_number_is_held_so_nothing_opened_before_a_fork_gets_it() {
    hold_channel_number();
    for _ in 0..4 {
        let f = std::fs::File::open("/dev/null").unwrap();
        assert!(f.as_raw_fd() > CHANNEL_FD, "{}", f.as_raw_fd());
    }
}
