"""The REST service: FastAPI routes over ``graphmem.Memory``, nothing more.

``create_app`` puts the parts together: the routes (``routes``), problem JSON for every
error and the request-size limit (``problems``), and the shared state (``state``): one
store, a ``Memory`` per namespace configured by ``Settings.memory``, one write lock per
namespace (Neo4j's namespace lock keeps writers consistent across processes; this one only
bounds how long a request waits here), background jobs for large ingests and the reader
LLM.

    from graphmem.service import Settings, create_app
    app = create_app(Settings.from_env())      # uvicorn --factory graphmem.service.app:app_from_env

The same app serves MCP (streamable HTTP) at ``/mcp/{namespace}``: the tools of
``graphmem.service.mcp`` over the same ``Service``, behind the same API keys.

``ServiceThread`` serves an app from a background thread (tests, notebooks).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import uvicorn
from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from starlette.types import ASGIApp

from graphmem import __version__
from graphmem.service.access_log import install_access_log_redaction
from graphmem.service.problems import BodyLimit, install_error_handlers
from graphmem.service.protocol import http_protocol
from graphmem.service.routes import router
from graphmem.service.settings import Settings
from graphmem.service.state import Service
from graphmem.wire import PROBLEM_JSON

__all__ = ["ServiceThread", "Settings", "app_from_env", "create_app"]


class _GraphmemAPI(FastAPI):
    """FastAPI whose schema declares error responses as application/problem+json."""

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            schema = get_openapi(
                title=self.title,
                version=self.version,
                description=self.description,
                routes=self.routes,
            )
            for item in schema.get("paths", {}).values():
                for op in item.values():
                    for code, resp in op.get("responses", {}).items():
                        content = resp.get("content", {})
                        if code[:1] in ("4", "5") and "application/json" in content:
                            resp["content"] = {PROBLEM_JSON: content["application/json"]}
            self.openapi_schema = schema
        return self.openapi_schema


def create_app(settings: Settings | None = None) -> FastAPI:
    """The FastAPI app for ``settings`` (default: ``Settings.from_env()``).

    ``app.state.graphmem`` is its ``Service``; it is closed when the app shuts down.
    """
    from graphmem.service.mcp import McpEndpoint

    settings = settings or Settings.from_env()
    install_access_log_redaction()
    svc = Service(settings)
    mcp = McpEndpoint(svc)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            async with mcp.running():
                yield
        finally:
            svc.close()

    app = _GraphmemAPI(
        title="graphmem",
        version=__version__,
        lifespan=lifespan,
        description="Agent memory in Neo4j: current values decided at write time, every "
        "value with its evidence and what it replaced. Authenticate with "
        "`Authorization: Bearer KEY` or `X-API-Key: KEY`. Errors are RFC 7807 problem JSON.",
    )
    app.state.graphmem = svc
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_bytes)
    install_error_handlers(app)
    app.include_router(router)
    # MCP over streamable HTTP, with the same keys and namespaces as the REST routes.
    # ``mcp`` is an ASGI app, which Route serves as one; add_route's hint names only
    # request handlers (and FastAPI's add_route also marks its routes changed).
    app.add_route("/mcp/{namespace}", mcp, include_in_schema=False)  # type: ignore[arg-type]
    return app


def app_from_env() -> FastAPI:
    """For ``uvicorn --factory graphmem.service.app:app_from_env``."""
    return create_app(Settings.from_env())


class ServiceThread:
    """uvicorn serving ``app`` on 127.0.0.1 (a free port) in a background thread."""

    def __init__(
        self, app: ASGIApp, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning"
    ) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind((host, port))
        self.host, self.port = self._sock.getsockname()[:2]
        config = uvicorn.Config(app, log_level=log_level, lifespan="on", http=http_protocol())
        self.server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self.server.run,
            kwargs={"sockets": [self._sock]},
            name="graphmem-service",
            daemon=True,
        )

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 15.0) -> ServiceThread:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the service did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self._thread.join(timeout=30)
        self._sock.close()

    def __enter__(self) -> ServiceThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
