"""A generated agent log for the audit's speed row, and the same calls as `validate --jsonl` cases.

    python3 benches/auditlog.py [--mb 50] [--seed 7] [--out DIR]

The log is OpenAI Chat Completions conversations, one a line, as a logging proxy keeps request
bodies: a support agent's system prompt, its eight tools (nested objects, enums, patterns,
bounds, formats), and a few rounds of user messages, calls and results. About one call in ten
breaks its schema, some arguments are not JSON, some errors go back as plain text, some calls
are repeated; results are JSON records or text. Nothing in it comes from a real recording.

Beside it, `NAME.cases.jsonl` holds every call of the log as a `validate --jsonl` case
(`{"schema": <its declaration>, "args_text": <its arguments>}`), in the log's order, so the two
commands judge exactly the same calls; `NAME.calls.jsonl` the same calls as a log of one call a
record (`{"tool": <its declaration>, "arguments": <its arguments>}`); `NAME.quarter.jsonl` is
the log's first quarter, to see that memory does not grow with the log.
"""
import argparse
import json
import os
import random

TOOLS = [
    {"name": "get_order", "description": "Read one order of the signed-in customer.",
     "parameters": {"type": "object", "properties": {
         "order_id": {"type": "string", "pattern": "^ORD-[0-9]{6}$"}},
         "required": ["order_id"], "additionalProperties": False}},
    {"name": "search_orders", "description": "Find the customer's orders.",
     "parameters": {"type": "object", "properties": {
         "status": {"type": "string", "enum": ["open", "shipped", "delivered", "returned"]},
         "since": {"type": "string", "format": "date"},
         "page_size": {"type": "integer", "minimum": 1, "maximum": 50}},
         "required": ["status"], "additionalProperties": False}},
    {"name": "update_address", "description": "Change the delivery address of an open order.",
     "parameters": {"type": "object", "properties": {
         "order_id": {"type": "string", "pattern": "^ORD-[0-9]{6}$"},
         "address": {"type": "object", "properties": {
             "street": {"type": "string", "minLength": 1, "maxLength": 120},
             "city": {"type": "string", "minLength": 1},
             "postcode": {"type": "string", "pattern": "^[0-9A-Z -]{3,10}$"},
             "country": {"type": "string", "enum": ["FR", "DE", "IT", "ES", "GB", "NL"]}},
             "required": ["street", "city", "postcode", "country"], "additionalProperties": False}},
         "required": ["order_id", "address"], "additionalProperties": False}},
    {"name": "refund", "description": "Refund part or all of an order.",
     "parameters": {"type": "object", "properties": {
         "order_id": {"type": "string", "pattern": "^ORD-[0-9]{6}$"},
         "amount": {"type": "number", "exclusiveMinimum": 0, "maximum": 5000},
         "reason": {"type": "string", "enum": ["damaged", "late", "wrong_item", "other"]},
         "items": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 20}},
         "required": ["order_id", "amount", "reason"], "additionalProperties": False}},
    {"name": "send_email", "description": "Email the customer.",
     "parameters": {"type": "object", "properties": {
         "to": {"type": "string", "format": "email"},
         "subject": {"type": "string", "maxLength": 200},
         "body": {"type": "string", "maxLength": 5000}},
         "required": ["to", "subject", "body"], "additionalProperties": False}},
    {"name": "get_customer", "description": "Read the signed-in customer's profile.",
     "parameters": {"type": "object", "properties": {}, "additionalProperties": False}},
    {"name": "track_parcel", "description": "Where a parcel is.",
     "parameters": {"type": "object", "properties": {
         "tracking": {"type": "string", "minLength": 8, "maxLength": 30},
         "carrier": {"type": "string", "enum": ["dhl", "ups", "laposte", "dpd"]}},
         "required": ["tracking"]}},
    {"name": "escalate", "description": "Hand the conversation to a person.",
     "parameters": {"type": "object", "properties": {
         "priority": {"type": "integer", "minimum": 1, "maximum": 3},
         "note": {"type": "string"}}, "required": ["priority", "note"], "additionalProperties": False}},
]

DECLS = [{"type": "function", "function": t} for t in TOOLS]

SYSTEM = ("You are the shop's support agent. Be brief and kind. Use the tools to read orders, change "
          "addresses of open orders, refund within policy (up to 5000, with a reason), track parcels "
          "and email the customer. Never invent an order number; ask for it. Escalate when unsure. ") * 8

WORDS = ("order parcel address refund late damaged box street city please thanks help where when why "
         "today tomorrow week delivery courier invoice receipt colour size wrong item return").split()


