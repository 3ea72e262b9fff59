#!/usr/bin/env python3
"""The real-call benchmark file: real tool calls and generated ones, each against a real
declaration in its own shape, as `tooldojo validate --jsonl` cases.

    python3 benches/realcalls.py [--generated 100000] [--seed 7] [--out FILE] [--force]

Reads the shared test data (`$TOOLDOJO_SHARED_DIR`, else `../shared` beside the repository)
and writes, by default, `target/bench-data/realcalls-<generated>-<seed>-<hash of this script>.jsonl`:

  1. every call under realworld/calls/, in file order: kubernetes-mcp-evals (`params.arguments`
     against the tool of that name in its `tools_list` file under tools/mcp/), deepwiki-mcp
     likewise, bfcl-ground-truth (`arguments` against its own `tool`);
  2. --generated calls (seeded) against the declarations under realworld/tools/ (every
     MCP Tool, OpenAI Chat and Responses function and Anthropic tool: 4,242), every
     declaration at least once, the rest drawn at random. About three in four are meant to be
     valid, generated from the schema (nested objects, arrays, enums, formats, bounds,
     patterns, `anyOf`, local `$ref`); the rest carry one of the classic model mistakes (see
     MISTAKES), at any depth. One in fifty gives its arguments as `args_text`, as a Chat model
     returns them, and one in five of those is cut short (invalid JSON).

Each line is `{"schema": <the declaration as its source has it>, "args": ...}`; the same
declaration is written with the same bytes on every line. Beside it, FILE.meta.jsonl has one
line per case: `{"source": "<file>#<tool>", "kind": "real" | "valid" | <mistake>}`, which
compare.py uses to explain disagreements. Nothing from the shared folder is copied into the
repository; the file is written under target/.
"""
import argparse
import hashlib
import json
import os
import random
import re
import string
import sys

try:
    import re._parser as sre_parse  # Python 3.11+
except ImportError:  # pragma: no cover
    import sre_parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
MAX_DEPTH = 6

# Mistake kind -> weight among the mistakes that fit the declaration drawn.
MISTAKES = {
    "missing_required": 20,   # a required field left out
    "extra_key": 15,          # a key the schema does not declare (a misspelling, a guess)
    "string_number": 15,      # "3" for a number
    "bool_int": 5,            # true for an integer
    "null": 12,               # null for a field that is not nullable
    "float_int": 10,          # 2.5, or 3.0, for an integer
    "past_bound": 30,         # past minimum/maximum/maxLength/maxItems...
    "enum_near_miss": 10,     # "Celsius" for "celsius", a plural, a space for an underscore
    "bad_date": 40,           # "2026-02-30" for a date (this and past_bound weighted up: few schemas have them)
    "trailing_newline": 4,    # "nginx\n": a string that ends in the newline the model wrote after it
}
MISTAKE_SHARE = 0.25
ARGS_TEXT_SHARE = 0.02
TRUNCATED_SHARE = 0.2  # of the args_text lines

WORDS = ["Paris", "default", "nginx", "main", "alpha", "report", "Zürich", "north", "pod-7", "São Paulo",
         "invoice", "kube-system", "blue", "quarterly", "Oslo", "v2", "backend", "draft", "café", "user42"]
EXTRA_KEYS = ["verbose", "limit", "format", "options", "id", "query", "timeout", "debug", "page"]


def shared_dir():
    d = os.environ.get("TOOLDOJO_SHARED_DIR") or os.path.join(os.path.dirname(ROOT), "shared")
    if not os.path.isdir(os.path.join(d, "realworld")):
        sys.exit(f"realcalls: the shared test data is not at {d} (set TOOLDOJO_SHARED_DIR)")
    return d


# ---------------------------------------------------------------- reading the shared data

def tool_entries(doc):
    """The declarations of one tools file, each in its own shape: (name, declaration)."""
    if isinstance(doc, dict):  # an MCP tools/list result
        return [(t["name"], t) for t in doc["tools"]]
    out = []
    for t in doc:
        if t.get("type") == "function" and isinstance(t.get("function"), dict):
            out.append((t["function"]["name"], t))  # OpenAI Chat
        elif t.get("type") == "function" and "parameters" in t:
            out.append((t["name"], t))  # OpenAI Responses
        elif "input_schema" in t:
            out.append((t["name"], t))  # Anthropic
        # anything else is a built-in or server tool with no schema of its own
    return out


