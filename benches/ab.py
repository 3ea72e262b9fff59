#!/usr/bin/env python3
"""Two or more builds of tooldojo on one input, side by side: same verdicts, then speed.

    python3 benches/ab.py [--runs 21] [--callgrind] FILE NAME=BINARY [NAME=BINARY ...]
                          [-- ARGS...]

Each BINARY runs `validate --jsonl FILE` (or ARGS after `--`, with FILE put where `{}` is).
First, once each, every output must be byte for byte the first one's: a change made for
speed must not change a verdict, and any difference exits 1 before anything is timed.

Then the runs, interleaved: each round runs every build once, each round starting one build
later, so a burst of load on the shared machine, or the state the previous process left the
memory in, falls on all of them alike. Each run is a whole process, measured by its CPU time
(user + system). On a shared machine one run of ~100 ms swings by half or more (other
tenants, the kernel zeroing pages, the page cache), so both the best and the median are
shown, each with its ratio to the first build: a change is real when both move.

--callgrind also counts each build's instructions once under valgrind's callgrind: slow, but
the same count however loaded the machine is, so it shows a change of a percent or two that
the timings cannot. It does not see memory stalls: a change can cut instructions and leave
the time as it was.

Example, a branch against main, both release builds:

    cp target/release/tooldojo /tmp/main-tooldojo     # on main
    cargo build --release                              # on the branch
    python3 benches/ab.py target/bench-data/realcalls-100000-7-*.jsonl \\
        main=/tmp/main-tooldojo branch=target/release/tooldojo
"""
import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile


def command(binary, args, path):
    return [binary, *[path if a == "{}" else a for a in args]]


def digest(cmd):
    """The md5 of what `cmd` writes to stdout (its exit status must be 0)."""
    h = hashlib.md5()
    with subprocess.Popen(cmd, stdout=subprocess.PIPE) as p:
        for chunk in iter(lambda: p.stdout.read(1 << 20), b""):
            h.update(chunk)
    if p.returncode != 0:
        sys.exit(f"ab: {' '.join(cmd)} exited {p.returncode}")
    return h.hexdigest()


def cpu_ms(cmd):
    """CPU time (user + system) in ms of one whole run of `cmd`, its output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1e3 * ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


def instructions(cmd):
    """Instructions of one run of `cmd`, counted by callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    for line in run.stderr.splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip())
    sys.exit(f"ab: no instruction count from callgrind for {' '.join(cmd)}")


def main():
    argv = sys.argv[1:]
    rest = []
    if "--" in argv:
        at = argv.index("--")
        argv, rest = argv[:at], argv[at + 1:]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21, help="timed runs of each build (21)")
    ap.add_argument("--callgrind", action="store_true", help="also count instructions once each")
    ap.add_argument("file", help="the input (a JSON-lines file for validate --jsonl)")
    ap.add_argument("builds", nargs="+", metavar="NAME=BINARY")
    a = ap.parse_args(argv)
    args = rest or ["validate", "--jsonl", "{}"]
    builds = []
    for b in a.builds:
        name, sep, binary = b.partition("=")
        if not sep or not os.access(binary, os.X_OK):
            sys.exit(f"ab: {b}: want NAME=BINARY, an executable")
        builds.append((name, command(binary, args, a.file)))

    digests = [(name, digest(cmd)) for name, cmd in builds]
    differ = [name for name, d in digests if d != digests[0][1]]
    if differ:
        sys.exit(f"ab: output differs from {digests[0][0]}'s: {', '.join(differ)}")
    print(f"same output from every build (md5 {digests[0][1]})")

    times = {name: [] for name, _ in builds}
    for r in range(a.runs):
        turn = r % len(builds)
        for name, cmd in builds[turn:] + builds[:turn]:
            times[name].append(cpu_ms(cmd))
    first = builds[0][0]
    best0, med0 = min(times[first]), statistics.median(times[first])
    print(f"CPU time (user + system), {a.runs} interleaved runs each:")
    for name, _ in builds:
        best, med = min(times[name]), statistics.median(times[name])
        print(f"  {name:<12} best {best:8.1f} ms ({best / best0:.2f}x)  "
              f"median {med:8.1f} ms ({med / med0:.2f}x)  worst {max(times[name]):8.1f} ms")
    if a.callgrind:
        counts = [(name, instructions(cmd)) for name, cmd in builds]
        print("instructions (callgrind):")
        for name, n in counts:
            print(f"  {name:<12} {n:>15,} ({n / counts[0][1]:.3f}x)")


if __name__ == "__main__":
    main()
