"""``Service``: the state behind the routes. Every Neo4j call goes through ``Memory``.

One ``Neo4jStore`` (connected on first use, so the service starts, and says so, while
Neo4j is down), one cached ``Memory`` per namespace built from ``Settings.memory``, one
write lock per namespace, the background jobs and the reader LLM. This module imports
no web framework.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from graphmem._errors import StoreUnavailableError
from graphmem.config import MemoryConfig
from graphmem.llm.base import LLMClient
from graphmem.llm.ollama import OllamaClient
from graphmem.memory import Memory
from graphmem.service.auth import KeyRing, parse_api_keys
from graphmem.service.jobs import Jobs
from graphmem.service.settings import Settings
from graphmem.store.neo4j.store import Neo4jStore
from graphmem.store.sealing import sealer_for
from graphmem.wire import ProblemException, kind_named

__all__ = ["Service"]

log = logging.getLogger("graphmem.service")


def _release(mem: Memory) -> None:
    """Stop what a cached ``Memory`` started (its block server's threads) and keep the
    store, which every namespace shares: ``Memory.close`` would close it too."""
    mem.release()


class Service:
    """The shared state behind the routes."""

    def __init__(self, settings: Settings, *, needs_keys: bool = True) -> None:
        self.settings = settings
        self.keys = KeyRing(parse_api_keys(settings.api_keys))
        self.jobs = Jobs()
        self._store: Neo4jStore | None = None
        self._store_lock = threading.Lock()
        self._memories: OrderedDict[str, Memory] = OrderedDict()
        self._write_locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self._reader: OllamaClient | None = None
        if needs_keys and not self.keys:
            log.warning(
                "no API keys configured (GRAPHMEM_API_KEYS): every /v1 request "
                "will be refused with 401"
            )

    def store(self) -> Neo4jStore:
        """Connect on first use; install the schema when the configuration says so."""
        with self._store_lock:
            if self._store is None:
                cfg = self.settings.memory
                store = Neo4jStore.connect(
                    self.settings.neo4j_uri,
                    auth=cfg.neo4j_auth,
                    database=cfg.neo4j_database,
                    timeout=cfg.neo4j_timeout,
                    write_timeout=cfg.neo4j_write_timeout,
                    sealer=sealer_for(cfg.seal_text, cfg.key_store, cfg.record_id_secret),
                )
                try:
                    if cfg.install_schema:
                        store.install_schema()
                    store.prepare_plans()
                except Exception:
                    store.close()
                    raise
                self._store = store
            return self._store

    def config_for(self, namespace: str) -> MemoryConfig:
        """``Settings.memory``, with the namespace's registry when a factory is set
        (``Memory`` copies the registry either way: namespaces never share one)."""
        factory = self.settings.registry
        cfg = self.settings.memory
        return cfg.with_overrides(registry=factory(namespace)) if factory else cfg

    def memory(self, namespace: str) -> Memory:
        """The namespace's ``Memory`` (cached, all sharing one store)."""
        store = self.store()
        evicted: list[Memory] = []
        with self._lock:
            mem = self._memories.get(namespace)
            if mem is None:
                mem = Memory(
                    store, namespace, self.config_for(namespace), bolt_url=self.settings.neo4j_uri
                )
                self._memories[namespace] = mem
                while len(self._memories) > self.settings.max_cached_namespaces:
                    evicted.append(self._memories.popitem(last=False)[1])
            self._memories.move_to_end(namespace)
        for old in evicted:
            _release(old)
        return mem

    def serving_memory(self, namespace: str) -> Memory | None:
        """The namespace's ``Memory`` when it is cached and its block snapshot is built:
        a block from it needs no I/O (else None: the caller goes the slow way)."""
        with self._lock:
            mem = self._memories.get(namespace)
            if mem is None or not mem.blocks_ready:
                return None
            self._memories.move_to_end(namespace)
            return mem

    @contextmanager
    def writing(self, namespace: str, *, patient: bool = False) -> Iterator[None]:
        """One writer per namespace at a time in this process.

        Correctness does not depend on it: every write transaction takes the namespace's
        lock in Neo4j, so writers in several processes stay serialized. This lock bounds
        how long a request waits behind another write here (``write_wait_seconds``, then a
        503 with Retry-After) instead of piling up threads; a ``patient`` background job
        waits as long as it takes.
        """
        with self._lock:
            lock = self._write_locks.setdefault(namespace, threading.Lock())
        timeout = -1 if patient else self.settings.write_wait_seconds
        if not lock.acquire(timeout=timeout):
            raise ProblemException(
                kind_named("namespace-busy"),
                f"namespace {namespace!r} is busy with another write (e.g. a background "
                "ingest); retry later",
                {"Retry-After": "5"},
            )
        try:
            yield
        finally:
            lock.release()

    def reader(self) -> LLMClient:
        """The reader LLM for ``answer`` (503 reader-not-configured without one)."""
        if self.settings.reader_url is None:
            raise ProblemException(
                kind_named("reader-not-configured"),
                "no reader LLM is configured: start the service with GRAPHMEM_READER_URL "
                "(an Ollama base URL)",
            )
        with self._lock:
            if self._reader is None:
                self._reader = OllamaClient(
                    self.settings.reader_url,
                    model=self.settings.reader_model,
                    timeout=self.settings.reader_timeout,
                )
            return self._reader

    def check_health(self) -> None:
        """Raise StoreUnavailableError unless Neo4j answers. The detail stays generic: the
        endpoint needs no key, so it must not tell strangers where the database is."""
        try:
            self.store().ping()
        except StoreUnavailableError as exc:
            log.warning("health check: Neo4j is not reachable: %s", exc)
            raise StoreUnavailableError(
                "Neo4j is not reachable; the service log has the details"
            ) from exc

    def close(self) -> None:
        """Wait for running jobs, stop every namespace's block server, close the store."""
        self.jobs.close()
        with self._lock:
            memories = list(self._memories.values())
            self._memories.clear()
        for mem in memories:
            _release(mem)
        with self._store_lock:
            if self._store is not None:
                self._store.close()
                self._store = None
        with self._lock:
            reader, self._reader = self._reader, None
        if reader is not None:
            reader.close()
