#!/usr/bin/env python3
"""Run every measurement behind the README's speed table; print the table or write it.

    python3 benches/speed_table.py [--write] [--only SECTIONS] [--runs N] [--quick]

Sections, each one or more rows of the table (all of them unless --only names some):

  validate      benches/compare.py --only flat: `validate --jsonl` on the flat weather cases,
                against jsonschema-rs, plain Python and pydantic
  real          benches/compare.py --only real: `validate --jsonl` on the real-call file (real
                declarations in their own shapes), against jsonschema-rs and Python jsonschema
  audit         benches/compare.py --only audit: `tooldojo audit --json` on a generated agent log
                (MB/s, peak memory on a quarter and on the whole), and on the same calls as a
                call log against `validate --jsonl` on them
  compile       compiling all 4,242 real declarations: `cargo bench --bench compile` against
                `jsonschema-peer --compile-all` (jsonschema-rs)
  orchestrator  the orchestrator_speed ignored test (overhead per call, and its floor)
  render        `cargo bench --bench render`: one frame of every `render --list` screen, 200x60
  player        `cargo bench --bench player`: the player's frames and the time to open a run
  micro         `cargo bench --bench validate --bench executor`
  content       the lessons:: and blocks_measure ignored tests
  idle          CPU of the release app left alone in a tmux pane (home, and a paused player)

Release builds throughout. Whole processes are measured by their CPU time (user + system;
on a shared machine wall time is mostly waiting for a core), the best of --runs runs
deciding the aim; criterion's benches by its estimate. --quick shortens criterion's times
and makes one run of everything else, to refresh a row while working on it.

With --write the table replaces the text between `<!-- speed-table:begin -->` and
`<!-- speed-table:end -->` in README.md. Rows of sections not measured this time stay as
they were, and so do the lines saying when they were measured: each line above the table
names its sections, the date, the commit, the core count and the load average before and
after.
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
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
README = os.path.join(ROOT, "README.md")
BEGIN, END = "<!-- speed-table:begin -->", "<!-- speed-table:end -->"
SECTIONS = ["validate", "real", "audit", "compile", "orchestrator", "render", "player", "tools", "micro", "content", "idle"]
HEADER = ["| `--only` | what, and the command that reruns it | measured | aim |",
          "| --- | --- | --- | --- |"]
UNITS_MS = {"ps": 1e-9, "ns": 1e-6, "µs": 1e-3, "us": 1e-3, "ms": 1.0, "s": 1e3}


class Row:
    """One line of the table: its section, what was measured (with the command), the figures, the aim."""

    def __init__(self, section, what, measured, aim):
        self.section, self.what, self.measured, self.aim = section, what, measured, aim

    def line(self):
        cells = [f"`{self.section}`", self.what, self.measured, self.aim]
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def verdict(aim, met, detail=""):
    """`under 1 ms: met`, or `...: not met (detail)`."""
    return f"{aim}: met" if met else f"{aim}: not met" + (f" ({detail})" if detail else "")


def run(cmd, ok=(0,)):
    """Run a command in the repository; stdout and stderr, or exit naming the command."""
    print(f"  $ {' '.join(cmd)}", file=sys.stderr, flush=True)
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if r.returncode not in ok:
        sys.exit(f"{' '.join(cmd)} exited {r.returncode}:\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}")
    return r.stdout, r.stderr


def span(values, fmt="{:.1f}"):
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return lo if lo == hi else f"{lo}-{hi}"


def ms(value):
    """A duration in ms, to three significant figures, in the unit that reads best."""
    if value >= 1000:
        return f"{value / 1000:.3g} s"
    if value < 0.1:
        return f"{value * 1000:.3g} µs"
    return f"{value:.3g} ms"


# ---------------------------------------------------------------- criterion

def criterion_estimates(stdout):
    """Benchmark id -> criterion's middle estimate in ms, from its `time: [lo mid hi]` lines.

    The id is printed either on the same line as `time:` or, when it is long, alone on the
    line before; `Found N outliers`, `change:` and the like are skipped."""
    time_re = re.compile(r"time:\s+\[\s*[\d.]+ \S+ ([\d.]+) (\S+) [\d.]+ \S+\s*\]")
    found, pending = {}, None
    for line in stdout.splitlines():
        m = time_re.search(line)
        if m:
            name = line[:m.start()].strip() or pending
            if name:
                found[name] = float(m[1]) * UNITS_MS[m[2]]
            pending = None
        elif line and not line[0].isspace() and not re.match(r"(Found \d+ outlier|Warning|Benchmarking)", line):
            pending = line.strip()
    return found


def bench_args(benches, quick):
    """`cargo bench --bench A ... -- TIMES`: criterion's times short with --quick."""
    times = ["--warm-up-time", "0.3", "--measurement-time", "0.5"] if quick else \
        ["--warm-up-time", "1", "--measurement-time", "3"]
    return ["cargo", "bench", *(f for b in benches for f in ("--bench", b)), "--", *times]