def declaration_files(shared):
    tools = os.path.join(shared, "realworld", "tools")
    for dirpath, dirnames, filenames in os.walk(tools):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith(".json"):
                yield os.path.relpath(os.path.join(dirpath, f), tools), os.path.join(dirpath, f)


def declarations(shared):
    """Every declaration under realworld/tools/: (file#name, declaration), in path order."""
    out = []
    for rel, path in declaration_files(shared):
        with open(path, encoding="utf-8") as f:
            for name, decl in tool_entries(json.load(f)):
                out.append((f"{rel}#{name}", decl))
    return out


def inner_schema(decl):
    if "function" in decl:
        return decl["function"].get("parameters", {"type": "object", "properties": {}})
    return decl.get("inputSchema") or decl.get("input_schema") or decl.get("parameters") or {}


def real_calls(shared):
    """Every real call: (source, declaration, arguments), in file order."""
    calls = os.path.join(shared, "realworld", "calls")
    mcp = os.path.join(shared, "realworld", "tools", "mcp")
    lists = {}
    out = []
    for name in ("kubernetes-mcp-evals.jsonl", "deepwiki-mcp.jsonl", "bfcl-ground-truth.jsonl"):
        with open(os.path.join(calls, name), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                c = json.loads(line)
                if "tool" in c:
                    out.append((f"calls/{name}:{n}", c["tool"], c["arguments"]))
                    continue
                if c["tools_list"] not in lists:
                    with open(os.path.join(mcp, c["tools_list"]), encoding="utf-8") as t:
                        lists[c["tools_list"]] = dict(tool_entries(json.load(t)))
                tool = lists[c["tools_list"]][c["params"]["name"]]
                out.append((f"calls/{name}:{n}", tool, c["params"].get("arguments", {})))
    return out


# ---------------------------------------------------------------- generating from a schema

class Gen:
    """Values for a JSON Schema, mostly valid, from one seeded random source."""

    def __init__(self, rng):
        self.rng = rng

    def resolve(self, s, root):
        """A local `$ref` followed (`#/$defs/X`, `#/definitions/X`, `#`), else the schema itself."""
        seen = 0
        while isinstance(s, dict) and isinstance(s.get("$ref"), str) and s["$ref"].startswith("#") and seen < 8:
            target = root
            for part in [p for p in s["$ref"][1:].split("/") if p]:
                part = part.replace("~1", "/").replace("~0", "~")
                if not isinstance(target, dict) or part not in target:
                    return s
                target = target[part]
            merged = dict(target) if isinstance(target, dict) else target
            if isinstance(merged, dict):
                merged.update({k: v for k, v in s.items() if k != "$ref"})
            s, seen = merged, seen + 1
        return s

    def types(self, s):
        t = s.get("type")
        if isinstance(t, str):
            return [t]
        if isinstance(t, list) and t:
            return t
        if "properties" in s or "required" in s:
            return ["object"]
        if "items" in s or "prefixItems" in s:
            return ["array"]
        if any(k in s for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
            return ["number"]
        return ["string"]

    def value(self, s, root, depth=0):
        rng = self.rng
        s = self.resolve(s, root)
        if s is True or not isinstance(s, dict):
            return rng.choice(WORDS)
        if "const" in s:
            return s["const"]
        if isinstance(s.get("enum"), list) and s["enum"]:
            return rng.choice(s["enum"])
        for key in ("anyOf", "oneOf"):
            if isinstance(s.get(key), list) and s[key]:
                branches = [b for b in s[key] if not (isinstance(b, dict) and b.get("type") == "null")] or s[key]
                merged = dict(s)
                del merged[key]
                branch = self.resolve(rng.choice(branches), root)
                if isinstance(branch, dict):
                    merged.update(branch)
                return self.value(merged, root, depth)
        if isinstance(s.get("allOf"), list):
            merged = {k: v for k, v in s.items() if k != "allOf"}
            for part in s["allOf"]:
                part = self.resolve(part, root)
                if isinstance(part, dict):
                    for k, v in part.items():
                        if k == "properties" and isinstance(merged.get(k), dict):
                            merged[k] = {**merged[k], **v}
                        elif k == "required" and isinstance(merged.get(k), list):
                            merged[k] = merged[k] + v
                        else:
                            merged[k] = v
            return self.value(merged, root, depth)
        types = [t for t in self.types(s) if t != "null"] or ["null"]
        t = rng.choice(types)
        if depth >= MAX_DEPTH and t in ("object", "array"):
            return {} if t == "object" else []
        return getattr(self, "gen_" + t, self.gen_string)(s, root, depth)

    def gen_null(self, s, root, depth):
        return None

    def gen_boolean(self, s, root, depth):
        return self.rng.random() < 0.5

    def bounds(self, s, integer):
        lo, hi = s.get("minimum"), s.get("maximum")
        xlo, xhi = s.get("exclusiveMinimum"), s.get("exclusiveMaximum")
        if isinstance(xlo, (int, float)) and not isinstance(xlo, bool):
            lo = xlo + (1 if integer else 0.01)
        if isinstance(xhi, (int, float)) and not isinstance(xhi, bool):
            hi = xhi - (1 if integer else 0.01)
        lo = lo if isinstance(lo, (int, float)) and not isinstance(lo, bool) else None
        hi = hi if isinstance(hi, (int, float)) and not isinstance(hi, bool) else None
        if lo is None and hi is None:
            lo, hi = (0, 100) if self.rng.random() < 0.8 else (-1000, 100000)
        elif lo is None:
            lo = min(hi, 0) - 10
        elif hi is None:
            hi = max(lo, 0) + 100
        return lo, max(lo, hi)

    def gen_integer(self, s, root, depth):
        lo, hi = self.bounds(s, True)
        lo, hi = int(-(-lo // 1)), int(hi // 1)
        v = self.rng.randint(lo, max(lo, hi))
        m = s.get("multipleOf")
        if isinstance(m, int) and not isinstance(m, bool) and m > 0:
            v = v - v % m if v - v % m >= lo else v + (m - v % m) % m
        return v

    def gen_number(self, s, root, depth):
        if self.rng.random() < 0.3 or isinstance(s.get("multipleOf"), int):
            return self.gen_integer(s, root, depth)
        lo, hi = self.bounds(s, False)
        return round(self.rng.uniform(lo, hi), 2) if hi - lo >= 0.02 else lo

    def gen_string(self, s, root, depth):
        rng = self.rng
        fmt = s.get("format")
        if isinstance(fmt, str) and fmt in FORMAT_VALUES:
            return FORMAT_VALUES[fmt](rng)
        if isinstance(s.get("pattern"), str):
            v = from_pattern(s["pattern"], rng)
            if v is not None:
                return v
        lo = s.get("minLength") if isinstance(s.get("minLength"), int) else 0
        hi = s.get("maxLength") if isinstance(s.get("maxLength"), int) else None
        for example in (s.get("examples") or [])[:1] + [s.get("default")]:
            if isinstance(example, str) and lo <= len(example) <= (hi if hi is not None else 10**9):
                if rng.random() < 0.3:
                    return example
        v = rng.choice(WORDS) if rng.random() < 0.7 else " ".join(rng.sample(WORDS, rng.randint(2, 5)))
        while len(v) < lo:
            v += rng.choice(string.ascii_lowercase)
        if hi is not None and len(v) > hi:
            v = v[:hi]
        return v

    def gen_array(self, s, root, depth):
        rng = self.rng
        lo = s.get("minItems") if isinstance(s.get("minItems"), int) else 0
        hi = s.get("maxItems") if isinstance(s.get("maxItems"), int) else lo + 4
        prefix = s.get("prefixItems") if isinstance(s.get("prefixItems"), list) else []
        items = s.get("items", {})
        if isinstance(items, list):  # draft-07's array form
            prefix, items = items, s.get("additionalItems", {})
        n = rng.randint(max(lo, 1 if lo == 0 and rng.random() < 0.8 else 0), max(lo, min(hi, lo + 4)))
        out = []
        for i in range(n):
            sub = prefix[i] if i < len(prefix) else items
            if sub is False:
                break
            out.append(self.value(sub if sub is not True else {}, root, depth + 1))
        if s.get("uniqueItems"):
            unique = []
            for v in out:
                if v not in unique:
                    unique.append(v)
            out = unique
        return out

    def gen_object(self, s, root, depth):
        rng = self.rng
        props = s.get("properties") if isinstance(s.get("properties"), dict) else {}
        required = [r for r in s.get("required", []) if isinstance(r, str)] if isinstance(s.get("required"), list) else []
        out = {}
        for name, sub in props.items():
            if name in required or rng.random() < 0.5:
                out[name] = self.value(sub, root, depth + 1)
        for name in required:
            if name not in out:
                out[name] = rng.choice(WORDS)
        extra = s.get("additionalProperties")
        if not props and isinstance(extra, dict) and rng.random() < 0.8:
            for i in range(rng.randint(1, 3)):
                out[rng.choice(["env", "label", "key", "tag"]) + str(i)] = self.value(extra, root, depth + 1)
        return out


def date(rng):
    return f"{rng.randint(2000, 2030):04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def clock(rng):
    return f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


FORMAT_VALUES = {
    "date": date,
    "date-time": lambda r: f"{date(r)}T{clock(r)}" + r.choice(["Z", "+02:00", ".250Z", "-05:00"]),
    "time": lambda r: clock(r) + r.choice(["Z", "+01:00"]),
    "email": lambda r: f"{r.choice(['ana', 'li', 'sam.k', 'ops'])}@{r.choice(['example.com', 'mail.org'])}",
    "uri": lambda r: r.choice(["https://example.com/", "https://api.example.org/v1/items?id=7",
                               "http://localhost:8080/health"]),
    "uuid": lambda r: "%08x-%04x-4%03x-a%03x-%012x" % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12),
                                                        r.getrandbits(12), r.getrandbits(48)),
    "ipv4": lambda r: ".".join(str(r.randint(0, 255)) for _ in range(4)),
    "ipv6": lambda r: r.choice(["::1", "2001:db8::8a2e:370:7334", "fe80::1"]),
    "hostname": lambda r: r.choice(["example.com", "db-1.internal", "localhost"]),
}


def from_pattern(pattern, rng, tries=20):
    """A string that `re.search(pattern, s)` accepts, made from the pattern's own syntax."""
    try:
        tree = sre_parse.parse(pattern)
        rx = re.compile(pattern)
    except (re.error, RecursionError):
        return None
    for _ in range(tries):
        try:
            v = "".join(emit(tree, rng))
        except (ValueError, RecursionError):
            return None
        if rx.search(v):
            return v
    return None


def emit(tree, rng):
    out = []
    for op, av in tree:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(av))
        elif name == "NOT_LITERAL":
            out.append("x" if av != ord("x") else "y")
        elif name == "ANY":
            out.append(rng.choice(string.ascii_letters))
        elif name == "IN":
            out.append(pick_in(av, rng))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            lo, hi, sub = av
            for _ in range(rng.randint(lo, min(hi, lo + 3))):
                out.extend(emit(sub, rng))
        elif name == "SUBPATTERN":
            out.extend(emit(av[-1], rng))
        elif name == "BRANCH":
            out.extend(emit(rng.choice(av[1]), rng))
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        elif name == "CATEGORY":
            out.append(category(av))
        else:
            raise ValueError(name)
    return out


def category(av):
    return {"CATEGORY_DIGIT": "7", "CATEGORY_SPACE": " "}.get(str(av), "k")


def pick_in(items, rng):
    choices, negate = [], False
    for op, av in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            choices.append(chr(av))
        elif name == "RANGE":
            choices.append(chr(rng.randint(av[0], av[1])))
        elif name == "CATEGORY":
            choices.append(category(av))
    if negate:
        return next(c for c in "kqzQ7_" if c not in choices)
    return rng.choice(choices) if choices else "k"


# ---------------------------------------------------------------- the classic mistakes

def sites(schema, value, root, gen, path=()):
    """Every (schema, container, key) where a value sits in the generated arguments."""
    s = gen.resolve(schema, root)
    if not isinstance(s, dict):
        return []
    found = []
    if isinstance(value, dict):
        props = s.get("properties") if isinstance(s.get("properties"), dict) else {}
        for k, v in value.items():
            sub = gen.resolve(props.get(k, {}), root)
            found.append((sub, s, value, k))
            found.extend(sites(sub, v, root, gen, path + (k,)))
    elif isinstance(value, list):
        items = s.get("items") if isinstance(s.get("items"), dict) else {}
        for i, v in enumerate(value):
            found.append((gen.resolve(items, root), s, value, i))
            found.extend(sites(items, v, root, gen, path + (i,)))
    return found


def objects(schema, value, root, gen):
    """Every (object schema, dict value) in the arguments, the root first."""
    s = gen.resolve(schema, root)
    out = [(s, value)] if isinstance(value, dict) and isinstance(s, dict) else []
    for sub, _, container, key in sites(schema, value, root, gen):
        v = container[key]
        if isinstance(v, dict):
            out.append((sub, v))
    return out


def type_of(s):
    t = s.get("type") if isinstance(s, dict) else None
    return set(t) if isinstance(t, list) else {t} if isinstance(t, str) else set()


def misspell(name, rng):
    if "_" in name:
        parts = name.split("_")
        return parts[0] + "".join(p.title() for p in parts[1:])
    camel = re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m[1].lower(), name)
    if camel != name:
        return camel
    return name + "s" if rng.random() < 0.5 else name[:-1] if len(name) > 3 else name + "_id"


