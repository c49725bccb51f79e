"""The extractor interface: a record in, typed facts (or unresolved / no_fact) out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from graphmem.domain.model import Fact, ParseStatus, Record

__all__ = ["Extraction", "Extractor"]


@dataclass(frozen=True)
class Extraction:
    status: ParseStatus
    facts: tuple[Fact, ...] = ()
    reason: str = ""
    extra: dict[str, object] = field(default_factory=dict)

    @classmethod
    def found(cls, *facts: Fact) -> Extraction:
        return cls(ParseStatus.FACTS, tuple(facts)) if facts else cls(ParseStatus.NO_FACT)

    @classmethod
    def unresolved(cls, reason: str) -> Extraction:
        return cls(ParseStatus.UNRESOLVED, (), reason)

    @classmethod
    def no_fact(cls, reason: str = "") -> Extraction:
        return cls(ParseStatus.NO_FACT, (), reason)


class Extractor(Protocol):
    """Turns one record into candidate facts. Must never guess."""

    name: str

    def extract(self, record: Record) -> Extraction: ...
