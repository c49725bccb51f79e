"""Vectors kept with the namespace: computed in batches after writes, persisted in Neo4j.

Each record keeps the vector of its text and each current value the vector of its line
(``fact_line``), as a ``embedding`` property (32-bit floats); the namespace's node records
the model (``embedding_model``). A process serving blocks reads them once into its
``VectorCache``, so a restart re-embeds nothing; the keeper then embeds what writes add,
in the background. Until a text has its vector, a block that needs it embeds it on the
spot: a write can be served by meaning as soon as the snapshot holds it.

One model per namespace: vectors of two models are not comparable, so a Memory whose
embedder is not the recorded one is refused (``graphmem reembed`` starts over).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import numpy as np

from graphmem._errors import ConflictError, GraphmemError
from graphmem.embedding import VectorCache
from graphmem.store.protocol import Store

__all__ = ["BackgroundKeeper", "VectorKeeper", "refuse_other_model"]

log = logging.getLogger("graphmem")

# Texts embedded per call of the embedder, and per round trip that persists them.
EMBED_BATCH = 32
# How long a block server waits for a keeper started elsewhere to read what is kept.
LOAD_WAIT = 30.0


def refuse_other_model(store: Store, ns: str, model: str) -> None:
    """Raise ``ConflictError`` when the namespace's vectors come from another model."""
    _refuse(ns, store.vector_model(ns), model)


def _refuse(ns: str, recorded: str | None, model: str) -> None:
    if recorded is not None and recorded != model:
        raise ConflictError(
            f"namespace {ns!r} holds vectors made by {recorded!r}, and this Memory embeds "
            f"with {model!r}; vectors of two models cannot be compared. Use the same "
            f"embedder (GRAPHMEM_EMBEDDER), or re-embed the namespace with this one: "
            f"graphmem -n {ns} reembed --embedder <name>"
        )


class BackgroundKeeper:
    """A thread that runs ``_work`` after writes (``notify``), one run at a time, until
    ``close``; ``wait_idle`` waits for the runs notified so far. A refused model
    (``ConflictError``) stops the work for good; Neo4j away or an embedder failing is
    logged and tried again on the next write."""

    thread_name = "graphmem-vectors"

    def __init__(self) -> None:
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None
        self._refused = False
        self._lock = threading.Lock()  # a notify between a run's end and idle

    def _work(self) -> None:
        raise NotImplementedError

    def _start_thread(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
        self._thread.start()
        self.notify()

    def notify(self) -> None:
        """Something was written: work on it when the embedder is free."""
        with self._lock:
            self._idle.clear()
            self._wake.set()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until everything notified so far is done (tests, benchmarks)."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            if self._stop.is_set():
                break
            if not self._refused:
                try:
                    self._work()
                except ConflictError as exc:
                    self._refused = True  # reads go on without what is kept here
                    log.error("graphmem: vectors are not kept: %s", exc)
                except GraphmemError as exc:  # Neo4j away: the next write tries again
                    log.warning("graphmem: could not keep vectors now: %s", exc)
                except Exception:  # an embedder failing must not stop the keeper
                    log.exception("graphmem: embedding failed; will try again on a write")
            with self._lock:
                if not self._wake.is_set():
                    self._idle.set()


class VectorKeeper(BackgroundKeeper):
    """Embeds the namespace's texts that hold no vector and persists their vectors; reads
    the persisted ones into ``cache``. ``start`` runs it in a thread woken by ``notify``."""

    def __init__(self, store: Store, ns: str, cache: VectorCache) -> None:
        super().__init__()
        self.store = store
        self.ns = ns
        self.cache = cache
        self._claimed = False  # the namespace records this keeper's model
        self._started = False
        self._load_pending = False
        self._loaded = threading.Event()  # the persisted vectors were read

    def load(self) -> int:
        """Read the namespace's persisted vectors into the cache; how many."""
        texts: list[str] = []
        rows: list[list[float]] = []
        for text, vector in self.store.stored_vectors(self.ns):
            texts.append(text.text)
            rows.append(vector)
        if rows:
            self.cache.put(texts, np.asarray(rows, dtype=np.float32))
        return len(rows)

    def embed_missing(self, progress: Callable[[int], None] | None = None) -> int:
        """Embed and persist every text of the namespace without a vector; how many.
        Refuses (``ConflictError``) where the namespace records another model."""
        done = 0
        while not self._stop.is_set():
            missing = self.store.missing_vectors(self.ns, EMBED_BATCH * 8)
            if not missing:
                break
            if not self._claimed:
                # Once, before the first vector: the claim writes the namespace's node,
                # which writers lock, so it is not repeated after every snapshot.
                _refuse(
                    self.ns,
                    self.store.claim_vector_model(self.ns, self.cache.model),
                    self.cache.model,
                )
                self._claimed = True
            for i in range(0, len(missing), EMBED_BATCH):
                chunk = missing[i : i + EMBED_BATCH]
                vectors = self.cache.passages([t.text for t in chunk])
                self.store.write_vectors(self.ns, list(zip(chunk, vectors.tolist(), strict=True)))
                done += len(chunk)
                if progress is not None:
                    progress(len(chunk))
                if self._stop.is_set():
                    break
        return done

    # -- in the background -------------------------------------------------------------
    def start(self, load_now: bool = True) -> None:
        """Read the persisted vectors (now with ``load_now``: the first blocks then embed
        nothing already kept; else first thing in the background), then keep the rest
        in the background. Starting a running keeper does nothing."""
        with self._lock:
            started, self._started = self._started, True
        if started:
            if load_now:  # a block server needs what is kept before its first snapshot
                self._loaded.wait(LOAD_WAIT)
            return
        self._load_pending = True  # until a read succeeds: the thread retries it
        if load_now:
            self._load()
        self._start_thread()

    def _load(self) -> None:
        try:
            loaded = self.load()
            log.debug("graphmem: %d vectors of namespace %r read from Neo4j", loaded, self.ns)
        except Exception:  # the keeper embeds what it could not read; the next run retries
            log.warning("graphmem: could not read the namespace's vectors", exc_info=True)
        else:
            self._load_pending = False
            self._loaded.set()

    def _work(self) -> None:
        if self._load_pending:
            self._load()
        self.embed_missing()
