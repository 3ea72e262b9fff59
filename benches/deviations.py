#!/usr/bin/env python3
"""Why two validators' verdicts differ on a case: the deviation classes of the real-call row.

    python3 benches/deviations.py CASES A.out B.out [--names A,B] [--meta CASES.meta.jsonl]

For each line whose `ok` differs between the two outputs, the class is found by judging the
case again with Python's jsonschema (benches/py_jsonschema.py) under other rules, one change
at a time, until its verdict is the one that differs from plain Python's:

  pattern \\d \\w \\s \\b   patterns read with ASCII classes (ECMA-262's \\d and \\w; Python's `re`
                       takes any Unicode digit or letter)
  pattern $            `$` only at the very end (Python's also matches before a final newline)
  pattern ECMA-262     both of the above
  1.0 as an integer    `integer` refuses a float literal such as 1.0 (JSON Schema, and both
                       libraries, call 1.0 an integer; Python's `int` does not)
  multipleOf on floats `multipleOf` exact on the numbers as written
  dependencies under 2020-12   draft-07's `dependencies` applied in a 2020-12 schema
  format NAME          formats as notes (or the other side's error names the format): the
                       format checkers disagree on this value
Before that, from the error texts alone:
  pattern syntax       one side refuses the schema because a pattern is not valid in its regex
                       dialect (Python's `re` has no \\p{..} or \\cX; ECMA-262 has no (?P<..>))
  lone surrogate       a string escapes an unpaired surrogate: one reader refuses the line
  nesting limit        deeper than one reader's nesting limit (128 levels)
  content asserted     contentMediaType / contentEncoding failed as assertions on one side
  custom meta-schema   the schema's `$schema` is none of the standard dialects
  duplicate key        an object in the arguments repeats a key: one side refuses it
                       (`duplicate arg`), serde_json keeps the last value
  refused by NAME      NAME refuses the schema (a bad case) where the other judges the call
  unexplained          none of these
Every class but the last two is expected: the verdicts are both defensible readings. The
script prints each class with its count, an explanation and the first lines, and exits 1
when a class that is not expected was found.
"""
import argparse
import json
import os
import re
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import py_jsonschema as pj  # noqa: E402
from jsonschema import Draft7Validator, ValidationError  # noqa: E402
from jsonschema.validators import extend  # noqa: E402

EXPLAIN = {
    "pattern \\d \\w \\s \\b": "Python's `re` gives \\d, \\w, \\s and \\b their Unicode meaning; ECMA-262, JSON Schema's "
                           "regex dialect, ASCII digits and letters",
    "pattern $": "Python's `$` also matches just before a final newline; ECMA-262's only at the end",
    "pattern ECMA-262": "the pattern reads differently in Python's `re` and ECMA-262 (classes and `$` together)",
    "pattern syntax": "a pattern is valid in one regex dialect and not the other, so one side refuses the schema",
    "1.0 as an integer": "1.0 is an integer to JSON Schema (and to both libraries), a float to Python's types "
                         "(tooldojo refuses it for `integer`, on purpose)",
    "multipleOf on floats": "`multipleOf` with a fraction: exact on the numbers as written, or by float division "
                            "(Python's jsonschema: 0.3 is no multiple of 0.1 there)",
    "lone surrogate": "a string holds an unpaired UTF-16 surrogate escape (\\ud800): Python reads it, serde_json "
                      "refuses the line",
    "nesting limit": "the case nests deeper than one reader allows (serde_json and tooldojo stop at 128 levels)",
    "dependencies under 2020-12": "draft-07's `dependencies` in a 2020-12 schema: applied for compatibility, or "
                                  "ignored as an unknown keyword (Python's jsonschema, as the standard says)",
    "duplicate key": "an object in the arguments repeats a key: refused as `duplicate arg`, or the last value kept",
    "content asserted": "draft-07's contentMediaType/contentEncoding checked as assertions (jsonschema-rs), "
                        "or kept as notes (Python's jsonschema, as draft 2020-12 says)",
    "custom meta-schema": "the schema's $schema is a custom meta-schema: its $vocabulary honoured (jsonschema-rs) "
                          "or the schema read as draft 2020-12 (Python's jsonschema)",
    "unexplained": "none of the known causes: a bug in one of the validators",
}
UNEXPECTED = ("refused by", "unexplained")


def expected(cls):
    return not cls.startswith(UNEXPECTED)


def explain(cls):
    if cls.startswith("format "):
        return (f"the `{cls[7:]}` format checkers disagree on this value (Python's jsonschema leans on "
                f"fqdn, rfc3987, isoduration and friends; each library reads the RFCs its own way)")
    if cls.startswith("refused by "):
        return f"{cls[11:]} refuses the schema (a bad case) where the other validates the call"
    return EXPLAIN.get(cls, "")


