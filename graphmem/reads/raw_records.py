"""Ranking the records no fact came from (conversation turns, mostly) for a question.

Most of what people tell an agent states no slot: events, plans, opinions. Those records
stay raw (``Unresolved``), and the evidence must *select* among them rather than hand
over the newest that fit. ``RawRecordIndex`` ranks them with BM25F (Robertson et al.,
"Simple BM25 extension to multiple weighted fields") over the text, the speaker and the
session date, English words by their Snowball stems and Korean by Kiwi morphemes; the
turns of people the question names are boosted; and a chosen turn brings its neighbours
in the same session (a question is often answered across a question and its reply),
scored below the turns that matched. With an embedder, the records closest to the question
by meaning join the lexical ranking by reciprocal rank fusion. Then the ranking traverses:
the records that mention what the best ones mention (their rarer words, read with them
from the graph's ``MENTIONS``) join it too.
"""

from __future__ import annotations

import heapq
import logging
import math
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import numpy as np

from graphmem._errors import GraphmemError
from graphmem.domain.evidence import EvidenceRecord, same_session, turn_passage
from graphmem.embedding import VectorCache
from graphmem.language.relative_time import resolve_times
from graphmem.language.text import has_hangul
from graphmem.reads.ranking import (
    BM25F,
    KoreanMorphemes,
    mention_keys,
    stemmed_tokens,
)

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
    dense_depth: int = 100  # with an embedder: the closest records by meaning join the ranking
    rrf_k: float = 10.0  # reciprocal rank fusion of the lexical and the dense ranking
    dense_weight: float = 1.0  # the dense ranking's weight in the fusion (lexical: 1)
    dense_fill: int = 1000  # after the fused ranking, this many closest records by meaning
    # The walk through mentions: from this many best records, to this many records that
    # share their rarer words, fused with this weight (0: no walk).
    walk_seeds: int = 10
    walk_depth: int = 50
    walk_weight: float = 0.6
    walk_df_share: float = 0.02  # a word more than this share of the records mention says little
    walk_df_cap: int = 200  # ... and never more than this many (a bounded walk at any size)
    walk_rows: int = 500  # the walk reads at most this many records per seed, rarest words first


def _date_words(observed_at: str | None) -> str:
    """'2023-05-08T13:56' -> '2023 may 8': what a question says of a date."""
    if not observed_at:
        return ""
    try:
        d = date.fromisoformat(observed_at[:10])
    except ValueError:
        return ""
    return f"{d.year} {_MONTHS[d.month - 1]} {d.day}"


def _period_words(start: date, end: date) -> str:
    """The date words a period matches: each day of a week or less, else its months."""
    if (end - start).days <= 6:
        days = [start + timedelta(days=n) for n in range((end - start).days + 1)]
        return " ".join(_date_words(d.isoformat()) for d in days)
    first, last = start.year * 12 + start.month - 1, end.year * 12 + end.month - 1
    months = range(first, min(last, first + 11) + 1)  # a year at most
    return " ".join(f"{m // 12} {_MONTHS[m % 12]}" for m in months)


def _dates_of(r: EvidenceRecord) -> str:
    """The record's date and the days its relative time phrases mean, as words."""
    words = [_date_words(r.observed_at)]
    for _, _, when in r.time_entries():
        words += [_date_words(day) for day in dict.fromkeys(when.split(".."))]
    return " ".join(w for w in words if w)