def bench_command(benches, quick):
    return f"`{' '.join(bench_args(benches, quick))}`"


def criterion(benches, quick):
    """Run `cargo bench` on the named benches; id -> estimate in ms."""
    cmd = bench_args(benches, quick)
    cmd.insert(2, "--quiet")
    out, err = run(cmd)
    found = criterion_estimates(out)
    if not found:
        sys.exit(f"{' '.join(cmd)} printed no criterion estimate:\n{out[-3000:]}\n{err[-3000:]}")
    return found


def group(found, prefix, names):
    """The estimates of `prefix/NAME` for each of names; exits naming what is missing."""
    missing = [n for n in names if f"{prefix}/{n}" not in found]
    if missing:
        sys.exit(f"criterion printed no estimate for {prefix}/{missing}; it printed: {sorted(found)}")
    return {n: found[f"{prefix}/{n}"] for n in names}


# ---------------------------------------------------------------- sections

def runs_text(n, of=""):
    return f"{n} run{'s' if n != 1 else ''}" + (f" of {of}" if of else "")


def compare_report(a, row):
    """compare.py's JSON report of one row (`flat` or `real`)."""
    out, _ = run([sys.executable, "benches/compare.py", "--only", row, "--json", "--runs", str(a.runs)], ok=(0, 1))
    for line in reversed(out.strip().splitlines()):
        if line.startswith("{"):
            r = json.loads(line)
            if r.get("row", "flat") == row:
                return r
    sys.exit(f"benches/compare.py --only {row} printed no report:\n{out[-3000:]}")


def validate_rows(a):
    r = compare_report(a, "flat")
    rows = r["rows"]
    goals = {"python": 25, "rust": 5}
    label = lambda row: row["name"].replace(", ", " ")  # noqa: E731
    ours = rows[0]
    parts = [f"tooldojo {span(ours['cpu_ms'], '{:.0f}')} ms CPU, {span(ours['wall_ms'], '{:.0f}')} ms wall"]
    for row in rows[1:]:
        ratio = f"**{row['cpu_ratio']}x**" if row["kind"] in goals else f"{row['cpu_ratio']}x"
        parts.append(f"{label(row)} {span(row['cpu_ms'], '{:.0f}')} ms CPU ({ratio}), "
                     f"{span(row['wall_ms'], '{:.0f}')} ms wall ({row['wall_ratio']}x)")
    agree = "; ".join(f"{n.replace(', ', ' ')} {d:,}" for n, d in r["agreement"].items())
    measured = "; ".join(parts) + f". Lines whose verdict differs from tooldojo's: {agree}"
    short = [f"{label(row)} {row['cpu_ratio']}x" for row in rows
             if row["kind"] in goals and row["cpu_ratio"] < goals[row["kind"]]]
    disagree = [n for n, d in r["agreement"].items() if d and "f64" not in n]
    detail = "; ".join(short + [f"verdicts differ from {n}" for n in disagree])
    what = (f"`tooldojo validate --jsonl` as a whole process, {r['cases']:,} weather-tool cases "
            f"({r['mb']} MB, {100 * r['invalid'] // r['cases']}% invalid), each peer on the same file, "
            f"{runs_text(r['runs'])} each, ratios of the best times "
            f"(`python3 benches/compare.py --only flat --runs {r['runs']}`)")
    aim = verdict("25x Python and pydantic, 5x jsonschema-rs (exact), in CPU time, verdicts agreeing",
                  not detail, detail)
    return [Row("validate", what, measured, aim)]


