"""Read path B: memory blocks, in three rooms.

- ``index``: the snapshot of a namespace's active records and its BM25F index (imported
  by both the server and the snapshot child);
- ``serving``: ``BlockServer``, the snapshot publisher, the fresh-read worker, the child
  process (``child``) and the deadline;
- ``gates``: the policy, as pure functions of a snapshot, a request and the ranked lines.

The package imports nothing itself: the snapshot child runs as
``python -m graphmem.reads.blocks.child`` and must not load the server first.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphmem.reads.blocks.gates import BlockRequest, GatePolicy, compose
    from graphmem.reads.blocks.index import BlockSnapshot
    from graphmem.reads.blocks.serving import BlockServer

__all__ = ["BlockRequest", "BlockServer", "BlockSnapshot", "GatePolicy", "compose"]

_HOME = {
    "BlockRequest": "gates",
    "GatePolicy": "gates",
    "compose": "gates",
    "BlockSnapshot": "index",
    "BlockServer": "serving",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
