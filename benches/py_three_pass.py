#!/usr/bin/env python3
"""A plain Python validator for the seed's flat schemas, used as the benchmark baseline and
as the oracle of the Rust/Python agreement test.

Reads JSON-lines cases ({"schema": {"city": "str", ...}, "required": [...], "args": {...}})
from stdin or a file and prints {"ok": ..., "error": ...} for each, one per line.
"""
import json
import sys

PY_TYPES = {"str": str, "int": int, "float": float, "bool": bool, "list": list, "dict": dict}


def check_args(schema, required, args):
    """Three passes, first failure wins: required names, unknown names, value types."""
    for name in required:
        if name not in args:
            return False, "missing required arg: " + name
    for name in args:
        if name not in schema:
            return False, "unknown arg: " + name
    for name, value in args.items():
        want = schema[name]
        got = type(value).__name__
        # True/False are ints to isinstance; only a bool field may take them.
        if isinstance(value, bool) and want is not bool:
            return False, f"type error: {name} expected {want.__name__}, got {got}"
        if not isinstance(value, want):
            return False, f"type error: {name} expected {want.__name__}, got {got}"
    return True, ""


def main():
    src = open(sys.argv[1], encoding="utf-8") if len(sys.argv) > 1 else sys.stdin
    out = []
    for line in src:
        case = json.loads(line)
        schema = {k: PY_TYPES[v] for k, v in case["schema"].items()}
        ok, error = check_args(schema, case.get("required", []), case["args"])
        out.append(json.dumps({"ok": ok, "error": error}))
        if len(out) >= 4096:
            sys.stdout.write("\n".join(out) + "\n")
            out.clear()
    if out:
        sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
