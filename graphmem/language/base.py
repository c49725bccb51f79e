"""What graphmem needs from a language: tokens with offsets, sentences, and names.

Extractors and anchoring must find a registered name inside running text without
guessing. English only needs word boundaries; Korean glues particles and honorifics to
the name ("김민준님에게"), so a morphological analyzer has to say where the name ends.
Both sit behind one small protocol so callers never branch on the language.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol, runtime_checkable

__all__ = [
    "Analyzer",
    "NameSpan",
    "Token",
    "clean_names",
    "maximal_spans",
    "may_occur",
    "merge_name_tokens",
    "name_regex",
]


@dataclass(frozen=True, slots=True)
class Token:
    """One token with character offsets into the analyzed text.

    ``norm`` is the form rules compare against (a lemma where the analyzer has one,
    lower case otherwise), so a rule never has to know which analyzer produced it.
    ``is_particle`` marks material that attaches to a word but is not part of it (Korean
    case particles, the English possessive clitic): a name followed only by such tokens
    is still the name.
    """

    text: str
    norm: str
    start: int
    end: int
    pos: str
    is_particle: bool = False


class NameSpan(NamedTuple):
    """Where a registered name occurs: ``text[start:end]`` is the name as written."""

    start: int
    end: int
    name: str


@runtime_checkable
class Analyzer(Protocol):
    """A language analyzer. Construction must be cheap; heavy models load on first use."""

    lang: str

    def tokens(self, text: str) -> list[Token]:
        """Tokens in text order; registered names come out as one token."""
        ...

    def sentences(self, text: str) -> list[str]:
        """The sentences of ``text``, stripped, without empty ones."""
        ...

    def add_user_words(self, names: Iterable[str]) -> None:
        """Register proper names so tokenization never cuts through them."""
        ...

    def name_spans(self, text: str, names: Iterable[str] | None = None) -> list[NameSpan]:
        """Maximal occurrences of ``names`` (default: the registered ones) in ``text``."""
        ...


def clean_names(names: Iterable[str]) -> list[str]:
    """Distinct non-empty names, longest first, so longer names are tried first."""
    seen = {n.strip() for n in names if n and n.strip()}
    return sorted(seen, key=lambda n: (-len(n), n))


@functools.lru_cache(maxsize=4096)
def name_regex(name: str) -> re.Pattern[str]:
    """The name as written, case-insensitive, any run of whitespace where it has one."""
    parts = [re.escape(p) for p in name.split()]
    return re.compile(r"\s+".join(parts), re.IGNORECASE)


def may_occur(name: str, folded_text: str) -> bool:
    """Cheap pre-check before the regex: every word of the name is in the folded text."""
    return all(part.casefold() in folded_text for part in name.split())


def maximal_spans(spans: Iterable[NameSpan]) -> list[NameSpan]:
    """Keep only maximal, non-overlapping spans ("New York Times" beats "New York").

    Longest first, then leftmost: a shorter name inside a longer one is never a second
    mention, which is what keeps "exactly one entity" honest.
    """
    chosen: list[NameSpan] = []
    for sp in sorted(set(spans), key=lambda s: (-(s.end - s.start), s.start, s.name)):
        if all(sp.end <= c.start or sp.start >= c.end for c in chosen):
            chosen.append(sp)
    return sorted(chosen, key=lambda s: (s.start, s.end))


def merge_name_tokens(
    text: str, tokens: Sequence[Token], spans: Iterable[NameSpan], pos: str
) -> list[Token]:
    """Replace the tokens inside each name span by one token for the whole name.

    Analyzers may split an unknown name ("김민" + "준"); rules downstream should see the
    registered name as one unit, tagged ``pos``.
    """
    spans = sorted(spans, key=lambda s: s.start)
    if not spans:
        return list(tokens)
    out: list[Token] = []
    emitted: set[int] = set()
    for tok in tokens:
        inside = next(
            (i for i, s in enumerate(spans) if s.start <= tok.start < s.end and tok.end <= s.end),
            None,
        )
        if inside is None:
            out.append(tok)
            continue
        if inside not in emitted:
            s = spans[inside]
            out.append(Token(text[s.start : s.end], s.name, s.start, s.end, pos, False))
            emitted.add(inside)
    return out
