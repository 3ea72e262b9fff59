#!/usr/bin/env python3
"""Python `jsonschema` over the JSON-lines cases of `tooldojo validate --jsonl`: a timing peer
and an independent test oracle.

    python3 benches/py_jsonschema.py [--remotes DIR] [FILE]      # FILE, or stdin without one

One case a line, `{"schema": S, "args": A}` (or `"args_text": "<raw text>"` instead of `args`),
with optional `"required": [...]` (flat form only), `"form": "flat"|"json-schema"|"tool"` and
`"formats": "assert"|"annotate"` (default assert); other members are ignored. One line out
for each line in, in order: `{"ok": true, "error": ""}` or `{"ok": false, "error": "..."}`; a
line that is not a case gives `{"ok": false, "error": "bad case: ..."}` and the run goes on.
Exit 0 unless the input cannot be read.

Where the JSON Schema is (see `extract`), first match wins:
  1. `form` names it: `flat`, `json-schema` (S itself), `tool` (a declaration as below).
  2. S is a string: the schema of that name in fixtures/schemas.json (its `required` unless
     the case gives one).
  3. S is `true` or `false`: a boolean JSON Schema.
  4. S is a tool declaration; the schema is the member named here (none: bad case):
       OpenAI Chat       {"type": "function", "function": {"name", "parameters", ...}}
                         -> function.parameters
       MCP Tool          {"name", "inputSchema", ...}              -> inputSchema
       Anthropic, and tooldojo's own form {"name", "input_schema", ...} -> input_schema
       OpenAI Responses  {"type": "function", "name", "parameters", ...}, and any other
                         {"name": "<string>", "parameters": ...}    -> parameters
     An OpenAI function without `parameters` takes no arguments: `{"type": "object",
     "properties": {}, "additionalProperties": false}`. A declaration holding two of
     `function`, `inputSchema`, `input_schema`, `parameters` is ambiguous (bad case). The
     envelope's other members (`description`, `strict`, `annotations`, `_meta`, ...) are ignored.
  5. Every value of S is a Python type name (str int float bool list dict): the flat form,
     `{"type": "object", "properties": {name: {"type": ...}}, "required": [...],
     "additionalProperties": false}`, where `int` refuses a float literal (`3.0`) and `float`
     an integer literal (`3`), as Python's types do. When every key is also a JSON Schema
     keyword taking a string (`title`, `description`, ...) and no `required` list is given, the
     two readings disagree and the case is ambiguous (bad case), `{}` included.
  6. Any other object is a bare JSON Schema.
A `required` list beside anything but the flat form is a bad case.

The dialect comes from the schema's `$schema` (`jsonschema.validators.validator_for`; none or
an unknown one: draft 2020-12), and the schema is checked against that dialect's meta-schema
once (a schema that fails is a bad case). With formats asserted, the dialect's own format
checker is used; for draft 2020-12 it covers date-time, date, time, duration, email,
idn-email, hostname, idn-hostname, ipv4, ipv6, uri, uri-reference, iri, iri-reference,
uri-template, uuid, json-pointer, relative-json-pointer and regex (draft-07's has no
duration and no uuid, as that draft defines none). The packages the checkers need come with
`pip install "jsonschema[format]"`, which runs by itself when they are missing; a checker
still missing is named on stderr. Unknown formats are notes, as the standard says.

No reference is ever fetched from the network (jsonschema would, by default): a `$ref` to
another document is unresolvable, and the case that reaches it is a bad case. With
`--remotes DIR`, `http://localhost:1234/PATH` is read from DIR/PATH (the JSON Schema Test
Suite's `remotes/`, as its refRemote tests expect).

Validators are compiled once per distinct schema text (the raw bytes of the `schema` value,
with `required`, `form` and `formats`): a line that repeats an earlier schema's bytes is not
parsed again. Reading follows tooldojo's contract where Python's `json` is looser: `NaN` and
`Infinity` are not JSON, and an object that repeats a key in `args` or `args_text` gives
`duplicate arg: NAME`. The error text is jsonschema's first error and where it is; only `ok`
is meant to be compared with other validators.
"""
import importlib.util
import json
import os
import re
import site
import subprocess
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# jsonschema and the modules its format checkers import (jsonschema[format]).
FORMAT_MODULES = ["jsonschema", "fqdn", "idna", "isoduration", "jsonpointer", "rfc3339_validator", "rfc3987",
                  "uri_template"]
