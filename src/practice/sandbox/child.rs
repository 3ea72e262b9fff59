//! The child's side of the sandbox: what runs between fork and exec, in this order.
//!
//! 1. A new session (`setsid`): no controlling terminal, so `/dev/tty` cannot be opened and
//!    TIOCSTI has no terminal to push bytes into.
//! 2. The harness channel on descriptor 3; every other inherited descriptor above 2 closes
//!    at exec (the grader's own, and any the user's shell handed down).
//! 3. Core dumps off, a file-size cap, the run's cgroup joined (made by the parent).
//! 4. Namespaces: mount, network, process-id and IPC; as root without a user namespace, as
//!    anyone else inside one of their own (the user's own ids mapped to themselves).
//! 5. In the process-id namespace, a tiny init is PID 1 and the interpreter PID 2 (see
//!    [`first_process_of_namespace`]).
//! 6. In the mount namespace: a fresh `/proc` of the new process-id namespace, an empty
//!    `/dev/pts` (no terminal of the user's), and `/dev/null` bound over every Unix socket
//!    the parent found.
//! 7. Privileges: the bounding and ambient capability sets emptied; root becomes `nobody`;
//!    every capability set is then checked empty.
//! 8. Landlock (writes only inside the working directory, no TCP, no signals or abstract
//!    sockets outside), where the kernel has it; per-process memory and process limits.
//! 9. What held is written on the status pipe; exec then closes it.
//!
//! Nothing here allocates: the parent prepared every path and string in [`Plan`]. Every
//! step but the first two degrades: the status pipe says what held, never more.

use std::io;
use std::os::fd::{AsFd, RawFd};

use rustix::io::Errno;
use rustix::mount::{MountFlags, MountPropagationFlags};
use rustix::process::{Resource, Rlimit, Signal};
use rustix::thread::{CapabilitySet, CapabilitySets, UnshareFlags};

use super::isolation::held;
use super::plan::{NOBODY, Plan};

/// Core dumps off; files the code writes stay under this size.
const FILE_SIZE: u64 = 64 << 20;

/// Set up the child between fork and exec (see the module notes).
pub(super) fn setup(plan: &Plan) -> io::Result<()> {
    rustix::process::setsid()?;
    descriptors(plan.channel)?;
    limit(Resource::Core, 0);
    limit(Resource::Fsize, FILE_SIZE);
    let mut bits = 0;
    if join_cgroups(plan) {
        bits |= held::CGROUP;
    }
    // Die with the grader, and never gain privileges through exec.
    let _ = rustix::process::set_parent_process_death_signal(Some(Signal::KILL));
    let _ = rustix::thread::set_no_new_privs(true);
    let made = namespaces(plan);
    bits |= made;
    if made & held::PIDS != 0 {
        first_process_of_namespace()?;
        let _ = rustix::process::set_parent_process_death_signal(Some(Signal::KILL));
    }
    if made & held::MOUNT != 0 {
        bits |= hide(plan, made & held::PIDS != 0);
    }
    bits |= drop_privileges();
    if landlock(plan) {
        bits |= held::LANDLOCK;
    }
    if let Some(bytes) = plan.limits.address_space {
        limit(Resource::As, bytes);
    }
    if let Some(bytes) = plan.limits.data {
        limit(Resource::Data, bytes);
    }
    // Where no cgroup counts the run's tasks: in a user namespace of its own the limit
    // counts only the run's; elsewhere it counts every task of the user id.
    if let (Some((alone, shared)), false) = (plan.limits.processes, bits & held::CGROUP != 0) {
        let tasks = if bits & held::USER != 0 {
            alone
        } else {
            shared
        };
        limit(Resource::Nproc, tasks);
    }
    report(plan, bits);
    Ok(())
}