def near_miss(v, rng):
    choices = [v.upper(), v.title(), v + "s", v.replace("_", " "), v.replace("_", "-"), " " + v, v.lower()]
    choices = [c for c in choices if c != v]
    return rng.choice(choices) if choices else v + "x"


def past_bound(s, v, rng):
    """A value just past one of the schema's bounds, or None when it has none that fits."""
    options = []
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        for key, delta in (("maximum", 1), ("exclusiveMaximum", 0), ("minimum", -1), ("exclusiveMinimum", 0)):
            b = s.get(key)
            if isinstance(b, (int, float)) and not isinstance(b, bool):
                options.append(b + delta * rng.choice([1, 10, 99999999]) if delta else b)
    if isinstance(v, str):
        if isinstance(s.get("maxLength"), int):
            options.append(v + "x" * (s["maxLength"] + 1 - len(v)))
        if isinstance(s.get("minLength"), int) and s["minLength"] > 0:
            options.append(v[: s["minLength"] - 1])
    if isinstance(v, list):
        if isinstance(s.get("maxItems"), int):
            options.append(v + [v[0] if v else "x"] * (s["maxItems"] + 1 - len(v)))
        if isinstance(s.get("minItems"), int) and s["minItems"] > 0:
            options.append(v[: s["minItems"] - 1])
    return rng.choice(options) if options else None


