#!/usr/bin/env python3
"""Write the starting corpus of every fuzz target from the shipped fixtures and lessons.

    python3 tests/fuzz/seed.py            # then: cargo +nightly fuzz run TARGET --fuzz-dir tests/fuzz

Files go to tests/fuzz/corpus/TARGET/seed-*; files the fuzzer adds beside them are kept.
"""
import glob
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIX = os.path.join(ROOT, "fixtures")


def load(name):
    with open(os.path.join(FIX, name), encoding="utf-8") as f:
        return json.load(f)


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(d, f"seed-{name}"), "wb") as f:
        f.write(data)


def args_text(case):
    if "args_text" in case:
        return case["args_text"]
    return json.dumps(case.get("args"), ensure_ascii=False)


def main():
    validator = load("validator_cases.json")
    tickets = load("get_ticket_cases.json")
    schemas = load("schemas.json")

    # args: a rule byte, then the args text of every fixture row.
    for i, case in enumerate(validator):
        write("args", f"v{i}", bytes([i % 32]) + args_text(case).encode("utf-8"))
    for i, case in enumerate(tickets):
        if "args" in case or "args_text" in case:
            write("args", f"t{i}", bytes([(i % 8) << 5]) + args_text(case).encode("utf-8"))

    # schema: schema text, required list, args text (one a line).
    for i, case in enumerate(validator):
        name = case["schema"]
        named = schemas.get(name) if isinstance(name, str) else None
        schema = named["schema"] if named else name
        required = (named or {}).get("required", case.get("required", []))
        write("schema", f"v{i}", "\n".join([json.dumps(schema, ensure_ascii=False),
                                             json.dumps(required), args_text(case)]))
    for name, named in schemas.items():
        write("schema", f"s-{name}", "\n".join([json.dumps(named["schema"], ensure_ascii=False),
                                                 json.dumps(named.get("required", [])), "{}"]))

    # jsonl: a rule byte, then case lines built from the fixture rows, a few per file.
    lines = []
    for case in validator:
        line = {"schema": case["schema"]}
        if "required" in case:
            line["required"] = case["required"]
        if "args_text" in case:
            line["args_text"] = case["args_text"]
        else:
            line["args"] = case.get("args")
        lines.append(json.dumps(line, ensure_ascii=False))
    for i in range(0, len(lines), 4):
        write("jsonl", f"v{i}", bytes([0]) + ("\n".join(lines[i:i + 4]) + "\n").encode("utf-8"))

    for path in sorted(glob.glob(os.path.join(FIX, "scenarios", "*.json"))):
        with open(path, "rb") as f:
            write("scenario", os.path.basename(path), f.read())

    lesson_files = sorted(p for p in glob.glob(os.path.join(ROOT, "lessons", "*.md"))
                          if os.path.basename(p).lower() != "readme.md")
    for path in lesson_files:
        with open(path, "rb") as f:
            write("lesson", os.path.basename(path), f.read())

    # audit: a format byte (0: each record recognised), then a log: the shipped example,
    # each of its conversations alone, and the same records in the other formats' shapes.
    with open(os.path.join(FIX, "audit", "support-desk.jsonl"), encoding="utf-8") as f:
        log = f.read()
    write("audit", "example", b"\x00" + log.encode("utf-8"))
    for i, line in enumerate(log.splitlines()):
        write("audit", f"line{i}", bytes([i * 16]) + line.encode("utf-8"))
        rec = json.loads(line)
        chat = {"tools": [{"type": "function", "function": {"name": t["name"],
                           "parameters": t["input_schema"]}} for t in rec["tools"]],
                "messages": []}
        for m in rec["messages"]:
            content = m["content"]
            if isinstance(content, str):
                chat["messages"].append({"role": m["role"], "content": content})
                continue
            for b in content:
                if b["type"] == "tool_use":
                    chat["messages"].append({"role": "assistant", "tool_calls": [
                        {"id": b["id"], "type": "function", "function": {
                            "name": b["name"], "arguments": json.dumps(b["input"])}}]})
                elif b["type"] == "tool_result":
                    chat["messages"].append({"role": "tool", "tool_call_id": b["tool_use_id"],
                                             "content": b["content"]})
                else:
                    chat["messages"].append({"role": m["role"], "content": b.get("text", "")})
        write("audit", f"chat{i}", b"\x00" + json.dumps(chat).encode("utf-8"))
    mcp = [{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "f", "inputSchema":
            {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}]}},
           {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "f", "arguments": {"q": 1}}},
           {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "bad"}], "isError": True}},
           {"jsonrpc": "2.0", "method": "initialize", "id": 3}]
    write("audit", "mcp", b"\x04" + "\n".join(json.dumps(m) for m in mcp).encode("utf-8"))

    # keys: style byte, lesson byte, then a walk through the page (see decode in src/lib.rs).
    walks = [
        b"\x01\x00jjjj\x03\x01\x01\x00\x07\x07\x00\x03nnp?\x03q",
        b"\x01\x00{\"ticket_id\": 5}\x00\x03\x03",
        b"?\x03s h\x07\x07\x00\x01\x0c\x0dGg",
        b"\x01\x00\xc0\x10\x05\x01\x00\xc0\xff\x63\xd0\xd0\xd0\x03",
        b"\xa0\x05\x05\xa5\x10\x10\xa6\x10\x10\x01\xa0\x30\x08",
        b"\x01\x00\x93\x92\x94\x9c\x88[\x88?\x03\x10",
        b"\xf0n\xf8n\xf0\xfc",
    ]
    rng = random.Random(12)
    for lesson in range(len(lesson_files)):
        for j, walk in enumerate(walks):
            write("keys", f"l{lesson}-w{j}", bytes([rng.randrange(16), lesson]) + walk)


if __name__ == "__main__":
    main()
