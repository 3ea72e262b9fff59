#!/usr/bin/env python3
"""Run every measurement behind the README's speed table and print the table's rows.

    python3 benches/speed_table.py [--runs 3] [--only validate,orchestrator,render,micro,content,idle]

Release builds throughout (they take a while on a small machine). Each figure is a range
over --runs repetitions (or criterion's estimate); the first line names the machine's core
count and its load average before and after, because on a shared machine every wall-clock
figure moves with the load while CPU time moves much less.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTIONS = ["validate", "orchestrator", "render", "micro", "content", "idle"]


def sh(cmd, **kw):
    """Run a command in the repository, returning stdout and stderr together."""
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{r.stdout}\n{r.stderr}")
    return r.stdout + r.stderr


def span(values, fmt="{:.1f}"):
    lo, hi = min(values), max(values)
    return fmt.format(lo) if fmt.format(lo) == fmt.format(hi) else f"{fmt.format(lo)}-{fmt.format(hi)}"


def validate_row(runs):
    r = json.loads(sh([sys.executable, "benches/compare.py", "--json", "--runs", str(max(runs, 3))]))
    by = {row["name"]: row for row in r["rows"]}
    ours = r["rows"][0]
    parts = [f"tooldojo {ours['cpu_ms'][0]} ms CPU, {ours['wall_ms'][0]} ms wall"]
    for row in r["rows"][1:]:
        parts.append(f"{row['name']} {row['cpu_ms'][0]} ms CPU ({row['cpu_ratio']}x), "
                     f"{row['wall_ms'][0]} ms wall ({row['wall_ratio']}x)")
    agree = ", ".join(f"{n}: {d}" for n, d in r["agreement"].items())
    what = (f"`tooldojo validate --jsonl`, {r['cases']:,} weather-tool cases ({r['mb']} MB, "
            f"{100 * r['invalid'] // r['cases']}% invalid), whole process, best of {r['runs']}, "
            f"load {r['load'][0]}-{r['load'][1]} (`python3 benches/compare.py`)")
    measured = "; ".join(parts) + f". Lines whose verdict differs from tooldojo's: {agree}"
    assert by, "no rows"
    return [(what, measured, "25x Python and pydantic, 5x jsonschema-rs (CPU and wall)")]


def orchestrator_row(runs):
    wall, cpu, fwall, fcpu = [], [], [], []
    for _ in range(runs):
        out = sh(["cargo", "test", "--release", "--quiet", "--test", "core", "orchestrator_speed", "--",
                  "--ignored", "--nocapture"])
        m = re.search(r"calls x \d+ runs: wall ([\d.]+) us/call, cpu ([\d.]+) us/call", out)
        f = re.search(r"floor: wall ([\d.]+) us/call, cpu ([\d.]+) us/call", out)
        if not m:
            sys.exit(f"orchestrator_speed printed no figure:\n{out}")
        wall.append(float(m[1]))
        cpu.append(float(m[2]))
        if f:
            fwall.append(float(f[1]))
            fcpu.append(float(f[2]))
    measured = f"{span(wall)} µs wall, {span(cpu)} µs CPU per call ({runs} runs of 10)"
    if fwall:
        measured += (f"; the floor (a tokio task, a timeout and a semaphore permit per call, nothing"
                     f" else) {span(fwall)} µs wall, {span(fcpu)} µs CPU")
    what = ("orchestrator overhead, generated scenario of 10,000 calls at concurrency 64 "
            "(`cargo test --release --test core orchestrator_speed -- --ignored --nocapture`)")
    return [(what, measured, "under 10 µs")]


def criterion_times(out):
    """name -> middle estimate in ms, from criterion's `time: [lo mid hi]` lines."""
    units = {"ps": 1e-9, "ns": 1e-6, "µs": 1e-3, "us": 1e-3, "ms": 1.0, "s": 1e3}
    found = {}
    name = None
    for line in out.splitlines():
        m = re.match(r"^(\S.*?)\s+time:\s+\[\S+ \S+ ([\d.]+) (\S+) ", line)
        if m:
            found[m[1]] = float(m[2]) * units[m[3]]
            continue
        m = re.match(r"^\s+time:\s+\[\S+ \S+ ([\d.]+) (\S+) ", line)
        if m and name:
            found[name] = float(m[1]) * units[m[2]]
            continue
        if line and not line.startswith(" ") and "time:" not in line:
            name = line.strip()
    return found