BAD_DATES = {"date": ["2026-02-30", "2026-13-01", "30/01/2026", "tomorrow", "2026-2-3"],
             "date-time": ["2026-02-30T10:00:00Z", "2026-02-30T10:00", "2026-01-15 10:00", "2026-01-15T25:00:00Z",
                           "2026-01-15"],
             "time": ["25:00:00Z", "10:00", "10:61:00Z"]}


def mistakes_for(args, schema, gen):
    """Mistake kind -> list of zero-argument edits that make it, for these arguments."""
    rng = gen.rng
    edits = {k: [] for k in MISTAKES}
    for s, value in objects(schema, args, schema, gen):
        req = [r for r in s.get("required", []) if r in value] if isinstance(s.get("required"), list) else []
        for r in req:
            edits["missing_required"].append(lambda value=value, r=r: value.pop(r))
        props = s.get("properties") if isinstance(s.get("properties"), dict) else {}
        names = list(props) or list(value)
        def extra(value=value, names=names):
            key = misspell(rng.choice(names), rng) if names and rng.random() < 0.6 else rng.choice(EXTRA_KEYS)
            if key not in value:
                value[key] = rng.choice([True, 10, "json", rng.choice(WORDS)])
        edits["extra_key"].append(extra)
    for s, parent, container, key in sites(schema, args, schema, gen):
        v, t = container[key], type_of(s)
        def put(new, container=container, key=key):
            return lambda: container.__setitem__(key, new)
        if "null" not in t and t and "enum" not in s:
            edits["null"].append(put(None))
        if isinstance(v, (int, float)) and not isinstance(v, bool) and t & {"integer", "number"}:
            edits["string_number"].append(put(str(v)))
        if isinstance(v, int) and not isinstance(v, bool) and "integer" in t:
            edits["bool_int"].append(put(rng.random() < 0.5))
            edits["float_int"].append(put(v + 0.5 if rng.random() < 0.5 else float(v)))
        b = past_bound(s, v, rng)
        if b is not None:
            edits["past_bound"].append(put(b))
        if isinstance(v, str) and isinstance(s.get("enum"), list) and v in s["enum"]:
            edits["enum_near_miss"].append(put(near_miss(v, rng)))
        if isinstance(v, str) and v:
            edits["trailing_newline"].append(put(v + "\n"))
        if isinstance(v, str) and s.get("format") in BAD_DATES:
            edits["bad_date"].append(put(rng.choice(BAD_DATES[s["format"]])))
    return {k: e for k, e in edits.items() if e}


