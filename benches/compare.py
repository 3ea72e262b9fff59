#!/usr/bin/env python3
"""Whole-process speed of `tooldojo validate --jsonl` against its peers, side by side.

    python3 benches/compare.py [--only flat|real|audit] [--cases 200000] [--generated 100000]
                               [--audit-mb 50] [--runs 5] [--seed 7] [--json]

Three rows, all unless --only names one.

The flat row. Generates N cases of the seed's weather tool ({"city": "str", "days": "int"},
city required; about half valid, the rest missing, unknown, wrongly typed, bool-as-int, float-as-int, null,
huge ints), then runs each of these as a whole process on the same file, --runs times, in
turn (so a burst of load hits all of them alike):

  tooldojo        tooldojo validate --jsonl FILE (release build)
  jsonschema-rs   benches/jsonschema_peer --read value, exact build: one compiled validator
                  per schema, serde_json parsing each line with arbitrary precision, a `pyType`
                  keyword telling 3 from 3.0 (JSON Schema calls both integers; Python does not)
  jsonschema-rs (f64 numbers)  the same without arbitrary precision or `pyType`: faster,
                  but it accepts `"days": 3.0`, so its verdicts differ on those lines
  Python          benches/py_three_pass.py (json.loads per line + the seed's three passes)
  pydantic v2     benches/py_pydantic.py (strict, extra="forbid")
  serde_json      parse_baseline: parse each line into a Value, nothing else (a floor)

Each gets wall time and CPU time (user + sys of the process and its children); the table
shows the best and the range over the runs and the ratio of the best times. Verdicts must
agree line for line (ok / not ok) between tooldojo and every peer except the f64 build
(the plain Python validator must also print the same messages); any difference exits 1.
pydantic is installed with pip if it is missing.

The real-call row. benches/realcalls.py writes every real call under the shared folder's
realworld/calls/ plus --generated calls against its 4,242 real declarations, each line
carrying its declaration in its own shape (MCP, OpenAI Chat and Responses, Anthropic). Run on
that file, the same way:

  tooldojo        tooldojo validate --jsonl FILE
  jsonschema-rs   benches/jsonschema_peer (exact build), one validator per distinct declaration
                  text, formats asserted, the draft from `$schema`
  Python          benches/py_jsonschema.py (jsonschema's validator for the schema's draft, with
                  the format checker)

Verdicts (ok / not ok) are compared line by line for every pair, and each line that differs
is put in a class by benches/deviations.py (Python's `re` semantics for `pattern`, 1.0 as an
integer, a format checker's reading, a repeated key, ...: each counted and explained). A
class that is not one of the expected deviations (a refused schema, an unexplained verdict)
between tooldojo and a peer exits 1; the two peers' own differences are the baseline, shown
but never failing. The aims: 5x jsonschema-rs and 25x Python jsonschema in CPU time.

The audit row. benches/auditlog.py writes an agent log of --audit-mb MB (OpenAI Chat
conversations, one a line, eight tools, about one call in ten invalid), the same calls as
`validate --jsonl` cases, and the same calls again as a log of one call a record. Run the
same way:

  tooldojo audit --json LOG         the conversations: its speed in MB/s of log, one core
  tooldojo validate --jsonl CASES   the log's calls, each with its declaration
  tooldojo audit --json CALLS       the same calls as a call log: the same bytes, the same work
                                    but a conversation a call and its findings

The verdicts of the audit's call lines must be validate's, line for line (ok and message);
any difference exits 1. Memory: the peak resident size of the audit on the log's first
quarter and on the whole log, which must stay flat. The aims: 100 MB/s of log, and the call
log within 2x of `validate --jsonl` on the same calls, in CPU time.

The generated files go to target/bench-data/; the peer is built in target/jsonschema-peer/.
"""
import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time

import auditlog
import realcalls

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHES = os.path.join(ROOT, "benches")
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
GOAL_PY, GOAL_RS = 25, 5


