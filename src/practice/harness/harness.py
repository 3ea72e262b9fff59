# tooldojo practice harness (Python). Loads the learner's file, then answers one JSON line
# per request on file descriptor 3. The learner's own prints go to stdout/stderr, which the
# grader reads separately, so they can never be mistaken for an answer.
import importlib.util
import json
import os
import sys
import traceback

TYPES = {"str": str, "int": int, "float": float, "bool": bool, "list": list, "dict": dict}
FUNCTIONS = ("validate_tool_args", "execute_tool")
LEARNER = os.path.abspath(sys.argv[1])


def send(chan, message):
    text = json.dumps(message, default=repr)
    chan.write((text + "\n").encode("utf-8", "replace"))
    chan.flush()


def where(exc):
    """The line of the learner's file an exception came from, if any."""
    line = getattr(exc, "lineno", None) if isinstance(exc, SyntaxError) else None
    for frame in traceback.extract_tb(exc.__traceback__):
        if os.path.abspath(frame.filename) == LEARNER:
            line = frame.lineno
    return line


def describe_error(exc):
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()
    message = text[-1] if text else type(exc).__name__
    return {"error": message[:400], "line": where(exc)}


def described(value):
    """The value as JSON, taken now (before anyone edits it), with its Python type name."""
    try:
        text = json.dumps(value, allow_nan=False)
        if len(text) <= 65536:
            return {"type": type(value).__name__, "value": json.loads(text)}
    except (TypeError, ValueError, RecursionError):
        pass
    return {"type": type(value).__name__, "repr": repr(value)[:400]}


def load():
    spec = importlib.util.spec_from_file_location("solution", LEARNER)
    module = importlib.util.module_from_spec(spec)
    sys.modules["solution"] = module
    spec.loader.exec_module(module)
    return module


def snapshot(records):
    try:
        return json.dumps(records, sort_keys=True, default=repr)
    except Exception:  # the learner put something strange in the store
        return None


def run_validate(fn, request):
    schema = {name: TYPES[kind] for name, kind in request["schema"]}
    required = set(request["required"])
    args = json.loads(request["args_text"])
    return {"result": described(fn(schema, required, args))}


def run_execute(fn, request):
    records = {key: value for key, value in request["records"]}
    before = snapshot(records)
    args = json.loads(request["args_text"])
    context = request["context"]
    result = fn(request["tool"], args, context, records)
    answer = {"result": described(result)}
    answer["store_changed"] = snapshot(records) != before
    if request.get("mutate"):
        ticket = result.get("ticket") if isinstance(result, dict) else None
        if isinstance(ticket, dict):
            ticket["title"] = request["mutate_title"]
            ticket["status"] = "deleted"
        answer["store_changed_by_caller"] = snapshot(records) != before
    return answer


def main():
    chan_in = os.fdopen(3, "rb")
    chan_out = os.fdopen(os.dup(3), "wb")
    try:
        module = load()
    except BaseException as exc:  # a syntax error, an import error, an exit at import time
        send(chan_out, {"load_error": describe_error(exc)})
        return
    found = {name: getattr(module, name, None) for name in FUNCTIONS}
    found = {name: fn for name, fn in found.items() if callable(fn)}
    defined = sorted(n for n in vars(module) if not n.startswith("_"))
    send(chan_out, {"hello": {"functions": sorted(found), "defined": defined[:20]}})
    for raw in chan_in:
        request = json.loads(raw)
        name = "validate_tool_args" if request["fn"] == "validate" else "execute_tool"
        try:
            if request["fn"] == "validate":
                answer = run_validate(found[name], request)
            else:
                answer = run_execute(found[name], request)
        except BaseException as exc:
            answer = describe_error(exc)
        send(chan_out, answer)


main()
