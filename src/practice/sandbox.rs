//! Running the learner's untrusted code: a fresh temporary working directory, a scrubbed
//! environment, no stdin, its own process group (killed whole, always), new network and
//! process-id namespaces where Linux allows them, a core-dump and file-size limit, and a
//! private socket on file descriptor 3 for the harness's JSON lines. Everything the program
//! prints is read by threads and handed over as events, so a silent hang, a crash and a print
//! flood are all seen by one loop with a deadline.
//!
//! In its own process-id namespace the interpreter is that namespace's first process, so when
//! it is killed the kernel kills every process it started, even one that left the process
//! group (`setsid`). Where the system refuses that namespace, such a process escapes the group
//! kill. On purpose, the file system is not hidden: the code runs as the learner, on the
//! learner's own machine. The harness itself also dies with the grader.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// The file descriptor the harness reads requests from and writes answers to.
pub(crate) const CHANNEL_FD: i32 = 3;

/// What to start.
#[derive(Debug, Clone)]
pub(crate) struct Spawn {
    /// The interpreter, already resolved to a full path.
    pub(crate) program: PathBuf,
    pub(crate) args: Vec<String>,
    /// Files written into the fresh working directory before start (name, contents).
    pub(crate) files: Vec<(String, String)>,
    /// Extra environment variables (the rest of the environment is cleared).
    pub(crate) env: Vec<(String, String)>,
    /// Address-space limit in bytes (for interpreters that do not reserve huge spaces).
    pub(crate) address_space: Option<u64>,
}

/// Whether the learner's code ran without a network.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Network {
    /// In its own, empty network namespace: no interface but a loopback that is down.
    Isolated,
    /// The system refused a new network namespace; the code could reach the network.
    Shared,
    /// This system has no network namespaces (not Linux).
    Unsupported,
}

impl Network {
    /// A sentence for the report, or `None` when the code was isolated.
    pub(crate) fn notice(&self) -> Option<&'static str> {
        match self {
            Network::Isolated => None,
            Network::Shared => Some(
                "note: this system refused a new network namespace, so your code ran with network access",
            ),
            Network::Unsupported => Some(
                "note: network namespaces exist only on Linux, so your code ran with network access",
            ),
        }
    }
}

/// One thing that happened in the running program.
enum Event {
    /// A line on the harness channel.
    Line(String),
    /// The channel closed (the program ended or closed it).
    Closed,
    /// Bytes the program printed on stdout or stderr.
    Output(Vec<u8>),
}

/// How waiting for the next answer ended.
#[derive(Debug)]
pub(crate) enum Wait {
    Line(String),
    /// The time limit passed; the process group has been killed.
    TimedOut,
    /// The program ended without answering.
    Exited(Option<ExitStatus>),
    /// More than the cap was printed; the process group has been killed.
    Flood(usize),
    /// The caller asked to stop; the process group has been killed.
    Cancelled,
}

/// A running sandboxed program. Dropping it kills its whole process group.
pub(crate) struct Sandboxed {
    child: Child,
    pgid: i32,
    channel: UnixStream,
    events: Receiver<Event>,
    /// Output since the last [`Sandboxed::take_output`], cut at the cap.
    output: Vec<u8>,
    /// Bytes printed since the last `take_output` (counted even past the cap).
    printed: usize,
    /// How much output is kept (the cap of the latest wait).
    cap: usize,
    pub(crate) network: Network,
    /// Whether the program runs in a process-id namespace of its own (see the module notes).
    pub(crate) pids_isolated: bool,
    _dir: tempfile::TempDir,
}

/// Find a program on the caller's PATH (before the environment is scrubbed).
pub(crate) fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

