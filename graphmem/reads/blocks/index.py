"""The block index: a namespace's active records as columns, with their BM25F fields.

Both the serving process and the snapshot child import this module: the child builds
the arrays, the server loads them into a ``BlockSnapshot``. Nothing here starts a
thread or talks to Neo4j.
"""

from __future__ import annotations

import functools
import heapq
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from graphmem.config import Tokenizer
from graphmem.domain.block import (
    CALENDAR_WORDS,
    ActiveRecord,
    RecordTable,
    called_by_short_form,
    family_index,
    name_index,
)
from graphmem.domain.keys import normalize_name
from graphmem.language.crossscript import hangul_phonemes, latin_phonemes, similarity
from graphmem.language.text import has_hangul
from graphmem.reads.ranking import BM25F, KoreanMorphemes, simple_tokens
from graphmem.reads.request_reading import name_word_set
from graphmem.store.protocol import Watermark

__all__ = [
    "FIELD_WEIGHTS",
    "RANK_DEPTH",
    "BlockSnapshot",
    "Ranking",
    "index_fields",
    "record_fields",
    "snapshot_tokenizer",
]

FIELD_WEIGHTS = {"body": 1.0, "entity": 2.5, "participant": 2.0, "relation": 1.0}
RANK_DEPTH = 64  # lines kept from the ranking before identity filters and the gate


def snapshot_tokenizer(
    records: RecordTable, tokenizer: Tokenizer | str
) -> Callable[[str], list[str]]:
    """How a snapshot's index reads text: Kiwi morphemes with every stored name as a
    user word, or plain words with Hangul bigrams."""
    if tokenizer == "morphemes":
        names = {s for facts in records.facts for s, _, _ in facts}
        names.update(p for ps in records.participants for p in ps)
        return KoreanMorphemes(sorted(names))
    return simple_tokens


def _field_values(
    text: str, facts: tuple[tuple[str, str, str], ...], participants: tuple[str, ...]
) -> dict[str, str]:
    """A record's BM25F fields: its text, its facts' subjects, its participants and the
    names its facts are kept under ("수학 원비" finds the fee its message calls 원비)."""
    return {
        "body": text,
        "entity": " ".join(dict.fromkeys(s for s, _, _ in facts)),
        "participant": " ".join(participants),
        "relation": " ".join(dict.fromkeys(r.replace("_", " ") for _, r, _ in facts)),
    }


def index_fields(records: RecordTable) -> Iterator[dict[str, str]]:
    """Each record's BM25F fields, read from the columns."""
    for row in zip(records.texts, records.facts, records.participants, strict=True):
        yield _field_values(*row)


def record_fields(r: ActiveRecord) -> dict[str, str]:
    return _field_values(r.text, r.facts, r.participants)


# A Hangul word renders a Latin given name from this similarity of their sounds up
# ("라이언" and Ryan 0.83 fall short; "소피"/Sophie, "조나단"/Jonathan 1.0; "마이크"/Mike
# 0.88).
SOUNDS_LIKE = 0.85
# Hangul words are sounded against at most this many distinct Latin given names.
SOUNDED_NAMES = 512
# A short form is looked for among the records of at most this many people whose given
# names begin with it (a thousand Minjuns are not read for "Min").
SHORTENED_PEOPLE = 16