def render_row(runs):
    out = sh(["cargo", "bench", "--quiet", "--bench", "render"])
    t = {k.split("/", 1)[1]: v for k, v in criterion_times(out).items() if k.startswith("frame_200x60/")}
    if not t:
        sys.exit(f"the render bench printed no figure:\n{out}")

    def group(prefix):
        v = [ms for n, ms in t.items() if n.startswith(prefix)]
        return span(v, "{:.2f}") + " ms" if v else "none"

    worst = max(t, key=t.get)
    measured = (f"lesson pages {group('lesson:')}, traces {group('trace:')}, playgrounds "
                f"{group('playground:')}, `predict:get_ticket` {group('predict:get_ticket')}, "
                f"`predict:validator` {group('predict:validator')}, home/help {group('h')}; "
                f"worst `{worst}` **{t[worst]:.2f} ms**")
    return [("one frame at 200x60, every `render --list` screen (`cargo bench --bench render`)",
             measured, "under 1 ms")]


def micro_row(runs):
    t = criterion_times(sh(["cargo", "bench", "--quiet", "--bench", "validate", "--bench", "executor"]))
    val = [v for k, v in t.items() if k.startswith("validate")]
    exe = [v for k, v in t.items() if k.startswith("execute")]
    fmt = "{:.2f}"
    measured = f"{span([v * 1e3 for v in val], fmt)} µs / {span([v * 1e3 for v in exe], fmt)} µs"
    return [("one validation / one `get_ticket` call (`cargo bench --bench validate --bench executor`)",
             measured, "")]


def content_row(runs):
    parse, lint, keys = [], [], []
    for _ in range(runs):
        out = sh(["cargo", "test", "--release", "--quiet", "--test", "core", "lessons::", "--", "--ignored",
                  "--nocapture"])
        m = re.search(r"parse \d+ lessons: ([\d.]+)(\w+); lint \(\d+ rows\): ([\d.]+)(\w+)", out)
        if m:
            scale = {"ms": 1.0, "µs": 1e-3, "us": 1e-3, "s": 1e3, "ns": 1e-6}
            parse.append(float(m[1]) * scale[m[2]])
            lint.append(float(m[3]) * scale[m[4]])
        out = sh(["cargo", "test", "--release", "--quiet", "--test", "tui", "blocks_measure", "--", "--ignored",
                  "--nocapture"])
        keys.extend(float(k) for k in re.findall(r"re-run key\s+([\d.]+) ms", out))
    rows = []
    if parse:
        rows.append(("parsing all lessons / the lesson lint "
                     "(`cargo test --release --test core lessons:: -- --ignored --nocapture`)",
                     f"{span(parse, '{:.1f}')} ms / {span(lint, '{:.1f}')} ms", ""))
    if keys:
        rows.append(("a key that re-runs a block's real code: reveal all, a rule switch, a trace step "
                     "(`cargo test --release --test tui blocks_measure -- --ignored --nocapture`)",
                     f"{span(keys, '{:.2f}')} ms", ""))
    return rows


def idle_row(runs):
    """CPU the app uses while nobody touches it, from /proc, running in a tmux pane."""
    if not shutil.which("tmux"):
        return [("idle app", "not measured (tmux is not installed)", "none measurable")]
    exe = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "tooldojo")
    sh(["cargo", "build", "--release", "--quiet", "--bin", "tooldojo"])
    session = f"speed-idle-{os.getpid()}"
    state = os.path.join(ROOT, "target", "speed-idle-state")
    os.makedirs(state, exist_ok=True)
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40",
                    f"TOOLDOJO_STATE_DIR={state} {exe}"], check=True)
    try:
        time.sleep(2)
        pid = subprocess.run(["tmux", "list-panes", "-t", session, "-F", "#{pane_pid}"],
                             capture_output=True, text=True, check=True).stdout.split()[0]

        def ticks():
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])

        before, t0 = ticks(), time.time()
        time.sleep(10)
        used = (ticks() - before) / os.sysconf("SC_CLK_TCK")
        secs = time.time() - t0
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)
    return [("idle app (10 s in a tmux pane, CPU time from /proc)",
             f"{used * 1000:.0f} ms of CPU in {secs:.0f} s", "none measurable")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default=",".join(SECTIONS))
    a = ap.parse_args()
    wanted = [s.strip() for s in a.only.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in SECTIONS]
    if unknown:
        sys.exit(f"unknown section(s) {unknown}; sections: {', '.join(SECTIONS)}")
    load0 = os.getloadavg()[0]
    rows = []
    for s in wanted:
        rows.extend(globals()[f"{s}_row"](a.runs))
    load1 = os.getloadavg()[0]
    print(f"{os.cpu_count()} cores, load average {load0:.1f} before, {load1:.1f} after, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print()
    print("| what | measured | aim |")
    print("| --- | --- | --- |")
    for what, measured, aim in rows:
        print(f"| {what} | {measured} | {aim} |")


if __name__ == "__main__":
    main()
