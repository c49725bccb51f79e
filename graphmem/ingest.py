"""The write path: records in, facts extracted and keyed, one locked transaction out.

For each batch: skip records the namespace already knows (a cheap look first, so an LLM
extractor is not called twice; the decision is made again under the lock), extract the
records that carry no facts, key every fact, then in one transaction holding the
namespace's lock number new records, load the keys, run the controller and write the
plan. Re-sending a batch changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from graphmem._errors import InvalidInputError
from graphmem.domain.controller import Controller, FactContext, Plan
from graphmem.domain.keys import RelationRegistry
from graphmem.domain.model import (
    MAX_POS,
    Fact,
    ParseStatus,
    Record,
    content_id,
    erased_ref,
    legacy_content_id,
    utc_now_iso,
)
from graphmem.domain.soft_keys import SoftKeyMatcher
from graphmem.extract.base import Extraction, Extractor
from graphmem.language.relative_time import resolve_times
from graphmem.reads.ranking import mention_keys
from graphmem.results import IngestReport
from graphmem.store.protocol import Store, StoreTransaction

__all__ = ["IngestPipeline", "record_from_mapping"]

# A fact as the transaction applies it: (key, where it came from, the fact).
_Work = list[tuple[str, FactContext, Fact]]


@dataclass(frozen=True)
class _Prepared:
    uid: str
    row: dict[str, Any]  # the Evidence node's properties
    work: _Work


class IngestPipeline:
    """Writes records into one namespace (``Memory.ingest`` and the one-fact writes)."""

    def __init__(
        self,
        store: Store,
        namespace: str,
        controller: Controller,
        registry: RelationRegistry,
        extractor: Extractor | None,
        soft_keys: SoftKeyMatcher | None = None,
        record_key: bytes = b"graphmem",
        *,
        on_names: Callable[[set[str]], None] | None = None,
    ) -> None:
        self.store = store
        self.record_key = record_key  # keys the ids of records sent without one
        self.ns = namespace
        self.controller = controller
        self.registry = registry
        self.extractor = extractor
        self.soft_keys = soft_keys
        # Told the names of every version written (the cross-script index adds them).
        self.on_names = on_names

    def record_uid(self, record_id: str) -> str:
        return f"{self.ns}/{record_id}"

    def erased_ref(self, uid: str) -> str:
        """What an erase tombstone keeps of the record ``uid`` (a keyed hash)."""
        return erased_ref(uid, self.record_key)

    def ingest(
        self,
        records: Iterable[Record | Mapping[str, Any]],
        *,
        batch_size: int = 5000,
        progress: bool = False,
    ) -> IngestReport:
        if (
            isinstance(batch_size, bool)
            or not isinstance(batch_size, int)
            or not 1 <= batch_size <= 100_000
        ):
            raise InvalidInputError(f"batch_size must be 1-100000, got {batch_size!r}")
        t0 = time.perf_counter()
        report = IngestReport()
        valid: list[Record] = []
        for i, item in enumerate(records):
            report.records += 1
            try:
                valid.append(item if isinstance(item, Record) else record_from_mapping(item))
            except (InvalidInputError, TypeError) as exc:
                rid = item.get("id") if isinstance(item, Mapping) else None
                report.errors.append({"index": i, "id": rid, "error": str(exc)})
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(valid), unit="rec", desc="ingest")
        for start in range(0, len(valid), batch_size):
            batch = valid[start : start + batch_size]
            self.write_batch(batch, report)
            if bar is not None:
                bar.update(len(batch))
        if bar is not None:
            bar.close()
        report.seconds = time.perf_counter() - t0
        return report

    def identified(self, record: Record) -> Record:
        """The record with its id: the caller's, or one derived from its content."""
        if record.id is not None:
            return record
        return record.with_id(content_id(record, self.record_key))

    def write_batch(self, batch: list[Record], report: IngestReport) -> Plan:
        # The same id twice in one batch: the first wins, as if sent one after the other.
        unique: dict[str, Record] = {}
        # Derived ids only: uid -> the unkeyed uid earlier versions gave the same record.
        legacy: dict[str, str] = {}
        for r in batch:
            if r.id is None:
                old = self.record_uid(legacy_content_id(r))
                r = self.identified(r)
                legacy[self.record_uid(str(r.id))] = old
            uid = self.record_uid(str(r.id))
            if uid in unique:
                report.skipped_known += 1
            else:
                unique[uid] = r

        def known_of(uids: list[str], found: Mapping[str, str]) -> dict[str, str]:
            # An erased record the caller named stays erased (a replayed export does not
            # bring it back); a derived id is not held against the same words said again,
            # so no answer tells anyone that a text was erased. A record stored under the
            # unkeyed id of earlier versions is still known.
            out = {u: st for u, st in found.items() if not (st == "erased" and u in legacy)}
            for u in uids:
                if found.get(legacy.get(u, "")) == "stored":
                    out[u] = "stored"
            return out

        def lookup(
            read: Callable[[str, Mapping[str, str]], Mapping[str, str]], uids: list[str]
        ) -> dict[str, str]:
            olds = [legacy[u] for u in uids if u in legacy]
            return known_of(uids, read(self.ns, {u: self.erased_ref(u) for u in [*uids, *olds]}))

        t_db = time.perf_counter()
        known = lookup(self.store.known_records, list(unique))
        report.db_seconds += time.perf_counter() - t_db
        for uid in unique:
            if known.get(uid) == "stored":
                report.skipped_known += 1
            elif known.get(uid) == "erased":
                report.skipped_erased += 1
        t_parse = time.perf_counter()
        # Records without a position get the next ones, in the order given, inside the
        # locked transaction (so concurrent writers never share a position).
        candidates = sorted(
            ((uid, r) for uid, r in unique.items() if uid not in known),
            key=lambda ur: (ur[1].pos is None, ur[1].pos or 0),
        )
        prepared, statuses = self._prepare(candidates, report)
        report.parse_seconds += time.perf_counter() - t_parse

        def write(tx: StoreTransaction) -> tuple[Plan, list[str], dict[str, str]]:
            # Under the namespace lock: what is known now is final for this transaction.
            late = lookup(tx.known_records, [p.uid for p in prepared])
            rows = [p for p in prepared if p.uid not in late]
            if any(p.row["pos"] is None for p in rows):
                rows = self._number(tx, rows)
            facts = [w for p in rows for w in p.work]
            states = tx.load_keys(self.ns, (k for k, _, _ in facts))
            plan = Plan()
            for key, ctx, fact in facts:
                self.controller.apply(states[key], fact, ctx, plan)
            tx.write_plan(self.ns, [p.row for p in rows], plan)
            return plan, [p.uid for p in rows], late

        t_db = time.perf_counter()
        plan, stored, late = self.store.transact(self.ns, write)
        report.db_seconds += time.perf_counter() - t_db
        report.skipped_known += sum(1 for st in late.values() if st == "stored")
        report.skipped_erased += sum(1 for st in late.values() if st == "erased")
        report.stored += len(stored)
        report.facts += len(plan.operations)
        for uid in stored:
            if statuses[uid] is ParseStatus.UNRESOLVED:
                report.unresolved += 1
            elif statuses[uid] is ParseStatus.NO_FACT:
                report.no_fact += 1
        for kind, n in plan.op_counts().items():
            report.ops[kind] = report.ops.get(kind, 0) + n
        if self.on_names is not None and plan.new_versions:
            self.on_names({n for v in plan.new_versions.values() for n in (v.subject, v.value)})
        return plan

    def _prepare(
        self, candidates: list[tuple[str, Record]], report: IngestReport
    ) -> tuple[list[_Prepared], dict[str, ParseStatus]]:
        now = utc_now_iso()
        prepared: list[_Prepared] = []
        statuses: dict[str, ParseStatus] = {}
        extractions = self._extract_all([r for _, r in candidates])
        for (uid, r), extraction in zip(candidates, extractions, strict=True):
            try:
                if self.soft_keys is not None:
                    extraction = self._soft_align(extraction)
                keys = [self.controller.key_for(f)[0] for f in extraction.facts]
            except InvalidInputError as exc:
                # A fact we cannot key is not guessed at: the record is kept raw.
                report.errors.append({"id": r.id, "error": str(exc)})
                extraction, keys = Extraction.unresolved(f"unkeyable fact: {exc}"), []
            statuses[uid] = extraction.status
            observed = r.observed_at or now
            row = {
                "uid": uid,
                "ns": self.ns,
                "record_id": r.id,
                "pos": r.pos,
                "text": r.text,
                "speaker": r.speaker,
                "participants": list(r.participants),
                "observed_at": observed,
                "stated_at": r.stated_at,
                "source": r.source,
                "authority": int(r.authority),
                "parse": str(extraction.status),
                "parse_note": extraction.reason or None,
                # "yesterday" said on 8 May means 7 May: resolved once, kept beside it.
                "times": [t.stored() for t in resolve_times(r.text, observed)] or None,
                # What a raw record mentions, linked in the graph: evidence walks from the
                # turns that answer a question to others that mention the same things.
                "mentions": (
                    mention_keys(r.text, [r.speaker or "", *r.participants])
                    if extraction.status is ParseStatus.UNRESOLVED
                    else []
                ),
            }
            work = [
                (
                    key,
                    FactContext(
                        record_uid=uid,
                        pos=r.pos if r.pos is not None else -1,
                        fact_index=i,
                        observed_at=observed,
                        stated_at=r.stated_at,
                        authority=int(r.authority),
                        source=r.source_identity,
                    ),
                    fact,
                )
                for i, (fact, key) in enumerate(zip(extraction.facts, keys, strict=True))
            ]
            prepared.append(_Prepared(uid, row, work))
        return prepared, statuses

    def _number(self, tx: StoreTransaction, rows: list[_Prepared]) -> list[_Prepared]:
        """Give records without a position the next free ones (called under the lock)."""
        nxt = tx.max_pos(self.ns) + 1
        needed = sum(p.row["pos"] is None for p in rows)
        if nxt + needed > MAX_POS:
            raise InvalidInputError(
                f"namespace {self.ns!r} has no positions left for {needed} more records "
                f"(the highest is {nxt - 1:,}); erase the records numbered near {MAX_POS:,}"
            )
        out = []
        for p in rows:
            if p.row["pos"] is None:
                p = _Prepared(
                    p.uid,
                    {**p.row, "pos": nxt},
                    [(k, replace(ctx, pos=nxt), f) for k, ctx, f in p.work],
                )
                nxt += 1
            out.append(p)
        return out

    def _soft_align(self, extraction: Extraction) -> Extraction:
        """Replace each fact's relation by the known one soft key identity confirms."""
        assert self.soft_keys is not None
        facts = tuple(
            Fact(f.subject, self.soft_keys.align(f.relation, self.registry), f.value, f.intent)
            for f in extraction.facts
        )
        return Extraction(extraction.status, facts, extraction.reason, extraction.extra)

    def _extract_all(self, records: list[Record]) -> list[Extraction]:
        """Extract a batch; extractors with ``extract_many`` (the LLM) get one call per batch."""
        many = getattr(self.extractor, "extract_many", None)
        todo = [r for r in records if r.facts is None]
        if many is None or not todo:
            return [self._extract(r) for r in records]
        try:
            got = dict(zip((id(r) for r in todo), many(todo), strict=True))
        except Exception as exc:  # the batch is kept raw rather than lost
            reason = f"extractor failed: {type(exc).__name__}: {exc}"
            got = {id(r): Extraction.unresolved(reason) for r in todo}
        return [got[id(r)] if r.facts is None else self._extract(r) for r in records]

    def _extract(self, record: Record) -> Extraction:
        if record.facts is not None:
            return Extraction.found(*record.facts)
        if self.extractor is None:
            return Extraction.unresolved("no extractor")
        try:
            return self.extractor.extract(record)
        except Exception as exc:  # an extractor bug must not lose the record
            return Extraction.unresolved(f"extractor failed: {type(exc).__name__}: {exc}")


def record_from_mapping(item: Mapping[str, Any]) -> Record:
    """A record given as a mapping (JSON), with facts as mappings or ``Fact`` objects."""
    if not isinstance(item, Mapping):
        raise InvalidInputError(f"a record must be a mapping or Record, got {type(item).__name__}")
    if "text" not in item:
        raise InvalidInputError("a record needs a 'text' field")
    data = dict(item)
    facts = data.pop("facts", None)
    if facts is not None:
        if not isinstance(facts, list | tuple):
            raise InvalidInputError("a record's 'facts' must be a list")
        try:
            data["facts"] = tuple(f if isinstance(f, Fact) else Fact(**f) for f in facts)
        except TypeError as exc:
            raise InvalidInputError(f"a fact has unknown or missing fields: {exc}") from None
    allowed = set(Record.__dataclass_fields__)
    unknown = set(data) - allowed
    if unknown:
        raise InvalidInputError(f"unknown record fields: {sorted(unknown)}")
    return Record(**data)