def real_rows(a):
    r = compare_report(a, "real")
    goals = {"python": 25, "rust": 5}
    ours = r["rows"][0]
    parts = [f"tooldojo {span(ours['cpu_ms'], '{:.0f}')} ms CPU, {span(ours['wall_ms'], '{:.0f}')} ms wall"]
    for row in r["rows"][1:]:
        parts.append(f"{row['name']} {span(row['cpu_ms'], '{:.0f}')} ms CPU (**{row['cpu_ratio']}x**), "
                     f"{span(row['wall_ms'], '{:.0f}')} ms wall ({row['wall_ratio']}x)")
    agree = []
    for pair, info in r["agreement"].items():
        classes = ", ".join(f"{cls} {c['count']:,}" + ("" if c["expected"] else " (not expected)")
                            for cls, c in info["classes"].items())
        agree.append(f"{pair} {info['differ']:,}" + (f" ({classes})" if classes else ""))
    measured = "; ".join(parts) + ". Lines whose verdict differs: " + "; ".join(agree)
    short = [f"{row['name']} {row['cpu_ratio']}x" for row in r["rows"]
             if row["kind"] in goals and row["cpu_ratio"] < goals[row["kind"]]]
    unexpected = [f"{pair}: {cls} {c['count']:,}" for pair, info in r["agreement"].items()
                  if not info["baseline"] for cls, c in info["classes"].items() if not c["expected"]]
    detail = "; ".join(short + unexpected)
    what = (f"`tooldojo validate --jsonl` as a whole process on the real-call file: {r['cases']:,} cases, "
            f"{r['real_calls']:,} real calls and {r['generated']:,} generated against the 4,242 real declarations "
            f"in their own shapes ({r['mb']} MB, {100 * r['invalid'] // r['cases']}% invalid), each peer on the same "
            f"file, {runs_text(r['runs'])} each, ratios of the best times "
            f"(`python3 benches/compare.py --only real --runs {r['runs']}`)")
    aim = verdict("25x Python jsonschema, 5x jsonschema-rs, in CPU time, verdicts agreeing apart from the "
                  "listed deviations", not detail, detail)
    return [Row("real", what, measured, aim)]


def audit_rows(a):
    r = compare_report(a, "audit")
    rows = {row["kind"]: row for row in r["rows"]}
    cpu = lambda k: span(rows[k]["cpu_ms"], "{:.0f}")  # noqa: E731
    measured = (f"the log {cpu('ours')} ms CPU: **{r['mb_per_s']} MB/s** on one core; `validate --jsonl` on "
                f"its calls {cpu('validate')} ms (the log, {r['mb'] / r['cases_mb']:.1f}x their bytes, takes "
                f"{r['log_ratio']}x that); the same calls as a "
                f"call log {cpu('calls')} ms, **{r['calls_ratio']}x** `validate --jsonl`; peak memory "
                f"{r['rss_kb']['quarter'] / 1024:.1f} MiB on the first quarter, {r['rss_kb']['whole'] / 1024:.1f} MiB "
                f"on the whole log; verdicts differing from `validate`: {r['differ']}")
    what = (f"`tooldojo audit --json` as a whole process on a generated agent log: {r['conversations']:,} "
            f"OpenAI Chat conversations ({r['mb']} MB, {r['calls']:,} calls, {r['invalid']:,} invalid), and on "
            f"the same calls as a log of a call a record ({r['calls_mb']} MB) against `tooldojo validate --jsonl` "
            f"on them, {runs_text(r['runs'])} each, best times "
            f"(`python3 benches/compare.py --only audit --runs {r['runs']}`)")
    flat = r["rss_kb"]["whole"] <= 1.25 * r["rss_kb"]["quarter"]
    met = r["mb_per_s"] >= 100 and r["calls_ratio"] <= 2 and flat and r["differ"] == 0
    short = [f"{r['mb_per_s']} MB/s"] if r["mb_per_s"] < 100 else []
    short += [f"{r['calls_ratio']}x validate"] if r["calls_ratio"] > 2 else []
    short += ["memory grows with the log"] if not flat else []
    short += [f"{r['differ']} verdicts differ"] if r["differ"] else []
    aim = verdict("100 MB/s of log on one core, the same calls within 2x of `validate --jsonl`, memory flat "
                  "in the log's size, verdicts equal", met, "; ".join(short))
    return [Row("audit", what, measured, aim)]


