"""Ranking the records no fact came from (conversation turns, mostly) for a question.

Most of what people tell an agent states no slot: events, plans, opinions. Those records
stay raw (``Unresolved``), and the evidence must *select* among them rather than hand
over the newest that fit. ``RawRecordIndex`` ranks them with BM25F (Robertson et al.,
"Simple BM25 extension to multiple weighted fields") over the text, the speaker and the
session date, English words by their Snowball stems and Korean by Kiwi morphemes; the
turns of people the question names are boosted; and a chosen turn brings its neighbours
in the same session (a question is often answered across a question and its reply),
scored below the turns that matched. With an embedder, the records closest to the question
by meaning join the lexical ranking by reciprocal rank fusion.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from graphmem._errors import GraphmemError
from graphmem.domain.evidence import EvidenceRecord
from graphmem.language.text import has_hangul
from graphmem.llm.base import Embedder
from graphmem.reads.ranking import BM25F, KoreanMorphemes, stemmed_tokens

__all__ = ["RankingWeights", "RawRecordIndex"]

log = logging.getLogger("graphmem.evidence")

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_WORD = re.compile(r"[\w'’]+", re.UNICODE)


@dataclass(frozen=True)
class RankingWeights:
    """Field weights and the two boosts (set on the tuning conversations only)."""

    text: float = 1.0
    speaker: float = 0.3
    date: float = 0.3
    named_speaker: float = 0.25  # score x (1 + this) for turns by a person the question names
    neighbour: float = 0.7  # a neighbour's score: this share of its best matching neighbour
    dense_depth: int = 50  # with an embedder: the closest records by meaning join the ranking
    rrf_k: float = 60.0  # reciprocal rank fusion of the lexical and the dense ranking


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

    def __init__(
        self,
        records: Sequence[EvidenceRecord],
        weights: RankingWeights = RankingWeights(),
        embedder: Embedder | None = None,
        vectors: dict[tuple[int, str], list[float]] | None = None,
    ) -> None:
        """``embedder`` adds a dense ranking, fused with the lexical one; ``vectors`` caches
        record embeddings across rebuilds (keyed by position and id), so a new record costs
        one embedding, not the namespace's."""
        self.records = list(records)
        self.weights = weights
        self.embedder = embedder
        self._matrix: np.ndarray | None = None
        if embedder is not None and self.records:
            self._matrix = self._embed_records(embedder, {} if vectors is None else vectors)
        speakers = sorted({r.speaker for r in self.records if r.speaker})
        tokenize: Callable[[str], list[str]] = stemmed_tokens
        if any(has_hangul(r.text) for r in self.records[:2000]):
            tokenize = KoreanMorphemes(speakers)
        self.tokenize = tokenize
        self.index = BM25F(
            [
                {"text": r.text, "speaker": r.speaker or "", "date": _date_words(r.observed_at)}
                for r in self.records
            ],
            {"text": weights.text, "speaker": weights.speaker, "date": weights.date},
            tokenize=tokenize,
        )
        # A speaker is named by any word of their name ("Caroline", "Minjun Kim" -> kim).
        self._speaker_words = {s: {w.casefold() for w in _WORD.findall(s)} for s in speakers}
        self._session: dict[int, str | None] = {
            r.pos: (r.observed_at or "")[:16] for r in self.records
        }
        self._at = {r.pos: i for i, r in enumerate(self.records)}

    def __len__(self) -> int:
        return len(self.records)

    def _embed_records(
        self, embedder: Embedder, vectors: dict[tuple[int, str], list[float]]
    ) -> np.ndarray | None:
        keys = [(r.pos, str(r.id)) for r in self.records]
        missing = [i for i, k in enumerate(keys) if k not in vectors]
        try:
            for start in range(0, len(missing), 256):
                chunk = missing[start : start + 256]
                for i, vec in zip(
                    chunk, embedder.embed([self.records[i].text for i in chunk]), strict=True
                ):
                    vectors[keys[i]] = vec
        except GraphmemError:  # no embeddings now: rank lexically, try again next rebuild
            log.warning(
                "embedding raw records failed; evidence ranks them lexically", exc_info=True
            )
            return None
        current = set(keys)
        for gone in [k for k in vectors if k not in current]:  # erased: keep nothing of it
            del vectors[gone]
        matrix = np.asarray([vectors[k] for k in keys], dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1, norms)

    def _dense(self, question: str) -> list[int]:
        """The records closest to the question by meaning, best first."""
        if self._matrix is None or self.embedder is None:
            return []
        try:
            (vec,) = self.embedder.embed([question])
        except GraphmemError:
            log.warning("embedding a question failed; evidence ranks lexically", exc_info=True)
            return []
        q = np.asarray(vec, dtype=np.float32)
        norm = float(np.linalg.norm(q))
        if norm == 0 or q.shape[0] != self._matrix.shape[1]:
            return []
        sims = self._matrix @ (q / norm)
        depth = min(self.weights.dense_depth, len(sims))
        top = np.argpartition(-sims, depth - 1)[:depth]
        return [int(i) for i in sorted(top, key=lambda i: -sims[i]) if sims[i] > 0]

    def rank(self, question: str) -> list[EvidenceRecord]:
        """Every record sharing a term with the question, and the neighbours of those, best
        first. Empty when nothing matches."""
        w = self.weights
        scores = self.index.scores(question)
        dense = self._dense(question)
        if dense:
            # Reciprocal rank fusion (Cormack et al.): ranks, not raw scores, so BM25F and
            # cosine need no common scale.
            lexical = sorted(scores, key=lambda i: (-scores[i], -self.records[i].pos))
            fused: dict[int, float] = {}
            for ranking in (lexical, dense):
                for rank, i in enumerate(ranking):
                    fused[i] = fused.get(i, 0.0) + 1.0 / (w.rrf_k + rank + 1)
            scores = fused
        if not scores:
            return []
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
