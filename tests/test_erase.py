"""Erase removes everything derived from the record, the records that only took its
values back included: nothing in the namespace names what was erased."""

from __future__ import annotations

import json
import re

import pytest

from graphmem import Memory

pytestmark = pytest.mark.integration

SECRET = "Zorblax Quentworth"


def _mentions(memory: Memory, secret: str) -> list[dict]:
    rows = memory.store.driver.execute_query(
        "MATCH (n {ns: $ns}) RETURN labels(n) AS labels, properties(n) AS props",
        ns=memory.namespace,
    ).records
    return [
        r.data()
        for r in rows
        if secret.casefold() in json.dumps(r["props"], ensure_ascii=False).casefold()
    ]


def test_erasing_a_revoked_record_leaves_nothing_of_it(memory: Memory) -> None:
    memory.remember(
        SECRET, "alias", "the Quiet One", record_id="er3", text=f"{SECRET} goes by the Quiet One"
    )
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
        "MATCH (e:Evidence {ns: $ns}) RETURN e.record_id AS id ORDER BY e.pos", ns=memory.namespace
    ).records
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
        ns=memory.namespace,
    ).records
    everything = json.dumps([r.data() for r in names])
    assert "ZORBLAX" not in everything and "Zorblax Quentworth" in everything
    assert memory.why("Zorblax Quentworth", "alias").value == "Q"


def test_erase_never_changes_a_surviving_value(memory: Memory) -> None:
    """A version another record keeps is only respelled, never given a rival's value."""
    memory.remember("standup", "time", "9:30", source="slack", speaker="ann", record_id="r1")
    memory.remember(
        "standup",
        "time",
        "10:00",
        source="email",
        speaker="bob",
        authority="hearsay",
        record_id="r3",
    )
    memory.remember("standup", "time", "9:30", source="chat", speaker="cy", record_id="r2")
    before = sorted(v["value"] for v in memory.why("standup", "time").versions)
    memory.erase("r1")
    after = sorted(v["value"] for v in memory.why("standup", "time").versions)
    assert after == before == ["10:00", "9:30"]
    assert memory.audit("two_heads") == [] and memory.audit("status_labels") == []


def test_evidence_never_serves_an_erased_raw_record(memory: Memory) -> None:
    """An erase frees a position a new record may take: the evidence index must notice."""
    memory.ingest(
        [
            {"text": "the alarm was fixed by Lee", "id": "a1"},
            {"text": "the alarm code is 5521", "id": "a2"},
        ]
    )
    assert "5521" in memory.evidence("what is the alarm code?").text
    memory.erase("a2")  # the newest: its position is free again
    memory.ingest([{"text": "the alarm has a new panel", "id": "a3"}])
    text = memory.evidence("what is the alarm code?").text
    assert "5521" not in text and "new panel" in text


def _tombstone_text(memory: Memory) -> str:
    """What tombstones keep, with each keyed digest of an id ("e-" and 32 hex digits)
    written as a placeholder: a random digest may hold "5531" by chance, which says
    nothing of the caller's id."""
    rows = memory.store.driver.execute_query(
        "MATCH (t:Tombstone {ns: $ns}) RETURN properties(t) AS p", ns=memory.namespace
    ).records
    return re.sub(r"\be-[0-9a-f]{32}\b", "e-<digest>", repr([r["p"] for r in rows]))


def test_an_erase_tombstone_keeps_no_caller_id(memory: Memory) -> None:
    memory.remember("standup", "time", "9:00", record_id="acme-invoice-8812")
    memory.ingest(
        [
            {
                "text": "no, scrap that",
                "id": "acme-revoke-5531",
                "facts": [
                    {"subject": "standup", "relation": "time", "value": "", "intent": "revoke"}
                ],
            }
        ]
    )
    memory.erase("acme-invoice-8812")  # takes the revoke record along
    kept = _tombstone_text(memory)
    assert "erased" in kept
    assert "acme" not in kept and "8812" not in kept and "5531" not in kept
    for rid in ("acme-invoice-8812", "acme-revoke-5531"):
        again = memory.ingest([{"text": "replayed", "id": rid}])
        assert again.stored == 0 and again.skipped_erased == 1


def test_tombstones_of_earlier_versions_lose_the_id_they_kept(
    memory: Memory, connect, namespace
) -> None:
    memory.ingest([{"text": "the vault code is 4417", "id": "vault-7741"}])
    memory.erase("vault-7741")
    # As earlier versions wrote it: the uid in clear.
    memory.store.driver.execute_query(
        "MATCH (t:Tombstone {ns: $ns}) "
        "SET t.record_id = $uid, t.uid = $ns + '/erased/vault-7741@x'",
        ns=namespace,
        uid=f"{namespace}/vault-7741",
    )
    reopened = connect(namespace)
    assert "7741" not in _tombstone_text(reopened)
    again = reopened.ingest([{"text": "the vault code is 4417", "id": "vault-7741"}])
    assert again.stored == 0 and again.skipped_erased == 1


def test_a_revoke_record_erased_with_its_value_stays_erased(memory: Memory) -> None:
    memory.remember("standup", "time", "9:00", record_id="r1")
    memory.ingest(
        [
            {
                "text": "no, scrap that",
                "id": "r4",
                "facts": [
                    {"subject": "standup", "relation": "time", "value": "", "intent": "revoke"}
                ],
            }
        ]
    )
    memory.erase("r1")
    memory.remember("standup", "time", "11:00", record_id="r6")
    replay = memory.ingest(
        [
            {
                "text": "no, scrap that",
                "id": "r4",
                "facts": [
                    {"subject": "standup", "relation": "time", "value": "", "intent": "revoke"}
                ],
            }
        ]
    )
    assert replay.stored == 0 and replay.skipped_erased == 1
    assert memory.why("standup", "time").value == "11:00"


def test_the_same_text_with_other_facts_is_another_record(memory: Memory) -> None:
    memory.remember("door", "colour", "red", text="the door: red and big")
    memory.remember("door", "size", "big", text="the door: red and big")
    assert memory.why("door", "size").value == "big"


def test_records_stored_under_the_old_unkeyed_ids_are_still_known(memory: Memory) -> None:
    from graphmem import Record
    from graphmem.domain.model import legacy_content_id

    old = Record("stored by an earlier version")
    memory.ingest([old.with_id(legacy_content_id(old))])
    again = memory.ingest([{"text": "stored by an earlier version"}])
    assert again.stored == 0 and again.skipped_known == 1


def test_a_revoke_that_stays_forgets_the_erased_value_it_named(memory: Memory) -> None:
    """revoke(value=…) took back an erased value and restored an older one: the operation
    stays (it is the older value's history) but no longer names the erased value."""
    memory.remember("door", "colour", "red", record_id="r1")
    memory.remember("door", "colour", SECRET, record_id="r2")
    memory.revoke("door", "colour", value=SECRET)
    memory.erase("r2")
    assert _mentions(memory, SECRET) == []
    assert memory.why("door", "colour").value == "red"
    kinds = [(h["kind"], h["fact"]["value"]) for h in memory.history("door", "colour")]
    assert kinds == [("ACCEPT", "red"), ("REVOKE", "")]
