"""FactConsolidation (MemoryAgentBench): a context of numbered facts, larger = newer."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from graphmem.domain.model import Record

__all__ = ["Row", "load_rows", "parse_context"]

_LINE = re.compile(r"^(\d+)\. (.*)$")
FILE = Path("factconsolidation") / "Conflict_Resolution.json"


@dataclass(frozen=True)
class Row:
    """One dataset row: a context (the history) and its questions."""

    source: str  # e.g. factconsolidation_mh_262k
    context: str
    questions: list[str]
    answers: list[list[str]]

    @property
    def hops(self) -> str:
        return "mh" if "_mh_" in self.source else "sh"

    @property
    def length(self) -> str:
        return self.source.rsplit("_", 1)[1]


def load_rows(data_dir: str | Path) -> list[Row]:
    path = Path(data_dir) / FILE
    if not path.is_file():
        raise FileNotFoundError(
            f"FactConsolidation not found at {path}; pass the data folder that holds {FILE}"
        )
    rows = json.loads(path.read_text(encoding="utf-8"))
    return [
        Row(
            r["metadata"]["source"],
            r["context"],
            list(r["questions"]),
            [list(a) for a in r["answers"]],
        )
        for r in rows
    ]


def parse_context(context: str, source: str = "factconsolidation") -> Iterator[Record]:
    """Each 'N. fact' line becomes a record with pos = N (the dataset's own order)."""
    for line in context.splitlines():
        m = _LINE.match(line.strip())
        if m:
            n = int(m.group(1))
            yield Record(m.group(2), id=str(n), pos=n, source=source)
