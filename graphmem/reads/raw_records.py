"""Ranking the records no fact came from (conversation turns, mostly) for a question.

Most of what people tell an agent states no slot: events, plans, opinions. Those records
stay raw (``Unresolved``), and the evidence must *select* among them rather than hand
over the newest that fit. ``RawRecordIndex`` ranks them with BM25F (Robertson et al.,
"Simple BM25 extension to multiple weighted fields") over the text, the speaker and the
session date, English words by their Snowball stems and Korean by Kiwi morphemes; the
turns of people the question names are boosted; and a chosen turn brings its neighbours
in the same session (a question is often answered across a question and its reply),
scored below the turns that matched.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from graphmem.domain.evidence import EvidenceRecord
from graphmem.language.text import has_hangul
from graphmem.reads.ranking import BM25F, KoreanMorphemes, stemmed_tokens

__all__ = ["RankingWeights", "RawRecordIndex"]

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_WORD = re.compile(r"[\w'’]+", re.UNICODE)


@dataclass(frozen=True)
class RankingWeights:
    """Field weights and the two boosts (set on the tuning conversations only)."""

    text: float = 1.0
    speaker: float = 0.3
    date: float = 0.3
    named_speaker: float = 0.25  # score x (1 + this) for turns by a person the question names
    neighbour: float = 0.7  # a neighbour's score: this share of its best matching neighbour


def _date_words(observed_at: str | None) -> str:
    """'2023-05-08T13:56' -> '2023 may 8': what a question says of a date."""
    if not observed_at:
        return ""
    try:
        d = date.fromisoformat(observed_at[:10])
    except ValueError:
        return ""
    return f"{d.year} {_MONTHS[d.month - 1]} {d.day}"


class RawRecordIndex:
    """An immutable index of a namespace's raw records; build a new one when they change."""

    def __init__(self, records: Sequence[EvidenceRecord],
                 weights: RankingWeights = RankingWeights()) -> None:
        self.records = list(records)
        self.weights = weights
        speakers = sorted({r.speaker for r in self.records if r.speaker})
        tokenize: Callable[[str], list[str]] = stemmed_tokens
        if any(has_hangul(r.text) for r in self.records[:2000]):
            tokenize = KoreanMorphemes(speakers)
        self.tokenize = tokenize
        self.index = BM25F(
            [{"text": r.text, "speaker": r.speaker or "", "date": _date_words(r.observed_at)}
             for r in self.records],
            {"text": weights.text, "speaker": weights.speaker, "date": weights.date},
            tokenize=tokenize)
        # A speaker is named by any word of their name ("Caroline", "Minjun Kim" -> kim).
        self._speaker_words = {s: {w.casefold() for w in _WORD.findall(s)} for s in speakers}
        self._session: dict[int, str | None] = {r.pos: (r.observed_at or "")[:16]
                                                for r in self.records}
        self._at = {r.pos: i for i, r in enumerate(self.records)}

    def __len__(self) -> int:
        return len(self.records)

    def rank(self, question: str) -> list[EvidenceRecord]:
        """Every record sharing a term with the question, and the neighbours of those, best
        first. Empty when nothing matches."""
        scores = self.index.scores(question)
        if not scores:
            return []
        w = self.weights
        asked = {t.casefold() for t in _WORD.findall(question)}
        named = {s for s, words in self._speaker_words.items() if words & asked}
        if named and w.named_speaker:
            for i in list(scores):
                if self.records[i].speaker in named:
                    scores[i] *= 1 + w.named_speaker
        ranked = dict(scores)
        if w.neighbour:
            for i, s in scores.items():
                pos = self.records[i].pos
                for near in (pos - 1, pos + 1):
                    j = self._at.get(near)
                    if j is None or self._session[near] != self._session[pos]:
                        continue
                    ranked[j] = max(ranked.get(j, 0.0), s * w.neighbour)
        order = sorted(ranked, key=lambda i: (-ranked[i], -self.records[i].pos))
        return [self.records[i] for i in order]
