"""Every environment variable graphmem reads is documented in docs/configuration.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VARIABLE = re.compile(r"\b((?:GRAPHMEM|NEO4J)_[A-Z][A-Z0-9_]*[A-Z])\b")
NOT_VARIABLES = {"NEO4J_VERSION"}  # a constant of graphmem.local_neo4j


def _read_in_code() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "graphmem").rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "env" in line or "GRAPHMEM_" in line:
                names |= set(VARIABLE.findall(line))
    return names - NOT_VARIABLES


def test_the_scanner_finds_variables_in_the_code():
    found = _read_in_code()
    assert {"NEO4J_URI", "GRAPHMEM_EMBEDDER", "GRAPHMEM_NEO4J_HEAP"} <= found


def test_every_variable_is_documented():
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    missing = sorted(n for n in _read_in_code() if f"`{n}`" not in doc)
    assert not missing, f"document these in docs/configuration.md: {missing}"
