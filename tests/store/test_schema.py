"""The schema is declared once (neomodel); its Cypher, written out for auditors, is what
gets installed."""

from __future__ import annotations

import re

import pytest

from graphmem.store.neo4j.schema import schema_cypher

pytestmark = pytest.mark.integration


def _declared() -> set[tuple[str, str, str]]:
    found = set()
    for m in re.finditer(
        r"CREATE (CONSTRAINT|INDEX) (\w+) IF NOT EXISTS FOR \(n:(\w+)\)"
        r"(?: REQUIRE| ON) \(?n\.(\w+)",
        schema_cypher(),
    ):
        kind = "UNIQUENESS" if m.group(1) == "CONSTRAINT" else "RANGE"
        found.add((kind, m.group(3), m.group(4)))
    return found


def _installed(memory) -> set[tuple[str, str, str]]:
    run = memory.store.driver.execute_query
    constraints = run(
        "SHOW CONSTRAINTS YIELD type, labelsOrTypes, properties "
        "RETURN type, labelsOrTypes[0] AS label, properties[0] AS prop"
    ).records
    indexes = run(
        "SHOW INDEXES YIELD type, labelsOrTypes, properties, owningConstraint "
        "WHERE owningConstraint IS NULL AND type = 'RANGE' "
        "RETURN type, labelsOrTypes[0] AS label, properties[0] AS prop"
    ).records
    return {(r["type"], r["label"], r["prop"]) for r in [*constraints, *indexes]}


def test_the_written_out_schema_is_what_is_installed(memory):
    declared = _declared()
    assert len(declared) == 23  # Mention: a unique uid and its namespace
    assert declared <= _installed(memory)


def test_fulltext_index_on_record_text_and_namespace(memory):
    assert "CREATE FULLTEXT INDEX evidence_text_terms_ns" in schema_cypher()
    rows = memory.store.driver.execute_query(
        "SHOW FULLTEXT INDEXES YIELD name, labelsOrTypes, properties, options, state "
        "RETURN name, labelsOrTypes, properties, options, state"
    ).records
    mine = [r for r in rows if r["name"] == "evidence_text_terms_ns"]
    assert mine and mine[0]["properties"] == ["text", "terms", "ns"]
    assert mine[0]["state"] == "ONLINE"
    assert mine[0]["options"]["indexConfig"]["fulltext.analyzer"] == "cjk"
    assert not [
        r
        for r in rows  # replaced
        if r["name"] in ("fulltext_index_Evidence_text", "evidence_text_ns")
    ]


def test_installing_twice_is_harmless(memory):
    before = _installed(memory)
    memory.store.install_schema()
    for stmt in filter(str.strip, re.sub(r"//.*", "", schema_cypher()).split(";")):
        memory.store.driver.execute_query(stmt)
    assert _installed(memory) == before


def test_the_database_itself_refuses_two_heads(memory):
    from neo4j.exceptions import ConstraintError

    memory.remember("door", "colour", "red")
    memory.remember("door", "colour", "blue", intent="update")
    with pytest.raises(ConstraintError):
        memory.store.driver.execute_query(
            "MATCH (v:Version {ns: $ns}) SET v.head_of = v.kid", ns=memory.namespace
        )


def test_unresolved_records_carry_their_own_label(memory):
    from graphmem import Record

    memory.ingest([Record("kept raw", id="raw-1")])
    rows = memory.store.driver.execute_query(
        "MATCH (e:Evidence {ns: $ns, record_id: 'raw-1'}) RETURN e:Unresolved AS labelled",
        {"ns": memory.namespace},
    ).records
    assert rows[0]["labelled"] is True
    ev = memory.evidence("nothing here names an entity")
    assert "kept raw" in ev.text


def test_the_migration_labels_records_written_before_the_label(memory):
    run = memory.store.driver.execute_query
    run(
        "CREATE (:Evidence {uid: $uid, ns: $ns, pos: 0, text: 'old', record_id: 'old', "
        "parse: 'unresolved'})",
        {"uid": f"{memory.namespace}/old", "ns": memory.namespace},
    )
    run("MATCH (m:GraphmemMigration {name: 'unresolved-label'}) DELETE m")
    memory.store.install_schema()
    rows = run(
        "MATCH (e:Evidence {uid: $uid}) RETURN e:Unresolved AS labelled",
        {"uid": f"{memory.namespace}/old"},
    ).records
    assert rows[0]["labelled"] is True
    assert (
        run("MATCH (m:GraphmemMigration {name: 'unresolved-label'}) RETURN count(m) AS n").records[
            0
        ]["n"]
        == 1
    )


def test_migrate_creates_the_indexes_queries_hint(memory):
    run = memory.store.driver.execute_query
    run("DROP INDEX evidence_ns_pos IF EXISTS")
    memory.store.migrate()  # what a store opened without installing the schema runs
    names = {r["name"] for r in run("SHOW INDEXES YIELD name RETURN name").records}
    assert "evidence_ns_pos" in names
    memory.remember("Minjun", "team", "Platform")  # max_pos seeks (ns, pos)