def compile_rows(a):
    sys.path.insert(0, os.path.join(ROOT, "benches"))
    import compare
    import realcalls
    tools = os.path.join(realcalls.shared_dir(), "realworld", "tools")
    runs = 3 if a.quick else 10
    peer = compare.build_peer("exact")
    out, err = run([peer, "--compile-all", tools, "--runs", str(runs)])
    rs = json.loads(out.strip().splitlines()[-1])
    rs_text, rs_value = rs["parse_and_compile"]["cpu_ms"][0], rs["compile"]["cpu_ms"][0]
    peer_part = (f"jsonschema-rs {rs['compiled']:,} of {rs['declarations']:,} compiled: from each declaration's "
                 f"text {rs_text:.1f} ms CPU, from parsed values {rs_value:.1f} ms CPU (best of {runs})")
    what = (f"compiling all {rs['declarations']:,} declarations under realworld/tools/, each file read in its "
            f"own shape, formats asserted: tooldojo by criterion's estimate of its CPU time "
            f"({bench_command(['compile'], a.quick)}, the estimate `compile/all`), jsonschema-rs by "
            f"`jsonschema-peer --compile-all` (its CPU time, best of {runs})")
    aim = "at most a quarter of jsonschema-rs's time (from text)"
    if not os.path.exists(os.path.join(ROOT, "benches", "compile.rs")):
        return [Row("compile", what, f"tooldojo not measured: benches/compile.rs does not exist yet; {peer_part}",
                    verdict(aim, False, "not measured"))]
    found = criterion(["compile"], a.quick)
    named = [k for k in found if k == "compile/all"] or [k for k in found if "all" in k] or list(found)
    if len(named) != 1:
        sys.exit(f"`cargo bench --bench compile` should print one estimate named compile/all; it printed {sorted(found)}")
    ours = found[named[0]]
    ratio = rs_text / ours
    measured = f"tooldojo **{ms(ours)}** (`{named[0]}`); {peer_part}: **{ratio:.1f}x** tooldojo's time"
    return [Row("compile", what, measured, verdict(aim, ratio >= 4, f"{ratio:.1f}x"))]


def orchestrator_rows(a):
    cmd = ["cargo", "test", "--release", "--quiet", "--test", "core", "orchestrator_speed", "--",
           "--ignored", "--nocapture"]
    main_re = re.compile(r"(\d+) calls x (\d+) runs: wall ([\d.]+) us/call, cpu ([\d.]+) us/call")
    floor_re = re.compile(r"floor: wall ([\d.]+) us/call, cpu ([\d.]+) us/call")
    wall, cpu, fwall, fcpu = [], [], [], []
    for _ in range(a.runs):
        out, err = run(cmd)
        m, f = main_re.search(out + err), floor_re.search(out + err)
        if not m or not f:
            sys.exit(f"orchestrator_speed printed no figure (or no floor):\n{out}\n{err}")
        calls, inner = int(m[1]), int(m[2])
        wall.append(float(m[3]))
        cpu.append(float(m[4]))
        fwall.append(float(f[1]))
        fcpu.append(float(f[2]))
    measured = (f"{span(cpu)} µs CPU, {span(wall)} µs wall a call ({runs_text(a.runs, inner)}); "
                f"the floor (a tokio task, a timeout and a semaphore permit a call, nothing else) "
                f"{span(fcpu)} µs CPU, {span(fwall)} µs wall")
    what = (f"orchestrator overhead a call, the generated scenario of {calls:,} calls at concurrency 64 "
            f"(`{' '.join(c for c in cmd if c != '--quiet')}`)")
    return [Row("orchestrator", what, measured, verdict("under 10 µs of CPU a call", min(cpu) < 10))]


