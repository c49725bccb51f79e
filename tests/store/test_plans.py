"""Plans that do not drift, and cost that other tenants cannot raise.

Every hot query in ``cypher/`` is PROFILEd for one small namespace twice: on a fresh
server whose plans were prepared while it was empty and whose first import left the index
statistics stale (there the planner once chose to scan every entity and search paths
between all pairs, and later to scan every head of the database), and on the shared test
server beside a crowded namespace holding every kind of node. Neither plan may scan a
whole label, index or the node store, the db hits must stay within a bound set by the
namespace's own size, and the crowd may not raise them: a query's cost follows its own
namespace, not the database.
"""

from __future__ import annotations

import socket
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict
from typing import Any

import pytest

from graphmem import Fact, LocalNeo4j, Memory, Record
from graphmem._cypher import cypher
from graphmem.domain.keys import KEY_SEP
from graphmem.store.neo4j.store import PLAN_SIZE, _padded_spans

pytestmark = [pytest.mark.integration, pytest.mark.slow]

# Operators that read a whole label, index or store regardless of the namespace asked.
SCANS = (
    "AllNodesScan",
    "NodeByLabelScan",
    "NodeIndexScan",
    "UndirectedRelationshipTypeScan",
    "DirectedRelationshipTypeScan",
    "DirectedAllRelationshipsScan",
    "UndirectedAllRelationshipsScan",
    "NodeIndexContainsScan",
    "NodeIndexEndsWithScan",
)
QUESTION = "What floor is Minjun's team on?"
AT = "2026-12-01T00:00:00Z"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _db_hits(plan: dict[str, Any]) -> int:
    return int(plan.get("dbHits", 0)) + sum(_db_hits(c) for c in plan.get("children", []))


def _operators(plan: dict[str, Any]) -> list[str]:
    out = [str(plan["operatorType"]).split("@")[0]]
    if "Scan" in out[0]:
        out[0] += ": " + str(plan.get("args", {}).get("Details", ""))
    for child in plan.get("children", []):
        out += _operators(child)
    return out


def _story(mem: Memory) -> None:
    """One small namespace with every kind of node the hot queries read."""
    mem.remember("Minjun", "team", "Platform", record_id="m1", speaker="minjun")
    mem.remember("Platform", "floor", "floor 5", record_id="m2")
    mem.remember("Minjun", "team", "Infra", record_id="m3", intent="update", speaker="minjun")
    mem.remember("Jisoo", "email", "j@x.io", record_id="m4")
    mem.revoke("Jisoo", "email")
    mem.remember("Minjun", "5k best", "27:12", speaker="minjun", record_id="m5")
    mem.remember("Minjun", "5k best", "26:00", speaker="jiyoung", record_id="m6")  # contested
    mem.ingest([Record("ran into jisoo at the gym, fun chat", id="u1")])
    mem.ingest([Record("a long chat with jisoo about climbing", id="u2")])
    mem.remember("Dana", "desk", "4B", record_id="m7")
    mem.erase("m7")


