"""Sealed record text: crypto-shredding for a store that cannot forget.

With ``MemoryConfig(seal_text=True)`` a record's text reaches Neo4j only encrypted
(AES-256-GCM) with a key of its own, and the key lives outside Neo4j in a small SQLite
key store that overwrites what it deletes (``PRAGMA secure_delete``). Erasing the record
destroys its key, so every copy of the ciphertext Neo4j still keeps on disk (freed store
records, transaction logs) is noise at once, without waiting for a compaction. The
full-text index sees no words either: each word of a sealed record is indexed as a keyed
hash (HMAC with the namespace's key), and a query hashes its words the same way.

What sealing does not cover: the graph's names and values (entities, versions, the op
log) stay readable to Cypher, Browser and the audits; they leave the disk when the
database is compacted. Neo4j Browser shows a sealed record's text as its ciphertext.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Protocol

from graphmem._errors import InvalidInputError, StoreUnavailableError

__all__ = [
    "SEALED_PREFIX",
    "KeyStore",
    "SQLiteKeyStore",
    "TextSealer",
    "index_tokens",
    "sealer_for",
]

SEALED_PREFIX = "gm-sealed:1:"
_KEY_ID = re.compile(r"^[0-9a-f]{32}$")
# Words as Lucene's CJK analyzer sees them: Hangul, Han and kana runs as bigrams, other
# scripts as lowercased words.
_WORD = re.compile(r"\w+")
_CJK = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7af]+")


def index_tokens(text: str) -> list[str]:
    """The tokens a record's text is indexed under (and a query is searched by)."""
    out: list[str] = []
    for word in _WORD.findall(text.casefold()):
        last = 0
        for run in _CJK.finditer(word):
            if run.start() > last:
                out.append(word[last : run.start()])
            chars = run.group()
            out.extend(
                [chars] if len(chars) == 1 else [chars[i : i + 2] for i in range(len(chars) - 1)]
            )
            last = run.end()
        if last < len(word):
            out.append(word[last:])
    return [t for t in out if t.strip("_")]


class KeyStore(Protocol):
    """Where record keys live: outside Neo4j, able to forget."""

    def put(self, ns: str, keys: dict[str, bytes]) -> None: ...

    def get(self, key_id: str) -> bytes | None: ...

    def destroy(self, key_ids: Iterable[str]) -> int: ...


