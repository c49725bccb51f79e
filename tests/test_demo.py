"""The README's demo runs against the real Neo4j and tells the whole story."""

import pytest

from graphmem.demo import run_demo

pytestmark = pytest.mark.integration


def test_demo_story(memory):
    lines: list[str] = []
    run_demo(memory, lines.append)
    out = "\n".join(lines)
    for op in ("ACCEPT", "REVOKE", "CONTEST", "RESOLVE"):
        assert f"op: {op}" in out
    assert "keys with two heads': 0" in out
    assert memory.why("Minjun", "5k personal best").value == "26:40"
    assert "] B회의실 is on floor 5." in out and "A회의실 is on floor 2." not in out
