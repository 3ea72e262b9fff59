//! The parent's side of the sandbox set-up: everything the child will need between fork and
//! exec, made here where allocating is safe. The Unix sockets to hide, the id maps, the
//! Landlock ruleset, the per-process limits.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::CHANNEL_FD;

/// The id of `nobody`, which root's children run as.
pub(super) const NOBODY: u32 = 65534;

/// At most this many socket paths are hidden (each is one bind mount).
const MAX_SOCKETS: usize = 4096;
/// At most this many directory entries are looked at when searching for sockets.
const SCAN_BUDGET: usize = 20_000;
/// How deep the search goes below each directory it starts from.
const SCAN_DEPTH: usize = 4;
/// A socket list younger than this is reused.
const SCAN_REUSE: Duration = Duration::from_secs(5);

/// One user namespace's id maps, as written to `/proc/self/uid_map` and `gid_map`.
pub(super) struct IdMap {
    pub(super) uid: CString,
    pub(super) gid: CString,
}

impl IdMap {
    fn same(uid: u32, gid: u32) -> IdMap {
        let line = |id: u32| CString::new(format!("{id} {id} 1\n")).unwrap_or_default();
        IdMap {
            uid: line(uid),
            gid: line(gid),
        }
    }
}

/// Limits each process of the code gets (on top of the run's cgroup, where there is one).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct PerProcess {
    pub(super) address_space: Option<u64>,
    pub(super) data: Option<u64>,
    /// `RLIMIT_NPROC` where no cgroup counts the run's tasks: in a user namespace of the
    /// run's own, and else (the limit then counts every task of the user id) the user's
    /// tasks now plus the run's.
    pub(super) processes: Option<(u64, u64)>,
}

/// Everything the child's set-up reads.
pub(super) struct Plan {
    pub(super) channel: RawFd,
    /// The write end of the status pipe (closed at exec).
    pub(super) status: Option<OwnedFd>,
    /// Started as root: the code is moved to `nobody`.
    pub(super) root: bool,
    pub(super) user_map: IdMap,
    pub(super) nobody_map: IdMap,
    pub(super) sockets: Vec<CString>,
    /// `cgroup.procs` of the run's cgroup(s), open for writing.
    pub(super) cgroup_procs: Vec<OwnedFd>,
    pub(super) landlock: Option<OwnedFd>,
    pub(super) limits: PerProcess,
}

impl Plan {
    /// The plan's own descriptors are moved above the channel's number first: the child
    /// puts the channel on [`CHANNEL_FD`] before it writes to them, which would silently
    /// replace one that had that number (a descriptor another thread closed a moment before
    /// is the lowest free one, so this happens under load).
    pub(super) fn new(
        channel: RawFd,
        status: OwnedFd,
        workdir: &Path,
        cgroup_procs: Vec<OwnedFd>,
        limits: PerProcess,
    ) -> io::Result<Plan> {
        let uid = rustix::process::getuid().as_raw();
        let gid = rustix::process::getgid().as_raw();
        let landlock = landlock_ruleset(workdir).map(above_channel).transpose()?;
        Ok(Plan {
            channel,
            status: Some(above_channel(status)?),
            root: rustix::process::geteuid().is_root(),
            user_map: IdMap::same(uid, gid),
            nobody_map: IdMap::same(NOBODY, NOBODY),
            sockets: sockets(),
            cgroup_procs: cgroup_procs
                .into_iter()
                .map(above_channel)
                .collect::<io::Result<_>>()?,
            landlock,
            limits,
        })
    }
}

/// `fd`, or a close-on-exec copy of it numbered above [`CHANNEL_FD`] when it is not.
pub(super) fn above_channel(fd: OwnedFd) -> io::Result<OwnedFd> {
    above(fd, CHANNEL_FD)
}

/// `fd` when its number is above `floor`, else a close-on-exec copy that is (the original
/// closes).
fn above(fd: OwnedFd, floor: RawFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > floor {
        return Ok(fd);
    }
    Ok(rustix::io::fcntl_dupfd_cloexec(&fd, floor + 1)?)
}

/// The Landlock ABI of the running kernel (0 when it has none).
#[allow(unsafe_code)]
pub(crate) fn landlock_abi() -> i64 {
    // SAFETY: the documented version query: no pointer, no size, one flag.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    v.max(0)
}

