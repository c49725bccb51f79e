"""Entity names' vectors for cross-script links by meaning ("반지의 제왕" to The Lord of
the Rings), kept with the entities in Neo4j.

A namespace pays for them only once it is asked in Hangul: the first such question
starts a thread that reads the names' persisted vectors, then embeds (in batches) and
persists those that hold none; names written later follow. Until a name has its vector,
links to it are made by sound alone. The vectors share the namespace's recorded model
(``embedding_model``) with its other vectors; ``graphmem reembed`` clears them too.
"""

from __future__ import annotations

import logging

import numpy as np
import numpy.typing as npt

from graphmem.embedding import VectorCache
from graphmem.language.name_meaning import NameVectors
from graphmem.llm.base import Embedder
from graphmem.reads.blocks.vectors import BackgroundKeeper, refuse_other_model
from graphmem.store.protocol import Store

__all__ = ["NameVectorKeeper"]

log = logging.getLogger("graphmem")

NAME_BATCH = 64  # names embedded per call of the embedder, and persisted per round trip


class NameVectorKeeper(BackgroundKeeper):
    """The namespace's name vectors (``vectors``) and the span embedder (``query``): what
    ``CrossScriptLinker`` needs of meaning (``NameMeaning``)."""

    thread_name = "graphmem-name-vectors"

    def __init__(self, store: Store, ns: str, embedder: Embedder) -> None:
        super().__init__()
        self.store = store
        self.ns = ns
        self._embedder = VectorCache(embedder)
        self.model = self._embedder.model
        self._vectors = NameVectors()
        self._loaded = False  # the persisted vectors were read into ``_vectors``
        self._claimed = False
        self._warned = False

    @property
    def vectors(self) -> NameVectors:
        return self._vectors

    def query(self, text: str) -> npt.NDArray[np.float32] | None:
        """The span's vector; None until the first names hold theirs (then no embedding
        is spent on a span nothing could be linked to), or when the embedder fails (the
        link is then made by sound alone)."""
        self.start()
        if not len(self._vectors):
            return None
        try:
            return self._embedder.query(text)
        except Exception:
            if not self._warned:
                self._warned = True
                log.warning("graphmem: could not embed a name; linking by sound", exc_info=True)
            return None

    def start(self) -> None:
        """Start keeping the names' vectors (once; later calls do nothing)."""
        with self._lock:
            if self._thread is not None or self._stop.is_set():
                return
        self._start_thread()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Start, and wait until every name notified so far holds its vector (or the
        keeper gave up on them)."""
        self.start()
        return super().wait_idle(timeout)

    def reset(self) -> None:
        """Forget the vectors held here (the namespace's were cleared: ``reembed``); the
        next Hangul question starts over."""
        self.close()
        BackgroundKeeper.__init__(self)
        self._vectors = NameVectors()
        self._loaded = self._claimed = False

    def embed_missing(self) -> int:
        """Embed and persist the Latin names that hold no vector; how many."""
        done = 0
        while not self._stop.is_set():
            missing = self.store.missing_name_vectors(self.ns, NAME_BATCH * 4)
            if not missing:
                break
            if not self._claimed:  # one model per namespace, as for its other vectors
                self.store.claim_vector_model(self.ns, self.model)
                refuse_other_model(self.store, self.ns, self.model)
                self._claimed = True
            for i in range(0, len(missing), NAME_BATCH):
                chunk = missing[i : i + NAME_BATCH]
                rows = self._embedder.passages([name for _, name in chunk])
                pairs = [
                    (uid, name, row) for (uid, name), row in zip(chunk, rows.tolist(), strict=True)
                ]
                written = self.store.write_name_vectors(self.ns, pairs)
                self._vectors.add([name for _, name in chunk], rows)
                done += len(chunk)
                if written < len(chunk):  # entities erased meanwhile: read what remains
                    self._reload()
                if self._stop.is_set():
                    break
        return done

    def _reload(self) -> None:
        names: list[str] = []
        rows: list[list[float]] = []
        for name, vector in self.store.stored_name_vectors(self.ns):
            names.append(name)
            rows.append(vector)
        fresh = NameVectors()
        if rows:
            fresh.add(names, np.asarray(rows, dtype=np.float32))
        self._vectors = fresh

    def _work(self) -> None:
        if not self._loaded:
            self._reload()
            self._loaded = True
        self.embed_missing()
