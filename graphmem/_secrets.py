"""The installation's secret for record ids, kept outside the database.

Records sent without an id get one derived from their content with a keyed hash
(``graphmem.domain.model.content_id``); the key is this secret, narrowed to the namespace.
Without it, an erased record's id cannot be matched against guesses of its text. It comes
from ``MemoryConfig.record_id_secret`` (``$GRAPHMEM_RECORD_ID_SECRET``), else from a file
made once in ``$GRAPHMEM_HOME`` (mode 0600). Every process that writes the same database
must use the same secret, or the same text sent twice is stored twice: set the variable
when several machines share one Neo4j.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from graphmem._errors import InvalidInputError

__all__ = ["SECRET_FILE", "namespace_key"]

SECRET_FILE = "record-id.key"


def _home() -> Path:
    env = os.environ.get("GRAPHMEM_HOME")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "graphmem"


def _installation_secret() -> bytes:
    path = _home() / SECRET_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole under a temporary name, then linked into place: a concurrent
        # process never reads a half-written key, and the first link wins.
        tmp = path.with_name(f".{SECRET_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(secrets.token_bytes(32))
                fh.flush()
                os.fsync(fh.fileno())
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    key = path.read_bytes()
    if len(key) < 32:
        raise InvalidInputError(
            f"{path} holds {len(key)} bytes; a record-id key needs 32. Restore it from a "
            "backup, or set GRAPHMEM_RECORD_ID_SECRET"
        )
    return key


def namespace_key(namespace: str, secret: str | None = None) -> bytes:
    """The key of ``namespace``'s derived record ids."""
    root = secret.encode() if secret is not None else _installation_secret()
    return hmac.new(root, namespace.encode(), hashlib.sha256).digest()