def render_rows(a):
    exe = release_binary()
    names = subprocess.run([exe, "render", "--list"], capture_output=True, text=True,
                           check=True).stdout.split()
    t = group(criterion(["render"], a.quick), "frame_200x60", names)
    classes = {}
    for name, v in t.items():
        classes.setdefault(name.split(":", 1)[0], []).append(v)
    parts = []
    for cls, vs in sorted(classes.items(), key=lambda kv: max(kv[1])):
        parts.append(f"{cls} ({len(vs)}) {span(vs, '{:.2f}')} ms" if len(vs) > 1 else f"{cls} {vs[0]:.2f} ms")
    worst = max(t, key=t.get)
    over = sorted((n for n, v in t.items() if v >= 1.0), key=t.get, reverse=True)
    measured = (f"{len(t)} screens; " + ", ".join(parts) +
                f"; worst `{worst}` **{t[worst]:.2f} ms**")
    detail = f"{len(over)} over: " + ", ".join(f"`{n}`" for n in over) if over else ""
    return [Row("render", f"one frame at 200x60 of every `render --list` screen, criterion's estimate "
                          f"({bench_command(['render'], a.quick)})",
                measured, verdict("every screen under 1 ms", not over, detail))]


def player_rows(a):
    found = criterion(["player"], a.quick)
    frames = group(found, "player_frame", [f"{s} {w}" for s in ("generated-10000", "partial-success")
                                           for w in ("80x24", "200x60")])
    opened = group(found, "player_open", ["generated-10000 run + timeline", "generated-10000 timeline only"])
    g = [frames[f"generated-10000 {w}"] for w in ("80x24", "200x60")]
    s = [frames[f"partial-success {w}"] for w in ("80x24", "200x60")]
    cmd = bench_command(["player"], a.quick)
    frame = Row("player", "the trace player's busiest frame: the generated 10,000-call run in mid-flight "
                          f"(64 in flight, every lane group, a call selected, the events pane), criterion's "
                          f"estimate ({cmd})",
                f"80x24 **{ms(g[0])}**, 200x60 **{ms(g[1])}**; a shipped scenario (`partial-success`, a "
                f"call selected) {ms(s[0])} / {ms(s[1])}",
                verdict("under 33 ms (30 frames a second)", max(g + s) < 33))
    total, model = opened["generated-10000 run + timeline"], opened["generated-10000 timeline only"]
    open_row = Row("player", f"opening the 10,000-call run in the player: the real orchestrator run and the "
                             f"timeline model (same bench)",
                   f"**{ms(total)}** (the timeline model alone {ms(model)})", verdict("under 1 s", total < 1000))
    return [frame, open_row]


BFCL = os.path.join(os.path.dirname(ROOT), "shared", "realworld", "tools", "bfcl", "bfcl-v4-openai-chat-tools.json")


def process_cpu(cmd):
    """CPU (user + system) and wall seconds of one run of `cmd`, its output thrown away."""
    print(f"  $ {' '.join(cmd)}", file=sys.stderr, flush=True)
    t0 = time.time()
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"{' '.join(cmd)} exited with status {status}")
    return ru.ru_utime + ru.ru_stime, time.time() - t0


