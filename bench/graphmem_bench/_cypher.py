"""The benchmarks' own named Cypher: the files in ``graphmem_bench/cypher/``, loaded by
name as graphmem loads its own (the product's queries stay with the product)."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

__all__ = ["cypher", "query_names"]


def _folder() -> Traversable:
    return files("graphmem_bench") / "cypher"


@cache
def cypher(name: str) -> str:
    """The text of ``graphmem_bench/cypher/{name}.cypher``."""
    path = _folder() / f"{name}.cypher"
    if not path.is_file():
        raise KeyError(f"no benchmark Cypher query named {name!r}")
    return path.read_text(encoding="utf-8")


def query_names(prefix: str = "") -> list[str]:
    return sorted(
        p.name.removesuffix(".cypher")
        for p in _folder().iterdir()
        if p.name.startswith(prefix) and p.name.endswith(".cypher")
    )
