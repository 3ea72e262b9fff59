"""A correct reference solution: both functions, every row passes."""

import re

TICKET_ID = re.compile(r"TKT-[0-9]{3}")


def validate_tool_args(schema, required, args):
    for name in sorted(required):
        if name not in args:
            return (False, f"missing required arg: {name}")
    for name in args:
        if name not in schema:
            return (False, f"unknown arg: {name}")
    for name, value in args.items():
        want = schema[name]
        if isinstance(value, bool) and want is not bool:
            return (False, f"type error: {name} expected {want.__name__}, got bool")
        if not isinstance(value, want):
            return (False, f"type error: {name} expected {want.__name__}, got {type(value).__name__}")
    return (True, "")


def execute_tool(name, args, context, records):
    if name != "get_ticket":
        return {"ok": False, "code": "unknown_tool"}
    if not isinstance(args, dict) or set(args) != {"ticket_id"}:
        return {"ok": False, "code": "invalid_arguments"}
    ticket_id = args["ticket_id"]
    if not isinstance(ticket_id, str) or not TICKET_ID.fullmatch(ticket_id):
        return {"ok": False, "code": "invalid_arguments"}
    if context.get("canReadTickets") is not True:
        return {"ok": False, "code": "forbidden"}
    stored = records.get(context["tenant"] + ":" + ticket_id)
    if stored is None:
        return {"ok": False, "code": "not_found"}
    return {"ok": True, "ticket": {k: stored[k] for k in ("id", "title", "status")}}