def tools_rows(a):
    rows = []
    if os.path.exists(BFCL):
        exe = release_binary()
        cmd = [exe, "tools", BFCL, "--json"]
        cpu, wall = zip(*(process_cpu(cmd) for _ in range(a.runs)))
        shown = f"`tooldojo tools ../shared/realworld/tools/bfcl/bfcl-v4-openai-chat-tools.json --json`"
        rows.append(Row("tools", f"the trap report on BFCL's 3,522 declarations as a whole process: load, "
                                 f"compile, every trap judged, strict readiness, hygiene, one JSON line each "
                                 f"({shown}, {runs_text(a.runs)})",
                        f"**{span([c * 1000 for c in cpu], '{:.0f}')} ms CPU**, {span([w * 1000 for w in wall], '{:.0f}')} ms wall",
                        verdict("under 1 s of CPU", min(cpu) < 1.0)))
    else:
        rows.append(Row("tools", "the trap report on BFCL's 3,522 declarations as a whole process",
                        "not measured: ../shared/realworld/tools/bfcl is not there", "under 1 s of CPU: not measured"))
    found = criterion(["tools"], a.quick)
    names = [n.split("/", 1)[1] for n in found if n.startswith("tools_frame/")]
    bfcl = {n: found[f"tools_frame/{n}"] for n in names if n.startswith("bfcl ")}
    ex = {n: found[f"tools_frame/{n}"] for n in names if n.startswith("example ")}
    shown = ", ".join(f"{n.split(' ', 1)[1]} {ms(v)}" for n, v in sorted(bfcl.items()))
    worst = max(list(bfcl.values()) + list(ex.values()))
    measured = (f"BFCL: {shown}; " if bfcl else "BFCL not there; ") + \
        "our example: " + ", ".join(f"{n.split(' ', 1)[1]} {ms(v)}" for n, v in sorted(ex.items()))
    rows.append(Row("tools", f"the Your tools screen: opening it (the first frame, every mark in view and the "
                             f"selected declaration's analysis), a frame once open, a move down and its frame, "
                             f"criterion's estimate ({bench_command(['tools'], a.quick)})",
                    measured, verdict("under 16 ms, a frame at 60 Hz", worst < 16)))
    return rows


def micro_rows(a):
    found = criterion(["validate", "executor"], a.quick)
    val = {k: v for k, v in found.items() if k.startswith("validate")}
    exe = {k: v for k, v in found.items() if k.startswith("execute")}
    jsonl = {k: v for k, v in found.items() if k.startswith("jsonl ")}
    if not val or not exe or not jsonl:
        sys.exit(f"the validate/executor benches printed unexpected ids: {sorted(found)}")
    cases = int(re.search(r"\d+", next(iter(jsonl)))[0])
    per_case = next(iter(jsonl.values())) / cases
    us = [v * 1e3 for v in val.values()]
    measured = (f"one validation {span(us, '{:.2f}')} µs ({len(val)} benches); one JSON-lines case through "
                f"the whole reader {per_case * 1e3:.2f} µs; one `get_ticket` call "
                f"{span([v * 1e3 for v in exe.values()], '{:.2f}')} µs ({len(exe)} benches)")
    return [Row("micro", "one validation, one `validate --jsonl` case, one `get_ticket` call, criterion's "
                         f"estimate ({bench_command(['validate', 'executor'], a.quick)})",
                measured, "no aim: the floor under the rows above")]


