#!/usr/bin/env python3
"""The weather tool as a pydantic v2 model (strict types, extra keys forbidden), run over the
same JSON-lines cases as the other validators. Benchmark only: its messages are pydantic's."""
import json
import sys

from pydantic import BaseModel, ConfigDict, ValidationError


class Weather(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    city: str
    days: int = None  # optional, but null is refused (as the flat form does)


def main():
    src = open(sys.argv[1], encoding="utf-8") if len(sys.argv) > 1 else sys.stdin
    out = []
    for line in src:
        case = json.loads(line)
        try:
            Weather.model_validate(case["args"])
            out.append(json.dumps({"ok": True, "error": ""}))
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            out.append(json.dumps({"ok": False, "error": f"{first['type']}: {where}"}))
        if len(out) >= 4096:
            sys.stdout.write("\n".join(out) + "\n")
            out.clear()
    if out:
        sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
