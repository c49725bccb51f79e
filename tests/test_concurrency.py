"""Concurrent writers on overlapping keys: one head per key, every record stored once."""

from __future__ import annotations

import json
import threading

import pytest

from graphmem import Fact, Memory, Record
from graphmem.domain.controller import Controller, FactContext, KeyState, Plan

pytestmark = pytest.mark.integration


def test_eight_writers_on_overlapping_keys(neo4j_server, namespace):
    writers, per_writer = 8, 250
    errors: list[BaseException] = []

    def work(w: int) -> None:
        mem = Memory.connect(
            neo4j_server.bolt_url, namespace, neo4j_auth=neo4j_server.auth, install_schema=False
        )
        try:
            for start in range(0, per_writer, 25):
                mem.ingest(
                    [
                        Record(
                            f"writer {w} says key{i % 7} is v{w}-{i}",
                            id=f"w{w}-{i}",
                            facts=(Fact(f"key{i % 7}", "value", f"v{w}-{i}", "update"),),
                        )
                        for i in range(start, start + 25)
                    ]
                )
                # Re-sending an acknowledged batch adds nothing.
                mem.ingest(
                    [Record(f"writer {w} says key{start % 7} is v{w}-{start}", id=f"w{w}-{start}")]
                )
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            mem.close()

    threads = [threading.Thread(target=work, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    mem = Memory.connect(
        neo4j_server.bolt_url, namespace, neo4j_auth=neo4j_server.auth, install_schema=False
    )
    try:
        assert mem.audit("two_heads") == []
        counts = mem.counts()
        assert counts["Evidence"] == writers * per_writer
        assert counts["Operation"] == writers * per_writer
        ids = mem.store.run("count_record_ids", {"ns": namespace})[0]
        assert ids["distinct"] == ids["total"] == ids["positions"] == writers * per_writer
        # The op log, replayed in commit order through the same controller, gives the heads.
        ops = mem.store.driver.execute_query(
            "MATCH (o:Operation {ns: $ns})-[:FROM]->(e:Evidence) "
            "RETURN o.fact AS fact, o.pos AS pos, e.uid AS uid ORDER BY o.pos",
            ns=namespace,
        ).records
        ctl, states, plan = Controller(namespace=namespace), {}, Plan()
        for i, row in enumerate(ops):
            f = json.loads(row["fact"])
            fact = Fact(f["subject"], f["relation"], f["value"], f["intent"])
            key, _ = ctl.key_for(fact)
            ctl.apply(
                states.setdefault(key, KeyState(key)),
                fact,
                FactContext(row["uid"], row["pos"], i, None, None, 1, None),
                plan,
            )
        replayed = {k: s.head().value for k, s in states.items()}
        stored = {r["key"]: r["value"] for r in mem.audit("heads")}
        assert replayed == stored
    finally:
        mem.close()


def test_concurrent_hearsay_contests_one_key_with_every_value_as_its_alternative(
    neo4j_server, namespace
):
    """Many contested versions and one contested key are the same thing: the head is
    contested and every other contested version is its alternative (none left over)."""
    with Memory.connect(neo4j_server.bolt_url, namespace, neo4j_auth=neo4j_server.auth) as m:
        m.remember("Minjun", "meeting time", "8:00", record_id="base")
    errors: list[BaseException] = []

    def gossip(i: int) -> None:
        try:
            with Memory.connect(
                neo4j_server.bolt_url, namespace, neo4j_auth=neo4j_server.auth, install_schema=False
            ) as m:
                for j in range(5):
                    m.remember(
                        "Minjun",
                        "meeting time",
                        f"{9 + i}:{j}0",
                        authority="hearsay",
                        speaker=f"Gossip {i}",
                        record_id=f"g{i}-{j}",
                    )
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=gossip, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with Memory.connect(neo4j_server.bolt_url, namespace, neo4j_auth=neo4j_server.auth) as m:
        contested = m.audit("contested_keys")
        assert len(contested) == 1
        rows = m.store.driver.execute_query(
            "MATCH (v:Version {ns: $ns, status: 'contested'}) WHERE v.head_of IS NULL "
            "RETURN count(v) AS all, sum(count { (v)-[:ALTERNATIVE_OF]->(h:Version) "
            "WHERE h.head_of IS NOT NULL AND h.status = 'contested' }) AS of_head",
            ns=namespace,
        ).records[0]
        assert rows["all"] == 8 * 5 == len(contested[0]["alternatives"])
        assert rows["of_head"] == rows["all"]


def test_a_schema_rule_already_there_is_success(neo4j_server):
    # Workers installing a fresh database's schema together race inside "IF NOT EXISTS";
    # the loser hears "an equivalent index already exists". Without IF NOT EXISTS the
    # server says the same thing deterministically.
    from neo4j import GraphDatabase
    from neo4j.exceptions import ClientError

    from graphmem.store.neo4j.schema import run_schema_statement

    create = "CREATE INDEX graphmem_test_equal_rule FOR (n:SchemaProbe) ON (n.x)"
    with GraphDatabase.driver(neo4j_server.bolt_url, auth=neo4j_server.auth) as driver:
        try:
            run_schema_statement(driver, create)
            with pytest.raises(ClientError):  # what the race's loser is told
                driver.execute_query(create)
            run_schema_statement(driver, create)  # is success here
            with pytest.raises(ClientError):  # another index under that name is a conflict
                run_schema_statement(
                    driver, "CREATE INDEX graphmem_test_equal_rule FOR (n:SchemaProbe) ON (n.y)"
                )
        finally:
            driver.execute_query("DROP INDEX graphmem_test_equal_rule IF EXISTS")


def test_workers_install_a_schema_together(neo4j_server):
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def install() -> None:
        try:
            barrier.wait()
            Memory.connect(
                neo4j_server.bolt_url, "schema-race", neo4j_auth=neo4j_server.auth
            ).close()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=install) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