# ---------------------------------------------------------------- the file

def generated_calls(decls, n, seed):
    """n (source, declaration index, args, kind) drawn from the declarations, seeded."""
    rng = random.Random(seed)
    gen = Gen(rng)
    order = list(range(len(decls)))
    rng.shuffle(order)
    picks = order[:n] + [rng.randrange(len(decls)) for _ in range(max(0, n - len(order)))]
    rng.shuffle(picks)
    for i in picks:
        source, decl = decls[i]
        schema = inner_schema(decl)
        args = gen.value(schema, schema)
        if not isinstance(args, dict):
            args = {}
        kind = "valid"
        if rng.random() < MISTAKE_SHARE:
            edits = mistakes_for(args, schema, gen)
            if edits:
                kinds = sorted(edits)
                kind = rng.choices(kinds, weights=[MISTAKES[k] for k in kinds])[0]
                rng.choice(edits[kind])()
        yield source, i, args, kind


def write(path, n, seed, shared=None):
    """Write the file and its .meta.jsonl; return counts by kind."""
    shared = shared or shared_dir()
    decls = declarations(shared)
    texts = {}
    counts = {}
    rng = random.Random(seed ^ 0x5EED)

    def schema_text(decl):
        key = id(decl)
        if key not in texts:
            texts[key] = (json.dumps(decl, ensure_ascii=False), decl)  # keeps decl alive, so id() stays unique
        return texts[key][0]

    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as out, open(path + ".meta.jsonl.tmp", "w", encoding="utf-8") as meta:
        def emit_case(source, decl, args, kind):
            counts[kind] = counts.get(kind, 0) + 1
            args_json = json.dumps(args, ensure_ascii=False)
            if kind != "real" and rng.random() < ARGS_TEXT_SHARE:
                if rng.random() < TRUNCATED_SHARE and len(args_json) > 2:
                    args_json, kind = args_json[: rng.randint(1, len(args_json) - 1)], "truncated_text"
                member = f'"args_text": {json.dumps(args_json, ensure_ascii=False)}'
            else:
                member = f'"args": {args_json}'
            out.write(f'{{"schema": {schema_text(decl)}, {member}}}\n')
            meta.write(json.dumps({"source": source, "kind": kind}, ensure_ascii=False) + "\n")

        for source, decl, args in real_calls(shared):
            emit_case(source, decl, args, "real")
        for source, i, args, kind in generated_calls(decls, n, seed):
            emit_case(source, decls[i][1], args, kind)
    os.replace(path + ".meta.jsonl.tmp", path + ".meta.jsonl")
    os.replace(tmp, path)
    return {"declarations": len(decls), "kinds": counts}


