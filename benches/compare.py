#!/usr/bin/env python3
"""Whole-process speed of `tooldojo validate --jsonl` against its peers, side by side.

    python3 benches/compare.py [--cases 200000] [--runs 5] [--seed 7] [--json]

Generates N cases of the seed's weather tool ({"city": "str", "days": "int"}, city required;
about half valid, the rest missing, unknown, wrongly typed, bool-as-int, float-as-int, null,
huge ints), then runs each of these as a whole process on the same file, --runs times, in
turn (so a burst of load hits all of them alike):

  tooldojo        tooldojo validate --jsonl FILE (release build)
  jsonschema-rs   benches/jsonschema_peer, exact build: one compiled validator per schema,
                  serde_json parsing each line with arbitrary precision, a `pyType` keyword
                  telling 3 from 3.0 (JSON Schema calls both integers; Python does not)
  jsonschema-rs (f64 numbers)  the same without arbitrary precision or `pyType`: faster,
                  but it accepts `"days": 3.0`, so its verdicts differ on those lines
  Python          benches/py_three_pass.py (json.loads per line + the seed's three passes)
  pydantic v2     benches/py_pydantic.py (strict, extra="forbid")
  serde_json      parse_baseline: parse each line into a Value, nothing else (a floor)

Each gets wall time and CPU time (user + sys of the process and its children); the table
shows the best and the range over the runs and the ratio of the best times. Verdicts must
agree line for line (ok / not ok) between tooldojo and every peer except the f64 build
(the plain Python validator must also print the same messages); any difference exits 1.
pydantic is installed with pip if it is missing. The generated file goes to
target/bench-data/; the peer is built in target/jsonschema-peer/.
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


def build():
    tooldojo = cargo_artifact(["build", "--release", "--bin", "tooldojo"], "tooldojo")
    baseline = cargo_artifact(["bench", "--no-run", "--bench", "parse_baseline"], "parse_baseline")
    manifest = os.path.join(BENCHES, "jsonschema_peer", "Cargo.toml")
    peer_dir = os.path.join(TARGET, "jsonschema-peer")
    peers = {}
    for variant, features in (("exact", ["--features", "exact"]), ("f64", [])):
        # Each build has its own target directory (so neither undoes the other's features and
        # an unchanged peer is not rebuilt); the binary is copied aside under its name.
        env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(peer_dir, variant))
        exe = cargo_artifact(["build", "--release", "--manifest-path", manifest, *features],
                             "jsonschema-peer", env=env)
        peers[variant] = os.path.join(peer_dir, f"jsonschema-peer-{variant}")
        shutil.copy2(exe, peers[variant])
    return tooldojo, baseline, peers


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
    ap.add_argument("--cases", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    a = ap.parse_args()

    data_dir = os.path.join(TARGET, "bench-data")
    os.makedirs(data_dir, exist_ok=True)
    path = os.path.join(data_dir, f"weather-{a.cases}-{a.seed}.jsonl")
    if not os.path.exists(path):
        generate(path, a.cases, a.seed)
    size_mb = os.path.getsize(path) / 1e6

    tooldojo, baseline, peers = build()
    have_pydantic = ensure_pydantic()
    py = [sys.executable, os.path.join(BENCHES, "py_three_pass.py"), path]
    rows = [("tooldojo validate --jsonl", [tooldojo, "validate", "--jsonl", path], "ours")]
    rows.append(("jsonschema-rs (exact)", [peers["exact"], path], "rust"))
    rows.append(("jsonschema-rs (f64 numbers)", [peers["f64"], path], "rust-f64"))
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

    load_before = os.getloadavg()[0]
    times = {name: [] for name, _, _ in rows}
    for _ in range(a.runs):
        for name, cmd, _ in rows:
            times[name].append(run_once(cmd))
    load_after = os.getloadavg()[0]

    report = {
        "cases": a.cases, "invalid": invalid, "mb": round(size_mb, 1), "runs": a.runs,
        "cpus": os.cpu_count(), "load": [round(load_before, 1), round(load_after, 1)],
        "agreement": agreement, "rows": [],
    }
    best = {name: (min(w for w, _ in t), min(c for _, c in t)) for name, t in times.items()}
    ours_wall, ours_cpu = best[rows[0][0]]
    for name, _, kind in rows:
        t = times[name]
        report["rows"].append({
            "name": name, "kind": kind,
            "wall_ms": [round(min(w for w, _ in t) * 1e3), round(max(w for w, _ in t) * 1e3)],
            "cpu_ms": [round(min(c for _, c in t) * 1e3), round(max(c for _, c in t) * 1e3)],
            "wall_ratio": round(best[name][0] / ours_wall, 1),
            "cpu_ratio": round(best[name][1] / ours_cpu, 1),
        })
    failed = any(n for name, n in agreement.items() if "f64" not in name)
    if a.json:
        print(json.dumps(report))
    else:
        print_table(report)
    return 1 if failed else 0


def print_table(r):
    print(f"{r['cases']} cases ({r['invalid']} invalid), {r['mb']} MB, {r['runs']} whole-process runs each,"
          f" {r['cpus']} CPUs, load average {r['load'][0]} before, {r['load'][1]} after")
    for name, n in r["agreement"].items():
        what = "messages and verdicts" if name.startswith("plain Python") else "ok/not ok"
        note = " (expected: it reads 3.0 as an integer)" if "f64" in name and n else ""
        print(f"lines differing from tooldojo, {what}: {name}: {n}{note}")
    print(f"  {'':<32} {'wall best (range)':>22} {'ratio':>7} {'cpu best (range)':>22} {'ratio':>7}")
    for row in r["rows"]:
        w, c = row["wall_ms"], row["cpu_ms"]
        print(f"  {row['name']:<32} {w[0]:>6} ms ({w[0]}-{w[1]}) {row['wall_ratio']:>6.1f}x"
              f" {c[0]:>6} ms ({c[0]}-{c[1]}) {row['cpu_ratio']:>6.1f}x")
    for label in ("wall", "cpu"):
        parts = []
        for row in r["rows"]:
            goal = {"python": GOAL_PY, "rust": GOAL_RS}.get(row["kind"])
            if goal:
                ratio = row[f"{label}_ratio"]
                parts.append(f"{goal}x vs {row['name'].split(' (')[0]}: {'yes' if ratio >= goal else 'NO'} ({ratio}x)")
        print(f"goals ({label}): " + "; ".join(parts))


if __name__ == "__main__":
    sys.exit(main())
