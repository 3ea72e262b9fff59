#!/usr/bin/env python3
"""Whole-process speed of `tooldojo validate --jsonl` against plain Python and pydantic v2.

    python3 benches/compare.py [--cases 200000] [--runs 3] [--seed 7]

Generates N cases of the seed's weather tool ({"city": "str", "days": "int"}, city required;
about half valid, the rest missing, unknown, wrongly typed, bool-as-int, float-as-int, null,
huge ints), then times, as whole processes reading the same file (best of --runs):

  1. tooldojo validate --jsonl FILE         (release build)
  2. benches/py_three_pass.py FILE          (json.loads per line + the seed's three passes)
  3. benches/py_pydantic.py FILE            (pydantic v2 model, strict, extra="forbid")
  4. parse_baseline FILE                    (serde_json: parse each line into a Value, nothing else)

and checks that tooldojo and the plain Python validator print the same verdict on every line.
pydantic is installed with pip if it is missing. The generated file goes to target/bench-data/.
"""
import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHES = os.path.join(ROOT, "benches")


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


def cargo_build():
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "tooldojo"], cwd=ROOT, check=True)
    out = subprocess.run(
        ["cargo", "bench", "--no-run", "--quiet", "--bench", "parse_baseline", "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    baseline = None
    for line in out.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg.get("target", {}).get("name") == "parse_baseline":
            baseline = msg.get("executable") or baseline
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "release", "tooldojo"), baseline


def best_of(cmd, runs):
    """Best wall time and best CPU time (user + sys) of `runs` whole-process runs."""
    best_wall = best_cpu = None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall = wall if best_wall is None else min(best_wall, wall)
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
    return best_wall, best_cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()

    data_dir = os.path.join(ROOT, "target", "bench-data")
    os.makedirs(data_dir, exist_ok=True)
    path = os.path.join(data_dir, f"weather-{a.cases}-{a.seed}.jsonl")
    if not os.path.exists(path):
        generate(path, a.cases, a.seed)
    size_mb = os.path.getsize(path) / 1e6

    tooldojo, baseline = cargo_build()
    have_pydantic = ensure_pydantic()

    # Agreement first (not timed): tooldojo and the plain Python validator, line by line.
    rust_out = subprocess.run([tooldojo, "validate", "--jsonl", path], capture_output=True, check=True).stdout
    py_out = subprocess.run([sys.executable, os.path.join(BENCHES, "py_three_pass.py"), path],
                            capture_output=True, check=True).stdout
    r_lines, p_lines = rust_out.decode().splitlines(), py_out.decode().splitlines()
    diffs = sum(1 for x, y in zip(r_lines, p_lines) if json.loads(x) != json.loads(y))
    diffs += abs(len(r_lines) - len(p_lines))
    invalid = sum(1 for x in r_lines if '"ok": false' in x)

    rows = [("tooldojo validate --jsonl", best_of([tooldojo, "validate", "--jsonl", path], a.runs))]
    rows.append(("plain Python, three passes",
                 best_of([sys.executable, os.path.join(BENCHES, "py_three_pass.py"), path], a.runs)))
    if have_pydantic:
        rows.append(("pydantic v2 (strict, extra=forbid)",
                     best_of([sys.executable, os.path.join(BENCHES, "py_pydantic.py"), path], a.runs)))
    if baseline:
        rows.append(("serde_json parse only (floor)", best_of([baseline, path], a.runs)))

    ours_wall, ours_cpu = rows[0][1]
    load = os.getloadavg()[0]
    print(f"{a.cases} cases ({invalid} invalid), {size_mb:.1f} MB, best of {a.runs} whole-process runs,"
          f" {os.cpu_count()} CPUs, load average {load:.1f}")
    print(f"verdicts differing between tooldojo and plain Python: {diffs}")
    print(f"  {'':<38} {'wall':>8}    {'ratio':>6}   {'cpu':>8}    {'ratio':>6}")
    for name, (wall, cpu) in rows:
        print(f"  {name:<38} {wall * 1000:6.0f} ms   {wall / ours_wall:5.1f}x   {cpu * 1000:6.0f} ms   {cpu / ours_cpu:5.1f}x")
    for label, idx in (("wall", 0), ("cpu", 1)):
        ours = rows[0][1][idx]
        verdict = []
        for name, times in rows[1:]:
            t = times[idx]
            if name.startswith("serde_json"):
                verdict.append(f"within 2x of parse-only: {'yes' if ours <= 2 * t else 'NO'} ({ours / t:.2f}x)")
            else:
                verdict.append(f"15x vs {name.split(' ')[0]}: {'yes' if t >= 15 * ours else 'NO'} ({t / ours:.1f}x)")
        print(f"targets ({label}): " + "; ".join(verdict))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
