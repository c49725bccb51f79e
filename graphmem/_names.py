"""Namespace names: what every interface accepts as "whose memory"."""

from __future__ import annotations

import re

from graphmem._errors import InvalidInputError

__all__ = ["validate_namespace"]

_NAMESPACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def validate_namespace(ns: str) -> str:
    if not isinstance(ns, str) or not _NAMESPACE.fullmatch(ns):
        raise InvalidInputError(
            f"namespace {ns!r} is invalid: use 1-64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit"
        )
    return ns