def generate(path, n, seed):
    rng = random.Random(seed)
    cities = ["Paris", "Rome", "Oslo", "Lagos", "Lima", "Hanoi", "São Paulo", "Zürich"]
    schema = '"schema": {"city": "str", "days": "int"}, "required": ["city"]'
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(n):
            city = json.dumps(rng.choice(cities), ensure_ascii=False)
            days = rng.randint(1, 14)
            kind = rng.random()
            if kind < 0.5:
                args = f'{{"city": {city}, "days": {days}}}'
            elif kind < 0.58:
                args = f'{{"days": {days}}}'
            elif kind < 0.66:
                args = f'{{"city": {city}, "unit": "C"}}'
            elif kind < 0.74:
                args = f'{{"city": {city}, "days": "{days}"}}'
            elif kind < 0.80:
                args = f'{{"city": {city}, "days": true}}'
            elif kind < 0.86:
                args = f'{{"city": {city}, "days": {days}.0}}'
            elif kind < 0.92:
                args = '{"city": null}'
            elif kind < 0.96:
                args = f'{{"city": {city}}}'
            else:
                args = f'{{"city": {city}, "days": 123456789012345678901234567890}}'
            f.write(f"{{{schema}, \"args\": {args}}}\n")


def ensure_pydantic():
    try:
        import pydantic  # noqa: F401
        return True
    except ImportError:
        print("installing pydantic (pip install --user pydantic)...", file=sys.stderr)
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--user", "pydantic>=2"])
        return r.returncode == 0


def cargo_artifact(args, name, cwd=ROOT, env=None):
    """Build with `cargo build|bench ... --message-format=json` and return the executable."""
    out = subprocess.run(["cargo", *args, "--quiet", "--message-format=json"], cwd=cwd, env=env,
                         check=True, capture_output=True, text=True).stdout
    exe = None
    for line in out.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg.get("target", {}).get("name") == name:
            exe = msg.get("executable") or exe
    return exe


def build(peers=True):
    """tooldojo, the parse-only floor and the peers (which the audit row does not need)."""
    tooldojo = cargo_artifact(["build", "--release", "--bin", "tooldojo"], "tooldojo")
    if not peers:
        return tooldojo, None, {}
    baseline = cargo_artifact(["bench", "--no-run", "--bench", "parse_baseline"], "parse_baseline")
    return tooldojo, baseline, {variant: build_peer(variant) for variant in ("exact", "f64")}


def build_peer(variant):
    """The jsonschema-rs peer, `exact` (arbitrary precision) or `f64`, built in release mode."""
    manifest = os.path.join(BENCHES, "jsonschema_peer", "Cargo.toml")
    peer_dir = os.path.join(TARGET, "jsonschema-peer")
    features = ["--features", "exact"] if variant == "exact" else []
    # Each build has its own target directory (so neither undoes the other's features and
    # an unchanged peer is not rebuilt); the binary is copied aside under its name.
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(peer_dir, variant))
    exe = cargo_artifact(["build", "--release", "--manifest-path", manifest, *features],
                         "jsonschema-peer", env=env)
    path = os.path.join(peer_dir, f"jsonschema-peer-{variant}")
    shutil.copy2(exe, path)
    return path