# ---------------------------------------------------------------- Python under other rules

def ecma_dollar(pattern):
    """`$` outside a class and not escaped becomes `\\Z` (the end, never before a newline)."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class:
            in_class = False
        out.append("\\Z" if c == "$" and not in_class else c)
        i += 1
    return "".join(out)


# ECMA-262's \s: WhiteSpace and LineTerminator (Python's has \x1c-\x1f and lacks U+FEFF).
ECMA_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
ECMA_CLASSES = {"d": "0-9", "w": "A-Za-z0-9_", "s": ECMA_SPACE}


def ecma_classes(pattern):
    """\d \w \s (and \D \W \S outside a class) as ECMA-262 reads them."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            e = pattern[i + 1]
            if e in ECMA_CLASSES:
                out.append(ECMA_CLASSES[e] if in_class else f"[{ECMA_CLASSES[e]}]")
            elif e.lower() in ECMA_CLASSES and not in_class:
                out.append(f"[^{ECMA_CLASSES[e.lower()]}]")
            else:
                out.append(pattern[i:i + 2])
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class:
            in_class = False
        out.append(c)
        i += 1
    return "".join(out)


def pattern_rules(ascii_classes, dollar):
    def compile_(p):
        if dollar:
            p = ecma_dollar(p)
        if ascii_classes:
            p = ecma_classes(p)
        return re.compile(p, re.ASCII if ascii_classes else 0)

    cache = {}

    def search(p, s):
        if p not in cache:
            cache[p] = compile_(p)
        return cache[p].search(s)

    def pattern(validator, patrn, instance, schema):
        if validator.is_type(instance, "string") and not search(patrn, instance):
            yield ValidationError(f"{instance!r} does not match {patrn!r}")

    def pattern_properties(validator, props, instance, schema):
        if not validator.is_type(instance, "object"):
            return
        for patrn, sub in props.items():
            for k, v in instance.items():
                if search(patrn, k):
                    yield from validator.descend(v, sub, path=k, schema_path=patrn)

    def additional_properties(validator, extra, instance, schema):
        if not validator.is_type(instance, "object"):
            return
        props, patterns = schema.get("properties", {}), schema.get("patternProperties", {})
        extras = [k for k in instance if k not in props and not any(search(p, k) for p in patterns)]
        if validator.is_type(extra, "object"):
            for k in extras:
                yield from validator.descend(instance[k], extra, path=k)
        elif extra is False and extras:
            yield ValidationError(f"Additional properties are not allowed ({extras!r} were unexpected)")

    return lambda cls: extend(cls, validators={"pattern": pattern, "patternProperties": pattern_properties,
                                               "additionalProperties": additional_properties})


def strict_integers(cls):
    checker = cls.TYPE_CHECKER.redefine(
        "integer", lambda _, v: isinstance(v, int) and not isinstance(v, bool))
    return extend(cls, type_checker=checker)


def exact_multiple_of(cls):
    """`multipleOf` on the numbers as written (Python's jsonschema divides floats, so 0.3 is
    not a multiple of 0.1 there)."""
    def multiple_of(validator, d, instance, schema):
        if not validator.is_type(instance, "number"):
            return
        try:
            failed = Fraction(str(instance)) % Fraction(str(d)) != 0
        except (ValueError, ZeroDivisionError, OverflowError):
            return
        if failed:
            yield ValidationError(f"{instance!r} is not a multiple of {d}")

    return extend(cls, validators={"multipleOf": multiple_of})


def draft7_dependencies(cls):
    if "dependencies" in cls.VALIDATORS:
        return cls
    return extend(cls, validators={"dependencies": Draft7Validator.VALIDATORS["dependencies"]})


RULES = [
    ("1.0 as an integer", strict_integers),
    ("multipleOf on floats", exact_multiple_of),
    ("dependencies under 2020-12", draft7_dependencies),
    ("pattern \\d \\w \\s \\b", pattern_rules(True, False)),
    ("pattern $", pattern_rules(False, True)),
    ("pattern ECMA-262", pattern_rules(True, True)),
]


class Judges:
    """Python's verdict on a case line, plain or under one of RULES (readers kept per rule)."""

    def __init__(self):
        self.readers = {}

    def ok(self, line, rule=None, annotate=False):
        key = (rule, annotate)
        if key not in self.readers:
            self.readers[key] = pj.Reader(dict(RULES).get(rule))
        if annotate:
            line = as_annotated(line)
            if line is None:
                return None
        return pj.judge(self.readers[key], line)


def as_annotated(line):
    try:
        case = json.loads(line)
    except ValueError:
        return None
    if not isinstance(case, dict):
        return None
    case["formats"] = "annotate"
    return json.dumps(case, ensure_ascii=False) + "\n"


