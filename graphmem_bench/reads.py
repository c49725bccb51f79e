"""Reads only the benchmark baselines need, over the store's generic named-query runner.

The product's ``Store`` protocol holds what the core calls; these three queries (anchors
without the closure, a namespace's unresolved records, every version for an in-process
index) serve the baseline controls, so they live here. The Cypher stays in ``cypher/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from graphmem.store.protocol import Span

__all__ = ["Anchor", "NamedQueries", "SnapshotVersion", "anchors", "snapshot_versions"]


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


def anchors(store: NamedQueries, spans: Sequence[Span]) -> list[Anchor]:
    rows = store.run("anchors", {"spans": [asdict(s) for s in spans]})
    return [Anchor(r["key"], r["name"]) for r in rows]


def snapshot_versions(store: NamedQueries, ns: str) -> list[SnapshotVersion]:
    return [SnapshotVersion(**r) for r in store.run("graph_snapshot", {"ns": ns})]