def latin_given_names(people: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The given names of people named in Latin script -> those people, sorted."""
    by_given: dict[str, set[str]] = {}
    for p in people:
        parts = normalize_name(p).split()
        if parts and parts[0].isascii() and parts[0].isalpha() and len(parts[0]) >= 2:
            by_given.setdefault(parts[0], set()).add(p)
    return {g: tuple(sorted(es)) for g, es in by_given.items()}


@dataclass(frozen=True)
class BlockSnapshot:
    """An immutable view of a namespace's active records with its indexes."""

    records: RecordTable
    index: BM25F
    entities: tuple[str, ...]
    comention: Mapping[str, Mapping[str, float]]
    last_seen: Mapping[str, str]
    watermark: Mapping[str, int]
    built_at: float
    names: Mapping[str, Sequence[str]]
    by_subject: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    # Everyone memory has heard of (subjects, speakers, participants) by the names they
    # may be called, and the records each one is in: the reading gate's identity step.
    people: Mapping[str, Sequence[str]] = field(default_factory=dict)
    by_person: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    person_names: frozenset[str] = frozenset()  # normalized full names
    person_words: frozenset[str] = frozenset()  # the words they are made of
    positions: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    # Each normalized name -> the name as stored: the partner is found among a thousand
    # namesakes without normalizing each.
    stored_name: Mapping[str, str] = field(default_factory=dict)
    # Korean family name -> the people who have it ("황보쌤", "김 대리님").
    families: Mapping[str, Sequence[str]] = field(default_factory=dict)
    # The given names of people named in Latin script -> those people: a Korean request
    # writes them in Hangul ("소피랑", "조나단네"), an English one may shorten them ("Ros").
    latin_given: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    _texts: dict[tuple[str, frozenset[str]], str] = field(
        default_factory=dict, compare=False, repr=False
    )
    _called: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    _given_sounds: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    _beginnings: dict[str, set[str]] = field(default_factory=dict, compare=False, repr=False)
    # Made on first use by the reading gate and kept with the snapshot: by model, the
    # vectors of the current facts' lines and of their records (``fact_vectors``).
    _fact_vectors: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def fact_vectors(
        self,
        model: str,
        embed: Callable[[list[str]], np.ndarray | None],
        line: Callable[[str, str, str], str],
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """For every current fact, the position of its record in the table, the vector of
        its line (``line(subject, relation, value)``) and of its record's text, embedded
        by ``embed`` once per snapshot and model; None (and tried again next time) while
        ``embed`` returns None for the texts (their vectors not kept yet)."""
        kept = self._fact_vectors.get(model)
        if kept is None:
            at = sorted({i for rows in self.by_subject.values() for i in rows})
            rows = [(i, subj, rel, value) for i in at for subj, rel, value in self.records.facts[i]]
            where = np.asarray([i for i, *_ in rows], dtype=np.int64)
            lines = embed([line(subj, rel, value) for _i, subj, rel, value in rows])
            texts = embed([self.records.texts[i] for i, *_ in rows])
            if lines is None or texts is None:
                return None
            kept = self._fact_vectors[model] = (where, lines, texts)
        return kept

    def called(self, word: str) -> tuple[str, ...]:
        """The people a request's word no name index holds may still name, once per
        snapshot and word: in Hangul, those whose Latin given name it sounds like
        ("소피" → Sophie Lin); in Latin script, those called by it as a short form of
        their given name where they take part ("ros" → Rosalind Achebe, Rosalind Kerr)."""
        found = self._called.get(word)
        if found is None:
            found = self._sounds_like(word) if has_hangul(word) else self._short_form(word)
            if len(self._called) >= 4096:
                self._called.clear()
            self._called[word] = found
        return found

    def _sounds_like(self, word: str) -> tuple[str, ...]:
        """Those of the one Latin given name that sounds closest to a Hangul word, at
        least ``SOUNDS_LIKE``; none when no or several sound that close, and in namespaces
        with more than ``SOUNDED_NAMES`` Latin given names."""
        if not self.latin_given or len(self.latin_given) > SOUNDED_NAMES or len(word) < 2:
            return ()
        if not self._given_sounds:  # read once per snapshot, on first use, and set whole
            self._given_sounds.update({g: latin_phonemes(g) for g in self.latin_given})
        heard = hangul_phonemes(word)
        scores = sorted(
            ((similarity(heard, sounds), g) for g, sounds in self._given_sounds.items()),
            reverse=True,
        )
        if not scores or scores[0][0] < SOUNDS_LIKE:
            return ()
        if len(scores) > 1 and scores[1][0] >= scores[0][0] - 1e-9:
            return ()
        return self.latin_given[scores[0][1]]

    def _short_form(self, word: str) -> tuple[str, ...]:
        """Those called by ``word`` as a short form of their Latin given name, where they
        take part: among at most ``SHORTENED_PEOPLE`` whose given names begin with it."""
        if len(word) < 3 or word in self.people or word in CALENDAR_WORDS:
            return ()
        if not self._beginnings:  # once per snapshot, from the names alone, set whole
            beginnings: dict[str, set[str]] = {}
            for given, people in self.latin_given.items():
                for k in range(3, len(given)):
                    beginnings.setdefault(given[:k], set()).update(people)
            self._beginnings.update(beginnings)
        whose = self._beginnings.get(word)
        if not whose or len(whose) > SHORTENED_PEOPLE:
            return ()
        norm = {normalize_name(p): p for p in whose}
        records = [
            (self.records.texts[i], self.present(i))
            for p in norm
            for i in self.by_person.get(p, ())
        ]
        return tuple(norm[p] for p in called_by_short_form(word, records, norm))

    def person_text(self, person: str, apart_from: Sequence[str] = ()) -> str:
        """Everything said in the records a person is in and the names of their facts,
        case-folded: where the reading gate looks for a cue that tells namesakes apart.
        With ``apart_from``, only the records none of those people takes part in: a word
        said where both namesakes are ("the choir's conductor" writing to a group both
        sing in) tells neither apart. Built on first use (only namesakes need it), a
        bounded number kept."""
        key = normalize_name(person)
        others = frozenset(normalize_name(o) for o in apart_from) - {key}
        text = self._texts.get((key, others))
        if text is None:
            texts, facts = self.records.texts, self.records.facts
            kept = [i for i in self.by_person.get(key, ()) if not others & self.present(i)]
            said = [texts[i] for i in kept]
            # The names of the person's own facts too: namesakes mostly have the same
            # things stored ("shift start" for both Yusufs), so a word of what is asked
            # is then found for each of them and tells none apart.
            said += [
                rel.replace("_", " ")
                for i in self.by_subject.get(key, ())
                if not others & self.present(i)
                for subj, rel, _ in facts[i]
                if normalize_name(subj) == key
            ]
            text = "\n".join(t.casefold() for t in said)
            if len(self._texts) >= 4096:
                self._texts.clear()
            self._texts[(key, others)] = text
        return text

    def present(self, i: int) -> set[str]:
        """Who takes part in record ``i``: its speaker, participants and facts' subjects."""
        speaker = self.records.speakers[i]
        present = {normalize_name(p) for p in self.records.participants[i]}
        present |= {normalize_name(s) for s, _, _ in self.records.facts[i]}
        if speaker is not None:
            present.add(normalize_name(speaker))
        return present

    def rank(
        self, request: str, partner: str, pool: Sequence[ActiveRecord] | None = None
    ) -> list[tuple[ActiveRecord, float]]:
        """BM25F with the partner's name added to the query; the pool defaults to the
        whole snapshot, a fresh pool is scored with the snapshot's statistics."""
        query = f"{request} {partner}"
        # Identity filtering may drop lines, so keep a generous head of the ranking.
        if pool is None:
            return [
                (self.records[i], s) for i, s in self.index.top(query, RANK_DEPTH, self.positions)
            ]
        scored = [(self.index.score_fields(query, record_fields(r)), r) for r in pool]
        top = heapq.nlargest(
            RANK_DEPTH, [(s, r) for s, r in scored if s > 0], key=lambda sr: (sr[0], sr[1].pos)
        )
        return [(r, s) for s, r in top]

    @classmethod
    def build(
        cls,
        rows: Iterable[ActiveRecord] | RecordTable,
        watermark: Watermark,
        tokenizer: Tokenizer = "morphemes",
        index: BM25F | None = None,
    ) -> BlockSnapshot:
        """The snapshot of ``rows``; ``index`` is their BM25F index when a child process
        built it already."""
        records = rows if isinstance(rows, RecordTable) else RecordTable(rows)
        if index is None:
            index = BM25F(
                list(index_fields(records)),
                FIELD_WEIGHTS,
                tokenize=snapshot_tokenizer(records, tokenizer),
            )
        comention: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        last_seen: dict[str, str] = {}
        entities: dict[str, None] = {}
        by_subject: dict[str, list[int]] = defaultdict(list)
        by_person: dict[str, list[int]] = defaultdict(list)
        people: dict[str, None] = {}
        for i, (facts, parts, observed, speaker) in enumerate(
            zip(
                records.facts, records.participants, records.observed, records.speakers, strict=True
            )
        ):
            subjects = dict.fromkeys(s for s, _, _ in facts)
            # A message between two ties them more than one to a group of eight: each
            # participant's tie is shared among the others in the conversation.
            share = 1.0 / max(len(parts) - 1, 1)
            for e in subjects:
                entities[e] = None
                en = normalize_name(e)
                if observed and observed > last_seen.get(en, ""):
                    last_seen[en] = observed
                for p in parts:
                    comention[normalize_name(p)][en] += share
                by_subject[en].append(i)
            # Talking with someone ties you to them, whatever was said.
            for p in parts:
                for q in parts:
                    if q != p:
                        comention[normalize_name(p)][normalize_name(q)] += share
            for p in {*subjects, *parts, *((speaker,) if speaker else ())}:
                people[p] = None
                by_person[normalize_name(p)].append(i)
        # Tuples, not lists, everywhere a snapshot keeps many: the collector skips them.
        people_index = {k: tuple(v) for k, v in name_index(people).items()}
        snap = cls(
            records,
            index,
            tuple(entities),
            {k: dict(v) for k, v in comention.items()},
            last_seen,
            dict(watermark),
            time.time(),
            {k: tuple(v) for k, v in name_index(entities).items()},
            {k: tuple(v) for k, v in by_subject.items()},
            people_index,
            {k: tuple(v) for k, v in by_person.items()},
            frozenset(normalize_name(p) for p in people),
            name_word_set(people_index),
            np.asarray(records.pos, dtype=np.int64),
            {normalize_name(p): p for p in [*entities, *people]},
            {k: tuple(v) for k, v in family_index(people).items()},
            latin_given_names(people),
        )
        # Namesakes' texts are where the reading gate looks for a cue: read them here, off
        # the request path (a first request about a namesake took 3-4 ms doing it).
        for same_name in people_index.values():
            if 1 < len(same_name) <= 16:
                for person in same_name:
                    snap.person_text(person)
                    snap.person_text(person, same_name)
        return snap


class Ranking:
    """A request's ranking over a snapshot, made when first read. A request about a
    named person is answered from that person's own facts: the ranking then only orders
    lines of equal standing, and ``scores`` gives it for their records without ranking
    the whole namespace (a thousandth of it, among a thousand namesakes)."""

    def __init__(
        self,
        snap: BlockSnapshot,
        request: str,
        partner: str,
        pool: Sequence[ActiveRecord] | None = None,
        rows: list[tuple[ActiveRecord, float]] | None = None,
    ) -> None:
        """``pool``: records read fresh, ranked with the snapshot's statistics; ``rows``:
        a ranking already made (and filtered)."""
        self.snap, self.request, self.partner, self.pool = snap, request, partner, pool
        # Whether the index scores any record of the snapshot (not a pool or given rows).
        self.whole = pool is None and rows is None
        if rows is not None:
            self.__dict__["rows"] = rows

    @functools.cached_property
    def rows(self) -> list[tuple[ActiveRecord, float]]:
        """The best lines, best first (``BlockSnapshot.rank``)."""
        return self.snap.rank(self.request, self.partner, self.pool)

    def scores(self, rows: Sequence[int]) -> dict[int, float]:
        """The score of each of the snapshot's records ``rows``, by position, without
        ranking the rest (a ranking over the ``whole`` snapshot only)."""
        positions = self.snap.records.pos
        query = f"{self.request} {self.partner}"
        found = self.snap.index.score_docs(query, np.asarray(rows, dtype=np.int32))
        return {positions[i]: s for i, s in zip(rows, found.tolist(), strict=True)}