LONE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])")
DIALECTS = {"https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2019-09/schema",
            "http://json-schema.org/draft-07/schema", "http://json-schema.org/draft-06/schema",
            "http://json-schema.org/draft-04/schema"}


def custom_meta_schema(line):
    """Does the case's schema name a `$schema` that is none of the standard dialects?"""
    m = re.search(r'"\$schema":\s*"([^"]*)"', line)
    return bool(m) and m[1].rstrip("#") not in DIALECTS


def format_name(*errors):
    for e in errors:
        m = re.search(r"""is not a ['"]([\w-]+)['"]|must be an? ([\w-]+)""", e or "")
        if m and (m[1] or m[2]) in pj.FORMATS:
            return m[1] or m[2]
    return "?"


# ---------------------------------------------------------------- one disagreement

def classify(line, a, b, names, judges):
    """The class of one line where verdicts `a` and `b` (names[0], names[1]) differ."""
    ea, eb = a.get("error", ""), b.get("error", "")
    bad_a, bad_b = ea.startswith("bad case"), eb.startswith("bad case")
    if bad_a != bad_b:
        refused, error = (names[0], ea) if bad_a else (names[1], eb)
        if LONE_SURROGATE.search(line):
            return "lone surrogate"
        if re.search(r"recursion limit|nest(ed|ing) (too )?deep", error):
            return "nesting limit"
        if "regex" in error:
            return "pattern syntax"
        return f"refused by {refused}"
    if ea.startswith("duplicate arg") or eb.startswith("duplicate arg"):
        return "duplicate key"
    if "is not compliant with" in ea + eb:
        return "content asserted"
    if custom_meta_schema(line):
        return "custom meta-schema"
    py_ok, py_error = judges.ok(line)
    deviant = b if a["ok"] == py_ok else a
    for rule, _ in RULES:
        if judges.ok(line, rule)[0] == deviant["ok"]:
            return rule
    if deviant["ok"]:
        annotated = judges.ok(line, annotate=True)
        if annotated is not None and annotated[0]:
            return f"format {format_name(py_error)}"
    elif format_name(deviant.get("error", "")) != "?":
        return f"format {format_name(deviant['error'])}"
    return "unexplained"


def compare(case_lines, ours, theirs, names, kinds=None, examples=3):
    """{class: {"count", "expected", "explanation", "lines": first line numbers, "kinds"}}."""
    judges = Judges()
    found = {}
    for i, (line, a, b) in enumerate(zip(case_lines, ours, theirs)):
        if a["ok"] == b["ok"]:
            continue
        cls = classify(line, a, b, names, judges)
        entry = found.setdefault(cls, {"count": 0, "expected": expected(cls), "explanation": explain(cls),
                                       "lines": [], "kinds": {}})
        entry["count"] += 1
        if len(entry["lines"]) < examples:
            entry["lines"].append(i + 1)
        if kinds:
            entry["kinds"][kinds[i]] = entry["kinds"].get(kinds[i], 0) + 1
    extra = abs(len(ours) - len(theirs))
    if extra:
        found["unexplained"] = {"count": extra, "expected": False, "lines": [],
                                "explanation": "the outputs have different line counts", "kinds": {}}
    return dict(sorted(found.items(), key=lambda kv: -kv[1]["count"]))


def print_classes(title, classes):
    total = sum(c["count"] for c in classes.values())
    print(f"{title}: {total} line{'s' if total != 1 else ''} differ" + (":" if total else ""))
    for cls, c in classes.items():
        mark = "expected" if c["expected"] else "NOT EXPECTED"
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(c["kinds"].items(), key=lambda kv: -kv[1]))
        print(f"  {c['count']:>6}  {cls} ({mark}): {c['explanation']}"
              f"{'; kinds: ' + kinds if kinds else ''}; e.g. line {', '.join(map(str, c['lines']))}")


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.readlines()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--names", default="A,B")
    ap.add_argument("--meta", help="the cases' .meta.jsonl (default: CASES.meta.jsonl when it exists)")
    a = ap.parse_args()
    names = a.names.split(",")
    meta = a.meta or (a.cases + ".meta.jsonl" if os.path.exists(a.cases + ".meta.jsonl") else None)
    kinds = [json.loads(m)["kind"] for m in read_lines(meta)] if meta else None
    ours = [json.loads(v) for v in read_lines(a.a)]
    theirs = [json.loads(v) for v in read_lines(a.b)]
    classes = compare(read_lines(a.cases), ours, theirs, names, kinds)
    print_classes(f"{names[0]} vs {names[1]}", classes)
    return 0 if all(c["expected"] for c in classes.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