def content_rows(a):
    lessons_cmd = ["cargo", "test", "--release", "--quiet", "--test", "core", "lessons::", "--", "--ignored",
                   "--nocapture"]
    blocks_cmd = ["cargo", "test", "--release", "--quiet", "--test", "tui", "blocks_measure", "--", "--ignored",
                  "--nocapture"]
    lesson_re = re.compile(r"parse (\d+) lessons: ([\d.]+)(\D+?); lint \((\d+) rows\): ([\d.]+)(\D+?)$", re.M)
    block_re = re.compile(r"^(.+?)\s+build\s+([\d.]+) ms\s+draw 200x60\s+[\d.]+ ms\s+re-run key\s+([\d.]+) ms",
                          re.M)
    parse, lint, blocks = [], [], {}
    for _ in range(a.runs):
        out, err = run(lessons_cmd)
        m = lesson_re.search(out + err)
        if not m:
            sys.exit(f"the lessons timing printed no figure:\n{out}\n{err}")
        n_lessons, n_rows = int(m[1]), int(m[4])
        parse.append(float(m[2]) * UNITS_MS[m[3]])
        lint.append(float(m[5]) * UNITS_MS[m[6]])
        out, err = run(blocks_cmd)
        found = block_re.findall(out + err)
        if not found:
            sys.exit(f"blocks_measure printed no figure:\n{out}\n{err}")
        for name, build, key in found:
            b = blocks.setdefault(name.strip(), ([], []))
            b[0].append(float(build))
            b[1].append(float(key))
    plain = lambda cmd: " ".join(c for c in cmd if c != "--quiet")  # noqa: E731
    lessons = Row("content", f"parsing every lesson / the lesson lint (`{plain(lessons_cmd)}`)",
                  f"{n_lessons} lessons {span(parse, '{:.2f}')} ms / {n_rows} lint rows {span(lint, '{:.2f}')} ms "
                  f"({runs_text(a.runs)})",
                  verdict("parsing under 16 ms, a frame at 60 Hz (the app reparses an edited lesson); "
                          "the lint has none", min(parse) < 16))
    slow = [n for n, (build, key) in blocks.items() if min(build) >= 16 or min(key) >= 16]
    blocks_row = Row("content", "building a block (a trace block runs the real orchestrator) / a key that "
                                "re-runs its real code (predict: reveal all; playground: a rule switch; trace: "
                                f"the last step) (`{plain(blocks_cmd)}`)",
                     "; ".join(f"{n} {span(b, '{:.2f}')} / {span(k, '{:.2f}')} ms" for n, (b, k) in blocks.items())
                     + f" ({runs_text(a.runs)}, one build and one key each)",
                     verdict("each under 16 ms, a frame at 60 Hz", not slow, ", ".join(f"`{n}`" for n in slow)))
    return [lessons, blocks_row]


# ---------------------------------------------------------------- idle

def release_binary():
    run(["cargo", "build", "--release", "--quiet", "--bin", "tooldojo"])
    return os.path.join(TARGET, "release", "tooldojo")


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def idle_cpu(exe, args, secs, tag):
    """Clock ticks of CPU the app uses in `secs` while nobody touches it, in a tmux server of its own."""
    socket = os.path.join(TARGET, f"speed-idle-{os.getpid()}-{tag}.sock")
    state = os.path.join(TARGET, "speed-idle-state")
    shutil.rmtree(state, ignore_errors=True)
    os.makedirs(state)
    tmux = ["tmux", "-S", socket]
    subprocess.run(tmux + ["new-session", "-d", "-x", "120", "-y", "40",
                           f"exec env TOOLDOJO_STATE_DIR='{state}' '{exe}' {args}"], check=True)
    try:
        pid = subprocess.run(tmux + ["list-panes", "-F", "#{pane_pid}"], capture_output=True, text=True,
                             check=True).stdout.split()[0]
        deadline = time.time() + 20
        while not subprocess.run(tmux + ["capture-pane", "-p"], capture_output=True, text=True).stdout.strip():
            if time.time() > deadline:
                sys.exit(f"`tooldojo {args}` drew nothing in 20 s")
            time.sleep(0.2)
        time.sleep(1)  # let start-up settle
        before = cpu_ticks(pid)
        time.sleep(secs)
        return cpu_ticks(pid) - before
    finally:
        subprocess.run(tmux + ["kill-server"], check=False, capture_output=True)
        if os.path.exists(socket):
            os.remove(socket)


def idle_rows(a):
    what = ("CPU of the release app left alone in a tmux pane, from /proc (user + system, 10 ms ticks): "
            "the home screen, and the player paused on `partial-success` "
            "(`python3 benches/speed_table.py --only idle`)")
    if not shutil.which("tmux"):
        return [Row("idle", what, "not measured: tmux is not installed", "none measurable (pass/fail)")]
    exe = release_binary()
    secs = 3 if a.quick else 10
    home, paused = idle_cpu(exe, "", secs, "home"), idle_cpu(exe, "play partial-success", secs, "player")
    hz = os.sysconf("SC_CLK_TCK")
    ticks = lambda n: f"{n} tick{'' if n == 1 else 's'} ({n * 1000 // hz} ms)"
    measured = f"home {ticks(home)} in {secs} s; paused player {ticks(paused)} in {secs} s"
    limit = max(1, secs // 5)  # at most one tick (the sampling's own rounding) every 5 s
    return [Row("idle", what, measured,
                verdict(f"none measurable, at most {limit} tick{'s' if limit > 1 else ''} in {secs} s (pass/fail)",
                        max(home, paused) <= limit, "fail"))]


# ---------------------------------------------------------------- the table in README.md

def git_commit():
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!README.md"],
                           cwd=ROOT, capture_output=True, text=True).stdout.strip()
    return f"`{head}`" + (" with uncommitted changes" if dirty else "")


