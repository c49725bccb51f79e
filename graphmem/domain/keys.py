"""Keys: normalized subject + aligned relation.

A missed merge shows a stale value; a wrong merge silently deletes a current one. So
normalization here is conservative: case, punctuation, possessives, whitespace, and
Korean titles/honorifics — never stemming or fuzzy matching.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from graphmem._errors import InvalidInputError, UnknownRelationError
from graphmem.language.text import strip_korean_title

__all__ = [
    "KEY_SEP",
    "Cardinality",
    "RelationRegistry",
    "make_key",
    "namespaced_key",
    "normalize_name",
    "normalize_relation",
]

VALUE_TYPES = (
    "time",
    "date",
    "room",
    "money",
    "rate",
    "duration",
    "count",
    "phone",
    "email",
    "url",
)
KEY_SEP = "\u241f"  # a symbol no name contains: keys split unambiguously
Cardinality = Literal["one", "many"]

_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b|(?<=s)['’](?=\s|$)")
_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=262_144)
def normalize_name(name: str) -> str:
    """Case, punctuation, possessive and whitespace; Korean titles dropped."""
    s = unicodedata.normalize("NFKC", str(name))
    s = strip_korean_title(s)
    s = _POSSESSIVE.sub("", s)
    s = _PUNCT.sub(" ", s.casefold())
    return _SPACE.sub(" ", s).strip()


def normalize_relation(relation: str) -> str:
    s = unicodedata.normalize("NFKC", str(relation)).casefold().strip()
    s = _PUNCT.sub(" ", s)
    return _SPACE.sub("_", s.strip())


def namespaced_key(ns: str, key: str) -> str:
    """A key's id across namespaces (what versions, operations and heads are indexed by)."""
    return f"{ns}/{key}"


def make_key(subject: str, relation: str, value: str | None = None) -> str:
    """The key of a single-valued relation, or of one member of a set-valued one."""
    parts = [normalize_name(subject), relation]
    if not parts[0]:
        raise InvalidInputError(
            f"subject {subject!r} has no letters or digits to know it by; name the subject"
        )
    if value is not None:
        parts.append(normalize_name(value))
        if not parts[-1]:
            raise InvalidInputError(f"value {value!r} has no letters or digits to key it by")
    return KEY_SEP.join(parts)


@dataclass
class RelationRegistry:
    """Aligns relation synonyms to one name and knows which relations are set-valued."""

    synonyms: dict[str, str] = field(default_factory=dict)
    cardinality: dict[str, Cardinality] = field(default_factory=dict)
    strict: bool = False  # when True, an undeclared relation is an error
    # relation -> the type of value it takes (time, date, room, money, rate, duration,
    # count, phone, email, url): lets the chat extractor file a value under it.
    value_types: dict[str, str] = field(default_factory=dict)

    def declare(
        self,
        name: str,
        cardinality: str = "one",
        synonyms: Iterable[str] = (),
        value_type: str | None = None,
    ) -> str:
        """Declare a relation: its cardinality, the words that also name it (either
        language) and, optionally, the type of value it takes."""
        if cardinality not in ("one", "many"):
            raise UnknownRelationError(
                f"relation {name!r}: cardinality must be 'one' or 'many', got {cardinality!r}"
            )
        canonical = normalize_relation(name)
        if not canonical:
            raise InvalidInputError("relation name must not be empty")
        if value_type is not None and value_type not in VALUE_TYPES:
            raise InvalidInputError(
                f"relation {name!r}: value_type must be one of {VALUE_TYPES}, got {value_type!r}"
            )
        self.cardinality[canonical] = cardinality  # type: ignore[assignment]
        if value_type is not None:
            self.value_types[canonical] = value_type
        for syn in synonyms:
            self.synonyms[normalize_relation(syn)] = canonical
        return canonical

    def align(self, relation: str) -> str:
        rel = normalize_relation(relation)
        if not rel:
            raise InvalidInputError("relation name must not be empty")
        rel = self.synonyms.get(rel, rel)
        if self.strict and rel not in self.cardinality:
            raise UnknownRelationError(
                f"relation {relation!r} is not declared; declare it with "
                "RelationRegistry.declare(name, 'one'|'many') or turn strict mode off"
            )
        return rel

    def is_set_valued(self, relation: str) -> bool:
        return self.cardinality.get(relation, "one") == "many"
