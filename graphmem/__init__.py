"""graphmem: memory for LLM agents whose state lives in Neo4j.

Values are resolved to their current version at write time, every version keeps its
evidence and what it replaced, and reads hand the agent the original records.

Names are loaded on first use, so ``from graphmem import Client`` (an HTTP client) loads
no database driver and no web framework.
"""

import importlib as _importlib
import typing as _typing

from graphmem._errors import (
    ConflictError,
    GraphmemError,
    InvalidInputError,
    LLMError,
    LocalNeo4jError,
    MissingToolError,
    NotFoundError,
    PortInUseError,
    ServiceError,
    StoreUnavailableError,
    UnknownRelationError,
)

if _typing.TYPE_CHECKING:
    from graphmem.client import AsyncClient, Client
    from graphmem.config import BlockOptions, MemoryConfig
    from graphmem.domain.keys import RelationRegistry
    from graphmem.domain.model import Authority, Fact, Intent, OpKind, Record, Status
    from graphmem.local_neo4j import LocalNeo4j
    from graphmem.memory import Memory
    from graphmem.results import (
        Answer,
        EraseReport,
        Explanation,
        IngestReport,
        WriteResult,
    )

__version__ = "0.1.0"

# public name -> the module that defines it
_LAZY = {
    "AsyncClient": "graphmem.client",
    "Client": "graphmem.client",
    "BlockOptions": "graphmem.config",
    "MemoryConfig": "graphmem.config",
    "RelationRegistry": "graphmem.domain.keys",
    "Authority": "graphmem.domain.model",
    "Fact": "graphmem.domain.model",
    "Intent": "graphmem.domain.model",
    "OpKind": "graphmem.domain.model",
    "Record": "graphmem.domain.model",
    "Status": "graphmem.domain.model",
    "LocalNeo4j": "graphmem.local_neo4j",
    "Memory": "graphmem.memory",
    "Answer": "graphmem.results",
    "EraseReport": "graphmem.results",
    "Explanation": "graphmem.results",
    "IngestReport": "graphmem.results",
    "WriteResult": "graphmem.results",
}

__all__ = [
    "Answer",
    "AsyncClient",
    "Authority",
    "BlockOptions",
    "Client",
    "ConflictError",
    "EraseReport",
    "Explanation",
    "Fact",
    "GraphmemError",
    "IngestReport",
    "Intent",
    "InvalidInputError",
    "LLMError",
    "LocalNeo4j",
    "LocalNeo4jError",
    "Memory",
    "MemoryConfig",
    "MissingToolError",
    "NotFoundError",
    "OpKind",
    "PortInUseError",
    "Record",
    "RelationRegistry",
    "ServiceError",
    "Status",
    "StoreUnavailableError",
    "UnknownRelationError",
    "WriteResult",
    "__version__",
]


def __getattr__(name: str) -> _typing.Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
