"""Anchoring: which entity names occur in a question as whole surface forms.

Names are matched on normalized tokens; only maximal matches are kept ("New York Times"
beats "New York"). For Korean, a token written in Latin script with Hangul particles
attached ("Abbiati가", "\"Boz\"의") also offers its Latin part, and a bilingual alias
table maps Hangul names ("이탈리아") to graph names ("Italy").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from graphmem.domain.keys import normalize_name
from graphmem.language.text import HANGUL_SYLLABLE, particle_stems, strip_korean_title

__all__ = ["candidate_spans"]

_TRAILING_HANGUL = re.compile(r"^(.*?[A-Za-z0-9\u00C0-\u024F.)\"'’])([\uac00-\ud7a3]+)$")


def _token_variants(token: str) -> list[str]:
    """A raw whitespace token and what it may mean with Korean particles removed."""
    out = [token]
    m = _TRAILING_HANGUL.match(token)
    if m:
        out.append(m.group(1))  # 'Abbiati가' -> 'Abbiati'
    if HANGUL_SYLLABLE.search(token):
        # The longest particle's stem, as a variant, never a replacement.
        out.extend(particle_stems(token.rstrip("?!.,"), first_only=True))
        for v in list(out):
            stripped = strip_korean_title(v)
            if stripped != v:
                out.append(stripped)
    return out


MAX_SPAN_TOKENS = 12


@lru_cache(maxsize=8)
def _normalized_aliases(items: tuple[tuple[str, str], ...]) -> dict[str, str]:
    return {normalize_name(k): normalize_name(v) for k, v in items}


MAX_QUESTION_TOKENS = 400


def candidate_spans(
    question: str, aliases: Mapping[str, str] | None = None, max_tokens: int = MAX_SPAN_TOKENS
) -> list[tuple[str, int, int]]:
    """Every normalized name the question could contain, as (name, start, end) token spans.

    Inner tokens count as written; the last token of a span may also be read without its
    Korean particle. Aliases map a surface name ("이탈리아") to a graph name ("italy").
    The store keeps the spans that are entities; the longest of overlapping ones wins.
    """
    raw = question.split()[:MAX_QUESTION_TOKENS]
    variants = [[tuple(normalize_name(v).split()) for v in _token_variants(t)] for t in raw]
    alias_map = _normalized_aliases(tuple(sorted((aliases or {}).items())))
    out: dict[tuple[str, int, int], None] = {}
    n = len(variants)
    for i in range(n):
        prefix: tuple[str, ...] = ()
        for j in range(i, min(n, i + max_tokens)):
            for last in variants[j]:
                name = " ".join(prefix + last)
                if name:
                    out[(alias_map.get(name, name), i, j + 1)] = None
            if not variants[j][0]:
                break  # a token that is only punctuation ends the span
            prefix = prefix + variants[j][0]
    return list(out)