def stamp(sections, load0, load1, quick):
    names = "every row" if sections == SECTIONS else "rows " + ", ".join(f"`{s}`" for s in sections)
    return (f"{names[0].upper()}{names[1:]}: measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} "
            f"at commit {git_commit()}, {os.cpu_count()} cores, load average {load0:.1f} before and "
            f"{load1:.1f} after" + (" (--quick: short criterion times, one run)" if quick else "") + ".")


def stamp_sections(line):
    """The sections a stamp line speaks for, or None when the line is no stamp."""
    m = re.match(r"(Every row|Rows (.+?)): measured ", line)
    if not m:
        return None
    return list(SECTIONS) if m[1] == "Every row" else re.findall(r"`(\w+)`", m[2])


def merge(old_lines, new_rows, new_stamp, sections):
    """The block between the markers: old stamps and rows for sections not measured now, the new ones."""
    stamps, rows = [], {s: [] for s in SECTIONS}
    for line in old_lines:
        covered = stamp_sections(line)
        if covered is not None:
            left = [s for s in covered if s not in sections]
            if left:
                stamps.append(stamp_sections_rewrite(line, left))
            continue
        m = re.match(r"\| `(\w+)` \|", line)
        if m and m[1] in rows and m[1] not in sections:
            rows[m[1]].append(line)
    for row in new_rows:
        rows[row.section].append(row.line())
    body = [line for s in SECTIONS for line in rows[s]]
    return [line for st in stamps + [new_stamp] for line in (st, "")] + HEADER + body


def stamp_sections_rewrite(line, left):
    """An old stamp line narrowed to the sections it still speaks for."""
    rest = line.split(": measured ", 1)[1]
    return "Rows " + ", ".join(f"`{s}`" for s in left) + ": measured " + rest


def write_readme(rows, new_stamp, sections):
    with open(README, encoding="utf-8") as f:
        text = f.read()
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        sys.exit(f"README.md needs one {BEGIN} line and one {END} line after it")
    head, rest = text.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    block = merge(old.strip("\n").splitlines(), rows, new_stamp, sections)
    with open(README, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n" + "\n".join(block) + "\n" + END + tail)
    return block


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[4:18]))
    ap.add_argument("--write", action="store_true", help="rewrite the table in README.md")
    ap.add_argument("--only", default=",".join(SECTIONS), help="comma-separated sections (default: all)")
    ap.add_argument("--runs", type=int, help="runs of each whole-process measurement (default 3; 1 with --quick)")
    ap.add_argument("--quick", action="store_true", help="short criterion times, one run: to refresh a row")
    a = ap.parse_args()
    a.runs = a.runs or (1 if a.quick else 3)
    wanted = [s.strip() for s in a.only.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in SECTIONS]
    if unknown or not wanted:
        sys.exit(f"unknown section(s) {unknown}; sections: {', '.join(SECTIONS)}")
    sections = [s for s in SECTIONS if s in wanted]
    load0, t0 = os.getloadavg()[0], time.time()
    rows = []
    for s in sections:
        print(f"{s} ({time.time() - t0:.0f} s in)", file=sys.stderr, flush=True)
        rows.extend(globals()[f"{s}_rows"](a))
    new_stamp = stamp(sections, load0, os.getloadavg()[0], a.quick)
    if a.write:
        block = write_readme(rows, new_stamp, sections)
    else:
        block = [new_stamp, ""] + HEADER + [r.line() for r in rows]
    print("\n".join(block))
    print(f"({time.time() - t0:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
