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


def _record_ids(memory: Memory) -> list[str]:
    rows = memory.store.driver.execute_query(
        "MATCH (e:Evidence {ns: $ns}) RETURN e.record_id AS id ORDER BY e.pos",
        ns=memory.namespace).records
    return [r["id"] for r in rows]


def test_derived_ids_are_keyed_not_a_hash_of_the_text(memory: Memory, connect, namespace):
    """An id derived from content uses a secret outside Neo4j and differs per namespace:
    hashing candidate texts (10^4 PINs) cannot find what an erased record said."""
    import hashlib

    statement = "my card pin is 7316"
    memory.ingest([{"text": statement}])
    (rid,) = _record_ids(memory)
    plain = hashlib.sha256(json.dumps([statement, None, None, None, None]).encode())
    assert rid.startswith("r-") and plain.hexdigest()[:24] not in rid
    other = connect(namespace + "x")
    other.ingest([{"text": statement}])
    assert _record_ids(other) != [rid]


def test_an_erased_statement_can_be_remembered_again(memory: Memory) -> None:
    statement = "my card pin is 7316"
    first = memory.ingest([{"text": statement}])
    assert first.stored == 1
    (rid,) = _record_ids(memory)
    memory.erase(rid)
    again = memory.ingest([{"text": statement}])  # no oracle: a new record, not "erased"
    assert again.stored == 1 and again.skipped_erased == 0
    memory.erase(_record_ids(memory)[0])  # and it can be erased again
    memory.remember("card", "pin", "7316")
    memory.erase(_record_ids(memory)[0])
    assert memory.remember("card", "pin", "7316").head == "7316"


def test_an_erased_explicit_id_is_not_ingested_again(memory: Memory) -> None:
    """A caller's own id stays erased: replaying an old export does not bring it back."""
    memory.ingest([{"text": "the vault code is 4417", "id": "m7"}])
    memory.erase("m7")
    again = memory.ingest([{"text": "the vault code is 4417", "id": "m7"}])
    assert again.stored == 0 and again.skipped_erased == 1


def test_an_erased_spelling_does_not_survive_as_a_name(memory: Memory) -> None:
    memory.remember("ZORBLAX QUENTWORTH", "alias", "Q", record_id="loud")
    memory.remember("Zorblax Quentworth", "alias", "Q", record_id="quiet")
    memory.erase("loud")
    names = memory.store.driver.execute_query(
        "MATCH (en:Entity {ns: $ns}) RETURN en.name AS name, en.aliases AS aliases",
        ns=memory.namespace).records
    everything = json.dumps([r.data() for r in names])
    assert "ZORBLAX" not in everything and "Zorblax Quentworth" in everything
    assert memory.why("Zorblax Quentworth", "alias").value == "Q"
