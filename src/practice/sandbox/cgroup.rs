//! A cgroup for one sandboxed run, where this process may make one: a child of the cgroup
//! the grader itself is in, holding the whole run's memory (swap included) and task count
//! under one cap, so forks share it. cgroup v2 where its memory and pids controllers are
//! available below us, else the v1 `memory` and `pids` hierarchies. Removed when dropped.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The counters that say a cap was reached.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Counters {
    /// Processes the kernel killed for going over the memory cap.
    pub(crate) oom_kills: u64,
    /// Forks refused because the task cap was reached.
    pub(crate) forks_refused: u64,
}

pub(super) struct Cgroup {
    /// Directories made, for counters and removal.
    memory: PathBuf,
    pids: PathBuf,
    v2: bool,
    made: Vec<PathBuf>,
}

impl Cgroup {
    /// Make the run's cgroup with these caps, or `None` where the system does not let us.
    pub(super) fn new(memory_bytes: u64, tasks: u64) -> Option<Cgroup> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            "tooldojo-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
        let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        Cgroup::v2(&mounts, &groups, &name, memory_bytes, tasks)
            .or_else(|| Cgroup::v1(&mounts, &groups, &name, memory_bytes, tasks))
    }

    fn v2(mounts: &str, groups: &str, name: &str, bytes: u64, tasks: u64) -> Option<Cgroup> {
        let here = groups.lines().find_map(|l| l.strip_prefix("0::"))?;
        let base = hierarchy(mounts, "cgroup2", None, here)?;
        let controllers = std::fs::read_to_string(base.join("cgroup.subtree_control")).ok()?;
        let has = |c: &str| controllers.split_whitespace().any(|w| w == c);
        if !(has("memory") && has("pids")) {
            return None;
        }
        let dir = base.join(name);
        std::fs::create_dir(&dir).ok()?;
        let group = Cgroup {
            memory: dir.clone(),
            pids: dir.clone(),
            v2: true,
            made: vec![dir.clone()],
        };
        let ok = write(&dir, "memory.max", bytes)
            && (!dir.join("memory.swap.max").exists() || write(&dir, "memory.swap.max", 0))
            && write(&dir, "pids.max", tasks);
        ok.then_some(group)
    }

    fn v1(mounts: &str, groups: &str, name: &str, bytes: u64, tasks: u64) -> Option<Cgroup> {
        let path_of = |controller: &str| {
            groups.lines().find_map(|l| {
                let mut parts = l.splitn(3, ':');
                let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
                names.split(',').any(|n| n == controller).then_some(path)
            })
        };
        let memory = hierarchy(mounts, "cgroup", Some("memory"), path_of("memory")?)?;
        let pids = hierarchy(mounts, "cgroup", Some("pids"), path_of("pids")?)?;
        let mut group = Cgroup {
            memory: memory.join(name),
            pids: pids.join(name),
            v2: false,
            made: Vec::new(),
        };
        for dir in [group.memory.clone(), group.pids.clone()] {
            std::fs::create_dir(&dir).ok()?;
            group.made.push(dir);
        }
        let ok = write(&group.memory, "memory.limit_in_bytes", bytes)
            && (!group.memory.join("memory.memsw.limit_in_bytes").exists()
                || write(&group.memory, "memory.memsw.limit_in_bytes", bytes))
            && write(&group.pids, "pids.max", tasks);
        ok.then_some(group)
    }

    /// `cgroup.procs` of each directory, open for the child to write itself into.
    pub(super) fn procs(&self) -> Vec<OwnedFd> {
        self.made
            .iter()
            .filter_map(|d| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(d.join("cgroup.procs"))
                    .ok()
            })
            .map(OwnedFd::from)
            .collect()
    }

    pub(super) fn counters(&self) -> Counters {
        let read = |dir: &Path, file: &str, key: &str| {
            std::fs::read_to_string(dir.join(file))
                .ok()
                .and_then(|t| {
                    t.lines().find_map(|l| {
                        let (k, v) = l.split_once(' ')?;
                        (k == key).then(|| v.trim().parse::<u64>().ok())?
                    })
                })
                .unwrap_or(0)
        };
        let oom_file = if self.v2 {
            "memory.events"
        } else {
            "memory.oom_control"
        };
        Counters {
            oom_kills: read(&self.memory, oom_file, "oom_kill"),
            forks_refused: read(&self.pids, "pids.events", "max"),
        }
    }

    /// The most memory the run used (bytes), where the kernel keeps that figure.
    pub(super) fn peak(&self) -> Option<u64> {
        let file = if self.v2 {
            "memory.peak"
        } else {
            "memory.max_usage_in_bytes"
        };
        std::fs::read_to_string(self.memory.join(file))
            .ok()?
            .trim()
            .parse()
            .ok()
    }
}

impl Drop for Cgroup {
    /// Remove the directories once their processes are gone (the sandbox has killed them;
    /// the kernel may take a moment to let go).
    fn drop(&mut self) {
        let until = Instant::now() + Duration::from_secs(2);
        let dirs = std::mem::take(&mut self.made);
        let mut left: Vec<PathBuf> = dirs;
        while !left.is_empty() {
            left.retain(|d| std::fs::remove_dir(d).is_err() && d.exists());
            if left.is_empty() || Instant::now() > until {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

fn write(dir: &Path, file: &str, value: u64) -> bool {
    std::fs::write(dir.join(file), value.to_string()).is_ok()
}

/// The directory of cgroup `path` in the hierarchy mounted with file system `fstype` (and,
/// for v1, super option `controller`), from `/proc/self/mountinfo`.
fn hierarchy(mounts: &str, fstype: &str, controller: Option<&str>, path: &str) -> Option<PathBuf> {
    mounts.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let mut right = right.split_whitespace();
        let (fs, _source, options) = (right.next()?, right.next()?, right.next()?);
        if fs != fstype {
            return None;
        }
        if let Some(c) = controller
            && !options.split(',').any(|o| o == c)
        {
            return None;
        }
        let mut left = left.split_whitespace();
        let root = left.nth(3)?;
        let point = left.next()?;
        let rel = path.strip_prefix(root).unwrap_or(path);
        let dir = Path::new(point).join(rel.trim_start_matches('/'));
        dir.is_dir().then_some(dir)
    })
}
