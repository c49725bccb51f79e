"""The REST service over ``Memory`` and the wire protocol it shares with ``graphmem.client``.

This module imports no web framework, so ``graphmem.client`` can use the problem table
below without loading FastAPI. ``create_app`` and ``Settings`` are loaded on first use.

Every error the service returns is RFC 7807 problem JSON. A core error has a
``urn:graphmem:problem:<slug>`` type; HTTP-level problems (401, 403, 413, unknown route)
use ``about:blank``. The table is the one place where a graphmem error class, an HTTP
status and a problem type meet: the service maps exceptions to problems with
``problem_kind`` and the client maps problems back to exceptions with ``error_from_problem``.

The package, one concern a module:

- ``settings``: ``Settings`` (keys, limits, the reader) around one ``MemoryConfig``;
- ``schemas``: the request and response bodies (pydantic, for validation and OpenAPI);
- ``problems``: problem responses, the exception handlers, the request-size limit;
- ``jobs``: background ingests and ``Job``, their one wire shape (no FastAPI: the client
  reads it too);
- ``wire``: the wire shape of a memory ``Block`` (no FastAPI either);
- ``state``: ``Service``, the store, one ``Memory`` per namespace, locks and the reader;
- ``routes``: the ``/v1`` routes, each translating HTTP into one ``Memory`` call;
- ``app``: ``create_app``, ``app_from_env`` and ``ServiceThread``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus
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
    from graphmem.service.app import create_app
    from graphmem.service.settings import Settings

__all__ = [
    "PROBLEM_JSON",
    "PROBLEM_KINDS",
    "ProblemException",
    "ProblemKind",
    "ServiceError",
    "Settings",
    "create_app",
    "error_from_problem",
    "problem_body",
    "problem_for",
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
UNEXPECTED = "an unexpected error occurred; the service log has the details"


def problem_kind(exc: BaseException) -> ProblemKind:
    """The table row for an exception raised by the core (``INTERNAL`` for anything else)."""
    for kind in PROBLEM_KINDS:
        if kind.error is not ServiceError and isinstance(exc, kind.error):
            return kind
    return INTERNAL


def kind_named(slug: str) -> ProblemKind:
    return _BY_TYPE[PROBLEM_PREFIX + slug]


class ProblemException(Exception):
    """A service-only condition (namespace busy, no reader) with its table row.

    ``headers`` go on the response (e.g. ``Retry-After``).
    """

    def __init__(
        self, kind: ProblemKind, detail: str, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(detail)
        self.kind, self.detail, self.headers = kind, detail, dict(headers or {})


def problem_body(
    status: int,
    detail: str | None,
    *,
    type_: str = "about:blank",
    title: str | None = None,
    instance: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """RFC 7807 problem JSON: ``type``, ``title``, ``status``, ``detail`` (and more)."""
    body: dict[str, Any] = {
        "type": type_,
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
    }
    if instance:
        body["instance"] = instance
    return body | extra


def problem_for(exc: BaseException, instance: str | None = None) -> dict[str, Any]:
    """The problem JSON for an exception: its table row, or a 500 that says nothing more
    (an unexpected exception's message can leak internals; the log has it)."""
    if isinstance(exc, ProblemException):
        kind, detail = exc.kind, exc.detail
    elif isinstance(exc, GraphmemError):
        kind, detail = problem_kind(exc), str(exc)
    else:
        return problem_body(500, UNEXPECTED, instance=instance)
    return problem_body(kind.status, detail, type_=kind.type, title=kind.title, instance=instance)


def error_from_problem(status: int | None, problem: Mapping[str, Any] | None) -> GraphmemError:
    """The exception a client raises for a problem response: the core's class when typed.

    Every returned exception carries ``status`` and ``problem`` attributes.
    """
    problem = dict(problem or {})
    detail = str(problem.get("detail") or problem.get("title") or f"HTTP {status}")
    kind = _BY_TYPE.get(str(problem.get("type", "")))
    if kind is None or kind.error in (ServiceError, GraphmemError):
        return ServiceError(detail, status=status, problem=problem)
    exc = kind.error(detail)
    # The core's classes declare no such attributes; set them as ServiceError has them.
    vars(exc).update(status=status, problem=problem)
    return exc


def __getattr__(name: str) -> Any:
    """``create_app`` imports FastAPI; load it (and ``Settings``) only when asked for."""
    if name == "create_app":
        from graphmem.service.app import create_app

        return create_app
    if name == "Settings":
        from graphmem.service.settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
