"""Problem JSON over HTTP: responses, the exception handlers and the request-size limit.

Every error leaves the service as RFC 7807 problem JSON (``application/problem+json``):
graphmem's errors with the type of their row in ``graphmem.service.PROBLEM_KINDS``,
request validation as ``invalid-input`` (422) or, for a body that is not JSON, 400, and
HTTP-level problems (401, 403, 404, 405, 413) as ``about:blank``. An unexpected
exception is a 500 whose body says nothing about it; the log has the traceback.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem._errors import GraphmemError, StoreUnavailableError
from graphmem.wire import (
    PROBLEM_JSON,
    UNEXPECTED,
    ProblemException,
    kind_named,
    problem_body,
    problem_for,
)

__all__ = ["BodyLimit", "install_error_handlers", "problem_response"]


def problem_response(
    status: int, detail: str | None, *, headers: Mapping[str, str] | None = None, **kw: Any
) -> JSONResponse:
    return JSONResponse(
        problem_body(status, detail, **kw),
        status_code=status,
        headers=dict(headers or {}),
        media_type=PROBLEM_JSON,
    )


def _exception_response(
    exc: BaseException, request: Request, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    body = problem_for(exc, instance=request.url.path)
    return JSONResponse(
        body, status_code=body["status"], headers=dict(headers or {}), media_type=PROBLEM_JSON
    )


def _error_fields(exc: RequestValidationError) -> list[dict[str, Any]]:
    """Pydantic's errors without the offending input (it may be large or sensitive)."""
    return [
        {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
        for e in exc.errors()
    ]


async def _on_graphmem(request: Request, exc: Exception) -> Response:
    # Neo4j unreachable: say when to try again, as a busy namespace does.
    headers = (
        {"Retry-After": "5"} if isinstance(exc, StoreUnavailableError) and exc.retryable else None
    )
    return _exception_response(exc, request, headers)


async def _on_problem(request: Request, exc: Exception) -> Response:
    headers = exc.headers if isinstance(exc, ProblemException) else None
    return _exception_response(exc, request, headers)


async def _on_validation(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    bad_json = [e for e in exc.errors() if e.get("type") == "json_invalid"]
    if bad_json:
        ctx = bad_json[0].get("ctx") or {}
        loc = bad_json[0].get("loc", ())
        at = f" at position {loc[-1]}" if loc else ""
        return problem_response(
            400,
            f"the request body is not valid JSON: {ctx.get('error', '')}{at}",
            instance=request.url.path,
        )
    errors = _error_fields(exc)
    detail = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors[:5])
    kind = kind_named("invalid-input")
    return problem_response(
        kind.status,
        detail,
        type_=kind.type,
        title=kind.title,
        instance=request.url.path,
        errors=errors,
    )


async def _on_http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return problem_response(
        exc.status_code, str(exc.detail), headers=exc.headers, instance=request.url.path
    )


async def _on_unexpected(request: Request, exc: Exception) -> Response:
    # No message, no traceback in the body: both can leak internals. The log has them.
    return problem_response(500, UNEXPECTED, instance=request.url.path)


def install_error_handlers(app: FastAPI) -> None:
    """Make every error response of ``app`` problem JSON."""
    app.add_exception_handler(GraphmemError, _on_graphmem)
    app.add_exception_handler(ProblemException, _on_problem)
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(HTTPException, _on_http)
    app.add_exception_handler(Exception, _on_unexpected)


class BodyLimit:
    """ASGI middleware: 413 for a body over ``max_bytes``, before anything parses it.

    A declared Content-Length over the limit is refused without reading; otherwise the
    body is read and counted (chunked uploads declare no length), then replayed to the app.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def _refuse(self, scope: Scope, send: Send, status: int, detail: str) -> None:
        body = json.dumps(problem_body(status, detail, instance=scope.get("path"))).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", PROBLEM_JSON.encode()),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = f"the request body is larger than {self.max_bytes:,} bytes"
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await self._refuse(scope, send, 400, "Content-Length is not a number")
                    return
                if declared > self.max_bytes:
                    await self._refuse(scope, send, 413, too_big)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, send, 413, too_big)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
