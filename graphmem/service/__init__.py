"""The REST service over ``Memory`` and the wire protocol it shares with ``graphmem.client``.

This module imports no web framework, so ``graphmem.client`` can use the problem table
below without loading FastAPI. ``create_app`` and ``Settings`` are loaded on first use.

Every error the service returns is RFC 7807 problem JSON. A core error has a
``urn:graphmem:problem:<slug>`` type; HTTP-level problems (401, 403, 413, unknown route)
use ``about:blank``. The table is the one place where a graphmem error class, an HTTP
status and a problem type meet: the service maps exceptions to problems with
``problem_kind`` and the client maps problems back to exceptions with ``error_from_problem``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from graphmem._errors import (
    ConflictError,
    GraphmemError,
    InvalidInputError,
    LLMError,
    NotFoundError,
    StoreUnavailableError,
    UnknownRelationError,
)

if TYPE_CHECKING:
    from graphmem.service.app import Settings, create_app

__all__ = [
    "PROBLEM_JSON",
    "PROBLEM_KINDS",
    "ProblemKind",
    "ServiceError",
    "Settings",
    "create_app",
    "error_from_problem",
    "problem_kind",
]

PROBLEM_JSON = "application/problem+json"
PROBLEM_PREFIX = "urn:graphmem:problem:"


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


@dataclass(frozen=True)
class ProblemKind:
    """One row of the table: an error class, its status and problem type."""

    error: type[GraphmemError]
    status: int
    slug: str
    title: str

    @property
    def type(self) -> str:
        return PROBLEM_PREFIX + self.slug


# Subclasses before their bases: the first row an exception is an instance of wins.
PROBLEM_KINDS: tuple[ProblemKind, ...] = (
    ProblemKind(UnknownRelationError, 422, "unknown-relation", "Unknown relation"),
    ProblemKind(InvalidInputError, 422, "invalid-input", "Invalid input"),
    ProblemKind(NotFoundError, 404, "not-found", "Not found"),
    ProblemKind(ConflictError, 409, "conflict", "Conflict"),
    ProblemKind(StoreUnavailableError, 503, "store-unavailable", "Neo4j is unavailable"),
    ProblemKind(LLMError, 502, "llm-error", "The reader LLM failed"),
    # Service-only conditions: raised as ServiceError by the client.
    ProblemKind(ServiceError, 503, "namespace-busy", "Namespace busy"),
    ProblemKind(ServiceError, 503, "reader-not-configured", "No reader configured"),
    ProblemKind(GraphmemError, 500, "graphmem-error", "graphmem error"),
)
_BY_TYPE = {k.type: k for k in PROBLEM_KINDS}
INTERNAL = ProblemKind(GraphmemError, 500, "internal", "Internal server error")


def problem_kind(exc: BaseException) -> ProblemKind:
    """The table row for an exception raised by the core (``INTERNAL`` for anything else)."""
    for kind in PROBLEM_KINDS:
        if kind.error is not ServiceError and isinstance(exc, kind.error):
            return kind
    return INTERNAL


def kind_named(slug: str) -> ProblemKind:
    return _BY_TYPE[PROBLEM_PREFIX + slug]


def error_from_problem(status: int | None, problem: Mapping[str, Any] | None) -> GraphmemError:
    """The exception a client raises for a problem response: the core's class when typed.

    Every returned exception carries ``status`` and ``problem`` attributes.
    """
    problem = dict(problem or {})
    detail = str(problem.get("detail") or problem.get("title") or f"HTTP {status}")
    kind = _BY_TYPE.get(str(problem.get("type", "")))
    exc: GraphmemError
    if kind is None or kind.error in (ServiceError, GraphmemError):
        exc = ServiceError(detail, status=status, problem=problem)
    else:
        exc = kind.error(detail)
    exc.status = status  # type: ignore[attr-defined]
    exc.problem = problem  # type: ignore[attr-defined]
    return exc


def __getattr__(name: str) -> Any:
    """``create_app`` and ``Settings`` import FastAPI; load them only when asked for."""
    if name in ("create_app", "Settings"):
        from graphmem.service import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
