"""What the core needs from a graph store, with the rows it hands back. Neo4j is the one
implementation (``graphmem.store.neo4j``); nothing here knows a driver.

Reads run on the store; every write runs inside ``transact``, which hands the work a
``StoreTransaction`` holding the namespace's write lock. A store raises only graphmem
errors: ``StoreUnavailableError`` when the database cannot be reached or fails, and
``ConflictError`` when it refuses a write (a constraint).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from graphmem.domain.block import ActiveRecord, MeaningText
from graphmem.domain.controller import KeyState, Plan
from graphmem.domain.evidence import EvidenceRecord

__all__ = [
    "Closure",
    "ClosureEdge",
    "EraseScope",
    "HeadRow",
    "OpLogEntry",
    "Span",
    "Store",
    "StoreTransaction",
    "Watermark",
]

T = TypeVar("T")

# (records, operations, tombstones) counts: changes whenever the namespace changes.
Watermark = Mapping[str, int]


@dataclass(frozen=True)
class Span:
    """A name the question may contain, as a token span (see ``domain.anchor``)."""

    uid: str
    start: int
    end: int


@dataclass(frozen=True)
class ClosureEdge:
    """One current fact reached by the closure, with the records that support it."""

    key: str
    subject: str
    relation: str
    depth: int
    evidence: tuple[EvidenceRecord, ...]


@dataclass(frozen=True)
class Closure:
    anchors: list[str]
    edges: list[ClosureEdge]
    has_unresolved: bool  # the namespace holds records no fact came from
    # Moves whenever the unresolved records change (written or erased): a reader's index
    # of them is stale exactly when this differs from the count it was built at.
    raw_writes: int = 0


@dataclass(frozen=True)
class HeadRow:
    key: str
    subject: str
    relation: str
    value: str
    status: str


@dataclass(frozen=True)
class OpLogEntry:
    uid: str
    kind: str
    pos: int
    at: str
    fact: dict[str, Any] | None
    record_uid: str


@dataclass(frozen=True)
class EraseScope:
    """A record to erase and the versions it supports (``only``: no other support)."""

    uid: str
    versions: list[tuple[str, str, bool]]  # (version uid, key, only this record supports it)


class StoreReads(Protocol):
    def known_records(self, ns: str, refs: Mapping[str, str]) -> dict[str, str]:
        """uid -> ``stored`` or ``erased`` for the records the namespace has seen, given
        each uid's erase ref (what its tombstone would keep: ``erased_ref``)."""
        ...

    def load_keys(self, ns: str, keys: Iterable[str]) -> dict[str, KeyState]: ...


class StoreTransaction(StoreReads, Protocol):
    def max_pos(self, ns: str) -> int: ...

    def erase_scope(self, uid: str) -> EraseScope | None: ...

    def write_plan(self, ns: str, evidence: list[dict[str, Any]], plan: Plan) -> None: ...

    def erase(
        self,
        ns: str,
        uid: str,
        doomed: list[str],
        plan: Plan,
        at: str,
        surviving: Sequence[str] = (),
        *,
        erased_ref: Callable[[str], str],
    ) -> None: ...


class Store(StoreReads, Protocol):
    def install_schema(self) -> None: ...

    def close(self) -> None: ...

    def hash_tombstone_ids(self, ns: str, erased_ref: Callable[[str], str]) -> int:
        """Rewrite erase tombstones that keep a record's id in clear (earlier versions)."""
        ...

    def ping(self) -> None:
        """Raise ``StoreUnavailableError`` unless the database answers."""
        ...

    def transact(self, ns: str, work: Callable[[StoreTransaction], T]) -> T: ...

    # -- read path A: evidence --------------------------------------------------------
    def closure(self, ns: str, spans: Sequence[Span], hops: int) -> Closure: ...

    def entity_names(self, ns: str) -> list[str]:
        """Every entity name of the namespace, as written."""
        ...

    def has_hangul_names(self, ns: str) -> bool: ...

    def all_records(self, ns: str) -> list[EvidenceRecord]: ...

    def newest_records(self, ns: str, before: int, limit: int) -> list[EvidenceRecord]:
        """At most ``limit`` records with a position below ``before``, newest first."""
        ...

    def unresolved_records(self, ns: str) -> list[EvidenceRecord]: ...

    def stored_mentions(self, ns: str, words: Sequence[str]) -> list[str]:
        """``words`` as the namespace's mentions may be stored: as they are, and as keyed
        hashes where record text is sealed."""
        ...

    # -- read path B: blocks ----------------------------------------------------------
    def watermark(self, ns: str) -> Watermark: ...

    def active_view(self, ns: str) -> list[ActiveRecord]: ...

    def fresh_candidates(self, ns: str, words: Sequence[str], limit: int) -> list[ActiveRecord]: ...

    # -- meaning: vectors kept with their records and values --------------------------
    def vector_model(self, ns: str) -> str | None:
        """The model that made the namespace's vectors; None before the first."""
        ...

    def claim_vector_model(self, ns: str, model: str) -> str:
        """Record ``model`` as the namespace's unless one is recorded; the one recorded."""
        ...

    def missing_vectors(self, ns: str, limit: int) -> list[MeaningText]:
        """At most ``limit`` records and as many current values that hold no vector."""
        ...

    def write_vectors(self, ns: str, rows: Sequence[tuple[MeaningText, Sequence[float]]]) -> int:
        """Persist each text's vector on its node (gone nodes are skipped); how many."""
        ...

    def stored_vectors(self, ns: str) -> Iterator[tuple[MeaningText, list[float]]]:
        """Every vector the namespace holds, with what it was made from."""
        ...

    def missing_name_vectors(self, ns: str, limit: int) -> list[tuple[str, str]]:
        """At most ``limit`` entities ``(uid, name)`` whose name holds no vector."""
        ...

    def write_name_vectors(self, ns: str, rows: Sequence[tuple[str, str, Sequence[float]]]) -> int:
        """Persist each entity's name vector ``(uid, name, vector)``; an entity gone or
        renamed meanwhile is skipped."""
        ...

    def stored_name_vectors(self, ns: str) -> Iterator[tuple[str, list[float]]]:
        """Every entity name of the namespace that holds a vector, with it."""
        ...

    def clear_vectors(self, ns: str) -> int:
        """Remove the namespace's vectors and its recorded model; how many were removed."""
        ...

    # -- explanations and audits ------------------------------------------------------
    def key_versions_detail(
        self, ns: str, key: str, *, set_valued: bool, limit: int, evidence_limit: int
    ) -> list[dict[str, Any]]:
        """The newest ``limit`` versions of a key (of the members of a set-valued
        relation, current ones first) with their newest ``evidence_limit`` records,
        tombstones and what they supersede, oldest first."""
        ...

    def history(self, ns: str, key: str, *, limit: int, offset: int) -> list[dict[str, Any]]:
        """A page of the key's op log, oldest first."""
        ...

    def value_valid_at(self, ns: str, key: str, at: str) -> str | None: ...

    def oplog_until(self, ns: str, key: str, at: str) -> list[OpLogEntry]: ...

    def heads(self, ns: str) -> list[HeadRow]: ...

    def audit(self, ns: str, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]: ...

    def counts(self, ns: str) -> dict[str, int]: ...