class RawRecordIndex:
    """An immutable index of a namespace's raw records; build a new one when they change."""

    def __init__(
        self,
        records: Sequence[EvidenceRecord],
        weights: RankingWeights = RankingWeights(),
        meaning: VectorCache | None = None,
        stored_mentions: Callable[[Sequence[str]], list[str]] | None = None,
    ) -> None:
        """``meaning`` adds a dense ranking, fused with the lexical one: the namespace's
        vectors (shared with blocks and the keeper that persists them). Only vectors
        already kept are used (the index embeds nothing); rows arrive as the keeper
        embeds them, and a record without one is ranked by its words. The records that
        mention what the best ones mention (``EvidenceRecord.mentions``) join too
        (resolve, then traverse); ``stored_mentions`` gives a question's words as the
        store keeps mentions (keyed hashes where text is sealed; as they are if None)."""
        self.records = list(records)
        self.weights = weights
        self.meaning = meaning
        self.stored_mentions = stored_mentions
        # What the records mention, inverted (read with them from their MENTIONS).
        self._mentioned: dict[str, list[int]] = {}
        for i, r in enumerate(self.records):
            for key in r.mentions:
                self._mentioned.setdefault(key, []).append(i)
        self._rows: np.ndarray | None = None  # one unit row per record; zeros until kept
        self._have = np.zeros(len(self.records), dtype=bool)
        self._generation = -1
        self._rows_lock = threading.Lock()
        self._session: dict[int, str | None] = {r.pos: r.observed_at for r in self.records}
        self._at = {r.pos: i for i, r in enumerate(self.records)}
        # What each record is embedded as (what the keeper persists as its turn vector).
        self._passages = [self._passage(r) for r in self.records] if meaning is not None else []
        speakers = sorted({r.speaker for r in self.records if r.speaker})
        tokenize: Callable[[str], list[str]] = stemmed_tokens
        if any(has_hangul(r.text) for r in self.records[:2000]):
            tokenize = KoreanMorphemes(speakers)
        self.tokenize = tokenize
        self.index = BM25F(
            [
                {"text": r.text, "speaker": r.speaker or "", "date": _dates_of(r)}
                for r in self.records
            ],
            {"text": weights.text, "speaker": weights.speaker, "date": weights.date},
            tokenize=tokenize,
        )
        # A speaker is named by any word of their name ("Caroline", "Minjun Kim" -> kim).
        self._speaker_words = {s: {w.casefold() for w in _WORD.findall(s)} for s in speakers}

    def __len__(self) -> int:
        return len(self.records)

    def _before(self, pos: int) -> int | None:
        """The index of the record said just before ``pos`` in the same session."""
        j = self._at.get(pos - 1)
        if j is None or not same_session(self._session[pos - 1], self._session[pos]):
            return None
        return j

    def _passage(self, r: EvidenceRecord) -> str:
        j = self._before(r.pos)
        prev = None if j is None else self.records[j]
        return turn_passage(r.text, r.speaker, None if prev is None else (prev.text, prev.speaker))

    def dense_coverage(self) -> float:
        """The share of records ranked by meaning now (1.0 once every vector is kept)."""
        self._kept_rows()
        return float(self._have.mean()) if len(self._have) else 1.0

    def _kept_rows(self) -> np.ndarray | None:
        """The records' unit vectors (zeros where none is kept yet), caught up with what
        the vector cache holds when it moved."""
        meaning = self.meaning
        if meaning is None or not self.records:
            return None
        if self._generation == meaning.generation or self._have.all():
            return self._rows
        with self._rows_lock:
            generation = meaning.generation
            missing = np.flatnonzero(~self._have)
            found = meaning.known([self._passages[i] for i in missing.tolist()])
            got = [(i, v) for i, v in zip(missing.tolist(), found, strict=True) if v is not None]
            if got:
                rows = self._rows
                if rows is None:
                    rows = np.zeros((len(self.records), got[0][1].shape[0]), dtype=np.float32)
                else:
                    rows = rows.copy()  # readers keep the array they hold
                for i, v in got:
                    if v.shape[0] == rows.shape[1]:
                        rows[i] = v
                        self._have[i] = True
                self._rows = rows
            self._generation = generation
            return self._rows

    def _question_vector(
        self, question: str, stats: dict[str, float] | None = None
    ) -> np.ndarray | None:
        rows = self._kept_rows()
        if rows is None or self.meaning is None:
            return None
        t0 = time.perf_counter()
        try:
            q = self.meaning.query(question)
        except GraphmemError:
            log.warning("embedding a question failed; evidence ranks lexically", exc_info=True)
            return None
        finally:
            if stats is not None:
                stats["embed_ms"] = (time.perf_counter() - t0) * 1000
        return q if q.shape[0] == rows.shape[1] else None

    def _dense(self, q: np.ndarray, depth: int) -> list[int]:
        """The ``depth`` records closest to ``q`` by meaning, best first (records without
        a kept vector have none)."""
        rows = self._rows
        if rows is None or depth <= 0:
            return []
        sims = rows @ q
        depth = min(depth, len(sims))
        top = np.argpartition(-sims, depth - 1)[:depth]
        return [int(i) for i in sorted(top, key=lambda i: -sims[i]) if sims[i] > 0]

    def _fused(self, lexical: list[int], dense: list[int]) -> dict[int, float]:
        # Reciprocal rank fusion (Cormack et al.): ranks, not raw scores, so BM25F and
        # cosine need no common scale.
        w = self.weights
        fused: dict[int, float] = {}
        for ranking, weight in ((lexical, 1.0), (dense, w.dense_weight)):
            for rank, i in enumerate(ranking):
                fused[i] = fused.get(i, 0.0) + weight / (w.rrf_k + rank + 1)
        return fused

    def _walked(self, question: str, scores: dict[int, float], fused: bool) -> None:
        """Fuse into ``scores`` the records that mention what the best ones mention: a
        list asked for ("what desserts does Nate like?") is often spread over sessions
        whose turns share a thing with each other ("coconut milk") but not with the
        question. A shared word counts by its rarity (idf), a seed by its rank."""
        w = self.weights
        seeds = heapq.nlargest(w.walk_seeds, scores, key=scores.__getitem__)
        n = len(self.records)
        max_df = min(w.walk_df_cap, max(3, round(w.walk_df_share * n)))
        asked = mention_keys(question)
        skip = set(asked if self.stored_mentions is None else self.stored_mentions(asked))
        reached: dict[int, float] = {}
        for rank, seed in enumerate(seeds):
            shared = []
            for key in self.records[seed].mentions:
                rows = self._mentioned.get(key, [])
                if key not in skip and 2 <= len(rows) <= max_df:
                    shared.append(rows)
            room = w.walk_rows  # through its rarest words first, this many records at most
            for rows in sorted(shared, key=len):
                idf = math.log(n / len(rows))
                for t in rows:
                    if room == 0:
                        break
                    if t != seed:
                        reached[t] = reached.get(t, 0.0) + idf / (1 + rank)
                        room -= 1
        if not reached:
            return
        if not fused:  # BM25F scores alone: the walk joins them by rank, as meaning would
            lexical = sorted(scores, key=lambda i: (-scores[i], -self.records[i].pos))
            scores.clear()
            scores.update(self._fused(lexical, []))
        order = sorted(reached, key=lambda i: (-reached[i], self.records[i].pos))
        for rank, i in enumerate(order[: w.walk_depth]):
            scores[i] = scores.get(i, 0.0) + w.walk_weight / (w.rrf_k + rank + 1)

    def rank(
        self, question: str, today: date | None = None, stats: dict[str, float] | None = None
    ) -> list[EvidenceRecord]:
        """Every record sharing a term with the question or among the closest by meaning,
        and the neighbours of those, best first; then the next closest by meaning. Empty
        when nothing matches. ``today`` resolves the question's relative time (default:
        the UTC date); ``stats`` gets ``embed_ms``, the time spent embedding the question."""
        w = self.weights
        # "what did Minjun say yesterday?": the days the question means, as the date
        # field's words (turns said then, or whose own phrases resolved to them).
        days = [
            _period_words(ref.start, ref.end)
            for ref in resolve_times(question, today or datetime.now(UTC).date())
        ]
        scores = self.index.scores(" ".join([question, *days]))
        q = self._question_vector(question, stats)
        dense = [] if q is None else self._dense(q, max(w.dense_depth, w.dense_fill))
        if dense:
            lexical = sorted(scores, key=lambda i: (-scores[i], -self.records[i].pos))
            scores = self._fused(lexical, dense[: w.dense_depth])
        if not scores:
            return []
        asked = {t.casefold() for t in _WORD.findall(question)}
        named = {s for s, words in self._speaker_words.items() if words & asked}
        if named and w.named_speaker:
            for i in list(scores):
                if self.records[i].speaker in named:
                    scores[i] *= 1 + w.named_speaker
        if self._mentioned and w.walk_weight and w.walk_seeds:
            self._walked(question, scores, fused=bool(dense))
        ranked = dict(scores)
        if w.neighbour:
            for i, s in scores.items():
                pos = self.records[i].pos
                for near in (pos - 1, pos + 1):
                    j = self._at.get(near)
                    if j is None or not same_session(self._session[near], self._session[pos]):
                        continue
                    ranked[j] = max(ranked.get(j, 0.0), s * w.neighbour)
        order = sorted(ranked, key=lambda i: (-ranked[i], -self.records[i].pos))
        # A budget larger than what matched is filled with the next closest by meaning.
        order += [i for i in dense if i not in ranked]
        return [self.records[i] for i in order]
