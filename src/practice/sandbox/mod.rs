//! Running the learner's untrusted code. The child gets a fresh temporary working directory
//! (with a copy of the learner's file, so the learner's own directory is never written), a
//! scrubbed environment, no stdin, a session of its own (no controlling terminal), no
//! inherited descriptor but the harness channel on 3, and on Linux: mount, network,
//! process-id and IPC namespaces, a private `/proc`, the user's terminals and Unix sockets
//! hidden, every capability dropped (root runs it as `nobody`), Landlock where the kernel
//! has it, and a cgroup capping the whole run's memory and tasks (else per-process limits).
//! [`child`] has the steps; [`Isolation`] says which held on this machine, never more.
//!
//! Everything the program prints is read by threads and handed over as events, so a silent
//! hang, a crash, a print flood and an endless harness line are all seen by one loop with a
//! deadline. In its own process-id namespace the interpreter's init is that namespace's first
//! process, so when it is killed the kernel kills every process it started, even one that
//! left the process group. The harness itself also dies with the grader.

#[cfg(target_os = "linux")]
mod cgroup;
mod channel;
#[cfg(target_os = "linux")]
mod child;
mod isolation;
#[cfg(target_os = "linux")]
mod plan;

use std::collections::VecDeque;
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[cfg(target_os = "linux")]
pub(crate) use cgroup::Counters;
pub(crate) use isolation::Isolation;

/// The file descriptor the harness reads requests from and writes answers to.
pub(crate) const CHANNEL_FD: i32 = 3;

/// The longest line the harness may send; a longer one fails its row.
pub(crate) const LINE_CAP: usize = 1 << 20;

/// The whole run's memory (swap included) where a cgroup holds it.
pub(crate) const RUN_MEMORY: u64 = 1 << 30;
/// The whole run's tasks (processes and threads) where a cgroup holds it.
pub(crate) const RUN_TASKS: u64 = 64;
/// Tasks beyond the interpreter's own that the code may start where only `RLIMIT_NPROC`
/// counts them.
const EXTRA_TASKS: u64 = 8;

/// What to start.
#[derive(Debug, Clone)]
pub(crate) struct Spawn {
    /// The interpreter, already resolved to a full path.
    pub(crate) program: PathBuf,
    pub(crate) args: Vec<String>,
    /// Files written into the fresh working directory before start (relative path, contents).
    pub(crate) files: Vec<(String, String)>,
    /// Extra environment variables (the rest of the environment is cleared).
    pub(crate) env: Vec<(String, String)>,
    /// Address-space limit of each process, in bytes.
    pub(crate) address_space: Option<u64>,
    /// Data (private writable memory) limit of each process, for an interpreter that
    /// reserves a large address space it never uses.
    pub(crate) data: Option<u64>,
    /// Threads the interpreter starts on its own (room under a task limit).
    pub(crate) threads: u64,
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
pub(crate) enum Event {
    /// A line on the harness channel.
    Line(String),
    /// A line on the channel ran past [`LINE_CAP`] (this many bytes and counting); the
    /// channel is no longer read.
    Overlong(usize),
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
    /// The harness channel carried a line longer than [`LINE_CAP`]; the program was killed.
    Overlong(usize),
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
    /// Bytes printed since the program started.
    received: u64,
    /// Events taken off the queue while waiting for output, to be handed out first.
    held: VecDeque<Event>,
    /// How much output is kept (the cap of the latest wait).
    cap: usize,
    /// What held on this machine.
    pub(crate) isolation: Isolation,
    #[cfg(target_os = "linux")]
    cgroup: Option<cgroup::Cgroup>,
    #[cfg(target_os = "linux")]
    counted: Counters,
    _dir: tempfile::TempDir,
}

/// Find a program on the caller's PATH (before the environment is scrubbed). Started as
/// root, the code runs as `nobody`: the first such program that `nobody` may run (one in
/// root's home, a version manager's shim, may not be), else the first there is.
pub(crate) fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let found: Vec<PathBuf> = std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .filter(|p| is_executable(p))
        .collect();
    let as_nobody = cfg!(target_os = "linux") && is_root();
    found
        .iter()
        .find(|p| !as_nobody || runnable_by_others(p))
        .or(found.first())
        .cloned()
}

fn is_root() -> bool {
    #[cfg(target_os = "linux")]
    return rustix::process::geteuid().is_root();
    #[cfg(not(target_os = "linux"))]
    false
}

