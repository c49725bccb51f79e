"""``Memory``: the one entry class, a thin facade over the write path and the two reads.

    >>> mem = Memory.connect()                      # local Neo4j, started if needed
    >>> mem.remember("Minjun", "standup time", "9:30", text="Standup is at 9:30")
    >>> mem.why("Minjun", "standup time").text()

Writing goes through ``IngestPipeline`` (extract, key, one locked transaction); read
path A is ``EvidenceReader`` (anchoring and graph closure), read path B ``BlockServer``
(memory blocks on a deadline); explanations come from ``graphmem.explain``. Everything is
configured by one ``MemoryConfig``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from graphmem._cypher import query_names
from graphmem._errors import (
    ConflictError,
    InvalidInputError,
    NotFoundError,
    StoreUnavailableError,
)
from graphmem._names import validate_namespace
from graphmem._secrets import namespace_key
from graphmem.config import BlockOptions, MemoryConfig, check_number
from graphmem.domain.block import Block
from graphmem.domain.controller import Controller, Plan
from graphmem.domain.evidence import Evidence
from graphmem.domain.keys import RelationRegistry, make_key
from graphmem.domain.model import (
    OFFSET_MAX,
    PAGE_MAX,
    Authority,
    Fact,
    Intent,
    Record,
    Status,
    VersionState,
    _iso,
    utc_now_iso,
)
from graphmem.embedding import BundledE5, VectorCache, embedder_name, resolve_embedder
from graphmem.explain import BrowserTarget, believed_at, explain
from graphmem.ingest import IngestPipeline
from graphmem.llm.base import Embedder, LLMClient
from graphmem.reader import read
from graphmem.reads.blocks.child import SnapshotSource, remove_orphan_snapshots
from graphmem.reads.blocks.gates import BlockRequest
from graphmem.reads.blocks.serving import BlockServer
from graphmem.reads.blocks.vectors import VectorKeeper, refuse_other_model
from graphmem.reads.evidence import EvidenceControl, EvidenceReader
from graphmem.results import Answer, EraseReport, Explanation, IngestReport, WriteResult
from graphmem.store.protocol import Store, StoreTransaction

__all__ = ["Memory", "validate_namespace"]


class Memory:
    """One namespace of agent memory stored in Neo4j."""

    def __init__(
        self,
        store: Store,
        namespace: str = "default",
        config: MemoryConfig | None = None,
        *,
        bolt_url: str | None = None,
        evidence_controls: Mapping[str, EvidenceControl] | None = None,
    ) -> None:
        self.store = store
        self.namespace = validate_namespace(namespace)
        self.config = config or MemoryConfig()
        self.registry: RelationRegistry = self.config.registry_for(self.namespace)
        self.controller = Controller(
            self.registry, namespace=self.namespace, preserve_history=self.config.preserve_history
        )
        soft = self.config.soft_keys
        if soft is not None:  # the namespace's own: learned names never cross namespaces
            soft = dataclasses.replace(soft, _known={}, decisions=[])
        self.embedder = resolve_embedder(
            self.config.embedder, self.config.ollama_url, self.config.ollama_timeout
        )
        # The namespace's vectors, shared by blocks and evidence: read from Neo4j, and the
        # missing ones embedded and persisted in the background by one keeper.
        self._meaning = VectorCache(self.embedder) if self.embedder is not None else None
        self._keeper: VectorKeeper | None = None
        self._keeper_lock = threading.Lock()
        # ``evidence_controls``: ways of choosing records besides ``cmc``, by name.
        self._evidence = EvidenceReader(
            store,
            self.namespace,
            self.config.aliases,
            meaning=self._meaning,
            keep_vectors=self._vector_keeper if self.config.keep_vectors else None,
            controls=evidence_controls or {},
            # The names' model is fitted on the bundled e5's scores; another embedder
            # leaves cross-script links to sound.
            name_embedder=self.embedder if isinstance(self.embedder, BundledE5) else None,
        )
        # Names written here reach the cross-script index at once. An erased name stays in
        # it until the next rebuild (LINKER_TTL): a link to it anchors nothing.
        self._writer = IngestPipeline(
            store,
            self.namespace,
            self.controller,
            self.registry,
            self.config.build_extractor(self.registry),
            soft,
            namespace_key(self.namespace, self.config.record_id_secret),
            on_names=self._evidence.names_added,
        )
        self._bolt_url = bolt_url  # the store's address, for a snapshot-building process
        self._browser = BrowserTarget(
            self.config.neo4j_http_url, bolt_url, no_auth=self.config.neo4j_auth is None
        )
        self._blocks: BlockServer | None = None
        self._blocks_lock = threading.Lock()
        self._released = False
        # With Neo4j away, one failed call is enough (a later Memory does the rest).
        with contextlib.suppress(StoreUnavailableError):
            # Earlier versions' erase tombstones kept record ids in clear.
            store.hash_tombstone_ids(self.namespace, self._writer.erased_ref)
            if self.embedder is not None:
                # Vectors of two models in one namespace cannot be compared (the keeper
                # checks again before it embeds anything).
                refuse_other_model(store, self.namespace, embedder_name(self.embedder))
        remove_orphan_snapshots()  # a killed process's snapshot may hold erased text

    @classmethod
    def connect(
        cls,
        uri: str | None = None,
        namespace: str = "default",
        *,
        config: MemoryConfig | None = None,
        evidence_controls: Mapping[str, EvidenceControl] | None = None,
        **overrides: Any,
    ) -> Memory:
        """Connect to ``uri``, else the configured URI, else ``$NEO4J_URI``, else the local
        Neo4j (started if needed). ``overrides`` are ``MemoryConfig`` fields."""
        from graphmem.store.neo4j.store import Neo4jStore
        from graphmem.store.sealing import sealer_for

        cfg = (config or MemoryConfig.from_env()).with_overrides(**overrides)
        if uri is not None:
            cfg = cfg.with_overrides(neo4j_uri=uri)
        if cfg.neo4j_uri is None:
            from graphmem.local_neo4j import LocalNeo4j

            local = LocalNeo4j()
            status = local.start()
            cfg = cfg.with_overrides(
                neo4j_uri=status.bolt_url, neo4j_http_url=f"http://127.0.0.1:{local.http_port}"
            )
        assert cfg.neo4j_uri is not None
        store = Neo4jStore.connect(
            cfg.neo4j_uri,
            auth=cfg.neo4j_auth,
            database=cfg.neo4j_database,
            timeout=cfg.neo4j_timeout,
            write_timeout=cfg.neo4j_write_timeout,
            sealer=sealer_for(cfg.seal_text, cfg.key_store, cfg.record_id_secret),
        )
        if cfg.install_schema:
            store.install_schema()
        else:
            store.migrate()  # data written by earlier versions is brought up to date once
        store.prepare_plans()
        try:
            return cls(
                store, namespace, cfg, bolt_url=cfg.neo4j_uri, evidence_controls=evidence_controls
            )
        except ConflictError:
            store.close()
            raise

    def release(self) -> None:
        """Stop the threads this Memory started (the block server) and keep the store,
        which other namespaces may share. ``close`` does this and closes the store."""
        with self._blocks_lock:
            self._released = True
            if self._blocks is not None:
                self._blocks.close()
                self._blocks = None
        self._stop_keeper()
        self._evidence.close()
        close = getattr(self._writer.extractor, "close", None)
        if callable(close) and self._writer.extractor is not self.config.extractor:
            close()  # an extractor this Memory built (e.g. an Ollama client) is its own

    def close(self) -> None:
        self.release()
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------
    def ingest(
        self,
        records: Iterable[Record | Mapping[str, Any]],
        *,
        batch_size: int = 5000,
        progress: bool = False,
    ) -> IngestReport:
        """Store records and apply their facts; known record ids are skipped (idempotent).

        A record without ``facts`` goes through the configured extractor; with none, it
        is kept raw (``unresolved``), and ``evidence`` ranks it for each question.
        """
        return self._writer.ingest(records, batch_size=batch_size, progress=progress)

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
            id=record_id,
            speaker=speaker,
            source=source,
            authority=Authority.parse(authority),
            stated_at=stated_at,
            observed_at=observed_at,
            facts=(fact,),
        )
        return self._write_one(record, fact)

    def revoke(
        self,
        subject: str,
        relation: str,
        *,
        value: str | None = None,
        text: str | None = None,
        speaker: str | None = None,
    ) -> WriteResult:
        """Take back the current value: the previous one becomes current again."""
        self._head_or_conflict(
            subject, relation, value, f"{subject} / {relation} has no current value to revoke"
        )
        fact = Fact(subject, relation, value or "", Intent.REVOKE)
        record = Record(
            text=text or f"revoke: {subject} {relation}",
            speaker=speaker,
            observed_at=utc_now_iso(),
            facts=(fact,),
        )
        return self._write_one(record, fact)

    def resolve(
        self,
        subject: str,
        relation: str,
        value: str,
        *,
        text: str | None = None,
        speaker: str | None = None,
        authority: str | int | None = None,
    ) -> WriteResult:
        """Settle a contested key: ``value`` becomes current, the others contradicted."""
        head = self._head_or_conflict(
            subject,
            relation,
            value,
            f"{subject} / {relation} is not contested; use remember() to change it",
        )
        if head.status is not Status.CONTESTED:
            raise ConflictError(
                f"{subject} / {relation} is not contested; use remember() to change it"
            )
        fact = Fact(subject, relation, value, Intent.CONFIRM)
        record = Record(
            text=text or f"confirmed: {subject} {relation} {value}",
            speaker=speaker,
            authority=Authority.parse(authority),
            observed_at=utc_now_iso(),
            facts=(fact,),
        )
        return self._write_one(record, fact)

    def erase(self, record_id: str) -> EraseReport:
        """Erase a record: its text, every version only it supported; heads re-materialize."""
        uid = self._writer.record_uid(record_id)

        def work(tx: StoreTransaction) -> tuple[int, int]:
            scope = tx.erase_scope(uid)
            if scope is None:
                raise NotFoundError(f"no record {record_id!r} in namespace {self.namespace!r}")
            doomed = {vuid for vuid, _, only in scope.versions if only}
            keys = sorted({key for _, key, _ in scope.versions})
            states = tx.load_keys(self.namespace, keys)
            plan = Plan()
            for key in keys:
                self.controller.erase_versions(states[key], doomed, plan)
            for u in doomed:
                plan.changed_versions.pop(u, None)
            surviving = sorted({vuid for vuid, _, only in scope.versions if not only})
            tx.erase(
                self.namespace,
                uid,
                sorted(doomed),
                plan,
                utc_now_iso(),
                surviving,
                erased_ref=self._writer.erased_ref,
            )
            return len(doomed), len(keys)

        removed, rematerialized = self.store.transact(self.namespace, work)
        return EraseReport(record_id, removed, rematerialized)

    def _vector_keeper(self, start: bool = True) -> VectorKeeper | None:
        """The namespace's one keeper of vectors (None without an embedder, or with
        ``keep_vectors`` off); ``start`` runs it in the background, reading the persisted
        vectors first, if it is not running yet."""
        if self._meaning is None or not self.config.keep_vectors:
            return None
        with self._keeper_lock:
            if self._released:
                return None
            if self._keeper is None:
                self._keeper = VectorKeeper(self.store, self.namespace, self._meaning)
            keeper = self._keeper
        if start:
            keeper.start(load_now=False)
        return keeper

    def _stop_keeper(self) -> None:
        with self._keeper_lock:
            keeper, self._keeper = self._keeper, None
        if keeper is not None:
            keeper.close()

    def wait_vectors(self, timeout: float | None = None) -> bool:
        """Wait until the namespace's records and values written so far hold vectors
        (reads rank by meaning only what is embedded; benchmarks and tests wait here).
        True when done within ``timeout`` seconds; True at once without an embedder."""
        keeper = self._vector_keeper()
        return True if keeper is None else keeper.wait_idle(timeout)

    def reembed(self, embedder: Embedder | str | None = None, *, progress: bool = False) -> int:
        """Forget the namespace's vectors and their model, then embed every record and
        current value with ``embedder`` (a name as in ``MemoryConfig.embedder``; default:
        this Memory's); how many texts were embedded. To move a namespace to another
        model, connect with ``embedder="none"``, re-embed with the new one, then connect
        with it. ``graphmem reembed`` runs this."""
        chosen = (
            self.embedder
            if embedder is None
            else resolve_embedder(embedder, self.config.ollama_url, self.config.ollama_timeout)
        )
        if chosen is None:
            raise InvalidInputError(
                "no embedder to re-embed with (embedder='none'): name one, e.g. "
                "reembed('e5') or graphmem reembed --embedder e5"
            )
        with self._blocks_lock:  # its keeper would embed alongside; a later read restarts it
            if self._blocks is not None:
                self._blocks.close()
                self._blocks = None
        self._stop_keeper()
        self._evidence.reset_names()  # its vectors are cleared below; it starts over
        self.store.clear_vectors(self.namespace)
        keeper = VectorKeeper(self.store, self.namespace, VectorCache(chosen))
        if not progress:
            return keeper.embed_missing()
        from tqdm import tqdm

        with tqdm(unit="text", desc=f"reembed {self.namespace}") as bar:
            return keeper.embed_missing(progress=bar.update)

    def _write_one(self, record: Record, fact: Fact) -> WriteResult:
        self.controller.key_for(fact)  # a bad relation fails before any write
        plan = self._writer.write_batch([record], IngestReport())
        if not plan.operations:
            rid = self._writer.identified(record).id
            raise ConflictError(f"record {rid!r} is already stored (or was erased)")
        op = plan.operations[-1]
        key = op.key  # soft key identity may have aligned the relation
        head = self.store.load_keys(self.namespace, [key])[key].head()
        return WriteResult(
            op=str(op.kind),
            key=key,
            head=head.value if head else None,
            status=str(head.status) if head else None,
            note=op.note,
        )

    def _head_or_conflict(
        self, subject: str, relation: str, value: str | None, why: str
    ) -> VersionState:
        key = self._key(subject, relation, value)
        head = self.store.load_keys(self.namespace, [key])[key].head()
        if head is None:
            raise ConflictError(why)
        return head

    # -- read path A: evidence -------------------------------------------------------------
    def evidence(
        self, question: str, hops: int = 5, budget_chars: int = 60_000, control: str = "cmc"
    ) -> Evidence:
        """The original records a reader needs to answer ``question``.

        Anchors on the names in the question and walks the current graph outward (depth <
        ``hops``): the current facts' records first, then the raw records (no fact came
        from them) ranked for the question, each while it fits ``budget_chars``; rendered
        in source order with their dates. ``control`` names another way of choosing
        records, one given as ``Memory(..., evidence_controls={name: control})``.
        """
        return self._evidence.evidence(question, hops, budget_chars, control)

    def answer(
        self,
        question: str,
        reader: LLMClient,
        *,
        hops: int = 5,
        budget_chars: int = 60_000,
        control: str = "cmc",
        timeout: float | None = None,
    ) -> Answer:
        """Evidence for ``question``, then one reader call (e.g. ``OllamaClient``)."""
        ev = self.evidence(question, hops=hops, budget_chars=budget_chars, control=control)
        return read(question, ev, reader, timeout=timeout)

    # -- read path B: blocks ---------------------------------------------------------------
    def block(
        self, request: str, partner: str = "", now: str | None = None, **options: Any
    ) -> Block:
        """The ``[Relevant memory]`` block for an unfinished message to ``partner``.

        Built from current values only. ``options`` override the configured
        ``BlockOptions`` (``deadline_ms``, ``fresh``, ``identity``, ``gate``, ``k``,
        ``max_chars``, ``tau``, ``margin``); an unknown option or value is an
        ``InvalidInputError``. Serving never raises: a failure is logged and answered with
        an empty block that says why.
        """
        opts: BlockOptions = self.config.block.with_overrides(**options)
        req = BlockRequest(request, partner, now, opts)
        with self._blocks_lock:  # one block server per Memory, however many first calls
            if self._released:
                raise ConflictError("this Memory was released; connect again to serve blocks")
            if self._blocks is None:
                server = BlockServer(
                    self.store,
                    self.namespace,
                    tokenizer=self.config.block_tokenizer,
                    registry=self.registry,
                    source=self._snapshot_source(),
                    builder=self.config.block_builder,
                    switch_interval=self.config.block_switch_interval,
                    meaning=self._meaning,
                    vectors=self._vector_keeper(start=False),
                )
                server.start()
                self._blocks = server
            server = self._blocks
        return server.block(req)

    @property
    def blocks_ready(self) -> bool:
        """Whether a block from the snapshot can be served now, with no I/O (the block
        server runs and holds a snapshot)."""
        server = self._blocks
        return server is not None and server.has_snapshot

    def _snapshot_source(self) -> SnapshotSource | None:
        """How a child process reaches this namespace to build block snapshots; None when
        this Memory was given a store without a URI (snapshots then build in a thread)."""
        cfg = self.config
        if not self._bolt_url:
            return None
        return SnapshotSource(
            self._bolt_url,
            self.namespace,
            cfg.neo4j_auth,
            cfg.neo4j_database,
            cfg.neo4j_timeout,
            cfg.seal_text,
            cfg.key_store,
            cfg.record_id_secret,
            cfg.block_tokenizer,
        )

    # -- explanations ----------------------------------------------------------------------
    def _key(self, subject: str, relation: str, value: str | None = None) -> str:
        rel = self.registry.align(relation)
        member = value if self.registry.is_set_valued(rel) and value else None
        return make_key(subject, rel, member)

    def why(
        self, subject: str, relation: str, *, limit: int = 100, evidence_limit: int = 20
    ) -> Explanation:
        """Why is this remembered? Value, evidence, what it replaced, a Cypher query: the
        newest ``limit`` versions (1-1,000), each with its newest ``evidence_limit``
        records (1-1,000; ``evidence_count`` says how many there are)."""
        check_number("limit", limit, 1, PAGE_MAX, integer=True)
        check_number("evidence_limit", evidence_limit, 1, PAGE_MAX, integer=True)
        rel = self.registry.align(relation)
        return explain(
            self.store,
            self.namespace,
            subject,
            rel,
            set_valued=self.registry.is_set_valued(rel),
            browser=self._browser,
            limit=limit,
            evidence_limit=evidence_limit,
        )

    def history(
        self, subject: str, relation: str, *, limit: int = 100, offset: int = 0
    ) -> list[dict[str, Any]]:
        """The operations applied to the key, oldest first, with their records: ``limit``
        of them (1-1,000) after the first ``offset``."""
        check_number("limit", limit, 1, PAGE_MAX, integer=True)
        check_number("offset", offset, 0, OFFSET_MAX, integer=True)
        key = self._key(subject, relation)
        return self.store.history(self.namespace, key, limit=limit, offset=offset)

    def as_of(
        self, subject: str, relation: str, at: str, axis: Literal["valid", "transaction"] = "valid"
    ) -> str | None:
        """The value that held at ``at`` (valid time), or that memory believed then (tx time)."""
        t = _iso(at, "at")
        if t is None:
            raise InvalidInputError("at must be an ISO-8601 date or datetime")
        key = self._key(subject, relation)
        if axis == "valid":
            return self.store.value_valid_at(self.namespace, key, t)
        if axis != "transaction":
            raise InvalidInputError("axis must be 'valid' or 'transaction'")
        return believed_at(self.store, self.controller, self.namespace, key, t)

    def state(self, disclosure: Literal["current", "history"] = "current") -> str:
        """Every current value as ``key = value`` lines; with history, what each replaced."""
        if disclosure not in ("current", "history"):
            raise InvalidInputError("disclosure must be 'current' or 'history'")
        lines = []
        for row in self.store.heads(self.namespace):
            line = f"{row.subject} {row.relation} = {row.value}"
            if row.status == Status.CONTESTED:
                line += "  [contested]"
            if disclosure == "history":
                older = [
                    f"{v['value']} ({v['status']})"
                    for v in self.why(row.subject, row.relation).replaced
                ]
                if older:
                    line += "  (before: " + ", ".join(older) + ")"
            lines.append(line)
        return "\n".join(lines)

    def audit(self, name: str) -> list[dict[str, Any]]:
        """Run a named read-only audit query from ``cypher/audit_*.cypher`` in this namespace."""
        if not re.fullmatch(r"[a-z_]+", name) or not name.startswith("audit_"):
            name = f"audit_{name}"
        if name not in query_names("audit_"):
            raise NotFoundError(f"no audit query {name!r}; choose from {query_names('audit_')}")
        return self.store.audit(self.namespace, name, {})

    def counts(self) -> dict[str, int]:
        """Nodes and outgoing relationships in this namespace (for idempotence checks)."""
        return self.store.counts(self.namespace)
