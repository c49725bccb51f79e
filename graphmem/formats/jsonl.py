"""Plain JSONL: one record object per line (the shape ``Memory.ingest`` accepts)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["read_jsonl"]


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any] | None, str | None]]:
    """(line number, record dict or None, error or None) for every non-blank line.

    Bad lines are reported, not raised, so one broken line never loses the rest.
    """
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            if lineno == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")  # a byte-order mark some editors add
            try:
                obj = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError as exc:
                yield lineno, None, f"not valid UTF-8 ({exc.reason} at byte {exc.start})"
                continue
            except json.JSONDecodeError as exc:
                yield lineno, None, f"not JSON ({exc.msg}, column {exc.colno})"
                continue
            if not isinstance(obj, dict):
                yield lineno, None, f"expected a JSON object, got {type(obj).__name__}"
                continue
            yield lineno, obj, None
