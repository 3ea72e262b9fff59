//! What held for one sandboxed run: the child's own report of each step (written before
//! exec, so before any of the learner's code ran) checked against what the grader sees of
//! the child's namespaces. The report never claims what did not hold.

use super::Network;

/// The bits the child's set-up writes on the status pipe.
pub(crate) mod held {
    pub(crate) const NET: u32 = 1;
    pub(crate) const PIDS: u32 = 1 << 1;
    pub(crate) const MOUNT: u32 = 1 << 2;
    pub(crate) const USER: u32 = 1 << 3;
    /// A fresh `/proc` of the new process-id namespace.
    pub(crate) const PROC: u32 = 1 << 4;
    /// An empty `/dev/pts`.
    pub(crate) const TERMINALS: u32 = 1 << 5;
    /// Every socket found is covered.
    pub(crate) const SOCKETS: u32 = 1 << 6;
    /// The effective, permitted, inheritable and ambient sets are empty, and no capability
    /// can be gained (the bounding set is empty, or no_new_privs is set).
    pub(crate) const CAPS: u32 = 1 << 7;
    /// Neither the real nor the effective user id is root.
    pub(crate) const NOT_ROOT: u32 = 1 << 8;
    pub(crate) const LANDLOCK: u32 = 1 << 9;
    pub(crate) const CGROUP: u32 = 1 << 10;
}

/// How the run's memory and processes were capped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub(crate) struct RunCap {
    /// `cgroup`: one cap for all the run's processes together; `per_process`: each process
    /// has the memory cap, and `tasks` counts the user's tasks.
    pub(crate) kind: CapKind,
    pub(crate) memory_bytes: u64,
    pub(crate) tasks: u64,
    /// Each process's own memory cap (bytes), in either kind.
    pub(crate) process_memory_bytes: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum CapKind {
    Cgroup,
    PerProcess,
    /// Nothing could be capped (not Linux).
    None,
}

/// What held, machine by machine. Serialized flat into the practice report.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Isolation {
    pub(crate) network: Network,
    /// An empty network namespace of its own.
    pub(crate) net_isolated: bool,
    /// A process-id namespace of its own: every process it starts dies with it.
    pub(crate) pids_isolated: bool,
    /// A mount namespace of its own with a private `/proc` (no other process's environment
    /// or descriptors), no terminal of the user's, and every Unix socket found hidden.
    pub(crate) fs_isolated: bool,
    /// No capability in any set and none to be had, and (started as root) not root.
    pub(crate) caps_dropped: bool,
    /// The user id the code ran as, when it started.
    pub(crate) uid: Option<u32>,
    /// Landlock held: writes only in the working directory, no TCP, no signals outside.
    pub(crate) landlock: bool,
    pub(crate) limits: RunCap,
}

impl Isolation {
    /// Nothing held (the code never started, or this is not Linux).
    pub(crate) fn none() -> Isolation {
        Isolation {
            network: if cfg!(target_os = "linux") {
                Network::Shared
            } else {
                Network::Unsupported
            },
            net_isolated: false,
            pids_isolated: false,
            fs_isolated: false,
            caps_dropped: false,
            uid: None,
            landlock: false,
            limits: RunCap {
                kind: CapKind::None,
                memory_bytes: 0,
                tasks: 0,
                process_memory_bytes: 0,
            },
        }
    }

    /// From the child's bits and what the grader saw of its namespaces (`None` where the
    /// grader may not look: the child is undumpable in a user namespace of its own).
    pub(crate) fn from_bits(
        bits: u32,
        uid: Option<u32>,
        net_seen: Option<bool>,
        pids_seen: Option<bool>,
        started_as_root: bool,
        limits: RunCap,
        sockets_by_landlock: bool,
    ) -> Isolation {
        let has = |b: u32| bits & b == b;
        let net_isolated = net_seen != Some(false) && has(held::NET);
        let pids_isolated = pids_seen != Some(false) && has(held::PIDS);
        let landlock = has(held::LANDLOCK);
        let sockets = has(held::SOCKETS) || (landlock && sockets_by_landlock);
        let fs_isolated =
            pids_isolated && has(held::MOUNT | held::PROC | held::TERMINALS) && sockets;
        let caps_dropped = has(held::CAPS) && (!started_as_root || has(held::NOT_ROOT));
        Isolation {
            network: if net_isolated {
                Network::Isolated
            } else {
                Network::Shared
            },
            net_isolated,
            pids_isolated,
            fs_isolated,
            caps_dropped,
            uid,
            landlock,
            limits,
        }
    }

    /// What the learner should know about how their code was contained, one line each.
    pub(crate) fn notices(&self) -> Vec<String> {
        let mut notes: Vec<String> = self
            .network
            .notice()
            .into_iter()
            .map(str::to_owned)
            .collect();
        if !cfg!(target_os = "linux") {
            return notes;
        }
        if !self.pids_isolated {
            notes.push("note: this system refused a process-id namespace, so a process your code starts in a new session can outlive the run".to_owned());
        }
        if !self.fs_isolated {
            notes.push("note: this system refused a private mount namespace, so your code could see your other processes in /proc and reach Unix sockets on the file system".to_owned());
        }
        if !self.caps_dropped {
            notes.push("note: not every capability of your code could be dropped".to_owned());
        }
        if self.limits.kind == CapKind::PerProcess {
            notes.push(format!(
                "note: no cgroup could be made here, so memory is capped per process ({} MiB each) and tasks at {} for your user id",
                self.limits.memory_bytes >> 20,
                self.limits.tasks
            ));
        }
        notes
    }
}
