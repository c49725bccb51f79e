"""Reads only the benchmark baselines need, over the store's generic named-query runner.

The product's ``Store`` protocol holds what the core calls; these three queries (anchors
without the closure, a namespace's unresolved records, every version for an in-process
index) serve the baseline controls, so they live here. Their Cypher stays in graphmem's
``cypher/``, where the store's runner finds it (and the plan tests profile it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol, runtime_checkable

from graphmem.store.protocol import Span

__all__ = ["Anchor", "NamedQueries", "SnapshotVersion", "anchors", "named", "snapshot_versions"]


@runtime_checkable
class NamedQueries(Protocol):
    """A store that runs a named read query from ``cypher/`` (``Neo4jStore.run``)."""

    def run(self, name: str, params: Any) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class Anchor:
    key: str
    name: str


@dataclass(frozen=True)
class SnapshotVersion:
    """One version as the in-process controls index it."""

    uid: str
    key: str
    subject: str
    relation: str
    value: str
    status: str
    is_head: bool
    pos: int
    s: str  # subject entity key
    o: str  # object entity key
    supersedes: list[str]
    evidence: list[int]  # positions of the supporting records


def named(store: object) -> NamedQueries:
    """``store`` as a runner of named queries (the product's ``Store`` protocol does not
    promise one; ``Neo4jStore`` has it)."""
    if not isinstance(store, NamedQueries):
        raise TypeError(f"{type(store).__name__} runs no named queries (Neo4jStore.run)")
    return store


def anchors(store: NamedQueries, spans: Sequence[Span]) -> list[Anchor]:
    rows = store.run("anchors", {"spans": [asdict(s) for s in spans]})
    return [Anchor(r["key"], r["name"]) for r in rows]


def snapshot_versions(store: NamedQueries, ns: str) -> list[SnapshotVersion]:
    return [SnapshotVersion(**r) for r in store.run("graph_snapshot", {"ns": ns})]
