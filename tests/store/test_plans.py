"""Plans that do not drift: the evidence closure starts from the question's anchors, so
its cost follows the answer, not the number of entities in the database (on a small fresh
database the planner once scanned every entity and searched paths between all pairs)."""

from __future__ import annotations

import uuid
from dataclasses import asdict
from typing import Any

import pytest

from graphmem import Fact, Record
from graphmem._cypher import cypher

pytestmark = pytest.mark.integration


def _db_hits(plan: dict[str, Any]) -> int:
    return int(plan.get("dbHits", 0)) + sum(_db_hits(c) for c in plan.get("children", []))


def test_the_closure_reads_what_the_answer_needs(connect, namespace):
    crowd = connect(f"plan-crowd-{uuid.uuid4().hex[:8]}")  # many entities, elsewhere
    crowd.ingest([Record(f"thing {i} is in box {i}", id=f"c{i}",
                         facts=(Fact(f"thing {i}", "location", f"box {i}"),))
                  for i in range(1500)])
    mem = connect(namespace)
    mem.remember("Minjun", "team", "Platform", record_id="m1")
    mem.remember("Platform", "floor", "floor 5", record_id="m2")
    question = "What floor is Minjun's team on?"
    assert "floor 5" in mem.evidence(question).text
    spans = [asdict(s) for s in mem._evidence.spans(question)]
    result = mem.store.driver.execute_query(
        "PROFILE " + cypher("evidence_cmc"), spans=spans, hops=5, ns=mem.namespace)
    hits = _db_hits(result.summary.profile)
    assert hits < 500, f"{hits} db hits for a two-fact answer"
