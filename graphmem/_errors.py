"""One exception tree for everything graphmem raises on purpose.

Catch ``GraphmemError`` for all of them; the subclasses say what went wrong and
carry a message that says what to do about it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "ConflictError",
    "GraphmemError",
    "InvalidInputError",
    "LLMError",
    "LocalNeo4jError",
    "MissingToolError",
    "NotFoundError",
    "PortInUseError",
    "ServiceError",
    "StoreUnavailableError",
    "UnknownRelationError",
]


class GraphmemError(Exception):
    """Base class of every error graphmem raises deliberately."""


class InvalidInputError(GraphmemError, ValueError):
    """The caller passed something graphmem cannot accept (nothing was written)."""


class UnknownRelationError(InvalidInputError):
    """A relation is used with a cardinality graphmem was not told about."""


class NotFoundError(GraphmemError, LookupError):
    """The record, key or version named by the caller does not exist in the namespace."""


class ConflictError(GraphmemError):
    """The operation is impossible in the key's current state (e.g. revoke with no head)."""


class StoreUnavailableError(GraphmemError):
    """Neo4j could not be reached or refused the connection.

    ``retryable`` says whether trying again later can help (Neo4j down or a transient
    failure: the service answers 503 with Retry-After) or not (bad credentials, a write
    that ran past its timeout).
    """

    retryable: bool = True


class LLMError(GraphmemError):
    """The LLM backend (Ollama) failed, timed out or answered something unusable."""


class LocalNeo4jError(GraphmemError):
    """The embedded local Neo4j server could not be fetched, started or stopped."""


class MissingToolError(LocalNeo4jError):
    """Java or Maven, needed to run the local Neo4j server, is not installed."""


class PortInUseError(LocalNeo4jError):
    """A port the local Neo4j needs is already taken by another program."""


class ServiceError(GraphmemError):
    """A problem with no counterpart in the core: 401, 403, 413, 500, an unreachable service.

    ``status`` is the HTTP status (``None`` when no response came back) and ``problem``
    the problem JSON as received.
    """

    def __init__(
        self, detail: str, *, status: int | None = None, problem: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.problem = dict(problem or {})