def run_once(cmd):
    """Wall time and CPU time (user + sys) of one whole-process run, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def verdicts(cmd):
    out = subprocess.run(cmd, capture_output=True, check=True).stdout.decode()
    return [json.loads(line) for line in out.splitlines()]


def differing(ours, theirs, whole=False):
    """Lines whose verdict differs (ok only, or the whole object with `whole`)."""
    n = abs(len(ours) - len(theirs))
    for a, b in zip(ours, theirs):
        n += (a != b) if whole else (a["ok"] != b["ok"])
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["flat", "real", "audit"], help="run one row (default: all)")
    ap.add_argument("--audit-mb", type=int, default=50, help="audit row: the generated log's size")
    ap.add_argument("--cases", type=int, default=200_000, help="flat row: generated cases")
    ap.add_argument("--generated", type=int, default=100_000, help="real-call row: generated calls")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true",
                    help="print one JSON object a row (with \"row\": \"flat\", \"real\" or \"audit\") instead of tables")
    a = ap.parse_args()

    data_dir = os.path.join(TARGET, "bench-data")
    os.makedirs(data_dir, exist_ok=True)
    tooldojo, baseline, peers = build(peers=a.only != "audit")
    failed = False
    rows = {"flat": (flat_row, print_table), "real": (real_row, print_real), "audit": (audit_row, print_audit)}
    for row, (measure, show) in rows.items():
        if a.only and a.only != row:
            continue
        report, row_failed = measure(a, data_dir, tooldojo, baseline, peers)
        failed |= row_failed
        if a.json:
            print(json.dumps(report), flush=True)
        else:
            show(report)
            print(flush=True)
    return 1 if failed else 0


def timed(rows, runs):
    """Each row's command run `runs` times in turn: load before and after, (wall, cpu) a run.
    Each round starts one row later, so no row always runs right after the same one (a row
    that follows a long Python run finds the caches, and on a shared machine the core,
    colder than one that follows a short run)."""
    load_before = os.getloadavg()[0]
    times = {name: [] for name, _, _ in rows}
    for r in range(runs):
        turn = r % len(rows)
        for name, cmd, _ in rows[turn:] + rows[:turn]:
            times[name].append(run_once(cmd))
    return times, [round(load_before, 1), round(os.getloadavg()[0], 1)]


def row_figures(rows, times):
    """Best and worst of each row, and its ratios to the first row's best times."""
    best = {name: (min(w for w, _ in t), min(c for _, c in t)) for name, t in times.items()}
    ours_wall, ours_cpu = best[rows[0][0]]
    out = []
    for name, _, kind in rows:
        t = times[name]
        out.append({
            "name": name, "kind": kind,
            "wall_ms": [round(min(w for w, _ in t) * 1e3), round(max(w for w, _ in t) * 1e3)],
            "cpu_ms": [round(min(c for _, c in t) * 1e3), round(max(c for _, c in t) * 1e3)],
            "wall_ratio": round(best[name][0] / ours_wall, 1),
            "cpu_ratio": round(best[name][1] / ours_cpu, 1),
        })
    return out


def flat_row(a, data_dir, tooldojo, baseline, peers):
    path = os.path.join(data_dir, f"weather-{a.cases}-{a.seed}.jsonl")
    if not os.path.exists(path):
        generate(path, a.cases, a.seed)
    size_mb = os.path.getsize(path) / 1e6

    have_pydantic = ensure_pydantic()
    py = [sys.executable, os.path.join(BENCHES, "py_three_pass.py"), path]
    rows = [("tooldojo validate --jsonl", [tooldojo, "validate", "--jsonl", path], "ours")]
    rows.append(("jsonschema-rs (exact)", [peers["exact"], "--read", "value", path], "rust"))
    rows.append(("jsonschema-rs (f64 numbers)", [peers["f64"], "--read", "value", path], "rust-f64"))
    rows.append(("plain Python, three passes", py, "python"))
    if have_pydantic:
        rows.append(("pydantic v2 (strict)", [sys.executable, os.path.join(BENCHES, "py_pydantic.py"), path],
                     "python"))
    if baseline:
        rows.append(("serde_json parse only (floor)", [baseline, path], "floor"))

    # Agreement first (not timed).
    ours = verdicts(rows[0][1])
    agreement = {}
    for name, cmd, kind in rows[1:]:
        if kind == "floor":
            continue
        agreement[name] = differing(ours, verdicts(cmd), whole=name.startswith("plain Python"))
    invalid = sum(1 for v in ours if not v["ok"])

    times, load = timed(rows, a.runs)
    report = {
        "row": "flat", "cases": a.cases, "invalid": invalid, "mb": round(size_mb, 1), "runs": a.runs,
        "cpus": os.cpu_count(), "load": load, "agreement": agreement, "rows": row_figures(rows, times),
    }
    failed = any(n for name, n in agreement.items() if "f64" not in name)
    return report, failed