class SQLiteKeyStore:
    """Record keys in one SQLite file (mode 0600) with ``secure_delete``: a destroyed key's
    bytes are overwritten with zeros in the file, not merely unlinked from its b-tree."""

    def __init__(self, path: str | Path, cache_size: int = 200_000) -> None:
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600))
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, bytes] = OrderedDict()
        self._cache_size = cache_size
        try:
            self._db = sqlite3.connect(
                self.path, timeout=30, check_same_thread=False, isolation_level=None
            )
            self._db.execute("PRAGMA secure_delete = ON")
            # The rollback journal is truncated, not kept, after each transaction.
            self._db.execute("PRAGMA journal_mode = TRUNCATE")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS record_keys (key_id TEXT PRIMARY KEY,"
                " ns TEXT NOT NULL, key BLOB NOT NULL)"
            )
        except sqlite3.Error as exc:
            raise StoreUnavailableError(
                f"cannot open the record key store {self.path}: {exc}"
            ) from exc

    def put(self, ns: str, keys: dict[str, bytes]) -> None:
        if not keys:
            return
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(
                    "INSERT INTO record_keys VALUES (?, ?, ?)",
                    [(k, ns, v) for k, v in keys.items()],
                )
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise StoreUnavailableError(f"the record key store refused a write: {exc}") from exc
            for k, v in keys.items():
                self._remember(k, v)

    def _remember(self, key_id: str, key: bytes) -> None:
        self._cache[key_id] = key
        self._cache.move_to_end(key_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def get(self, key_id: str) -> bytes | None:
        with self._lock:
            key = self._cache.get(key_id)
            if key is not None:
                return key
            row = self._db.execute(
                "SELECT key FROM record_keys WHERE key_id = ?", (key_id,)
            ).fetchone()
            if row is None:
                return None
            self._remember(key_id, bytes(row[0]))
            return bytes(row[0])

    def destroy(self, key_ids: Iterable[str]) -> int:
        ids = list(dict.fromkeys(key_ids))
        if not ids:
            return 0
        with self._lock:
            for k in ids:
                self._cache.pop(k, None)
            cur = self._db.executemany(
                "DELETE FROM record_keys WHERE key_id = ?", [(k,) for k in ids]
            )
            return cur.rowcount

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM record_keys").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class TextSealer:
    """Seals and opens record text; hashes index words with the namespace's key."""

    def __init__(
        self, keys: KeyStore, namespace_key: Callable[[str], bytes], *, seal_new: bool = True
    ) -> None:
        self.keys = keys
        self.seal_new = seal_new  # False: only opens and shreds what was sealed before
        self._namespace_key = namespace_key
        self._term_keys: dict[str, bytes] = {}

    def _term_key(self, ns: str) -> bytes:
        key = self._term_keys.get(ns)
        if key is None:
            key = hmac.new(
                self._namespace_key(ns), b"graphmem index terms", hashlib.sha256
            ).digest()
            self._term_keys[ns] = key
        return key

    def terms(self, ns: str, text: str) -> list[str]:
        """Keyed hashes of the text's index tokens (what Lucene indexes instead of them)."""
        return self.hashed(ns, index_tokens(text))

    def hashed(self, ns: str, tokens: Iterable[str]) -> list[str]:
        """Keyed hashes of tokens (index words, a record's mentions): equal tokens hash
        equal within the namespace, and none can be read back."""
        key = self._term_key(ns)
        return [
            "t" + hmac.new(key, tok.encode(), hashlib.sha256).hexdigest()[:20] for tok in tokens
        ]

    def seal(self, ns: str, texts: Sequence[str]) -> list[str]:
        """The sealed form of each text, under a new key each (stored before returning)."""
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        keys: dict[str, bytes] = {}
        out = []
        for text in texts:
            key_id, key = secrets.token_hex(16), AESGCM.generate_key(bit_length=256)
            nonce = secrets.token_bytes(12)
            sealed = AESGCM(key).encrypt(nonce, text.encode(), key_id.encode())
            keys[key_id] = key
            out.append(
                SEALED_PREFIX + key_id + ":" + base64.urlsafe_b64encode(nonce + sealed).decode()
            )
        self.keys.put(ns, keys)
        return out

    @staticmethod
    def key_id(text: str | None) -> str | None:
        if not text or not text.startswith(SEALED_PREFIX):
            return None
        key_id = text[len(SEALED_PREFIX) :].split(":", 1)[0]
        return key_id if _KEY_ID.match(key_id) else None

    def open(self, text: str | None) -> str | None:
        """The plain text of a sealed text (plain text passes through: records written
        before sealing was switched on). A text whose key was destroyed is an error."""
        key_id = self.key_id(text)
        if key_id is None or text is None:
            return text
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        key = self.keys.get(key_id)
        if key is None:
            raise InvalidInputError(
                f"the key of sealed record text {key_id} was destroyed (the record was erased)"
            )
        raw = base64.urlsafe_b64decode(text.rsplit(":", 1)[1])
        try:
            return AESGCM(key).decrypt(raw[:12], raw[12:], key_id.encode()).decode()
        except InvalidTag as exc:
            raise InvalidInputError(
                f"sealed record text {key_id} does not open with its key"
            ) from exc

    def shred(self, texts: Iterable[str | None]) -> int:
        """Destroy the keys of these sealed texts: their ciphertext can never be read."""
        return self.keys.destroy(k for k in map(self.key_id, texts) if k)


KEY_STORE_FILE = "record-keys.sqlite3"
_stores: dict[Path, SQLiteKeyStore] = {}
_stores_lock = threading.Lock()


def sealer_for(
    seal_text: bool, key_store: str | None, record_id_secret: str | None
) -> TextSealer | None:
    """The sealer a configuration asks for. Without ``seal_text`` new text is stored plain,
    but an existing key store is still opened, so that records sealed earlier stay
    readable and erasable; ``None`` when there is neither. One key store per file per
    process, shared by every store that names it."""
    from graphmem._secrets import _home, namespace_key

    path = Path(key_store).expanduser() if key_store else _home() / KEY_STORE_FILE
    if not seal_text and not path.exists():
        return None
    with _stores_lock:
        keys = _stores.get(path.resolve())
        if keys is None:
            keys = _stores[path.resolve()] = SQLiteKeyStore(path)
    return TextSealer(keys, lambda ns: namespace_key(ns, record_id_secret), seal_new=seal_text)
