"""The service's access log names routes, never what was asked about.

uvicorn logs each request's full path and query string: ``/v1/alice/why?subject=Minjun``
or ``DELETE /v1/alice/records/invoice-8812`` would keep a name or a record id in a log
after that record was erased. The filter below rewrites the path to the route's shape:
the fixed words of graphmem's routes stay, every other segment (namespace, record id,
job id) becomes ``*``, and the query string goes.
"""

from __future__ import annotations

import logging

__all__ = ["RedactPaths", "install_access_log_redaction", "redacted_path"]

# The fixed segments of graphmem's routes (see routes.py and the MCP endpoint).
_ROUTE_WORDS = frozenset(
    {
        "v1",
        "mcp",
        "healthz",
        "browser",
        "guide.html",
        "docs",
        "redoc",
        "openapi.json",
        "records",
        "jobs",
        "remember",
        "revoke",
        "resolve",
        "evidence",
        "answer",
        "block",
        "why",
        "history",
        "as_of",
        "state",
        "audit",
    }
)


def redacted_path(path: str) -> str:
    """``/v1/alice/why?subject=Minjun`` -> ``/v1/*/why``."""
    bare = path.split("?", 1)[0].split("#", 1)[0]
    return "/".join(p if p in _ROUTE_WORDS or p == "" else "*" for p in bare.split("/"))


class RedactPaths(logging.Filter):
    """Rewrites uvicorn's access record (client, method, path, version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (args[0], args[1], redacted_path(args[2]), args[3], args[4])
        return True


def install_access_log_redaction() -> None:
    """Add the filter to uvicorn's access logger (once per process)."""
    logger = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactPaths) for f in logger.filters):
        logger.addFilter(RedactPaths())