def _crowd(mem: Memory, n: int) -> None:
    """Another tenant: many entities, versions of every status, unresolved records."""
    mem.ingest(
        [
            Record(
                f"thing {i} is in box {i}",
                id=f"c{i}",
                facts=(Fact(f"thing {i % (n // 3)}", "location", f"box {i}"),),
            )
            for i in range(n)
        ]
    )
    mem.ingest([Record(f"note {i}: minjun floor team platform", id=f"n{i}") for i in range(n // 2)])
    for i in range(40):
        mem.remember(f"thing {i}", "location", f"crate {i}", speaker="someone else")
        mem.revoke(f"thing {i + 100}", "location")
        mem.erase(f"c{i + 500}")


def _hot_queries(mem: Memory) -> dict[str, dict[str, Any]]:
    """Each hot query of cypher/ with the parameters graphmem passes for this namespace."""
    ns = mem.namespace
    run = mem.store.driver.execute_query
    versions = [
        r["u"]
        for r in run("MATCH (v:Version {ns: $ns}) RETURN v.uid AS u ORDER BY u", ns=ns).records
    ]
    entities = [
        r["u"]
        for r in run("MATCH (e:Entity {ns: $ns}) RETURN e.uid AS u ORDER BY u", ns=ns).records
    ]
    kid = run(
        "MATCH (v:Version {ns: $ns, subject: 'Minjun', relation: 'team'}) "
        "RETURN v.kid AS k LIMIT 1",
        ns=ns,
    ).records[0]["k"]
    # The parameters as the store pads them: the plan profiled is the plan users get.
    spans = _padded_spans(mem._evidence.spans(QUESTION))
    record = f"{ns}/m1"
    queries: dict[str, dict[str, Any]] = {
        "evidence_cmc": {"spans": spans, "hops": 5, "ns": ns},
        "anchors": {"spans": spans},
        "key_versions": {"kids": [kid]},
        "known_records": {
            "rows": [{"uid": u, "ref": f"e-{i}"} for i, u in enumerate([record, f"{ns}/m7"])]
        },
        "max_pos": {"ns": ns},
        "unresolved_records": {"ns": ns},
        "active_view": {"ns": ns},
        "fresh_candidates": {
            "q": f'ns:"{ns}" AND (text:"minjun" OR text:"floor")'.ljust(PLAN_SIZE),
            "ns": ns,
            "limit": 50,
        },
        "watermark": {"ns": ns},
        "lock_namespace": {"ns": ns},
        "raw_changed": {"ns": ns},
        "erase_scope": {"uid": record},
        "erase_entities_of": {"uids": versions[:2]},
        "erase_turn_vectors": {"uid": record, "ns": ns},
        "erase_delete": {"uid": record, "versions": versions[:1], "ns": ns},
        "erase_tombstones": {
            "rows": [{"uid": f"{ns}/erased/e-0@{AT}", "ref": "e-0"}],
            "ns": ns,
            "at": AT,
        },
        "surviving_spellings": {"uids": versions[:2]},
        "erase_touched_operations": {"versions": versions[:1]},
        "erase_orphan_entities": {"uids": entities[:2]},
        "why": {"kid": kid, "limit": 100, "evidence_limit": 20},
        "why_set": {"prefix": kid + KEY_SEP, "limit": 100, "evidence_limit": 20},
        "why_graph": {"kid": kid},
        "history": {"kid": kid, "limit": 100, "offset": 0},
        "as_of_valid": {"kid": kid, "at": AT},
        "oplog_until": {"kid": kid, "at": AT},
        "graph_snapshot": {"ns": ns},
        "count_namespace": {"ns": ns},
        "count_record_ids": {"ns": ns},
        "all_records": {"ns": ns},
        "newest_records": {"ns": ns, "before": 2**62, "limit": 256},
        "entity_names": {"ns": ns},
        "has_hangul_names": {"ns": ns},
        "vectors_model": {"ns": ns},
        "vectors_claim": {"ns": ns, "model": "e5-small"},
        "vectors_missing": {"ns": ns, "limit": 256},
        "vectors_write": {
            "ns": ns,
            "rows": [
                {"kind": "record", "uid": record, "vector": [0.5] * 384},
                {"kind": "turn", "uid": record, "vector": [0.5] * 384},
                {"kind": "fact", "uid": versions[0], "vector": [0.5] * 384},
            ],
        },
        "vectors_stored": {"ns": ns},
        "vectors_clear": {"ns": ns, "limit": 10_000},
        "vectors_forget_model": {"ns": ns},
        "name_vectors_missing": {"ns": ns, "limit": 256},
        "name_vectors_write": {
            "ns": ns,
            "rows": [{"uid": entities[0], "name": "x", "vector": [0.5] * 384}],
        },
        "name_vectors_stored": {"ns": ns},
    }
    for name in (
        "heads",
        "two_heads",
        "contested_keys",
        "revoked_values",
        "status_labels",
        "supersedes_cycles",
        "supersedes_forward",
        "versions_without_evidence",
    ):
        queries[f"audit_{name}"] = {"ns": ns}
    return queries


def _profile(mem: Memory, name: str, params: dict[str, Any]) -> tuple[int, list[str]]:
    """PROFILE inside a transaction that is rolled back: write queries change nothing."""
    with mem.store.driver.session() as session:
        tx = session.begin_transaction()
        try:
            result = tx.run("PROFILE " + cypher(name), params)
            result.consume()
            plan = result.consume().profile
        finally:
            tx.rollback()
    assert plan is not None
    return _db_hits(plan), _operators(plan)


def _namespace_size(mem: Memory) -> int:
    counts = mem.counts()
    return sum(counts.values())


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second Neo4j with an empty store: the statistics a new user's database has."""
    server = LocalNeo4j(
        tmp_path_factory.mktemp("fresh") / "data",
        bolt_port=_free_port(),
        http_port=_free_port(),
        heap="512m",
        pagecache="64m",
    )
    status = server.start()
    try:
        # Connecting without installing the schema must work on an empty database (the
        # plans it prepares read an index that does not exist yet).
        Memory.connect(status.bolt_url, "before-schema", install_schema=False).close()
        yield status.bolt_url
    finally:
        server.stop()


@pytest.fixture(scope="module")
def profiles(fresh_server: str, neo4j_server: Any) -> Iterator[Callable[[str], Any]]:
    """(fresh, crowded) PROFILE of every hot query for the same small story. The fresh
    server's plans are the ones prepared when it was empty (``Memory.connect``), as a new
    user's are."""
    small = Memory.connect(fresh_server, "plan-small")
    _story(small)
    # A first import right after the indexes were created: their statistics are stale
    # (sampled empty), which once made the closure scan every head of the database.
    first_import = Memory.connect(fresh_server, "plan-first-import")
    _crowd(first_import, 2400)
    crowd = Memory.connect(
        neo4j_server.bolt_url, f"plan-crowd-{uuid.uuid4().hex[:8]}", neo4j_auth=neo4j_server.auth
    )
    _crowd(crowd, 3000)
    beside = Memory.connect(
        neo4j_server.bolt_url, f"plan-beside-{uuid.uuid4().hex[:8]}", neo4j_auth=neo4j_server.auth
    )
    _story(beside)
    fresh_q, crowded_q = _hot_queries(small), _hot_queries(beside)
    assert fresh_q.keys() == crowded_q.keys()
    size = max(_namespace_size(small), _namespace_size(beside))

    def both(name: str) -> tuple[tuple[int, list[str]], tuple[int, list[str]], int]:
        return _profile(small, name, fresh_q[name]), _profile(beside, name, crowded_q[name]), size

    yield both
    for mem in (small, first_import, crowd, beside):
        mem.close()


HOT = [
    "evidence_cmc",
    "anchors",
    "key_versions",
    "known_records",
    "max_pos",
    "unresolved_records",
    "active_view",
    "fresh_candidates",
    "watermark",
    "lock_namespace",
    "raw_changed",
    "erase_scope",
    "erase_entities_of",
    "erase_tombstones",
    "erase_turn_vectors",
    "erase_delete",
    "surviving_spellings",
    "erase_touched_operations",
    "erase_orphan_entities",
    "why",
    "why_set",
    "why_graph",
    "history",
    "as_of_valid",
    "oplog_until",
    "graph_snapshot",
    "count_namespace",
    "count_record_ids",
    "all_records",
    "newest_records",
    "entity_names",
    "has_hangul_names",
    "vectors_model",
    "vectors_claim",
    "vectors_missing",
    "vectors_write",
    "vectors_stored",
    "vectors_clear",
    "vectors_forget_model",
    "name_vectors_missing",
    "name_vectors_write",
    "name_vectors_stored",
    "audit_heads",
    "audit_two_heads",
    "audit_contested_keys",
    "audit_revoked_values",
    "audit_status_labels",
    "audit_supersedes_cycles",
    "audit_supersedes_forward",
    "audit_versions_without_evidence",
]


def test_every_hot_query_is_profiled():
    from graphmem._cypher import query_names

    untested = {
        n
        for n in query_names("")
        if not n.startswith(
            ("write_", "migrat", "link_", "update_", "clear_", "discard_", "respell_")
        )
    }
    untested -= set(HOT) | {
        "fulltext_index",
        "tenant_indexes",
        "await_indexes",
        "erasures_since",
    }
    untested = {n for n in untested if not n.startswith(("bench_", "compact_"))}  # offline
    assert not untested, f"hot queries without a plan test: {sorted(untested)}"


@pytest.mark.parametrize("name", HOT)
def test_plan_starts_from_the_namespace(profiles, name):
    (fresh_hits, fresh_ops), (crowd_hits, crowd_ops), size = profiles(name)
    for where, ops in (("fresh", fresh_ops), ("crowded", crowd_ops)):
        scans = sorted({op for op in ops if op.split(":")[0] in SCANS})
        assert not scans, f"{name} on the {where} server scans: {scans} ({ops})"
    # The bound comes from the namespace's own size (nodes + relationships of the story),
    # never from the database's.
    bound = 20 * size
    assert fresh_hits <= bound, f"{name}: {fresh_hits} db hits on a {size}-item namespace"
    assert crowd_hits <= bound, f"{name}: {crowd_hits} db hits beside the crowd"
    assert crowd_hits <= 2 * fresh_hits + 50, (
        f"{name}: the crowd raised db hits from {fresh_hits} to {crowd_hits}"
    )


def test_the_closure_reads_what_the_answer_needs(connect, namespace):
    crowd = connect(f"plan-crowd-{uuid.uuid4().hex[:8]}")  # many entities, elsewhere
    crowd.ingest(
        [
            Record(
                f"thing {i} is in box {i}",
                id=f"c{i}",
                facts=(Fact(f"thing {i}", "location", f"box {i}"),),
            )
            for i in range(1500)
        ]
    )
    mem = connect(namespace)
    mem.remember("Minjun", "team", "Platform", record_id="m1")
    mem.remember("Platform", "floor", "floor 5", record_id="m2")
    question = "What floor is Minjun's team on?"
    assert "floor 5" in mem.evidence(question).text
    spans = [asdict(s) for s in mem._evidence.spans(question)]
    result = mem.store.driver.execute_query(
        "PROFILE " + cypher("evidence_cmc"), spans=spans, hops=5, ns=mem.namespace
    )
    hits = _db_hits(result.summary.profile)
    assert hits < 500, f"{hits} db hits for a two-fact answer"
