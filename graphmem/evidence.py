"""Read path A: evidence for a question (CMC: resolve at write time, then traverse).

``cmc`` runs anchoring and the bounded closure as one Cypher query. The comparison
controls read an in-process snapshot of the namespace's versions (loaded with a Cypher
query, cached until the namespace changes) and go through the same renderer and budget.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from graphmem._errors import InvalidInputError
from graphmem.domain.anchor import candidate_spans
from graphmem.domain.evidence import Evidence, EvidenceRecord, render
from graphmem.domain.soft_keys import cosine
from graphmem.retrieval.bm25 import BM25
from graphmem.store.neo4j.store import Neo4jStore

__all__ = ["CONTROLS", "EvidenceReader"]

CONTROLS = (
    "cmc", "prior_refresh", "stale_closure", "bm25_top100", "bm25_matched", "dense_top100",
    "current_state", "raw_history", "state_top12", "turns_pruned",
)
MAX_HOPS = 10
MAX_QUESTION_CHARS = 20_000


@dataclass
class _V:
    uid: str
    key: str
    subject: str
    relation: str
    value: str
    status: str
    is_head: bool
    pos: int
    s: str
    o: str
    supersedes: list[str]
    evidence: list[int]


@dataclass
class Snapshot:
    """All versions of a namespace, indexed for the in-process controls."""

    versions: dict[str, _V]
    records: dict[int, EvidenceRecord]
    heads: dict[str, _V] = field(default_factory=dict)
    prior: dict[str, _V] = field(default_factory=dict)
    out_head: dict[str, list[_V]] = field(default_factory=lambda: defaultdict(list))
    out_prior: dict[str, list[_V]] = field(default_factory=lambda: defaultdict(list))
    by_record: dict[int, list[_V]] = field(default_factory=lambda: defaultdict(list))
    _bm25: BM25 | None = None
    _bm25_docs: list[_V] = field(default_factory=list)

    def __post_init__(self) -> None:
        for v in self.versions.values():
            for p in v.evidence:
                self.by_record[p].append(v)
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

    def bm25(self) -> tuple[BM25, list[_V]]:
        if self._bm25 is None:
            docs = sorted(self.heads.values(), key=lambda v: v.pos)
            texts = [" ".join(self.records[p].text for p in v.evidence if p in self.records)
                     + f" {v.subject} {v.relation.replace('_', ' ')} {v.value}" for v in docs]
            self._bm25, self._bm25_docs = BM25(texts), docs
        return self._bm25, self._bm25_docs


def _bfs(anchors: list[str], out: Mapping[str, list[_V]], hops: int) -> list[_V]:
    depth = {a: 0 for a in anchors}
    queue, selected = deque(anchors), {}
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


class EvidenceReader:
    def __init__(self, store: Neo4jStore, namespace: str,
                 aliases: Mapping[str, str], embed: Callable[[list[str]], Any] | None = None
                 ) -> None:
        self.store = store
        self.ns = namespace
        self.aliases = aliases
        self.embed = embed
        self._vec_cache: dict[str, list[float]] = {}
        self._snapshot: Snapshot | None = None
        self._mark: dict[str, int] | None = None

    # -- shared helpers -----------------------------------------------------------
    def _spans(self, question: str) -> list[dict[str, Any]]:
        return [{"uid": f"{self.ns}/{name}", "start": s, "end": e}
                for name, s, e in candidate_spans(question, self.aliases)]

    def _unresolved(self) -> list[EvidenceRecord]:
        return [EvidenceRecord(r["pos"], r["text"], r["record_id"], r["speaker"],
                               r["observed_at"])
                for r in self.store.run("unresolved_records", {"ns": self.ns})]

    def snapshot(self) -> Snapshot:
        mark = self.store.run("watermark", {"ns": self.ns})[0]
        if self._snapshot is None or mark != self._mark:
            rows = self.store.run("graph_snapshot", {"ns": self.ns})
            versions = {r["uid"]: _V(**r) for r in rows}
            records = {r["pos"]: EvidenceRecord(r["pos"], r["text"], r["record_id"],
                                                r["speaker"], r["observed_at"])
                       for r in self.store.run("all_records", {"ns": self.ns})}
            self._snapshot, self._mark = Snapshot(versions, records), mark
        return self._snapshot

    # -- the entry point ----------------------------------------------------------------
    def evidence(self, question: str, hops: int = 5, budget_chars: int = 60_000,
                 control: str = "cmc") -> Evidence:
        if not isinstance(question, str) or not question.strip():
            raise InvalidInputError("question must be a non-empty string")
        if len(question) > MAX_QUESTION_CHARS:
            raise InvalidInputError(
                f"question has {len(question):,} characters; the limit is {MAX_QUESTION_CHARS:,}"
            )
        if not isinstance(hops, int) or not 1 <= hops <= MAX_HOPS:
            raise InvalidInputError(f"hops must be an integer from 1 to {MAX_HOPS}, got {hops!r}")
        if not isinstance(budget_chars, int) or budget_chars < 200:
            raise InvalidInputError("budget_chars must be an integer of at least 200")
        if control not in CONTROLS:
            raise InvalidInputError(f"unknown control {control!r}; choose from {CONTROLS}")
        t0 = time.perf_counter()
        if control == "cmc":
            anchors, picked, records = self._cmc(question, hops)
        else:
            anchors, picked, records = self._control(question, hops, budget_chars, control)
        if control == "turns_pruned":  # selects turns, not keys
            fallback = not records
        else:
            fallback = not picked and control not in ("current_state", "raw_history")
        if fallback or control == "raw_history":
            snap = self.snapshot()
            records = list(snap.records.values())
        elif control != "cmc":  # cmc's query returned the unresolved records already
            records = records + self._unresolved()
        text, kept, truncated = render(records, budget_chars)
        return Evidence(
            text=text, records=kept, anchors=anchors, keys=picked, fallback=fallback,
            control=control, hops=hops, truncated=truncated,
            stats={"ms": (time.perf_counter() - t0) * 1000},
        )

    def _cmc(self, question: str, hops: int) -> tuple[list[str], list[str], list[EvidenceRecord]]:
        rows = self.store.run(
            "evidence_cmc", {"spans": self._spans(question), "hops": hops, "ns": self.ns}
        )
        row = rows[0]
        edges = sorted(row["edges"], key=lambda e: (e["depth"], e["key"]))
        keys = list(dict.fromkeys(f"{e['subject']} / {e['relation']}" for e in edges))
        found = [ev for e in edges for ev in e["evidence"]] + list(row["unresolved"])
        records = [EvidenceRecord(ev["pos"], ev["text"], ev["record_id"], ev["speaker"],
                                  ev["observed_at"]) for ev in found]
        return list(row["anchors"]), keys, records

    def _anchors(self, question: str) -> tuple[list[str], list[str]]:
        rows = self.store.run("anchors", {"spans": self._spans(question)})
        return [r["key"] for r in rows], [r["name"] for r in rows]

    def _control(self, question: str, hops: int, budget: int, control: str
                 ) -> tuple[list[str], list[str], list[EvidenceRecord]]:
        snap = self.snapshot()

        def recs(vs: list[_V]) -> list[EvidenceRecord]:
            return [snap.records[p] for v in vs for p in v.evidence if p in snap.records]

        def names(vs: list[_V]) -> list[str]:
            return [f"{v.subject} / {v.relation}" for v in vs]

        if control == "current_state":
            heads = list(snap.heads.values())
            return [], names(heads), recs(heads)
        if control == "raw_history":
            return [], [], []
        anchor_keys, anchors = self._anchors(question)
        if control == "prior_refresh":
            # Select keys on the pre-update graph, then refresh their values.
            chosen = _bfs(anchor_keys, snap.out_prior, hops)
            heads = [snap.heads[v.key] for v in chosen]
            return anchors, names(heads), recs(heads)
        if control == "stale_closure":
            chosen = _bfs(anchor_keys, snap.out_head, hops)
            stale = [snap.prior[v.key] for v in chosen]
            return anchors, names(stale), recs(stale)
        if control in ("bm25_top100", "bm25_matched"):
            index, docs = snap.bm25()
            ranked = [docs[i] for i, _ in index.search(question)]
            if control == "bm25_top100":
                top = ranked[:100]
                return anchors, names(top), recs(top)
            target = self.evidence(question, hops, budget, "cmc").chars
            size, chosen_docs = len(render([], budget)[0]), []
            for v in ranked:
                add = sum(len(snap.records[p].line()) for p in v.evidence if p in snap.records)
                if size + add > target:
                    continue
                chosen_docs.append(v)
                size += add
            return anchors, names(chosen_docs), recs(chosen_docs)
        if control in ("dense_top100", "state_top12", "turns_pruned"):
            if self.embed is None:
                raise InvalidInputError(
                    f"{control} needs an embedder: set Memory.embedder (e.g. an OllamaClient, "
                    "whose embed() uses Ollama's /api/embed)"
                )
            if control == "dense_top100":
                docs = sorted(snap.heads.values(), key=lambda v: v.pos)
                texts = [" ".join(snap.records[p].text for p in v.evidence
                                  if p in snap.records) for v in docs]
                top = [docs[i] for i in self._top(question, texts, 100)]
                return anchors, names(top), recs(top)
            if control == "state_top12":
                # P-Mem's state read: each head as "key: value", the 12 closest to the question.
                docs = sorted(snap.heads.values(), key=lambda v: v.pos)
                texts = [f"{v.subject} {v.relation.replace('_', ' ')}: {v.value}" for v in docs]
                top = [docs[i] for i in self._top(question, texts, 12)]
                return anchors, names(top), recs(top)
            return anchors, [], self._turns_pruned(question, snap)
        raise InvalidInputError(f"unknown control {control!r}")

    def _vectors(self, texts: list[str]) -> list[list[float]]:
        todo = [t for t in dict.fromkeys(texts) if t not in self._vec_cache]
        if todo:
            assert self.embed is not None
            for t, v in zip(todo, self.embed(todo), strict=True):
                self._vec_cache[t] = v
        return [self._vec_cache[t] for t in texts]

    def _top(self, question: str, texts: list[str], k: int) -> list[int]:
        q = self._vectors([question])[0]
        vecs = self._vectors(texts)
        scores = [cosine(q, v) for v in vecs]
        return sorted(range(len(texts)), key=lambda i: (-scores[i], i))[:k]

    def _turns_pruned(self, question: str, snap: Snapshot) -> list[EvidenceRecord]:
        """P-Mem's turn read: the 12 closest turns; of two similar turns (cosine >= 0.55)
        from different dates that give different values for one key, the earlier goes.
        The slot check reads the keys the controller stored; the date decides the
        direction, never a model."""
        turns = sorted(snap.records.values(), key=lambda r: r.pos)
        picked = [turns[i] for i in self._top(question, [t.text for t in turns], 12)]
        vecs = self._vectors([t.text for t in picked])
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
        return [t for t in picked if t.pos not in dropped]

