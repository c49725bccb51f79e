"""What the core needs from a graph store. Neo4j is the one implementation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from graphmem.domain.controller import KeyState, Plan

__all__ = ["Store"]


class Store(Protocol):
    def install_schema(self) -> None: ...

    def known_records(self, ns: str, uids: Iterable[str]) -> dict[str, str]: ...

    def load_keys(self, ns: str, keys: Iterable[str]) -> dict[str, KeyState]: ...

    def write_plan(
        self,
        ns: str,
        evidence: list[dict[str, Any]],
        entities: list[dict[str, Any]],
        plan: Plan,
    ) -> None: ...

    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]: ...

    def close(self) -> None: ...
