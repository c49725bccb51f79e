"""``Memory``: the one entry class. Everything else is reached through it."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.parse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from graphmem._cypher import cypher
from graphmem._errors import ConflictError, InvalidInputError, NotFoundError
from graphmem.blocks import BlockServer
from graphmem.domain.aliases import KOREAN_ALIASES
from graphmem.domain.block import Block
from graphmem.domain.controller import (
    Controller,
    FactContext,
    KeyState,
    Plan,
    stable_id,
)
from graphmem.domain.evidence import Evidence
from graphmem.domain.keys import RelationRegistry, make_key
from graphmem.domain.model import (
    Fact,
    Intent,
    ParseStatus,
    Record,
    Status,
    utc_now_iso,
)
from graphmem.domain.soft_keys import SoftKeyMatcher
from graphmem.evidence import EvidenceReader
from graphmem.extract.base import Extraction, Extractor
from graphmem.llm.base import Embedder, LLMClient
from graphmem.reader import Answer, read
from graphmem.store.neo4j.store import Neo4jStore, TxStore, kid_of

__all__ = ["EraseReport", "Evidence", "Explanation", "IngestReport", "Memory", "WriteResult"]

_NAMESPACE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def validate_namespace(ns: str) -> str:
    if not isinstance(ns, str) or not _NAMESPACE.match(ns):
        raise InvalidInputError(
            f"namespace {ns!r} is invalid: use 1-64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit"
        )
    return ns


@dataclass
class IngestReport:
    records: int = 0
    stored: int = 0
    skipped_known: int = 0
    skipped_erased: int = 0
    facts: int = 0
    unresolved: int = 0
    no_fact: int = 0
    ops: dict[str, int] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    parse_seconds: float = 0.0
    db_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def summary(self) -> str:
        ops = ", ".join(f"{k} {v}" for k, v in sorted(self.ops.items())) or "none"
        return (
            f"{self.stored} of {self.records} records stored ({self.skipped_known} already known, "
            f"{self.skipped_erased} erased, {len(self.errors)} rejected); {self.facts} facts, "
            f"{self.unresolved} unresolved, {self.no_fact} without facts; ops: {ops}; "
            f"{self.seconds:.2f}s (parse {self.parse_seconds:.2f}s, db {self.db_seconds:.2f}s)"
        )


@dataclass(frozen=True)
class WriteResult:
    """What one remembered fact did to its key."""

    op: str
    key: str
    head: str | None
    status: str | None
    note: str = ""


@dataclass
class Explanation:
    """The answer to "why do you remember this?" for one (subject, relation)."""

    subject: str
    relation: str
    head: dict[str, Any] | None
    versions: list[dict[str, Any]]
    cypher: str
    params: dict[str, Any]
    browser_url: str | None = None

    @property
    def status(self) -> str | None:
        return self.head["status"] if self.head else None

    @property
    def value(self) -> str | None:
        return self.head["value"] if self.head else None

    def _by_uid(self) -> dict[str, dict[str, Any]]:
        return {v["uid"]: v for v in self.versions}

    @property
    def replaced(self) -> list[dict[str, Any]]:
        """Versions the head superseded or contradicted, newest first."""
        if not self.head:
            return []
        by_uid, out, seen = self._by_uid(), [], set()
        todo = list(self.head.get("supersedes", []))
        while todo:
            uid = todo.pop(0)
            if uid in seen or uid not in by_uid:
                continue
            seen.add(uid)
            out.append(by_uid[uid])
            todo.extend(by_uid[uid].get("supersedes", []))
        return sorted(out, key=lambda v: v["pos"], reverse=True)

    @property
    def alternatives(self) -> list[dict[str, Any]]:
        if not self.head:
            return []
        return [v for v in self.versions if v.get("alternative_of") == self.head["uid"]]

    @property
    def tombstones(self) -> list[dict[str, Any]]:
        return [t | {"value": v["value"]} for v in self.versions for t in v.get("tombstones", [])]

    def text(self) -> str:
        """One or two sentences a person can read."""
        if not self.versions:
            return f"Nothing is remembered about {self.subject} / {self.relation}."
        if self.head is None:
            last = self.versions[-1]
            return (
                f"{self.subject} / {self.relation}: no current value "
                f"(last value {last['value']!r} is {last['status']})."
            )

        def src(v: dict[str, Any]) -> str:
            ev = v.get("evidence") or []
            if not ev:
                return "no record"
            e = max(ev, key=lambda e: e.get("pos") or 0)
            quote = (e.get("text") or "")[:120]
            return f"from {quote!r}"

        def when(v: dict[str, Any]) -> str:
            t = v.get("stated_at") or v.get("valid_from") or v.get("tx_from")
            return f" since {t[:10]}" if t else ""

        h = self.head
        parts = [f"{h['value']}{when(h)}, {src(h)}"]
        if h["status"] == Status.CONTESTED:
            alts = ", ".join(f"{a['value']!r} ({src(a)})" for a in self.alternatives)
            parts[0] += f" — contested by {alts}"
        for old in self.replaced[:3]:
            if old["status"] == Status.REVOKED:
                continue
            verb = "contradicted" if old["status"] == Status.CONTRADICTED else "replaced"
            parts.append(f"{verb} {old['value']}{when(old)}, {src(old)}")
        for v in self.versions:
            if v["status"] == Status.REVOKED:
                at = (v.get("tombstones") or [{}])[-1].get("at") or ""
                parts.append(f"{v['value']} was revoked {at[:10]}".rstrip())
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "subject": self.subject, "relation": self.relation, "head": self.head,
            "status": self.status, "value": self.value, "text": self.text(),
            "versions": self.versions, "cypher": self.cypher, "params": self.params,
            "browser_url": self.browser_url,
        }


@dataclass(frozen=True)
class EraseReport:
    record_id: str
    versions_removed: int
    keys_rematerialized: int


class Memory:
    """A namespace of agent memory stored in Neo4j.

    >>> mem = Memory.connect()                      # local Neo4j, started if needed
    >>> mem.remember("Minjun", "standup time", "9:30", text="Standup is at 9:30")
    """

    def __init__(
        self,
        store: Neo4jStore,
        namespace: str = "default",
        *,
        registry: RelationRegistry | None = None,
        preserve_history: bool = True,
        http_url: str | None = None,
    ) -> None:
        self.store = store
        self.namespace = validate_namespace(namespace)
        self.registry = registry or RelationRegistry()
        self.controller = Controller(
            self.registry, namespace=self.namespace, preserve_history=preserve_history
        )
        self.http_url = http_url
        self.bolt_url: str | None = None
        self.no_auth = True
        self.aliases: dict[str, str] = dict(KOREAN_ALIASES)
        self._reader = EvidenceReader(store, self.namespace, self.aliases)
        self._blocks: BlockServer | None = None
        self._embedder: Embedder | None = None
        self.soft_keys: SoftKeyMatcher | None = None  # set to align unseen relation names

    # -- connection ----------------------------------------------------------------
    @classmethod
    def connect(
        cls,
        uri: str | None = None,
        namespace: str = "default",
        *,
        auth: tuple[str, str] | None = None,
        database: str | None = None,
        registry: RelationRegistry | None = None,
        preserve_history: bool = True,
        install_schema: bool = True,
    ) -> Memory:
        """Connect to ``uri``, else ``$NEO4J_URI``, else the local Neo4j (started if needed)."""
        http_url = os.environ.get("GRAPHMEM_NEO4J_HTTP")
        uri = uri or os.environ.get("NEO4J_URI")
        if uri is None:
            from graphmem.local_neo4j import LocalNeo4j

            local = LocalNeo4j()
            status = local.start()
            uri = status.bolt_url
            http_url = f"http://127.0.0.1:{local.http_port}"
        if auth is None and os.environ.get("NEO4J_USER"):
            auth = (os.environ["NEO4J_USER"], os.environ.get("NEO4J_PASSWORD", ""))
        store = Neo4jStore.connect(uri, auth=auth, database=database)
        if install_schema:
            store.install_schema()
        mem = cls(
            store, namespace, registry=registry, preserve_history=preserve_history,
            http_url=http_url,
        )
        mem.bolt_url, mem.no_auth = uri, auth is None
        return mem

    def close(self) -> None:
        if self._blocks is not None:
            self._blocks.close()
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _uid(self, record_id: str) -> str:
        return f"{self.namespace}/{record_id}"

    # -- writing ---------------------------------------------------------------------
    def ingest(
        self,
        records: Iterable[Record | Mapping[str, Any]],
        extractor: Extractor | None = None,
        *,
        batch_size: int = 5000,
        progress: bool = False,
    ) -> IngestReport:
        """Store records and apply their facts. Known record ids are skipped (idempotent)."""
        t0 = time.perf_counter()
        report = IngestReport()
        valid: list[Record] = []
        for i, item in enumerate(records):
            report.records += 1
            try:
                valid.append(item if isinstance(item, Record) else _record_from_mapping(item))
            except (InvalidInputError, TypeError) as exc:
                rid = item.get("id") if isinstance(item, Mapping) else None
                report.errors.append({"index": i, "id": rid, "error": str(exc)})
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(valid), unit="rec", desc="ingest")
        for start in range(0, len(valid), batch_size):
            batch = valid[start : start + batch_size]
            self._ingest_batch(batch, extractor, report)
            if bar is not None:
                bar.update(len(batch))
        if bar is not None:
            bar.close()
        report.seconds = time.perf_counter() - t0
        return report

    def _ingest_batch(
        self, batch: list[Record], extractor: Extractor | None, report: IngestReport
    ) -> Plan:
        # The same id twice in one batch: the first wins, as if sent one after the other.
        unique: dict[str, Record] = {}
        for r in batch:
            if self._uid(str(r.id)) in unique:
                report.skipped_known += 1
            else:
                unique[self._uid(str(r.id))] = r
        # An optimistic look first, so known records are not extracted again (an LLM call);
        # the decision is made again inside the locked transaction below.
        t_db = time.perf_counter()
        known = self.store.known_records(self.namespace, unique)
        report.db_seconds += time.perf_counter() - t_db
        t_parse = time.perf_counter()
        # Records without a position get the next ones, in the order given, inside the
        # locked transaction (so concurrent writers never share a position).
        candidates = sorted(
            ((uid, r) for uid, r in unique.items() if uid not in known),
            key=lambda ur: (ur[1].pos is None, ur[1].pos or 0),
        )
        now = utc_now_iso()
        prepared: list[tuple[str, dict[str, Any], list[tuple[str, FactContext, Fact]]]] = []
        statuses: dict[str, ParseStatus] = {}
        extractions = self._extract_all([r for _, r in candidates], extractor)
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
                "uid": uid, "ns": self.namespace, "record_id": r.id, "pos": r.pos, "text": r.text,
                "speaker": r.speaker, "participants": list(r.participants),
                "observed_at": observed, "stated_at": r.stated_at, "source": r.source,
                "authority": int(r.authority), "parse": str(extraction.status),
                "parse_note": extraction.reason or None,
            }
            work = [
                (key, FactContext(
                    record_uid=uid, pos=r.pos if r.pos is not None else -1, fact_index=i,
                    observed_at=observed,
                    stated_at=r.stated_at, authority=int(r.authority), source=r.source_identity,
                ), fact)
                for i, (fact, key) in enumerate(zip(extraction.facts, keys, strict=True))
            ]
            prepared.append((uid, row, work))
        report.parse_seconds += time.perf_counter() - t_parse
        for uid in unique:
            if known.get(uid) == "stored":
                report.skipped_known += 1
            elif known.get(uid) == "erased":
                report.skipped_erased += 1

        def write(tx: TxStore) -> tuple[Plan, list[str], dict[str, str]]:
            # Under the namespace lock: what is known now is final for this transaction.
            late = tx.known_records(self.namespace, [uid for uid, _, _ in prepared])
            rows = [(uid, row, work) for uid, row, work in prepared if uid not in late]
            if any(row["pos"] is None for _, row, _ in rows):
                rows = self._number(tx, rows)
            facts = [w for _, _, work in rows for w in work]
            states = tx.load_keys(self.namespace, (k for k, _, _ in facts))
            plan = Plan()
            for key, ctx, fact in facts:
                self.controller.apply(states[key], fact, ctx, plan)
            tx.write_plan(self.namespace, [row for _, row, _ in rows], plan)
            return plan, [uid for uid, _, _ in rows], late

        t_db = time.perf_counter()
        plan, stored, late = self.store.transact(self.namespace, write)
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
        return plan

    def _number(self, tx: TxStore, rows: list[tuple[str, dict[str, Any], list[Any]]]
                ) -> list[tuple[str, dict[str, Any], list[Any]]]:
        """Give records without a position the next free ones (called under the lock)."""
        nxt = tx.run("max_pos", {"ns": self.namespace})[0]["pos"] + 1
        out = []
        for uid, row, work in rows:
            if row["pos"] is None:
                row = {**row, "pos": nxt}
                work = [(k, replace(ctx, pos=nxt), f) for k, ctx, f in work]
                nxt += 1
            out.append((uid, row, work))
        return out

    def _soft_align(self, extraction: Extraction) -> Extraction:
        """Replace each fact's relation by the known one soft key identity confirms."""
        assert self.soft_keys is not None
        facts = tuple(
            Fact(f.subject, self.soft_keys.align(f.relation, self.registry), f.value, f.intent)
            for f in extraction.facts
        )
        return Extraction(extraction.status, facts, extraction.reason, extraction.extra)

    def _extract_all(
        self, records: list[Record], extractor: Extractor | None
    ) -> list[Extraction]:
        """Extract a batch; extractors with ``extract_many`` (the LLM) get one call per batch."""
        many = getattr(extractor, "extract_many", None)
        todo = [r for r in records if r.facts is None]
        if many is None or not todo:
            return [self._extract(r, extractor) for r in records]
        try:
            got = dict(zip((id(r) for r in todo), many(todo), strict=True))
        except Exception as exc:  # the batch is kept raw rather than lost
            reason = f"extractor failed: {type(exc).__name__}: {exc}"
            got = {id(r): Extraction.unresolved(reason) for r in todo}
        return [got[id(r)] if r.facts is None else self._extract(r, None) for r in records]

    def _extract(self, record: Record, extractor: Extractor | None) -> Extraction:
        if record.facts is not None:
            return Extraction.found(*record.facts)
        if extractor is None:
            return Extraction.unresolved("no extractor")
        try:
            return extractor.extract(record)
        except Exception as exc:  # an extractor bug must not lose the record
            return Extraction.unresolved(f"extractor failed: {type(exc).__name__}: {exc}")

    def remember(
        self,
        subject: str,
        relation: str,
        value: str,
        *,
        text: str | None = None,
        intent: Intent | str = Intent.ASSERT,
        speaker: str | None = None,
        source: str | None = None,
        authority: str | int | None = None,
        stated_at: str | None = None,
        observed_at: str | None = None,
        record_id: str | None = None,
    ) -> WriteResult:
        """Store one fact with its record (the text defaults to 'subject relation value')."""
        fact = Fact(subject, relation, value, Intent(intent))
        record = Record(
            text=text if text is not None else f"{subject} {relation} {value}",
            id=record_id, speaker=speaker, source=source, authority=authority,
            stated_at=stated_at, observed_at=observed_at, facts=(fact,),
        )
        return self._write_one(record, fact)

    def _write_one(self, record: Record, fact: Fact) -> WriteResult:
        self.controller.key_for(fact)  # a bad relation fails here, before anything is written
        report = IngestReport()
        plan = self._ingest_batch([record], None, report)
        key, _ = self.controller.key_for(fact)
        if not plan.operations:
            raise ConflictError(f"record {record.id!r} is already stored (or was erased)")
        op = plan.operations[-1]
        head = self.store.load_keys(self.namespace, [key])[key].head()
        return WriteResult(
            op=str(op.kind), key=key, head=head.value if head else None,
            status=str(head.status) if head else None, note=op.note,
        )

    def revoke(
        self, subject: str, relation: str, *, value: str | None = None,
        text: str | None = None, speaker: str | None = None,
    ) -> WriteResult:
        """Take back the current value: the previous one becomes current again."""
        key = self._key(subject, relation, value)
        head = self.store.load_keys(self.namespace, [key])[key].head()
        if head is None:
            raise ConflictError(f"{subject} / {relation} has no current value to revoke")
        fact = Fact(subject, relation, value or "", Intent.REVOKE)
        record = Record(
            text=text or f"revoke: {subject} {relation}", speaker=speaker,
            facts=(fact,), id=f"revoke-{stable_id('x', key, head.uid, time.time_ns())}",
        )
        return self._write_one(record, fact)

    def resolve(
        self, subject: str, relation: str, value: str, *, text: str | None = None,
        speaker: str | None = None, authority: str | int | None = None,
    ) -> WriteResult:
        """Settle a contested key: ``value`` becomes current, the others contradicted."""
        key = self._key(subject, relation, value)
        head = self.store.load_keys(self.namespace, [key])[key].head()
        if head is None or head.status is not Status.CONTESTED:
            raise ConflictError(
                f"{subject} / {relation} is not contested; use remember() to change it"
            )
        fact = Fact(subject, relation, value, Intent.CONFIRM)
        record = Record(
            text=text or f"confirmed: {subject} {relation} {value}", speaker=speaker,
            authority=authority, facts=(fact,),
        )
        return self._write_one(record, fact)

    def erase(self, record_id: str) -> EraseReport:
        """Erase a record: its text, every version only it supported; heads re-materialize."""
        uid = self._uid(record_id)

        def work(tx: TxStore) -> tuple[int, int]:
            rows = tx.run("erase_scope", {"uid": uid})
            if not rows:
                raise NotFoundError(f"no record {record_id!r} in namespace {self.namespace!r}")
            scope = rows[0]
            doomed = {v["uid"] for v in scope["versions"] if v["only"]}
            keys = sorted({v["key"] for v in scope["versions"]})
            states = tx.load_keys(self.namespace, keys)
            plan = Plan()
            for key in keys:
                self.controller.erase_versions(states[key], doomed, plan)
            for u in doomed:
                plan.changed_versions.pop(u, None)
            tx.erase(self.namespace, uid, sorted(doomed), plan, utc_now_iso())
            return len(doomed), len(keys)

        removed, rematerialized = self.store.transact(self.namespace, work)
        return EraseReport(record_id, removed, rematerialized)

    # -- reading ---------------------------------------------------------------------
    def _key(self, subject: str, relation: str, value: str | None = None) -> str:
        rel = self.registry.align(relation)
        member = value if self.registry.is_set_valued(rel) and value else None
        return make_key(subject, rel, member)

    def why(self, subject: str, relation: str) -> Explanation:
        rel = self.registry.align(relation)
        if self.registry.is_set_valued(rel):
            prefix = kid_of(self.namespace, make_key(subject, rel)) + "\u241f"
            name, params = "why_set", {"prefix": prefix}
        else:
            name, params = "why", {"kid": kid_of(self.namespace, make_key(subject, rel))}
        versions = [r["version"] for r in self.store.run(name, params)]
        heads = [v for v in versions if v.get("is_head")]
        graph_params = params if name == "why" else {"kid": params["prefix"]}
        browser = None
        if self.http_url and name == "why":
            browser = browser_link(self.http_url, cypher("why_graph"), graph_params,
                                   self.bolt_url, no_auth=self.no_auth)
        return Explanation(
            subject, rel, heads[-1] if heads else None, versions,
            cypher=cypher("why_graph"), params=graph_params, browser_url=browser,
        )

    @property
    def embedder(self) -> Embedder | None:
        """Sentence embeddings for the dense, state_top12 and turns_pruned controls."""
        return self._embedder

    @embedder.setter
    def embedder(self, value: Embedder | None) -> None:
        self._embedder = value
        self._reader.embed = value.embed if value is not None else None

    def evidence(
        self, question: str, hops: int = 5, budget_chars: int = 60_000, control: str = "cmc"
    ) -> Evidence:
        """The original records a reader needs to answer ``question``.

        ``cmc``: anchor on the names in the question, walk the current graph outward
        (depth < ``hops``), render the supporting records in source order within
        ``budget_chars``. Other controls (``prior_refresh``, ``stale_closure``,
        ``bm25_top100``, ``bm25_matched``, ``dense_top100``, ``current_state``,
        ``raw_history``, and P-Mem's ``state_top12`` and ``turns_pruned``) use the same
        renderer and budget; the last three need ``Memory.embedder``.
        """
        return self._reader.evidence(question, hops, budget_chars, control)

    def answer(
        self, question: str, reader: LLMClient, *, hops: int = 5, budget_chars: int = 60_000,
        control: str = "cmc", timeout: float | None = None,
    ) -> Answer:
        """Evidence for ``question``, then one reader call (e.g. ``OllamaClient``)."""
        ev = self.evidence(question, hops=hops, budget_chars=budget_chars, control=control)
        return read(question, ev, reader, timeout=timeout)

    def block(
        self, request: str, partner: str, now: str | None = None, deadline_ms: float = 10, *,
        fresh: bool = False, identity: str = "posterior", gate: str = "slot", k: int = 6,
        max_chars: int = 800, tau: float = 0.5, tokenizer: str = "morphemes",
    ) -> Block:
        """The ``[Relevant memory]`` block for an unfinished message to ``partner``.

        Built from current values only. ``identity``: ``posterior`` (pick the most likely of
        several people a name could mean), ``hard`` (an ambiguous name means the partner),
        ``participant`` (only records of conversations with the partner), or ``none``.
        ``gate``: ``slot`` (abstain unless a line states the requested slot), ``margin``, or
        ``none``. ``fresh=True`` reads Neo4j now and waits at most
        ``deadline_ms`` before serving the snapshot. ``tokenizer``: ``morphemes`` (Kiwi for
        Korean) or ``bigrams`` (Hangul character bigrams), fixed on first use. Never raises:
        a bad request gets an empty block with a reason.
        """
        if self._blocks is None:
            self._blocks = BlockServer(self.store, self.namespace,
                                       tokenizer=tokenizer)  # type: ignore[arg-type]
            self._blocks.start()
        return self._blocks.block(
            request, partner, now, deadline_ms, fresh=fresh, identity=identity,  # type: ignore[arg-type]
            gate=gate, k=k, max_chars=max_chars, tau=tau,  # type: ignore[arg-type]
        )

    def history(self, subject: str, relation: str) -> list[dict[str, Any]]:
        kid = kid_of(self.namespace, self._key(subject, relation))
        out = []
        for row in self.store.run("history", {"kid": kid}):
            op = row["op"]
            op["fact"] = json.loads(op["fact"]) if op.get("fact") else None
            out.append(op)
        return out

    def as_of(
        self, subject: str, relation: str, at: str,
        axis: Literal["valid", "transaction"] = "valid",
    ) -> str | None:
        """The value that held at ``at`` (valid time), or that memory believed then (tx time)."""
        from graphmem.domain.model import _iso

        t = _iso(at, "at")
        key = self._key(subject, relation)
        kid = kid_of(self.namespace, key)
        if axis == "valid":
            rows = self.store.run("as_of_valid", {"kid": kid, "at": t})
            return rows[0]["version"]["value"] if rows else None
        if axis != "transaction":
            raise InvalidInputError("axis must be 'valid' or 'transaction'")
        # Transaction time: replay the op log up to t through the same controller.
        state, plan = KeyState(key), Plan()
        for row in self.store.run("oplog_until", {"kid": kid, "at": t}):
            f = json.loads(row["fact"])
            fact = Fact(f["subject"], f["relation"], f["value"] or "", Intent(f["intent"]))
            ctx = FactContext(
                record_uid=row["record_uid"], pos=row["pos"], observed_at=row["at"],
                stated_at=f.get("stated_at"), authority=int(f.get("authority") or 1),
                source=f.get("source"), fact_index=hash(row["uid"]) & 0xFFFF,
            )
            self.controller.apply(state, fact, ctx, plan)
        head = state.head()
        return head.value if head else None

    def state(self, disclosure: Literal["current", "history"] = "current") -> str:
        """Every current value as ``key = value`` lines; with history, what each replaced."""
        lines = []
        for row in self.store.run("audit_heads", {"ns": self.namespace}):
            line = f"{row['subject']} {row['relation']} = {row['value']}"
            if row["status"] == Status.CONTESTED:
                line += "  [contested]"
            if disclosure == "history":
                exp = self.why(row["subject"], row["relation"])
                older = [f"{v['value']} ({v['status']})" for v in exp.replaced]
                if older:
                    line += "  (before: " + ", ".join(older) + ")"
            lines.append(line)
        return "\n".join(lines)

    def audit(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """Run a named read-only audit query from ``cypher/audit_*.cypher`` in this namespace."""
        if not re.fullmatch(r"[a-z_]+", name) or not name.startswith("audit_"):
            name = f"audit_{name}"
        from graphmem._cypher import query_names

        if name not in query_names("audit_"):
            raise NotFoundError(f"no audit query {name!r}; choose from {query_names('audit_')}")
        return self.store.run(name, {**params, "ns": self.namespace})

    def counts(self) -> dict[str, int]:
        """Nodes and outgoing relationships in this namespace (for idempotence checks)."""
        out: dict[str, int] = {}
        for row in self.store.run("count_namespace", {"ns": self.namespace}):
            out[row["label"]] = row["nodes"]
            out[f"{row['label']}->"] = row["relationships"]
        return out


def browser_link(http_url: str, query: str, params: Mapping[str, Any],
                 bolt_url: str | None = None, no_auth: bool = False) -> str:
    """A Neo4j Browser URL that connects and opens with the query in the editor: one click
    on Run shows the evidence. Parameters are written into the query as literals (JSON
    string escapes are Cypher's), so the auditor sees exactly what runs."""
    text = query
    for k, v in params.items():
        text = text.replace(f"${k}", json.dumps(v, ensure_ascii=False))
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("//")]
    args = {}
    if bolt_url:
        args["dbms"] = bolt_url
    if no_auth:
        args["preselectAuthMethod"] = "NO_AUTH"
    args.update(cmd="edit", arg="\n".join(lines))
    query_string = urllib.parse.urlencode(args, quote_via=urllib.parse.quote)
    return f"{http_url.rstrip('/')}/browser/?{query_string}"


def _record_from_mapping(item: Mapping[str, Any]) -> Record:
    if not isinstance(item, Mapping):
        raise InvalidInputError(f"a record must be a mapping or Record, got {type(item).__name__}")
    if "text" not in item:
        raise InvalidInputError("a record needs a 'text' field")
    data = dict(item)
    facts = data.pop("facts", None)
    if facts is not None:
        data["facts"] = tuple(
            f if isinstance(f, Fact) else Fact(**f) for f in facts
        )
    allowed = set(Record.__dataclass_fields__)
    unknown = set(data) - allowed
    if unknown:
        raise InvalidInputError(f"unknown record fields: {sorted(unknown)}")
    return Record(**data)


