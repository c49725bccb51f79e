"""Erase removes everything derived from the record, the records that only took its
values back included: nothing in the namespace names what was erased."""

from __future__ import annotations

import json

import pytest

from graphmem import Memory

pytestmark = pytest.mark.integration

SECRET = "Zorblax Quentworth"


def _mentions(memory: Memory, secret: str) -> list[dict]:
    rows = memory.store.driver.execute_query(
        "MATCH (n {ns: $ns}) RETURN labels(n) AS labels, properties(n) AS props",
        ns=memory.namespace).records
    return [r.data() for r in rows
            if secret.casefold() in json.dumps(r["props"], ensure_ascii=False).casefold()]


def test_erasing_a_revoked_record_leaves_nothing_of_it(memory: Memory) -> None:
    memory.remember(SECRET, "alias", "the Quiet One", record_id="er3",
                    text=f"{SECRET} goes by the Quiet One")
    memory.revoke(SECRET, "alias")
    memory.remember("door", "colour", "red", record_id="keep")
    assert _mentions(memory, SECRET)  # before: the record, the revoke, the op log
    memory.erase("er3")
    assert _mentions(memory, SECRET) == []
    assert memory.history(SECRET, "alias") == []
    assert SECRET not in memory.evidence(f"Who is {SECRET}?").text
    assert memory.why("door", "colour").value == "red"  # the rest is untouched
    for audit in ("two_heads", "versions_without_evidence", "status_labels"):
        assert memory.audit(audit) == [], audit


def test_erasing_the_record_a_revoke_restored_keeps_the_revoke(memory: Memory) -> None:
    """A revoke that also restored a value another record supports stays: it is part of
    that value's history."""
    memory.remember("door", "colour", "red", record_id="r1")
    memory.remember("door", "colour", "blue", record_id="r2", intent="update")
    memory.revoke("door", "colour")
    assert memory.why("door", "colour").value == "red"
    memory.erase("r2")
    assert memory.why("door", "colour").value == "red"
    assert memory.audit("two_heads") == []
