"""What the core needs from a graph store. Neo4j is the one implementation.

Reads run on the store; every write runs inside ``transact``, which hands the work a
``StoreTransaction`` holding the namespace's write lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, TypeVar

from graphmem.domain.controller import KeyState, Plan

__all__ = ["Store", "StoreTransaction"]

T = TypeVar("T")


class _Reads(Protocol):
    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]: ...

    def known_records(self, ns: str, uids: Iterable[str]) -> dict[str, str]: ...

    def load_keys(self, ns: str, keys: Iterable[str]) -> dict[str, KeyState]: ...


class StoreTransaction(_Reads, Protocol):
    def write_plan(self, ns: str, evidence: list[dict[str, Any]], plan: Plan) -> None: ...

    def erase(self, ns: str, uid: str, doomed: list[str], plan: Plan, at: str) -> None: ...


class Store(_Reads, Protocol):
    def install_schema(self) -> None: ...

    def transact(self, ns: str, work: Callable[[StoreTransaction], T]) -> T: ...

    def close(self) -> None: ...
