"""API keys and the namespaces each may touch.

Configured as ``{"key": ["ns1", "ns2"]}``; ``"*"`` (alone or in the list) means any
namespace. Keys are compared in constant time; the namespaces in the configuration are
checked with graphmem's own rule when the service starts, so a typo fails loudly then.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from graphmem._names import validate_namespace

__all__ = ["ANY", "KeyRing", "Refusal", "parse_api_keys"]

ANY = "*"

KeySpec = Iterable[str] | str


def parse_api_keys(raw: str | Mapping[str, KeySpec] | None) -> dict[str, frozenset[str]]:
    """Parse ``GRAPHMEM_API_KEYS`` (JSON) or a mapping into key → allowed namespaces."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ValueError(f"GRAPHMEM_API_KEYS is not JSON: {exc}") from None
    if not isinstance(raw, Mapping):
        raise ValueError('API keys must be a JSON object like {"key": ["ns1", "ns2"]}')
    keys: dict[str, frozenset[str]] = {}
    for key, spec in raw.items():
        if not isinstance(key, str) or len(key) < 8:
            raise ValueError("every API key must be a string of at least 8 characters")
        given: list[object]
        if isinstance(spec, str):
            given = [spec]
        elif isinstance(spec, Iterable) and not isinstance(spec, Mapping | bytes):
            given = list(spec)
        else:
            given = [None]
        names = [n for n in given if isinstance(n, str)]
        if len(names) != len(given):
            raise ValueError(f"API key {key[:4]}…: namespaces must be '*' or a list of names")
        for n in names:
            if n != ANY:
                validate_namespace(n)
        keys[key] = frozenset(names)
    return keys


@dataclass(frozen=True)
class Refusal:
    """Why a request may not touch a namespace: its HTTP status, detail and headers."""

    status: int
    detail: str
    headers: Mapping[str, str] = field(default_factory=dict)


_NO_KEY = Refusal(
    401,
    "a valid API key is required: send 'Authorization: Bearer KEY' or 'X-API-Key: KEY'",
    {"WWW-Authenticate": "Bearer"},
)


class KeyRing:
    """Which key may touch which namespace."""

    def __init__(self, keys: Mapping[str, frozenset[str]]) -> None:
        self._keys = [(k.encode(), v) for k, v in keys.items()]

    def __len__(self) -> int:
        return len(self._keys)

    def scope(self, key: str | None) -> frozenset[str] | None:
        """The namespaces of ``key``, or None for an unknown key.

        Every configured key is compared, so the time taken does not say which matched.
        """
        if not key:
            return None
        given, found = key.encode(), None
        for k, names in self._keys:
            if hmac.compare_digest(k, given):
                found = names
        return found

    @staticmethod
    def allows(scope: frozenset[str], namespace: str) -> bool:
        return ANY in scope or namespace in scope

    def refusal(self, key: str | None, namespace: str) -> Refusal | None:
        """``None`` when ``key`` may use ``namespace``; else 401 (no valid key) or 403
        (another's namespace). An invalid namespace name raises ``InvalidInputError``
        (422), checked after the key so strangers learn nothing about names."""
        scope = self.scope(key)
        if scope is None:
            return _NO_KEY
        validate_namespace(namespace)
        if not self.allows(scope, namespace):
            return Refusal(403, f"this API key may not use namespace {namespace!r}")
        return None