FORMATS = ["date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
           "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uri-template", "uuid",
           "json-pointer", "relative-json-pointer", "regex"]
PY_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean", "list": "array",
            "dict": "object"}
# Keywords that take a string: an object of only these, each naming a Python type, reads as
# either form (tooldojo's own rule).
STRING_KEYWORDS = {"title", "description", "default", "$comment", "$id", "$schema"}
DECLARATION_KEYS = ("function", "inputSchema", "input_schema", "parameters")
NO_PARAMETERS = {"type": "object", "properties": {}, "additionalProperties": False}
FORMS = {"flat", "json-schema", "tool"}
HEAD = 48  # characters of a schema's text that pick the candidates for a cache hit


def ensure_format_packages():
    """Install jsonschema[format] with pip when a format checker's module is missing."""
    if all(importlib.util.find_spec(m) for m in FORMAT_MODULES):
        return
    print("installing jsonschema[format] (pip install --user)...", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--user", "jsonschema[format]"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    site.addsitedir(site.getusersitepackages())
    importlib.invalidate_caches()


ensure_format_packages()
import jsonschema  # noqa: E402
from jsonschema import Draft202012Validator  # noqa: E402
from jsonschema.exceptions import SchemaError  # noqa: E402
from jsonschema.validators import extend, validator_for  # noqa: E402
from referencing import Registry, Resource  # noqa: E402
from referencing.exceptions import NoSuchResource  # noqa: E402
from referencing.jsonschema import DRAFT7, DRAFT202012  # noqa: E402

MISSING = [f for f in FORMATS if f not in Draft202012Validator.FORMAT_CHECKER.checkers]
if MISSING:
    print(f"py_jsonschema: no checker for the formats {', '.join(MISSING)} "
          f"(pip install 'jsonschema[format]'); they are not checked", file=sys.stderr)


class BadCase(Exception):
    """The line is not a case; its verdict is `bad case: ...`."""


class Duplicate(Exception):
    """An object in the arguments repeats a key."""


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise Duplicate(key)
        seen[key] = value
    return seen


DECODER = json.JSONDecoder(parse_constant=reject_constant)
SCAN = DECODER.scan_once
STRICT = json.JSONDecoder(parse_constant=reject_constant, object_pairs_hook=no_duplicates)
WS = re.compile(r"[ \t\n\r]*")


def py_type(value):
    return {dict: "dict", list: "list", str: "str", bool: "bool", int: "int", float: "float"}.get(
        type(value), "NoneType")


# ---------------------------------------------------------------- the flat form's number types

def py_number(validator, want, instance, schema):
    """`pyType`: a number written as Python reads that type (`int` no float literal, `float` no int)."""
    if isinstance(instance, bool) or not isinstance(instance, (int, float)):
        return
    if want == "int" and isinstance(instance, float):
        yield jsonschema.ValidationError("a float literal is not an integer")
    elif want == "float" and isinstance(instance, int):
        yield jsonschema.ValidationError("an integer literal is not a float")


FLAT_CLASSES = {}


def flat_class(cls):
    if cls not in FLAT_CLASSES:
        FLAT_CLASSES[cls] = extend(cls, validators={"pyType": py_number})
    return FLAT_CLASSES[cls]


# ---------------------------------------------------------------- where the JSON Schema is

NAMED = None


def named_schema(name):
    global NAMED
    if NAMED is None:
        try:
            with open(os.path.join(ROOT, "fixtures", "schemas.json"), encoding="utf-8") as f:
                NAMED = json.load(f)
        except (OSError, ValueError):
            NAMED = {}
    if name not in NAMED:
        raise BadCase(f"no schema named {json.dumps(name)}")
    return NAMED[name]


def flat_schema(fields, required):
    properties = {}
    for name, ty in fields.items():
        if not isinstance(ty, str) or ty not in PY_TYPES:
            raise BadCase(f"schema: flat schema: unknown type {json.dumps(ty)} for {json.dumps(name)}")
        prop = {"type": PY_TYPES[ty]}
        if ty in ("int", "float"):
            prop["pyType"] = ty
        properties[name] = prop
    if any(not r for r in required):
        raise BadCase("schema: flat schema: an empty name in the required list")
    return {"type": "object", "properties": properties, "required": list(dict.fromkeys(required)),
            "additionalProperties": False}


def declaration(s):
    """The JSON Schema inside a tool declaration, or None when `s` is not one."""
    held = [k for k in DECLARATION_KEYS if k in s]
    if s.get("type") == "function" and isinstance(s.get("function"), dict):
        if len(held) > 1:
            raise BadCase(f"schema: an OpenAI Chat tool with {', '.join(held[1:])} beside \"function\"")
        fn = s["function"]
        params = fn.get("parameters", NO_PARAMETERS)
        where = "function.parameters"
    elif len(held) > 1:
        raise BadCase(f"schema: the declaration is ambiguous: it holds {' and '.join(held)}")
    elif held == ["inputSchema"] or held == ["input_schema"]:
        where = held[0]
        params = s[where]
    elif held == ["parameters"] and isinstance(s.get("name"), str):
        where = "parameters"
        params = s[where]
    elif not held and s.get("type") == "function" and isinstance(s.get("name"), str):
        where, params = "parameters", NO_PARAMETERS
    else:
        return None
    if not isinstance(params, (dict, bool)):
        raise BadCase(f"schema: the declaration's {where} must be a JSON object, got {py_type(params)}")
    return params


def no_required(required):
    if required:
        raise BadCase("a separate required list applies only to the flat form; "
                      "a JSON Schema carries its own \"required\"")


def extract(s, required, form):
    """(the JSON Schema, is it the flat form) for a case's schema, in whichever shape it is."""
    if isinstance(s, str) and form is None:
        entry = named_schema(s)
        return extract(entry.get("schema"), required or entry.get("required") or [], None)
    if form == "flat":
        if not isinstance(s, dict):
            raise BadCase(f"schema: a flat schema must be a JSON object, got {py_type(s)}")
        return flat_schema(s, required), True
    if form == "json-schema" or (form is None and isinstance(s, bool)):
        if not isinstance(s, (dict, bool)):
            raise BadCase(f"schema: a JSON Schema must be an object or a boolean, got {py_type(s)}")
        no_required(required)
        return s, False
    if not isinstance(s, dict):
        raise BadCase(f"schema: a schema must be a JSON object, got {py_type(s)}")
    inner = declaration(s)
    if inner is not None:
        no_required(required)
        return inner, False
    if form == "tool":
        raise BadCase("schema: not a tool declaration (no function, inputSchema, input_schema or parameters)")
    if all(isinstance(v, str) and v in PY_TYPES for v in s.values()):
        if not required and all(k in STRING_KEYWORDS for k in s):
            raise BadCase(f"schema: the schema {json.dumps(s)} is ambiguous: name its form "
                          f"(flat or json-schema)")
        return flat_schema(s, required), True
    no_required(required)
    return s, False


def compile_case(schema, required, form, formats, adapt=None):
    """A ready validator for one distinct (schema, required, form, formats); `adapt` may
    change the validator class (benches/deviations.py judges a case under other rules)."""
    js, flat = extract(schema, required, form)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an unknown $schema: draft 2020-12, without the warning
        cls = validator_for(js, default=Draft202012Validator)
    if flat:
        cls = flat_class(cls)
    if adapt:
        cls = adapt(cls)
    try:
        cls.check_schema(js)
    except SchemaError as e:
        raise BadCase(f"schema: {e.message} (at {e.json_path})") from None
    checker = cls.FORMAT_CHECKER if formats == "assert" else None
    return cls(js, format_checker=checker, registry=REGISTRY)


# ---------------------------------------------------------------- references: never the network

REMOTE_BASE = "http://localhost:1234/"
REMOTES = None  # the folder `--remotes` names


def retrieve(uri):
    """A document a `$ref` names: from --remotes for the test suite's localhost, else none."""
    if REMOTES and uri.startswith(REMOTE_BASE):
        path = os.path.join(REMOTES, *uri[len(REMOTE_BASE):].split("#")[0].split("/"))
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            # The suite's remotes say no $schema; those under draft7/ are read as draft-07.
            spec = DRAFT7 if uri[len(REMOTE_BASE):].startswith("draft7/") else DRAFT202012
            return Resource.from_contents(doc, default_specification=spec)
        except (OSError, ValueError):
            pass
    raise NoSuchResource(ref=uri)


REGISTRY = Registry(retrieve=retrieve)


# ---------------------------------------------------------------- reading a line

class Reader:
    """Reads case lines; keeps the compiled validators and the schema texts seen."""

    def __init__(self, adapt=None):
        self.adapt = adapt
        self.texts = {}      # first HEAD characters -> schema texts seen starting so
        self.short = []      # schema texts shorter than HEAD
        self.values = {}     # schema text -> its parsed value
        self.compiled = {}   # (schema text, required, form, formats) -> validator or BadCase

    def schema_at(self, line, i):
        """The schema value starting at line[i]: (its text, its end), parsed only on a miss."""
        for text in self.texts.get(line[i:i + HEAD], ()):
            if line.startswith(text, i):
                return text, i + len(text)
        for text in self.short:
            if line.startswith(text, i):
                return text, i + len(text)
        value, end = SCAN(line, i)
        text = line[i:end]
        if text not in self.values:
            self.values[text] = value
            # A number's text may be the start of a longer one: numbers are parsed every time.
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                if len(text) < HEAD:
                    self.short.append(text)
                else:
                    self.texts.setdefault(text[:HEAD], []).append(text)
        return text, end

    def members(self, line):
        """The case's members: name -> value (the schema's as its text)."""
        i = WS.match(line, 0).end()
        if i == len(line):
            raise BadCase("empty line")
        if line[i] != "{":
            value, end = SCAN(line, i)
            if WS.match(line, end).end() != len(line):
                raise ValueError(f"extra text at column {end + 1}")
            raise BadCase("a case must be a JSON object")
        got = {}
        i = WS.match(line, i + 1).end()
        if line[i] == "}":
            return got, i + 1
        while True:
            if line[i] != '"':
                raise ValueError(f"expected a member name at column {i + 1}")
            key, i = SCAN(line, i)
            i = WS.match(line, i).end()
            if line[i] != ":":
                raise ValueError(f"expected ':' at column {i + 1}")
            i = WS.match(line, i + 1).end()
            if key in got:
                raise BadCase(f"the case repeats the key {json.dumps(key)}")
            if key == "schema":
                got[key], i = self.schema_at(line, i)
            elif key == "args":
                start = i
                value, i = SCAN(line, i)
                got[key] = (value, line[start:i])
            else:
                got[key], i = SCAN(line, i)
            i = WS.match(line, i).end()
            if line[i] == ",":
                i = WS.match(line, i + 1).end()
            elif line[i] == "}":
                return got, i + 1
            else:
                raise ValueError(f"expected ',' or '}}' at column {i + 1}")

    def read(self, line):
        """(validator, arguments) for one line; BadCase when it is not a case."""
        try:
            got, end = self.members(line)
            if WS.match(line, end).end() != len(line):
                raise ValueError(f"extra text at column {end + 1}")
        except BadCase:
            raise
        except (ValueError, IndexError, StopIteration, RecursionError) as e:
            raise BadCase(f"the line is not JSON: {describe(e)}") from None
        if "schema" not in got:
            raise BadCase("the case has no \"schema\"")
        if ("args" in got) == ("args_text" in got):
            raise BadCase("both \"args\" and \"args_text\"" if "args" in got else "a case needs args or args_text")
        required = got.get("required", [])
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            raise BadCase("required must be a list of names")
        form = got.get("form")
        if "form" in got and form not in FORMS:
            raise BadCase(f"unknown form {json.dumps(form)} (use flat, json-schema or tool)")
        formats = got.get("formats", "assert")
        if formats not in ("assert", "annotate"):
            raise BadCase(f"unknown formats {json.dumps(formats)} (use assert or annotate)")
        key = (got["schema"], tuple(required), form, formats)
        validator = self.compiled.get(key)
        if validator is None:
            try:
                validator = compile_case(self.values[got["schema"]], required, form, formats, self.adapt)
            except BadCase as e:
                validator = e
            self.compiled[key] = validator
        if isinstance(validator, BadCase):
            raise validator
        if "args" in got:
            return validator, checked_args(*got["args"])
        text = got["args_text"]
        if not isinstance(text, str):
            raise BadCase("args_text must be a string")
        return validator, parse_args_text(text)


def describe(e):
    if isinstance(e, IndexError):
        return "it ends early"
    if isinstance(e, StopIteration):
        return f"expected a value at column {e.value + 1}"
    if isinstance(e, RecursionError):
        return "nested too deeply"
    return str(e)


def key_count(value):
    """Members of every object in `value`, counted."""
    if isinstance(value, dict):
        return len(value) + sum(key_count(v) for v in value.values() if isinstance(v, (dict, list)))
    if isinstance(value, list):
        return sum(key_count(v) for v in value if isinstance(v, (dict, list)))
    return 0


def checked_args(value, text):
    """`args` as read, unless an object in it repeats a key (then a Duplicate verdict).

    Every member has one ':' outside strings, so as many colons as members found means no key
    was repeated; only when there are more is the text read again, pair by pair."""
    if isinstance(value, (dict, list)) and text.count(":") != key_count(value):
        try:
            STRICT.decode(text)
        except Duplicate as d:
            raise ArgsFailure(f"duplicate arg: {d.args[0]}") from None
    return value


class ArgsFailure(Exception):
    """The arguments themselves fail before any schema is applied (not JSON, repeated key)."""


def parse_args_text(text):
    try:
        return STRICT.decode(text)
    except Duplicate as d:
        raise ArgsFailure(f"duplicate arg: {d.args[0]}") from None
    except json.JSONDecodeError as e:
        raise ArgsFailure(f"invalid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except (ValueError, RecursionError) as e:
        raise ArgsFailure(f"invalid JSON: {describe(e)}") from None


def where(error):
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return path[1:] if path.startswith(".") else path


def judge(reader, line):
    try:
        validator, args = reader.read(line)
    except BadCase as e:
        return False, f"bad case: {e}"
    except ArgsFailure as e:
        return False, str(e)
    try:
        error = next(validator.iter_errors(args), None)
    except RecursionError:
        return False, "bad case: schema: its references recurse without end"
    except Exception as e:  # an unresolvable $ref, met only when reached
        return False, f"bad case: schema: {type(e).__name__}: {e}"
    if error is None:
        return True, ""
    at = where(error)
    return False, f"{at}: {error.message}" if at else error.message


def main():
    global REMOTES
    argv = sys.argv[1:]
    if argv[:1] == ["--remotes"] and len(argv) >= 2:
        REMOTES, argv = argv[1], argv[2:]
    if len(argv) > 1 or argv[:1] in (["-h"], ["--help"]) or (argv and argv[0].startswith("--")):
        print(__doc__.split("\n\n")[0] + "\n\n" + __doc__.split("\n\n")[1])
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    try:
        src = open(argv[0], encoding="utf-8", errors="surrogateescape") if argv \
            else open(sys.stdin.fileno(), encoding="utf-8", errors="surrogateescape", closefd=False)
    except OSError as e:
        print(f"py_jsonschema: {e}", file=sys.stderr)
        return 2
    reader = Reader()
    out = []
    dumps = json.dumps
    with src:
        for line in src:
            try:
                line.encode("utf-8")
            except UnicodeEncodeError as e:
                ok, error = False, f"bad case: the line is not UTF-8 (byte {len(line[:e.start].encode('utf-8', 'surrogateescape')) + 1})"
            else:
                ok, error = judge(reader, line)
            out.append('{"ok": true, "error": ""}' if ok else f'{{"ok": false, "error": {dumps(error)}}}')
            if len(out) >= 4096:
                sys.stdout.write("\n".join(out) + "\n")
                out.clear()
    if out:
        sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    sys.exit(main())