/// The channel on descriptor 3 (open across exec); everything above it closes at exec.
#[allow(unsafe_code)]
fn descriptors(channel: RawFd) -> io::Result<()> {
    const CHANNEL: RawFd = super::CHANNEL_FD;
    // SAFETY: dup2/fcntl/close_range on this forked process's own descriptor table.
    unsafe {
        if channel == CHANNEL {
            if libc::fcntl(CHANNEL, libc::F_SETFD, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
        } else if libc::dup2(channel, CHANNEL) < 0 {
            return Err(io::Error::last_os_error());
        }
        // Marked close-on-exec rather than closed: the plan's own descriptors (status pipe,
        // cgroup files, Landlock ruleset) are still needed until exec.
        let first = (CHANNEL + 1) as libc::c_uint;
        let all = libc::syscall(
            libc::SYS_close_range,
            first,
            libc::c_uint::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        ) == 0;
        if !all {
            let open = rustix::process::getrlimit(Resource::Nofile).current;
            let top = open.unwrap_or(1024).clamp(1024, 1 << 16) as RawFd;
            for fd in CHANNEL + 1..top {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
    }
    Ok(())
}

/// Move this process into the run's cgroup(s); true when every one took it.
fn join_cgroups(plan: &Plan) -> bool {
    !plan.cgroup_procs.is_empty()
        && plan
            .cgroup_procs
            .iter()
            .all(|fd| rustix::io::write(fd, b"0\n").is_ok())
}

/// Unshare what the system allows; the [`held`] bits of the namespaces made.
fn namespaces(plan: &Plan) -> u32 {
    let base = UnshareFlags::NEWNS | UnshareFlags::NEWNET | UnshareFlags::NEWPID;
    if plan.root {
        let tries = [
            base | UnshareFlags::NEWIPC,
            UnshareFlags::NEWNET | UnshareFlags::NEWPID,
            UnshareFlags::NEWNET,
        ];
        for flags in tries {
            if unshare(flags) {
                return bits_of(flags);
            }
        }
        // Root that may not make namespaces (a container): become nobody first, then own a
        // user namespace as nobody.
        if !become_nobody() {
            return 0;
        }
    }
    let user = UnshareFlags::NEWUSER;
    let tries = [
        user | base | UnshareFlags::NEWIPC,
        user | UnshareFlags::NEWNET | UnshareFlags::NEWPID,
        user | UnshareFlags::NEWNET,
    ];
    for flags in tries {
        if unshare(flags) {
            let map = if plan.root {
                &plan.nobody_map
            } else {
                &plan.user_map
            };
            map_ids(map.uid.as_c_str(), map.gid.as_c_str());
            return bits_of(flags);
        }
    }
    0
}

#[allow(unsafe_code)]
fn unshare(flags: UnshareFlags) -> bool {
    // SAFETY: no CLONE_FILES here; this forked process has a single thread.
    unsafe { rustix::thread::unshare_unsafe(flags) }.is_ok()
}

fn bits_of(flags: UnshareFlags) -> u32 {
    let mut bits = 0;
    for (flag, bit) in [
        (UnshareFlags::NEWNS, held::MOUNT),
        (UnshareFlags::NEWNET, held::NET),
        (UnshareFlags::NEWPID, held::PIDS),
        (UnshareFlags::NEWUSER, held::USER),
    ] {
        if flags.contains(flag) {
            bits |= bit;
        }
    }
    bits
}

/// In a new user namespace: this process's own ids mapped to themselves. The process is
/// a copy of the grader (its memory holds the grader's environment), so it is undumpable;
/// its own /proc files are writable to it only while it is dumpable, for the three writes.
fn map_ids(uid_map: &std::ffi::CStr, gid_map: &std::ffi::CStr) {
    use rustix::process::DumpableBehavior;
    let write = |path: &std::ffi::CStr, text: &[u8]| {
        use rustix::fs::{Mode, OFlags};
        if let Ok(fd) = rustix::fs::open(path, OFlags::WRONLY | OFlags::CLOEXEC, Mode::empty()) {
            let _ = rustix::io::write(&fd, text);
        }
    };
    let _ = rustix::process::set_dumpable_behavior(DumpableBehavior::Dumpable);
    write(c"/proc/self/setgroups", b"deny");
    write(c"/proc/self/uid_map", uid_map.to_bytes());
    write(c"/proc/self/gid_map", gid_map.to_bytes());
    let _ = rustix::process::set_dumpable_behavior(DumpableBehavior::NotDumpable);
}

/// Drop every group and become `nobody` (from root); false when the system refused.
fn become_nobody() -> bool {
    use rustix::process::{Gid, Uid};
    let gid = Gid::from_raw(NOBODY);
    let uid = Uid::from_raw(NOBODY);
    rustix::thread::set_thread_groups(&[]).is_ok()
        && rustix::thread::set_thread_res_gid(gid, gid, gid).is_ok()
        && rustix::thread::set_thread_res_uid(uid, uid, uid).is_ok()
}

/// In the mount namespace: nothing propagates out, a fresh `/proc`, no terminals, and
/// `/dev/null` over every socket found. The [`held`] bits of what worked.
fn hide(plan: &Plan, own_pids: bool) -> u32 {
    if rustix::mount::mount_change(
        c"/",
        MountPropagationFlags::PRIVATE | MountPropagationFlags::REC,
    )
    .is_err()
    {
        return 0;
    }
    let quiet = MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC;
    let mut bits = 0;
    if own_pids && rustix::mount::mount(c"proc", c"/proc", c"proc", quiet, None).is_ok() {
        bits |= held::PROC;
    }
    let terminals = rustix::mount::mount(c"tmpfs", c"/dev/pts", c"tmpfs", quiet, c"size=4k");
    if matches!(terminals, Ok(()) | Err(Errno::NOENT)) {
        bits |= held::TERMINALS;
    }
    let unreachable = |e: Errno| {
        [
            Errno::NOENT,
            Errno::ACCESS,
            Errno::NOTDIR,
            Errno::LOOP,
            Errno::NAMETOOLONG,
        ]
        .contains(&e)
    };
    let all = plan.sockets.iter().all(|path| {
        match rustix::mount::mount_bind(c"/dev/null", path.as_c_str()) {
            Ok(()) => true,
            Err(e) => unreachable(e),
        }
    });
    if all {
        bits |= held::SOCKETS;
    }
    bits
}

/// Empty the bounding and ambient sets, leave root, clear every set; the [`held`] bits of
/// what the kernel then reports (capabilities: none in any set, and none to be had).
fn drop_privileges() -> u32 {
    for n in 0..64 {
        let _ = rustix::thread::remove_capability_from_bounding_set(
            CapabilitySet::from_bits_retain(1 << n),
        );
    }
    let _ = rustix::thread::clear_ambient_capability_set();
    if rustix::process::geteuid().is_root() || rustix::process::getuid().is_root() {
        become_nobody();
    }
    let _ = rustix::thread::set_capabilities(
        None,
        CapabilitySets {
            effective: CapabilitySet::empty(),
            permitted: CapabilitySet::empty(),
            inheritable: CapabilitySet::empty(),
        },
    );
    let mut bits = 0;
    let sets_empty = rustix::thread::capabilities(None).is_ok_and(|c| {
        c.effective.is_empty() && c.permitted.is_empty() && c.inheritable.is_empty()
    }) && (0..64).all(|n| {
        !rustix::thread::capability_is_in_ambient_set(CapabilitySet::from_bits_retain(1 << n))
            .unwrap_or(false)
    });
    let bounding_empty = (0..64).all(|n| {
        !rustix::thread::capability_is_in_bounding_set(CapabilitySet::from_bits_retain(1 << n))
            .unwrap_or(false)
    });
    // Without the right to empty the bounding set (a user with no namespace of its own),
    // no_new_privs still means no program run from here can grant a capability.
    let none_to_gain = bounding_empty || rustix::thread::no_new_privs().unwrap_or(false);
    if sets_empty && none_to_gain {
        bits |= held::CAPS;
    }
    if !rustix::process::geteuid().is_root() && !rustix::process::getuid().is_root() {
        bits |= held::NOT_ROOT;
    }
    bits
}

/// Apply the parent's Landlock ruleset to this process; true when the kernel took it.
#[allow(unsafe_code)]
fn landlock(plan: &Plan) -> bool {
    let Some(fd) = plan.landlock.as_ref() else {
        return false;
    };
    use std::os::fd::AsRawFd;
    // SAFETY: one system call on a ruleset descriptor this process holds.
    unsafe { libc::syscall(libc::SYS_landlock_restrict_self, fd.as_raw_fd(), 0u32) == 0 }
}

/// Lower one resource limit (soft and hard).
fn limit(resource: Resource, value: u64) {
    let _ = rustix::process::setrlimit(
        resource,
        Rlimit {
            current: Some(value),
            maximum: Some(value),
        },
    );
}

/// The held bits and the user id the code runs as, on the status pipe.
fn report(plan: &Plan, bits: u32) {
    let uid = rustix::process::getuid().as_raw();
    let mut bytes = [0u8; 8];
    bytes[..4].copy_from_slice(&bits.to_le_bytes());
    bytes[4..].copy_from_slice(&uid.to_le_bytes());
    if let Some(fd) = plan.status.as_ref() {
        let _ = rustix::io::write(fd.as_fd(), &bytes);
    }
}

/// Fork twice. The first child is the new process-id namespace's first process (PID 1): a
/// tiny init that reaps orphans and, when the interpreter ends, passes its wait status up a
/// pipe and exits, which makes the kernel kill every process left in the namespace. The
/// second child returns (and execs the interpreter) as PID 2, so signals it sends itself act
/// as anywhere else (PID 1 would ignore them). This process stays between the grader and
/// them, holding no descriptor but the pipe, and ends as the interpreter ended.
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
                libc::close(pipe[0]);
                libc::close(pipe[1]);
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
