"""``Settings``: what the service adds to a ``MemoryConfig`` (keys, limits, the reader).

Where Neo4j is and how each namespace reads and writes (registry, extractor, block
defaults, …) is one ``MemoryConfig`` in ``Settings.memory``, the same object ``Memory``
and the CLI are configured with. This module imports no web framework.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from graphmem._errors import InvalidInputError
from graphmem.config import MemoryConfig, RegistryFactory, check_number
from graphmem.llm.ollama import DEFAULT_MODEL
from graphmem.reads.blocks.serving import SWITCH_INTERVAL
from graphmem.service.auth import KeySpec, parse_api_keys

__all__ = ["DEFAULT_NEO4J_URI", "MB", "Settings"]

MB = 1024 * 1024
# The service never starts a database: without a URI it expects one here.
DEFAULT_NEO4J_URI = "bolt://127.0.0.1:7687"
_MEMORY_FIELDS = frozenset(f.name for f in fields(MemoryConfig))


@dataclass(frozen=True)
class Settings:
    """What the service needs: a ``MemoryConfig``, who may call, and a few limits.

    ``memory`` configures every namespace's ``Memory`` (its ``neo4j_uri`` ``None`` means
    ``DEFAULT_NEO4J_URI``; ``extractor`` reads records that arrive as plain text).
    ``api_keys`` maps each key to the namespaces it may touch (``"*"``: any); with no
    keys every ``/v1`` request is refused. ``registry``, when given, builds a namespace's
    relation registry (instead of a copy of ``memory.registry``); ``reader_url`` (an
    Ollama base URL) enables ``POST answer``.
    """

    memory: MemoryConfig = field(default_factory=MemoryConfig)
    api_keys: Mapping[str, KeySpec] = field(default_factory=dict)
    max_request_bytes: int = 10 * MB
    async_ingest_threshold: int = 2000  # more records than this: a background job (202)
    reader_url: str | None = None
    reader_model: str = DEFAULT_MODEL
    reader_timeout: float = 120.0
    registry: RegistryFactory | None = None
    write_wait_seconds: float = 30.0  # then 503 namespace-busy (e.g. behind a long job)
    max_cached_namespaces: int = 256

    def __post_init__(self) -> None:
        bounds = {
            "max_request_bytes": (1, 1 << 31),
            "async_ingest_threshold": (1, 10**7),
            "reader_timeout": (0.1, 3600),
            "write_wait_seconds": (0, 3600),
            "max_cached_namespaces": (1, 100_000),
        }
        for name, (low, high) in bounds.items():
            check_number(name, getattr(self, name), low, high)
        if not isinstance(self.memory, MemoryConfig):
            raise InvalidInputError("memory must be a MemoryConfig")
        if self.memory.neo4j_uri is None:
            object.__setattr__(
                self, "memory", self.memory.with_overrides(neo4j_uri=DEFAULT_NEO4J_URI)
            )
        if self.memory.block_switch_interval is None:
            # The service owns its process: blocks waiting on a deadline get the GIL back
            # promptly (see MemoryConfig.block_switch_interval).
            object.__setattr__(
                self,
                "memory",
                self.memory.with_overrides(block_switch_interval=SWITCH_INTERVAL),
            )

    @property
    def neo4j_uri(self) -> str:
        return self.memory.neo4j_uri or DEFAULT_NEO4J_URI

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """``MemoryConfig.from_env`` (``NEO4J_URI``, ``NEO4J_USER``/``NEO4J_PASSWORD``,
        ``NEO4J_DATABASE``, ``GRAPHMEM_NEO4J_HTTP``, ``GRAPHMEM_EXTRACTOR``,
        ``GRAPHMEM_OLLAMA_URL``, ``GRAPHMEM_OLLAMA_MODEL``, ``GRAPHMEM_TIMEZONE``) plus
        ``GRAPHMEM_API_KEYS``
        (JSON), ``GRAPHMEM_MAX_REQUEST_BYTES``, ``GRAPHMEM_READER_URL`` and
        ``GRAPHMEM_READER_MODEL``.

        Keyword overrides win; a ``MemoryConfig`` field (``neo4j_uri``, ``extractor``, …)
        goes to ``memory``, any other to the settings.
        """
        env = os.environ if environ is None else environ
        memory_overrides = {k: v for k, v in overrides.items() if k in _MEMORY_FIELDS}
        own = {k: v for k, v in overrides.items() if k not in _MEMORY_FIELDS}
        values: dict[str, Any] = {}
        if "memory" not in own:
            values["memory"] = MemoryConfig.from_env(env, **memory_overrides)
        elif memory_overrides:
            own["memory"] = own["memory"].with_overrides(**memory_overrides)
        if env.get("GRAPHMEM_API_KEYS"):
            values["api_keys"] = parse_api_keys(env["GRAPHMEM_API_KEYS"])
        if env.get("GRAPHMEM_MAX_REQUEST_BYTES"):
            raw = env["GRAPHMEM_MAX_REQUEST_BYTES"]
            if not raw.strip().isdigit():
                raise InvalidInputError(
                    f"GRAPHMEM_MAX_REQUEST_BYTES must be a whole number of bytes, got {raw!r}"
                )
            values["max_request_bytes"] = int(raw)
        if env.get("GRAPHMEM_READER_URL"):
            values["reader_url"] = env["GRAPHMEM_READER_URL"]
        if env.get("GRAPHMEM_READER_MODEL"):
            values["reader_model"] = env["GRAPHMEM_READER_MODEL"]
        return replace(cls(**values), **own)