def text(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def order_id(rng):
    return f"ORD-{rng.randrange(10 ** 6):06d}"


def good_args(rng, name):
    if name == "get_order":
        return {"order_id": order_id(rng)}
    if name == "search_orders":
        return {"status": rng.choice(["open", "shipped", "delivered"]), "since": "2026-0%d-1%d" % (
            rng.randrange(1, 10), rng.randrange(10)), "page_size": rng.randrange(1, 51)}
    if name == "update_address":
        return {"order_id": order_id(rng), "address": {"street": f"{rng.randrange(1, 200)} {text(rng, 2)}",
                "city": rng.choice(["Paris", "Lyon", "Berlin", "Madrid"]), "postcode": f"{rng.randrange(10000, 99999)}",
                "country": rng.choice(["FR", "DE", "ES"])}}
    if name == "refund":
        return {"order_id": order_id(rng), "amount": round(rng.uniform(1, 300), 2),
                "reason": rng.choice(["damaged", "late", "wrong_item"]), "items": [text(rng, 1) for _ in range(2)]}
    if name == "send_email":
        return {"to": f"customer{rng.randrange(1000)}@example.com", "subject": text(rng, 5), "body": text(rng, 40)}
    if name == "get_customer":
        return {}
    if name == "track_parcel":
        return {"tracking": f"TRK{rng.randrange(10 ** 9):09d}", "carrier": rng.choice(["dhl", "ups", "dpd"])}
    return {"priority": rng.randrange(1, 4), "note": text(rng, 12)}


def bad_args(rng, name):
    """The mistakes models make: a missing field, an extra key, a string for a number, a bool."""
    args = good_args(rng, name)
    kind = rng.randrange(4)
    if kind == 0 and args:
        args.pop(next(iter(args)))
    elif kind == 1:
        args["note_to_self"] = text(rng, 3)
    elif kind == 2 and name == "refund":
        args["amount"] = str(args["amount"])
    elif kind == 3 and name == "search_orders":
        args["page_size"] = True
    else:
        args["order_id"] = rng.randrange(10 ** 6)
    return args


def result(rng, name, args, invalid):
    if invalid:
        return json.dumps({"ok": False, "code": "invalid_arguments", "detail": "the arguments do not fit"})
    roll = rng.random()
    if roll < 0.05:
        return "Error: upstream timed out after 5000 ms"
    if roll < 0.08:
        return json.dumps({"ok": False, "error": "not found"})
    if name in ("get_order", "search_orders"):
        items = [{"order_id": order_id(rng), "status": "shipped", "total": round(rng.uniform(5, 500), 2),
                  "lines": [{"sku": f"SKU{rng.randrange(99999)}", "qty": rng.randrange(1, 4), "title": text(rng, 4)}
                            for _ in range(rng.randrange(1, 4))]} for _ in range(rng.randrange(1, 4))]
        return json.dumps({"ok": True, "orders": items})
    return json.dumps({"ok": True, "done": name, "note": text(rng, 8)})


def conversation(rng, n_conv):
    msgs = [{"role": "system", "content": SYSTEM}]
    calls = []
    for turn in range(rng.randrange(2, 6)):
        msgs.append({"role": "user", "content": text(rng, rng.randrange(8, 40))})
        for _ in range(rng.randrange(1, 4)):
            parallel = rng.randrange(1, 3)
            tool_calls, results = [], []
            for k in range(parallel):
                name = rng.choice(TOOLS)["name"]
                cid = f"call_{n_conv}_{turn}_{len(calls)}_{k}"
                roll = rng.random()
                if roll < 0.02:
                    args_text = '{"order_id": "ORD-'  # a cut stream: not JSON
                    invalid = True
                else:
                    invalid = roll < 0.12
                    args_text = json.dumps(bad_args(rng, name) if invalid else good_args(rng, name))
                if roll > 0.97 and calls:
                    name, args_text = calls[-1]  # the same call again
                calls.append((name, args_text))
                tool_calls.append({"id": cid, "type": "function", "function": {"name": name, "arguments": args_text}})
                results.append({"role": "tool", "tool_call_id": cid, "content": result(rng, name, args_text, invalid)})
            msgs.append({"role": "assistant", "content": None, "tool_calls": tool_calls})
            msgs.extend(results)
        msgs.append({"role": "assistant", "content": text(rng, rng.randrange(10, 60))})
    return {"model": "gpt-4o", "tools": DECLS, "messages": msgs}, calls


def ensure(mb, seed, out_dir):
    """The log of about `mb` MB (written once), its cases, its first quarter and its calls as a
    call log: their paths."""
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, f"auditlog-{mb}mb-{seed}")
    log, cases, quarter, calls = (base + ext for ext in (".jsonl", ".cases.jsonl", ".quarter.jsonl", ".calls.jsonl"))
    if all(os.path.exists(p) for p in (log, cases, quarter, calls)):
        return log, cases, quarter, calls
    rng = random.Random(seed)
    decl = {t["function"]["name"]: t for t in DECLS}
    size, n, lines = 0, 0, []
    with open(log + ".tmp", "w", encoding="utf-8") as f, open(cases + ".tmp", "w", encoding="utf-8") as c, \
            open(calls, "w", encoding="utf-8") as k:
        while size < mb * 1e6:
            rec, calls_made = conversation(rng, n)
            line = json.dumps(rec) + "\n"
            f.write(line)
            lines.append(len(line))
            size += len(line)
            n += 1
            for name, args_text in calls_made:
                c.write(json.dumps({"schema": decl[name], "args_text": args_text}) + "\n")
                k.write(json.dumps({"tool": decl[name], "arguments": args_text}) + "\n")
    with open(log + ".tmp", encoding="utf-8") as f, open(quarter, "w", encoding="utf-8") as q:
        for i, line in enumerate(f):
            if i >= n // 4:
                break
            q.write(line)
    os.replace(log + ".tmp", log)
    os.replace(cases + ".tmp", cases)
    return log, cases, quarter, calls


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=50)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                  "target", "bench-data"))
    a = ap.parse_args()
    print(*ensure(a.mb, a.seed, a.out), sep="\n")
