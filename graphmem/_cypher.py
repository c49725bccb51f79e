"""Named Cypher queries: the files in ``cypher/`` are the queries the code runs."""

from __future__ import annotations

from functools import cache
from pathlib import Path

__all__ = ["cypher", "cypher_dir", "query_names"]


def cypher_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "_cypher", here.parent / "cypher"):  # wheel, then source tree
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("graphmem's cypher/ folder is missing from the installation")


@cache
def cypher(name: str) -> str:
    """The text of ``cypher/{name}.cypher``."""
    path = cypher_dir() / f"{name}.cypher"
    if not path.is_file():
        raise KeyError(f"no Cypher query named {name!r}")
    return path.read_text(encoding="utf-8")


def query_names(prefix: str = "") -> list[str]:
    return sorted(p.stem for p in cypher_dir().glob(f"{prefix}*.cypher"))