impl Sandboxed {
    /// Start `spec` in a fresh temporary directory.
    #[allow(unsafe_code)]
    pub(crate) fn spawn(spec: &Spawn) -> io::Result<Sandboxed> {
        let dir = tempfile::Builder::new()
            .prefix("tooldojo-practice-")
            .tempdir()?;
        for (name, text) in &spec.files {
            std::fs::write(dir.path().join(name), text)?;
        }
        let (ours, theirs) = UnixStream::pair()?;
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .current_dir(dir.path())
            .env_clear()
            .env("PATH", "/usr/local/bin:/usr/bin:/bin")
            .env("HOME", dir.path())
            .env("TMPDIR", dir.path())
            .env("LANG", "C.UTF-8")
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let fd = theirs.as_raw_fd();
        let address_space = spec.address_space;
        // SAFETY: the closure runs in the forked child before exec and only makes plain
        // system calls (no allocation, no locks).
        unsafe {
            cmd.pre_exec(move || child_setup(fd, address_space));
        }
        let mut child = cmd.spawn()?;
        drop(theirs);
        let pgid = child.id() as i32;
        let network = network_of(child.id());
        let pids_isolated = pids_isolated(child.id());
        let (tx, events) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            pump_output(out, tx.clone());
        }
        if let Some(err) = child.stderr.take() {
            pump_output(err, tx.clone());
        }
        pump_channel(ours.try_clone()?, tx);
        Ok(Sandboxed {
            child,
            pgid,
            channel: ours,
            events,
            output: Vec::new(),
            printed: 0,
            cap: usize::MAX,
            network,
            pids_isolated,
            _dir: dir,
        })
    }

    /// Send one request line.
    pub(crate) fn send(&mut self, line: &str) -> io::Result<()> {
        self.channel.write_all(line.as_bytes())?;
        self.channel.write_all(b"\n")
    }

    /// Wait for the next answer line, at most `limit`, stopping early when more than `cap`
    /// bytes are printed or `cancel` says so. Anything but a line leaves the process killed.
    pub(crate) fn wait_line(
        &mut self,
        limit: Duration,
        cap: usize,
        cancel: &dyn Fn() -> bool,
    ) -> Wait {
        let deadline = Instant::now() + limit;
        self.cap = cap;
        loop {
            if cancel() {
                self.kill();
                return Wait::Cancelled;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.kill();
                return Wait::TimedOut;
            }
            match self
                .events
                .recv_timeout(left.min(Duration::from_millis(50)))
            {
                Ok(Event::Line(line)) => return Wait::Line(line),
                Ok(Event::Output(bytes)) => {
                    self.keep(&bytes);
                    if self.printed > cap {
                        self.kill();
                        return Wait::Flood(self.printed);
                    }
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let status = self.reap(Duration::from_millis(500));
                    self.drain_output();
                    return Wait::Exited(status);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Collect output already sent (after the program ended), up to the cap.
    fn drain_output(&mut self) {
        let until = Instant::now() + Duration::from_millis(100);
        while let Ok(ev) = self
            .events
            .recv_timeout(until.saturating_duration_since(Instant::now()))
        {
            if let Event::Output(bytes) = ev {
                self.keep(&bytes);
            }
        }
    }

    /// Count printed bytes; keep them while under the cap.
    fn keep(&mut self, bytes: &[u8]) {
        self.printed += bytes.len();
        let room = self.cap.saturating_sub(self.output.len());
        self.output
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The output printed since the last call, and how many bytes that was in all.
    pub(crate) fn take_output(&mut self) -> (String, usize) {
        while let Ok(ev) = self.events.try_recv() {
            if let Event::Output(bytes) = ev {
                self.keep(&bytes);
            }
        }
        let text = String::from_utf8_lossy(&self.output).into_owned();
        let printed = self.printed;
        self.output.clear();
        self.printed = 0;
        (text, printed)
    }

    /// Wait up to `limit` for the main process to end; kill the group either way.
    fn reap(&mut self, limit: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + limit;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        self.kill();
        status
    }

    /// Kill the whole process group and reap the main process.
    #[allow(unsafe_code)]
    pub(crate) fn kill(&mut self) {
        // SAFETY: plain system call on a process group this sandbox created.
        unsafe {
            libc::killpg(self.pgid, libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Sandboxed {
    fn drop(&mut self) {
        let _ = self.channel.shutdown(std::net::Shutdown::Both);
        self.kill();
    }
}

/// Set up the child between fork and exec.
#[allow(unsafe_code)]
fn child_setup(channel: i32, address_space: Option<u64>) -> io::Result<()> {
    // SAFETY: async-signal-safe system calls on the child's own descriptors and limits.
    unsafe {
        if channel == CHANNEL_FD {
            if libc::fcntl(CHANNEL_FD, libc::F_SETFD, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
        } else if libc::dup2(channel, CHANNEL_FD) < 0 {
            return Err(io::Error::last_os_error());
        }
        limit(libc::RLIMIT_CORE as Resource, 0);
        limit(libc::RLIMIT_FSIZE as Resource, 64 << 20);
        if let Some(bytes) = address_space {
            limit(libc::RLIMIT_AS as Resource, bytes);
        }
        #[cfg(target_os = "linux")]
        {
            // Die with the grader, and never gain privileges.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
            if new_namespaces() {
                // Only the namespace's first process goes on to exec the interpreter.
                first_process_of_namespace()?;
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            }
        }
    }
    Ok(())
}

/// Enter a new, empty network namespace and a new process-id namespace, each where the
/// system allows (unprivileged users need a user namespace too). True when the process-id
/// namespace was made: the next child forked is its first process.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn new_namespaces() -> bool {
    use libc::{CLONE_NEWNET, CLONE_NEWPID, CLONE_NEWUSER};
    let tries = [
        CLONE_NEWNET | CLONE_NEWPID,
        CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWPID,
        CLONE_NEWNET,
        CLONE_NEWUSER | CLONE_NEWNET,
    ];
    // SAFETY: unshare only changes this (single-threaded, forked) process's namespaces.
    tries
        .iter()
        .find(|&&flags| unsafe { libc::unshare(flags) } == 0)
        .is_some_and(|flags| flags & CLONE_NEWPID != 0)
}

/// Fork twice. The first child is the new process-id namespace's first process (PID 1): a
/// tiny init that reaps orphans and, when the interpreter ends, passes its wait status up a
/// pipe and exits, which makes the kernel kill every process left in the namespace. The
/// second child returns (and execs the interpreter) as PID 2, so signals it sends itself act
/// as anywhere else (PID 1 would ignore them). This process stays between the grader and
/// them, holding no descriptor but the pipe, and ends as the interpreter ended.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn first_process_of_namespace() -> io::Result<()> {
    // SAFETY: pipe2, fork, close, read, write, waitpid, signal, kill and _exit are
    // async-signal-safe, and neither process in between returns into the caller's code.
    unsafe {
        let mut pipe = [0; 2];
        if libc::pipe2(pipe.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        let init = libc::fork();
        if init < 0 {
            return Err(io::Error::last_os_error());
        }
        if init == 0 {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            let interpreter = libc::fork();
            if interpreter == 0 {
                return Ok(());
            }
            close_all_but(pipe[1]);
            let status = if interpreter < 0 {
                127 << 8
            } else {
                reap_until(interpreter)
            };
            let bytes = status.to_ne_bytes();
            libc::write(pipe[1], bytes.as_ptr().cast(), bytes.len());
            libc::_exit(0);
        }
        // Holding no pipe end of the grader's, it sees output end, and the spawn succeed,
        // by the interpreter alone.
        close_all_but(pipe[0]);
        reap_until(init);
        let mut bytes = [0u8; 4];
        let status = if libc::read(pipe[0], bytes.as_mut_ptr().cast(), 4) == 4 {
            i32::from_ne_bytes(bytes)
        } else {
            127 << 8
        };
        if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            libc::signal(signal, libc::SIG_DFL);
            libc::kill(libc::getpid(), signal);
        }
        libc::_exit(if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            127
        })
    }
}

/// Close every descriptor but `keep`.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
unsafe fn close_all_but(keep: i32) {
    let keep = keep as u32;
    // SAFETY: closing descriptors of this forked process only.
    unsafe {
        let below = keep == 0 || libc::syscall(libc::SYS_close_range, 0u32, keep - 1, 0u32) == 0;
        let above = libc::syscall(libc::SYS_close_range, keep + 1, u32::MAX, 0u32) == 0;
        if !(below && above) {
            for fd in (0..4096).filter(|&fd| fd != keep as i32) {
                libc::close(fd);
            }
        }
    }
}

/// Wait for `pid` to end, reaping any other child (an orphan handed to a namespace's first
/// process) on the way; its wait status, or that of a plain failure.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
unsafe fn reap_until(pid: i32) -> i32 {
    let mut status = 0;
    loop {
        // SAFETY: waitpid with a pointer to a local.
        let got = unsafe { libc::waitpid(-1, &mut status, 0) };
        if got == pid {
            return status;
        }
        if got < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return 127 << 8;
        }
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
type Resource = libc::c_int;

/// Lower one resource limit (both soft and hard).
#[allow(unsafe_code)]
unsafe fn limit(resource: Resource, value: u64) {
    let lim = libc::rlimit {
        rlim_cur: value as libc::rlim_t,
        rlim_max: value as libc::rlim_t,
    };
    // SAFETY: setrlimit with a valid pointer to a local struct.
    unsafe {
        libc::setrlimit(resource, &lim);
    }
}

/// Did the child end up in a network namespace of its own?
fn network_of(pid: u32) -> Network {
    if !cfg!(target_os = "linux") {
        return Network::Unsupported;
    }
    let ours = std::fs::read_link("/proc/self/ns/net");
    let theirs = std::fs::read_link(format!("/proc/{pid}/ns/net"));
    match (ours, theirs) {
        (Ok(a), Ok(b)) if a != b => Network::Isolated,
        _ => Network::Shared,
    }
}

/// Are the processes `pid` starts in a process-id namespace other than ours?
fn pids_isolated(pid: u32) -> bool {
    let ours = std::fs::read_link("/proc/self/ns/pid_for_children");
    let theirs = std::fs::read_link(format!("/proc/{pid}/ns/pid_for_children"));
    matches!((ours, theirs), (Ok(a), Ok(b)) if a != b)
}

fn pump_output(mut from: impl Read + Send + 'static, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match from.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(Event::Output(buf[..n].to_vec())).is_err() {
                        break;
                    }
                }
            }
        }
    });
}

fn pump_channel(from: UnixStream, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let reader = BufReader::new(from);
        for line in reader.split(b'\n') {
            let Ok(line) = line else { break };
            let text = String::from_utf8_lossy(&line).into_owned();
            if tx.send(Event::Line(text)).is_err() {
                return;
            }
        }
        let _ = tx.send(Event::Closed);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Sandboxed {
        let spec = Spawn {
            program: find_program("sh").expect("a POSIX shell"),
            args: vec!["-c".into(), script.into()],
            files: vec![("note.txt".into(), "hello".into())],
            env: vec![("EXTRA".into(), "1".into())],
            address_space: None,
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
        let mut s =
            shell("cat; echo \"stdin done $(cat note.txt) $(env | sort | tr '\\n' ' ')\" >&3");
        let l = line(&mut s);
        assert!(l.starts_with("stdin done hello "), "{l}");
        assert!(l.contains("EXTRA=1") && l.contains("PATH="));
        assert!(!l.contains("CARGO"), "the caller's environment leaked: {l}");
    }

    #[test]
    fn no_network_interface_but_loopback_when_isolated() {
        let mut s = shell(
            "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ' ' >&3; echo >&3",
        );
        let l = line(&mut s);
        if s.network == Network::Isolated {
            assert_eq!(l.trim(), "lo", "an isolated namespace has only a loopback");
        } else {
            eprintln!("network namespaces are refused here: {:?}", s.network);
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
        assert_eq!(running(&["sleep", &nonce]).len(), 1, "the child runs");
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
        assert_eq!(running(&["sleep", &nonce]).len(), 1, "the child runs");
        let isolated = s.pids_isolated;
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
}
