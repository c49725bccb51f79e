"""The REST service and the MCP server over ``Memory`` (``pip install 'graphmem[server]'``).

What goes over the wire (problem JSON, bodies, converters) is ``graphmem.wire``, shared
with ``graphmem.Client``. ``create_app`` and ``Settings`` are loaded on first use.


The package, one concern a module:

- ``settings``: ``Settings`` (keys, limits, the reader) around one ``MemoryConfig``;
- ``problems``: problem responses, the exception handlers, the request-size limit;
- ``jobs``: background ingests (``Jobs``; a job's wire shape is ``graphmem.wire.Job``);
- ``state``: ``Service``, the store, one ``Memory`` per namespace, locks and the reader;
- ``routes``: the ``/v1`` routes, each translating HTTP into one ``Memory`` call;
- ``app``: ``create_app``, ``app_from_env`` and ``ServiceThread``;
- ``mcp``: the MCP server (stdio, and ``/mcp/{namespace}`` on the service).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphmem.service.app import create_app
    from graphmem.service.settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    """``create_app`` imports FastAPI; load it (and ``Settings``) only when asked for."""
    if name == "create_app":
        from graphmem.service.app import create_app

        return create_app
    if name == "Settings":
        from graphmem.service.settings import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