def real_row(a, data_dir, tooldojo, baseline, peers):
    import deviations  # Python jsonschema and its format checkers: needed by this row only

    path = realcalls.ensure(a.generated, a.seed, data_dir)
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    with open(path + ".meta.jsonl", encoding="utf-8") as f:
        kinds = [json.loads(m)["kind"] for m in f]
    rows = [("tooldojo validate --jsonl", [tooldojo, "validate", "--jsonl", path], "ours"),
            ("jsonschema-rs (exact)", [peers["exact"], path], "rust"),
            ("Python jsonschema", [sys.executable, os.path.join(BENCHES, "py_jsonschema.py"), path], "python")]

    # Agreement first (not timed): every pair, every difference in a class.
    out = {name: verdicts(cmd) for name, cmd, _ in rows}
    names = [name for name, _, _ in rows]
    agreement = {}
    for x, y in ((0, 1), (0, 2), (1, 2)):
        classes = deviations.compare(lines, out[names[x]], out[names[y]], [short(names[x]), short(names[y])], kinds)
        agreement[f"{short(names[x])} vs {short(names[y])}"] = {
            "differ": sum(c["count"] for c in classes.values()), "baseline": x != 0, "classes": classes}
    python = out[names[2]]

    times, load = timed(rows, a.runs)
    report = {
        "row": "real", "cases": len(lines), "real_calls": kinds.count("real"), "generated": a.generated,
        "invalid": sum(1 for v in python if not v["ok"]), "mb": round(os.path.getsize(path) / 1e6, 1),
        "runs": a.runs, "cpus": os.cpu_count(), "load": load, "agreement": agreement,
        "rows": row_figures(rows, times),
    }
    failed = any(not c["expected"] for pair in agreement.values() if not pair["baseline"]
                 for c in pair["classes"].values())
    return report, failed


def peak_kb(cmd):
    """The peak resident size in KB of one run, output discarded. Measured by /usr/bin/time,
    whose small process forks the command: a fork of this Python process would count its
    pages as the command's."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=True).stderr
    return int(out.strip().splitlines()[-1])


def audit_row(a, data_dir, tooldojo, baseline, peers):
    log, cases, quarter, calls = auditlog.ensure(a.audit_mb, a.seed, data_dir)
    # Agreement first (not timed): each call line's verdict is validate's, line for line.
    audited = [v for v in verdicts([tooldojo, "audit", "--json", log]) if "call_id" in v]
    validated = verdicts([tooldojo, "validate", "--jsonl", cases])
    differ = abs(len(audited) - len(validated)) + sum(
        (x["ok"], x["error"]) != (y["ok"], y["error"]) for x, y in zip(audited, validated))
    rows = [("tooldojo audit --json (conversations)", [tooldojo, "audit", "--json", log], "ours"),
            ("tooldojo validate --jsonl (the same calls)", [tooldojo, "validate", "--jsonl", cases], "validate"),
            ("tooldojo audit --json (the same calls, a call a record)", [tooldojo, "audit", "--json", calls],
             "calls")]
    times, load = timed(rows, a.runs)
    rss = {"quarter": min(peak_kb([tooldojo, "audit", "--json", quarter]) for _ in range(2)),
           "whole": min(peak_kb([tooldojo, "audit", "--json", log]) for _ in range(2))}
    cpu = {name: min(c for _, c in t) for name, t in times.items()}
    log_mb, calls_mb = os.path.getsize(log) / 1e6, os.path.getsize(calls) / 1e6
    report = {
        "row": "audit", "mb": round(log_mb, 1), "quarter_mb": round(os.path.getsize(quarter) / 1e6, 1),
        "calls_mb": round(calls_mb, 1), "cases_mb": round(os.path.getsize(cases) / 1e6, 1), "calls": len(audited), "invalid": sum(1 for v in validated if not v["ok"]),
        "conversations": sum(1 for _ in open(log, encoding="utf-8")), "runs": a.runs, "cpus": os.cpu_count(),
        "load": load, "differ": differ, "rows": row_figures(rows, times),
        "mb_per_s": round(log_mb / cpu[rows[0][0]]),
        "calls_ratio": round(cpu[rows[2][0]] / cpu[rows[1][0]], 2),
        "log_ratio": round(cpu[rows[0][0]] / cpu[rows[1][0]], 2),
        "rss_kb": rss,
    }
    return report, differ != 0


def print_audit(r):
    print(f"audit: a log of {r['conversations']:,} conversations ({r['mb']} MB), {r['calls']:,} calls "
          f"({r['invalid']:,} invalid); {r['runs']} whole-process runs each, {r['cpus']} CPUs, load average "
          f"{r['load'][0]} before, {r['load'][1]} after")
    print(f"verdicts differing from validate --jsonl: {r['differ']}")
    for row in r["rows"]:
        w, c = row["wall_ms"], row["cpu_ms"]
        print(f"  {row['name']:<58} {w[0]:>6} ms wall ({w[0]}-{w[1]}) {c[0]:>6} ms cpu ({c[0]}-{c[1]})")
    print(f"log: {r['mb_per_s']} MB/s of log (aim 100); the same calls as a call log: {r['calls_ratio']}x "
          f"validate --jsonl (aim 2x); the conversations {r['log_ratio']}x validate on their calls")
    print(f"peak memory: {r['rss_kb']['quarter']:,} KB on the first quarter ({r['quarter_mb']} MB), "
          f"{r['rss_kb']['whole']:,} KB on the whole log")


def short(name):
    """A row's name without its note: `jsonschema-rs (exact)` -> `jsonschema-rs`."""
    return {"tooldojo validate --jsonl": "tooldojo"}.get(name, name.split(" (")[0])


