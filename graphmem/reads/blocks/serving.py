"""Serving blocks: a snapshot publisher, a fresh-read worker, a deadline.

A background worker follows Neo4j by a position watermark and publishes an immutable
``BlockSnapshot`` through one reference swap; a request reads whatever snapshot is
current and never waits for a lock. Fresh mode hands the request to a pre-started worker
that reads Neo4j now (Lucene full-text candidates) and waits at most the deadline, then
falls back to the snapshot. Large snapshots are built in a child process
(``graphmem.reads.blocks.child``) so readers never wait on the build for the GIL. What a
request is served is decided by ``graphmem.reads.blocks.gates``.
"""

from __future__ import annotations

import gc
import logging
import re
import sys
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import replace

from graphmem.config import Builder, Tokenizer
from graphmem.domain.block import Block
from graphmem.domain.keys import RelationRegistry
from graphmem.embedding import VectorCache
from graphmem.extract.slots import DEFAULT_SLOTS, SlotSpec
from graphmem.language.text import HANGUL_SYLLABLE
from graphmem.llm.base import Embedder
from graphmem.reads.blocks.child import (
    ChildBuilder,
    SnapshotBuildError,
    SnapshotSource,
    load_arrays,
    ram_folder_available,
    unpack_table,
)
from graphmem.reads.blocks.gates import BlockRequest, GatePolicy, compose
from graphmem.reads.blocks.index import (
    FIELD_WEIGHTS,
    RANK_DEPTH,
    BlockSnapshot,
    Ranking,
    snapshot_tokenizer,
)
from graphmem.reads.blocks.vectors import VectorKeeper
from graphmem.reads.ranking import BM25F, KoreanMorphemes
from graphmem.store.protocol import Store

__all__ = ["SWITCH_INTERVAL", "BlockServer"]

log = logging.getLogger("graphmem.blocks")

MIN_REBUILD_INTERVAL = 0.5  # seconds: under a steady writer, rebuild at most this often
# Builds slower than this move to a child process (with a source to reach Neo4j from).
CHILD_BUILD_SECONDS = 0.1
# A GIL switch interval that keeps deadlines (seconds): what the service opts in to.
SWITCH_INTERVAL = 0.0002
_TERM = re.compile(r"\w+", re.UNICODE)


