"""graphmem: memory for LLM agents whose state lives in Neo4j.

Values are resolved to their current version at write time, every version keeps its
evidence and what it replaced, and reads hand the agent the original records.
"""

from graphmem._errors import (
    ConflictError,
    GraphmemError,
    InvalidInputError,
    LLMError,
    LocalNeo4jError,
    MissingToolError,
    NotFoundError,
    PortInUseError,
    StoreUnavailableError,
    UnknownRelationError,
)
from graphmem.client import AsyncClient, Client
from graphmem.domain.keys import RelationRegistry
from graphmem.domain.model import Authority, Fact, Intent, OpKind, Record, Status
from graphmem.local_neo4j import LocalNeo4j
from graphmem.memory import EraseReport, Explanation, IngestReport, Memory, WriteResult
from graphmem.service import ServiceError

__version__ = "0.1.0"

__all__ = [
    "AsyncClient",
    "Authority",
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