/// Whether a user with no special rights may run `p`: the file and every folder above it
/// (links followed) are open to others.
fn runnable_by_others(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Ok(real) = std::fs::canonicalize(p) else {
        return false;
    };
    let open = |p: &Path, bit: u32| {
        p.metadata()
            .is_ok_and(|m| m.permissions().mode() & bit != 0)
    };
    open(&real, 0o001) && real.ancestors().skip(1).all(|dir| open(dir, 0o001))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The fresh working directory with the spec's files; owned by `nobody` when the code will
/// run as `nobody`.
fn workdir(spec: &Spawn) -> io::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new()
        .prefix("tooldojo-practice-")
        .tempdir()?;
    let mut made = vec![dir.path().to_path_buf()];
    for (name, text) in &spec.files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent()
            && !parent.exists()
        {
            std::fs::create_dir_all(parent)?;
            made.push(parent.to_path_buf());
        }
        std::fs::write(&path, text)?;
        made.push(path);
    }
    #[cfg(target_os = "linux")]
    if rustix::process::geteuid().is_root() {
        let nobody = Some(rustix::process::Uid::from_raw(plan::NOBODY));
        let group = Some(rustix::process::Gid::from_raw(plan::NOBODY));
        for path in made {
            rustix::fs::chown(&path, nobody, group)?;
        }
    }
    Ok(dir)
}

/// Take descriptor [`CHANNEL_FD`] for the rest of the process (on `/dev/null`, closed at
/// exec) once it is free, and any lower one that is free too. The child puts its channel on
/// that number, replacing whatever the fork copied there: a descriptor opened just before
/// the fork, by the plan or by `Command` itself (its pipe for reporting a failed exec), must
/// never have it. One free at the first run is taken at once; one that another part of the
/// process frees later is taken by the next run.
fn hold_channel_number() {
    while let Ok(null) = std::fs::File::open("/dev/null") {
        let fd = null.as_raw_fd();
        if fd > CHANNEL_FD {
            return;
        }
        // Held for good: never closed, so no later descriptor gets this number.
        let _ = std::os::fd::IntoRawFd::into_raw_fd(null);
        if fd == CHANNEL_FD {
            return;
        }
    }
}