def ensure(n=100_000, seed=7, data_dir=None, force=False):
    """The path of the real-call file for (n, seed), written when missing. Its name carries a
    hash of this script, so a change to the generator writes a new file."""
    data_dir = data_dir or os.path.join(TARGET, "bench-data")
    os.makedirs(data_dir, exist_ok=True)
    with open(os.path.abspath(__file__), "rb") as f:
        tag = hashlib.sha1(f.read()).hexdigest()[:8]
    path = os.path.join(data_dir, f"realcalls-{n}-{seed}-{tag}.jsonl")
    if force or not (os.path.exists(path) and os.path.exists(path + ".meta.jsonl")):
        write(path, n, seed)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generated", type=int, default=100_000, help="generated calls (default 100000)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", help="the file to write (default target/bench-data/realcalls-N-SEED-HASH.jsonl)")
    ap.add_argument("--force", action="store_true", help="write it even if it exists")
    a = ap.parse_args()
    if a.out:
        stats = write(a.out, a.generated, a.seed)
        path = a.out
    else:
        path = ensure(a.generated, a.seed, force=True) if a.force else ensure(a.generated, a.seed)
        stats = None
    lines = sum(1 for _ in open(path, encoding="utf-8"))
    print(f"{path}: {lines:,} lines, {os.path.getsize(path) / 1e6:.1f} MB")
    if stats:
        print(json.dumps(stats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
