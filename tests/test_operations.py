"""The six operations, time, authority and erase, against the real Neo4j."""

from __future__ import annotations

import pytest

from graphmem import (
    ConflictError,
    Fact,
    InvalidInputError,
    NotFoundError,
    Record,
    RelationRegistry,
    UnknownRelationError,
)

pytestmark = pytest.mark.integration


def _clean(memory):
    for name in (
        "two_heads",
        "versions_without_evidence",
        "supersedes_cycles",
        "supersedes_forward",
    ):
        assert memory.audit(name) == [], name


def test_remember_update_revoke_contest_resolve(memory):
    assert memory.remember("Minjun", "5k best", "27:12", speaker="minjun").op == "ACCEPT"
    assert (
        memory.remember("Minjun", "5k best", "25:50", speaker="minjun", intent="update").head
        == "25:50"
    )
    assert memory.revoke("Minjun", "5k best").head == "27:12"
    r = memory.remember("Minjun", "5k best", "26:00", speaker="jiyoung")
    assert (r.op, r.head, r.status) == ("CONTEST", "27:12", "contested")
    assert memory.audit("contested_keys")[0]["alternatives"] == ["26:00"]
    r = memory.resolve("Minjun", "5k best", "26:00")
    assert (r.op, r.head, r.status) == ("RESOLVE", "26:00", "active")
    why = memory.why("minjun", "5K Best")
    assert why.value == "26:00"
    assert [v["value"] for v in why.replaced] == ["27:12"]
    assert "26:00" in why.text() and "27:12" in why.text()
    assert [op["kind"] for op in memory.history("Minjun", "5k best")] == [
        "ACCEPT",
        "ACCEPT",
        "REVOKE",
        "CONTEST",
        "RESOLVE",
    ]
    _clean(memory)


def test_reject_marks_the_old_value_contradicted(memory):
    memory.remember("Minjun", "5k best", "27:12")
    r = memory.remember(
        "Minjun", "5k best", "28:12", intent="correct", text="not 27:12, it was 28:12"
    )
    assert (r.op, r.head) == ("REJECT", "28:12")
    statuses = {v["value"]: v["status"] for v in memory.why("Minjun", "5k best").versions}
    assert statuses == {"27:12": "contradicted", "28:12": "active"}


def test_out_of_order_arrival_keeps_the_newer_stated_value(memory):
    memory.remember("standup", "room", "B", stated_at="2026-05-02")
    r = memory.remember("standup", "room", "A", stated_at="2026-04-20")
    assert r.head == "B"
    why = memory.why("standup", "room")
    assert [v["value"] for v in why.replaced] == ["A"]
    assert memory.as_of("standup", "room", "2026-04-25") == "A"
    assert memory.as_of("standup", "room", "2026-05-10") == "B"
    _clean(memory)


def test_as_of_transaction_time_replays_the_op_log(memory):
    memory.remember("key", "place", "drawer", observed_at="2026-01-01T10:00:00")
    memory.remember("key", "place", "shelf", intent="update", observed_at="2026-01-02T10:00:00")
    memory.revoke("key", "place")
    assert memory.as_of("key", "place", "2026-01-01T12:00:00", axis="transaction") == "drawer"
    assert memory.as_of("key", "place", "2026-01-03T00:00:00", axis="transaction") == "shelf"
    assert memory.as_of("key", "place", "2100-01-01", axis="transaction") == "drawer"


def test_authority_lower_value_contests_instead_of_replacing(memory):
    memory.remember("budget", "cap", "10M", authority="official")
    r = memory.remember("budget", "cap", "50M", authority="hearsay", intent="update")
    assert (r.op, r.head, r.status) == ("CONTEST", "10M", "contested")


def test_set_valued_relation(memory):
    memory.registry.declare("hobby", "many")
    memory.remember("Ann", "hobby", "chess")
    memory.remember("Ann", "hobby", "go")
    why = memory.why("Ann", "hobby")
    assert sorted(v["value"] for v in why.versions if v["is_head"]) == ["chess", "go"]


def test_k_revokes_walk_back_k_versions(memory):
    for v in ["v1", "v2", "v3", "v4"]:
        memory.remember("x", "slot", v, intent="update")
    assert memory.revoke("x", "slot").head == "v3"
    assert memory.revoke("x", "slot").head == "v2"
    assert memory.revoke("x", "slot").head == "v1"
    assert memory.revoke("x", "slot").head is None
    with pytest.raises(ConflictError):
        memory.revoke("x", "slot")
    _clean(memory)


def test_bad_input_changes_nothing(memory):
    memory.remember("door", "colour", "red")
    before = memory.counts()
    with pytest.raises(ConflictError):
        memory.revoke("window", "colour")
    with pytest.raises(ConflictError):
        memory.resolve("door", "colour", "blue")
    with pytest.raises(NotFoundError):
        memory.erase("no-such-record")
    with pytest.raises(UnknownRelationError):
        memory.registry.declare("colour", "several")
    strict = RelationRegistry(strict=True)
    memory.registry = strict
    memory.controller.registry = strict
    with pytest.raises(UnknownRelationError):
        memory.remember("door", "material", "oak")
    with pytest.raises(InvalidInputError):
        memory.remember("", "colour", "red")
    assert memory.counts() == before


