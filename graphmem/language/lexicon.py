"""Names Korean translates rather than writes by sound: countries, regions and languages.

"독일" is Germany and "독일어" German, "영국" the United Kingdom, "남극 대륙" Antarctica:
no model of sound links them, and a small model of meaning confuses neighbours. The
Unicode CLDR lists these names in both languages; ``scripts/cldr-names`` writes them to
``data/cldr_names_ko.tsv`` (Unicode License v3, ``data/CLDR-LICENSE``).
"""

from __future__ import annotations

import threading
from importlib import resources

__all__ = ["compact", "english_names", "korean_names"]

_lock = threading.Lock()
_tables: tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]] | None = None


def compact(korean: str) -> str:
    """A Korean name as the table keys it: without spaces ("남극 대륙", "남극대륙")."""
    return "".join(korean.split())


def english_names(korean: str) -> tuple[str, ...]:
    """The English names of a Korean country, region or language name, or ``()``."""
    tables = _tables if _tables is not None else _load()  # the lock only until loaded
    return tables[0].get(compact(korean), ())


def korean_names(english: str) -> tuple[str, ...]:
    """The Korean names of an English one (compared in lower case), or ``()``."""
    tables = _tables if _tables is not None else _load()
    return tables[1].get(english.lower(), ())


def _load() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    global _tables
    with _lock:
        if _tables is None:
            raw = resources.files("graphmem.language").joinpath("data/cldr_names_ko.tsv")
            to_english: dict[str, list[str]] = {}
            to_korean: dict[str, list[str]] = {}
            for line in raw.read_text(encoding="utf-8").splitlines():
                if not line or line.startswith("#"):
                    continue
                korean, english = line.split("\t")
                to_english.setdefault(compact(korean), []).append(english)
                to_korean.setdefault(english.lower(), []).append(korean)
            _tables = (
                {k: tuple(v) for k, v in to_english.items()},
                {k: tuple(v) for k, v in to_korean.items()},
            )
        return _tables