impl Sandboxed {
    /// Start `spec` in a fresh temporary directory.
    #[allow(unsafe_code)]
    pub(crate) fn spawn(spec: &Spawn) -> io::Result<Sandboxed> {
        hold_channel_number();
        let dir = workdir(spec)?;
        let (ours, theirs) = UnixStream::pair()?;
        // The standard streams are put on 0 to 2 before the set-up runs, replacing a channel
        // numbered among them (possible only when this process runs with one of them closed
        // and /dev/null cannot be opened to hold it).
        let theirs = if theirs.as_raw_fd() < CHANNEL_FD {
            let up = rustix::io::fcntl_dupfd_cloexec(&theirs, CHANNEL_FD)?;
            drop(theirs);
            UnixStream::from(up)
        } else {
            theirs
        };
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
            .stderr(Stdio::piped());
        #[cfg(target_os = "linux")]
        let prepared = linux::prepare(spec, theirs.as_raw_fd(), dir.path())?;
        #[cfg(target_os = "linux")]
        {
            let plan = prepared.plan;
            // SAFETY: the set-up runs in the forked child before exec and only makes system
            // calls on what the plan prepared (no allocation, no locks).
            unsafe {
                cmd.pre_exec(move || child::setup(&plan));
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let fd = theirs.as_raw_fd();
            let bytes = spec.address_space;
            // SAFETY: as above; plain system calls on the child's own descriptors.
            unsafe {
                cmd.pre_exec(move || portable_setup(fd, bytes));
            }
        }
        let spawned = cmd.spawn();
        // The plan's descriptors (status pipe, cgroup files, ruleset) close here.
        drop(cmd);
        drop(theirs);
        let mut child = spawned?;
        let pgid = child.id() as i32;
        #[cfg(target_os = "linux")]
        let (isolation, cgroup) =
            linux::observe(prepared.status, prepared.cgroup, prepared.limits, &child);
        #[cfg(not(target_os = "linux"))]
        let isolation = Isolation::none();
        let (tx, events) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            channel::pump_output(out, tx.clone());
        }
        if let Some(err) = child.stderr.take() {
            channel::pump_output(err, tx.clone());
        }
        channel::pump_channel(ours.try_clone()?, tx);
        Ok(Sandboxed {
            child,
            pgid,
            channel: ours,
            events,
            output: Vec::new(),
            printed: 0,
            received: 0,
            held: VecDeque::new(),
            cap: usize::MAX,
            isolation,
            #[cfg(target_os = "linux")]
            counted: cgroup.as_ref().map(|c| c.counters()).unwrap_or_default(),
            #[cfg(target_os = "linux")]
            cgroup,
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
            match self.next_event(left.min(Duration::from_millis(50))) {
                Ok(Event::Line(line)) => return Wait::Line(line),
                Ok(Event::Overlong(n)) => {
                    self.kill();
                    return Wait::Overlong(n);
                }
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

    /// The next event: one held back first, else the next from the readers.
    fn next_event(&mut self, timeout: Duration) -> Result<Event, RecvTimeoutError> {
        match self.held.pop_front() {
            Some(ev) => Ok(ev),
            None => self.events.recv_timeout(timeout),
        }
    }

    /// Collect output already sent (after the program ended), up to the cap.
    fn drain_output(&mut self) {
        let until = Instant::now() + Duration::from_millis(100);
        while let Ok(ev) = self.next_event(until.saturating_duration_since(Instant::now())) {
            if let Event::Output(bytes) = ev {
                self.keep(&bytes);
            }
        }
    }

    /// Wait, `wait` at most, until `total` bytes of output have come in since the program
    /// started (what the harness says it printed by its answer): an answer can reach us
    /// before the last bytes printed ahead of it, which a reader has taken off the pipe but
    /// not handed on yet. Other events that come meanwhile are held for later, in order.
    pub(crate) fn await_output(&mut self, total: u64, wait: Duration) {
        let until = Instant::now() + wait;
        while self.received < total {
            match self
                .events
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok(Event::Output(bytes)) => self.keep(&bytes),
                Ok(other) => self.held.push_back(other),
                Err(_) => return,
            }
        }
    }

    /// Count printed bytes; keep them while under the cap.
    fn keep(&mut self, bytes: &[u8]) {
        self.received += bytes.len() as u64;
        self.printed += bytes.len();
        let room = self.cap.saturating_sub(self.output.len());
        self.output
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The output printed since the last call, and how many bytes that was in all.
    pub(crate) fn take_output(&mut self) -> (String, usize) {
        while let Ok(ev) = self.events.try_recv() {
            match ev {
                Event::Output(bytes) => self.keep(&bytes),
                other => self.held.push_back(other),
            }
        }
        let text = String::from_utf8_lossy(&self.output).into_owned();
        let printed = self.printed;
        self.output.clear();
        self.printed = 0;
        (text, printed)
    }

    /// What the run's cgroup counted since the last call: processes killed for memory and
    /// forks refused (zero where there is no cgroup).
    pub(crate) fn overrun(&mut self) -> (u64, u64) {
        #[cfg(target_os = "linux")]
        if let Some(group) = &self.cgroup {
            let now = group.counters();
            let delta = (
                now.oom_kills.saturating_sub(self.counted.oom_kills),
                now.forks_refused.saturating_sub(self.counted.forks_refused),
            );
            self.counted = now;
            return delta;
        }
        (0, 0)
    }

    /// The most memory the run's processes used together, where a cgroup kept count.
    pub(crate) fn memory_peak(&self) -> Option<u64> {
        #[cfg(target_os = "linux")]
        return self.cgroup.as_ref().and_then(|c| c.peak());
        #[cfg(not(target_os = "linux"))]
        None
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

#[cfg(target_os = "linux")]
mod linux {
    use std::io::{self, Read};
    use std::os::fd::OwnedFd;
    use std::path::Path;
    use std::process::Child;

    use super::cgroup::Cgroup;
    use super::isolation::{CapKind, Isolation, RunCap, held};
    use super::plan::{self, NOBODY, PerProcess, Plan};
    use super::{EXTRA_TASKS, RUN_MEMORY, RUN_TASKS, Spawn};

    pub(super) struct Prepared {
        pub(super) plan: Plan,
        pub(super) status: OwnedFd,
        pub(super) cgroup: Option<Cgroup>,
        pub(super) limits: PerProcess,
    }

    /// Make the run's cgroup, the status pipe and the child's plan.
    pub(super) fn prepare(spec: &Spawn, channel: i32, dir: &Path) -> io::Result<Prepared> {
        // The grader holds the user's environment: its /proc entries are closed to the
        // user's other processes (the child included) from now on.
        let _ =
            rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
        let (status, status_write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
        let cgroup = Cgroup::new(RUN_MEMORY, RUN_TASKS);
        let procs = cgroup.as_ref().map(Cgroup::procs).unwrap_or_default();
        let own = 3 + spec.threads + EXTRA_TASKS;
        let runs_as = if rustix::process::geteuid().is_root() {
            NOBODY
        } else {
            rustix::process::getuid().as_raw()
        };
        let limits = PerProcess {
            address_space: spec.address_space,
            data: spec.data,
            processes: Some((own, plan::tasks_of(runs_as) + own)),
        };
        Ok(Prepared {
            plan: Plan::new(channel, status_write, dir, procs, limits)?,
            status,
            cgroup,
            limits,
        })
    }

    /// Read the child's report and check it against its namespaces.
    pub(super) fn observe(
        status: OwnedFd,
        cgroup: Option<Cgroup>,
        limits: PerProcess,
        child: &Child,
    ) -> (Isolation, Option<Cgroup>) {
        let mut bytes = [0u8; 8];
        let mut file = std::fs::File::from(status);
        let got = file.read(&mut bytes).unwrap_or(0);
        let (bits, uid) = if got == 8 {
            let word =
                |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
            (word(0), Some(word(4)))
        } else {
            (0, None)
        };
        let pid = child.id();
        let joined = bits & held::CGROUP != 0;
        let (alone, shared) = limits.processes.unwrap_or_default();
        let process_memory_bytes = limits.data.or(limits.address_space).unwrap_or(0);
        let cap = if joined {
            RunCap {
                kind: CapKind::Cgroup,
                memory_bytes: RUN_MEMORY,
                tasks: RUN_TASKS,
                process_memory_bytes,
            }
        } else {
            RunCap {
                kind: CapKind::PerProcess,
                memory_bytes: process_memory_bytes,
                tasks: if bits & held::USER != 0 {
                    alone
                } else {
                    shared
                },
                process_memory_bytes,
            }
        };
        let isolation = Isolation::from_bits(
            bits,
            uid,
            other_namespace(pid, "net"),
            other_namespace(pid, "pid_for_children"),
            rustix::process::geteuid().is_root(),
            cap,
            plan::landlock_hides_sockets(),
        );
        (isolation, if joined { cgroup } else { None })
    }

    /// Is the child in a namespace of `kind` other than ours? `None` when its links cannot
    /// be read.
    fn other_namespace(pid: u32, kind: &str) -> Option<bool> {
        let ours = std::fs::read_link(format!("/proc/self/ns/{kind}")).ok()?;
        let theirs = std::fs::read_link(format!("/proc/{pid}/ns/{kind}")).ok()?;
        Some(ours != theirs)
    }
}

/// The set-up where none of Linux's isolation exists: a session of its own, the channel on
/// 3, every other descriptor closed at exec, no core dumps, a file-size and memory limit.
#[cfg(not(target_os = "linux"))]
#[allow(unsafe_code)]
fn portable_setup(channel: i32, address_space: Option<u64>) -> io::Result<()> {
    // SAFETY: async-signal-safe system calls on the child's own descriptors and limits.
    unsafe {
        if libc::setsid() < 0 {
            return Err(io::Error::last_os_error());
        }
        if channel == CHANNEL_FD {
            libc::fcntl(CHANNEL_FD, libc::F_SETFD, 0);
        } else if libc::dup2(channel, CHANNEL_FD) < 0 {
            return Err(io::Error::last_os_error());
        }
        for fd in CHANNEL_FD + 1..4096 {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
        let set = |resource, value: u64| {
            let lim = libc::rlimit {
                rlim_cur: value as libc::rlim_t,
                rlim_max: value as libc::rlim_t,
            };
            libc::setrlimit(resource, &lim);
        };
        set(libc::RLIMIT_CORE, 0);
        set(libc::RLIMIT_FSIZE, 64 << 20);
        if let Some(bytes) = address_space {
            set(libc::RLIMIT_AS, bytes);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