def test_ingest_is_idempotent_and_reports_bad_records(memory):
    records = [
        Record("Door is red", id="a", facts=(Fact("door", "colour", "red"),)),
        {"text": b"\xff\xfe not utf-8", "id": "bad"},
        {"text": "", "id": "empty"},
        {"text": "x" * 1_000_000, "id": "huge"},
        Record("Door is now blue", id="b", facts=(Fact("door", "colour", "blue", "update"),)),
    ]
    report = memory.ingest(records)
    assert report.stored == 2 and len(report.errors) == 3
    assert {e["id"] for e in report.errors} == {"bad", "empty", "huge"}
    assert "empty" in next(e["error"] for e in report.errors if e["id"] == "empty")
    counts = memory.counts()
    again = memory.ingest(records)
    assert again.stored == 0 and again.skipped_known == 2
    assert memory.counts() == counts
    assert memory.why("door", "colour").value == "blue"


def _all_properties(memory) -> list[str]:
    rows = memory.store.driver.execute_query(
        "MATCH (n) RETURN [k IN keys(n) | n[k]] AS vals "
        "UNION ALL MATCH ()-[r]->() RETURN [k IN keys(r) | r[k]] AS vals"
    ).records
    return [str(v) for r in rows for v in r["vals"]]


def test_erase_leaves_no_trace_and_restores_heads(memory):
    secret = "Zanzibar-7731 is where I hid the spare key"
    memory.ingest(
        [
            Record(
                "The spare key is in the drawer",
                id="r1",
                facts=(Fact("spare key", "location", "drawer"),),
            ),
            Record(
                secret, id="r2", facts=(Fact("spare key", "location", "Zanzibar-7731", "update"),)
            ),
        ]
    )
    assert memory.why("spare key", "location").value == "Zanzibar-7731"
    report = memory.erase("r2")
    assert report.versions_removed == 1
    assert memory.why("spare key", "location").value == "drawer"
    props = _all_properties(memory)
    assert not any("Zanzibar" in p for p in props)
    assert not any(secret in p for p in props)
    tomb = memory.store.driver.execute_query(
        "MATCH (t:Tombstone {ns: $ns, reason: 'erased'}) RETURN t", ns=memory.namespace
    ).records
    assert len(tomb) == 1 and tomb[0]["t"]["sealed"] is True
    # Re-sending the erased record does not bring it back.
    again = memory.ingest(
        [Record(secret, id="r2", facts=(Fact("spare key", "location", "Zanzibar-7731"),))]
    )
    assert again.skipped_erased == 1
    assert not any("Zanzibar" in p for p in _all_properties(memory))
    _clean(memory)


def test_erase_keeps_versions_other_records_support(memory):
    memory.ingest(
        [
            Record("Ann lives in Oslo", id="a", facts=(Fact("Ann", "city", "Oslo"),)),
            Record("Ann: yes, Oslo", id="b", facts=(Fact("Ann", "city", "Oslo"),)),
        ]
    )
    assert memory.erase("a").versions_removed == 0
    why = memory.why("Ann", "city")
    assert why.value == "Oslo"
    assert [e["record_id"] for e in why.head["evidence"]] == ["b"]


def test_namespaces_do_not_see_each_other(memory, neo4j_server):
    from graphmem import Memory

    other = Memory.connect(
        neo4j_server.bolt_url, memory.namespace + "-other", neo4j_auth=neo4j_server.auth
    )
    memory.remember("door", "colour", "red")
    assert other.why("door", "colour").value is None
    assert other.audit("heads") == []
    other.close()


def test_invalid_namespace_is_rejected(neo4j_server):
    from graphmem import Memory

    with pytest.raises(InvalidInputError):
        Memory.connect(neo4j_server.bolt_url, "a/b", neo4j_auth=neo4j_server.auth)


@pytest.mark.parametrize("uri", ["foo://x", "bolt://h:7687/p?x=1"])
def test_a_uri_neo4j_cannot_use_is_a_typed_error(uri):
    from graphmem import InvalidInputError as Invalid
    from graphmem.store.neo4j.store import Neo4jStore

    with pytest.raises(Invalid):
        Neo4jStore.connect(uri)


def test_as_of_needs_a_time(memory):
    memory.remember("door", "colour", "red")
    with pytest.raises(InvalidInputError):
        memory.as_of("door", "colour", "")


def test_unknown_configuration_is_a_typed_error():
    from graphmem import MemoryConfig

    with pytest.raises(InvalidInputError):
        MemoryConfig().with_overrides(extracter="chat")
    with pytest.raises(InvalidInputError):
        MemoryConfig(neo4j_auth="neo4j")  # type: ignore[arg-type]


def test_why_and_history_come_a_page_at_a_time(memory) -> None:
    from graphmem import InvalidInputError

    for i in range(12):
        memory.remember("door", "colour", f"c{i}", intent="update", record_id=f"d{i}")
    for i in range(5):  # the current value said again: its evidence grows
        memory.remember("door", "colour", "c11", record_id=f"again{i}")
    ops = memory.history("door", "colour")
    assert len(ops) == 17
    page = memory.history("door", "colour", limit=5, offset=10)
    assert page == ops[10:15]
    exp = memory.why("door", "colour", limit=3, evidence_limit=2)
    assert [v["value"] for v in exp.versions] == ["c9", "c10", "c11"]
    head = exp.versions[-1]
    assert head["evidence_count"] == 6 and len(head["evidence"]) == 2
    assert [e["record_id"] for e in head["evidence"]] == ["again4", "again3"]
    assert exp.value == "c11"
    assert all("embedding" not in v for v in exp.versions)
    for bad in ({"limit": 0}, {"limit": 1001}, {"evidence_limit": True}):
        with pytest.raises(InvalidInputError):
            memory.why("door", "colour", **bad)
    with pytest.raises(InvalidInputError):
        memory.history("door", "colour", offset=-1)
