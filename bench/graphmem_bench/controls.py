"""The baselines CMC is compared against, as evidence controls.

``baselines()`` gives one Memory its set (``Memory.connect(..., evidence_controls=
baselines())``); the product itself only knows ``cmc``. Each control chooses records its
own way and goes through the same renderer and budget:

- ``prior_refresh``: select keys on the graph before the latest updates, then show their
  current values (what a memory that re-reads old links would do);
- ``stale_closure``: the closure over the current graph, but each key's previous value;
- ``bm25_top100`` / ``bm25_matched``: BM25 (bm25s) over current facts, the top 100 or as
  many as fit in CMC's own evidence size;
- ``dense_top100``: the same with sentence embeddings (needs an embedder);
- ``current_state`` / ``raw_history``: every current fact / every record;
- P-Mem's reads, ``state_top12`` (the 12 closest "key: value" heads) and
  ``turns_pruned`` (the 12 closest turns, older of two conflicting similar turns dropped).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from graphmem._errors import InvalidInputError
from graphmem.domain.evidence import EvidenceRecord, render
from graphmem.domain.soft_keys import cosine
from graphmem.reads.evidence import EvidenceControl, EvidenceReader, Selection
from graphmem.reads.ranking import simple_tokens
from graphmem.store.protocol import Store, Watermark
from graphmem_bench.reads import SnapshotVersion, anchors, named, snapshot_versions

__all__ = ["BM25Index", "Baselines", "Snapshot", "baselines", "bfs", "build_snapshot"]

V = SnapshotVersion


class BM25Index:
    """bm25s over pre-tokenized documents (the product's own tokenizer, so only the
    scorer differs from what CMC's reads see); Lucene's BM25 with k1 = 1.2, b = 0.75."""

    def __init__(
        self, texts: list[str], tokenize: Callable[[str], list[str]] = simple_tokens
    ) -> None:
        self.tokenize = tokenize
        try:
            import bm25s
        except ImportError:
            raise InvalidInputError(
                "the BM25 baselines need bm25s: pip install ./bench (graphmem-bench)"
            ) from None
        self.model = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
        self.model.index([tokenize(t) for t in texts], show_progress=False)
        self.vocab = self.model.vocab_dict

    def search(self, query: str) -> list[tuple[int, float]]:
        """Documents sharing a term with the query, best first (ties: earlier first)."""
        terms = [t for t in dict.fromkeys(self.tokenize(query)) if t in self.vocab]
        if not terms:
            return []
        scores = np.asarray(self.model.get_scores(terms))
        hits = np.nonzero(scores > 0)[0]
        return sorted(((int(i), float(scores[i])) for i in hits), key=lambda x: (-x[1], x[0]))


@dataclass
class Snapshot:
    """All versions of a namespace, indexed for the in-process controls."""

    versions: dict[str, V]
    records: dict[int, EvidenceRecord]
    heads: dict[str, V] = field(default_factory=dict)
    prior: dict[str, V] = field(default_factory=dict)
    out_head: dict[str, list[V]] = field(default_factory=lambda: defaultdict(list))
    out_prior: dict[str, list[V]] = field(default_factory=lambda: defaultdict(list))
    by_record: dict[int, list[V]] = field(default_factory=lambda: defaultdict(list))
    _bm25: tuple[BM25Index, list[V]] | None = None

    def __post_init__(self) -> None:
        for v in self.versions.values():
            for pos in v.evidence:
                self.by_record[pos].append(v)
            if v.is_head:
                self.heads[v.key] = v
                self.out_head[v.s].append(v)
        for key, h in self.heads.items():
            # The previous graph: each key's most recent earlier value that differs.
            preds = [self.versions[u] for u in h.supersedes if u in self.versions]
            prev = max(preds, key=lambda p: p.pos, default=None)
            p = prev if prev is not None and prev.value != h.value else h
            self.prior[key] = p
            self.out_prior[p.s].append(p)

    def bm25(self) -> tuple[BM25Index, list[V]]:
        if self._bm25 is None:
            docs = sorted(self.heads.values(), key=lambda v: v.pos)
            texts = [
                " ".join(self.records[p].text for p in v.evidence if p in self.records)
                + f" {v.subject} {v.relation.replace('_', ' ')} {v.value}"
                for v in docs
            ]
            self._bm25 = (BM25Index(texts), docs)
        return self._bm25


def build_snapshot(store: Store, ns: str) -> Snapshot:
    """Every version and record of the namespace, read now."""
    versions = {v.uid: v for v in snapshot_versions(named(store), ns)}
    records = {r.pos: r for r in store.all_records(ns)}
    return Snapshot(versions, records)


def bfs(anchors: list[str], out: Mapping[str, list[V]], hops: int) -> list[V]:
    """Keys reached from the anchor entities in fewer than ``hops`` steps."""
    depth = {a: 0 for a in anchors}
    queue = deque(anchors)
    selected: dict[str, V] = {}
    while queue:
        s = queue.popleft()
        if depth[s] >= hops:
            continue
        for v in out.get(s, ()):
            selected.setdefault(v.key, v)
            if v.o not in depth:
                depth[v.o] = depth[s] + 1
                queue.append(v.o)
    return list(selected.values())


def _recs(snap: Snapshot, vs: list[V]) -> list[EvidenceRecord]:
    return [snap.records[p] for v in vs for p in v.evidence if p in snap.records]


def _names(vs: list[V]) -> list[str]:
    return [f"{v.subject} / {v.relation}" for v in vs]


def _anchors(reader: EvidenceReader, question: str) -> tuple[list[str], list[str]]:
    found = anchors(named(reader.store), reader.spans(question))
    return [a.key for a in found], [a.name for a in found]


def _chosen(reader: EvidenceReader, anchors: list[str], vs: list[V], snap: Snapshot) -> Selection:
    """A key selection plus the unresolved records; nothing chosen means the whole history."""
    if not vs:
        return Selection(anchors, [], [], fallback=True)
    return Selection(
        anchors, _names(vs), _recs(snap, vs) + reader.store.unresolved_records(reader.ns)
    )


def raw_history(reader: EvidenceReader, question: str, hops: int, budget: int) -> Selection:
    return Selection([], [], reader.store.all_records(reader.ns))


class Baselines:
    """The baseline controls of one Memory and what they keep between calls: each
    namespace's snapshot (rebuilt when the namespace changed since) and the vectors of
    the texts embedded so far."""

    def __init__(self) -> None:
        self._snapshots: dict[str, tuple[Watermark, Snapshot]] = {}
        self._vectors: dict[str, list[float]] = {}

    def controls(self) -> dict[str, EvidenceControl]:
        return {
            "prior_refresh": self.prior_refresh,
            "stale_closure": self.stale_closure,
            "bm25_top100": self.bm25_top100,
            "bm25_matched": self.bm25_matched,
            "dense_top100": self.dense_top100,
            "current_state": self.current_state,
            "raw_history": raw_history,
            "state_top12": self.state_top12,
            "turns_pruned": self.turns_pruned,
        }

    def snapshot(self, reader: EvidenceReader) -> Snapshot:
        """The namespace's snapshot, rebuilt when the namespace changed since the last one."""
        mark = reader.store.watermark(reader.ns)
        cached = self._snapshots.get(reader.ns)
        if cached is None or cached[0] != mark:
            cached = (mark, build_snapshot(reader.store, reader.ns))
            self._snapshots[reader.ns] = cached
        return cached[1]

    def prior_refresh(
        self, reader: EvidenceReader, question: str, hops: int, budget: int
    ) -> Selection:
        snap = self.snapshot(reader)
        keys, anchors = _anchors(reader, question)
        chosen = bfs(keys, snap.out_prior, hops)
        return _chosen(reader, anchors, [snap.heads[v.key] for v in chosen], snap)

    def stale_closure(
        self, reader: EvidenceReader, question: str, hops: int, budget: int
    ) -> Selection:
        snap = self.snapshot(reader)
        keys, anchors = _anchors(reader, question)
        chosen = bfs(keys, snap.out_head, hops)
        return _chosen(reader, anchors, [snap.prior[v.key] for v in chosen], snap)

    def bm25_top100(
        self, reader: EvidenceReader, question: str, hops: int, budget: int
    ) -> Selection:
        snap = self.snapshot(reader)
        _, anchors = _anchors(reader, question)
        index, docs = snap.bm25()
        return _chosen(reader, anchors, [docs[i] for i, _ in index.search(question)][:100], snap)

    def bm25_matched(
        self, reader: EvidenceReader, question: str, hops: int, budget: int
    ) -> Selection:
        """BM25 given exactly as many characters as CMC's own evidence for the question."""
        snap = self.snapshot(reader)
        _, anchors = _anchors(reader, question)
        index, docs = snap.bm25()
        target = reader.evidence(question, hops, budget, "cmc").chars
        size, chosen = len(render([], budget)[0]), []
        for i, _ in index.search(question):
            v = docs[i]
            add = sum(len(snap.records[p].line()) for p in v.evidence if p in snap.records)
            if size + add > target:
                continue
            chosen.append(v)
            size += add
        return _chosen(reader, anchors, chosen, snap)

    def current_state(
        self, reader: EvidenceReader, question: str, hops: int, budget: int
    ) -> Selection:
        snap = self.snapshot(reader)
        heads = list(snap.heads.values())
        return Selection(
            [], _names(heads), _recs(snap, heads) + reader.store.unresolved_records(reader.ns)
        )

    def _embed(self, reader: EvidenceReader, control: str, texts: list[str]) -> list[list[float]]:
        if reader.meaning is None:
            raise InvalidInputError(
                f"{control} needs an embedder: configure MemoryConfig(embedder=...) (e.g. an "
                "OllamaClient, whose embed() uses Ollama's /api/embed)"
            )
        cache = self._vectors
        todo = [t for t in dict.fromkeys(texts) if t not in cache]
        if todo:
            for t, v in zip(todo, reader.meaning.embedder.embed(todo), strict=True):
                cache[t] = v
        return [cache[t] for t in texts]

    def _top(
        self, reader: EvidenceReader, control: str, question: str, texts: list[str], k: int
    ) -> list[int]:
        q = self._embed(reader, control, [question])[0]
        vecs = self._embed(reader, control, texts)
        scores = [cosine(q, v) for v in vecs]
        return sorted(range(len(texts)), key=lambda i: (-scores[i], i))[:k]

    def dense_top100(
        self, reader: EvidenceReader, question: str, hops: int, budget: int
    ) -> Selection:
        snap = self.snapshot(reader)
        _, anchors = _anchors(reader, question)
        docs = sorted(snap.heads.values(), key=lambda v: v.pos)
        texts = [
            " ".join(snap.records[p].text for p in v.evidence if p in snap.records) for v in docs
        ]
        top = [docs[i] for i in self._top(reader, "dense_top100", question, texts, 100)]
        return _chosen(reader, anchors, top, snap)

    def state_top12(
        self, reader: EvidenceReader, question: str, hops: int, budget: int
    ) -> Selection:
        """P-Mem's state read: each head as "key: value", the 12 closest to the question."""
        snap = self.snapshot(reader)
        _, anchors = _anchors(reader, question)
        docs = sorted(snap.heads.values(), key=lambda v: v.pos)
        texts = [f"{v.subject} {v.relation.replace('_', ' ')}: {v.value}" for v in docs]
        top = [docs[i] for i in self._top(reader, "state_top12", question, texts, 12)]
        return _chosen(reader, anchors, top, snap)

    def turns_pruned(
        self, reader: EvidenceReader, question: str, hops: int, budget: int
    ) -> Selection:
        """P-Mem's turn read: the 12 closest turns; of two similar turns (cosine >= 0.55)
        from different dates that give different values for one key, the earlier goes.
        The slot check reads the keys the controller stored; the date decides the
        direction, never a model."""
        snap = self.snapshot(reader)
        _, anchors = _anchors(reader, question)
        turns = sorted(snap.records.values(), key=lambda r: r.pos)
        texts = [t.text for t in turns]
        picked = [turns[i] for i in self._top(reader, "turns_pruned", question, texts, 12)]
        vecs = self._embed(reader, "turns_pruned", [t.text for t in picked])
        dropped: set[int] = set()
        for a in range(len(picked)):
            for b in range(a + 1, len(picked)):
                ra, rb = picked[a], picked[b]
                da, db = (ra.observed_at or "")[:10], (rb.observed_at or "")[:10]
                if da == db or cosine(vecs[a], vecs[b]) < 0.55:
                    continue
                ka = {v.key: v.value for v in snap.by_record.get(ra.pos, [])}
                kb = {v.key: v.value for v in snap.by_record.get(rb.pos, [])}
                if any(k in kb and ka[k] != kb[k] for k in ka):
                    dropped.add(ra.pos if da < db else rb.pos)
        kept = [t for t in picked if t.pos not in dropped]
        if not kept:
            return Selection(anchors, [], [], fallback=True)
        return Selection(anchors, [], kept + reader.store.unresolved_records(reader.ns))


def baselines() -> dict[str, EvidenceControl]:
    """A fresh set of the baseline controls, for one Memory:
    ``Memory.connect(uri, ns, evidence_controls=baselines())``."""
    return Baselines().controls()