class BlockServer:
    """Builds blocks for one namespace; owns the snapshot publisher and the fresh worker."""

    def __init__(
        self,
        store: Store,
        namespace: str,
        slots: Iterable[SlotSpec] = DEFAULT_SLOTS,
        poll_interval: float = 0.05,
        tokenizer: Tokenizer = "morphemes",
        registry: RelationRegistry | None = None,
        *,
        source: SnapshotSource | None = None,
        builder: Builder = "auto",
        switch_interval: float | None = None,
        embedder: Embedder | None = None,
        keep_vectors: bool = True,
        meaning: VectorCache | None = None,
        vectors: VectorKeeper | None = None,
    ) -> None:
        """``source`` lets a child process read the namespace (``builder``: ``process``
        always builds there, ``auto`` once a build takes longer than
        ``CHILD_BUILD_SECONDS``, ``thread`` never); without it snapshots build in a
        thread of this process. ``switch_interval`` (seconds), when given, lowers the
        interpreter's GIL switch interval for the whole process on ``start``: a request
        waiting on a deadline then gets the GIL back promptly while the publisher or the
        fresh worker runs Python (the default 5 ms would let either hold it past the
        deadline). It changes every thread of the process, so it is the caller's choice
        (the service makes it). ``embedder`` reads requests by meaning (each text is
        embedded once per process); with ``keep_vectors`` the namespace's vectors are
        read from Neo4j, and those missing embedded and persisted in the background
        (``VectorKeeper``). ``meaning`` and ``vectors`` share a cache and a keeper owned
        by the caller (a ``Memory``: evidence reads the same vectors) instead."""
        self.store = store
        self.source = source
        self.builder = builder
        self._child: ChildBuilder | None = None
        self.ns = namespace
        self._owns_vectors = meaning is None
        if meaning is None:
            meaning = VectorCache(embedder) if embedder is not None else None
            vectors = (
                VectorKeeper(store, namespace, meaning)
                if meaning is not None and keep_vectors
                else None
            )
        self.policy = GatePolicy.of(registry, slots, meaning)
        self.vectors = vectors
        self.switch_interval = switch_interval
        self.tokenizer = tokenizer
        self.poll_interval = poll_interval
        self._snapshot: BlockSnapshot | None = None
        self._build_seconds = 0.0
        self._stop = threading.Event()
        self._publisher: threading.Thread | None = None
        self._fresh = ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphmem-fresh")
        self._fresh.submit(lambda: None).result()  # pre-start a worker thread

    # -- the snapshot (read-copy-update) -----------------------------------------------
    def refresh(self) -> BlockSnapshot:
        """Rebuild the snapshot now if Neo4j moved on; publish it with one assignment."""
        mark = self.store.watermark(self.ns)
        snap = self._snapshot
        if snap is None or snap.watermark != mark:
            t0 = time.perf_counter()
            built = None
            if self._in_child():
                try:
                    built = self._build_in_child()
                except SnapshotBuildError:
                    if self._stop.is_set():  # closing: the child was stopped on purpose
                        raise
                    # A child that cannot build (no room in /dev/shm, no interpreter to
                    # start, ...) must not leave blocks stale: build here from now on.
                    log.warning(
                        "the snapshot child process failed; building snapshots in "
                        "this process from now on",
                        exc_info=True,
                    )
                    self.builder = "thread"
            if built is not None:
                snap = built
            else:
                snap = BlockSnapshot.build(self.store.active_view(self.ns), mark, self.tokenizer)
            self._snapshot = snap  # the one reference swap readers see
            # A new snapshot is a bulk of objects in the collector's young generations:
            # collected once here, with the build, they move to the oldest, and the
            # first blocks after it do not pay for that (a few ms at 100k records).
            gc.collect(1)
            if self.vectors is not None:
                self.vectors.notify()  # new records and values get their vectors
            self._build_seconds = time.perf_counter() - t0
        return snap

    def _in_child(self) -> bool:
        if self.source is None or self.builder == "thread" or not ram_folder_available():
            return False
        return self.builder == "process" or (
            self._snapshot is not None and self._build_seconds > CHILD_BUILD_SECONDS
        )

    def _build_in_child(self) -> BlockSnapshot:
        assert self.source is not None
        if self._child is None:
            self._child = ChildBuilder()
        mark, folder = self._child.build(self.source)
        arrays = load_arrays(folder)
        records = unpack_table(arrays["record"])
        tokenize = snapshot_tokenizer(records, self.tokenizer)
        if isinstance(tokenize, KoreanMorphemes) and HANGUL_SYLLABLE.search(
            " ".join(tokenize.names)
        ):
            # Register the names with Kiwi now, not on the first Korean request (a Kiwi
            # rebuild takes about a second); a thread build does it while indexing.
            tokenize("가")
        index = BM25F.from_arrays(arrays["index"], len(records), FIELD_WEIGHTS, tokenize=tokenize)
        return BlockSnapshot.build(records, mark, self.tokenizer, index=index)

    def start(self) -> None:
        if self._publisher is None:
            if self.switch_interval is not None and (
                sys.getswitchinterval() > self.switch_interval
            ):
                sys.setswitchinterval(self.switch_interval)
            if self.vectors is not None:
                self.vectors.start()
            self.refresh()
            self._publisher = threading.Thread(
                target=self._follow, name="graphmem-snapshot", daemon=True
            )
            self._publisher.start()

    def _follow(self) -> None:
        failures = 0  # back off while Neo4j keeps failing
        while not self._stop.wait(self.poll_interval):
            snap = self._snapshot
            # Under a steady writer, rebuild at most every MIN_REBUILD_INTERVAL and never
            # spend more than a fifth of the time building (big stores build slowly).
            pause = max(MIN_REBUILD_INTERVAL, 4 * self._build_seconds)
            if snap is not None and time.time() - snap.built_at < pause:
                continue
            try:
                self.refresh()
            except Exception:  # a transient Neo4j error: keep serving the old snapshot
                log.warning(
                    "block snapshot refresh failed; serving the previous snapshot", exc_info=True
                )
                failures = min(failures + 1, 10)
                self._stop.wait(min(30.0, self.poll_interval * 2**failures))
            else:
                failures = 0

    def close(self) -> None:
        """Stop the publisher and the fresh worker before the driver they use is closed."""
        self._stop.set()
        if self._child is not None:
            self._child.close()  # first: a build in progress ends now, not after Neo4j
        if self._publisher is not None:
            self._publisher.join(timeout=30)
        if self.vectors is not None and self._owns_vectors:
            self.vectors.close()
        self._fresh.shutdown(wait=True, cancel_futures=True)

    @property
    def has_snapshot(self) -> bool:
        return self._snapshot is not None

    @property
    def snapshot(self) -> BlockSnapshot:
        snap = self._snapshot
        return snap if snap is not None else self.refresh()

    # -- requests ------------------------------------------------------------------------
    def block(self, req: BlockRequest) -> Block:
        """The block for one request. A failure while serving is logged and answered with
        an empty block that says why; the caller's message still goes out."""
        t0 = time.perf_counter()
        opts = req.options
        try:
            snap = self.snapshot
            future = None
            if opts.fresh and opts.deadline_ms > 0:
                future = self._fresh.submit(self._fresh_block, req, snap)
            # The snapshot's answer is ready before the deadline is waited on, so a late
            # fresh read costs nothing but the wait.
            block = compose(snap, req, Ranking(snap, req.request, req.partner), self.policy)
            block = replace(
                block,
                snapshot_age_ms=max(0.0, (time.time() - snap.built_at) * 1000),
                fell_back=opts.fresh,
            )
            if future is not None:
                left = opts.deadline_ms / 1000.0 - (time.perf_counter() - t0)
                try:
                    block = replace(future.result(timeout=max(0.0, left)), served="fresh")
                except FutureTimeout:
                    future.cancel()
                except Exception:
                    log.warning("fresh block read failed; serving the snapshot", exc_info=True)
        except Exception as exc:  # never let a block request fail the caller's reply
            log.exception("block request failed")
            block = Block("", [], abstained=True, reason=f"error: {type(exc).__name__}")
        return replace(block, latency_ms=(time.perf_counter() - t0) * 1000)

    def _fresh_block(self, req: BlockRequest, snap: BlockSnapshot) -> Block:
        terms = list(dict.fromkeys(_TERM.findall(f"{req.request} {req.partner}")))[:64]
        if not terms:
            return Block("", [], abstained=True, reason="empty request")
        pool = self.store.fresh_candidates(self.ns, terms, RANK_DEPTH)
        return compose(snap, req, Ranking(snap, req.request, req.partner, pool), self.policy)
