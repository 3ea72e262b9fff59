# tooldojo practice harness (Python). Reads the grader's start line, takes its own copies of
# everything it uses, loads the learner's file, then answers one JSON line per request on
# file descriptor 3. The learner's own prints go to stdout/stderr, which the grader reads
# separately, so they can never be mistaken for an answer.
#
# An answer carries data, never a verdict: the result as JSON, and the store as JSON after
# the call and after the caller's edit. The grader compares them with what it sent. All the
# harness uses is bound inside _harness() before the learner's code runs, so rebinding a
# module attribute (json.dumps, this module's names) changes nothing here. Code in the same
# process can still reach these objects (gc, frames, ctypes): the grader is a teacher, not a
# proctor.


def _harness():
    import importlib.util
    import os
    import io
    from importlib.machinery import SourceFileLoader
    import sys
    import traceback
    from json.decoder import WHITESPACE, JSONDecoder
    from json.encoder import encode_basestring_ascii as quote

    scan, skip = JSONDecoder().scan_once, WHITESPACE.match
    os_write, os_fdopen, abspath = os.write, os.fdopen, os.path.abspath
    _type, _len, _sorted, _repr, _str, _callable = type, len, sorted, repr, str, callable
    _dict, _list, _tuple, _int, _float = dict, list, tuple, int, float
    items, get, setitem = dict.items, dict.get, dict.__setitem__
    int_text, float_text, join, encode_text = int.__repr__, float.__repr__, str.join, str.encode
    getattr_, vars_, _enumerate, _isinstance, _set, _next = getattr, vars, enumerate, isinstance, set, next
    inf = float("inf")
    extract_tb, format_exception_only = traceback.extract_tb, traceback.format_exception_only
    types = {"str": str, "int": int, "float": float, "bool": bool, "list": list, "dict": dict}
    functions = ("validate_tool_args", "execute_tool")
    learner = abspath(sys.argv[1])
    printed = [0]

    class Counted(io.RawIOBase):
        """A standard stream's bytes, counted on their way to the grader: each answer says
        how many there were in all, and the grader takes a row's output only once it has
        them all, so a print is always counted on the row that made it."""

        def __init__(self, inner):
            self.inner = inner

        def writable(self):
            return True

        def write(self, data):
            n = self.inner.write(data)
            printed[0] += n or 0
            return n

        def flush(self):
            self.inner.flush()

        def fileno(self):
            return self.inner.fileno()

    def counted(stream):
        return io.TextIOWrapper(
            Counted(stream.buffer),
            encoding=stream.encoding,
            errors=stream.errors,
            write_through=True,
        )

    sys.stdout, sys.stderr = counted(sys.stdout), counted(sys.stderr)
    flushes = (sys.stdout.flush, sys.stderr.flush)

    class Stop(Exception):
        pass

    class Raw:
        """JSON text already written (by this harness)."""

        def __init__(self, text):
            self.text = text

    def encode(value, limit):
        """Plain JSON data as text (keys sorted), or None for anything else or too much."""
        out = []
        seen = [0]

        def walk(v, depth):
            seen[0] += 1
            if seen[0] > 100000 or depth > 64:
                raise Stop()
            t = _type(v)
            if v is None:
                out.append("null")
            elif v is True:
                out.append("true")
            elif v is False:
                out.append("false")
            elif t is _int:
                out.append(int_text(v))
            elif t is _float:
                if v != v or v == inf or v == -inf:
                    raise Stop()
                out.append(float_text(v))
            elif t is _str:
                out.append(quote(v))
            elif t is Raw:
                out.append(v.text)
            elif t is _list or t is _tuple:
                out.append("[")
                for i, item in _enumerate(v):
                    if i:
                        out.append(",")
                    walk(item, depth + 1)
                out.append("]")
            elif t is _dict:
                pairs = _list(items(v))
                for key, _ in pairs:
                    if _type(key) is not _str:
                        raise Stop()
                out.append("{")
                for i, (key, item) in _enumerate(_sorted(pairs, key=first)):
                    if i:
                        out.append(",")
                    out.append(quote(key))
                    out.append(":")
                    walk(item, depth + 1)
                out.append("}")
            else:
                raise Stop()

        try:
            walk(value, 0)
        except (Stop, ValueError, RecursionError):
            return None
        text = join("", out)
        return text if _len(text) <= limit else None

    def first(pair):
        return pair[0]

    def loads(text):
        """json.loads, from the parts taken at start."""
        at = skip(text, 0).end()
        try:
            value, end = scan(text, at)
        except StopIteration:
            raise ValueError("Expecting value") from None
        if skip(text, end).end() != _len(text):
            raise ValueError("Extra data")
        return value

    def send(message):
        data = encode_text(encode(message, 1 << 30) or '{"error": "unencodable answer"}', "ascii")
        data += b"\n"
        done = 0
        while done < _len(data):
            done += os_write(3, data[done:])

    def settle():
        """Hand everything printed so far to the pipes, and say how much that is in all."""
        for flush in flushes:
            try:
                flush()
            except BaseException:
                pass
        return printed[0]

    def where(exc):
        """The line of the learner's file an exception came from, if any."""
        line = getattr_(exc, "lineno", None) if _isinstance(exc, SyntaxError) else None
        for frame in extract_tb(exc.__traceback__):
            if abspath(frame.filename) == learner:
                line = frame.lineno
        return line if _type(line) is _int else None

    def describe_error(exc):
        try:
            text = join("", format_exception_only(_type(exc), exc)).strip().splitlines()
            message = text[-1] if text else _type(exc).__name__
        except BaseException:
            message = "an exception that could not be shown"
        return {"error": _str(message)[:400], "line": where(exc)}

    def described(value):
        """The value as JSON, taken now (before anyone edits it), with its type name."""
        name = _str(_type(value).__name__)
        text = encode(value, 65536)
        if text is not None:
            return {"type": name, "value": Raw(text)}
        try:
            shown = _str(_repr(value))[:400]
        except BaseException:
            shown = "?"
        return {"type": name, "repr": shown}

    def snapshot(records):
        text = encode(records, 1 << 18)
        return Raw(text) if text is not None else None

    def run_validate(fn, request):
        schema = {name: types[kind] for name, kind in request["schema"]}
        required = _set(request["required"])
        args = loads(request["args_text"])
        return {"result": described(fn(schema, required, args))}

    def run_execute(fn, request):
        records = {key: value for key, value in request["records"]}
        args = loads(request["args_text"])
        result = fn(request["tool"], args, request["context"], records)
        answer = {"result": described(result), "store_after": snapshot(records)}
        if request.get("mutate"):
            ticket = get(result, "ticket") if _type(result) is _dict else None
            try:
                if _type(ticket) is _dict:
                    setitem(ticket, "title", request["mutate_title"])
                    setitem(ticket, "status", "deleted")
                elif _isinstance(ticket, _dict):
                    ticket["title"] = request["mutate_title"]
                    ticket["status"] = "deleted"
            except BaseException:
                pass
            answer["store_after_edit"] = snapshot(records)
        return answer

    def read_lines(chan):
        for raw in chan:
            yield loads(raw.decode("utf-8"))

    chan = read_lines(os_fdopen(3, "rb", closefd=False))
    nonce = _next(chan, {}).get("start", "")
    try:
        # An explicit loader: a file named sol.txt, or with no extension, is Python too
        # when the grader says so (--lang python).
        loader = SourceFileLoader("solution", learner)
        spec = importlib.util.spec_from_file_location("solution", learner, loader=loader)
        module = importlib.util.module_from_spec(spec)
        sys.modules["solution"] = module
        spec.loader.exec_module(module)
    except BaseException as exc:  # a syntax error, an import error, an exit at import time
        send({"nonce": nonce, "load_error": describe_error(exc), "printed": settle()})
        return
    found = {name: getattr_(module, name, None) for name in functions}
    found = {name: fn for name, fn in items(found) if _callable(fn)}
    defined = _sorted(_str(n)[:100] for n in vars_(module) if not _str(n).startswith("_"))
    hello = {"functions": _sorted(found), "defined": defined[:20]}
    send({"nonce": nonce, "hello": hello, "printed": settle()})
    for request in chan:
        name = "validate_tool_args" if request["fn"] == "validate" else "execute_tool"
        try:
            if request["fn"] == "validate":
                answer = run_validate(found[name], request)
            else:
                answer = run_execute(found[name], request)
        except BaseException as exc:
            answer = describe_error(exc)
        answer["nonce"] = nonce
        answer["printed"] = settle()
        send(answer)


_harness()