def print_real(r):
    print(f"real calls: {r['cases']:,} cases ({r['real_calls']:,} real, {r['generated']:,} generated; "
          f"{r['invalid']:,} invalid per Python jsonschema), {r['mb']} MB, {r['runs']} whole-process runs each, "
          f"{r['cpus']} CPUs, load average {r['load'][0]} before, {r['load'][1]} after")
    for pair, info in r["agreement"].items():
        title = f"ok/not ok, {pair}" + (" (the peers' baseline)" if info["baseline"] else "")
        print_classes(title, info["classes"])
    print_rows_and_goals(r["rows"])


def print_rows_and_goals(rows):
    """The timing table of a row's peers, then whether each ratio meets its goal."""
    print(f"  {'':<32} {'wall best (range)':>22} {'ratio':>7} {'cpu best (range)':>22} {'ratio':>7}")
    for row in rows:
        w, c = row["wall_ms"], row["cpu_ms"]
        print(f"  {row['name']:<32} {w[0]:>6} ms ({w[0]}-{w[1]}) {row['wall_ratio']:>6.1f}x"
              f" {c[0]:>6} ms ({c[0]}-{c[1]}) {row['cpu_ratio']:>6.1f}x")
    for label in ("wall", "cpu"):
        parts = []
        for row in rows:
            goal = {"python": GOAL_PY, "rust": GOAL_RS}.get(row["kind"])
            if goal:
                ratio = row[f"{label}_ratio"]
                parts.append(f"{goal}x vs {short(row['name'])}: {'yes' if ratio >= goal else 'NO'} ({ratio}x)")
        print(f"goals ({label}): " + "; ".join(parts))


def print_classes(title, classes):
    total = sum(c["count"] for c in classes.values())
    print(f"lines differing, {title}: {total:,}")
    for cls, c in classes.items():
        mark = "expected" if c["expected"] else "NOT EXPECTED"
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(c["kinds"].items(), key=lambda kv: -kv[1]))
        print(f"  {c['count']:>7,}  {cls} ({mark}): {c['explanation']}"
              f"{' [' + kinds + ']' if kinds else ''}; e.g. line {', '.join(map(str, c['lines']))}")


def print_table(r):
    print(f"{r['cases']} cases ({r['invalid']} invalid), {r['mb']} MB, {r['runs']} whole-process runs each,"
          f" {r['cpus']} CPUs, load average {r['load'][0]} before, {r['load'][1]} after")
    for name, n in r["agreement"].items():
        what = "messages and verdicts" if name.startswith("plain Python") else "ok/not ok"
        note = " (expected: it reads 3.0 as an integer)" if "f64" in name and n else ""
        print(f"lines differing from tooldojo, {what}: {name}: {n}{note}")
    print_rows_and_goals(r["rows"])


if __name__ == "__main__":
    sys.exit(main())
