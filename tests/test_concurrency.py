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
        mem = Memory.connect(neo4j_server.bolt_url, namespace, neo4j_auth=neo4j_server.auth,
                             install_schema=False)
        try:
            for start in range(0, per_writer, 25):
                mem.ingest([
                    Record(f"writer {w} says key{i % 7} is v{w}-{i}", id=f"w{w}-{i}",
                           facts=(Fact(f"key{i % 7}", "value", f"v{w}-{i}", "update"),))
                    for i in range(start, start + 25)
                ])
                # Re-sending an acknowledged batch adds nothing.
                mem.ingest([Record(f"writer {w} says key{start % 7} is v{w}-{start}",
                                   id=f"w{w}-{start}")])
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
    mem = Memory.connect(neo4j_server.bolt_url, namespace, neo4j_auth=neo4j_server.auth,
                         install_schema=False)
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
            ns=namespace).records
        ctl, states, plan = Controller(namespace=namespace), {}, Plan()
        for i, row in enumerate(ops):
            f = json.loads(row["fact"])
            fact = Fact(f["subject"], f["relation"], f["value"], f["intent"])
            key, _ = ctl.key_for(fact)
            ctl.apply(states.setdefault(key, KeyState(key)), fact,
                      FactContext(row["uid"], row["pos"], i, None, None, 1, None), plan)
        replayed = {k: s.head().value for k, s in states.items()}
        stored = {r["key"]: r["value"] for r in mem.audit("heads")}
        assert replayed == stored
    finally:
        mem.close()
