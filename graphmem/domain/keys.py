"""Keys: normalized subject + aligned relation.

A missed merge shows a stale value; a wrong merge silently deletes a current one. So
normalization here is conservative: case, punctuation, possessives, whitespace, and
Korean titles/honorifics — never stemming or fuzzy matching.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from graphmem._errors import InvalidInputError, UnknownRelationError

__all__ = [
    "KEY_SEP",
    "KOREAN_TITLES",
    "Cardinality",
    "RelationRegistry",
    "make_key",
    "normalize_name",
    "normalize_relation",
    "strip_korean_title",
]

KEY_SEP = "\u241f"  # a symbol no name contains: keys split unambiguously
Cardinality = Literal["one", "many"]

# Titles and honorifics that follow a Korean name and are not part of it, longest first.
KOREAN_TITLES = (
    "팀장님", "부장님", "과장님", "차장님", "대리님", "사장님", "실장님", "이사님", "대표님",
    "선생님", "교수님", "원장님", "박사님", "선배님", "매니저님", "팀장", "부장", "과장",
    "차장", "대리", "사장", "실장", "이사", "대표", "선생", "교수", "원장", "박사", "선배",
    "매니저", "님", "씨", "군", "양",
)
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b|(?<=s)['’](?=\s|$)")
_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACE = re.compile(r"\s+")


def strip_korean_title(name: str) -> str:
    """'김민준님' → '김민준', '박 팀장님' → '박'. Only when a Hangul name stays behind."""
    s = name.strip()
    if s in KOREAN_TITLES:  # the title alone is what the person is called
        return s
    for title in KOREAN_TITLES:
        if s.endswith(title):
            rest = s[: -len(title)].rstrip()
            # Single-syllable titles (님, 씨, 군, 양) only after a 2+ syllable Hangul name,
            # so '양' in '태양' or a one-syllable surname is not cut.
            min_len = 2 if len(title) == 1 else 1
            if len(rest) >= min_len and _HANGUL.search(rest[-1]):
                return rest
    return s


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


def make_key(subject: str, relation: str, value: str | None = None) -> str:
    """The key of a single-valued relation, or of one member of a set-valued one."""
    parts = [normalize_name(subject), relation]
    if value is not None:
        parts.append(normalize_name(value))
    return KEY_SEP.join(parts)


@dataclass
class RelationRegistry:
    """Aligns relation synonyms to one name and knows which relations are set-valued."""

    synonyms: dict[str, str] = field(default_factory=dict)
    cardinality: dict[str, Cardinality] = field(default_factory=dict)
    strict: bool = False  # when True, an undeclared relation is an error

    def declare(
        self, name: str, cardinality: str = "one", synonyms: Iterable[str] = ()
    ) -> str:
        if cardinality not in ("one", "many"):
            raise UnknownRelationError(
                f"relation {name!r}: cardinality must be 'one' or 'many', got {cardinality!r}"
            )
        canonical = normalize_relation(name)
        if not canonical:
            raise InvalidInputError("relation name must not be empty")
        self.cardinality[canonical] = cardinality  # type: ignore[assignment]
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

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> RelationRegistry:
        reg = cls(strict=bool(data.get("strict", False)))
        for name, spec in dict(data.get("relations", {})).items():  # type: ignore[arg-type]
            spec = dict(spec or {})
            reg.declare(name, str(spec.get("cardinality", "one")), spec.get("synonyms", ()))
        return reg