/// Writes only inside the working directory (and to `/dev/null`), no TCP bind or connect,
/// no abstract Unix socket or signal outside the sandbox, and, on kernels that have the
/// right, no connecting to a Unix socket outside the working directory. Each part where
/// the kernel has it; `None` without Landlock.
fn landlock_ruleset(workdir: &Path) -> Option<OwnedFd> {
    use landlock::{
        ABI, AccessFs, AccessNet, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreatedAttr,
        Scope,
    };
    if landlock_abi() == 0 {
        return None;
    }
    let write = AccessFs::from_write(ABI::V10);
    let created = Ruleset::default()
        .handle_access(write)
        .ok()?
        .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
        .ok()?
        .scope(Scope::AbstractUnixSocket | Scope::Signal)
        .ok()?
        .create()
        .ok()?
        .add_rule(PathBeneath::new(PathFd::new(workdir).ok()?, write))
        .ok()?
        .add_rule(PathBeneath::new(
            PathFd::new("/dev/null").ok()?,
            AccessFs::WriteFile,
        ))
        .ok()?;
    created.into()
}

/// Whether this kernel's Landlock also stops connecting to Unix sockets by path.
pub(crate) fn landlock_hides_sockets() -> bool {
    landlock_abi() >= 9
}

/// Every Unix socket with a path that this machine shows: those bound in this network
/// namespace (`/proc/net/unix`), and those found below the places sockets live (runtime and
/// temporary directories, the home directory), a few levels deep. Reused for a few seconds.
fn sockets() -> Vec<CString> {
    static CACHE: Mutex<Option<(Instant, Vec<CString>)>> = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((at, list)) = cache.as_ref()
        && at.elapsed() < SCAN_REUSE
    {
        return list.clone();
    }
    let list: Vec<CString> = find_sockets()
        .into_iter()
        .filter_map(|p| CString::new(p.as_os_str().as_bytes()).ok())
        .collect();
    *cache = Some((Instant::now(), list.clone()));
    list
}

pub(super) fn find_sockets() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_to_string("/proc/net/unix")
        .unwrap_or_default()
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().nth(7))
        .filter(|p| p.starts_with('/'))
        .map(PathBuf::from)
        .collect();
    let mut roots: Vec<PathBuf> = ["/run", "/var/run", "/tmp", "/var/tmp", "/dev"]
        .iter()
        .map(PathBuf::from)
        .collect();
    for var in ["XDG_RUNTIME_DIR", "HOME", "TMPDIR", "TMUX_TMPDIR"] {
        if let Some(dir) = std::env::var_os(var).filter(|d| !d.is_empty()) {
            roots.push(PathBuf::from(dir));
        }
    }
    let mut budget = SCAN_BUDGET;
    for root in roots {
        scan(&root, SCAN_DEPTH, &mut budget, &mut found);
    }
    found.sort();
    found.dedup();
    found.truncate(MAX_SOCKETS);
    found
}

fn scan(dir: &Path, depth: usize, budget: &mut usize, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_socket() {
            found.push(entry.path());
        } else if kind.is_dir() && depth > 0 {
            scan(&entry.path(), depth - 1, budget, found);
        }
    }
}

/// Tasks (threads) of user `uid` running now, for an `RLIMIT_NPROC` that leaves the user's
/// other programs their share.
pub(super) fn tasks_of(uid: u32) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut count = 0;
    for entry in entries.flatten() {
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|n| n.parse::<u64>().ok())
        };
        if field("Uid:") == Some(u64::from(uid)) {
            count += field("Threads:").unwrap_or(1);
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn null() -> OwnedFd {
        std::fs::File::open("/dev/null").unwrap().into()
    }

    #[test]
    fn a_descriptor_at_or_below_the_floor_is_moved_above_it_and_one_above_is_kept() {
        let low = null();
        let number = low.as_raw_fd();
        let moved = above(low, number).unwrap();
        assert!(moved.as_raw_fd() > number);
        let flags = rustix::io::fcntl_getfd(&moved).unwrap();
        assert!(flags.contains(rustix::io::FdFlags::CLOEXEC));
        let high = null();
        let kept = high.as_raw_fd();
        assert_eq!(above(high, kept - 1).unwrap().as_raw_fd(), kept);
        assert!(above_channel(null()).unwrap().as_raw_fd() > CHANNEL_FD);
    }
}
